/* plan.c - the track's launch plan (plan.h): every rule that picks a kernel, a tile, a split
 * of K or runs of k-tiles is here, once. The measurements behind each rule: README.md. */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "../../common/harness.h"

const char *const TRACK_NAMES[TRACK_PARTS + 1] = {"core", "warp-tiles", "split-k", "wide-tiles", "stream-k", NULL};

static long long tiles_of(int m, int n, tile_id t)
{
    return (long long)((m + TRACK_TILES[t].bm - 1) / TRACK_TILES[t].bm) * ((n + TRACK_TILES[t].bn - 1) / TRACK_TILES[t].bn);
}

/* A stage holds a k-tile of A (transposed, rows padded by 4 floats) and one of B. */
static size_t stage_bytes(tile_id t)
{
    return (size_t)TRACK_TILES[t].bk * (size_t)(TRACK_TILES[t].bm + 4 + TRACK_TILES[t].bn) * sizeof(float);
}

/* Blocks of tile t with smem bytes of shared memory an SM holds (registers at most what
 * __launch_bounds__ allows), and what sets that. */
static int blocks_per_sm(tile_id t, size_t smem, const plan_device *dev, const char **limit)
{
    const tile_shape *s = &TRACK_TILES[t];
    block_need need = {s->threads, fit_bounded_regs(dev->regs_sm, s->threads, s->min_blocks), smem};
    return fit_blocks_per_sm(dev, &need, limit);
}

/* The share of the SMs' time the blocks fill: each SM runs its blocks, and the one with
 * the most, ceil(blocks / SMs) of them, sets the time. */
static double wave_fill(long long blocks, int sms)
{
    return (double)blocks / ((double)((blocks + sms - 1) / sms) * sms);
}

/* One wave and a bit: more 128 x 128 tiles than SMs, fewer than twice as many (1536 has
 * 144 for 132 SMs: 12 SMs run two tiles while the others wait). Then 64 x 128 tiles where
 * their blocks fill the SMs' time better; and where they still fill less than three
 * quarters of it, K split in 2 over clusters (each share at least 128 deep), doubled
 * while that holds, up to 4. Measured at 1536, 1664 and 1792 (README, "One wave and a bit"). */
static void plan_wave_and_a_bit(step6_plan *p, int k, long long large, long long mid, const plan_device *dev)
{
    if (wave_fill(mid, dev->sms) <= wave_fill(large, dev->sms))
        return;
    p->tile = TILE_MID;
    while (p->track >= TRACK_SPLIT_K && dev->clusters && p->split < 4 && wave_fill(mid * p->split, dev->sms) < 0.75 &&
           k >= 2 * p->split * 128)
        p->split *= 2;
}

/* Warp tiles: 128 x 128 when there are at least as many as SMs (but see
 * plan_wave_and_a_bit below twice as many). Fewer: 64 x 128, and with split K (clusters)
 * 64 x 64 where even 64 x 128 leave more than every other SM idle; K
 * split over 2, 4 or 8 blocks a tile, doubled until every SM has a block (each share at
 * least 32 deep), then once more for a second block an SM where each share keeps at least
 * 128 of K and all the blocks fit at once. 64 x 128 tiles are never split in 8: there are
 * at least half as many as SMs, so the first doubling covers every SM. */
static void plan_warp(step6_plan *p, int m, int n, int k, const plan_device *dev)
{
    p->kernel = KERNEL_WARP;
    p->tile = TILE_LARGE;
    long long large = tiles_of(m, n, TILE_LARGE);
    if (large >= dev->sms) {
        if (large < 2LL * dev->sms)
            plan_wave_and_a_bit(p, k, large, tiles_of(m, n, TILE_MID), dev);
        return;
    }
    p->tile = TILE_MID;
    if (p->track < TRACK_SPLIT_K || !dev->clusters)
        return;
    if (2 * tiles_of(m, n, TILE_MID) < dev->sms)
        p->tile = TILE_SMALL;
    const char *limit;
    long long tiles = tiles_of(m, n, p->tile);
    long long slots = (long long)dev->sms * blocks_per_sm(p->tile, p->stages * stage_bytes(p->tile), dev, &limit);
    while (p->split < MAX_SPLIT && tiles * p->split < dev->sms && k >= 2 * p->split * 32)
        p->split *= 2;
    if (p->split < MAX_SPLIT && k >= 2 * p->split * 128 && tiles * 2 * p->split <= slots)
        p->split *= 2;
}

/* Wide tiles where there are enough for 9 SMs in 10, one block each. */
static int plan_wide(step6_plan *p, int m, int n, const plan_device *dev)
{
    if (10 * tiles_of(m, n, TILE_WIDE) < 9LL * dev->sms)
        return 0;
    p->kernel = KERNEL_WIDE;
    p->tile = TILE_WIDE;
    return 1;
}

/* Stream-K: the wide tiles of a last partial wave after one or more whole ones go in runs
 * of k-tiles, as many runs as SMs, or MAX_PIECES a tile where that is fewer. With fewer
 * tiles than SMs there is one wave, and K stays whole: the hand-over costs more there. */
static int plan_runs(const step6_plan *p, const plan_device *dev)
{
    if (p->kernel != KERNEL_WIDE || p->track < TRACK_STREAM_K || p->tiles < dev->sms || p->tiles % dev->sms == 0)
        return 0;
    long long left = p->tiles % dev->sms, pieces = p->k_tiles < MAX_PIECES ? p->k_tiles : MAX_PIECES;
    return (int)(left * pieces < dev->sms ? left * pieces : dev->sms);
}

/* The area of C's tiles, C and its padding. */
static long long padded(int m, int n, tile_id t)
{
    return tiles_of(m, n, t) * TRACK_TILES[t].bm * TRACK_TILES[t].bn;
}

/* The share of the SMs' block slots (as many blocks as they hold at once) the blocks fill. */
static double slot_fill(long long blocks, tile_id t, int stages, const plan_device *dev)
{
    const char *limit;
    return wave_fill(blocks, dev->sms * blocks_per_sm(t, stages * stage_bytes(t), dev, &limit));
}

/* The parts of a tile's K for tile t: as many as the SMs' block slots hold, each at least
 * `depth` k-tiles deep; 0 where that is fewer than 2, or their blocks fill less than three
 * quarters of the slots. */
static int parts_for(int m, int n, int k, tile_id t, int depth, int stages, const plan_device *dev)
{
    const char *limit;
    long long tiles = tiles_of(m, n, t), k_tiles = (k + TRACK_TILES[t].bk - 1) / TRACK_TILES[t].bk;
    long long slots = (long long)dev->sms * blocks_per_sm(t, stages * stage_bytes(t), dev, &limit);
    long long parts = slots / tiles < k_tiles / depth ? slots / tiles : k_tiles / depth;
    return parts < 2 || 4 * tiles * parts < 3 * slots ? 0 : (int)parts;
}

/* The warp tiles K in parts may take, the larger first. The skinny shapes' three (128 x 64,
 * 32 x 128, 128 x 32) are built for a ring of stages, unrolled: not for one stage or
 * --unroll no (each kernel built is build time, in every architecture's build). */
static const tile_id PART_TILES[] = {TILE_LARGE, TILE_MID, TILE_TALL, TILE_SMALL, TILE_SHORT, TILE_NARROW};

/* K in parts (stream_k.cuh), where there are fewer 128 x 128 tiles than SMs. First the wide
 * tiles (128 accumulators a thread, in their lean loop; --unroll yes keeps the warp tiles),
 * where they pad C no more than the warp tiles and each part is at least 64 k-tiles (512 of
 * K) deep, so that the trip through memory is small next to its work. Else the warp tile
 * that pads C least (the larger of two that pad it alike), in parts at least 16 k-tiles
 * (128 of K) deep, taken where the plan without them falls short: it fills less than three
 * quarters of the slots, or its tiles pad C more, or they are 64 x 64, the least efficient
 * (8 x 4 accumulators a thread).
 * Measured over the skinny, deep-K and small square shapes of `make shapes` (README, "K in
 * parts"). */
static void plan_parts(step6_plan *p, int m, int n, int k, int unroll, const plan_device *dev)
{
    if (p->track < TRACK_STREAM_K || p->kernel != KERNEL_WARP || tiles_of(m, n, TILE_LARGE) >= dev->sms)
        return;
    tile_id t = TILE_LARGE;
    for (size_t i = 1; i < sizeof PART_TILES / sizeof PART_TILES[0]; i++) {
        tile_id u = PART_TILES[i];
        if ((u <= TILE_SMALL || (unroll != UNROLL_NO && p->stages > 1)) && padded(m, n, u) < padded(m, n, t))
            t = u;
    }
    int parts = parts_for(m, n, k, TILE_WIDE, 64, p->stages, dev);
    if (unroll != UNROLL_YES && padded(m, n, TILE_WIDE) <= padded(m, n, t) && parts) {
        p->kernel = KERNEL_WIDE;
        t = TILE_WIDE;
    } else {
        parts = parts_for(m, n, k, t, 16, p->stages, dev);
        if (!parts || (p->tile != TILE_SMALL && padded(m, n, p->tile) == padded(m, n, t) &&
                       slot_fill(tiles_of(m, n, p->tile) * p->split, p->tile, p->stages, dev) >= 0.75))
            return;
    }
    p->tile = t;
    p->split = 1;
    p->parts = parts;
}

step6_plan step6_plan_for(int m, int n, int k, int stages, int track, int unroll, const plan_device *dev)
{
    step6_plan p = {0};
    p.track = (track_part)track;
    p.stages_asked = stages;
    p.stages = stages;
    p.vec = n % 4 == 0;
    p.split = 1;
    p.parts = 1;
    /* Every tile's stages fit in 227 KiB; a smaller device may hold fewer (fit_stages):
       the fewest any tile of the track holds, so that the choices below see them. */
    for (int t = 0; t < TILE_SHAPES; t++) {
        int fits = fit_stages(dev, 0, stage_bytes((tile_id)t), stages);
        p.stages = fits < p.stages ? fits : p.stages;
    }
    if (p.stages < 1)
        p.stages = 1;
    if (p.track < TRACK_WIDE_TILES || !plan_wide(&p, m, n, dev)) {
        plan_warp(&p, m, n, k, dev);
        plan_parts(&p, m, n, k, unroll, dev);
    }
    p.tiles = tiles_of(m, n, p.tile);
    p.k_tiles = ((long long)k + TRACK_TILES[p.tile].bk - 1) / TRACK_TILES[p.tile].bk;
    p.runs = plan_runs(&p, dev);

    /* The loop: the wide tiles' lean loop unless --unroll yes; every other kernel's stage
     * loop unrolled unless --unroll no. One stage has no ring to unroll. */
    if (p.kernel == KERNEL_WIDE)
        p.loop = unroll == UNROLL_YES ? LOOP_UNROLLED : LOOP_LEAN;
    else
        p.loop = unroll == UNROLL_NO ? LOOP_ROLLED : LOOP_UNROLLED;
    if (p.stages == 1 && p.loop == LOOP_ROLLED)
        p.loop = LOOP_UNROLLED;

    p.blocks = p.tiles * p.split * p.parts;
    p.smem_bytes = (size_t)p.stages * stage_bytes(p.tile);
    if (p.split > 1) {   /* the partial tiles are added up over the stages, and may need more */
        size_t partial = (size_t)TRACK_TILES[p.tile].bm * TRACK_TILES[p.tile].bn * sizeof(float);
        p.smem_bytes = p.smem_bytes > partial ? p.smem_bytes : partial;
    }
    p.blocks_per_sm = blocks_per_sm(p.tile, p.smem_bytes, dev, &p.limit);
    if (p.parts > 1)   /* a slice of M x N for each part */
        p.workspace_bytes = (size_t)p.parts * m * n * sizeof(float);
    if (p.runs > 0) {   /* the whole waves first, one block a tile; then the runs */
        p.blocks = p.tiles - p.tiles % dev->sms;
        /* a slot for each piece of a cut tile (fewer than twice the SMs), a count for each
           left-over tile (fewer than the SMs) */
        p.slots_bytes = (size_t)2 * dev->sms * TRACK_TILES[p.tile].bm * TRACK_TILES[p.tile].bn * sizeof(float);
        p.workspace_bytes = p.slots_bytes + (size_t)dev->sms * sizeof(int);
    }
    return p;
}

int step6_plan_describe(const step6_plan *p, char *buf, size_t len)
{
    const tile_shape *t = &TRACK_TILES[p->tile];
    char warps[32] = "", k_share[96], loop[96], blocks[96];
    if (t->wm)
        snprintf(warps, sizeof warps, " in warps of %dx%d", t->wm, t->wn);
    if (p->parts > 1)
        snprintf(k_share, sizeof k_share, "K in %d parts a tile, added up by a second kernel", p->parts);
    else if (p->runs)
        snprintf(k_share, sizeof k_share, "K whole for %lld tiles, then %lld tiles in %d runs of k-tiles",
                 p->blocks, p->tiles - p->blocks, p->runs);
    else if (p->split > 1)
        snprintf(k_share, sizeof k_share, "K split in %d over a cluster", p->split);
    else
        snprintf(k_share, sizeof k_share, "K whole");
    if (p->stages == 1)
        snprintf(loop, sizeof loop, "one stage");
    else
        snprintf(loop, sizeof loop, "%d stages, %s", p->stages,
                 p->loop == LOOP_LEAN ? "a lean loop" : p->loop == LOOP_ROLLED ? "the stage loop rolled"
                                                                               : "the stage loop unrolled");
    if (p->stages != p->stages_asked) {
        size_t used = strlen(loop);
        snprintf(loop + used, sizeof loop - used, " (%d stages do not fit in a block)", p->stages_asked);
    }
    tile_plan fit = {.blocks_per_sm = p->blocks_per_sm, .limit = p->limit};
    fit_describe_blocks(&fit, t->min_blocks, blocks, sizeof blocks);
    return snprintf(buf, len, "%dx%d tiles of %dx%d a thread%s, %s, %s, B copied and C stored in %d-byte pieces, %s",
                    t->bm, t->bn, t->tm, t->tn, warps, k_share, loop, p->vec ? 16 : 4, blocks);
}
