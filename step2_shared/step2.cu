/* step2_shared - stage tiles of A and B in shared memory, shared by the whole block.
 *
 * Step 1 read both operands of every FMA from global memory and relied on the
 * caches to find them again. Here the block copies a BM x BK tile of A and a
 * BK x BN tile of B into shared memory once (each element loaded by one thread,
 * the copies coalesced), waits at a barrier, computes from shared memory, and
 * waits again before the next tiles overwrite these. Each element copied from
 * global memory is then read BN (for A) or BM (for B) times from shared memory.
 *
 *   make step2 && ./step2 1024
 */
#include "../common/harness.h"

constexpr int BM = 32, BN = 32, BK = 32;      // block tile of C, and the depth of one k-tile
constexpr int THREADS = BM * BN;              // one thread an element of C
static_assert((BM * BK) % THREADS == 0 && (BK * BN) % THREADS == 0,
              "every thread copies the same number of elements of each tile");
// The tile as --describe gives it to `make figures`: k-tiles BK deep, A stored as it is.
static const tile_option TILE = {BM, BN, THREADS, 1, sizeof(float) * BK * (BM + BN), 0, BK, 1, 1, 1, -1};

// Copy one k-tile (k0 = its first k) of A and of B into shared memory, stored
// row-major as in global memory. Consecutive threads take consecutive elements of a
// row, so each warp reads whole sectors. Outside the matrix we store zeros, which add
// nothing to the sums, so the compute loop needs no bounds checks.
__device__ __forceinline__ void load_tile(float *a_tile, float *b_tile, const float *a, const float *b, int m,
                                          int n, int k, int tile_row, int tile_col, int k0)
{
    // exercise: copy k-tile k0 of A and of B into a_tile and b_tile, zeros outside the matrices
    // exercise mistake: both bounds checks left out: reads past A and B, an illegal address or wrong sums (FAIL)
    // exercise mistake: one bounds check left out: right sums (the other tile's zeros cancel it), but reads past the end (memcheck)
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
    // exercise end
}

__global__ void sgemm_shared(int m, int n, int k, float alpha, const float *a, const float *b,
                             float beta, float *c)
{
    __shared__ float a_tile[BM * BK];   // a_tile[r * BK + p] = A[tile_row + r][k0 + p]
    __shared__ float b_tile[BK * BN];   // b_tile[p * BN + c] = B[k0 + p][tile_col + c]
    int tiles_n = (n + BN - 1) / BN;
    int tile_row = blockIdx.x / tiles_n * BM;
    int tile_col = blockIdx.x % tiles_n * BN;
    int tx = threadIdx.x % BN, ty = threadIdx.x / BN;   // a warp is one row of the tile

    // Every thread stays to the end, even outside C: each one copies, and each one
    // must reach every barrier.
    float acc = 0.0f;
    for (int k0 = 0; k0 < k; k0 += BK) {
        load_tile(a_tile, b_tile, a, b, m, n, k, tile_row, tile_col, k0);
        // exercise: wait for the copy, then BK steps of acc from a_tile and b_tile, then wait again
        // exercise mistake: the first barrier left out: warps read tiles not yet copied (FAIL, not at every run)
        // exercise mistake: the second barrier left out: the next copy overwrites tiles still read (racecheck shows it)
        __syncthreads();   // the tiles are complete before anyone reads them
        // A warp is one row of the tile: its reads of b_tile are 32 consecutive words
        // (32 banks, no conflict); its read of a_tile is one word, broadcast to all 32.
        for (int p = 0; p < BK; p++) {
            acc += a_tile[ty * BK + p] * b_tile[p * BN + tx];
        }
        __syncthreads();   // everyone is done reading before the next copy overwrites
        // exercise end
    }

    int row = tile_row + ty, col = tile_col + tx;
    float *out = &c[(size_t)row * n + col];
    if (row < m && col < n)
        *out = beta == 0.0f ? alpha * acc : alpha * acc + beta * *out;
}

static cudaError_t launch(const gemm_args *g, cudaStream_t stream)
{
    unsigned tiles = (unsigned)harness_tile_count(g->m, g->n, BM, BN);
    sgemm_shared<<<tiles, THREADS, 0, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);
    return cudaGetLastError();
}

int main(int argc, char **argv)
{
    static const step_info step = {
        .name = "step2_shared",
        .idea = "tiles of A and B staged in shared memory, two barriers per k-tile",
        .launch = launch,
        .tile = &TILE,
    };
    return harness_main(argc, argv, &step);
}
