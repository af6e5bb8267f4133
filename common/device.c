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

/* Why SGEMM_PLAN_DEVICE was refused (harness_gpu_limits). */
static char plan_device_why[256];

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
    gpu_limits gpu;
    cudaError_t err;
    const char *spec = getenv(PLAN_DEVICE_VAR);
    if (!harness_gpu_limits(&gpu, &err)) {
        CUDA_CHECK(err);
        fprintf(stderr, "error: %s='%s': %s\n", PLAN_DEVICE_VAR, spec, plan_device_why);
        exit(EXIT_USAGE);
    }
    snprintf(info->plan_device, sizeof info->plan_device, "%s", spec ? spec : "");
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

/* A buffer kept from one launch to the next (harness_workspace, harness_counts), and its size in bytes. */
typedef struct {
    void *at;
    size_t bytes;
} kept_buffer;
static kept_buffer workspace, counts;

/* k at least `bytes` long: as it is, or replaced by a new one, zeroed where `zero` is 1. */
static void *keep(kept_buffer *k, size_t bytes, int zero, cudaError_t *err)
{
    *err = cudaSuccess;
    if (bytes <= k->bytes)
        return k->at;
    if (k->at != NULL)
        *err = cudaFree(k->at);
    k->at = NULL;
    k->bytes = 0;
    if (*err == cudaSuccess)
        *err = cudaMalloc(&k->at, bytes);
    if (*err == cudaSuccess && zero)
        *err = cudaMemset(k->at, 0, bytes);
    if (*err != cudaSuccess)
        return NULL;
    k->bytes = bytes;
    return k->at;
}

void *harness_workspace(size_t bytes, cudaError_t *err)
{
    return keep(&workspace, bytes, 0, err);
}

int *harness_counts(long long count, cudaError_t *err)
{
    return keep(&counts, (size_t)count * sizeof(int), 1, err);
}

void harness_workspace_free(void)
{
    kept_buffer *kept[] = {&workspace, &counts};
    for (int i = 0; i < 2; i++) {
        if (kept[i]->at != NULL)
            CUDA_CHECK(cudaFree(kept[i]->at));
        kept[i]->at = NULL;
        kept[i]->bytes = 0;
    }
}

int harness_gpu_limits(gpu_limits *gpu, cudaError_t *err)
{
    static gpu_limits known;
    static int state;   /* 0: not asked yet, 1: known, -1: SGEMM_PLAN_DEVICE refused */
    *err = cudaSuccess;
    if (state == 0) {
        int device;
        struct { int *to; enum cudaDeviceAttr attr; } asks[] = {
            {&known.sms, cudaDevAttrMultiProcessorCount},
            {&known.smem_block, cudaDevAttrMaxSharedMemoryPerBlockOptin},
            {&known.smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor},
            {&known.smem_reserved, cudaDevAttrReservedSharedMemoryPerBlock},
            {&known.regs_sm, cudaDevAttrMaxRegistersPerMultiprocessor},
            {&known.threads_sm, cudaDevAttrMaxThreadsPerMultiProcessor},
            {&known.blocks_sm, cudaDevAttrMaxBlocksPerMultiprocessor},
            {&known.clusters, cudaDevAttrClusterLaunch},
        };
        *err = cudaGetDevice(&device);
        for (size_t i = 0; *err == cudaSuccess && i < sizeof asks / sizeof asks[0]; i++)
            *err = cudaDeviceGetAttribute(asks[i].to, asks[i].attr, device);
        if (*err != cudaSuccess)
            return 0;
        const char *spec = getenv(PLAN_DEVICE_VAR);
        state = !spec || fit_shrink(&known, spec, plan_device_why, sizeof plan_device_why) ? 1 : -1;
    }
    *gpu = known;
    return state == 1;
}

cudaError_t harness_ask_smem(const void *kernel, size_t bytes)
{
    gpu_limits gpu;
    cudaError_t err;
    if (!harness_gpu_limits(&gpu, &err))
        return err == cudaSuccess ? cudaErrorInvalidValue : err;
    if (bytes > (size_t)gpu.smem_block) {
        fprintf(stderr, "error: shared memory: a block asks for %zu bytes (%.1f KiB), and this device lets a block "
                        "have %d (%.1f KiB)%s\n", bytes, bytes / 1024.0, gpu.smem_block, gpu.smem_block / 1024.0,
                getenv(PLAN_DEVICE_VAR) ? " as " PLAN_DEVICE_VAR " sets it" : "");
        return cudaErrorInvalidValue;
    }
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
}

void harness_explain_cluster(const void *kernel, const cudaLaunchConfig_t *config, int cluster_blocks,
                             cudaError_t err)
{
    int device, supported = 0, fit = -1;
    if (cudaGetDevice(&device) == cudaSuccess)
        (void)cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, device);
    if (supported && cudaOccupancyMaxActiveClusters(&fit, kernel, config) != cudaSuccess)
        fit = -1;
    (void)cudaGetLastError();   /* the query's own error, if any, is not the launch's */
    char holds[96];
    if (!supported)
        snprintf(holds, sizeof holds, "this device does not launch clusters");
    else if (fit >= 0)
        snprintf(holds, sizeof holds, "%d such clusters fit on this device at once", fit);
    else
        snprintf(holds, sizeof holds, "how many fit could not be read");
    fprintf(stderr, "error: thread-block clusters: a cluster of %d blocks of %u threads and %.1f KiB of shared "
                    "memory each was refused (%s): %s\n", cluster_blocks, config->blockDim.x,
            config->dynamicSmemBytes / 1024.0, cudaGetErrorName(err), holds);
}

size_t harness_tile_count(int m, int n, int bm, int bn)
{
    return ((size_t)m + bm - 1) / bm * (((size_t)n + bn - 1) / bn);
}

tile_plan harness_plan_stages(const gemm_args *g, int stages, const tile_option options[2], cudaError_t *err)
{
    gpu_limits gpu;
    tile_plan p = {0};
    if (harness_gpu_limits(&gpu, err))
        p = fit_tiles(g->m, g->n, stages, options, 0, &gpu);
    return p;
}

tile_plan harness_plan_tiles(const gemm_args *g, const tile_option options[2], cudaError_t *err)
{
    return harness_plan_stages(g, g->stages, options, err);
}

const char *harness_describe_tiles(const gemm_args *g, const tile_option options[2], const tile_plan *p,
                                   const char *words, char *buf, size_t len)
{
    const tile_option *t = &options[p->tile];
    char why[96], stages[64] = "", blocks[96];
    if (p->tile == 0)
        snprintf(why, sizeof why, "one or more tiles per SM");
    else
        snprintf(why, sizeof why, "fewer %dx%d tiles than SMs", options[0].bm, options[0].bn);
    if (p->stages && p->stages != g->stages)
        snprintf(stages, sizeof stages, ", %d stages (%d do not fit in a block)", p->stages, g->stages);
    fit_describe_blocks(p, t->min_blocks, blocks, sizeof blocks);
    snprintf(buf, len, "%dx%d tiles of %dx%d a thread (%s)%s%s%s, %s", t->bm, t->bn, t->tm, t->tn, why,
             words ? ", " : "", words ? words : "", stages, blocks);
    return buf;
}
