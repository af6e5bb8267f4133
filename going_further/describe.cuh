// describe.cuh - what `./further --describe` says beyond the harness's words, the
// constants the figures of `make figures` draw (scripts/figures.py), so that a figure cannot
// disagree with the code:
//   parts=core,warp-tiles,...         --part's names, in the track's order
//   unrolled_stages=3                 the stage counts at which the core unrolls its ring (unrolls)
//   track_tiles=large:128x128x8:32x64:8x8:256:2,...
//                                     TRACK_TILES: name:BMxBNxBK:WMxWN:TMxTN:threads:min_blocks
//   wide_copies=4:2                   the wide tiles' copy parts a k-tile: A's row passes, B's
//   split_k_example=512x512x512,tile:small,split:4,tiles:64,blocks:256,k_tiles:64
//   stream_k_example=4096x4096x4096,tile:wide,tiles:512,blocks:396,runs:132,k_tiles:512
//                                     candidates of the plan (plan.c) the lesson draws, on EXAMPLE_GPU:
//                                     the one named (--plan), or the plan's choice
//   example_sms=132                   that GPU's SMs
//   few_in_flight=8,2,...             a few rows: the rows of B a thread has in flight, at M = 1, 2, ...
//                                     (FEW_IN_FLIGHT; make plan-costs counts its rounds by them)
//   few_threads=512,256,...           and a block's threads (FEW_THREADS; make plan-costs sizes K by them)

// The tiles' names, in TRACK_TILES's order (tile_id).
static const char *const TILE_NAMES[TILE_SHAPES] = {"large", "mid", "small", "wide", "tall", "short", "narrow"};

// The GPU the lesson's examples are worked out for: an H100 SXM, 132 SMs with compute
// capability 9.0's limits (as tests/test_plan.c lists them).
static const plan_device EXAMPLE_GPU = {132, 227 * 1024, 228 * 1024, 1024, 65536, 2048, 32, 1};
constexpr int EXAMPLE_STAGES = 3;   // step 6's default (main)

// One plan as words: "512x512x512,tile:small,split:4,...".
static int describe_plan(char *buf, size_t len, int m, int n, int k, track_part track, const char *name)
{
    track_plan p = track_plan_for(m, n, k, EXAMPLE_STAGES, track, UNROLL_AS_PLANNED, &EXAMPLE_GPU, name);
    return snprintf(buf, len, "%dx%dx%d,tile:%s,split:%d,parts:%d,tiles:%lld,blocks:%lld,runs:%d,k_tiles:%lld", m, n,
                    k, TILE_NAMES[p.tile], p.split, p.parts, p.tiles, p.blocks, p.runs, p.k_tiles);
}

static int track_describe(char *buf, size_t len)
{
    char stages[32] = "", tiles[512] = "", split[160], stream[160], few[64] = "", threads[96] = "";
    char parts[96] = "";
    for (int t = 0; t < TRACK_PARTS; t++)
        snprintf(parts + strlen(parts), sizeof parts - strlen(parts), "%s%s", t ? "," : "", TRACK_NAMES[t]);
    gemm_args g = {};   // no option given: each loop as planned
    for (int s = 1; s <= MAX_STAGES; s++)
        if (unrolls(&g, s))
            snprintf(stages + strlen(stages), sizeof stages - strlen(stages), "%s%d", stages[0] ? "," : "", s);
    for (int t = 0; t < TILE_SHAPES; t++) {
        const tile_shape *s = &TRACK_TILES[t];
        snprintf(tiles + strlen(tiles), sizeof tiles - strlen(tiles), "%s%s:%dx%dx%d:%dx%d:%dx%d:%d:%d", t ? "," : "",
                 TILE_NAMES[t], s->bm, s->bn, s->bk, s->wm, s->wn, s->tm, s->tn, s->threads, s->min_blocks);
    }
    for (int m = 1; m <= FEW_MAX_M; m++) {
        snprintf(few + strlen(few), sizeof few - strlen(few), "%s%d", m > 1 ? "," : "", FEW_IN_FLIGHT(m));
        snprintf(threads + strlen(threads), sizeof threads - strlen(threads), "%s%d", m > 1 ? "," : "", FEW_THREADS(m));
    }
    using P = copy_plan<wide>;
    describe_plan(split, sizeof split, 512, 512, 512, TRACK_SPLIT_K, "64x64/split4");
    describe_plan(stream, sizeof stream, 4096, 4096, 4096, TRACK_WHOLE, NULL);
    return snprintf(buf, len,
                    "parts=%s unrolled_stages=%s track_tiles=%s wide_copies=%d:%d split_k_example=%s "
                    "stream_k_example=%s example_sms=%d few_in_flight=%s few_threads=%s",
                    parts, stages, tiles, P::A_K_PASSES * P::A_ROW_PASSES, P::B_PASSES, split, stream, EXAMPLE_GPU.sms,
                    few, threads);
}
