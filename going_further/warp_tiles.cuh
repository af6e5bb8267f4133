// warp_tiles.cuh - going further, 1: warp tiles (a warp's fragment load one wavefront),
// rasterization (tiles running together share A and B in L2), FMAs in serpentine order, and
// copies of whole k-tiles without checks, through step 6's pipeline, unrolled.
// Its chapter: 1_warp_tiles.md (and there, "Rows that are not 16-byte aligned").
//   ./further 1024 --part warp-tiles

#include <type_traits>

constexpr int GROUP_M = 8;   // tile rows a rasterization group

// The track's k-tiles: step 6's pipeline, or at one stage step 5's control with its fragments
// double-buffered (loaded just before their FMAs, as step 5 does, they spilled on sm_120).
// Either way a barrier comes first, even with no k-tile (a split K's share may be empty), so
// that what the block stored before (a tile's origin) is seen by all. The pipeline copies past
// the last k-tile too, which the track's whole copies (no K check) must not: those are skipped.
template <typename CFG, int K_PIPE_MAX, bool UNROLLED, typename Copy, typename Fma>
__device__ __forceinline__ void track_k_tiles(float *smem, int k_tile_count, int a_off, int b_off, Copy copy, Fma fma)
{
    if constexpr (K_PIPE_MAX > 1) {
        auto copy_inside = [&](float *a_stage, float *b_stage, int k_tile) {
            if (k_tile < k_tile_count)
                copy(a_stage, b_stage, k_tile);
        };
        pipelined_k_tiles<CFG, K_PIPE_MAX, UNROLLED>(smem, k_tile_count, a_off, b_off, copy_inside, fma);
    } else {
        float *a_stage = smem, *b_stage = smem + CFG::A_STAGE;
        float a_frag[2][CFG::TM], b_frag[2][CFG::TN];
        __syncthreads();   // as the pipeline's prologue: its barrier comes whatever the count
        for (int k_tile = 0; k_tile < k_tile_count; k_tile++) {
            copy(a_stage, b_stage, k_tile);
            cp_async_commit();
            cp_async_wait<0>();
            __syncthreads();
            load_fragments<CFG>(a_frag[0], b_frag[0], a_stage, b_stage, 0, a_off, b_off);
#pragma unroll
            for (int p = 0; p < CFG::BK; p++) {
                if (p + 1 < CFG::BK)
                    load_fragments<CFG>(a_frag[(p + 1) % 2], b_frag[(p + 1) % 2], a_stage, b_stage, p + 1, a_off,
                                        b_off);
                fma(a_frag[p % 2], b_frag[p % 2]);
            }
            __syncthreads();
        }
    }
}

// The block tile BM x BN, the warp tile WM x WN, the thread tile TM x TN (made of 4x4
// pieces), k-tiles BK deep (8, or 16 for the narrow tile of stream_k.cuh).
template <int BM_, int BN_, int WM_, int WN_, int TM_, int TN_, int BK_ = 8>
struct warp_config {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
    static constexpr int LANES_M = WM / TM, LANES_N = WN / TN;   // a warp's lanes, as a grid
    static constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN;
    static constexpr int THREADS = 32 * WARPS_M * WARPS_N;
    static constexpr int STRIDE_M = 4 * LANES_M, STRIDE_N = 4 * LANES_N;   // between a thread's pieces
    static constexpr int A_STAGE = BK * (BM + A_PAD), B_STAGE = BK * BN;
    // 64 accumulators fit in 128 registers, so two blocks of 256 threads share an SM;
    // more accumulators need up to 255 registers and one block.
    static constexpr int MIN_BLOCKS = TM * TN <= 64 ? 65536 / (THREADS * 128) : 1;
    static_assert(LANES_M * LANES_N == 32, "a warp's lanes tile its warp tile");
    static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles divide the block tile");
    static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tiles are made of float4-wide pieces");
    static_assert((BM + A_PAD) % 32 == 4, "transposed copies of A land in 32 different banks");
    static_assert(THREADS % 8 == 0 && BM % (THREADS / 8) == 0 && THREADS % (BN / 4) == 0 &&
                      BK % (THREADS / (BN / 4)) == 0,
                  "every thread copies the same share of each tile");
};

// The tile a configuration is built for is the one the launch plan (plan.h) counts with.
template <typename CFG>
constexpr bool is_warp_tile(tile_id t)
{
    const tile_shape &s = TRACK_TILES[t];
    return CFG::BM == s.bm && CFG::BN == s.bn && CFG::BK == s.bk && CFG::TM == s.tm && CFG::TN == s.tn &&
           CFG::THREADS == s.threads && CFG::MIN_BLOCKS == s.min_blocks && CFG::WM == s.wm && CFG::WN == s.wn;
}
using warp_large = warp_config<128, 128, 32, 64, 8, 8>;   // 256 threads, 64 accumulators each
using warp_mid = warp_config<64, 128, 32, 64, 8, 8>;      // 128 threads, 64 accumulators each
using warp_small = warp_config<64, 64, 32, 32, 8, 4>;     // 128 threads, 32 accumulators each
static_assert(is_warp_tile<warp_large>(TILE_LARGE) && is_warp_tile<warp_mid>(TILE_MID) &&
                  is_warp_tile<warp_small>(TILE_SMALL),
              "plan.h's TRACK_TILES");

// B's rows not 16-byte aligned (N % 4 != 0) go PIECE floats a copy (1, or 2 where N is even; 4 is
// a float4). A warp's copy takes 32 x PIECE consecutive floats, one wavefront where step 6's took
// four: its lanes start PIECE columns apart, copy j b_row_of(j) rows and b_col_of(j) columns on.
template <typename CFG, int PIECE>
__device__ constexpr int b_row_of(int j) { return j * 32 * PIECE / CFG::BN; }
template <typename CFG, int PIECE>
__device__ constexpr int b_col_of(int j) { return j * 32 * PIECE % CFG::BN; }
// A copy of 4 or 8 bytes (PIECE floats), or none (size 0: zeros). .L2::128B has L2 fetch a
// sector's whole 128-byte line, so that the copies of the row's next k-tile find it there.
template <int PIECE>
__device__ __forceinline__ void cp_async_piece(float *dst, const float *src, int src_bytes)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], %2, %3;\n" ::"r"(d), "l"(src), "n"(4 * PIECE),
                 "r"(src_bytes)
                 : "memory");
}
template <typename CFG, int PIECE>
__device__ __forceinline__ copy_plan<CFG> track_copy_plan(const float *a, const float *b, int m, int n, int k,
                                                         int tile_row, int tile_col)
{
    static_assert(CFG::BN % 32 == 0, "a warp's copy of B takes 32 floats of one row");
    copy_plan<CFG> plan(a, b, m, n, k, tile_row, tile_col);
    if (PIECE < 4) {   // the warp's first row and column of B's pass, and this lane's row and column
        int first = threadIdx.x / 32 * 32, c_was = plan.b_dst - plan.b_row * CFG::BN, lane = threadIdx.x % 32 * PIECE;
        int row = first / (CFG::BN / 4) + lane / CFG::BN, c = first % (CFG::BN / 4) * 4 + lane % CFG::BN;
        plan.b_src += (ptrdiff_t)(row - plan.b_row) * n + (c - c_was);
        plan.b_cols += c_was - c;
        plan.b_row = row, plan.b_dst = row * CFG::BN + c;
    }
    return plan;
}

// A k-tile with a K check (the partial one, and the wide tiles' first ones): step 6's copies,
// or where N % 4 != 0, A's as step 6 copies it and B's along the lanes.
template <typename CFG, int PIECE>
__device__ __forceinline__ void load_checked(float *a_stage, float *b_stage, const copy_plan<CFG> &plan, int n,
                                             int k)
{
    using P = copy_plan<CFG>;
    if constexpr (PIECE == 4) {
        load_tile<CFG, true>(a_stage, b_stage, plan, n, k, 0);
    } else {
#pragma unroll
        for (int kp = 0; kp < P::A_K_PASSES; kp++)
#pragma unroll
            for (int rp = 0; rp < P::A_ROW_PASSES; rp++)
                cp_async_piece<1>(&a_stage[plan.a_dst + kp * 8 * (CFG::BM + A_PAD) + rp * P::A_ROWS_PER_PASS],
                                  plan.a_src + rp * plan.a_pass + kp * 8,
                                  kp * 8 + plan.kq < k && rp * P::A_ROWS_PER_PASS < plan.a_rows ? 4 : 0);
#pragma unroll
        for (int i = 0; i < P::B_PASSES; i++)
#pragma unroll
            for (int j = 0; j < 4 / PIECE; j++) {
                // K's rows left, anew at each copy (the empty asm): worked out once, it spilled.
                int left = k - plan.b_row;
                asm volatile("" : "+r"(left));
                int r = i * P::B_ROWS_PER_PASS + b_row_of<CFG, PIECE>(j), col = b_col_of<CFG, PIECE>(j);
                cp_async_piece<PIECE>(&b_stage[plan.b_dst + r * CFG::BN + col], plan.b_src + (size_t)r * n + col,
                                      r < left && col < plan.b_cols ? 4 * PIECE : 0);
            }
    }
}

// A whole k-tile's copies (BK deep, inside K) check only A's rows and B's columns, the same for
// every k-tile of a tile: worked out once, as each copy's source size, not in the loop.
template <typename CFG, int PIECE>
struct whole_copies {
    using P = copy_plan<CFG>;
    // A size for each of A's row passes, up to 4; the skinny tiles' 8 (stream_k.cuh) are
    // checked at each copy instead (held in registers, they spilled).
    static constexpr bool A_SIZES = P::A_ROW_PASSES <= 4;
    int a_bytes[A_SIZES ? P::A_ROW_PASSES : 1];   // 4 for a row inside A, 0 outside
    int b_bytes;                    // B's 16-byte piece; smaller ones are checked at the copy
    __device__ explicit whole_copies(const P &plan)
    {
#pragma unroll
        for (int rp = 0; rp < (A_SIZES ? P::A_ROW_PASSES : 1); rp++)
            a_bytes[rp] = rp * P::A_ROWS_PER_PASS < plan.a_rows ? 4 : 0;
        b_bytes = plan.b_cols > 0 ? 16 : 0;
    }
};

// The copies of a whole k-tile at the plan's k come in parts, one row pass each: A's
// passes, then B's. Part q of them, with the sizes worked out once (no check).
template <typename CFG>
constexpr int copy_parts = copy_plan<CFG>::A_K_PASSES * copy_plan<CFG>::A_ROW_PASSES + copy_plan<CFG>::B_PASSES;
template <typename CFG, int PIECE>
__device__ __forceinline__ void load_whole_part(float *a_stage, float *b_stage, const copy_plan<CFG> &plan,
                                                const whole_copies<CFG, PIECE> &size, int n, int q)
{
    using P = copy_plan<CFG>;
    constexpr int A_PARTS = P::A_K_PASSES * P::A_ROW_PASSES;
    if (q < A_PARTS) {
        int kp = q / P::A_ROW_PASSES, rp = q % P::A_ROW_PASSES;
        int bytes;
        if constexpr (whole_copies<CFG, PIECE>::A_SIZES) {
            bytes = size.a_bytes[rp];
        } else {   // the check at the copy (the empty asm: as for B's columns below)
            int rows = plan.a_rows;
            asm volatile("" : "+r"(rows));
            bytes = rp * P::A_ROWS_PER_PASS < rows ? 4 : 0;
        }
        cp_async_piece<1>(&a_stage[plan.a_dst + kp * 8 * (CFG::BM + A_PAD) + rp * P::A_ROWS_PER_PASS],
                          plan.a_src + rp * plan.a_pass + kp * 8, bytes);
    } else {
        int i = q - A_PARTS;
        const float *src = plan.b_src + (size_t)i * P::B_ROWS_PER_PASS * n;
        float *dst = &b_stage[plan.b_dst + i * P::B_ROWS_PER_PASS * CFG::BN];
        if (PIECE == 4) {
            cp_async_16(dst, src, size.b_bytes);
        } else {
            // Along the lanes (track_copy_plan). The empty asm gives `cols` anew at each copy:
            // the four checks, hoisted out of the loop, spilled the wide tile on sm_100 and sm_120.
            int cols = plan.b_cols;
            asm volatile("" : "+r"(cols));
#pragma unroll
            for (int j = 0; j < 4 / PIECE; j++) {
                int R = b_row_of<CFG, PIECE>(j), C = b_col_of<CFG, PIECE>(j);
                cp_async_piece<PIECE>(dst + R * CFG::BN + C, src + (size_t)R * n + C, C < cols ? 4 * PIECE : 0);
            }
        }
    }
}

// pipelined_k_tiles' `copy`: the partial k-tile (k_first deep, with a K check) first, then whole
// ones; after each copy the plan moves on by that k-tile, so that each copy starts at k0 = 0.
template <typename CFG, int PIECE>
struct first_then_whole {
    copy_plan<CFG> &plan;
    const whole_copies<CFG, PIECE> size;
    int n, k_first;
    __device__ first_then_whole(copy_plan<CFG> &plan_, int n_, int k_first_)
        : plan(plan_), size(plan_), n(n_), k_first(k_first_) {}
    __device__ void operator()(float *a_stage, float *b_stage, int k_tile)
    {
        int depth = k_tile == 0 ? k_first : CFG::BK;
        if (k_tile == 0) {
            load_checked<CFG, PIECE>(a_stage, b_stage, plan, n, k_first);
        } else {
#pragma unroll
            for (int q = 0; q < copy_parts<CFG>; q++)
                load_whole_part<CFG, PIECE>(a_stage, b_stage, plan, size, n, q);
        }
        plan.a_src += depth;
        plan.b_src += (size_t)depth * n;
    }
};

// The FMAs of one slice in serpentine order: odd rows walk their columns backwards, so that each
// row starts on the b_frag register the row before ended on (the register reuse cache).
template <typename CFG>
__device__ __forceinline__ void fma_serpentine(float (&acc)[CFG::TM][CFG::TN], const float (&a_frag)[CFG::TM],
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

// Rasterization: blocks walk the tiles of C in groups of GROUP_M tile rows, column by
// column within a group. Returns the tile's first row and column.
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

// C where N % 4 != 0, through each warp's own 128 floats of the stages: the lanes' float4s go in
// as a LANES_M x STRIDE_N band and come out a band row at a time, consecutive lanes on consecutive
// columns (coalesced). Else store_tile's float4s; so too 128 x 128 on sm_120, where the band spilled.
template <typename CFG, int PIECE>
__device__ __forceinline__ void store_warp_tile(float (&acc)[CFG::TM][CFG::TN], float *smem, int a_off, int b_off,
                                                int m, int n, float alpha, float beta, float *c, int tile_row,
                                                int tile_col)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1200
    constexpr bool DIRECT = PIECE == 4 || std::is_same<CFG, warp_large>::value;
#else
    constexpr bool DIRECT = PIECE == 4;
#endif
    if constexpr (DIRECT) {
        store_tile<CFG, PIECE == 4>(acc, a_off, b_off, m, n, alpha, beta, c, tile_row, tile_col);
    } else {
        constexpr int W = CFG::STRIDE_N, BAND = CFG::LANES_M * W;
        static_assert(BAND == 128 && CFG::THREADS / 32 * BAND <= CFG::A_STAGE + CFG::B_STAGE,
                      "a band a warp, all of them in one stage");
        int lane = threadIdx.x % 32;
        float *band = smem + threadIdx.x / 32 * BAND;
        // the warp tile's first row and column, in C
        int warp_row = tile_row + a_off - lane / CFG::LANES_N * 4, warp_col = tile_col + b_off - lane % CFG::LANES_N * 4;
        __syncthreads();   // the stages are read no more
#pragma unroll
        for (int i = 0; i < CFG::TM; i++)
#pragma unroll
            for (int j4 = 0; j4 < CFG::TN / 4; j4++) {
                __syncwarp();   // the band before is read
                *reinterpret_cast<float4 *>(&band[(lane / CFG::LANES_N) * W + lane % CFG::LANES_N * 4]) =
                    make_float4(alpha * acc[i][4 * j4], alpha * acc[i][4 * j4 + 1], alpha * acc[i][4 * j4 + 2],
                                alpha * acc[i][4 * j4 + 3]);
                __syncwarp();
#pragma unroll
                for (int e = lane; e < BAND; e += 32) {
                    int row = warp_row + (i / 4) * CFG::STRIDE_M + e / W * 4 + i % 4;
                    int col = warp_col + j4 * CFG::STRIDE_N + e % W;
                    if (row < m && col < n) {
                        float *out = c + (size_t)row * n + col;
                        *out = beta == 0.0f ? band[e] : band[e] + beta * *out;
                    }
                }
            }
    }
}

// Where a tile's K goes: here, all of it to one block, which writes C. (split_k.cuh
// shares it among the blocks of a cluster.)
struct k_whole {
    static constexpr int SPLIT = 1;
    template <typename CFG, int PIECE>
    __device__ static void finish(float (&acc)[CFG::TM][CFG::TN], float *smem, int a_off, int b_off, int m, int n,
                                  float alpha, float beta, float *c, int tile_row, int tile_col)
    {
        store_warp_tile<CFG, PIECE>(acc, smem, a_off, b_off, m, n, alpha, beta, c, tile_row, tile_col);
    }
    template <typename... Params, typename... Args>
    static cudaError_t launch(void (*kernel)(Params...), long long blocks, int threads, size_t smem,
                              cudaStream_t stream, Args... args)
    {
        return launch_kernel(kernel, blocks, threads, smem, stream, args...);
    }
};

template <typename CFG, int K_PIPE_MAX, bool UNROLLED, typename SHARE, int PIECE>
__global__ void __launch_bounds__(CFG::THREADS, CFG::MIN_BLOCKS)
sgemm_warp_tiles(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
    constexpr int SPLIT = SHARE::SPLIT, BK = CFG::BK;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    if constexpr (SPLIT > 1) {   // no clusters before sm_90: the plan never splits K there,
        __trap();                // and this kernel is built as a stub (a shorter build)
        return;
    }
#endif
    extern __shared__ __align__(16) float smem[];

    // The SPLIT blocks of a tile each take a share of its k-tiles (block `rank`, the
    // rank-th); with K whole, rank is 0 and the share is all of K.
    int tile = blockIdx.x / SPLIT, rank = blockIdx.x % SPLIT;
    int k_tiles_each = ((k + BK - 1) / BK + SPLIT - 1) / SPLIT;
    int k_begin = min(rank * k_tiles_each * BK, k), k_len = min(k_tiles_each * BK, k - k_begin);
    int k_tile_count = (k_len + BK - 1) / BK;

    // The epilogue reads the tile's origin back from shared memory: kept in registers
    // through the main loop, it spilled.
    __shared__ int2 saved_origin;
    int2 origin = tile_origin<CFG>(tile, m, n);
    if (threadIdx.x == 0)
        saved_origin = origin;   // visible to all after track_k_tiles' first barrier
    int tile_row = origin.x, tile_col = origin.y;

    // Warp tiling: warp w owns a WM x WN tile; lane (lane_m, lane_n) owns rows
    // lane_m*4 + {0..3} of each 4*LANES_M-row band of it, and columns likewise.
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int warp_row = warp / CFG::WARPS_N * CFG::WM, warp_col = warp % CFG::WARPS_N * CFG::WN;
    int lane_m = lane / CFG::LANES_N, lane_n = lane % CFG::LANES_N;
    int a_off = warp_row + lane_m * 4, b_off = warp_col + lane_n * 4;
    // The share starts at column k_begin of A and row k_begin of B.
    copy_plan<CFG> plan = track_copy_plan<CFG, PIECE>(a + k_begin, b + (size_t)k_begin * n, m, n, k, tile_row, tile_col);

    float acc[CFG::TM][CFG::TN] = {};
    track_k_tiles<CFG, K_PIPE_MAX, UNROLLED>(
        smem, k_tile_count, a_off, b_off,
        first_then_whole<CFG, PIECE>(plan, n, k_len - (k_tile_count - 1) * BK),
        [&](const float (&a_frag)[CFG::TM], const float (&b_frag)[CFG::TN]) {
            fma_serpentine<CFG>(acc, a_frag, b_frag);
        });
    tile_row = saved_origin.x;
    tile_col = saved_origin.y;
    SHARE::template finish<CFG, PIECE>(acc, smem, a_off, b_off, m, n, alpha, beta, c, tile_row, tile_col);
}

template <typename CFG, int K_PIPE_MAX, bool UNROLLED, typename SHARE, int PIECE>
static cudaError_t launch_warp_tiles(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    return SHARE::launch(sgemm_warp_tiles<CFG, K_PIPE_MAX, UNROLLED, SHARE, PIECE>, p.blocks, CFG::THREADS,
                         p.smem_bytes, stream, g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);
}
