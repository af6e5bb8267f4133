// matrix_vector.cuh - going further, 4 (last): C of one column (A times a vector), C of
// a few columns, C of a few rows (a few rows of A times B), and C of K = 1 (an outer
// product, as one array).
//
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
//   ./step6 4096 1 16384
//   ./step6 1631 1 75

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
static cudaError_t launch_rows(const gemm_args *g, const step6_plan &p, cudaStream_t stream)
{
    auto kernel = g->k % 4 == 0 ? sgemv_rows<true> : sgemv_rows<false>;
    return launch_kernel(kernel, p.blocks, ROW_THREADS, 0, stream, g->m, g->k, g->alpha, g->a, g->b, g->beta, g->c,
                         p.lanes);
}

// A FEW COLUMNS OF C (N of COL_MAX_N or less, more than one). The narrowest tile, 128 x 32,
// reads each row of A 64 bytes a k-tile, a k-tile at a time: at 8192 x 16 x 8192 A came at
// 1.6 TB/s. Each float of A serves N FMAs, so the time is reading A once, in long runs. A
// block takes COL_ROWS rows and walks K in chunks of COL_DEPTH. B's chunk (COL_DEPTH x N,
// padded to NP columns) goes to shared memory, its floats read in turn by the threads; A
// goes straight to registers. The next chunk's loads are on their way while this one's
// FMAs run. A thread takes two rows and, in each chunk, two float4s of each (8 lanes of a
// warp take a row's consecutive float4s, 4 warps the chunk's four quarters), times the 4
// rows of B each float4 meets. The sums meet across the 8 lanes by shuffles and across the
// 4 warps in shared memory, in the same order every launch.
//   ./step6 8192 16 8192
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
static cudaError_t launch_few_cols(const gemm_args *g, const step6_plan &p, cudaStream_t stream)
{
    if constexpr (NP < COL_MAX_N)
        if (g->n > NP)
            return launch_few_cols<NP + 4>(g, p, stream);
    auto kernel = g->k % 4 == 0 ? sgemm_few_cols<NP, true> : sgemm_few_cols<NP, false>;
    return launch_kernel(kernel, p.blocks, COL_THREADS, 0, stream, g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta,
                         g->c);
}

// A few rows: a warp's M x 4 sums a thread meet across its 32 / lanes rows of B at a time,
// LEVELS levels of shuffles (widths 16, 8, ... down to lanes). While a lane holds an even
// count, a level halves it: the lane keeps half (the lower lane the first half) and hands its
// partner the other half, so the levels take 2M + M + ... shuffles, not 4M each; at an odd
// count, the levels left add each sum whole. Each sum of the warp's rows ends at one lane,
// which writes it to `out`: its cell (row of A, float4 of the lane's columns), a float.
template <int LEVEL, int LEVELS, int HELD, int M>   // HELD: sums first ... first + HELD - 1 of the 4M
__device__ __forceinline__ void meet_in_warp(float (&acc)[M][4], int lane, int lanes, int first, bool writes, float *out)
{
    if constexpr (LEVEL == LEVELS) {
        if (writes)
#pragma unroll
            for (int t = 0; t < HELD; t++) {
                int q = first + t;
                out[(q / 4 * lanes + lane % lanes) * 4 + q % 4] = acc[t / 4][t % 4];
            }
    } else {
        constexpr int WIDTH = 16 >> LEVEL, H = HELD % 2 == 0 ? HELD / 2 : HELD;
        bool upper = lane & WIDTH;
#pragma unroll
        for (int t = 0; t < H; t++) {
            if constexpr (H < HELD) {
                float give = upper ? acc[t / 4][t % 4] : acc[(t + H) / 4][(t + H) % 4];
                float keep = upper ? acc[(t + H) / 4][(t + H) % 4] : acc[t / 4][t % 4];
                acc[t / 4][t % 4] = keep + __shfl_xor_sync(0xffffffffu, give, WIDTH);
            } else {
                acc[t / 4][t % 4] += __shfl_xor_sync(0xffffffffu, acc[t / 4][t % 4], WIDTH);
            }
        }
        meet_in_warp<LEVEL + 1, LEVELS, H>(acc, lane, lanes, H < HELD && upper ? first + H : first,
                                           writes && (H < HELD || !upper), out);
    }
}

// A FEW ROWS OF C (M of FEW_MAX_M or less). The shortest tile, 32 x 128, computes 32 rows
// for each one here, and K in parts pays a second launch to add its parts up: at
// 2 x 18 x 11999 the two launches alone took longer than cuBLAS. Each float of B serves M
// FMAs, so the time is reading B once, in one launch. A block of FEW_THREADS takes `lanes`
// float4s of B's rows (lanes: a power of two, up to 32, 128 columns) and a part of K; its
// threads take rows of B in turn, FEW_THREADS / lanes at a time, each float4 times the
// matching float of every row of A (M x 4 sums a thread). A column's sums meet across the
// warp by shuffles, across the warps in shared memory, and across the parts through the
// workspace: the last block to finish adds them up in part order, as the runs' last piece
// does (stream_k.cuh), and writes C. The same order every launch, so the same bits.
// A kernel for each M: its rows' loads and sums are written out, and M = 1 needs so few
// registers that its blocks take twice the threads (plan.h, FEW_THREADS).
//   ./step6 2 18 11999
template <int M, bool VEC>
__global__ void __launch_bounds__(FEW_THREADS(M), FEW_MIN_BLOCKS(M))
sgemm_few_rows(int n, int k, float alpha, const float *a, const float *b, float beta, float *c, int lanes, int parts,
               float4 *slots, int *arrived)
{
    constexpr int THREADS = FEW_THREADS(M);
    __shared__ float4 sums[THREADS / 32][FEW_CELLS];   // each warp's M x lanes, then the parts'
    static_assert(sizeof sums == FEW_SMEM_BYTES(M) && sizeof sums >= THREADS * sizeof(float4), "plan.h");
    int cols = blockIdx.x / parts, part = blockIdx.x % parts, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int col = (cols * lanes + threadIdx.x % lanes) * 4;   // the block's columns: its `cols`th 4 x lanes
    int k0 = (int)((long long)part * k / parts), k1 = (int)((long long)(part + 1) * k / parts);
    float acc[M][4] = {};
    // The thread's rows of B, R at a time, their loads written out before their FMAs (left to
    // the compiler, at M = 8 the second row's load waited behind the first row's FMAs). R = 2,
    // for the registers (40 a thread at M = 2 held four rows' loads only by spilling); at M = 1,
    // 8, in 64 (plan.h, FEW_IN_FLIGHT): with K whole in 32 blocks, 1 x 1024 x 16384 took 33.2 us
    // with eight rows in flight, 45.9 with four (H200). The loop steps through the rows themselves:
    // counted in trips, at M = 1 the fourth row's load of A waited behind the first row's FMAs
    // in 40 registers (81.7 us).
    // B's columns past N are not read: their loads, clamped to column N - 1, needed an address
    // each, and at M = 1 spilled on sm_80.
    int first = k0 + threadIdx.x / lanes, step = THREADS / lanes;
    int end = col < n ? k1 : first;   // a thread past N has no rows
    auto row_of_b = [&](int kk) {   // B streamed: each float is read once
        const float *row = b + (size_t)kk * n + col;
        return VEC ? __ldcs(reinterpret_cast<const float4 *>(row))
                   : make_float4(__ldcs(row), col + 1 < n ? __ldcs(row + 1) : 0.0f, col + 2 < n ? __ldcs(row + 2) : 0.0f,
                                 col + 3 < n ? __ldcs(row + 3) : 0.0f);   // past N: 0, not read
    };
    constexpr int R = FEW_IN_FLIGHT(M);
#pragma unroll 1   // R rows a trip, no more (above)
    for (int kk = first; kk < end; kk += R * step) {   // R rows of B in flight, then their FMAs
        float4 y[R];
        float x[R][M];
        bool in[R];   // row h of the trip is one of the thread's (row 0 always is)
#pragma unroll
        for (int h = 0; h < R; h++) {
            in[h] = h == 0 || kk + h * step < end;
            y[h] = in[h] ? row_of_b(kk + h * step) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
#pragma unroll
        for (int i = 0; i < M; i++)
#pragma unroll
            for (int h = 0; h < R; h++)
                x[h][i] = in[h] ? __ldg(a + (size_t)i * k + kk + h * step) : 0.0f;
#pragma unroll
        for (int h = 0; h < R; h++)
#pragma unroll
            for (int i = 0; i < M; i++) {
                acc[i][0] += x[h][i] * y[h].x;
                acc[i][1] += x[h][i] * y[h].y;
                acc[i][2] += x[h][i] * y[h].z;
                acc[i][3] += x[h][i] * y[h].w;
            }
    }
    // The warp's rows of B meet by shuffles, halving what each lane holds (above); its sums
    // go to shared memory, a cell (row of A, float4 of columns) at a time.
    float *warp_sums = reinterpret_cast<float *>(sums[warp]);
    switch (lanes) {   // the levels: 32 / lanes rows of B at a time
    case 32: meet_in_warp<0, 0, 4 * M>(acc, lane, lanes, 0, true, warp_sums); break;
    case 16: meet_in_warp<0, 1, 4 * M>(acc, lane, lanes, 0, true, warp_sums); break;
    case 8: meet_in_warp<0, 2, 4 * M>(acc, lane, lanes, 0, true, warp_sums); break;
    case 4: meet_in_warp<0, 3, 4 * M>(acc, lane, lanes, 0, true, warp_sums); break;
    case 2: meet_in_warp<0, 4, 4 * M>(acc, lane, lanes, 0, true, warp_sums); break;
    default: meet_in_warp<0, 5, 4 * M>(acc, lane, lanes, 0, true, warp_sums); break;
    }
    __syncthreads();
    // Thread e < M x lanes: row e / lanes, its float4 of columns e % lanes; the warps in order.
    int e = threadIdx.x, cells = M * lanes;
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int w = 0; e < cells && w < THREADS / 32; w++) {
        float4 x = sums[w][e];
        v.x += x.x; v.y += x.y; v.z += x.z; v.w += x.w;
    }
    if (parts > 1) {   // a slot for each part; the last block to finish adds them up
        if (e < cells)
            slots[(size_t)blockIdx.x * cells + e] = v;
        if (!last_to_arrive(arrived, cols, parts))   // stream_k.cuh
            return;
        // Every thread: cell e % cells of parts g, g + groups, ... in order; then the groups.
        int groups = THREADS / cells, g = threadIdx.x / cells;
        float4 *group_sums = &sums[0][0];
        if (g < groups) {
            const float4 *slot = slots + (size_t)cols * parts * cells + threadIdx.x % cells;
            v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll 8
            for (int p = g; p < parts; p += groups) {
                float4 x = __ldcg(slot + (size_t)p * cells);
                v.x += x.x; v.y += x.y; v.z += x.z; v.w += x.w;
            }
            group_sums[threadIdx.x] = v;
        }
        __syncthreads();
        v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        for (int h = 0; e < cells && h < min(groups, parts); h++) {   // the groups that took parts
            float4 x = group_sums[h * cells + e];
            v.x += x.x; v.y += x.y; v.z += x.z; v.w += x.w;
        }
    }
    col = (cols * lanes + e % lanes) * 4;
    if (e < cells && col < n) {
        float out[4] = {alpha * v.x, alpha * v.y, alpha * v.z, alpha * v.w};
        store_c4<VEC>(c + (size_t)(e / lanes) * n + col, out, col, n, beta);
    }
}

// One launch, of the kernel for this M: the plan's lanes and parts; a slot of M x lanes
// float4s a block in the harness's workspace, and a count a column of blocks in its counts
// (both allocated once, outside the timed launches; the counts are all 0 as a launch starts,
// and each column's last block puts its count back to 0).
template <int M = 1>
static cudaError_t launch_few_rows(const gemm_args *g, const step6_plan &p, cudaStream_t stream)
{
    if constexpr (M < FEW_MAX_M)
        if (g->m > M)
            return launch_few_rows<M + 1>(g, p, stream);
    cudaError_t err = cudaSuccess;
    float4 *slots = p.parts > 1 ? (float4 *)harness_workspace(p.workspace_bytes, &err) : NULL;
    int *arrived = p.parts > 1 && err == cudaSuccess ? harness_counts(p.counts, &err) : NULL;
    if (err != cudaSuccess)
        return err;
    auto kernel = p.vec == 16 ? sgemm_few_rows<M, true> : sgemm_few_rows<M, false>;
    return launch_kernel(kernel, p.blocks, FEW_THREADS(M), 0, stream, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c,
                         p.lanes, p.parts, slots, arrived);
}

// C OF K = 1, AN OUTER PRODUCT: C[i][j] = alpha A[i] B[j] (+ beta C[i][j]), so the time is
// writing C. A tile stores its rows, and where N % 4 != 0 no row starts on 16 bytes: at
// 4714 x 6189 x 1, 64 x 64 tiles wrote C at 1.8 TB/s. Here C is one array of M x N floats,
// and each thread takes a float4 of it (in turns, where C has more than a grid's 2^31 - 1
// blocks hold); a float's row and column come from its place (a float4 may end one row and
// start the next), A[i] and B[j] are read through L1. Every store is a whole, aligned 16
// bytes, whatever N. (At K = 2 the products' loads through L1 already take longer than the
// tiles' stores where N % 4 == 0: the plan offers it at K = 1 only.)
//   ./step6 4714 6189 1
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
static cudaError_t launch_flat(const gemm_args *g, const step6_plan &p, cudaStream_t stream)
{
    return launch_kernel(sgemm_flat, p.blocks, FLAT_THREADS, 0, stream, g->m, g->n, g->alpha, g->a, g->b, g->beta,
                         g->c);
}
