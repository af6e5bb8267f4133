// few_columns.cuh - small and skinny shapes, 2: C of a few columns (N of 2 to COL_MAX_N), where
// the time is reading A once, in long runs (a tile reads a row of A 64 bytes a k-tile).
// Its chapter: 5_small_shapes.md.
//   ./further 8192 16 8192

// A block: COL_ROWS rows of A, K in chunks of COL_DEPTH, B's chunk in shared memory (padded to NP
// columns), A straight to registers, the next chunk's loads on their way during this one's FMAs.
// A thread: two rows, two float4s of each a chunk (8 lanes a row's consecutive float4s, 4 warps a
// quarter of the chunk each); the sums meet by shuffles, then across the warps, in order.
template <int NP, bool VEC>
__global__ void __launch_bounds__(COL_THREADS, COL_MIN_BLOCKS)
sgemm_few_cols(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
    constexpr int LANES = 8, WARPS_K = 4, QUADS = COL_DEPTH / 4, ROW_QUAD = 4 * NP + 4;   // +4: no bank conflicts
    static_assert(COL_ROWS == 2 * (32 / LANES) * (COL_THREADS / 32 / WARPS_K) && QUADS == 2 * LANES * WARPS_K &&
                  COL_THREADS == COL_DEPTH, "plan.h");
    __shared__ __align__(16) float b_chunk[QUADS * ROW_QUAD];   // 4 rows of B a float4 of A meets, then the next 4
    __shared__ float warp_sums[COL_THREADS / 32][32 / LANES][2][NP];
    static_assert(sizeof b_chunk + sizeof warp_sums == COL_SMEM_BYTES(NP), "plan.h");
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, t = lane % LANES, pair = lane / LANES;
    int q0 = warp % WARPS_K * LANES + t, row = blockIdx.x * COL_ROWS + (warp / WARPS_K * (32 / LANES) + pair) * 2;
    const float *a_row[2] = {a + (size_t)min(row, m - 1) * k, a + (size_t)min(row + 1, m - 1) * k};
    float acc[2][NP] = {}, x[2][2][4], y[NP];   // x: [float4][row][4] of A; y: this thread's floats of B's chunk
    // B's chunk is COL_DEPTH rows of n floats, one after another: the threads read it in turn, a float each (n floats
    // a thread, as COL_THREADS == COL_DEPTH; fewer in the last chunk), and place each at its row and column (kept as
    // they step: no division in the loop).
    int step_rows = COL_THREADS / n, step_cols = COL_THREADS % n, first_row = threadIdx.x / n, first_col = threadIdx.x % n;
    auto load = [&](int chunk) {   // A's float4s (zeros past K) and this thread's floats of B's chunk (zeros past K)
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int r = 0; r < 2; r++) {
                int kk = chunk * COL_DEPTH + 4 * (q0 + h * LANES * WARPS_K);
                if (VEC && kk < k) {   // K % 4 == 0: rows start on 16 bytes, a float4 is all in or all out
                    float4 v = __ldcs(reinterpret_cast<const float4 *>(a_row[r] + kk));
                    x[h][r][0] = v.x, x[h][r][1] = v.y, x[h][r][2] = v.z, x[h][r][3] = v.w;
                } else
#pragma unroll
                    for (int e = 0; e < 4; e++)
                        x[h][r][e] = !VEC && kk + e < k ? __ldcs(a_row[r] + kk + e) : 0.0f;
            }
        long long at = (long long)chunk * COL_DEPTH * n + threadIdx.x, left = (long long)k * n - at;
        int floats = left <= 0 ? 0 : (int)min((long long)n, (left + COL_THREADS - 1) / COL_THREADS);
#pragma unroll
        for (int i = 0; i < NP; i++)
            y[i] = i < floats ? __ldg(b + at + i * COL_THREADS) : 0.0f;
    };
    for (int i = threadIdx.x; i < QUADS * ROW_QUAD; i += COL_THREADS)   // columns n to NP stay 0
        b_chunk[i] = 0.0f;
    int chunks = (k + COL_DEPTH - 1) / COL_DEPTH;
    load(0);
    for (int chunk = 0; chunk < chunks; chunk++) {
        __syncthreads();   // every thread is done with the last chunk of B
#pragma unroll
        for (int i = 0, row = first_row, col = first_col; i < NP; i++) {
            if (i < n)
                b_chunk[row / 4 * ROW_QUAD + row % 4 * NP + col] = y[i];
            row += step_rows, col += step_cols;
            if (col >= n)
                row++, col -= n;
        }
        __syncthreads();
        float now[2][2][4];
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int r = 0; r < 2; r++)
#pragma unroll
                for (int e = 0; e < 4; e++)
                    now[h][r][e] = x[h][r][e];
        if (chunk + 1 < chunks)
            load(chunk + 1);   // on its way while these FMAs run
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                const float *b_row = b_chunk + (q0 + h * LANES * WARPS_K) * ROW_QUAD + e * NP;
#pragma unroll
                for (int j = 0; j < NP; j += 4) {
                    float4 v = *reinterpret_cast<const float4 *>(b_row + j);
#pragma unroll
                    for (int r = 0; r < 2; r++) {
                        acc[r][j] += now[h][r][e] * v.x;
                        acc[r][j + 1] += now[h][r][e] * v.y;
                        acc[r][j + 2] += now[h][r][e] * v.z;
                        acc[r][j + 3] += now[h][r][e] * v.w;
                    }
                }
            }
    }
#pragma unroll
    for (int r = 0; r < 2; r++)
#pragma unroll
        for (int j = 0; j < NP; j++) {
#pragma unroll
            for (int width = LANES / 2; width > 0; width /= 2)
                acc[r][j] += __shfl_xor_sync(0xffffffffu, acc[r][j], width);
            if (t == (r * NP + j) % LANES)   // each lane keeps some of the pair's sums
                warp_sums[warp][pair][r][j] = acc[r][j];
        }
    __syncthreads();
    for (int e = threadIdx.x; e < COL_ROWS * n; e += COL_THREADS) {   // a float of C a thread: the 4 warps in order
        int i = e / n, j = e % n, group = i / 2 / (32 / LANES), p = i / 2 % (32 / LANES);
        float s = 0.0f;
#pragma unroll
        for (int w = 0; w < WARPS_K; w++)
            s += warp_sums[group * WARPS_K + w][p][i % 2][j];
        if (blockIdx.x * COL_ROWS + i < m) {
            float *out = c + (size_t)(blockIdx.x * COL_ROWS + i) * n + j;
            *out = beta == 0.0f ? alpha * s : alpha * s + beta * *out;
        }
    }
}

// One launch, COL_ROWS rows a block, of the kernel for N's columns rounded up to 4, 8, 12 or 16.
template <int NP = 4>
static cudaError_t launch_few_cols(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    if constexpr (NP < COL_MAX_N)
        if (g->n > NP)
            return launch_few_cols<NP + 4>(g, p, stream);
    auto kernel = g->k % 4 == 0 ? sgemm_few_cols<NP, true> : sgemm_few_cols<NP, false>;
    return launch_kernel(kernel, p.blocks, COL_THREADS, 0, stream, g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta,
                         g->c);
}
