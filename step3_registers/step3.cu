/* step3_registers - register blocking: each thread accumulates an 8 x 8 tile of C in registers.
 *
 * In step 2 every FMA needed two shared-memory loads. Here, at each step p of
 * the k-tile, a thread reads a fragment of TM values of A and TN values of B
 * into registers once and forms their outer product: TM*TN FMAs for TM+TN
 * loads (64 for 16). The block tile grows to 128 x 128, so each element copied
 * from global memory is used 128 times instead of 64.
 *
 *   make step3 && ./step3 1024
 */
#include "../common/harness.h"

constexpr int BM = 128, BN = 128, BK = 8;     // block tile of C, and the depth of one k-tile
constexpr int TM = 8, TN = 8;                 // the register tile of C a thread accumulates
constexpr int THREADS_N = BN / TN;            // 16
constexpr int THREADS_M = BM / TM;            // 16
constexpr int THREADS = THREADS_M * THREADS_N;
static_assert(BM % TM == 0 && BN % TN == 0, "thread tiles must divide the block tile");
static_assert(THREADS % 32 == 0 && THREADS <= 1024, "whole warps, at most 1024 threads");
static_assert((BM * BK) % THREADS == 0 && (BK * BN) % THREADS == 0,
              "every thread copies the same number of elements of each tile");

// At most 128 registers a thread, so that two blocks (16 warps) share an SM.
__global__ void __launch_bounds__(THREADS, 2)
sgemm_registers(int m, int n, int k, float alpha, const float *a, const float *b, float beta,
                float *c)
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

        // A thread's rows are THREADS_M apart and its columns THREADS_N apart, so a
        // warp (two values of ty, sixteen of tx) reads two words of a_tile, 8 banks
        // apart and each broadcast to 16 threads, and 16 consecutive words of b_tile:
        // no bank conflicts. The fragments live in registers; the 64 FMAs reuse them.
        // Unrolled by 2, not 8: fully unrolled, the compiler hoists all 8 slices'
        // loads (128 values) and needs 203 registers, so only one block fits per SM.
#pragma unroll 2
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
    sgemm_registers<<<tiles, THREADS, 0, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta,
                                                   g->c);
    return cudaGetLastError();
}

int main(int argc, char **argv)
{
    static const step_info step = {
        "step3_registers", "each thread accumulates an 8x8 tile of C from register fragments",
        launch, 0, 0, NULL};
    return harness_main(argc, argv, &step);
}
