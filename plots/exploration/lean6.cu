/* lean6 - exploration (issue 10, leads 1-3): a lean k-tile with 128 accumulators a thread.
 *
 * Not a step of the course: a probe for what step 6 could become at 2048 and up.
 *   - block tile BM x BN (128 x 256 or 256 x 128), 256 threads, one block per SM,
 *     thread tile TM x TN = 128 accumulators, warp tiles of 8 x 4 or 4 x 8 lanes;
 *   - 2 stages, switched with one XOR (each stage padded to a power of two);
 *   - the partial k-tile (K % BK) goes first, zero-filled, so the main loop has no K
 *     check; row and column checks are worked out once (the source size of each copy);
 *   - the loop body is one k-tile: the copy of the next k-tile at slice 0, the
 *     fragments of the next slice loaded during this slice's FMAs, one wait and one
 *     barrier at the last slice; the last k-tile (no copy) is a second instance.
 *
 *   nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -DLEAN_BM=128 -DLEAN_BN=256 \
 *        plots/exploration/lean6.cu build/libharness.a -lcublas -lcudart -o lean6
 */
#include "../../common/harness.h"

#ifndef LEAN_BM
#define LEAN_BM 128
#endif
#ifndef LEAN_BN
#define LEAN_BN 256
#endif
#ifndef LEAN_TM
#define LEAN_TM 8
#endif
constexpr int BM = LEAN_BM, BN = LEAN_BN, BK = 8, THREADS = 256;
constexpr int TM = LEAN_TM, TN = 128 / TM;                  // 128 accumulators
constexpr int WM = BM / (BM == 128 ? 2 : 4), WN = BN / (BM == 128 ? 4 : 2);   // 8 warps
constexpr int LANES_M = WM / TM, LANES_N = WN / TN;
constexpr int WARPS_N = BN / WN;
constexpr int A_PAD = 4;
constexpr int A_STAGE = BK * (BM + A_PAD), B_STAGE = BK * BN;
constexpr int STAGE = A_STAGE + B_STAGE <= 4096 ? 4096 : 8192;   // floats, a power of two
constexpr int GROUP_M = 8;
static_assert(LANES_M * LANES_N == 32 && TM % 4 == 0 && TN % 4 == 0, "lanes tile the warp tile");
static_assert(A_STAGE + B_STAGE <= STAGE, "a stage fits its power-of-two slot");

// A: 8 k of THREADS/8 rows a pass; B: 16-byte pieces, THREADS/(BN/4) rows a pass.
constexpr int A_ROWS_PER_PASS = THREADS / 8, A_PASSES = BM / A_ROWS_PER_PASS;
constexpr int B_ROWS_PER_PASS = THREADS / (BN / 4), B_PASSES = BK / B_ROWS_PER_PASS;

__device__ __forceinline__ void cp_async_4(unsigned dst, const float *src, int bytes)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
}
__device__ __forceinline__ void cp_async_16(unsigned dst, const float *src, int bytes)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }

__device__ __forceinline__ int2 tile_origin(int m, int n)
{
    int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
    int group = blockIdx.x / (GROUP_M * tiles_n);
    int first_m = group * GROUP_M;
    int group_rows = min(tiles_m - first_m, GROUP_M);
    int in_group = blockIdx.x % (GROUP_M * tiles_n);
    return make_int2((first_m + in_group % group_rows) * BM, in_group / group_rows * BN);
}

struct copies {
    const float *a_src[A_PASSES];   // this thread's A element of each row pass, at the current k
    const float *b_src;             // its first B piece, at the current k
    int a_bytes[A_PASSES];          // 4 inside M, 0 outside (zero-fill)
    int b_bytes[4];                 // per float of the piece (4-byte path) or [0] for 16 bytes
    unsigned a_dst, b_dst;          // shared addresses in stage 0
};

template <bool VEC>
__device__ __forceinline__ void issue_copies(const copies &cp, unsigned stage_base, int n, int k_limit)
{
    // k_limit: copies at k offset >= k_limit zero-fill (only for the first, partial k-tile)
    int kq = threadIdx.x % 8;
#pragma unroll
    for (int rp = 0; rp < A_PASSES; rp++)
        cp_async_4(stage_base + cp.a_dst + rp * A_ROWS_PER_PASS * 4, cp.a_src[rp], kq < k_limit ? cp.a_bytes[rp] : 0);
    int b_row = threadIdx.x / (BN / 4);
#pragma unroll
    for (int i = 0; i < B_PASSES; i++) {
        bool in_k = b_row + i * B_ROWS_PER_PASS < k_limit;
        const float *src = cp.b_src + (size_t)i * B_ROWS_PER_PASS * n;
        unsigned dst = stage_base + cp.b_dst + i * B_ROWS_PER_PASS * BN * 4;
        if (VEC) {
            cp_async_16(dst, src, in_k ? cp.b_bytes[0] : 0);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                cp_async_4(dst + 4 * j, src + j, in_k ? cp.b_bytes[j] : 0);
        }
    }
}

__device__ __forceinline__ void load_frags(float (&af)[TM], float (&bf)[TN], const float *stage, int p, int a_off,
                                           int b_off)
{
#pragma unroll
    for (int i = 0; i < TM / 4; i++)
        *reinterpret_cast<float4 *>(&af[4 * i]) =
            *reinterpret_cast<const float4 *>(&stage[p * (BM + A_PAD) + a_off + i * LANES_M * 4]);
#pragma unroll
    for (int j = 0; j < TN / 4; j++)
        *reinterpret_cast<float4 *>(&bf[4 * j]) =
            *reinterpret_cast<const float4 *>(&stage[A_STAGE + p * BN + b_off + j * LANES_N * 4]);
}

template <bool VEC>
__global__ void __launch_bounds__(THREADS, 1)
sgemm_lean(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
    extern __shared__ __align__(16) float smem[];
    int2 origin = tile_origin(m, n);
    int tile_row = origin.x, tile_col = origin.y;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int lane_m = lane / LANES_N, lane_n = lane % LANES_N;
    int a_off = warp / WARPS_N * WM + lane_m * 4, b_off = warp % WARPS_N * WN + lane_n * 4;

    // The copy plan, once. The first k-tile is the partial one: it covers k in
    // [0, k_first); every later k-tile is whole, BK deep, and needs no K check.
    int k_tiles = (k + BK - 1) / BK, k_first = k - (k_tiles - 1) * BK;
    copies cp;
    {
        int a_row = threadIdx.x / 8, kq = threadIdx.x % 8;
        int b_row = threadIdx.x / (BN / 4), col = threadIdx.x % (BN / 4) * 4;
#pragma unroll
        for (int rp = 0; rp < A_PASSES; rp++) {
            int row = tile_row + a_row + rp * A_ROWS_PER_PASS;
            cp.a_src[rp] = a + (size_t)row * k + kq;
            cp.a_bytes[rp] = row < m ? 4 : 0;
        }
        cp.b_src = b + (size_t)b_row * n + tile_col + col;
        int cols = n - tile_col - col;
        if (VEC) {
            cp.b_bytes[0] = cols > 0 ? 16 : 0;
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                cp.b_bytes[j] = j < cols ? 4 : 0;
        }
        unsigned base = (unsigned)__cvta_generic_to_shared(smem);
        cp.a_dst = base + (kq * (BM + A_PAD) + a_row) * 4;
        cp.b_dst = base + (A_STAGE + b_row * BN + col) * 4;
    }

    float acc[TM][TN] = {};
    float af[2][TM], bf[2][TN];

    // PROLOGUE: the partial k-tile into stage 0.
    issue_copies<VEC>(cp, 0, n, k_first);
    cp_async_commit();
#pragma unroll
    for (int rp = 0; rp < A_PASSES; rp++)
        cp.a_src[rp] += k_first;
    cp.b_src += (size_t)k_first * n;
    cp_async_wait_all();
    __syncthreads();
    unsigned stage = 0;   // byte offset of the stage read, 0 or STAGE * 4
    load_frags(af[0], bf[0], smem, 0, a_off, b_off);
    size_t b_step = (size_t)BK * n;

    // MAIN LOOP: one k-tile a trip; the copy of the next one into the other stage.
    for (int t = 1; t <= k_tiles; t++) {
        const float *read = smem + stage / 4;
        const float *next = smem + (stage ^ (STAGE * 4)) / 4;
        bool copy = t < k_tiles;
#pragma unroll
        for (int p = 0; p < BK; p++) {
            if (p == BK - 1) {
                cp_async_wait_all();
                __syncthreads();
                load_frags(af[(p + 1) % 2], bf[(p + 1) % 2], next, 0, a_off, b_off);
            } else {
                load_frags(af[(p + 1) % 2], bf[(p + 1) % 2], read, p + 1, a_off, b_off);
            }
            if (p == 0 && copy) {
                issue_copies<VEC>(cp, stage ^ (STAGE * 4), n, BK);
                cp_async_commit();
#pragma unroll
                for (int rp = 0; rp < A_PASSES; rp++)
                    cp.a_src[rp] += BK;
                cp.b_src += b_step;
            }
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] += af[p % 2][i] * bf[p % 2][j];
        }
        stage ^= STAGE * 4;
    }

    // EPILOGUE
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int row = tile_row + a_off + (i / 4) * LANES_M * 4 + i % 4;
        if (row >= m)
            continue;
#pragma unroll
        for (int j4 = 0; j4 < TN / 4; j4++) {
            int col = tile_col + b_off + j4 * LANES_N * 4;
            float *out = c + (size_t)row * n + col;
            float v[4] = {alpha * acc[i][4 * j4], alpha * acc[i][4 * j4 + 1], alpha * acc[i][4 * j4 + 2],
                          alpha * acc[i][4 * j4 + 3]};
            if (VEC) {
                if (col >= n)
                    continue;
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
    }
}

static cudaError_t launch(const gemm_args *g, cudaStream_t stream)
{
    unsigned tiles = (unsigned)harness_tile_count(g->m, g->n, BM, BN);
    int smem = 2 * STAGE * (int)sizeof(float);
    auto kernel = g->n % 4 == 0 ? sgemm_lean<true> : sgemm_lean<false>;
    cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (err != cudaSuccess)
        return err;
    kernel<<<tiles, THREADS, smem, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);
    return cudaGetLastError();
}

int main(int argc, char **argv)
{
    static const step_info step = {"lean6", "exploration: a lean k-tile, 128 accumulators", launch, 0, 0, NULL};
    return harness_main(argc, argv, &step);
}
