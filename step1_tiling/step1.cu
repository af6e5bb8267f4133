/* step1_tiling - a block per tile of C, and threads mapped so that a warp's accesses coalesce.
 *
 * Step 0 gave thread t row t of C, so the 32 threads of a warp read 32 rows of A,
 * K floats apart. Here a block computes a BM x BN tile of C, one element a thread,
 * and consecutive threads take consecutive columns: a warp is one row of the tile.
 * At each step p its 32 loads of B are 32 consecutive floats (four whole 32-byte
 * sectors), and its 32 loads of A are one address, broadcast to every thread.
 * Operands still come from global memory, through L1 and L2.
 *
 *   make step1 && ./step1 1024
 */
#include "../common/harness.h"

constexpr int BM = 32, BN = 32;               // the tile of C a block computes
constexpr int THREADS = BM * BN;              // one thread an element of C
// The tile as --describe gives it to `make figures`: no k-tiles, one element a thread.
static const tile_option TILE = {BM, BN, THREADS, 1, 0, 0, 0, 1, 1, 1, -1};

// blockIdx.x numbers the tiles of C row by row; one dimension of grid never runs
// out (2^31 - 1 blocks), whatever the shape of C.
__global__ void sgemm_tiled(int m, int n, int k, float alpha, const float *a, const float *b,
                            float beta, float *c)
{
    // exercise: this block's tile of C, and this thread's element of it: a warp on one row
    // exercise mistake: tx and ty swapped: a warp is a column again, its loads of A 32 rows apart (PASS, but slow)
    // exercise mistake: the tile's row and column swapped: blocks write other tiles (FAIL where M != N)
    int tiles_n = (n + BN - 1) / BN;
    int tile_row = blockIdx.x / tiles_n * BM;
    int tile_col = blockIdx.x % tiles_n * BN;
    int tx = threadIdx.x % BN;                // consecutive threads: consecutive columns
    int ty = threadIdx.x / BN;
    int row = tile_row + ty, col = tile_col + tx;
    // exercise end
    if (row >= m || col >= n)
        return;

    float acc = 0.0f;
    for (int p = 0; p < k; p++)
        acc += a[(size_t)row * k + p] * b[(size_t)p * n + col];

    // With beta == 0, C is not read (the BLAS rule): it may hold NaN.
    float *out = &c[(size_t)row * n + col];
    *out = beta == 0.0f ? alpha * acc : alpha * acc + beta * *out;
}

static cudaError_t launch(const gemm_args *g, cudaStream_t stream)
{
    unsigned tiles = (unsigned)harness_tile_count(g->m, g->n, BM, BN);
    sgemm_tiled<<<tiles, THREADS, 0, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);
    return cudaGetLastError();
}

int main(int argc, char **argv)
{
    static const step_info step = {
        .name = "step1_tiling",
        .idea = "a block per tile of C, one element a thread, warps that coalesce",
        .launch = launch,
        .tile = &TILE,
    };
    return harness_main(argc, argv, &step);
}
