// matrix_vector.cuh - going further, 4 (last): C of one column, A times a vector.
//
// With N = 1 every tile of the track pads C: the narrowest, 128 x 32, computes 32 columns
// for one. Each float of A then serves one FMA, so the time is reading A once. Here a
// block takes a row of A: its threads read consecutive float4s of it (4 KiB a load of the
// block), each times its floats of b (through L1), and add their sums up, across each warp
// by shuffles and across the warps in shared memory, in the same order every launch. A
// block a row, not a warp: a warp's few loads in flight left rows of 16384 latency-bound.
// The plan (plan.c) offers it where K has a float4 a thread (README, "One column of C").
//   ./step6 4096 1 16384

template <bool VEC>
__global__ void __launch_bounds__(ROW_THREADS, ROW_MIN_BLOCKS)
sgemv_rows(int m, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
    __shared__ float warp_sums[ROW_THREADS / 32];
    const float *a_row = a + (size_t)blockIdx.x * k;
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (VEC) {   // K % 4 == 0: every row starts on 16 bytes
        const float4 *a4 = reinterpret_cast<const float4 *>(a_row), *b4 = reinterpret_cast<const float4 *>(b);
#pragma unroll 4
        for (int q = threadIdx.x; q < k / 4; q += ROW_THREADS) {
            float4 x = __ldcs(a4 + q), y = __ldg(b4 + q);   // A streamed: each float is read once
            sum[0] += x.x * y.x;
            sum[1] += x.y * y.y;
            sum[2] += x.z * y.z;
            sum[3] += x.w * y.w;
        }
    } else {
#pragma unroll 4
        for (int i = threadIdx.x; i < k; i += ROW_THREADS)
            sum[0] += __ldcs(a_row + i) * __ldg(b + i);
    }
    float s = (sum[0] + sum[1]) + (sum[2] + sum[3]);
#pragma unroll
    for (int width = 16; width > 0; width /= 2)   // every lane ends with its warp's sum
        s += __shfl_xor_sync(0xffffffffu, s, width);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        s = warp_sums[0];
#pragma unroll
        for (int w = 1; w < ROW_THREADS / 32; w++)
            s += warp_sums[w];
        float *out = c + blockIdx.x;
        *out = beta == 0.0f ? alpha * s : alpha * s + beta * *out;
    }
}

// One launch, a block a row; A read in float4s where K % 4 == 0.
static cudaError_t launch_rows(const gemm_args *g, const step6_plan &p, cudaStream_t stream)
{
    auto kernel = g->k % 4 == 0 ? sgemv_rows<true> : sgemv_rows<false>;
    return launch_kernel(kernel, p.blocks, ROW_THREADS, 0, stream, g->m, g->k, g->alpha, g->a, g->b, g->beta, g->c);
}
