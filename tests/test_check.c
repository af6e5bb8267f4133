/* test_check.c - the error bound and the element-wise check against the reference (CPU only). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "inputs.h"

Test(check, error_bound_grows_with_k)
{
    double b8 = error_bound(8, 1.0f, 0.0f, 1.0f, 0.0f);
    double b64 = error_bound(64, 1.0f, 0.0f, 1.0f, 0.0f);
    double b4096 = error_bound(4096, 1.0f, 0.0f, 1.0f, 0.0f);
    cr_expect_gt(b8, 0.0);
    cr_expect_gt(b64, b8);
    cr_expect_gt(b4096, b64);
    /* Of the order of K unit roundoffs: above K*2^-24, far below 1. */
    cr_expect_gt(b4096, 4096.0 / 16777216.0);
    cr_expect_lt(b4096, 0.01);
}

Test(check, error_bound_grows_with_magnitudes)
{
    double base = error_bound(64, 1.0f, 0.0f, 1.0f, 0.0f);
    cr_expect_gt(error_bound(64, 1.0f, 0.0f, 10.0f, 0.0f), base, "larger sum |a||b|");
    cr_expect_gt(error_bound(64, 2.0f, 0.0f, 1.0f, 0.0f), base, "larger |alpha|");
    cr_expect_eq(error_bound(64, -2.0f, 0.0f, 1.0f, 0.0f), error_bound(64, 2.0f, 0.0f, 1.0f, 0.0f),
                 "the sign of alpha does not matter");
    cr_expect_gt(error_bound(64, 1.0f, 0.5f, 1.0f, 3.0f), base, "beta * C0 adds");
    cr_expect_gt(error_bound(64, 1.0f, -0.5f, 1.0f, -3.0f), base, "|beta| |C0|, whatever the signs");
    cr_expect_eq(error_bound(64, 1.0f, 0.0f, 1.0f, 1e30f), base, "with beta = 0, C0 does not count");
    cr_expect_gt(error_bound(64, 0.0f, 0.0f, 0.0f, 0.0f), 0.0, "never zero, even for all-zero inputs");
}

/* A small GEMM in double, rounded once to FP32: what a correct FP32 result is near. */
typedef struct {
    int m, n, k;
    float alpha, beta;
    float *a, *b, *c0, *ref, *abs_ab;
} problem;

static problem make_problem(int m, int n, int k, float alpha, float beta, int all_positive)
{
    problem p = {m, n, k, alpha, beta, NULL, NULL, NULL, NULL, NULL};
    p.a = malloc(sizeof(float) * m * k);
    p.b = malloc(sizeof(float) * k * n);
    p.c0 = malloc(sizeof(float) * m * n);
    p.ref = malloc(sizeof(float) * m * n);
    p.abs_ab = malloc(sizeof(float) * m * n);
    cr_assert(p.a && p.b && p.c0 && p.ref && p.abs_ab);
    fill_inputs(p.a, (size_t)m * k, 1, INPUTS_RANDOM);
    fill_inputs(p.b, (size_t)k * n, 2, INPUTS_RANDOM);
    fill_inputs(p.c0, (size_t)m * n, 3, INPUTS_RANDOM);
    if (all_positive) {   /* no cancellation: the result is as large as its magnitudes */
        for (int i = 0; i < m * k; i++)
            p.a[i] = fabsf(p.a[i]) + 0.5f;
        for (int i = 0; i < k * n; i++)
            p.b[i] = fabsf(p.b[i]) + 0.5f;
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0, abs_s = 0.0;
            for (int l = 0; l < k; l++) {
                s += (double)p.a[i * k + l] * p.b[l * n + j];
                abs_s += fabs((double)p.a[i * k + l] * p.b[l * n + j]);
            }
            p.ref[i * n + j] = (float)(alpha * s + beta * (double)p.c0[i * n + j]);
            p.abs_ab[i * n + j] = (float)abs_s;
        }
    return p;
}

static void free_problem(problem *p)
{
    free(p->a);
    free(p->b);
    free(p->c0);
    free(p->ref);
    free(p->abs_ab);
}

static float ulps_away(float x, int ulps)
{
    for (int i = 0; i < abs(ulps); i++)
        x = nextafterf(x, ulps > 0 ? INFINITY : -INFINITY);
    return x;
}

static check_result run_check(const problem *p, const float *c, int exact)
{
    return check_against_reference(c, p->ref, p->abs_ab, p->beta != 0.0f ? p->c0 : NULL,
                                   (size_t)p->m * p->n, p->k, p->alpha, p->beta, exact);
}

Test(check, accepts_a_couple_of_ulps_at_k64)
{
    problem p = make_problem(16, 16, 64, 1.25f, -0.5f, 0);
    float c[256];
    for (int i = 0; i < 256; i++)
        c[i] = ulps_away(p.ref[i], i % 2 ? 2 : -2);
    check_result r = run_check(&p, c, 0);
    cr_expect_eq(r.pass, 1, "2 ulps off a correctly rounded result must pass (worst ratio %g at %zu)",
                 r.worst_ratio, r.worst_index);
    cr_expect_eq(r.n_bad, 0);
    cr_expect_gt(r.worst_ratio, 0.0, "the elements do differ");
    cr_expect_leq(r.worst_ratio, 1.0);
    free_problem(&p);
}

Test(check, accepts_equality_with_beta_zero_and_no_c0)
{
    problem p = make_problem(8, 8, 8, 1.0f, 0.0f, 0);
    check_result r = run_check(&p, p.ref, 0);
    cr_expect_eq(r.pass, 1);
    cr_expect_eq(r.n_bad, 0);
    cr_expect_eq(r.worst_ratio, 0.0);
    free_problem(&p);
}

Test(check, rejects_one_element_off_by_1000_ulps_at_k8)
{
    problem p = make_problem(8, 8, 8, 1.0f, 0.0f, 1);
    float c[64];
    memcpy(c, p.ref, sizeof c);
    c[37] = ulps_away(p.ref[37], 1000);
    check_result r = run_check(&p, c, 0);
    cr_expect_eq(r.pass, 0, "1000 ulps at K=8 must fail (worst ratio %g)", r.worst_ratio);
    cr_expect_eq(r.n_bad, 1);
    cr_expect_eq(r.worst_index, 37);
    cr_expect_gt(r.worst_ratio, 1.0);
    cr_expect(isfinite(r.worst_ratio));
    cr_expect_eq(r.worst_value, c[37]);
    cr_expect_eq(r.worst_ref, p.ref[37]);
    free_problem(&p);
}

/* c = ref except one element, which is `bad`: the check must fail there. */
static void expect_caught(float bad, size_t where, const char *what)
{
    problem p = make_problem(8, 8, 16, 1.0f, 0.5f, 0);
    float c[64];
    memcpy(c, p.ref, sizeof c);
    memcpy(&c[where], &bad, sizeof bad);
    check_result r = run_check(&p, c, 0);
    cr_expect_eq(r.pass, 0, "%s must fail", what);
    cr_expect_eq(r.n_bad, 1, "%s: n_bad", what);
    cr_expect_eq(r.worst_index, where, "%s: worst_index", what);
    cr_expect(isinf(r.worst_ratio) && r.worst_ratio > 0, "%s: the worst ratio is +infinity, not %g", what,
              r.worst_ratio);
    cr_expect_eq(r.worst_ref, p.ref[where], "%s: worst_ref", what);
    free_problem(&p);
}

Test(check, rejects_nan)
{
    expect_caught(NAN, 5, "a NaN");
}

Test(check, rejects_infinities)
{
    expect_caught(INFINITY, 9, "+Inf");
    expect_caught(-INFINITY, 63, "-Inf");
}

Test(check, rejects_the_poison_pattern)
{
    /* The harness memsets C to 0xff when beta == 0: an element the step never wrote. */
    uint32_t bits = 0xFFFFFFFFu;
    float poison;
    memcpy(&poison, &bits, sizeof poison);
    cr_assert(isnan(poison));
    expect_caught(poison, 11, "an unwritten (poisoned) element");
    expect_caught(poison, 0, "an unwritten first element");
}

Test(check, rejects_an_entirely_unwritten_result)
{
    problem p = make_problem(4, 4, 4, 1.0f, 0.0f, 0);
    float c[16];
    memset(c, 0xff, sizeof c);
    check_result r = run_check(&p, c, 0);
    cr_expect_eq(r.pass, 0);
    cr_expect_eq(r.n_bad, 16);
    free_problem(&p);
}

Test(check, counts_every_bad_element_and_points_at_the_worst)
{
    problem p = make_problem(8, 8, 8, 1.0f, 0.0f, 1);
    float c[64];
    memcpy(c, p.ref, sizeof c);
    c[3] = ulps_away(p.ref[3], 1000);
    c[20] = NAN;
    c[50] = ulps_away(p.ref[50], -5000);
    check_result r = run_check(&p, c, 0);
    cr_expect_eq(r.pass, 0);
    cr_expect_eq(r.n_bad, 3);
    cr_expect_eq(r.worst_index, 20, "the NaN is the worst");
    free_problem(&p);
}

Test(check, exact_mode_demands_equality)
{
    float ref[4] = {3.0f, -8.0f, 0.0f, 1024.0f}, abs_ab[4] = {5.0f, 8.0f, 4.0f, 2048.0f};
    float c[4];
    memcpy(c, ref, sizeof c);
    check_result r = check_against_reference(c, ref, abs_ab, NULL, 4, 33, 1.0f, 0.0f, 1);
    cr_expect_eq(r.pass, 1, "equality passes in exact mode");
    cr_expect_eq(r.worst_ratio, 0.0);

    c[3] = nextafterf(1024.0f, INFINITY);
    r = check_against_reference(c, ref, abs_ab, NULL, 4, 33, 1.0f, 0.0f, 1);
    cr_expect_eq(r.pass, 0, "1 ulp fails in exact mode");
    cr_expect_eq(r.n_bad, 1);
    cr_expect_eq(r.worst_index, 3);
    cr_expect(isinf(r.worst_ratio));
    r = check_against_reference(c, ref, abs_ab, NULL, 4, 33, 1.0f, 0.0f, 0);
    cr_expect_eq(r.pass, 1, "... while the same 1 ulp passes the bound");
}

Test(check, integer_inputs_are_exact_only_when_fp32_can_hold_them)
{
    cr_expect(integer_inputs_are_exact(33, 1.0f, 2.0f));
    cr_expect(integer_inputs_are_exact(256, 1.0f, 2.0f));
    cr_expect(integer_inputs_are_exact(1024, -3.0f, 0.0f), "negative integer alpha");
    cr_expect(integer_inputs_are_exact(4096, 1.0f, 0.0f));
    cr_expect_not(integer_inputs_are_exact(64, 0.5f, 0.0f), "alpha = 0.5");
    cr_expect_not(integer_inputs_are_exact(64, 1.0f, 0.25f), "beta = 0.25");
    cr_expect_not(integer_inputs_are_exact(1 << 22, 1.0f, 0.0f), "4K reaches 2^24");
    cr_expect_not(integer_inputs_are_exact(2147483647, 1.0f, 0.0f), "huge K");
    cr_expect_not(integer_inputs_are_exact(4096, 4096.0f, 0.0f), "alpha * 4K beyond 2^24");
    cr_expect_not(integer_inputs_are_exact(64, 1.0f, 1e10f), "beta * 2 beyond 2^24");
}

/* NaN or Inf in the inputs: where cuBLAS's element is non-finite, ours must be of the
 * same class (NaN, +Inf or -Inf); where cuBLAS's is finite, ours must be finite. */
Test(check, nonfinite_reference_demands_the_same_class)
{
    problem p = make_problem(4, 4, 8, 1.0f, 0.0f, 0);
    p.ref[1] = NAN;
    p.ref[2] = INFINITY;
    p.ref[3] = -INFINITY;
    float c[16];
    memcpy(c, p.ref, sizeof c);
    check_result r = run_check(&p, c, 0);
    cr_expect(r.pass, "the same NaN and infinities pass");
    cr_expect_eq(r.n_nonfinite, 3);
    cr_expect_eq(r.n_bad, 0);

    const float wrong[][2] = {{1, 0.5f}, {2, -INFINITY}, {2, NAN}, {3, 1e30f}, {1, INFINITY}};
    for (int i = 0; i < 5; i++) {
        memcpy(c, p.ref, sizeof c);
        c[(int)wrong[i][0]] = wrong[i][1];
        r = run_check(&p, c, 0);
        cr_expect_eq(r.pass, 0, "case %d: %g where cuBLAS has %g", i, (double)wrong[i][1],
                     (double)p.ref[(int)wrong[i][0]]);
        cr_expect_eq(r.n_bad, 1, "case %d", i);
    }
    r = run_check(&p, c, 1);
    cr_expect_eq(r.pass, 0, "the same in exact mode");
    free_problem(&p);
}
