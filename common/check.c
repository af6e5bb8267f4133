/* check.c - the bound, and the comparison that lets no NaN, Inf or unwritten element pass. */
#include "check.h"

#include <float.h>
#include <math.h>

double error_bound(int k, float alpha, float beta, float abs_ab, float c0)
{
    const double u = 1.0 / 16777216.0;   /* 2^-24, the unit roundoff of FP32 */
    double magnitude = fabs((double)alpha) * abs_ab + fabs((double)beta) * fabs((double)c0);
    /* FLT_MIN keeps the bound positive where every product is zero. */
    return (2.0 * k + 8.0) * u * magnitude + FLT_MIN;
}

check_result check_against_reference(const float *c, const float *ref, const float *abs_ab,
                                     const float *c0, size_t count, int k, float alpha,
                                     float beta, int exact)
{
    check_result r = {1, 0, 0, 0.0, 0, 0.0f, 0.0f};
    for (size_t i = 0; i < count; i++) {
        double ratio;
        if (!isfinite(ref[i])) {
            /* NaN or Inf in the inputs: C must carry it as cuBLAS does. */
            r.n_nonfinite++;
            int same = isnan(ref[i]) ? isnan(c[i]) : c[i] == ref[i];
            ratio = same ? 0.0 : INFINITY;
        } else if (!isfinite(c[i])) {
            ratio = INFINITY;
        } else {
            double diff = fabs((double)c[i] - (double)ref[i]);
            if (exact)
                ratio = diff == 0.0 ? 0.0 : INFINITY;
            else
                ratio = diff / error_bound(k, alpha, beta, abs_ab[i], c0 ? c0[i] : 0.0f);
        }
        if (!(ratio <= 1.0))
            r.n_bad++;
        if (i == 0 || ratio > r.worst_ratio) {
            r.worst_ratio = ratio;
            r.worst_index = i;
            r.worst_value = c[i];
            r.worst_ref = ref[i];
        }
    }
    r.pass = r.n_bad == 0;
    return r;
}

int integer_inputs_are_exact(int k, float alpha, float beta)
{
    /* |sum| <= 4K, and alpha*sum + beta*c0 <= |alpha|*4K + |beta|*2 must stay below 2^24
     * with integer alpha and beta, so that every partial sum is an exact FP32 integer. */
    if (alpha != floorf(alpha) || beta != floorf(beta))
        return 0;
    double biggest = fabs((double)alpha) * 4.0 * k + fabs((double)beta) * 2.0;
    return 4.0 * k < 16777216.0 && biggest < 16777216.0;
}
