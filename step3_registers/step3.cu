/* step3_registers - register blocking: each thread accumulates a tile of C in registers,
 * and the block tile is fitted to the GPU.
 *
 * In step 2 every FMA needed two shared-memory loads. Here, at each step p of
 * the k-tile, a thread reads a fragment of TM values of A and TN values of B
 * into registers once and forms their outer product: TM*TN FMAs for TM+TN
 * loads (64 for 16 with the 8 x 8 tile). The block tile grows to 128 x 128, so
 * each element copied from global memory is used 128 times instead of 64.
 *
 * A 128 x 128 tile is large: at 1024 there are only 64 of them for 132 SMs. So
 * the launch function counts the tiles against the SMs and, when there are fewer
 * tiles than SMs, takes 32 x 64 tiles of 4 x 4 threads instead (512 blocks).
 *
 *   make step3 && ./step3 1024
 */
#include "../common/harness.h"

// A block tile BM x BN, k-tiles BK deep, a TM x TN tile of C per thread; the slice
// loop unrolled UNROLL slices at a time, and at least MIN_BLOCKS blocks per SM.
template <int BM_, int BN_, int BK_, int TM_, int TN_, int UNROLL_, int MIN_BLOCKS_>
struct tile_config {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_;
    static constexpr int UNROLL = UNROLL_, MIN_BLOCKS = MIN_BLOCKS_;
    static constexpr int THREADS_N = BN / TN, THREADS_M = BM / TM;
    static constexpr int THREADS = THREADS_M * THREADS_N;
    static_assert(BM % TM == 0 && BN % TN == 0, "thread tiles must divide the block tile");
    static_assert(THREADS % 32 == 0 && THREADS <= 1024, "whole warps, at most 1024 threads");
    static_assert((BM * BK) % THREADS == 0 && (BK * BN) % THREADS == 0,
                  "every thread copies the same number of elements of each tile");
    static_assert(BK % UNROLL == 0, "the unrolled slices divide the k-tile");
};

// 8 x 8 a thread, 256 threads. Unrolled by 2, not 8: fully unrolled, the compiler
// hoists all 8 slices' loads (128 values) and needs 203 registers, so only one
// block fits per SM; capped at 128 registers, two blocks (16 warps) share an SM.
using large = tile_config<128, 128, 8, 8, 8, 2, 2>;
// 4 x 4 a thread, 128 threads, 16 slices a k-tile, all unrolled (120 registers).
using small = tile_config<32, 64, 16, 4, 4, 16, 4>;

template <typename CFG>
__global__ void __launch_bounds__(CFG::THREADS, CFG::MIN_BLOCKS)
sgemm_registers(int m, int n, int k, float alpha, const float *a, const float *b, float beta,
                float *c)
{
    constexpr int BM = CFG::BM, BN = CFG::BN, BK = CFG::BK, TM = CFG::TM, TN = CFG::TN;
    constexpr int THREADS = CFG::THREADS, THREADS_M = CFG::THREADS_M, THREADS_N = CFG::THREADS_N;
    __shared__ float a_tile[BM][BK];
    __shared__ float b_tile[BK][BN];

    int tiles_n = (n + BN - 1) / BN;
    int tile_row = blockIdx.x / tiles_n * BM;
    int tile_col = blockIdx.x % tiles_n * BN;
    int tx = threadIdx.x % THREADS_N;
    int ty = threadIdx.x / THREADS_N;

    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < k; k0 += BK) {
        for (int i = 0; i < BM * BK / THREADS; i++) {
            int e = threadIdx.x + i * THREADS;
            int r = e / BK, col = e % BK;
            int row = tile_row + r, kk = k0 + col;
            a_tile[r][col] = row < m && kk < k ? a[(size_t)row * k + kk] : 0.0f;
        }
        for (int i = 0; i < BK * BN / THREADS; i++) {
            int e = threadIdx.x + i * THREADS;
            int r = e / BN, col = e % BN;
            int kk = k0 + r, cc = tile_col + col;
            b_tile[r][col] = kk < k && cc < n ? b[(size_t)kk * n + cc] : 0.0f;
        }
        __syncthreads();

        // A thread's rows are THREADS_M apart and its columns THREADS_N apart, so in
        // the 128 x 128 tile a warp (two values of ty, sixteen of tx) reads two words
        // of a_tile, 8 banks apart and each broadcast to 16 threads, and 16
        // consecutive words of b_tile: no bank conflicts. The fragments live in
        // registers; the TM x TN FMAs reuse them.
#pragma unroll(CFG::UNROLL)
        for (int p = 0; p < BK; p++) {
            float a_frag[TM], b_frag[TN];
            for (int i = 0; i < TM; i++)
                a_frag[i] = a_tile[ty + i * THREADS_M][p];
            for (int j = 0; j < TN; j++)
                b_frag[j] = b_tile[p][tx + j * THREADS_N];
            for (int i = 0; i < TM; i++)
                for (int j = 0; j < TN; j++)
                    acc[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads();
    }

    // One pointer, and each element an offset from it: written as 64 addresses of their
    // own, the stores need more than 128 registers before sm_90, and the compiler spills.
    float *c_tile = c + (size_t)(tile_row + ty) * n + tile_col + tx;
    for (int i = 0; i < TM; i++) {
        int row = tile_row + ty + i * THREADS_M;
        for (int j = 0; j < TN; j++) {
            int col = tile_col + tx + j * THREADS_N;
            if (row < m && col < n) {
                float *out = c_tile + (size_t)i * THREADS_M * n + j * THREADS_N;
                *out = beta == 0.0f ? alpha * acc[i][j] : alpha * acc[i][j] + beta * *out;
            }
        }
    }
}

template <typename CFG>
static cudaError_t launch_config(const gemm_args *g, cudaStream_t stream)
{
    unsigned tiles = (unsigned)harness_tile_count(g->m, g->n, CFG::BM, CFG::BN);
    sgemm_registers<CFG><<<tiles, CFG::THREADS, 0, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b,
                                                              g->beta, g->c);
    return cudaGetLastError();
}

// Tiles against SMs: a block runs on one SM, so with fewer 128 x 128 tiles than
// SMs some SMs get no work at all (at 1024: 64 tiles, 132 SMs on an H100 or H200).
// Then the small tiles: 512 of them at 1024, about 4 blocks per SM. The harness's plan
// makes that choice from the device's SM count, and says how many blocks an SM holds.
template <typename CFG>
constexpr tile_option option_of() { return {CFG::BM, CFG::BN, CFG::THREADS, CFG::MIN_BLOCKS, sizeof(float) * CFG::BK * (CFG::BM + CFG::BN), 0,
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

// Which kernel launch picks, in words: the report prints it, the tests reach both.
static const char *kernel_name(const gemm_args *g, char *buf, size_t len)
{
    cudaError_t err;
    tile_plan p = harness_plan_tiles(g, TILES, &err);
    if (err != cudaSuccess)
        return "unknown (a device query failed)";
    return harness_describe_tiles(g, TILES, &p, p.tile == 0 ? "128x128 tiles of 8x8 a thread (one or more tiles per SM)"
                                                            : "32x64 tiles of 4x4 a thread (fewer 128x128 tiles than SMs)",
                                  buf, len);
}

int main(int argc, char **argv)
{
    static const step_info step = {
        "step3_registers", "each thread accumulates an 8x8 tile of C from register fragments; tiles fitted to the SMs",
        launch, 0, 0, kernel_name, NULL, TILES, NULL, NULL, NULL};
    return harness_main(argc, argv, &step);
}
