// wide_tiles.cuh - going further, 3: 128 x 256 tiles, 128 accumulators a thread (an LDS.128
// feeds 32 FFMAs), in a lean loop of their own: step 6's unrolled pipeline costs them what they
// gain. One k-tile a trip, its copies issued a part a slice among the FMAs, not all at once
// after the barrier (where they stalled a scheduler's warps together).
// Its chapter: 3_wide_tiles.md.
//   ./further 4096 --part wide-tiles

using wide = warp_config<128, 256, 64, 64, 16, 8>;   // 256 threads, 128 accumulators each
static_assert(is_warp_tile<wide>(TILE_WIDE), "plan.h's TRACK_TILES");

// One tile: k_tile_count k-tiles from column k0 of A (row k0 of B), the first k_first deep, through
// the lean loop or step 6's pipeline (--unroll yes; K in parts' warp tiles), then finish(acc, a_off,
// b_off). Its kernels only call it: accumulators declared there cost the loop register reuse.
template <typename CFG, int K_PIPE_MAX, loop_kind LOOP, int PIECE, typename Finish>
__device__ __forceinline__ void wide_tile(float *smem, const float *a, const float *b, int m, int n, int k,
                                          int2 origin, int k0, int k_tile_count, int k_first, Finish finish)
{
    constexpr int BK = CFG::BK, STAGE = CFG::A_STAGE + CFG::B_STAGE, PARTS = copy_parts<CFG>;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int warp_row = warp / CFG::WARPS_N * CFG::WM, warp_col = warp % CFG::WARPS_N * CFG::WN;
    int a_off = warp_row + lane / CFG::LANES_N * 4, b_off = warp_col + lane % CFG::LANES_N * 4;
    copy_plan<CFG> plan = track_copy_plan<CFG, PIECE>(a + k0, b + (size_t)k0 * n, m, n, k, origin.x, origin.y);
    float acc[CFG::TM][CFG::TN] = {};
    auto fma = [&](const float (&a_frag)[CFG::TM], const float (&b_frag)[CFG::TN]) {
        fma_serpentine<CFG>(acc, a_frag, b_frag);
    };
    if constexpr (LOOP != LOOP_LEAN || K_PIPE_MAX == 1) {   // one stage: the two loops are one
        track_k_tiles<CFG, K_PIPE_MAX, LOOP != LOOP_ROLLED>(smem, k_tile_count, a_off, b_off,
                                                            first_then_whole<CFG, PIECE>(plan, n, k_first), fma);
    } else {
        float a_frag[2][CFG::TM], b_frag[2][CFG::TN];
        const whole_copies<CFG, PIECE> size(plan);
        int k_copied = 0;   // k-tiles copied so far
        // The partial k-tile (or a whole one, with a K check); after each copy the plan moves
        // on by that k-tile, so the next copy starts at k0 = 0.
        auto copy_next = [&](float *stage, int depth) {
            load_checked<CFG, PIECE>(stage, stage + CFG::A_STAGE, plan, n, depth);
            plan.a_src += depth;
            plan.b_src += (size_t)depth * n;
            k_copied++;
        };
        // A whole k-tile (no K check): part q of its copies; once all are issued, the plan
        // moves on by BK.
        auto copy_part = [&](float *stage, int q) {
            load_whole_part<CFG, PIECE>(stage, stage + CFG::A_STAGE, plan, size, n, q);
        };
        auto whole_copied = [&]() {
            plan.a_src += BK;
            plan.b_src += (size_t)BK * n;
            k_copied++;
        };
        // PREFETCH: the partial k-tile into stage 0, whole ones into stages 1 .. K_PIPE_MAX-2.
#pragma unroll
        for (int s = 0; s < K_PIPE_MAX - 1; s++) {
            if (s < k_tile_count)
                copy_next(smem + s * STAGE, s == 0 ? k_first : BK);
            cp_async_commit();
        }
        cp_async_wait<K_PIPE_MAX - 2>();
        __syncthreads();
        load_fragments<CFG>(a_frag[0], b_frag[0], smem, smem + CFG::A_STAGE, 0, a_off, b_off);

        // PIPELINED MAIN LOOP, one k-tile a trip: smem_pipe_read and smem_pipe_write are
        // offsets that step round the ring of K_PIPE_MAX stages.
        int smem_pipe_read = 0, smem_pipe_write = (K_PIPE_MAX - 1) * STAGE;
        auto next_stage = [](int offset) { return offset + STAGE == K_PIPE_MAX * STAGE ? 0 : offset + STAGE; };
        static_assert(PARTS < BK, "a k-tile's copies are committed before the wait at slice BK-1");
        for (int k_tile = 0; k_tile < k_tile_count; k_tile++) {
            const float *read = smem + smem_pipe_read;
            const float *next = smem + next_stage(smem_pipe_read);
            bool copy = k_copied < k_tile_count;   // a k-tile is left to copy
#pragma unroll
            for (int p = 0; p < BK; p++) {
                if (p == BK - 1) {
                    cp_async_wait<K_PIPE_MAX - 2>();
                    __syncthreads();
                    load_fragments<CFG>(a_frag[(p + 1) % 2], b_frag[(p + 1) % 2], next, next + CFG::A_STAGE, 0, a_off,
                                        b_off);
                } else {
                    load_fragments<CFG>(a_frag[(p + 1) % 2], b_frag[(p + 1) % 2], read, read + CFG::A_STAGE, p + 1,
                                        a_off, b_off);
                }
                // The copy of k-tile k_tile + K_PIPE_MAX - 1, into the stage freed at the last
                // barrier: part p at slice p, then one commit.
                if (p < PARTS && copy)
                    copy_part(smem + smem_pipe_write, p);
                if (p == PARTS - 1) {
                    if (copy)
                        whole_copied();
                    cp_async_commit();
                }
                fma(a_frag[p % 2], b_frag[p % 2]);
            }
            smem_pipe_read = next_stage(smem_pipe_read);
            smem_pipe_write = next_stage(smem_pipe_write);
        }
        cp_async_wait<0>();   // EPILOGUE: only empty groups are left
    }
    finish(acc, a_off, b_off);
}

// One block a tile, K whole.
template <typename CFG, int K_PIPE_MAX, loop_kind LOOP, int PIECE>
__global__ void __launch_bounds__(CFG::THREADS, 1)
sgemm_wide(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
    extern __shared__ __align__(16) float smem[];
    int2 origin = tile_origin<CFG>(blockIdx.x, m, n);
    int k_tile_count = (k + CFG::BK - 1) / CFG::BK, k_first = k - (k_tile_count - 1) * CFG::BK;   // 1 .. BK
    wide_tile<CFG, K_PIPE_MAX, LOOP, PIECE>(smem, a, b, m, n, k, origin, 0, k_tile_count, k_first,
                                          [&](float (&acc)[CFG::TM][CFG::TN], int a_off, int b_off) {
                                              store_warp_tile<CFG, PIECE>(acc, smem, a_off, b_off, m, n, alpha, beta, c,
                                                                        origin.x, origin.y);
                                          });
}

// The wide tiles, one block a tile, in the lean loop or (--unroll yes) step 6's unrolled pipeline.
template <int K_PIPE_MAX, loop_kind LOOP, int PIECE>
static cudaError_t launch_wide(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    return launch_kernel(sgemm_wide<wide, K_PIPE_MAX, LOOP, PIECE>, p.blocks, wide::THREADS, p.smem_bytes, stream, g->m,
                         g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);
}
