/* step1_tiling - tile the iteration space, and map threads so that a warp's accesses coalesce.
 *
 * Each block computes a BM x BN tile of C; each thread computes TM x TN elements
 * of it, spread BN/TN columns apart. Consecutive threads take consecutive
 * columns, so a warp reads 16 consecutive floats of a row of B (whole 32-byte
 * sectors) and all its threads of one row read the same element of A (one
 * broadcast). Operands still come from global memory, through L1 and L2: what a
 * thread loads once, it uses TN (for A) or TM (for B) times.
 *
 *   make step1 && ./step1 1024
 */
#include "../common/harness.h"

constexpr int BM = 64, BN = 64;               // the tile of C a block computes
constexpr int TM = 4, TN = 4;                 // the elements of C a thread computes
constexpr int THREADS_N = BN / TN;            // 16 threads across a tile row
constexpr int THREADS_M = BM / TM;            // 16 threads down a tile column
constexpr int THREADS = THREADS_M * THREADS_N;
static_assert(BM % TM == 0 && BN % TN == 0, "thread tiles must divide the block tile");
static_assert(THREADS % 32 == 0 && THREADS <= 1024, "whole warps, at most 1024 threads");
// The tile as --describe gives it to `make figures`: no k-tiles, no shared memory.
static const tile_option TILE = {BM, BN, THREADS, 1, 0, 0, 0, TM, TN, 1, -1};

// blockIdx.x numbers the tiles of C row by row; one dimension of grid never runs
// out (2^31 - 1 blocks), whatever the shape of C.
__global__ void sgemm_tiled(int m, int n, int k, float alpha, const float *a, const float *b,
                            float beta, float *c)
{
    int tiles_n = (n + BN - 1) / BN;
    int tile_row = blockIdx.x / tiles_n * BM;
    int tile_col = blockIdx.x % tiles_n * BN;
    int tx = threadIdx.x % THREADS_N;         // consecutive threads: consecutive columns
    int ty = threadIdx.x / THREADS_N;

    // Thread (ty, tx) owns rows tile_row + ty + i*THREADS_M and columns
    // tile_col + tx + j*THREADS_N: at each j a warp touches 16 neighbouring columns.
    float acc[TM][TN] = {};
    for (int p = 0; p < k; p++) {
        float a_frag[TM], b_frag[TN];
        for (int i = 0; i < TM; i++) {
            int row = tile_row + ty + i * THREADS_M;
            a_frag[i] = row < m ? a[(size_t)row * k + p] : 0.0f;
        }
        for (int j = 0; j < TN; j++) {
            int col = tile_col + tx + j * THREADS_N;
            b_frag[j] = col < n ? b[(size_t)p * n + col] : 0.0f;
        }
        for (int i = 0; i < TM; i++)
            for (int j = 0; j < TN; j++)
                acc[i][j] += a_frag[i] * b_frag[j];
    }

    for (int i = 0; i < TM; i++) {
        int row = tile_row + ty + i * THREADS_M;
        for (int j = 0; j < TN; j++) {
            int col = tile_col + tx + j * THREADS_N;
            if (row < m && col < n) {
                float *out = &c[(size_t)row * n + col];
                *out = beta == 0.0f ? alpha * acc[i][j] : alpha * acc[i][j] + beta * *out;
            }
        }
    }
}

static cudaError_t launch(const gemm_args *g, cudaStream_t stream)
{
    unsigned tiles = (unsigned)(((size_t)g->m + BM - 1) / BM * (((size_t)g->n + BN - 1) / BN));
    sgemm_tiled<<<tiles, THREADS, 0, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);
    return cudaGetLastError();
}

int main(int argc, char **argv)
{
    static const step_info step = {
        "step1_tiling", "a block per tile of C, a thread per small tile, coalesced warps",
        launch, 0, 0, NULL, NULL, NULL, &TILE, NULL, NULL};
    return harness_main(argc, argv, &step);
}
