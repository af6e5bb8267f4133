// outer_product.cuh - small and skinny shapes, 4: K = 1, C[i][j] = alpha A[i] B[j] (+ beta C),
// where the time is writing C: C as one array, a float4 a thread, every store a whole, aligned
// 16 bytes whatever N (a tile's rows start unaligned where N % 4 != 0). At K = 1 only: at K = 2
// the tiles are faster where N % 4 == 0.
// Its chapter: 5_small_shapes.md.
//   ./further 4714 6189 1

// A thread takes a float4 of C (in turns past the grid's 2^31 - 1 blocks); a float's row and
// column come from its place (a float4 may end one row and start the next).
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
