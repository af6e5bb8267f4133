/* test_stats.c - median, minimum, the disturbance rule and GFLOPS (CPU only). */
#include <criterion/criterion.h>

#include "stats.h"

Test(stats, median_of_an_odd_count)
{
    double x[] = {3.0, 1.0, 2.0};
    cr_expect_eq(median(x, 3), 2.0);
}

Test(stats, median_of_an_even_count_is_the_mean_of_the_middle_two)
{
    double x[] = {4.0, 1.0, 3.0, 2.0};
    cr_expect_eq(median(x, 4), 2.5);
    double y[] = {10.0, 0.5};
    cr_expect_eq(median(y, 2), 5.25);
}

Test(stats, median_of_unsorted_timings)
{
    double x[] = {0.9, 0.31, 5.0, 0.3, 0.32, 0.29, 0.33};
    cr_expect_eq(median(x, 7), 0.32);
    for (int i = 1; i < 7; i++)
        cr_expect_leq(x[i - 1], x[i], "median() sorts its input, as documented");
}

Test(stats, median_of_one_and_of_equal_values)
{
    double x[] = {7.25};
    cr_expect_eq(median(x, 1), 7.25);
    double y[] = {2.0, 2.0, 2.0, 2.0};
    cr_expect_eq(median(y, 4), 2.0);
}

Test(stats, minimum)
{
    double x[] = {3.0, 0.5, 2.0, 0.75};
    cr_expect_eq(minimum(x, 4), 0.5);
    double y[] = {0.25, 9.0};
    cr_expect_eq(minimum(y, 2), 0.25, "the first element");
    double z[] = {9.0, 0.125};
    cr_expect_eq(minimum(z, 2), 0.125, "the last element");
    double one[] = {4.0};
    cr_expect_eq(minimum(one, 1), 4.0);
}

Test(stats, gflops)
{
    cr_expect_float_eq(gflops(1024, 1024, 1024, 1.0), 2147.483648, 1e-9);
    cr_expect_float_eq(gflops(1024, 1024, 1024, 2.0), 1073.741824, 1e-9);
    cr_expect_float_eq(gflops(1, 1, 1, 1.0), 2e-6, 1e-18);
    cr_expect_float_eq(gflops(1024, 768, 640, 1.0), 1006.63296, 1e-9);
    /* 2*M*N*K far beyond int: no overflow. */
    cr_expect_float_eq(gflops(100000, 100000, 100000, 1000.0), 2e6, 1e-6);
    cr_expect_float_eq(gflops(2147483647, 2147483647, 2, 1.0),
                       2.0 * 2147483647.0 * 2147483647.0 * 2.0 / 1e6, 1.0);
}

/* The disturbance rule on synthetic launch sets of 10 timings, in the order they ran:
 * clean ones (a few percent of noise, one stray slow launch) are steady; a burst over
 * the first rounds (cuBLAS 13x slower, as seen in one run), a step that slows 1.6x half
 * way, and a drift past 10% are disturbed. The timings are left as they were. */
Test(stats, the_disturbance_rule_tells_a_disturbed_set_from_a_clean_one)
{
    double spread;
    double clean[] = {1.00, 1.02, 0.99, 1.01, 1.03, 1.00, 0.98, 1.01, 1.02, 1.00};
    cr_expect_not(disturbed(clean, 10, &spread), "a clean set is disturbed (spread %g)", spread);
    cr_expect_lt(spread, 0.02, "spread %g", spread);
    cr_expect_eq(clean[0], 1.00, "the timings were changed");
    cr_expect_eq(clean[9], 1.00, "the timings were changed");
    double one_stray[] = {1.00, 1.01, 5.00, 1.00, 0.99, 1.01, 1.00, 1.02, 0.99, 1.00};
    cr_expect_not(disturbed(one_stray, 10, &spread), "one stray launch moves no median (spread %g)", spread);
    double burst[] = {13.1, 13.4, 12.9, 13.0, 1.00, 1.01, 0.99, 1.00, 1.02, 1.00};
    cr_expect(disturbed(burst, 10, &spread), "a burst over the first 4 rounds is not seen (spread %g)", spread);
    cr_expect_gt(spread, 10.0, "spread %g", spread);
    double slows[] = {1.00, 1.01, 0.99, 1.00, 1.01, 1.60, 1.62, 1.61, 1.59, 1.60};
    cr_expect(disturbed(slows, 10, &spread), "a 1.6x slowdown half way is not seen (spread %g)", spread);
    cr_expect_float_eq(spread, 0.60, 0.02, "spread %g", spread);
    double drift[] = {1.00, 1.00, 1.00, 1.00, 1.00, 1.12, 1.12, 1.12, 1.12, 1.12};
    cr_expect(disturbed(drift, 10, &spread), "a 12%% drift is not seen (spread %g)", spread);
    double within[] = {1.00, 1.00, 1.00, 1.00, 1.00, 1.08, 1.08, 1.08, 1.08, 1.08};
    cr_expect_not(disturbed(within, 10, &spread), "an 8%% difference, under the rule's 10%%, is called disturbed (spread %g)", spread);
    double odd[] = {1.0, 1.0, 2.0, 2.0, 2.0};   /* halves of 2 and 3 */
    cr_expect(disturbed(odd, 5, &spread));
    cr_expect_float_eq(spread, 1.0, 1e-12);
    double one[] = {3.0};
    cr_expect_not(disturbed(one, 1, &spread), "one timing cannot be judged");
    cr_expect_eq(spread, 0.0);
}
