// gemv.cuh - small and skinny shapes, 1: C of one column, A times a vector (GEMV: general
// matrix-vector product). The plan (plan.c) offers it where N = 1.

// With N = 1 every tile of the track pads C: the narrowest, 128 x 32, computes 32 columns
// for one. Each float of A then serves one FMA, so the time is reading A once. Here
// `lanes` threads take a row of A (a power of two: a float4 of the row a thread, up to the
// whole block of ROW_THREADS), a block ROW_THREADS / lanes rows: the threads read
// consecutive float4s of their row, each times its floats of b (through L1), and add their
// sums up, across the lanes by shuffles and, where a row has several warps, across them in
// shared memory, in the same order every launch. A long row takes the whole block: a warp's
// few loads in flight left rows of 16384 latency-bound. A short one takes fewer threads, so
// that none idles (at 1631 x 1 x 75, 32 a row). The plan (plan.c) offers it where N = 1
// (README, "One column, or a few rows, of C").
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
