/* device.h - CUDA and cuBLAS error checks, and what we learn about the GPU. */
#ifndef DEVICE_H
#define DEVICE_H

#include <stddef.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "fit.h"

/* Every CUDA and cuBLAS call goes through one of these: on failure they print
 * the call, file:line and the API's own message, and exit with EXIT_CUDA. */
#define CUDA_CHECK(call) cuda_check((call), #call, __FILE__, __LINE__)
#define CUBLAS_CHECK(call) cublas_check((call), #call, __FILE__, __LINE__)

void cuda_check(cudaError_t err, const char *call, const char *file, int line);
void cublas_check(cublasStatus_t status, const char *call, const char *file, int line);

typedef struct {
    char name[256];
    int sm_count;
    int l2_bytes;
    int runtime_version;   /* e.g. 13000 */
    int driver_version;
    size_t free_bytes, total_bytes;
    char plan_device[160];   /* SGEMM_PLAN_DEVICE as given, or "": the plans see a smaller device */
} device_info;

/* The number of CUDA devices, or 0 with the reason in words in why: no NVIDIA driver,
 * a driver older than the CUDA runtime, or a driver that sees no GPU. With devices,
 * why says how many. */
int cuda_device_count(char *why, size_t len);

/* Picks device 0 and fills info. Exits with EXIT_CUDA, saying why, when there is no GPU,
 * and with EXIT_USAGE when SGEMM_PLAN_DEVICE (harness_gpu_limits) cannot be read. */
void device_open(device_info *info);

/* 1, with one line in msg, when a binary built for sm_<built_sm> (its SASS and its PTX)
 * cannot run on a GPU of compute capability major.minor: the PTX runs only on that
 * capability or newer. 0 when it can, or when built_sm is 0 (not known). */
int arch_mismatch(int built_sm, int major, int minor, const char *gpu, char *msg, size_t len);

/* C sits inside a larger allocation, between two guard bands of GUARD_FLOATS words
 * filled with GUARD_BYTE: a step that writes just outside C is caught, not only one
 * that writes outside the allocation (which compute-sanitizer sees). 4 KiB keeps C's
 * first row 256-byte aligned, as cudaMalloc would. */
enum { GUARD_FLOATS = 1024, GUARD_BYTE = 0xA5 };

/* Device bytes the harness allocates for an M x N x K problem (matrices, the
 * reference, the error bound's operands, C's guard bands and the L2 flush buffer). Returns 0
 * and leaves *bytes alone when the count overflows 64 bits. */
int device_bytes_needed(int m, int n, int k, int l2_bytes, size_t *bytes);

/* "1.50 GiB" and the like. */
void format_bytes(char *buf, size_t len, double bytes);

#endif
