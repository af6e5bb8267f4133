/* step6_unroll - unroll the pipeline until every index is a constant, then fix what that exposed.
 *
 * Step 5's main loop walked the stage ring with run-time indices, so every
 * iteration recomputed stage addresses, and each k-tile restarted the fragment
 * double-buffering. Here the main loop is unrolled by K_PIPE_MAX: the stage read
 * and the stage written are compile-time constants, the inner k-slice loop is
 * fully unrolled, and the fragments of the next tile's first slice load during
 * the current tile's last FMAs. Reading the SASS of that loop then showed what
 * else was left between us and cuBLAS, and each is fixed here:
 *   - warp tiling: a warp owns a WM x WN tile of C, its lanes a 4x8 (or 8x4)
 *     grid, so a fragment load is one 64- or 128-byte wavefront;
 *   - tile shapes chosen for the problem: 128 x 128 when there are enough tiles
 *     to fill 132 SMs, smaller tiles when there are not (1024 has only 64);
 *   - rasterization: blocks walk C in groups of GROUP_M tile rows, so the tiles
 *     running at one time share A and B panels in L2;
 *   - the FMAs of a slice in serpentine order, for the register reuse cache;
 *   - wide tiles (128 x 256, 128 accumulators a thread) in a lean loop where
 *     they fill the SMs: the partial k-tile first, no K check after it, and a
 *     k-tile's copies issued a row pass a slice, among the FMAs;
 *   - the last partial wave of wide tiles in runs of k-tiles, one block an SM,
 *     a cut tile's sums added in a fixed order (stream-K, a second launch);
 *   - the copies' row and column checks worked out once per tile, in every kernel;
 *   - split K where even the smaller tiles leave SMs idle: 2 to 8 blocks share
 *     a tile, one cluster, and add their partial tiles through distributed
 *     shared memory in a fixed order (Hopper, sm_90).
 *
 *   make step6 && ./step6 4096
 */
#include "../common/harness.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#ifdef TUNE_BK
constexpr int BK = TUNE_BK;
#else
constexpr int BK = 8;                         // depth of one k-tile
#endif
constexpr int A_PAD = 4;                      // a_stage rows 4 banks apart: transposed copies are conflict-free
constexpr int GROUP_M = 8;                    // tile rows per rasterization group
constexpr int MAX_STAGES = 4;                 // measured with 1 to 4: see README

// cp.async copies global -> shared without a register in between; it reads
// src_bytes of the source (4 or 16 inside the matrix, 0 outside it) and zero-fills
// the rest of the destination.
__device__ __forceinline__ void cp_async_4(float *dst, const float *src, int src_bytes)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_16(float *dst, const float *src, int src_bytes)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

// One tile configuration: the block tile BM x BN, the warp tile WM x WN, the
// thread tile TM x TN (made of 4x4 pieces), and the pipeline depth.
template <int BM_, int BN_, int WM_, int WN_, int TM_, int TN_>
struct tile_config {
    static constexpr int BM = BM_, BN = BN_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
    static constexpr int LANES_M = WM / TM, LANES_N = WN / TN;   // a warp's lanes, as a grid
    static constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN;
    static constexpr int THREADS = 32 * WARPS_M * WARPS_N;
    static constexpr int A_STAGE = BK * (BM + A_PAD), B_STAGE = BK * BN;
    // 64 accumulators fit in 128 registers, so two blocks of 256 threads share an SM;
    // more accumulators need up to 255 registers and one block.
    static constexpr int MIN_BLOCKS = TM * TN <= 64 ? 65536 / (THREADS * 128) : 1;
    static_assert(LANES_M * LANES_N == 32, "a warp's lanes tile its warp tile");
    static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles divide the block tile");
    static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tiles are made of float4-wide pieces");
    static_assert((BM + A_PAD) % 32 == 4, "transposed copies of A land in 32 different banks");
    static_assert(BK % 4 == 0 && THREADS % (BK / 4) == 0 && THREADS % (BN / 4) == 0,
                  "every thread copies the same share of each tile");
};

// Where this thread's copies come from, worked out once. Step 5 recomputed
// (tile_row + r) * k + k0 + kk, and a pointer select, for every copy of every
// tile. Here the row pointers, row checks and shared-memory offsets are fixed
// for the whole loop; a k-tile only adds k0. A warp still copies 8 consecutive
// k (one 32-byte sector) of each of 4 rows: a mapping where each thread took 4
// consecutive k of one row needed fewer instructions but touched 16 sectors per
// warp-wide copy, and ran 5.4% slower at 4096 (see README).
template <typename CFG>
struct copy_plan {
    static constexpr int A_ROWS_PER_PASS = CFG::THREADS / 8;              // a pass: 8 k of these rows
    static constexpr int A_ROW_PASSES = CFG::BM / A_ROWS_PER_PASS;
    static constexpr int A_K_PASSES = BK / 8;
    static constexpr int B_ROWS_PER_PASS = CFG::THREADS / (CFG::BN / 4);  // a pass: 16-byte pieces of these rows
    static constexpr int B_PASSES = BK / B_ROWS_PER_PASS;
    static constexpr int PARTS = A_K_PASSES * A_ROW_PASSES + B_PASSES;   // of a whole k-tile's copies
    static_assert(BK % 8 == 0 && CFG::BM % A_ROWS_PER_PASS == 0 && BK % B_ROWS_PER_PASS == 0,
                  "every thread copies the same share of each tile");
    const float *a_src;        // A[tile_row + a_row][kq]: add k0 for a k-tile
    const float *b_src;        // B[b_row][tile_col + c]: add k0 * n for a k-tile
    size_t a_pass;             // elements from one row pass of A to the next
    int kq, b_row;             // this thread's k within a pass of A, its first row of B
    int a_rows, b_cols;        // rows of A from this thread's first on, columns of B from c on
    int a_dst, b_dst;          // offsets of the first copies within a stage

    __device__ copy_plan(const float *a, const float *b, int m, int n, int k, int tile_row, int tile_col)
    {
        int a_row = threadIdx.x / 8, c = threadIdx.x % (CFG::BN / 4) * 4;
        kq = threadIdx.x % 8;
        b_row = threadIdx.x / (CFG::BN / 4);
        a_src = a + (size_t)(tile_row + a_row) * k + kq;
        b_src = b + (size_t)b_row * n + tile_col + c;
        a_pass = (size_t)A_ROWS_PER_PASS * k;
        a_rows = m - tile_row - a_row;
        b_cols = n - tile_col - c;
        a_dst = kq * (CFG::BM + A_PAD) + a_row;
        b_dst = b_row * CFG::BN + c;
    }
};

// Issue the copies of one k-tile (k0 = its first k) into one stage; k_len is the
// length of the block's share of K (K itself unless K is split). Outside the matrix
// or that share a copy reads 0 bytes and zero-fills: its address is never
// dereferenced (compute-sanitizer agrees), so it needs no clamping.
template <typename CFG, bool VEC>
__device__ __forceinline__ void load_tile(float *a_stage, float *b_stage, const copy_plan<CFG> &plan,
                                          int n, int k_len, int k0)
{
    using P = copy_plan<CFG>;
#pragma unroll
    for (int kp = 0; kp < P::A_K_PASSES; kp++) {
        bool k_inside = k0 + kp * 8 + plan.kq < k_len;
#pragma unroll
        for (int rp = 0; rp < P::A_ROW_PASSES; rp++)
            cp_async_4(&a_stage[plan.a_dst + kp * 8 * (CFG::BM + A_PAD) + rp * P::A_ROWS_PER_PASS],
                       plan.a_src + rp * plan.a_pass + kp * 8 + k0,
                       k_inside && rp * P::A_ROWS_PER_PASS < plan.a_rows ? 4 : 0);
    }
#pragma unroll
    for (int i = 0; i < P::B_PASSES; i++) {
        int r = k0 + plan.b_row + i * P::B_ROWS_PER_PASS;
        const float *src = plan.b_src + (size_t)(k0 + i * P::B_ROWS_PER_PASS) * n;
        float *dst = &b_stage[plan.b_dst + i * P::B_ROWS_PER_PASS * CFG::BN];
        if (VEC) {
            cp_async_16(dst, src, r < k_len && plan.b_cols > 0 ? 16 : 0);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                cp_async_4(dst + j, src + j, r < k_len && j < plan.b_cols ? 4 : 0);
        }
    }
}

// The copies of a whole k-tile (BK deep, all inside K) check only A's rows and B's
// columns, and those checks are the same for every k-tile of a tile: both kernels work
// them out once per tile, as the source size of each copy, instead of in their loops.
template <typename CFG, bool VEC>
struct whole_copies {
    using P = copy_plan<CFG>;
    int a_bytes[P::A_ROW_PASSES];   // 4 for a row inside A, 0 outside
    int b_bytes[4];                 // per float of B's piece, or [0] for all 16 bytes
    __device__ explicit whole_copies(const P &plan)
    {
#pragma unroll
        for (int rp = 0; rp < P::A_ROW_PASSES; rp++)
            a_bytes[rp] = rp * P::A_ROWS_PER_PASS < plan.a_rows ? 4 : 0;
#pragma unroll
        for (int j = 0; j < 4; j++)
            b_bytes[j] = VEC ? (plan.b_cols > 0 ? 16 : 0) : (j < plan.b_cols ? 4 : 0);
    }
};

// The copies of a whole k-tile at the plan's k (k0 = 0), with the sizes worked out once,
// come in PARTS parts, one row pass each: A's passes, then B's. sgemm_wide issues part q
// at slice q, among the FMAs of different slices. Issued all at once after the barrier,
// as one block of copies and address arithmetic, they stalled both warps of a scheduler
// together, and the wide kernel lost 3% (README: runs 31 to 34).
template <typename CFG, bool VEC>
__device__ __forceinline__ void load_whole_part(float *a_stage, float *b_stage, const copy_plan<CFG> &plan,
                                                const whole_copies<CFG, VEC> &size, int n, int q)
{
    using P = copy_plan<CFG>;
    constexpr int A_PARTS = P::A_K_PASSES * P::A_ROW_PASSES;
    if (q < A_PARTS) {
        int kp = q / P::A_ROW_PASSES, rp = q % P::A_ROW_PASSES;
        cp_async_4(&a_stage[plan.a_dst + kp * 8 * (CFG::BM + A_PAD) + rp * P::A_ROWS_PER_PASS],
                   plan.a_src + rp * plan.a_pass + kp * 8, size.a_bytes[rp]);
    } else {
        int i = q - A_PARTS;
        const float *src = plan.b_src + (size_t)i * P::B_ROWS_PER_PASS * n;
        float *dst = &b_stage[plan.b_dst + i * P::B_ROWS_PER_PASS * CFG::BN];
        if (VEC) {
            cp_async_16(dst, src, size.b_bytes[0]);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                cp_async_4(dst + j, src + j, size.b_bytes[j]);
        }
    }
}

// All the parts at once: for the prologue, and for the one-stage control.
template <typename CFG, bool VEC>
__device__ __forceinline__ void load_whole_tile(float *a_stage, float *b_stage, const copy_plan<CFG> &plan,
                                                const whole_copies<CFG, VEC> &size, int n)
{
    using P = copy_plan<CFG>;
#pragma unroll
    for (int kp = 0; kp < P::A_K_PASSES; kp++)
#pragma unroll
        for (int rp = 0; rp < P::A_ROW_PASSES; rp++)
            load_whole_part<CFG, VEC>(a_stage, b_stage, plan, size, n, kp * P::A_ROW_PASSES + rp);
#pragma unroll
    for (int i = 0; i < P::B_PASSES; i++)
        load_whole_part<CFG, VEC>(a_stage, b_stage, plan, size, n, P::A_K_PASSES * P::A_ROW_PASSES + i);
}

// Slice p of one stage into registers: TM values of A and TN of B, float4 at a time.
template <typename CFG>
__device__ __forceinline__ void load_fragments(float (&a_frag)[CFG::TM], float (&b_frag)[CFG::TN],
                                               const float *a_stage, const float *b_stage, int p,
                                               int a_off, int b_off)
{
#pragma unroll
    for (int i = 0; i < CFG::TM / 4; i++)
        *reinterpret_cast<float4 *>(&a_frag[4 * i]) =
            *reinterpret_cast<const float4 *>(&a_stage[p * (CFG::BM + A_PAD) + a_off + i * CFG::LANES_M * 4]);
#pragma unroll
    for (int j = 0; j < CFG::TN / 4; j++)
        *reinterpret_cast<float4 *>(&b_frag[4 * j]) =
            *reinterpret_cast<const float4 *>(&b_stage[p * CFG::BN + b_off + j * CFG::LANES_N * 4]);
}

// The FMAs of one slice, in serpentine order: odd rows walk their columns backwards,
// so each row starts on the b_frag register the row before ended on. The compiler
// keeps this order, and more FFMAs take an operand from the register reuse cache
// (README: the SASS before and after); measured +2% at 2048 to 8192 (run 15).
template <typename CFG>
__device__ __forceinline__ void fma_slice(float (&acc)[CFG::TM][CFG::TN], const float (&a_frag)[CFG::TM],
                                          const float (&b_frag)[CFG::TN])
{
#pragma unroll
    for (int i = 0; i < CFG::TM; i++)
#pragma unroll
        for (int j = 0; j < CFG::TN; j++) {
            int jj = i % 2 == 0 ? j : CFG::TN - 1 - j;
            acc[i][jj] += a_frag[i] * b_frag[jj];
        }
}

// Rasterization: blocks walk the tiles of C in groups of GROUP_M tile rows,
// column by column within a group, so that the blocks running at one time share
// panels of A and B while both are in L2. Returns the tile's first row and column.
template <typename CFG>
__device__ __forceinline__ int2 tile_origin(int tile, int m, int n)
{
    int tiles_m = (m + CFG::BM - 1) / CFG::BM, tiles_n = (n + CFG::BN - 1) / CFG::BN;
    int group = tile / (GROUP_M * tiles_n);
    int first_m = group * GROUP_M;
    int group_rows = min(tiles_m - first_m, GROUP_M);
    int in_group = tile % (GROUP_M * tiles_n);
    return make_int2((first_m + in_group % group_rows) * CFG::BM, in_group / group_rows * CFG::BN);
}

// Four consecutive elements of C from `col` on, v = alpha * (A B): adds beta * C
// unless beta is 0 (C is not read then: it may hold NaN), and writes only inside C.
template <bool VEC>
__device__ __forceinline__ void store_c4(float *out, float (&v)[4], int col, int n, float beta)
{
    if (VEC) {
        if (col >= n)
            return;
        if (beta != 0.0f) {
            float4 old = *reinterpret_cast<const float4 *>(out);
            v[0] += beta * old.x; v[1] += beta * old.y; v[2] += beta * old.z; v[3] += beta * old.w;
        }
        *reinterpret_cast<float4 *>(out) = make_float4(v[0], v[1], v[2], v[3]);
    } else {
#pragma unroll
        for (int j = 0; j < 4; j++)
            if (col + j < n)
                out[j] = beta == 0.0f ? v[j] : v[j] + beta * out[j];
    }
}

// The epilogue without a split: C straight from the accumulators, each thread's
// rows and columns in float4-wide pieces.
template <typename CFG, bool VEC>
__device__ __forceinline__ void store_tile(float (&acc)[CFG::TM][CFG::TN], int a_off, int b_off, int m, int n,
                                           float alpha, float beta, float *c, int tile_row, int tile_col)
{
#pragma unroll
    for (int i = 0; i < CFG::TM; i++) {
        int row = tile_row + a_off + (i / 4) * CFG::LANES_M * 4 + i % 4;
        if (row >= m)
            continue;
#pragma unroll
        for (int j4 = 0; j4 < CFG::TN / 4; j4++) {
            int col = tile_col + b_off + j4 * CFG::LANES_N * 4;
            float v[4] = {alpha * acc[i][4 * j4], alpha * acc[i][4 * j4 + 1], alpha * acc[i][4 * j4 + 2],
                          alpha * acc[i][4 * j4 + 3]};
            store_c4<VEC>(c + (size_t)row * n + col, v, col, n, beta);
        }
    }
}

// The epilogue of a split K, in the cluster's distributed shared memory: every
// block writes its partial tile into its own shared memory; after a cluster-wide
// barrier, block `rank` adds up rows rank * BM / SPLIT onwards of all SPLIT
// partials, in rank order (the same order every launch: the same bits), and
// writes them to C. The second barrier keeps each block's shared memory alive
// until the others have read it.
template <typename CFG, int SPLIT, bool VEC>
__device__ __forceinline__ void reduce_split(const float (&acc)[CFG::TM][CFG::TN], float *smem, int a_off,
                                             int b_off, int m, int n, float alpha, float beta, float *c, int tile_row,
                                             int tile_col)
{
#if __CUDA_ARCH__ >= 900
    constexpr int BN = CFG::BN, ROWS = CFG::BM / SPLIT;
    static_assert(CFG::BM % SPLIT == 0 && (ROWS * BN / 4) % CFG::THREADS == 0,
                  "each block adds up whole rows, every thread the same share");
    cg::cluster_group cluster = cg::this_cluster();
    int rank = (int)cluster.block_rank();   // = blockIdx.x % SPLIT
    __syncthreads();   // the stages are read no more: the partial tile goes over them
#pragma unroll
    for (int i = 0; i < CFG::TM; i++)
#pragma unroll
        for (int j4 = 0; j4 < CFG::TN / 4; j4++) {
            int row = a_off + (i / 4) * CFG::LANES_M * 4 + i % 4, col = b_off + j4 * CFG::LANES_N * 4;
            *reinterpret_cast<float4 *>(&smem[row * BN + col]) =
                make_float4(acc[i][4 * j4], acc[i][4 * j4 + 1], acc[i][4 * j4 + 2], acc[i][4 * j4 + 3]);
        }
    cluster.sync();
#pragma unroll
    for (int e = threadIdx.x; e < ROWS * BN / 4; e += CFG::THREADS) {
        int row = rank * ROWS + e / (BN / 4), col = e % (BN / 4) * 4;
        float4 sum = *reinterpret_cast<const float4 *>(cluster.map_shared_rank(&smem[row * BN + col], 0));
#pragma unroll
        for (int s = 1; s < SPLIT; s++) {
            float4 part = *reinterpret_cast<const float4 *>(cluster.map_shared_rank(&smem[row * BN + col], s));
            sum.x += part.x; sum.y += part.y; sum.z += part.z; sum.w += part.w;
        }
        row += tile_row;
        col += tile_col;
        float v[4] = {alpha * sum.x, alpha * sum.y, alpha * sum.z, alpha * sum.w};
        if (row < m)
            store_c4<VEC>(c + (size_t)row * n + col, v, col, n, beta);
    }
    cluster.sync();
#else
    __trap();   // launch() splits K only where the kernel was built for sm_90 or newer
#endif
}

template <typename CFG, int K_PIPE_MAX, int SPLIT, bool VEC>
__global__ void __launch_bounds__(CFG::THREADS, CFG::MIN_BLOCKS)
sgemm_unrolled(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
    constexpr int TM = CFG::TM, TN = CFG::TN;
    extern __shared__ __align__(16) float smem[];
    float *a_stages = smem;
    float *b_stages = smem + K_PIPE_MAX * CFG::A_STAGE;

    // Split K: the SPLIT blocks of a cluster share one tile of C, block `rank` the
    // rank-th share of its k-tiles. Without a split, rank is 0 and the share is all of K.
    int tile = blockIdx.x / SPLIT, rank = blockIdx.x % SPLIT;
    int k_tiles_each = ((k + BK - 1) / BK + SPLIT - 1) / SPLIT;
    int k_begin = min(rank * k_tiles_each * BK, k), k_len = min(k_tiles_each * BK, k - k_begin);
    int k_tile_count = (k_len + BK - 1) / BK;

    // The epilogue reads the tile's origin back from shared memory: kept in two
    // registers through the main loop, it pushed the kernel past 128 registers
    // (a 4- to 8-byte spill at 3 stages).
    __shared__ int2 saved_origin;
    int2 origin = tile_origin<CFG>(tile, m, n);
    if (threadIdx.x == 0)
        saved_origin = origin;   // visible to all after the main loop's first barrier
    int tile_row = origin.x, tile_col = origin.y;

    // Warp tiling: warp w owns a WM x WN tile; lane (lane_m, lane_n) owns rows
    // lane_m*4 + {0..3} of each 4*LANES_M-row band of it, and columns likewise.
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int warp_row = warp / CFG::WARPS_N * CFG::WM, warp_col = warp % CFG::WARPS_N * CFG::WN;
    int lane_m = lane / CFG::LANES_N, lane_n = lane % CFG::LANES_N;
    int a_off = warp_row + lane_m * 4, b_off = warp_col + lane_n * 4;
    // The block's share of K starts at column k_begin of A and row k_begin of B. Its
    // partial k-tile (k_len % BK deep, or BK) is copied first, with a K check; the copies
    // after it are whole, and check only rows and columns, worked out once (whole_copies).
    // After each copy the plan moves on by that k-tile, so the next copy starts at k0 = 0.
    copy_plan<CFG> plan(a + k_begin, b + (size_t)k_begin * n, m, n, k, tile_row, tile_col);
    const whole_copies<CFG, VEC> size(plan);
    int k_first = k_len - (k_tile_count - 1) * BK;
    auto copy_first = [&](float *a_stage, float *b_stage) {
        load_tile<CFG, VEC>(a_stage, b_stage, plan, n, k_first, 0);
        plan.a_src += k_first;
        plan.b_src += (size_t)k_first * n;
    };
    auto copy_whole = [&](float *a_stage, float *b_stage) {
        load_whole_tile<CFG, VEC>(a_stage, b_stage, plan, size, n);
        plan.a_src += BK;
        plan.b_src += (size_t)BK * n;
    };

    float acc[TM][TN] = {};
    float a_frag[2][TM], b_frag[2][TN];
    if (K_PIPE_MAX == 1) {
        // The control, as in step 5: copy, wait, compute, wait.
        for (int k_tile = 0; k_tile < k_tile_count; k_tile++) {
            if (k_tile == 0)
                copy_first(a_stages, b_stages);
            else
                copy_whole(a_stages, b_stages);
            cp_async_commit();
            cp_async_wait<0>();
            __syncthreads();
#pragma unroll
            for (int p = 0; p < BK; p++) {
                load_fragments<CFG>(a_frag[0], b_frag[0], a_stages, b_stages, p, a_off, b_off);
                fma_slice<CFG>(acc, a_frag[0], b_frag[0]);
            }
            __syncthreads();
        }
    } else {
        // PREFETCH: tiles 0 .. K_PIPE_MAX-2; then slice 0 of tile 0 into registers.
#pragma unroll
        for (int s = 0; s < K_PIPE_MAX - 1; s++) {
            if (s == 0 && k_tile_count > 0)
                copy_first(a_stages, b_stages);
            else if (s < k_tile_count)
                copy_whole(a_stages + s * CFG::A_STAGE, b_stages + s * CFG::B_STAGE);
            cp_async_commit();
        }
        cp_async_wait<K_PIPE_MAX - 2>();
        __syncthreads();
        load_fragments<CFG>(a_frag[0], b_frag[0], a_stages, b_stages, 0, a_off, b_off);

        // PIPELINED MAIN LOOP, unrolled by K_PIPE_MAX: in the copy for pipe, the
        // stage read is `pipe` and the stage written is the one before it, both
        // constants, so every shared-memory address is a register plus an immediate.
        for (int k_tile_base = 0; k_tile_base < k_tile_count; k_tile_base += K_PIPE_MAX) {
#pragma unroll
            for (int pipe = 0; pipe < K_PIPE_MAX; pipe++) {
                const int smem_pipe_read = pipe;
                const int smem_pipe_write = (pipe + K_PIPE_MAX - 1) % K_PIPE_MAX;
                const int smem_pipe_next = (pipe + 1) % K_PIPE_MAX;
                int k_tile = k_tile_base + pipe;
                if (k_tile >= k_tile_count)
                    break;
                const float *a_read = a_stages + smem_pipe_read * CFG::A_STAGE;
                const float *b_read = b_stages + smem_pipe_read * CFG::B_STAGE;
#pragma unroll
                for (int p = 0; p < BK; p++) {
                    if (p == BK - 1) {
                        // The next tile's slice 0 is loaded during this slice's FMAs,
                        // so its copy must have landed: wait, and one barrier, which
                        // also frees the stage tile k_tile-1 used for the next copy.
                        cp_async_wait<K_PIPE_MAX - 2>();
                        __syncthreads();
                        load_fragments<CFG>(a_frag[(p + 1) % 2], b_frag[(p + 1) % 2],
                                            a_stages + smem_pipe_next * CFG::A_STAGE,
                                            b_stages + smem_pipe_next * CFG::B_STAGE, 0, a_off, b_off);
                    } else {
                        load_fragments<CFG>(a_frag[(p + 1) % 2], b_frag[(p + 1) % 2], a_read, b_read, p + 1,
                                            a_off, b_off);
                    }
                    if (p == 0) {
                        // The copy of tile k_tile + K_PIPE_MAX - 1, into the stage freed
                        // at the last barrier (all at once: spread over the slices, as
                        // in sgemm_wide, it cost registers and spilled at 128).
                        int k_tile_next = k_tile + K_PIPE_MAX - 1;
                        if (k_tile_next < k_tile_count)
                            copy_whole(a_stages + smem_pipe_write * CFG::A_STAGE,
                                       b_stages + smem_pipe_write * CFG::B_STAGE);
                        cp_async_commit();
                    }
                    fma_slice<CFG>(acc, a_frag[p % 2], b_frag[p % 2]);
                }
            }
        }
        cp_async_wait<0>();   // EPILOGUE: only empty groups are left
    }
    tile_row = saved_origin.x;
    tile_col = saved_origin.y;
    if constexpr (SPLIT > 1)
        reduce_split<CFG, SPLIT, VEC>(acc, smem, a_off, b_off, m, n, alpha, beta, c, tile_row, tile_col);
    else
        store_tile<CFG, VEC>(acc, a_off, b_off, m, n, alpha, beta, c, tile_row, tile_col);
}

// Wide tiles: 128 x 256 a block, 16 x 8 a thread, 128 accumulators, one block of
// 256 threads per SM. With this many accumulators the unrolled loop above ran at 0.924
// of cuBLAS at 4096 (run 16): its K checks and stage bookkeeping cost what the tile
// gains. This loop is lean instead: the partial k-tile (K % BK) is copied first, so
// every later copy is a whole k-tile with no K check, and its row and column checks are
// worked out once (whole_copies: +3.5% at 4096, run 18); the copies' sources move by a
// constant, and the stage read is one offset that steps round the ring. Unrolling the
// stages as above adds nothing here. And a k-tile's copies are issued a part a slice
// (load_whole_part), not all after the barrier: +3% from 2048 to 8192 (runs 31-34).
template <typename CFG, int K_PIPE_MAX, bool VEC>
__global__ void __launch_bounds__(CFG::THREADS, 1)
sgemm_wide(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
    extern __shared__ __align__(16) float smem[];
    constexpr int STAGE = CFG::A_STAGE + CFG::B_STAGE;   // floats: A's part, then B's
    int2 origin = tile_origin<CFG>(blockIdx.x, m, n);
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int warp_row = warp / CFG::WARPS_N * CFG::WM, warp_col = warp % CFG::WARPS_N * CFG::WN;
    int a_off = warp_row + lane / CFG::LANES_N * 4, b_off = warp_col + lane % CFG::LANES_N * 4;
    copy_plan<CFG> plan(a, b, m, n, k, origin.x, origin.y);
    int k_tile_count = (k + BK - 1) / BK, k_first = k - (k_tile_count - 1) * BK;   // 1 .. BK

    float acc[CFG::TM][CFG::TN] = {};
    float a_frag[2][CFG::TM], b_frag[2][CFG::TN];
    // PREFETCH: the partial k-tile into stage 0, whole ones into stages 1 .. K_PIPE_MAX-2.
    // After each copy the plan moves on by that k-tile, so the next copy starts at k0 = 0.
    int k_copied = 0;   // k-tiles copied so far
    auto copy_next = [&](float *stage, int depth) {
        load_tile<CFG, VEC>(stage, stage + CFG::A_STAGE, plan, n, depth, 0);
        plan.a_src += depth;
        plan.b_src += (size_t)depth * n;
        k_copied++;
    };
    // A whole k-tile (no K check): part q of its copies, or all of them; once all are
    // issued, the plan moves on by BK.
    const whole_copies<CFG, VEC> size(plan);
    auto copy_part = [&](float *stage, int q) {
        load_whole_part<CFG, VEC>(stage, stage + CFG::A_STAGE, plan, size, n, q);
    };
    auto whole_copied = [&]() {
        plan.a_src += BK;
        plan.b_src += (size_t)BK * n;
        k_copied++;
    };
    auto copy_whole = [&](float *stage) {
        load_whole_tile<CFG, VEC>(stage, stage + CFG::A_STAGE, plan, size, n);
        whole_copied();
    };
    if (K_PIPE_MAX == 1) {
        // The control, as in step 5: copy, wait, compute, wait.
        for (int k_tile = 0; k_tile < k_tile_count; k_tile++) {
            if (k_tile == 0)
                copy_next(smem, k_first);
            else
                copy_whole(smem);
            cp_async_commit();
            cp_async_wait<0>();
            __syncthreads();
#pragma unroll
            for (int p = 0; p < BK; p++) {
                load_fragments<CFG>(a_frag[0], b_frag[0], smem, smem + CFG::A_STAGE, p, a_off, b_off);
                fma_slice<CFG>(acc, a_frag[0], b_frag[0]);
            }
            __syncthreads();
        }
    } else {
#pragma unroll
        for (int s = 0; s < K_PIPE_MAX - 1; s++) {
            if (s < k_tile_count)
                copy_next(smem + s * STAGE, s == 0 ? k_first : BK);
            cp_async_commit();
        }
        cp_async_wait<K_PIPE_MAX - 2>();
        __syncthreads();
        load_fragments<CFG>(a_frag[0], b_frag[0], smem, smem + CFG::A_STAGE, 0, a_off, b_off);

        // PIPELINED MAIN LOOP, one k-tile a trip: smem_pipe_read and smem_pipe_write are
        // offsets that step round the ring of K_PIPE_MAX stages.
        int smem_pipe_read = 0, smem_pipe_write = (K_PIPE_MAX - 1) * STAGE;
        auto next_stage = [](int offset) { return offset + STAGE == K_PIPE_MAX * STAGE ? 0 : offset + STAGE; };
        static_assert(copy_plan<CFG>::PARTS < BK, "a k-tile's copies are committed before the wait at slice BK-1");
        for (int k_tile = 0; k_tile < k_tile_count; k_tile++) {
            const float *read = smem + smem_pipe_read;
            const float *next = smem + next_stage(smem_pipe_read);
            bool copy = k_copied < k_tile_count;   // a k-tile is left to copy
#pragma unroll
            for (int p = 0; p < BK; p++) {
                if (p == BK - 1) {
                    cp_async_wait<K_PIPE_MAX - 2>();
                    __syncthreads();
                    load_fragments<CFG>(a_frag[(p + 1) % 2], b_frag[(p + 1) % 2], next, next + CFG::A_STAGE, 0,
                                        a_off, b_off);
                } else {
                    load_fragments<CFG>(a_frag[(p + 1) % 2], b_frag[(p + 1) % 2], read, read + CFG::A_STAGE,
                                        p + 1, a_off, b_off);
                }
                // The copy of k-tile k_tile + K_PIPE_MAX - 1, into the stage freed at the
                // last barrier: part p at slice p, then one commit.
                if (p < copy_plan<CFG>::PARTS && copy)
                    copy_part(smem + smem_pipe_write, p);
                if (p == copy_plan<CFG>::PARTS - 1) {
                    if (copy)
                        whole_copied();
                    cp_async_commit();
                }
                fma_slice<CFG>(acc, a_frag[p % 2], b_frag[p % 2]);
            }
            smem_pipe_read = next_stage(smem_pipe_read);
            smem_pipe_write = next_stage(smem_pipe_write);
        }
        cp_async_wait<0>();   // EPILOGUE: only empty groups are left
    }
    store_tile<CFG, VEC>(acc, a_off, b_off, m, n, alpha, beta, c, origin.x, origin.y);
}


// The last partial wave ("stream-K"). 4096 has 512 wide tiles for 132 SMs: three whole
// waves and 116 tiles, which would leave 16 SMs idle for a quarter of the time. So
// sgemm_wide takes only the whole waves, and sgemm_wide_tail the tiles left over: their
// k-tiles, tile after tile, make one row that is cut into `runs` runs of equal length,
// one block each, so that every SM gets the same share of the last wave.
struct tail_schedule {
    static constexpr int MAX_PIECES = 4;   // runs a left-over tile is cut into, at most
    int first_tile;        // the left-over tiles are first_tile onwards
    int runs;              // their k-tiles are cut into this many runs (one block each)
    long long k_tiles;     // k-tiles in all of them
    // The tiles of the last partial wave, after one or more whole ones (none with fewer
    // tiles than SMs: one wave, K whole; run 29 found the hand-over costs more there).
    static long long left_over(long long tiles, long long sms) { return tiles >= sms ? tiles % sms : 0; }
    __device__ long long run_begin(int r) const { return r * k_tiles / runs; }
    __device__ int run_of(long long k_tile) const { return (int)(((k_tile + 1) * runs - 1) / k_tiles); }
};

// A tile cut between runs: each piece leaves its sums in a slot of the workspace, and
// the last piece to finish adds up the tile's slots in k order (the same order, so the
// same bits, every launch) and writes C. Nobody waits for anybody. The slots of a tile's
// pieces are consecutive (first .. first + pieces - 1); accumulator e of thread x sits at
// e * THREADS + x of a slot, so a warp writes and reads 128 contiguous bytes. One float at
// a time: float4 stores straight from acc put the accumulators in aligned groups of four
// registers and slowed the main loop (README: register banks). Returns true, with the
// tile's whole sums in acc, for the last piece, which also puts the tile's count back to 0.
template <typename CFG>
__device__ __forceinline__ bool add_up_if_last(float (&acc)[CFG::TM][CFG::TN], float *slots, int mine, int first,
                                               int pieces, int *arrived)
{
    constexpr int SLOT = CFG::BM * CFG::BN, E = CFG::TM * CFG::TN;
#pragma unroll
    for (int e = 0; e < E; e++)
        slots[(size_t)mine * SLOT + e * CFG::THREADS + threadIdx.x] = acc[e / CFG::TN][e % CFG::TN];
    __threadfence();   // this thread's sums are visible to every SM before the count moves
    __syncthreads();
    __shared__ bool last;
    if (threadIdx.x == 0) {
        last = atomicAdd(arrived, 1) == pieces - 1;
        if (last)
            *arrived = 0;
    }
    __syncthreads();
    if (!last)
        return false;
    __threadfence();
    const float *slot = slots + (size_t)first * SLOT + threadIdx.x;
#pragma unroll
    for (int e = 0; e < E; e++)   // a whole slot at a time: its loads in flight together
        acc[e / CFG::TN][e % CFG::TN] = __ldcg(slot + e * CFG::THREADS);
    for (int p = 1; p < pieces; p++) {
        slot += SLOT;
#pragma unroll
        for (int e = 0; e < E; e++)
            acc[e / CFG::TN][e % CFG::TN] += __ldcg(slot + e * CFG::THREADS);
    }
    return true;
}

// The k-loop of sgemm_wide for a range of a tile's k-tiles: k_tile_count of them from
// where `plan` points, the first k_first deep (1 .. BK), the others whole, summed into
// acc. It is sgemm_wide's loop, line for line. sgemm_wide keeps its own copy: written as
// a call of this function it compiled to the same instructions with other registers
// (897 FFMAs with a reuse flag, not 937) and ran 1% slower at 2048 (run 36).
template <typename CFG, int K_PIPE_MAX, bool VEC>
__device__ __forceinline__ void wide_k_tiles(float (&acc)[CFG::TM][CFG::TN], float *smem, copy_plan<CFG> &plan,
                                             int n, int k_tile_count, int k_first, int a_off, int b_off)
{
    constexpr int STAGE = CFG::A_STAGE + CFG::B_STAGE;   // floats: A's part, then B's
    float a_frag[2][CFG::TM], b_frag[2][CFG::TN];
    // PREFETCH: the partial k-tile into stage 0, whole ones into stages 1 .. K_PIPE_MAX-2.
    // After each copy the plan moves on by that k-tile, so the next copy starts at k0 = 0.
    int k_copied = 0;   // k-tiles copied so far
    auto copy_next = [&](float *stage, int depth) {
        load_tile<CFG, VEC>(stage, stage + CFG::A_STAGE, plan, n, depth, 0);
        plan.a_src += depth;
        plan.b_src += (size_t)depth * n;
        k_copied++;
    };
    // A whole k-tile (no K check): part q of its copies, or all of them; once all are
    // issued, the plan moves on by BK.
    const whole_copies<CFG, VEC> size(plan);
    auto copy_part = [&](float *stage, int q) {
        load_whole_part<CFG, VEC>(stage, stage + CFG::A_STAGE, plan, size, n, q);
    };
    auto whole_copied = [&]() {
        plan.a_src += BK;
        plan.b_src += (size_t)BK * n;
        k_copied++;
    };
    auto copy_whole = [&](float *stage) {
        load_whole_tile<CFG, VEC>(stage, stage + CFG::A_STAGE, plan, size, n);
        whole_copied();
    };
    if (K_PIPE_MAX == 1) {
        // The control, as in step 5: copy, wait, compute, wait.
        for (int k_tile = 0; k_tile < k_tile_count; k_tile++) {
            if (k_tile == 0)
                copy_next(smem, k_first);
            else
                copy_whole(smem);
            cp_async_commit();
            cp_async_wait<0>();
            __syncthreads();
#pragma unroll
            for (int p = 0; p < BK; p++) {
                load_fragments<CFG>(a_frag[0], b_frag[0], smem, smem + CFG::A_STAGE, p, a_off, b_off);
                fma_slice<CFG>(acc, a_frag[0], b_frag[0]);
            }
            __syncthreads();
        }
    } else {
#pragma unroll
        for (int s = 0; s < K_PIPE_MAX - 1; s++) {
            if (s < k_tile_count)
                copy_next(smem + s * STAGE, s == 0 ? k_first : BK);
            cp_async_commit();
        }
        cp_async_wait<K_PIPE_MAX - 2>();
        __syncthreads();
        load_fragments<CFG>(a_frag[0], b_frag[0], smem, smem + CFG::A_STAGE, 0, a_off, b_off);

        // PIPELINED MAIN LOOP, one k-tile a trip: smem_pipe_read and smem_pipe_write are
        // offsets that step round the ring of K_PIPE_MAX stages.
        int smem_pipe_read = 0, smem_pipe_write = (K_PIPE_MAX - 1) * STAGE;
        auto next_stage = [](int offset) { return offset + STAGE == K_PIPE_MAX * STAGE ? 0 : offset + STAGE; };
        static_assert(copy_plan<CFG>::PARTS < BK, "a k-tile's copies are committed before the wait at slice BK-1");
        for (int k_tile = 0; k_tile < k_tile_count; k_tile++) {
            const float *read = smem + smem_pipe_read;
            const float *next = smem + next_stage(smem_pipe_read);
            bool copy = k_copied < k_tile_count;   // a k-tile is left to copy
#pragma unroll
            for (int p = 0; p < BK; p++) {
                if (p == BK - 1) {
                    cp_async_wait<K_PIPE_MAX - 2>();
                    __syncthreads();
                    load_fragments<CFG>(a_frag[(p + 1) % 2], b_frag[(p + 1) % 2], next, next + CFG::A_STAGE, 0,
                                        a_off, b_off);
                } else {
                    load_fragments<CFG>(a_frag[(p + 1) % 2], b_frag[(p + 1) % 2], read, read + CFG::A_STAGE,
                                        p + 1, a_off, b_off);
                }
                // The copy of k-tile k_tile + K_PIPE_MAX - 1, into the stage freed at the
                // last barrier: part p at slice p, then one commit.
                if (p < copy_plan<CFG>::PARTS && copy)
                    copy_part(smem + smem_pipe_write, p);
                if (p == copy_plan<CFG>::PARTS - 1) {
                    if (copy)
                        whole_copied();
                    cp_async_commit();
                }
                fma_slice<CFG>(acc, a_frag[p % 2], b_frag[p % 2]);
            }
            smem_pipe_read = next_stage(smem_pipe_read);
            smem_pipe_write = next_stage(smem_pipe_write);
        }
        cp_async_wait<0>();   // EPILOGUE: only empty groups are left
    }
}

// One block a run: a piece of each left-over tile the run crosses, in the same k-loop.
template <typename CFG, int K_PIPE_MAX, bool VEC>
__global__ void __launch_bounds__(CFG::THREADS, 1)
sgemm_wide_tail(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c,
                tail_schedule work, float *slots, int *arrived)
{
    extern __shared__ __align__(16) float smem[];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int warp_row = warp / CFG::WARPS_N * CFG::WM, warp_col = warp % CFG::WARPS_N * CFG::WN;
    int a_off = warp_row + lane / CFG::LANES_N * 4, b_off = warp_col + lane % CFG::LANES_N * 4;
    int k_tiles = (k + BK - 1) / BK, k_first = k - (k_tiles - 1) * BK;   // 1 .. BK
    int run = blockIdx.x;
    for (long long at = work.run_begin(run), end = work.run_begin(run + 1); at < end;) {
        int t = (int)(at / k_tiles), first = (int)(at % k_tiles);   // tile t, from k-tile `first`
        long long tile_begin = at - first, tile_end = tile_begin + k_tiles;
        int count = (int)(min(end, tile_end) - at);
        int2 origin = tile_origin<CFG>(work.first_tile + t, m, n);
        int k0 = first == 0 ? 0 : k_first + (first - 1) * BK;   // k-tile 0 is the partial one
        copy_plan<CFG> plan(a + k0, b + (size_t)k0 * n, m, n, k, origin.x, origin.y);
        float acc[CFG::TM][CFG::TN] = {};
        __syncthreads();   // the piece before is done with the stages
        wide_k_tiles<CFG, K_PIPE_MAX, VEC>(acc, smem, plan, n, count, first == 0 ? k_first : BK, a_off, b_off);
        at += count;
        // The runs holding a piece of tile t are r0 .. r1; run r's piece has slot r + t
        // (no two pieces share one: a later run never holds an earlier tile).
        int r0 = work.run_of(tile_begin), r1 = work.run_of(tile_end - 1);
        if (r0 == r1 || add_up_if_last<CFG>(acc, slots, run + t, r0 + t, r1 - r0 + 1, arrived + t))
            store_tile<CFG, VEC>(acc, a_off, b_off, m, n, alpha, beta, c, origin.x, origin.y);
    }
}

// The whole waves of tiles, one block a tile; then, where tiles are left over, the runs.
// The workspace holds a slot for each piece of a cut tile (fewer than twice the SMs)
// and a count for each left-over tile.
template <typename CFG, int K_PIPE_MAX>
static cudaError_t launch_wide(const gemm_args *g, cudaStream_t stream)
{
    cudaError_t err;
    long long sms = harness_sm_count(&err);
    if (err != cudaSuccess)
        return err;
    long long tiles = (long long)harness_tile_count(g->m, g->n, CFG::BM, CFG::BN), k_tiles = (g->k + BK - 1) / BK;
    long long left = tail_schedule::left_over(tiles, sms);
    int smem = K_PIPE_MAX * (CFG::A_STAGE + CFG::B_STAGE) * (int)sizeof(float);
    bool vec = g->n % 4 == 0;
    auto kernel = vec ? sgemm_wide<CFG, K_PIPE_MAX, true> : sgemm_wide<CFG, K_PIPE_MAX, false>;
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (err != cudaSuccess)
        return err;
    kernel<<<(unsigned)(tiles - left), CFG::THREADS, smem, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta,
                                                                    g->c);
    err = cudaGetLastError();
    if (left == 0 || err != cudaSuccess)
        return err;
    tail_schedule work = {(int)(tiles - left), (int)min(sms, left * min(k_tiles, (long long)tail_schedule::MAX_PIECES)),
                          left * k_tiles};
    size_t slot_floats = (size_t)2 * sms * CFG::BM * CFG::BN;
    float *slots = (float *)harness_workspace(slot_floats * sizeof(float) + sms * sizeof(int), &err);
    if (err != cudaSuccess)
        return err;
    auto tail = vec ? sgemm_wide_tail<CFG, K_PIPE_MAX, true> : sgemm_wide_tail<CFG, K_PIPE_MAX, false>;
    err = cudaFuncSetAttribute(tail, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (err != cudaSuccess)
        return err;
    tail<<<work.runs, CFG::THREADS, smem, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c, work,
                                                     slots, (int *)(slots + slot_floats));
    return cudaGetLastError();
}

template <typename CFG, int K_PIPE_MAX, int SPLIT>
static cudaError_t launch_config(const gemm_args *g, cudaStream_t stream)
{
    unsigned tiles = (unsigned)harness_tile_count(g->m, g->n, CFG::BM, CFG::BN);
    // The stages; with a split K, the partial tile reuses them at the end, and may need more.
    int smem = K_PIPE_MAX * (CFG::A_STAGE + CFG::B_STAGE) * (int)sizeof(float);
    if (SPLIT > 1)
        smem = max(smem, CFG::BM * CFG::BN * (int)sizeof(float));
    auto kernel = g->n % 4 == 0 ? sgemm_unrolled<CFG, K_PIPE_MAX, SPLIT, true>
                                : sgemm_unrolled<CFG, K_PIPE_MAX, SPLIT, false>;
    // Past 48 KiB of shared memory a kernel must ask for it.
    cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (err != cudaSuccess)
        return err;
    // SPLIT blocks a tile, launched as one cluster: the blocks of a cluster run at the
    // same time, on SMs of one GPC, and can read each other's shared memory. The
    // "load balancing" placement fits more clusters at once than the default "spread"
    // (Nsight Compute: 66 clusters of 4 large-tile blocks instead of 62, 132 of 4
    // 64 x 128 blocks instead of 124): the blocks of a launch then run as one wave.
    cudaLaunchAttribute cluster[2];
    cluster[0].id = cudaLaunchAttributeClusterDimension;
    cluster[0].val.clusterDim.x = SPLIT;
    cluster[0].val.clusterDim.y = 1;
    cluster[0].val.clusterDim.z = 1;
    cluster[1].id = cudaLaunchAttributeClusterSchedulingPolicyPreference;
    cluster[1].val.clusterSchedulingPolicyPreference = cudaClusterSchedulingPolicyLoadBalancing;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(tiles * SPLIT);
    config.blockDim = dim3(CFG::THREADS);
    config.dynamicSmemBytes = (size_t)smem;
    config.stream = stream;
    config.attrs = cluster;
    config.numAttrs = SPLIT > 1 ? 2 : 0;
    err = cudaLaunchKernelEx(&config, kernel, g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);
    if (err != cudaSuccess)
        return err;
    return cudaGetLastError();
}

template <typename CFG, int SPLIT>
static cudaError_t launch_stages(const gemm_args *g, cudaStream_t stream)
{
    switch (g->stages) {
    case 1: return launch_config<CFG, 1, SPLIT>(g, stream);
    case 2: return launch_config<CFG, 2, SPLIT>(g, stream);
    case 3: return launch_config<CFG, 3, SPLIT>(g, stream);
    case 4: return launch_config<CFG, 4, SPLIT>(g, stream);
    default: return cudaErrorInvalidValue;
    }
}

// A kernel is built for each split of 1, 2, 4 ... MAX.
template <typename CFG, int MAX>
static cudaError_t launch_split(const gemm_args *g, int split, cudaStream_t stream)
{
    if (split == MAX)
        return launch_stages<CFG, MAX>(g, stream);
    if constexpr (MAX > 1)
        return launch_split<CFG, MAX / 2>(g, split, stream);
    else
        return cudaErrorInvalidValue;
}

using wide = tile_config<128, 256, 64, 64, 16, 8>;   // 256 threads, 128 accumulators each
using large = tile_config<128, 128, 32, 64, 8, 8>;   // 256 threads, 64 accumulators each
using mid = tile_config<64, 128, 32, 64, 8, 8>;      // 128 threads, 64 accumulators each
using small = tile_config<64, 64, 32, 32, 8, 4>;     // 128 threads, 32 accumulators each

#ifdef TUNE_BM   // `make tune` builds one binary per configuration
#ifndef TUNE_SPLIT
#define TUNE_SPLIT 1
#endif
using tuned = tile_config<TUNE_BM, TUNE_BN, TUNE_WM, TUNE_WN, TUNE_TM, TUNE_TN>;

static cudaError_t launch(const gemm_args *g, cudaStream_t stream)
{
    return launch_stages<tuned, TUNE_SPLIT>(g, stream);
}

static const char *kernel_name(const gemm_args *g)
{
    (void)g;
    return "the tile shape of this tuning build";
}
#else
constexpr int MAX_SPLIT = 8;   // blocks a tile at most: the largest portable cluster


// What launch() runs: the tile shape, and how many blocks share each tile's K.
enum tile_shape { WIDE, LARGE, MID, SMALL };
typedef struct {
    enum tile_shape shape;
    int split;
    cudaError_t err;   // of the device queries behind the choice
} launch_plan;

// Can K be split here? The GPU must launch clusters (compute capability 9.0), and
// this binary must hold the cluster code, built for sm_90 or newer.
static bool clusters_usable(cudaError_t *err)
{
    int device, clusters = 0;
    cudaFuncAttributes attr;
    *err = cudaGetDevice(&device);
    if (*err == cudaSuccess)
        *err = cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, device);
    if (*err == cudaSuccess)
        *err = cudaFuncGetAttributes(&attr, sgemm_unrolled<mid, 1, 2, true>);
    return *err == cudaSuccess && clusters && attr.binaryVersion >= 90;
}

// Enough 128 x 256 tiles for 9 SMs in 10 (one block each): those, in the lean loop of
// sgemm_wide. Else enough 128 x 128 tiles to give every SM one: those, K whole. Fewer:
// smaller tiles (64 x 128 while they give at least every other SM one, else 64 x 64),
// and K split over 2, 4 or 8 blocks a tile, doubled until every SM has a block; then
// doubled once more for a second block per SM, if each share keeps at least 128 of K
// and all the blocks fit on the GPU at once (blocks per SM from __launch_bounds__).
// Each share keeps at least 32 of K. 64 x 128 tiles are never split in 8: at least
// 66 of them double to 132 or more at once. (The measurements behind each number: README.)
static launch_plan plan_launch(const gemm_args *g)
{
    launch_plan p = {WIDE, 1, cudaSuccess};
    size_t sms = (size_t)harness_sm_count(&p.err);
    if (p.err != cudaSuccess || 10 * harness_tile_count(g->m, g->n, wide::BM, wide::BN) >= 9 * sms)
        return p;
    p.shape = LARGE;
    if (harness_tile_count(g->m, g->n, large::BM, large::BN) >= sms)
        return p;
    p.shape = MID;
    if (!clusters_usable(&p.err))
        return p;
    size_t tiles = harness_tile_count(g->m, g->n, mid::BM, mid::BN), slots = sms * mid::MIN_BLOCKS;
    if (2 * tiles < sms) {
        p.shape = SMALL;
        tiles = harness_tile_count(g->m, g->n, small::BM, small::BN);
        slots = sms * small::MIN_BLOCKS;
    }
    while (p.split < MAX_SPLIT && tiles * p.split < sms && g->k >= 2 * p.split * 32)
        p.split *= 2;
    if (p.split < MAX_SPLIT && g->k >= 2 * p.split * 128 && tiles * 2 * p.split <= slots)
        p.split *= 2;
    return p;
}

static cudaError_t launch_wide_stages(const gemm_args *g, cudaStream_t stream)
{
    switch (g->stages) {
    case 1: return launch_wide<wide, 1>(g, stream);
    case 2: return launch_wide<wide, 2>(g, stream);
    case 3: return launch_wide<wide, 3>(g, stream);
    case 4: return launch_wide<wide, 4>(g, stream);
    default: return cudaErrorInvalidValue;
    }
}

static cudaError_t launch(const gemm_args *g, cudaStream_t stream)
{
    launch_plan p = plan_launch(g);
    if (p.err != cudaSuccess)
        return p.err;
    switch (p.shape) {
    case WIDE: return launch_wide_stages(g, stream);
    case LARGE: return launch_stages<large, 1>(g, stream);
    case MID: return launch_split<mid, MAX_SPLIT / 2>(g, p.split, stream);   // see plan_launch
    default: return launch_split<small, MAX_SPLIT>(g, p.split, stream);
    }
}

// Which kernel launch picks, in words: the report prints it, the tests reach each one.
static const char *kernel_name(const gemm_args *g)
{
    static const char *const names[4][4][2] = {
        {{"128x256 tiles of 16x8 a thread, K whole, B copied in 4-byte pieces",
          "128x256 tiles of 16x8 a thread, K whole, B copied in 16-byte pieces"},
         {"128x256 tiles of 16x8 a thread, the last partial wave in runs of k-tiles, B copied in 4-byte pieces",
          "128x256 tiles of 16x8 a thread, the last partial wave in runs of k-tiles, B copied in 16-byte pieces"}},
        {{"128x128 tiles (one or more per SM), K whole, B copied in 4-byte pieces",
          "128x128 tiles (one or more per SM), K whole, B copied in 16-byte pieces"}},
        {{"64x128 tiles, K whole, B copied in 4-byte pieces", "64x128 tiles, K whole, B copied in 16-byte pieces"},
         {"64x128 tiles, K split in 2, B copied in 4-byte pieces", "64x128 tiles, K split in 2, B copied in 16-byte pieces"},
         {"64x128 tiles, K split in 4, B copied in 4-byte pieces", "64x128 tiles, K split in 4, B copied in 16-byte pieces"}},
        {{"64x64 tiles, K whole, B copied in 4-byte pieces", "64x64 tiles, K whole, B copied in 16-byte pieces"},
         {"64x64 tiles, K split in 2, B copied in 4-byte pieces", "64x64 tiles, K split in 2, B copied in 16-byte pieces"},
         {"64x64 tiles, K split in 4, B copied in 4-byte pieces", "64x64 tiles, K split in 4, B copied in 16-byte pieces"},
         {"64x64 tiles, K split in 8, B copied in 4-byte pieces", "64x64 tiles, K split in 8, B copied in 16-byte pieces"}}};
    launch_plan p = plan_launch(g);
    if (p.err != cudaSuccess)
        return "unknown (a device query failed)";
    int split_index = p.split == 8 ? 3 : p.split / 2;   // 1, 2, 4, 8 -> 0, 1, 2, 3
    if (p.shape == WIDE) {   // 1 when a last partial wave goes in runs (launch_wide)
        cudaError_t err;
        long long sms = harness_sm_count(&err);
        if (err != cudaSuccess)
            return "unknown (a device query failed)";
        split_index = tail_schedule::left_over((long long)harness_tile_count(g->m, g->n, wide::BM, wide::BN), sms) > 0;
    }
    return names[p.shape][split_index][g->n % 4 == 0];
}
#endif

int main(int argc, char **argv)
{
    static const step_info step = {
        "step6_unroll", "the pipeline unrolled to constant indices, warp tiles, tiles and K split fitted to the GPU",
        launch, MAX_STAGES, 3, kernel_name};
    return harness_main(argc, argv, &step);
}
