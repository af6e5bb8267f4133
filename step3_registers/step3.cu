/* step3_registers - register blocking: each thread accumulates a TM x TN tile of C in registers,
 * and the block tile is fitted to the GPU.
 *
 * In step 2 every FMA needed two shared-memory loads. Here, at each step p of
 * the k-tile, a thread reads a fragment of TM values of A and TN values of B
 * into registers once and forms their outer product: TM*TN FMAs for TM+TN
 * loads (64 for 16 with the 8 x 8 tile). The block tile grows to 128 x 128, so
 * each element copied from global memory is used 128 times instead of 32.
 *
 * A 128 x 128 tile is large: at 1024 there are only 64 of them for 132 SMs. So
 * the launch function counts the tiles against the SMs and, when there are fewer
 * tiles than SMs, takes 64 x 128 tiles instead, of 8 x 4 a thread: twice the
 * blocks, each with as many threads.
 *
 *   make step3 && ./step3 1024
 */
#include "../common/harness.h"

// A block tile BM x BN, k-tiles BK deep, and a TM x TN tile of C per thread.
template <int BM_, int BN_, int BK_, int TM_, int TN_>
struct tile_config {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_;
    static constexpr int THREADS_N = BN / TN, THREADS_M = BM / TM;
    static constexpr int THREADS = THREADS_M * THREADS_N;
    static_assert(BM % TM == 0 && BN % TN == 0, "thread tiles must divide the block tile");
    static_assert((BM * BK) % THREADS == 0 && (BK * BN) % THREADS == 0,
                  "every thread copies the same number of elements of each tile");
};

using large = tile_config<128, 128, 16, 8, 8>;   // 256 threads, 64 accumulators each
using small = tile_config<64, 128, 16, 8, 4>;    // 256 threads, 32 accumulators each

// Copy one k-tile, as in step 2: the same loops, with the tile's sizes from CFG.
template <typename CFG>
__device__ __forceinline__ void load_tile(float *a_tile, float *b_tile, const float *a, const float *b, int m,
                                          int n, int k, int tile_row, int tile_col, int k0)
{
    constexpr int BM = CFG::BM, BN = CFG::BN, BK = CFG::BK, THREADS = CFG::THREADS;
    for (int i = 0; i < BM * BK / THREADS; i++) {
        int e = threadIdx.x + i * THREADS;
        int r = e / BK, col = e % BK;
        int row = tile_row + r, kk = k0 + col;
        a_tile[r * BK + col] = row < m && kk < k ? a[(size_t)row * k + kk] : 0.0f;
    }
    for (int i = 0; i < BK * BN / THREADS; i++) {
        int e = threadIdx.x + i * THREADS;
        int r = e / BN, col = e % BN;
        int kk = k0 + r, cc = tile_col + col;
        b_tile[r * BN + col] = kk < k && cc < n ? b[(size_t)kk * n + cc] : 0.0f;
    }
}

// The fragments of k-slice p: the thread's TM values of A (rows a_off + i * THREADS_M)
// and TN values of B (columns b_off + j * THREADS_N). A warp (two values of ty, sixteen
// of tx) reads two words of a_tile, each broadcast to 16 threads, and 16 consecutive
// words of b_tile: no bank conflicts. In the 8 x 4 tile a warp is one ty and 32 tx: one
// word broadcast, 32 consecutive words.
template <typename CFG>
__device__ __forceinline__ void load_fragments(float (&a_frag)[CFG::TM], float (&b_frag)[CFG::TN], const float *a_tile,
                                               const float *b_tile, int p, int a_off, int b_off)
{
    // exercise: this thread's TM values of A and TN of B at step p, into a_frag and b_frag
    // exercise mistake: rows a_off + i instead of a_off + i * THREADS_M: threads overlap (FAIL)
    // exercise mistake: a_tile read as [p][row]: in step 3 it is [row][p] (FAIL)
#pragma unroll
    for (int i = 0; i < CFG::TM; i++)
        a_frag[i] = a_tile[(a_off + i * CFG::THREADS_M) * CFG::BK + p];
#pragma unroll
    for (int j = 0; j < CFG::TN; j++)
        b_frag[j] = b_tile[p * CFG::BN + b_off + j * CFG::THREADS_N];
    // exercise end
}

// The outer product of the fragments: TM * TN FMAs from TM + TN values in registers.
template <typename CFG>
__device__ __forceinline__ void fma_slice(float (&acc)[CFG::TM][CFG::TN], const float (&a_frag)[CFG::TM],
                                          const float (&b_frag)[CFG::TN])
{
    // exercise: the outer product of the fragments: TM x TN FMAs into acc
    // exercise mistake: acc[i][j] += a_frag[j] * b_frag[i]: the fragments swapped (FAIL)
#pragma unroll
    for (int i = 0; i < CFG::TM; i++)
#pragma unroll
        for (int j = 0; j < CFG::TN; j++)
            acc[i][j] += a_frag[i] * b_frag[j];
    // exercise end
}

// C from the accumulators: alpha * (A B) + beta * C, for the elements inside C.
template <typename CFG>
__device__ __forceinline__ void store_tile(float (&acc)[CFG::TM][CFG::TN], int a_off, int b_off, int m, int n,
                                           float alpha, float beta, float *c, int tile_row, int tile_col)
{
#pragma unroll
    for (int i = 0; i < CFG::TM; i++) {
        int row = tile_row + a_off + i * CFG::THREADS_M;
        if (row >= m)
            continue;
#pragma unroll
        for (int j = 0; j < CFG::TN; j++) {
            int col = tile_col + b_off + j * CFG::THREADS_N;
            float *out = &c[(size_t)row * n + col];
            if (col < n)
                *out = beta == 0.0f ? alpha * acc[i][j] : alpha * acc[i][j] + beta * *out;
        }
    }
}

template <typename CFG>
__global__ void __launch_bounds__(CFG::THREADS)
sgemm_registers(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
    constexpr int BM = CFG::BM, BN = CFG::BN, BK = CFG::BK;
    __shared__ float a_tile[BM * BK];
    __shared__ float b_tile[BK * BN];
    int tiles_n = (n + BN - 1) / BN;
    int tile_row = blockIdx.x / tiles_n * BM;
    int tile_col = blockIdx.x % tiles_n * BN;
    // The thread's first row and column of the tile (step 2's ty and tx).
    int a_off = threadIdx.x / CFG::THREADS_N, b_off = threadIdx.x % CFG::THREADS_N;

    float acc[CFG::TM][CFG::TN] = {};
    for (int k0 = 0; k0 < k; k0 += BK) {
        load_tile<CFG>(a_tile, b_tile, a, b, m, n, k, tile_row, tile_col, k0);
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float a_frag[CFG::TM], b_frag[CFG::TN];
            load_fragments<CFG>(a_frag, b_frag, a_tile, b_tile, p, a_off, b_off);
            fma_slice<CFG>(acc, a_frag, b_frag);
        }
        __syncthreads();
    }
    store_tile<CFG>(acc, a_off, b_off, m, n, alpha, beta, c, tile_row, tile_col);
}

template <typename CFG>
static cudaError_t launch_config(const gemm_args *g, cudaStream_t stream)
{
    unsigned tiles = (unsigned)harness_tile_count(g->m, g->n, CFG::BM, CFG::BN);
    sgemm_registers<CFG><<<tiles, CFG::THREADS, 0, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);
    return cudaGetLastError();
}

// Tiles against SMs: a block runs on one SM, so with fewer 128 x 128 tiles than
// SMs some SMs get no work at all (at 1024: 64 tiles, 132 SMs on an H100 or H200).
// Then the smaller tiles: twice as many blocks. The harness's plan makes that choice
// from the device's SM count; the report's kernel line says which tile it took and
// how many blocks an SM holds.
template <typename CFG>
constexpr tile_option option_of() { return {CFG::BM, CFG::BN, CFG::THREADS, 1, sizeof(float) * CFG::BK * (CFG::BM + CFG::BN), 0,
                                            CFG::BK, CFG::TM, CFG::TN, 1, -1}; }
static const tile_option TILES[2] = {option_of<large>(), option_of<small>()};

static cudaError_t launch(const gemm_args *g, cudaStream_t stream)
{
    cudaError_t err;
    tile_plan p = harness_plan_tiles(g, TILES, &err);
    if (err != cudaSuccess)
        return err;
    return p.tile == 0 ? launch_config<large>(g, stream) : launch_config<small>(g, stream);
}

int main(int argc, char **argv)
{
    static const step_info step = {
        .name = "step3_registers",
        .idea = "each thread accumulates an 8x8 tile of C from register fragments; tiles fitted to the SMs",
        .launch = launch,
        .tiles = TILES,
    };
    return harness_main(argc, argv, &step);
}
