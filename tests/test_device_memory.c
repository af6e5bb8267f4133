/* test_device_memory.c - the GPU memory a run needs, and how the harness writes byte counts (CPU only). */
#include <criterion/criterion.h>
#include <stddef.h>

#include "device.h"

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

/* A binary's code runs on its own compute capability and newer (PTX): an older GPU is told
 * so in one line that names both architectures and the command that rebuilds for it. */
Test(device, a_gpu_older_than_the_binary_gets_the_rebuild_command)
{
    char msg[512] = "";
    cr_expect_eq(arch_mismatch(90, 8, 6, "NVIDIA GeForce RTX 3090", msg, sizeof msg), 1);
    cr_expect_str_eq(msg, "this binary holds code for sm_90 (and compute_90 PTX), which runs on GPUs of compute "
                          "capability 9.0 or newer; the NVIDIA GeForce RTX 3090 is sm_86: rebuild for it with "
                          "`make clean && make ARCH=sm_86`");
    cr_expect_eq(arch_mismatch(80, 7, 5, "Tesla T4", msg, sizeof msg), 1);
    cr_expect(strstr(msg, "the Tesla T4 is sm_75") && strstr(msg, "make ARCH=sm_75"));
    /* the same or a newer GPU runs it (the driver compiles the PTX), and an unknown build is not refused */
    cr_expect_eq(arch_mismatch(86, 9, 0, "NVIDIA H200", msg, sizeof msg), 0);
    cr_expect_eq(arch_mismatch(90, 9, 0, "NVIDIA H200", msg, sizeof msg), 0);
    cr_expect_eq(arch_mismatch(90, 12, 0, "NVIDIA GeForce RTX 5090", msg, sizeof msg), 0);
    cr_expect_eq(arch_mismatch(0, 7, 5, "Tesla T4", msg, sizeof msg), 0);
}
