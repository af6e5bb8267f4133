/* step5_pipeline - a ring of shared-memory stages filled by cp.async, and double-buffered fragments.
 *
 * In step 4 a block loaded a tile, waited at a barrier, computed, waited again:
 * while it waited for global memory nothing else ran, and while it computed no
 * load was in flight. Here the loads stop waiting for compute. K_PIPE_MAX stages
 * of shared memory form a ring; cp.async copies global memory straight into a
 * stage without passing through registers, so the copy runs in the background.
 *
 *   PREFETCH             issue tiles 0 .. K_PIPE_MAX-2, one commit group each
 *   PIPELINED MAIN LOOP  for tile k: at slice 0, issue tile k+K_PIPE_MAX-1 into the
 *                        stage tile k-1 used; at the last slice, wait until tile k+1
 *                        has landed, one barrier, and load its slice 0 into registers
 *                        while the last slice's FMAs run
 *   EPILOGUE             drain the copies past the last tile (zero-fills), write C
 *
 * Three copies overlap: global -> shared (cp.async, K_PIPE_MAX-1 tiles ahead),
 * shared -> registers (the fragments of slice p+1 load while slice p's FMAs run,
 * across tile boundaries too), and the FMAs. One barrier per k-tile. Where each
 * thread's copies come from is worked out once, before the loop (the copy plan).
 * --stages 1 is the control: no overlap, as in step 4.
 *
 *   make step5 && ./step5 1024 --stages 2
 */
#include "../common/harness.h"

constexpr int A_PAD = 4;        // a_stage rows are BM + 4 floats: 4 banks apart (mod 32)
constexpr int MAX_STAGES = 4;

// A block tile BM x BN, k-tiles BK deep, a TM x TN tile of C per thread made of float4
// pieces (rows ty*4 + {0..3} of each band of THREADS_M*4 rows, columns likewise, as in
// step 4), and at least MIN_BLOCKS blocks per SM (so at most 128 registers a thread: the
// copies no longer pass through registers, so two blocks of 256 threads fit an SM).
template <int BM_, int BN_, int BK_, int TM_, int TN_>
struct tile_config {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_;
    static constexpr int THREADS_N = BN / TN, THREADS_M = BM / TM;
    static constexpr int THREADS = THREADS_M * THREADS_N;
    static constexpr int STRIDE_M = 4 * THREADS_M, STRIDE_N = 4 * THREADS_N;   // between a thread's pieces
    static constexpr int A_STAGE = BK * (BM + A_PAD), B_STAGE = BK * BN;   // floats of one stage
    static constexpr int MIN_BLOCKS = 65536 / (THREADS * 128);
    static_assert(TM % 4 == 0 && TN % 4 == 0, "a thread's tile is made of float4 pieces");
    static_assert((BM + A_PAD) % 32 == 4, "transposed copies of A spread over the banks");
    static_assert(BK % 8 == 0 && THREADS % 8 == 0 && BM % (THREADS / 8) == 0,
                  "a warp copies 8 consecutive k (one 32-byte sector) of 4 rows of A");
    static_assert(THREADS % (BN / 4) == 0 && BK % (THREADS / (BN / 4)) == 0,
                  "every thread copies the same number of 16-byte pieces of B");
};

using large = tile_config<128, 128, 16, 8, 8>;   // 256 threads, 64 accumulators each
using small = tile_config<64, 128, 16, 8, 4>;    // 256 threads, 32 accumulators each

// cp.async copies global -> shared without a register in between; it reads src_bytes of
// the source (4 or 16 inside the matrix, 0 outside it) and zero-fills the rest.
__device__ __forceinline__ void cp_async_4(float *dst, const float *src, int src_bytes)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_16(float *dst, const float *src, int src_bytes)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Wait until at most N of this thread's commit groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

// The copy plan: where this thread's copies come from, worked out once. A is copied
// 4 bytes at a time, because it is transposed on the way (a 16-byte copy cannot
// scatter): a warp takes 8 consecutive k (one 32-byte sector) of each of 4 rows. B
// is copied 16 bytes at a time when its rows are 16-byte aligned, else 4 at a time.
// Row pointers, row checks and shared-memory offsets are fixed for the whole loop;
// a k-tile only adds k0 (to A's pointer) or k0 rows (to B's).
template <typename CFG>
struct copy_plan {
    static constexpr int A_ROWS_PER_PASS = CFG::THREADS / 8;              // a pass: 8 k of these rows
    static constexpr int A_ROW_PASSES = CFG::BM / A_ROWS_PER_PASS;
    static constexpr int A_K_PASSES = CFG::BK / 8;
    static constexpr int B_ROWS_PER_PASS = CFG::THREADS / (CFG::BN / 4);  // a pass: 16-byte pieces of these rows
    static constexpr int B_PASSES = CFG::BK / B_ROWS_PER_PASS;
    const float *a_src;        // A[tile_row + a_row][kq]: add k0 for a k-tile
    const float *b_src;        // B[b_row][tile_col + c]: add k0 * n for a k-tile
    size_t a_pass;             // elements from one row pass of A to the next
    int kq, b_row;             // this thread's k within a pass of A, its first row of B
    int a_rows, b_cols;        // rows of A from this thread's first on, columns of B from c on
    int a_dst, b_dst;          // offsets of the first copies within a stage

    __device__ copy_plan(const float *a, const float *b, int m, int n, int k, int tile_row, int tile_col)
    {
        int a_row = threadIdx.x / 8, c = threadIdx.x % (CFG::BN / 4) * 4;
        kq = threadIdx.x % 8;
        b_row = threadIdx.x / (CFG::BN / 4);
        a_src = a + (size_t)(tile_row + a_row) * k + kq;
        b_src = b + (size_t)b_row * n + tile_col + c;
        a_pass = (size_t)A_ROWS_PER_PASS * k;
        a_rows = m - tile_row - a_row;
        b_cols = n - tile_col - c;
        a_dst = kq * (CFG::BM + A_PAD) + a_row;
        b_dst = b_row * CFG::BN + c;
    }
};

// Issue the copies of one k-tile (k0 = its first k) into one stage. Outside the
// matrix a copy reads 0 bytes and zero-fills: its address is never dereferenced.
template <typename CFG, bool VEC>
__device__ __forceinline__ void load_tile(float *a_stage, float *b_stage, const copy_plan<CFG> &plan, int n,
                                          int k, int k0)
{
    using P = copy_plan<CFG>;
#pragma unroll
    for (int kp = 0; kp < P::A_K_PASSES; kp++) {
        bool k_inside = k0 + kp * 8 + plan.kq < k;
#pragma unroll
        for (int rp = 0; rp < P::A_ROW_PASSES; rp++)
            cp_async_4(&a_stage[plan.a_dst + kp * 8 * (CFG::BM + A_PAD) + rp * P::A_ROWS_PER_PASS],
                       plan.a_src + rp * plan.a_pass + kp * 8 + k0,
                       k_inside && rp * P::A_ROWS_PER_PASS < plan.a_rows ? 4 : 0);
    }
#pragma unroll
    for (int i = 0; i < P::B_PASSES; i++) {
        int r = k0 + plan.b_row + i * P::B_ROWS_PER_PASS;
        const float *src = plan.b_src + (size_t)(k0 + i * P::B_ROWS_PER_PASS) * n;
        float *dst = &b_stage[plan.b_dst + i * P::B_ROWS_PER_PASS * CFG::BN];
        if (VEC) {
            cp_async_16(dst, src, r < k && plan.b_cols > 0 ? 16 : 0);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                cp_async_4(dst + j, src + j, r < k && j < plan.b_cols ? 4 : 0);
        }
    }
}

// The fragments of k-slice p of one stage (its k-tile a_tile, b_tile), as in step 4.
template <typename CFG>
__device__ __forceinline__ void load_fragments(float (&a_frag)[CFG::TM], float (&b_frag)[CFG::TN], const float *a_tile,
                                               const float *b_tile, int p, int a_off, int b_off)
{
#pragma unroll
    for (int i = 0; i < CFG::TM / 4; i++)
        *reinterpret_cast<float4 *>(&a_frag[4 * i]) =
            *reinterpret_cast<const float4 *>(&a_tile[p * (CFG::BM + A_PAD) + a_off + i * CFG::STRIDE_M]);
#pragma unroll
    for (int j = 0; j < CFG::TN / 4; j++)
        *reinterpret_cast<float4 *>(&b_frag[4 * j]) =
            *reinterpret_cast<const float4 *>(&b_tile[p * CFG::BN + b_off + j * CFG::STRIDE_N]);
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

// One k-tile of the main loop: the FMAs of its BK k-slices, read from stage `read`, each
// slice's fragments loaded during the FMAs of the slice before.
template <typename CFG, int K_PIPE_MAX, typename Copy, typename Fma>
__device__ __forceinline__ void k_tile_body(float (&a_frag)[2][CFG::TM], float (&b_frag)[2][CFG::TN], float *smem,
                                            int read, int write, int next, int k_tile, int a_off, int b_off, Copy copy,
                                            Fma fma)
{
    float *a_stages = smem;                            // K_PIPE_MAX stages of A, then of B
    float *b_stages = smem + K_PIPE_MAX * CFG::A_STAGE;
    const float *a_read = a_stages + read * CFG::A_STAGE;
    const float *b_read = b_stages + read * CFG::B_STAGE;
#pragma unroll
    for (int p = 0; p < CFG::BK; p++) {
        // exercise: last slice: wait, barrier, next tile's slice 0; else slice p + 1; at slice 0 refill stage write
        // exercise mistake: cp_async_wait<K_PIPE_MAX - 1>: the next tile is read before it lands (FAIL, not always)
        // exercise mistake: the barrier left out: a copy overwrites a stage still read (FAIL at random; see racecheck)
        // exercise mistake: the fragments of slice p loaded for slice p: no overlap left (right, but slow)
        if (p == CFG::BK - 1) {
            // The next k-tile's slice 0 loads, from stage `next`, during this slice's FMAs, so
            // its copy must have landed: wait, and one barrier, which also tells that everyone
            // is done with stage `read`, which the next k-tile's copy refills.
            cp_async_wait<K_PIPE_MAX - 2>();
            __syncthreads();
            load_fragments<CFG>(a_frag[(p + 1) % 2], b_frag[(p + 1) % 2], a_stages + next * CFG::A_STAGE,
                                b_stages + next * CFG::B_STAGE, 0, a_off, b_off);
        } else {
            load_fragments<CFG>(a_frag[(p + 1) % 2], b_frag[(p + 1) % 2], a_read, b_read, p + 1, a_off, b_off);
        }
        if (p == 0) {
            // The copy of k-tile k_tile + K_PIPE_MAX - 1, into stage `write`, freed at the
            // last barrier (k-tile k_tile-1's). Past the last k-tile it only zero-fills, and
            // with no branch around it the compiler spreads its arithmetic among the FMAs.
            int k_tile_next = k_tile + K_PIPE_MAX - 1;
            copy(a_stages + write * CFG::A_STAGE, b_stages + write * CFG::B_STAGE, k_tile_next);
            cp_async_commit();
        }
        // exercise end
        fma(a_frag[p % 2], b_frag[p % 2]);
    }
}

// THE PIPELINE. `copy(a_stage, b_stage, k_tile)` issues the copies of one k-tile into one
// stage (k-tile 0 first, then in order, then up to K_PIPE_MAX - 1 past the last, from which
// it must read nothing); `fma(a_frag, b_frag)` does the FMAs of one k-slice.
template <typename CFG, int K_PIPE_MAX, typename Copy, typename Fma>
__device__ __forceinline__ void pipelined_k_tiles(float *smem, int k_tile_count, int a_off, int b_off, Copy copy,
                                                  Fma fma)
{
    float *a_stages = smem;                            // K_PIPE_MAX stages of A, then of B
    float *b_stages = smem + K_PIPE_MAX * CFG::A_STAGE;
    float a_frag[2][CFG::TM], b_frag[2][CFG::TN];
    if (K_PIPE_MAX == 1) {
        // The control: copy, wait for it, compute, and wait before the next copy.
        for (int k_tile = 0; k_tile < k_tile_count; k_tile++) {
            copy(a_stages, b_stages, k_tile);
            cp_async_commit();
            cp_async_wait<0>();
            __syncthreads();
#pragma unroll
            for (int p = 0; p < CFG::BK; p++) {
                load_fragments<CFG>(a_frag[0], b_frag[0], a_stages, b_stages, p, a_off, b_off);
                fma(a_frag[0], b_frag[0]);
            }
            __syncthreads();
        }
    } else {
        // PREFETCH: fill all stages but one. A group is committed even when it is empty (K
        // shorter than the pipeline), so that the group count stays exact.
        // exercise: the prologue: copy k-tiles 0 .. K_PIPE_MAX - 2, a group each, wait for tile 0, load its slice 0
        // exercise mistake: a group committed only when there is a tile: the wait counts groups (FAIL at K = 7)
        // exercise mistake: no barrier after the wait: others' copies of tile 0 may not be there (FAIL, not always)
#pragma unroll
        for (int s = 0; s < K_PIPE_MAX - 1; s++) {
            if (s < k_tile_count)
                copy(a_stages + s * CFG::A_STAGE, b_stages + s * CFG::B_STAGE, s);
            cp_async_commit();
        }
        cp_async_wait<K_PIPE_MAX - 2>();   // k-tile 0 has landed, for everyone after the barrier
        __syncthreads();
        load_fragments<CFG>(a_frag[0], b_frag[0], a_stages, b_stages, 0, a_off, b_off);
        // exercise end

        // PIPELINED MAIN LOOP: the stages step round the ring.
        int smem_pipe_read = 0;                 // the stage holding k-tile k_tile
        int smem_pipe_write = K_PIPE_MAX - 1;   // the stage the next copy goes to (k-tile k_tile-1's)
        for (int k_tile = 0; k_tile < k_tile_count; k_tile++) {
            int smem_pipe_next = smem_pipe_read + 1 == K_PIPE_MAX ? 0 : smem_pipe_read + 1;
            k_tile_body<CFG, K_PIPE_MAX>(a_frag, b_frag, smem, smem_pipe_read, smem_pipe_write, smem_pipe_next,
                                         k_tile, a_off, b_off, copy, fma);
            smem_pipe_write = smem_pipe_read;
            smem_pipe_read = smem_pipe_next;
        }
        cp_async_wait<0>();   // EPILOGUE: drain the zero-fills past the last k-tile
    }
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

template <typename CFG, int K_PIPE_MAX, bool VEC>
__global__ void __launch_bounds__(CFG::THREADS, CFG::MIN_BLOCKS)
sgemm_pipelined(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
    constexpr int BM = CFG::BM, BN = CFG::BN, BK = CFG::BK;
    extern __shared__ __align__(16) float smem[];
    int tiles_n = (n + BN - 1) / BN;
    int tile_row = blockIdx.x / tiles_n * BM;
    int tile_col = blockIdx.x % tiles_n * BN;
    int a_off = threadIdx.x / CFG::THREADS_N * 4, b_off = threadIdx.x % CFG::THREADS_N * 4;   // ty * 4, tx * 4
    copy_plan<CFG> plan(a, b, m, n, k, tile_row, tile_col);

    float acc[CFG::TM][CFG::TN] = {};
    auto copy = [&](float *a_stage, float *b_stage, int k_tile) {
        load_tile<CFG, VEC>(a_stage, b_stage, plan, n, k, k_tile * BK);
    };
    auto fma = [&](const float (&a_frag)[CFG::TM], const float (&b_frag)[CFG::TN]) { fma_slice<CFG>(acc, a_frag, b_frag); };
    pipelined_k_tiles<CFG, K_PIPE_MAX>(smem, (k + BK - 1) / BK, a_off, b_off, copy, fma);
    store_tile<CFG, VEC>(acc, a_off, b_off, m, n, alpha, beta, c, tile_row, tile_col);
}

// cp.async copies A in 4-byte pieces whatever K is: only the rows of B and C (N) must
// be 16-byte aligned for 16-byte copies and stores.
static bool rows_aligned(const gemm_args *g)
{
    return g->n % 4 == 0;
}

template <typename CFG, int K_PIPE_MAX>
static cudaError_t launch_config(const gemm_args *g, cudaStream_t stream)
{
    unsigned tiles = (unsigned)harness_tile_count(g->m, g->n, CFG::BM, CFG::BN);
    size_t smem = K_PIPE_MAX * (CFG::A_STAGE + CFG::B_STAGE) * sizeof(float);
    auto kernel = rows_aligned(g) ? sgemm_pipelined<CFG, K_PIPE_MAX, true> : sgemm_pipelined<CFG, K_PIPE_MAX, false>;
    cudaError_t err = harness_ask_smem((const void *)kernel, smem);   // past 48 KiB a kernel must ask
    if (err == cudaSuccess)
        kernel<<<tiles, CFG::THREADS, smem, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);
    return err == cudaSuccess ? cudaGetLastError() : err;
}

// The stages the plan gives: those asked for, unless a block cannot hold them.
template <typename CFG>
static cudaError_t launch_stages(const gemm_args *g, int stages, cudaStream_t stream)
{
    switch (stages) {
    case 1: return launch_config<CFG, 1>(g, stream);
    case 2: return launch_config<CFG, 2>(g, stream);
    case 3: return launch_config<CFG, 3>(g, stream);
    case 4: return launch_config<CFG, 4>(g, stream);
    default: return cudaErrorInvalidValue;
    }
}

// As in step 3: the 128 x 128 tiles when there are at least as many as SMs.
template <typename CFG>
constexpr tile_option option_of() { return {CFG::BM, CFG::BN, CFG::THREADS, CFG::MIN_BLOCKS, 0, sizeof(float) * (CFG::A_STAGE + CFG::B_STAGE),
                                            CFG::BK, CFG::TM, CFG::TN, 4, A_PAD}; }
static const tile_option TILES[2] = {option_of<large>(), option_of<small>()};

static cudaError_t launch(const gemm_args *g, cudaStream_t stream)
{
    cudaError_t err;
    tile_plan p = harness_plan_tiles(g, TILES, &err);
    if (err != cudaSuccess)
        return err;
    return p.tile == 0 ? launch_stages<large>(g, p.stages, stream) : launch_stages<small>(g, p.stages, stream);
}

// Which variant launch picks, in words after the plan's tile: the report prints it, the
// tests reach both variants of both tiles.
static const char *kernel_name(const gemm_args *g, const tile_plan *p, char *buf, size_t len)
{
    const char *words = rows_aligned(g) ? "B copied and C stored in 16-byte pieces (N a multiple of 4)"
                                        : "B copied and C stored in 4-byte pieces (N not a multiple of 4)";
    return harness_describe_tiles(g, TILES, p, words, buf, len);
}

int main(int argc, char **argv)
{
    static const step_info step = {
        .name = "step5_pipeline",
        .idea = "a cp.async ring of shared-memory stages, and double-buffered fragments",
        .launch = launch,
        .max_stages = MAX_STAGES,
        .default_stages = 2,
        .kernel = kernel_name,
        .tiles = TILES,
    };
    return harness_main(argc, argv, &step);
}
