/* step4_vectorize - 128-bit loads and stores: A transposed in shared memory, float4 everywhere.
 *
 * Step 3 read its fragments with 32-bit shared loads and copied tiles one float
 * at a time. Here every global load, every shared-memory fragment load and every
 * store of C moves four floats. A tile of A is stored transposed (k-major), so
 * that the values of A a thread needs at step p lie side by side, like B's; and a
 * thread's rows and columns come in runs of four, so that each run is one float4.
 * Rows that are not 16-byte aligned (K or N not a multiple of 4) take a scalar,
 * predicated copy of the same code, chosen once at launch.
 *
 *   make step4 && ./step4 1024
 */
#include "../common/harness.h"

constexpr int A_PAD = 4;        // a_tile rows are BM + 4 floats: 4 banks apart (mod 32)

// A block tile BM x BN, k-tiles BK deep, and a TM x TN tile of C per thread made of float4
// pieces: rows ty*4 + {0..3} of each band of THREADS_M*4 rows, columns likewise.
template <int BM_, int BN_, int BK_, int TM_, int TN_>
struct tile_config {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_;
    static constexpr int THREADS_N = BN / TN, THREADS_M = BM / TM;
    static constexpr int THREADS = THREADS_M * THREADS_N;
    static constexpr int STRIDE_M = 4 * THREADS_M, STRIDE_N = 4 * THREADS_N;   // between a thread's pieces
    static_assert(TM % 4 == 0 && TN % 4 == 0, "a thread's tile is made of float4 pieces");
    static_assert((BM + A_PAD) % 32 == 4, "transposed copies of A spread over the banks");
    static_assert((BM * BK) % (4 * THREADS) == 0 && (BK * BN) % (4 * THREADS) == 0,
                  "every thread copies the same number of float4 of each tile");
};

using large = tile_config<128, 128, 16, 8, 8>;   // 256 threads, 64 accumulators each
using small = tile_config<64, 128, 16, 8, 4>;    // 256 threads, 32 accumulators each

// Four consecutive elements of a row-major matrix (rows x cols) starting at (row, col),
// with zeros outside it. VEC: cols is a multiple of 4, so the four are all inside or
// all outside, and one 16-byte load fetches them; else four loads, each checked.
template <bool VEC>
__device__ __forceinline__ float4 load4(const float *base, int row, int col, int rows, int cols)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= rows)
        return v;
    const float *p = base + (size_t)row * cols + col;
    if (VEC) {
        if (col < cols)
            v = *reinterpret_cast<const float4 *>(p);
    } else {
        if (col + 0 < cols) v.x = p[0];
        if (col + 1 < cols) v.y = p[1];
        if (col + 2 < cols) v.z = p[2];
        if (col + 3 < cols) v.w = p[3];
    }
    return v;
}

// Copy one k-tile in float4 pieces: 4 consecutive k of a row of A, stored down a column
// of a_tile (a_tile[p][row]), or 4 consecutive columns of a row of B. All the loads are
// issued before the first store, so their latencies overlap.
template <typename CFG, bool VEC>
__device__ __forceinline__ void load_tile(float *a_tile, float *b_tile, const float *a, const float *b, int m,
                                          int n, int k, int tile_row, int tile_col, int k0)
{
    constexpr int BM = CFG::BM, BN = CFG::BN, BK = CFG::BK, THREADS = CFG::THREADS;
    // exercise: the k-tile as float4: all loads into registers, then A down columns of a_tile, B as it is
    // exercise mistake: A stored as in step 3 (a_tile[r * BK + col]): load_fragments reads another layout (FAIL)
    // exercise mistake: a row of a_tile taken as BM long, the pad forgotten: every row after the first shifts (FAIL)
    // exercise mistake: each float4 stored before the next is loaded: right, but the loads' latencies add up (slow)
    float4 a_regs[BM * BK / 4 / THREADS], b_regs[BK * BN / 4 / THREADS];
    for (int i = 0; i < BM * BK / 4 / THREADS; i++) {
        int e = threadIdx.x + i * THREADS;
        a_regs[i] = load4<VEC>(a, tile_row + e / (BK / 4), k0 + e % (BK / 4) * 4, m, k);
    }
    for (int i = 0; i < BK * BN / 4 / THREADS; i++) {
        int e = threadIdx.x + i * THREADS;
        b_regs[i] = load4<VEC>(b, k0 + e / (BN / 4), tile_col + e % (BN / 4) * 4, k, n);
    }
    for (int i = 0; i < BM * BK / 4 / THREADS; i++) {
        int e = threadIdx.x + i * THREADS;
        float *dst = &a_tile[e % (BK / 4) * 4 * (BM + A_PAD) + e / (BK / 4)];
        dst[0] = a_regs[i].x;
        dst[BM + A_PAD] = a_regs[i].y;
        dst[2 * (BM + A_PAD)] = a_regs[i].z;
        dst[3 * (BM + A_PAD)] = a_regs[i].w;
    }
    for (int i = 0; i < BK * BN / 4 / THREADS; i++) {
        int e = threadIdx.x + i * THREADS;
        *reinterpret_cast<float4 *>(&b_tile[e / (BN / 4) * BN + e % (BN / 4) * 4]) = b_regs[i];
    }
    // exercise end
}

// The fragments of k-slice p: float4 pieces from the thread's first row a_off and first
// column b_off of the tile. A warp's B loads are 16 consecutive float4 (256 bytes); its
// A loads are two float4, each broadcast.
template <typename CFG>
__device__ __forceinline__ void load_fragments(float (&a_frag)[CFG::TM], float (&b_frag)[CFG::TN], const float *a_tile,
                                               const float *b_tile, int p, int a_off, int b_off)
{
    // exercise: k-slice p's fragments as float4: TM / 4 pieces of A, TN / 4 of B, STRIDE_M, STRIDE_N apart
    // exercise mistake: pieces 4 floats apart instead of STRIDE_M: threads overlap (FAIL)
    // exercise mistake: A read down a column (a_tile[(a_off + i) * ...]): a_tile is transposed now (FAIL)
#pragma unroll
    for (int i = 0; i < CFG::TM / 4; i++)
        *reinterpret_cast<float4 *>(&a_frag[4 * i]) =
            *reinterpret_cast<const float4 *>(&a_tile[p * (CFG::BM + A_PAD) + a_off + i * CFG::STRIDE_M]);
#pragma unroll
    for (int j = 0; j < CFG::TN / 4; j++)
        *reinterpret_cast<float4 *>(&b_frag[4 * j]) =
            *reinterpret_cast<const float4 *>(&b_tile[p * CFG::BN + b_off + j * CFG::STRIDE_N]);
    // exercise end
}

template <typename CFG>
__device__ __forceinline__ void fma_slice(float (&acc)[CFG::TM][CFG::TN], const float (&a_frag)[CFG::TM],
                                          const float (&b_frag)[CFG::TN])
{
#pragma unroll
    for (int i = 0; i < CFG::TM; i++)
#pragma unroll
        for (int j = 0; j < CFG::TN; j++)
            acc[i][j] += a_frag[i] * b_frag[j];
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

// C from the accumulators, each thread's rows and columns in float4-wide pieces.
template <typename CFG, bool VEC>
__device__ __forceinline__ void store_tile(float (&acc)[CFG::TM][CFG::TN], int a_off, int b_off, int m, int n,
                                           float alpha, float beta, float *c, int tile_row, int tile_col)
{
#pragma unroll
    for (int i = 0; i < CFG::TM; i++) {
        int row = tile_row + a_off + (i / 4) * CFG::STRIDE_M + i % 4;
        if (row >= m)
            continue;
#pragma unroll
        for (int j4 = 0; j4 < CFG::TN / 4; j4++) {
            int col = tile_col + b_off + j4 * CFG::STRIDE_N;
            float v[4] = {alpha * acc[i][4 * j4], alpha * acc[i][4 * j4 + 1], alpha * acc[i][4 * j4 + 2],
                          alpha * acc[i][4 * j4 + 3]};
            store_c4<VEC>(c + (size_t)row * n + col, v, col, n, beta);
        }
    }
}

template <typename CFG, bool VEC>
__global__ void __launch_bounds__(CFG::THREADS)
sgemm_vectorized(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
    constexpr int BM = CFG::BM, BN = CFG::BN, BK = CFG::BK;
    __shared__ __align__(16) float a_tile[BK * (BM + A_PAD)];   // transposed: a_tile[p][row]
    __shared__ __align__(16) float b_tile[BK * BN];
    int tiles_n = (n + BN - 1) / BN;
    int tile_row = blockIdx.x / tiles_n * BM;
    int tile_col = blockIdx.x % tiles_n * BN;
    int a_off = threadIdx.x / CFG::THREADS_N * 4, b_off = threadIdx.x % CFG::THREADS_N * 4;   // ty * 4, tx * 4

    float acc[CFG::TM][CFG::TN] = {};
    for (int k0 = 0; k0 < k; k0 += BK) {
        load_tile<CFG, VEC>(a_tile, b_tile, a, b, m, n, k, tile_row, tile_col, k0);
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float a_frag[CFG::TM], b_frag[CFG::TN];
            load_fragments<CFG>(a_frag, b_frag, a_tile, b_tile, p, a_off, b_off);
            fma_slice<CFG>(acc, a_frag, b_frag);
        }
        __syncthreads();
    }
    store_tile<CFG, VEC>(acc, a_off, b_off, m, n, alpha, beta, c, tile_row, tile_col);
}

// 16-byte accesses need every row start 16-byte aligned: K and N multiples of 4.
static bool rows_aligned(const gemm_args *g)
{
    return g->k % 4 == 0 && g->n % 4 == 0;
}

template <typename CFG>
static cudaError_t launch_config(const gemm_args *g, cudaStream_t stream)
{
    unsigned tiles = (unsigned)harness_tile_count(g->m, g->n, CFG::BM, CFG::BN);
    auto kernel = rows_aligned(g) ? sgemm_vectorized<CFG, true> : sgemm_vectorized<CFG, false>;
    kernel<<<tiles, CFG::THREADS, 0, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);
    return cudaGetLastError();
}

// As in step 3: the 128 x 128 tiles when there are at least as many as SMs.
template <typename CFG>
constexpr tile_option option_of() { return {CFG::BM, CFG::BN, CFG::THREADS, 1, sizeof(float) * CFG::BK * (CFG::BM + A_PAD + CFG::BN), 0,
                                            CFG::BK, CFG::TM, CFG::TN, 4, A_PAD}; }
static const tile_option TILES[2] = {option_of<large>(), option_of<small>()};

static cudaError_t launch(const gemm_args *g, cudaStream_t stream)
{
    cudaError_t err;
    tile_plan p = harness_plan_tiles(g, TILES, &err);
    if (err != cudaSuccess)
        return err;
    return p.tile == 0 ? launch_config<large>(g, stream) : launch_config<small>(g, stream);
}

// Which variant launch picks, in words after the plan's tile: the report prints it, the
// tests reach both variants of both tiles.
static const char *kernel_name(const gemm_args *g, const tile_plan *p, char *buf, size_t len)
{
    const char *words = rows_aligned(g) ? "16-byte loads and stores (K and N multiples of 4)"
                                        : "4-byte loads and stores (K or N not a multiple of 4)";
    return harness_describe_tiles(g, TILES, p, words, buf, len);
}

int main(int argc, char **argv)
{
    static const step_info step = {
        .name = "step4_vectorize",
        .idea = "128-bit global and shared loads, A transposed in shared memory",
        .launch = launch,
        .kernel = kernel_name,
        .tiles = TILES,
    };
    return harness_main(argc, argv, &step);
}
