/* test_inputs.c - the inputs: reproducible from the seed, in their documented ranges, and
 * the two non-finite values where the seed puts them (CPU only). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "inputs.h"

enum { N_INPUTS = 100000 };

Test(inputs, same_seed_same_values_other_seed_other_values)
{
    static float x[N_INPUTS], y[N_INPUTS];
    for (int kind = INPUTS_RANDOM; kind <= INPUTS_INTEGERS; kind++) {
        fill_inputs(x, N_INPUTS, 2024, kind);
        fill_inputs(y, N_INPUTS, 2024, kind);
        cr_expect(memcmp(x, y, sizeof x) == 0, "kind %d: the same seed gives the same values", kind);
        fill_inputs(y, N_INPUTS, 2025, kind);
        int differ = 0;
        for (int i = 0; i < N_INPUTS; i++)
            differ += x[i] != y[i];
        cr_expect_gt(differ, N_INPUTS / 2, "kind %d: another seed gives other values (%d of %d differ)",
                     kind, differ, N_INPUTS);
    }
}

Test(inputs, random_values_in_minus_one_to_one)
{
    static float x[N_INPUTS];
    fill_inputs(x, N_INPUTS, 7, INPUTS_RANDOM);
    float lo = 1.0f, hi = -1.0f;
    double sum = 0.0;
    for (int i = 0; i < N_INPUTS; i++) {
        cr_assert(x[i] >= -1.0f && x[i] < 1.0f, "x[%d] = %.9g is outside [-1, 1)", i, (double)x[i]);
        float scaled = x[i] * 8388608.0f;   /* 2^23 */
        cr_assert_eq(scaled, truncf(scaled), "x[%d] = %.9g is not a multiple of 2^-23", i, (double)x[i]);
        lo = fminf(lo, x[i]);
        hi = fmaxf(hi, x[i]);
        sum += x[i];
    }
    cr_expect_lt(lo, -0.99f, "the range is used down to -1");
    cr_expect_gt(hi, 0.99f, "... and up to 1");
    cr_expect_lt(fabs(sum / N_INPUTS), 0.01, "centred on 0 (mean %g)", sum / N_INPUTS);
}

Test(inputs, integer_values_are_whole_numbers_in_minus_two_to_two)
{
    static float x[N_INPUTS];
    fill_inputs(x, N_INPUTS, 7, INPUTS_INTEGERS);
    int seen[5] = {0};
    for (int i = 0; i < N_INPUTS; i++) {
        cr_assert(x[i] >= -2.0f && x[i] <= 2.0f, "x[%d] = %g is outside {-2..2}", i, (double)x[i]);
        cr_assert_eq(x[i], floorf(x[i]), "x[%d] = %.9g is not a whole number", i, (double)x[i]);
        seen[(int)x[i] + 2]++;
    }
    for (int v = 0; v < 5; v++)
        cr_expect_gt(seen[v], N_INPUTS / 10, "the value %d appears (%d times)", v - 2, seen[v]);
}

Test(inputs, nonfinite_spots_are_inside_and_follow_the_seed)
{
    enum { M = 5, N = 7, K = 3 };
    float a[M * K], b[K * N];
    for (unsigned long long seed = 0; seed < 200; seed++) {
        fill_inputs(a, M * K, seed, INPUTS_RANDOM);
        fill_inputs(b, K * N, seed + 1, INPUTS_RANDOM);
        nonfinite_spots s = place_nonfinite(a, b, M, N, K, seed);
        cr_assert(s.nan_row >= 0 && s.nan_row < M && s.nan_k >= 0 && s.nan_k < K && s.inf_k >= 0 &&
                  s.inf_k < K && s.inf_col >= 0 && s.inf_col < N, "seed %llu: a spot outside", seed);
        cr_assert(isnan(a[s.nan_row * K + s.nan_k]) && isinf(b[s.inf_k * N + s.inf_col]) &&
                  b[s.inf_k * N + s.inf_col] > 0);
        int nan_count = 0, inf_count = 0;
        for (int i = 0; i < M * K; i++)
            nan_count += !isfinite(a[i]);
        for (int i = 0; i < K * N; i++)
            inf_count += !isfinite(b[i]);
        cr_assert(nan_count == 1 && inf_count == 1, "seed %llu: one special value each", seed);
        nonfinite_spots again = place_nonfinite(a, b, M, N, K, seed);
        cr_assert(memcmp(&s, &again, sizeof s) == 0, "the same seed, the same spots");
    }
}
