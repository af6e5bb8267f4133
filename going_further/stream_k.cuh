// stream_k.cuh - going further, 4: stream-K, the wide tiles' last partial wave in runs of
// k-tiles: the whole waves one block a tile (sgemm_wide), then the left-over tiles' k-tiles in
// equal runs, a block each (sgemm_wide_tail). And K IN PARTS (below), for fewer tiles than SMs.
// Its chapters: 4_stream_k.md; K in parts, 5_small_shapes.md ("Split-K with a reduction").
//   ./further 4096 --part stream-k
//   ./further 256 256 16384

// Where a run begins and which run holds a k-tile, in the row of the left-over tiles' k-tiles.
struct tail_schedule {
    int first_tile;        // the left-over tiles are first_tile onwards
    int runs;              // their k-tiles are cut into this many runs (one block each)
    long long k_tiles;     // k-tiles in all of them
    __device__ long long run_begin(int r) const { return r * k_tiles / runs; }
    __device__ int run_of(long long k_tile) const { return (int)(((k_tile + 1) * runs - 1) / k_tiles); }
};

// A block's sums handed over through memory: the block counts itself in at counts[i]; true in
// the last of `pieces` to arrive, which puts the count back to 0 for the next launch
// (harness_counts) and may read the others' sums past L1 (__ldcg). One thread fences for the
// block, as the toolkit's grid sync does, not every warp.
__device__ __forceinline__ bool last_to_arrive(int *counts, int i, int pieces)
{
    __shared__ bool last;
    __syncthreads();   // the block's sums stored
    if (threadIdx.x == 0) {
        __threadfence();   // ... and visible to every SM before the count moves
        last = atomicAdd(counts + i, 1) == pieces - 1;
        if (last) {
            counts[i] = 0;
            __threadfence();   // the count seen before the others' sums are read
        }
    }
    __syncthreads();
    return last;
}

// A cut tile's pieces each leave their sums in a slot (first .. first + pieces - 1); the last to
// finish adds them up in k order (the same bits every launch) into acc and returns true. Thread
// x's accumulator e sits at e * THREADS + x (a warp's 128 bytes contiguous), a float at a time:
// float4 stores bound the accumulators to register quads and slowed the main loop.
template <typename CFG>
__device__ __forceinline__ bool add_up_if_last(float (&acc)[CFG::TM][CFG::TN], float *slots, int mine, int first,
                                               int pieces, int *arrived, int t)
{
    constexpr int SLOT = CFG::BM * CFG::BN, E = CFG::TM * CFG::TN;
#pragma unroll
    for (int e = 0; e < E; e++)
        slots[(size_t)mine * SLOT + e * CFG::THREADS + threadIdx.x] = acc[e / CFG::TN][e % CFG::TN];
    if (!last_to_arrive(arrived, t, pieces))
        return false;
    const float *slot = slots + (size_t)first * SLOT + threadIdx.x;
#pragma unroll
    for (int e = 0; e < E; e++)   // a whole slot at a time: its loads in flight together
        acc[e / CFG::TN][e % CFG::TN] = __ldcg(slot + e * CFG::THREADS);
    for (int p = 1; p < pieces; p++) {
        slot += SLOT;
#pragma unroll
        for (int e = 0; e < E; e++)
            acc[e / CFG::TN][e % CFG::TN] += __ldcg(slot + e * CFG::THREADS);
    }
    return true;
}

// A run's piece of a left-over tile, worked out by thread 0 into shared memory (kept in
// registers beside the 128 accumulators, it spilled on sm_80 to sm_89).
struct tail_piece {
    int t, first, count;   // tile t, its k-tiles first .. first + count - 1
    int r0, r1;            // the runs holding a piece of tile t
    int2 origin;           // the tile's first row and column of C
};

// One block a run: its piece of each left-over tile it crosses (wide_tile), handed over or added up.
template <typename CFG, int K_PIPE_MAX, loop_kind LOOP, int PIECE>
__global__ void __launch_bounds__(CFG::THREADS, 1)
sgemm_wide_tail(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c,
                tail_schedule work, float *slots, int *arrived)
{
    constexpr int BK = CFG::BK;
    extern __shared__ __align__(16) float smem[];
    __shared__ tail_piece piece;
    int k_tiles = (k + BK - 1) / BK, k_first = k - (k_tiles - 1) * BK;   // 1 .. BK
    int run = blockIdx.x;
    for (long long at = work.run_begin(run), end = work.run_begin(run + 1); at < end; at += piece.count) {
        __syncthreads();   // the piece before is done with the stages, and with `piece`
        if (threadIdx.x == 0) {
            int t = (int)(at / k_tiles), first = (int)(at % k_tiles);   // tile t, from k-tile `first`
            long long tile_begin = at - first, tile_end = tile_begin + k_tiles;
            // The runs holding a piece of tile t are r0 .. r1; run r's piece has slot r + t
            // (no two pieces share one: a later run never holds an earlier tile).
            piece = {t, first, (int)(min(end, tile_end) - at), work.run_of(tile_begin), work.run_of(tile_end - 1),
                     tile_origin<CFG>(work.first_tile + t, m, n)};
        }
        __syncthreads();
        int k0 = piece.first == 0 ? 0 : k_first + (piece.first - 1) * BK;   // k-tile 0 is the partial one
        wide_tile<CFG, K_PIPE_MAX, LOOP, PIECE>(
            smem, a, b, m, n, k, piece.origin, k0, piece.count, piece.first == 0 ? k_first : BK,
            [&](float (&acc)[CFG::TM][CFG::TN], int a_off, int b_off) {
                int t = piece.t, r0 = piece.r0, r1 = piece.r1;
                if (r0 == r1 || add_up_if_last<CFG>(acc, slots, run + t, r0 + t, r1 - r0 + 1, arrived, t))
                    store_warp_tile<CFG, PIECE>(acc, smem, a_off, b_off, m, n, alpha, beta, c, piece.origin.x,
                                              piece.origin.y);
            });
    }
}

// The whole waves of wide tiles, then the runs: a slot a piece of a cut tile and a count a
// left-over tile, in the harness's workspace and counts (allocated once, outside the timing).
template <int K_PIPE_MAX, loop_kind LOOP, int PIECE>
static cudaError_t launch_stream_k(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    cudaError_t err = launch_wide<K_PIPE_MAX, LOOP, PIECE>(g, p, stream);
    if (err != cudaSuccess || p.runs == 0)
        return err;
    if constexpr (K_PIPE_MAX == TRACK_STAGES) {   // the runs: built for these stages alone (plan.h)
        float *slots = (float *)harness_workspace(p.workspace_bytes, &err);
        int *arrived = err == cudaSuccess ? harness_counts(p.counts, &err) : NULL;
        if (err != cudaSuccess)
            return err;
        tail_schedule work = {(int)p.blocks, p.runs, (p.tiles - p.blocks) * p.k_tiles};
        return launch_kernel(sgemm_wide_tail<wide, K_PIPE_MAX, LOOP, PIECE>, p.runs, wide::THREADS, p.smem_bytes,
                             stream, g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c, work, slots, arrived);
    }
    return cudaErrorInvalidValue;
}

// K IN PARTS, for fewer tiles than SMs and a deep K: a tile's k-tiles in `parts` even runs, a
// block each, each writing its sums into its own slice of the workspace (slice `part` of c here,
// SLICE_FLOATS apart); add_up_parts adds the slices up and writes C. alpha and beta (1 and 0)
// stay arguments: as constants they cost the main loop register bank conflicts.
template <typename CFG, int K_PIPE_MAX, loop_kind LOOP, int PIECE>
__global__ void __launch_bounds__(CFG::THREADS, CFG::MIN_BLOCKS)
sgemm_k_part(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c, int parts)
{
    constexpr int BK = CFG::BK;
    extern __shared__ __align__(16) float smem[];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaTriggerProgrammaticLaunchCompletion();   // add_up_parts may start now: it waits for this grid's end
#endif
    int k_tiles = (k + BK - 1) / BK, k_first = k - (k_tiles - 1) * BK;   // k-tile 0 is 1 .. BK deep
    int tile = blockIdx.x / parts, part = blockIdx.x % parts;
    int first = (int)((long long)part * k_tiles / parts), end = (int)((long long)(part + 1) * k_tiles / parts);
    int k0 = first == 0 ? 0 : k_first + (first - 1) * BK;
    // The epilogue reads the origin back from shared memory and works its slice out anew (kept
    // in registers, they spilled); the copies start from each thread's own (`mine`), which the
    // loop issues in fewer cycles than from the one read back.
    __shared__ int2 origin;
    int2 mine = tile_origin<CFG>(tile, m, n);
    if (threadIdx.x == 0)
        origin = mine;
    __syncthreads();
    wide_tile<CFG, K_PIPE_MAX, LOOP, PIECE>(
        smem, a, b, m, n, k, mine, k0, end - first, first == 0 ? k_first : BK,
        [&](float (&acc)[CFG::TM][CFG::TN], int a_off, int b_off) {
            float *slice = c + (size_t)(blockIdx.x % parts) * SLICE_FLOATS(m, n);
            store_warp_tile<CFG, PIECE>(acc, smem, a_off, b_off, m, n, alpha, beta, slice, origin.x, origin.y);
        });
}

// C = alpha (the parts' sums) + beta C, C and the slices read as flat arrays, in float4s whatever
// N: every 4 elements get `lanes` threads (1 to 32), lane j adding parts j, j + lanes, ... in
// order, then the lanes' sums meet by shuffles (the same order every launch). More lanes keep a
// small C's few threads from going hundreds of loads deep.
__global__ void __launch_bounds__(256)
add_up_parts(long long size, float alpha, const float *sums, int parts, int lanes, float beta, float *c)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();   // launched early (plan.h, early): the parts' sums are all written
#endif
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x, at = t / lanes * 4;
    bool inside = at < size;   // the others still take part in the shuffles
    int left = inside ? (int)min(4LL, size - at) : 0;   // C's elements this thread adds up
    bool whole = left == 4;
    size_t slice_floats = SLICE_FLOATS(size, 1);   // one part's slice to the next (plan.h)
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll 8
    for (int p = (int)(t % lanes); inside && p < parts; p += lanes) {
        const float *s = sums + p * slice_floats + at;
        if (whole) {
            float4 x = __ldcg(reinterpret_cast<const float4 *>(s));
            v[0] += x.x; v[1] += x.y; v[2] += x.z; v[3] += x.w;
        } else {   // C's last elements: M x N % 4 of them (the padding is never written)
#pragma unroll
            for (int j = 0; j < 4; j++)
                v[j] += j < left ? __ldcg(s + j) : 0.0f;
        }
    }
    for (int width = lanes / 2; width > 0; width /= 2)
#pragma unroll
        for (int j = 0; j < 4; j++)
            v[j] += __shfl_xor_sync(0xffffffffu, v[j], width);
    if (!inside || t % lanes != 0)
        return;
#pragma unroll
    for (int j = 0; j < 4; j++)
        v[j] *= alpha;
    if (whole)   // C's row 0 is 256-byte aligned: element 4i is a float4's first
        store_c4<true>(c + at, v, 0, 4, beta);
    else
        store_c4<false>(c + at, v, 0, left, beta);
}

// Skinny shapes' warp tiles, where M or N of 64 or less pads the tiles above with zeros: 128 x 64,
// 32 x 128 (K in parts only), and 128 x 32, whose deeper k-tiles keep more of A's copies (its
// block's main work) in flight.
using warp_tall = warp_config<128, 64, 64, 32, 8, 8>;        // 128 threads, 64 accumulators each
using warp_short = warp_config<32, 128, 32, 64, 8, 8>;       // 64 threads, 64 accumulators each
using warp_narrow = warp_config<128, 32, 32, 32, 8, 4, 16>;  // 128 threads, 32 accumulators each
static_assert(is_warp_tile<warp_tall>(TILE_TALL) && is_warp_tile<warp_short>(TILE_SHORT) &&
                  is_warp_tile<warp_narrow>(TILE_NARROW),
              "plan.h's TRACK_TILES");

// The parts, then their sum. The workspace (the harness's, allocated once, outside the
// timed launches) holds `parts` slices of M x N (plan.h, SLICE_FLOATS).
template <typename CFG, int K_PIPE_MAX, loop_kind LOOP, int PIECE>
static cudaError_t launch_k_parts(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    cudaError_t err;
    float *sums = (float *)harness_workspace(p.workspace_bytes, &err);
    if (err == cudaSuccess)
        err = launch_kernel(sgemm_k_part<CFG, K_PIPE_MAX, LOOP, PIECE>, p.blocks, CFG::THREADS, p.smem_bytes, stream,
                            g->m, g->n, g->k, 1.0f, g->a, g->b, 0.0f, sums, p.parts);
    if (err != cudaSuccess)
        return err;
    int lanes = 1;   // enough lanes for at most 8 parts each
    while (lanes < 32 && lanes * 8 < p.parts)
        lanes *= 2;
    long long size = (long long)g->m * g->n, threads = (size + 3) / 4 * lanes;
    if (!p.early)
        return launch_kernel(add_up_parts, (threads + 255) / 256, 256, 0, stream, size, g->alpha, sums, p.parts, lanes,
                             g->beta, g->c);
    // Launched early (programmatic dependent launch): its blocks start as the parts' blocks have all begun, and
    // wait at cudaGridDependencySynchronize for their end, so its launch overlaps their work.
    cudaLaunchAttribute early[1];
    early[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    early[0].val.programmaticStreamSerializationAllowed = 1;
    return launch_kernel_with(early, add_up_parts, (threads + 255) / 256, 256, 0, stream, size, g->alpha,
                              (const float *)sums, p.parts, lanes, g->beta, g->c);
}
