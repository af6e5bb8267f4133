/* timing.c - interleaved, L2-cold timing with CUDA events. */
#define _POSIX_C_SOURCE 199309L
#include "timing.h"

#include <stdlib.h>
#include <time.h>

#include "device.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

void warm_up(const timed_kernel *kernels, int count, int warmup_ms, cudaStream_t stream)
{
    double start = now_ms();
    do {
        for (int i = 0; i < count; i++)
            kernels[i].run(kernels[i].ctx);
        CUDA_CHECK(cudaStreamSynchronize(stream));
    } while (now_ms() - start < warmup_ms);
}

void time_interleaved(const timed_kernel *kernels, int count, int reps, int l2_bytes,
                      cudaStream_t stream, double *ms)
{
    size_t flush_bytes = 2 * (size_t)(l2_bytes > 0 ? l2_bytes : 64 << 20);
    void *flush;
    CUDA_CHECK(cudaMalloc(&flush, flush_bytes));
    cudaEvent_t *start = malloc(sizeof *start * (size_t)count * reps);
    cudaEvent_t *stop = malloc(sizeof *stop * (size_t)count * reps);
    if (!start || !stop)
        CUDA_CHECK(cudaErrorMemoryAllocation);
    for (int i = 0; i < count * reps; i++) {
        CUDA_CHECK(cudaEventCreate(&start[i]));
        CUDA_CHECK(cudaEventCreate(&stop[i]));
    }
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < count; i++) {
            CUDA_CHECK(cudaMemsetAsync(flush, r & 0xff, flush_bytes, stream));
            CUDA_CHECK(cudaEventRecord(start[i * reps + r], stream));
            kernels[i].run(kernels[i].ctx);
            CUDA_CHECK(cudaEventRecord(stop[i * reps + r], stream));
        }
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int i = 0; i < count * reps; i++) {
        float t;
        CUDA_CHECK(cudaEventElapsedTime(&t, start[i], stop[i]));
        ms[i] = t;
        CUDA_CHECK(cudaEventDestroy(start[i]));
        CUDA_CHECK(cudaEventDestroy(stop[i]));
    }
    free(start);
    free(stop);
    CUDA_CHECK(cudaFree(flush));
}
