// outer_product.cuh - small and skinny shapes, 4: K = 1, C an outer product, written as one
// array in aligned float4s whatever N. The plan offers it at K = 1.

// C OF K = 1, AN OUTER PRODUCT: C[i][j] = alpha A[i] B[j] (+ beta C[i][j]), so the time is
// writing C. A tile stores its rows, and where N % 4 != 0 no row starts on 16 bytes: at
// 4714 x 6189 x 1, 64 x 64 tiles wrote C at 1.8 TB/s. Here C is one array of M x N floats,
// and each thread takes a float4 of it (in turns, where C has more than a grid's 2^31 - 1
// blocks hold); a float's row and column come from its place (a float4 may end one row and
// start the next), A[i] and B[j] are read through L1. Every store is a whole, aligned 16
// bytes, whatever N. (At K = 2 the products' loads through L1 already take longer than the
// tiles' stores where N % 4 == 0: the plan offers it at K = 1 only.)
//   ./further 4714 6189 1
__global__ void __launch_bounds__(FLAT_THREADS)
sgemm_flat(int m, int n, float alpha, const float *a, const float *b, float beta, float *c)
{
    size_t size = (size_t)m * n, quads = (size + 3) / 4, step = (size_t)gridDim.x * FLAT_THREADS;
    for (size_t q = (size_t)blockIdx.x * FLAT_THREADS + threadIdx.x; q < quads; q += step) {
        size_t at = 4 * q;
        int i = (int)(at / n), j = (int)(at - (size_t)i * n);
        float out[4];
#pragma unroll
        for (int e = 0; e < 4; e++) {
            out[e] = alpha * (__ldg(a + i) * __ldg(b + j));
            if (++j == n)   // past C's last float (the last float4): row M - 1 again, not stored
                j = 0, i = min(i + 1, m - 1);
        }
        if (at + 4 <= size) {   // a whole float4 of C
            float4 *to = reinterpret_cast<float4 *>(c + at);
            float4 v = make_float4(out[0], out[1], out[2], out[3]);
            if (beta != 0.0f) {
                float4 old = *to;
                v = make_float4(v.x + beta * old.x, v.y + beta * old.y, v.z + beta * old.z, v.w + beta * old.w);
            }
            __stcs(to, v);   // C streamed: each float is written once
        } else   // the last floats of C, fewer than 4
#pragma unroll
            for (int e = 0; e < 4; e++)
                if (at + e < size)
                    c[at + e] = beta == 0.0f ? out[e] : out[e] + beta * c[at + e];
    }
}

// One launch: a float4 of C a thread (plan.c), looping where C has more than the grid's threads.
static cudaError_t launch_flat(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    return launch_kernel(sgemm_flat, p.blocks, FLAT_THREADS, 0, stream, g->m, g->n, g->alpha, g->a, g->b, g->beta,
                         g->c);
}
