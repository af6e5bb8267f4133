/* problem.h - one SGEMM problem's buffers: the inputs on the host and on the GPU, C between
 * its guard bands, and the reference's C. */
#ifndef PROBLEM_H
#define PROBLEM_H

#include <stddef.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "args.h"

typedef struct {
    const run_config *cfg;     /* the sizes, alpha, beta, seed and kind of inputs */
    size_t na, nb, nc;         /* elements of A, B and C */
    float *a, *b, *c0;         /* host; c0 is NULL when beta == 0 */
    float *d_a, *d_b, *d_c0;
    float *d_c_block;          /* guard, C, guard */
    float *d_c, *d_ref;        /* the step's C (inside d_c_block) and cuBLAS's */
    cudaStream_t stream;
    cublasHandle_t handle;     /* cuBLAS on stream, strict FP32 */
} problem;

/* Builds the inputs from cfg's seed on the host and copies them to the GPU. */
void problem_setup(problem *p, const run_config *cfg);

/* C as a launch finds it. With beta == 0 it is poisoned with NaN (all bits set): the
 * step must write every element without reading it. Otherwise it starts as C0, and an
 * element left unwritten keeps C0's value, which the check catches. */
void problem_reset_c(const problem *p, float *d_c);

/* The words of the two guard bands around C that no longer hold GUARD_BYTE. */
size_t problem_guard_writes(const problem *p);

void problem_free(problem *p);

/* malloc, or exit with EXIT_CUDA naming what the bytes were for. */
void *host_alloc(size_t bytes, const char *what);

/* A new device copy of host[0..count). */
float *device_upload(const float *host, size_t count);

/* d[0..count) into host, waiting for the stream. */
void download(float *host, const float *d, size_t count, cudaStream_t stream);

#endif
