/* device.c - error checks, device discovery, and the memory budget of a run. */
#include "device.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

void cuda_check(cudaError_t err, const char *call, const char *file, int line)
{
    if (err == cudaSuccess)
        return;
    fprintf(stderr, "error: %s failed at %s:%d: %s (%s)\n", call, file, line,
            cudaGetErrorString(err), cudaGetErrorName(err));
    exit(EXIT_CUDA);
}

void cublas_check(cublasStatus_t status, const char *call, const char *file, int line)
{
    if (status == CUBLAS_STATUS_SUCCESS)
        return;
    fprintf(stderr, "error: %s failed at %s:%d: %s (%s)\n", call, file, line,
            cublasGetStatusString(status), cublasGetStatusName(status));
    exit(EXIT_CUDA);
}

int cuda_device_count(char *why, size_t len)
{
    int count = 0, driver = 0, runtime = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count > 0) {
        snprintf(why, len, "%d CUDA device%s", count, count == 1 ? "" : "s");
        return count;
    }
    /* Without a driver the runtime reports cudaErrorInsufficientDriver, which reads as if
     * an upgrade would help; the driver version (0 when none is installed) tells apart. */
    (void)cudaDriverGetVersion(&driver);
    (void)cudaRuntimeGetVersion(&runtime);
    if (driver == 0)
        snprintf(why, len, "no NVIDIA driver is installed, so this machine has no GPU that CUDA can use");
    else if (err == cudaErrorInsufficientDriver)
        snprintf(why, len, "the NVIDIA driver supports CUDA %d.%d, older than this program's CUDA runtime %d.%d: "
                 "a newer driver is needed", driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
    else if (err == cudaSuccess || err == cudaErrorNoDevice)
        snprintf(why, len, "the NVIDIA driver (CUDA %d.%d) finds no GPU", driver / 1000, driver % 1000 / 10);
    else
        snprintf(why, len, "cudaGetDeviceCount failed: %s (%s)", cudaGetErrorString(err), cudaGetErrorName(err));
    return 0;
}

#ifndef BUILT_SM
#define BUILT_SM 0   /* the Makefile passes the architecture the steps are built for */
#endif

int arch_mismatch(int built_sm, int major, int minor, const char *gpu, char *msg, size_t len)
{
    int cc = major * 10 + minor;
    if (built_sm <= 0 || built_sm <= cc)
        return 0;
    snprintf(msg, len,
             "this binary holds code for sm_%d (and compute_%d PTX), which runs on GPUs of compute capability "
             "%d.%d or newer; the %s is sm_%d: rebuild for it with `make clean && make ARCH=sm_%d`",
             built_sm, built_sm, built_sm / 10, built_sm % 10, gpu, cc, cc);
    return 1;
}

void device_open(device_info *info)
{
    char why[256];
    if (cuda_device_count(why, sizeof why) == 0) {
        fprintf(stderr, "error: no CUDA device found: %s\n", why);
        exit(EXIT_CUDA);
    }
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    char msg[512];
    if (arch_mismatch(BUILT_SM, prop.major, prop.minor, prop.name, msg, sizeof msg)) {
        fprintf(stderr, "error: %s\n", msg);
        exit(EXIT_CUDA);
    }
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->sm_count = prop.multiProcessorCount;
    info->l2_bytes = prop.l2CacheSize;
    CUDA_CHECK(cudaRuntimeGetVersion(&info->runtime_version));
    CUDA_CHECK(cudaDriverGetVersion(&info->driver_version));
    CUDA_CHECK(cudaMemGetInfo(&info->free_bytes, &info->total_bytes));
}

/* a * b + c with overflow detection. */
static int mul_add(size_t a, size_t b, size_t c, size_t *out)
{
    size_t p;
    if (__builtin_mul_overflow(a, b, &p) || __builtin_add_overflow(p, c, out))
        return 0;
    return 1;
}

int device_bytes_needed(int m, int n, int k, int l2_bytes, size_t *bytes)
{
    const size_t f = sizeof(float);
    size_t a, b, c, total;
    if (!mul_add((size_t)m, (size_t)k, 0, &a) || !mul_add(a, f, 0, &a) ||
        !mul_add((size_t)k, (size_t)n, 0, &b) || !mul_add(b, f, 0, &b) ||
        !mul_add((size_t)m, (size_t)n, 0, &c) || !mul_add(c, f, 0, &c))
        return 0;
    /* A and |A|, B and |B|; C, C0, the reference and the bound |A||B|; C's guard bands. */
    if (!mul_add(a, 2, 0, &total) || !mul_add(b, 2, total, &total) ||
        !mul_add(c, 4, total, &total) || !mul_add(2 * GUARD_FLOATS, sizeof(float), total, &total) ||
        !mul_add((size_t)(l2_bytes > 0 ? l2_bytes : 0), 2, total, &total))
        return 0;
    *bytes = total;
    return 1;
}

void format_bytes(char *buf, size_t len, double bytes)
{
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 6) {
        bytes /= 1024.0;
        u++;
    }
    snprintf(buf, len, "%.2f %s", bytes, units[u]);
}

int harness_sm_count(cudaError_t *err)
{
    int device, sms = 0;
    *err = cudaGetDevice(&device);
    if (*err == cudaSuccess)
        *err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    return *err == cudaSuccess ? sms : 0;
}

void *harness_workspace(size_t bytes, cudaError_t *err)
{
    static void *memory;
    static size_t size;
    *err = cudaSuccess;
    if (bytes <= size)
        return memory;
    if (memory != NULL)
        *err = cudaFree(memory);
    memory = NULL;
    size = 0;
    if (*err == cudaSuccess)
        *err = cudaMalloc(&memory, bytes);
    if (*err == cudaSuccess)
        *err = cudaMemset(memory, 0, bytes);
    if (*err != cudaSuccess)
        return NULL;
    size = bytes;
    return memory;
}

size_t harness_tile_count(int m, int n, int bm, int bn)
{
    return ((size_t)m + bm - 1) / bm * (((size_t)n + bn - 1) / bn);
}

int harness_tiles_cover_sms(int m, int n, int bm, int bn, cudaError_t *err)
{
    int sms = harness_sm_count(err);
    return *err == cudaSuccess && harness_tile_count(m, n, bm, bn) >= (size_t)sms;
}
