/* step0_naive - one thread per element of C; every operand comes straight from global memory.
 *
 * This is the kernel everyone writes first. Thread t computes one element
 * C[row][col] = alpha * sum_i A[row][i] * B[i][col] + beta * C[row][col], with
 * consecutive threads taking consecutive rows ("thread i does row i"), which is
 * exactly the mapping step 1 will show to be the wrong one.
 *
 *   make step0 && ./step0 1024
 */
#include "../common/harness.h"

constexpr int THREADS = 256;   // threads per block; any multiple of 32 does the same here

// Consecutive threads of a warp take consecutive rows of C and share one column:
// their loads of A are K floats apart (32 separate memory transactions per warp
// instruction), their loads of B all hit one address, and their stores of C are
// N floats apart. Every FMA needs two loads; nothing is reused on purpose.
__global__ void sgemm_naive(int m, int n, int k, float alpha, const float *a, const float *b,
                            float beta, float *c)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (size_t)m * n)
        return;
    int row = (int)(t % m);
    int col = (int)(t / m);

    float acc = 0.0f;
    for (int i = 0; i < k; i++)
        acc += a[(size_t)row * k + i] * b[(size_t)i * n + col];

    // With beta == 0, C is not read (the BLAS rule): it may hold NaN.
    float *out = &c[(size_t)row * n + col];
    *out = beta == 0.0f ? alpha * acc : alpha * acc + beta * *out;
}

static cudaError_t launch(const gemm_args *g, cudaStream_t stream)
{
    size_t elements = (size_t)g->m * g->n;
    unsigned blocks = (unsigned)((elements + THREADS - 1) / THREADS);
    sgemm_naive<<<blocks, THREADS, 0, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);
    return cudaGetLastError();
}

int main(int argc, char **argv)
{
    static const step_info step = {
        .name = "step0_naive",
        .idea = "one thread per element of C, operands straight from global memory",
        .launch = launch,
    };
    return harness_main(argc, argv, &step);
}
