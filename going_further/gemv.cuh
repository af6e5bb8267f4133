// gemv.cuh - small and skinny shapes, 1: C of one column (N = 1), A times a vector (GEMV), where
// the time is reading A once. `lanes` threads a row of A, a float4 each in turn (a power of two up
// to the block: a long row more loads in flight, a short one no idle threads), their sums met by
// shuffles and, across a row's warps, in shared memory.
// Its chapter: 5_small_shapes.md.
//   ./further 4096 1 16384
//   ./further 1631 1 75

template <bool VEC>
__global__ void __launch_bounds__(ROW_THREADS, ROW_MIN_BLOCKS)
sgemv_rows(int m, int k, float alpha, const float *a, const float *b, float beta, float *c, int lanes)
{
    __shared__ float warp_sums[ROW_THREADS / 32];
    int row = blockIdx.x * (ROW_THREADS / lanes) + threadIdx.x / lanes, t = threadIdx.x % lanes;
    const float *a_row = a + (size_t)row * k;
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // The thread's trips counted first, so that the loop runs in fours whose loads are all on
    // their way before the first FMA waits (with the count tested each trip, each waited alone).
    int reads = VEC ? k / 4 : k, trips = row < m && t < reads ? (reads - t + lanes - 1) / lanes : 0;
    if (VEC) {   // K % 4 == 0: every row starts on 16 bytes
        const float4 *a4 = reinterpret_cast<const float4 *>(a_row), *b4 = reinterpret_cast<const float4 *>(b);
#pragma unroll 4
        for (int trip = 0; trip < trips; trip++) {
            int q = t + trip * lanes;
            float4 x = __ldcs(a4 + q), y = __ldg(b4 + q);   // A streamed: each float is read once
            sum[0] += x.x * y.x;
            sum[1] += x.y * y.y;
            sum[2] += x.z * y.z;
            sum[3] += x.w * y.w;
        }
    } else {
#pragma unroll 4
        for (int trip = 0; trip < trips; trip++)
            sum[0] += __ldcs(a_row + t + trip * lanes) * __ldg(b + t + trip * lanes);
    }
    float s = (sum[0] + sum[1]) + (sum[2] + sum[3]);
#pragma unroll
    for (int width = 16; width > 0; width /= 2)   // every lane ends with its row's sum, or its warp's
        if (width < lanes)
            s += __shfl_xor_sync(0xffffffffu, s, width);
    if (lanes > 32) {   // a row of several warps: they meet in shared memory
        if (threadIdx.x % 32 == 0)
            warp_sums[threadIdx.x / 32] = s;
        __syncthreads();
        for (int w = 1; t == 0 && w < lanes / 32; w++)
            s += warp_sums[threadIdx.x / 32 + w];
    }
    if (t == 0 && row < m) {
        float *out = c + row;
        *out = beta == 0.0f ? alpha * s : alpha * s + beta * *out;
    }
}

// One launch, ROW_THREADS / lanes rows a block; A read in float4s where K % 4 == 0.
static cudaError_t launch_rows(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    auto kernel = g->k % 4 == 0 ? sgemv_rows<true> : sgemv_rows<false>;
    return launch_kernel(kernel, p.blocks, ROW_THREADS, 0, stream, g->m, g->k, g->alpha, g->a, g->b, g->beta, g->c,
                         p.lanes);
}
