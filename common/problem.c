/* problem.c - the buffers of one problem on the host and the GPU, and C's guard bands. */
#include "problem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "inputs.h"
#include "reference.h"

void *host_alloc(size_t bytes, const char *what)
{
    void *p = malloc(bytes);
    if (!p) {
        char b[32];
        format_bytes(b, sizeof b, (double)bytes);
        fprintf(stderr, "error: malloc of %zu bytes (%s) for %s failed: out of host memory\n",
                bytes, b, what);
        exit(EXIT_CUDA);
    }
    return p;
}

float *device_upload(const float *host, size_t count)
{
    float *d;
    CUDA_CHECK(cudaMalloc((void **)&d, count * sizeof *d));
    CUDA_CHECK(cudaMemcpy(d, host, count * sizeof *d, cudaMemcpyHostToDevice));
    return d;
}

void download(float *host, const float *d, size_t count, cudaStream_t stream)
{
    CUDA_CHECK(cudaMemcpyAsync(host, d, count * sizeof *host, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

void problem_setup(problem *p, const run_config *cfg)
{
    memset(p, 0, sizeof *p);
    p->cfg = cfg;
    p->na = (size_t)cfg->m * cfg->k;
    p->nb = (size_t)cfg->k * cfg->n;
    p->nc = (size_t)cfg->m * cfg->n;

    /* Inputs on the host, reproducible from the seed. */
    p->a = host_alloc(p->na * sizeof *p->a, "A");
    p->b = host_alloc(p->nb * sizeof *p->b, "B");
    fill_inputs(p->a, p->na, cfg->seed, cfg->inputs);
    fill_inputs(p->b, p->nb, cfg->seed + 1, cfg->inputs);
    if (cfg->beta != 0.0f) {   /* with beta == 0, C on entry is never read: no C0 */
        p->c0 = host_alloc(p->nc * sizeof *p->c0, "C");
        fill_inputs(p->c0, p->nc, cfg->seed + 2, cfg->inputs);
    }
    if (cfg->inputs == INPUTS_NONFINITE)
        place_nonfinite(p->a, p->b, cfg->m, cfg->n, cfg->k, cfg->seed);

    CUDA_CHECK(cudaStreamCreate(&p->stream));
    p->handle = reference_create(p->stream);
    p->d_a = device_upload(p->a, p->na);
    p->d_b = device_upload(p->b, p->nb);
    p->d_c0 = p->c0 ? device_upload(p->c0, p->nc) : NULL;
    size_t block = p->nc + 2 * (size_t)GUARD_FLOATS;
    CUDA_CHECK(cudaMalloc((void **)&p->d_c_block, block * sizeof(float)));
    CUDA_CHECK(cudaMemsetAsync(p->d_c_block, GUARD_BYTE, block * sizeof(float), p->stream));
    p->d_c = p->d_c_block + GUARD_FLOATS;
    CUDA_CHECK(cudaMalloc((void **)&p->d_ref, p->nc * sizeof *p->d_ref));
}

void problem_reset_c(const problem *p, float *d_c)
{
    if (p->cfg->beta == 0.0f)
        CUDA_CHECK(cudaMemsetAsync(d_c, 0xff, p->nc * sizeof *d_c, p->stream));
    else
        CUDA_CHECK(cudaMemcpyAsync(d_c, p->d_c0, p->nc * sizeof *d_c, cudaMemcpyDeviceToDevice, p->stream));
}

size_t problem_guard_writes(const problem *p)
{
    unsigned char band[GUARD_FLOATS * sizeof(float)];
    size_t changed = 0;
    for (int side = 0; side < 2; side++) {
        const float *d = side == 0 ? p->d_c_block : p->d_c + p->nc;
        CUDA_CHECK(cudaMemcpyAsync(band, d, sizeof band, cudaMemcpyDeviceToHost, p->stream));
        CUDA_CHECK(cudaStreamSynchronize(p->stream));
        for (size_t w = 0; w < GUARD_FLOATS; w++)
            for (size_t i = 0; i < sizeof(float); i++)
                if (band[w * sizeof(float) + i] != GUARD_BYTE) {
                    changed++;
                    break;
                }
    }
    return changed;
}

void problem_free(problem *p)
{
    free(p->a);
    free(p->b);
    free(p->c0);
    CUDA_CHECK(cudaFree(p->d_a));
    CUDA_CHECK(cudaFree(p->d_b));
    CUDA_CHECK(cudaFree(p->d_c0));
    CUDA_CHECK(cudaFree(p->d_c_block));
    CUDA_CHECK(cudaFree(p->d_ref));
    CUBLAS_CHECK(cublasDestroy(p->handle));
    CUDA_CHECK(cudaStreamDestroy(p->stream));
}
