// launch.cuh - the track's launch: the plan for this problem on this device (plan.c), then
// the kernel it names, built for every stage count, loop and copy width it may ask for.
#include <cstdio>
#include <cstring>
#include <type_traits>

// The device for the plan: its limits (the harness's; SGEMM_PLAN_DEVICE may make them smaller),
// and clusters only where the GPU launches them and the kernels came from sm_90 PTX or newer
// (ptxVersion: a compute_86 binary JIT-compiled for Hopper reports binaryVersion 90, its
// cluster epilogue a trap).
static cudaError_t query_device(plan_device *dev)
{
    cudaFuncAttributes attr;
    cudaError_t err;
    if (!harness_gpu_limits(dev, &err))
        return err == cudaSuccess ? cudaErrorInvalidValue : err;
    err = cudaFuncGetAttributes(&attr, sgemm_warp_tiles<warp_mid, 2, true, k_split<2>, 4>);
    dev->clusters = err == cudaSuccess && dev->clusters && attr.ptxVersion >= 90;
    return err;
}

// A kernel for each split the plan may choose: 1, 2, 4 and up to MAX (64 x 128 tiles are
// never split in 8: plan.c).
template <typename CFG, int K_PIPE_MAX, bool UNROLLED, int PIECE, int MAX>
static cudaError_t launch_split(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    switch (p.split) {
    case 1: return launch_warp_tiles<CFG, K_PIPE_MAX, UNROLLED, k_whole, PIECE>(g, p, stream);
    case 2: return launch_warp_tiles<CFG, K_PIPE_MAX, UNROLLED, k_split<2>, PIECE>(g, p, stream);
    case 4: return launch_warp_tiles<CFG, K_PIPE_MAX, UNROLLED, k_split<4>, PIECE>(g, p, stream);
    case 8:
        if constexpr (MAX == 8)
            return launch_warp_tiles<CFG, K_PIPE_MAX, UNROLLED, k_split<8>, PIECE>(g, p, stream);
        [[fallthrough]];
    default: return cudaErrorInvalidValue;
    }
}

// K in parts (stream_k.cuh), built for TRACK_STAGES alone (plan.h).
template <bool UNROLLED, int PIECE>
static cudaError_t launch_parts(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    constexpr loop_kind LOOP = UNROLLED ? LOOP_UNROLLED : LOOP_ROLLED;
    switch (p.tile) {
    case TILE_LARGE: return launch_k_parts<warp_large, TRACK_STAGES, LOOP, PIECE>(g, p, stream);
    case TILE_MID: return launch_k_parts<warp_mid, TRACK_STAGES, LOOP, PIECE>(g, p, stream);
    case TILE_SMALL: return launch_k_parts<warp_small, TRACK_STAGES, LOOP, PIECE>(g, p, stream);
    case TILE_WIDE:   // in the lean loop only (plan.c)
        if constexpr (UNROLLED)
            return launch_k_parts<wide, TRACK_STAGES, LOOP_LEAN, PIECE>(g, p, stream);
        return cudaErrorInvalidValue;
    default:   // the skinny shapes' tiles: unrolled (plan.c)
        if constexpr (UNROLLED)
            switch (p.tile) {
            case TILE_TALL: return launch_k_parts<warp_tall, TRACK_STAGES, LOOP, PIECE>(g, p, stream);
            case TILE_SHORT: return launch_k_parts<warp_short, TRACK_STAGES, LOOP, PIECE>(g, p, stream);
            case TILE_NARROW: return launch_k_parts<warp_narrow, TRACK_STAGES, LOOP, PIECE>(g, p, stream);
            default: break;
            }
        return cudaErrorInvalidValue;
    }
}

template <int K_PIPE_MAX, bool UNROLLED, int PIECE>
static cudaError_t launch_planned(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    if (p.parts > 1) {
        if constexpr (K_PIPE_MAX == TRACK_STAGES)
            return launch_parts<UNROLLED, PIECE>(g, p, stream);
        return cudaErrorInvalidValue;
    }
    switch (p.kernel) {
    case KERNEL_WARP:
        if (p.tile == TILE_LARGE)
            return launch_warp_tiles<warp_large, K_PIPE_MAX, UNROLLED, k_whole, PIECE>(g, p, stream);
        if (p.tile == TILE_MID)
            return launch_split<warp_mid, K_PIPE_MAX, UNROLLED, PIECE, 4>(g, p, stream);
        if constexpr (UNROLLED && K_PIPE_MAX == TRACK_STAGES) {   // the narrow and tall tiles, unrolled (plan.h)
            if (p.tile == TILE_NARROW)
                return launch_warp_tiles<warp_narrow, K_PIPE_MAX, UNROLLED, k_whole, PIECE>(g, p, stream);
            if (p.tile == TILE_TALL)
                return launch_warp_tiles<warp_tall, K_PIPE_MAX, UNROLLED, k_whole, PIECE>(g, p, stream);
        }
        return launch_split<warp_small, K_PIPE_MAX, UNROLLED, PIECE, 8>(g, p, stream);
    default:   // KERNEL_WIDE: the lean loop, or (--unroll yes) the unrolled pipeline
        if (p.loop == LOOP_LEAN)
            return launch_stream_k<K_PIPE_MAX, LOOP_LEAN, PIECE>(g, p, stream);
        return launch_stream_k<K_PIPE_MAX, LOOP_UNROLLED, PIECE>(g, p, stream);
    }
}

// B copied in 16-, 8- or 4-byte pieces (p.vec bytes), a kernel each; the 8-byte ones only at
// TRACK_STAGES with unrolled or lean loops, where the plan asks for them (build time: plan.h).
template <int K_PIPE_MAX, bool UNROLLED>
static cudaError_t launch_pieces(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    if constexpr (K_PIPE_MAX == TRACK_STAGES && UNROLLED)
        if (p.vec == 8)
            return launch_planned<K_PIPE_MAX, UNROLLED, 2>(g, p, stream);
    return p.vec == 16 ? launch_planned<K_PIPE_MAX, UNROLLED, 4>(g, p, stream)
                       : launch_planned<K_PIPE_MAX, UNROLLED, 1>(g, p, stream);
}

// Each stage count --stages may ask for is a kernel template of its own. One stage has
// no ring of stages to unroll: its kernels are built once.
template <int K_PIPE_MAX>
static cudaError_t launch_stages(const gemm_args *g, const track_plan &p, cudaStream_t stream)
{
    if constexpr (K_PIPE_MAX > 1)
        if (p.loop == LOOP_ROLLED)
            return launch_pieces<K_PIPE_MAX, false>(g, p, stream);
    return launch_pieces<K_PIPE_MAX, true>(g, p, stream);
}

// The track's options as the launch reads them: the part that runs (--part; the whole track
// by default), --unroll (UNROLL_AS_PLANNED unless given) and the candidate --plan names (NULL:
// the plan's choice). The harness has checked each value.
struct track_choice {
    track_part part;
    int unroll;
    const char *plan;
};

static track_choice choice_of(const gemm_args *g)
{
    const char *part = harness_option(g, "part"), *unroll = harness_option(g, "unroll");
    int i = TRACK_PARTS - 1;
    while (part && strcmp(TRACK_NAMES[i], part) != 0)
        i--;
    return {(track_part)i, !unroll ? UNROLL_AS_PLANNED : unroll[0] == 'y' ? UNROLL_YES : UNROLL_NO,
            harness_option(g, "plan")};
}

// The plan: the candidate of least estimated time, or the one --plan names (none: an error).
// Kept for the problem: a search of hundreds of candidates before each launch would be timed too.
static cudaError_t plan_for(const gemm_args *g, track_plan *p)
{
    static gemm_args planned;   // the problem `kept` is for (its sizes and stages)
    static track_choice planned_choice;
    static char planned_name[32];
    static track_plan kept;
    track_choice c = choice_of(g);
    if (kept.found && g->m == planned.m && g->n == planned.n && g->k == planned.k && g->stages == planned.stages &&
        c.part == planned_choice.part && c.unroll == planned_choice.unroll && !c.plan == !planned_choice.plan &&
        (!c.plan || strcmp(c.plan, planned_name) == 0)) {
        *p = kept;
        return cudaSuccess;
    }
    plan_device dev;
    cudaError_t err = query_device(&dev);
    if (err == cudaSuccess)
        *p = track_plan_for(g->m, g->n, g->k, g->stages, c.part, c.unroll, &dev, c.plan);
    if (err == cudaSuccess && p->found && (!c.plan || strlen(c.plan) < sizeof planned_name)) {
        planned = *g;
        planned_choice = c;
        snprintf(planned_name, sizeof planned_name, "%s", c.plan ? c.plan : "");
        kept = *p;
    }
    return err == cudaSuccess && !p->found ? cudaErrorInvalidValue : err;
}

// --plan NAME where NAME is none of the candidates: the run stops before it starts.
static int track_refuse(const gemm_args *g, char *buf, size_t len)
{
    track_plan p;
    track_choice c = choice_of(g);
    if (c.part == TRACK_CORE && c.plan)
        return snprintf(buf, len, "--plan needs the track (--part core runs step 6's own plan)");
    if (c.part == TRACK_CORE || !c.plan || plan_for(g, &p) != cudaErrorInvalidValue || p.found)
        return 0;
    char best[32];
    track_plan_name(&p, best, sizeof best);
    return snprintf(buf, len, "--plan %s is none of the candidates for M=%d N=%d K=%d on this GPU (the plan's "
                    "choice: %s)", c.plan, g->m, g->n, g->k, best);
}

// --part core: step6.cu's own launch; the track's plan otherwise.
static cudaError_t track_launch(const gemm_args *g, cudaStream_t stream)
{
    if (choice_of(g).part == TRACK_CORE)
        return launch(g, stream);
    track_plan p;
    cudaError_t err = plan_for(g, &p);
    if (err != cudaSuccess)
        return err;
    if (p.kernel == KERNEL_ROWS)   // A times a vector: no stages
        return launch_rows(g, p, stream);
    if (p.kernel == KERNEL_COLS)   // a few columns: no stages either
        return launch_few_cols(g, p, stream);
    if (p.kernel == KERNEL_FEW)   // a few rows: no stages either
        return launch_few_rows(g, p, stream);
    if (p.kernel == KERNEL_FLAT)   // K = 1, an outer product: C as one array, no stages
        return launch_flat(g, p, stream);
    switch (p.stages) {   // as asked, unless a block cannot hold them
    case 1: return launch_stages<1>(g, p, stream);
    case 2: return launch_stages<2>(g, p, stream);
    case 3: return launch_stages<3>(g, p, stream);
    case 4: return launch_stages<4>(g, p, stream);
    default: return cudaErrorInvalidValue;
    }
}

// The kernel line of the report: the plan, in words.
static const char *track_kernel_name(const gemm_args *g, const tile_plan *core, char *buf, size_t len)
{
    if (choice_of(g).part == TRACK_CORE)   // step 6's own line, from the plan of its tiles
        return kernel_name(g, core, buf, len);
    track_plan p;
    if (plan_for(g, &p) != cudaSuccess)
        return "unknown (a device query failed)";
    track_plan_describe(&p, buf, len);
    return buf;
}
