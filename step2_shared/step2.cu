/* step2_shared - stage tiles of A and B in shared memory, shared by the whole block.
 *
 * Step 1 read every operand from global memory and relied on the caches to
 * find it again. Here the block copies a BM x BK tile of A and a BK x BN tile of
 * B into shared memory once (each element loaded by one thread, the copies
 * coalesced), waits at a barrier, computes from shared memory, and waits again
 * before the next tiles overwrite these.
 *
 *   make step2 && ./step2 1024
 */
#include "../common/harness.h"

constexpr int BM = 64, BN = 64, BK = 16;      // block tile of C, and the depth of one k-tile
constexpr int TM = 4, TN = 4;                 // the elements of C a thread computes
constexpr int THREADS_N = BN / TN;
constexpr int THREADS_M = BM / TM;
constexpr int THREADS = THREADS_M * THREADS_N;
static_assert(BM % TM == 0 && BN % TN == 0, "thread tiles must divide the block tile");
static_assert(THREADS % 32 == 0 && THREADS <= 1024, "whole warps, at most 1024 threads");
static_assert((BM * BK) % THREADS == 0 && (BK * BN) % THREADS == 0,
              "every thread copies the same number of elements of each tile");
// The tile as --describe gives it to `make figures`: k-tiles BK deep, A stored as it is.
static const tile_option TILE = {BM, BN, THREADS, 1, sizeof(float) * BK * (BM + BN), 0, BK, TM, TN, 1, -1};

__global__ void sgemm_shared(int m, int n, int k, float alpha, const float *a, const float *b,
                             float beta, float *c)
{
    __shared__ float a_tile[BM][BK];
    __shared__ float b_tile[BK][BN];

    int tiles_n = (n + BN - 1) / BN;
    int tile_row = blockIdx.x / tiles_n * BM;
    int tile_col = blockIdx.x % tiles_n * BN;
    int tx = threadIdx.x % THREADS_N;
    int ty = threadIdx.x / THREADS_N;

    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < k; k0 += BK) {
        // Copy: consecutive threads take consecutive elements of a row, so each
        // warp reads whole sectors. Outside the matrix we store zeros, which add
        // nothing to the sums, so the compute loop needs no bounds checks.
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
        __syncthreads();   // the tiles are complete before anyone reads them

        // Compute: a warp is two rows of 16 threads. Its reads of b_tile are 16
        // consecutive words (no bank conflict, and the two rows share them); its
        // reads of a_tile are two words, each broadcast to 16 threads.
#pragma unroll
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
        __syncthreads();   // everyone is done reading before the next copy overwrites
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
    sgemm_shared<<<tiles, THREADS, 0, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);
    return cudaGetLastError();
}

int main(int argc, char **argv)
{
    static const step_info step = {
        "step2_shared", "tiles of A and B staged in shared memory, two barriers per k-tile",
        launch, 0, 0, NULL, NULL, NULL, &TILE, NULL, NULL};
    return harness_main(argc, argv, &step);
}
