/* test_stats.c - median, minimum and GFLOPS (CPU only). */
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
