/* test_stats.c - median, minimum, GFLOPS, and the GPU memory a run needs (CPU only). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "device.h"
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

Test(device_memory, bytes_needed_small_and_exact)
{
    size_t bytes = 0;
    /* A 2x4 (32 B) twice, B 4x3 (48 B) twice, C 2x3 (24 B) four times, C's two 4 KiB
     * guard bands, the flush buffer 2 * L2. */
    cr_assert(device_bytes_needed(2, 3, 4, 100, &bytes));
    cr_expect_eq(bytes, (size_t)(2 * 32 + 2 * 48 + 4 * 24 + 8192 + 2 * 100));
    cr_assert(device_bytes_needed(1, 1, 1, 0, &bytes));
    cr_expect_eq(bytes, (size_t)32 + 8192);
    cr_assert(device_bytes_needed(1, 1, 1, -5, &bytes));
    cr_expect_eq(bytes, (size_t)32 + 8192, "a negative L2 size counts as none");
}

Test(device_memory, bytes_needed_for_a_large_problem)
{
    size_t bytes = 0;
    cr_assert(device_bytes_needed(100000, 100000, 100000, 50 << 20, &bytes));
    cr_expect_eq(bytes, (size_t)8 * 40000000000ULL + 8192 + 2 * (size_t)(50 << 20));
}

Test(device_memory, bytes_needed_overflow_returns_zero)
{
    size_t bytes = 12345;
    cr_expect_eq(device_bytes_needed(2147483647, 2147483647, 2147483647, 0, &bytes), 0);
    cr_expect_eq(bytes, (size_t)12345, "*bytes is left alone on overflow");
    cr_expect_eq(device_bytes_needed(2147483647, 2147483647, 2147483647, 2147483647, &bytes), 0);
    cr_expect_eq(bytes, (size_t)12345);
}

Test(device_memory, format_bytes)
{
    char buf[32];
    format_bytes(buf, sizeof buf, 0.0);
    cr_expect_str_eq(buf, "0.00 B");
    format_bytes(buf, sizeof buf, 1023.0);
    cr_expect_str_eq(buf, "1023.00 B");
    format_bytes(buf, sizeof buf, 1024.0);
    cr_expect_str_eq(buf, "1.00 KiB");
    format_bytes(buf, sizeof buf, 1536.0);
    cr_expect_str_eq(buf, "1.50 KiB");
    format_bytes(buf, sizeof buf, 1.5 * 1024 * 1024 * 1024);
    cr_expect_str_eq(buf, "1.50 GiB");
    format_bytes(buf, sizeof buf, 80.0 * 1024 * 1024 * 1024);
    cr_expect_str_eq(buf, "80.00 GiB");
    format_bytes(buf, sizeof buf, 3.2e11);
    cr_expect_str_eq(buf, "298.02 GiB");
    format_bytes(buf, sizeof buf, 4.0 * 1024 * 1024 * 1024 * 1024 * 1024 * 1024);
    cr_expect_str_eq(buf, "4.00 EiB");
    format_bytes(buf, sizeof buf, 2048.0 * 1024 * 1024 * 1024 * 1024 * 1024 * 1024);
    cr_expect_str_eq(buf, "2048.00 EiB", "EiB is the largest unit");
    char small[6];
    format_bytes(small, sizeof small, 1536.0);
    cr_expect_str_eq(small, "1.50 ", "cut to the buffer, NUL-terminated");
}
