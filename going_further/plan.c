/* plan.c - the track's launch plan (plan.h): every candidate the track can run for the
 * problem on the device, an estimate of each one's time, and the least. The model and its
 * measured error: its chapter, 6_the_plan.md. */
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan_costs.h"

const char *const TRACK_NAMES[TRACK_PARTS + 1] = {"core", "warp-tiles", "split-k", "wide-tiles", "stream-k",
                                                  "small-shapes", NULL};

static long long cdiv(long long a, long long b) { return (a + b - 1) / b; }

/* A stage holds a k-tile of A (transposed, rows padded by 4 floats) and one of B. */
static size_t stage_bytes(tile_id t)
{
    return (size_t)TRACK_TILES[t].bk * (size_t)(TRACK_TILES[t].bm + 4 + TRACK_TILES[t].bn) * sizeof(float);
}

/* Blocks of `threads` with smem bytes an SM holds (registers as min_blocks allows), and what sets that. */
static int blocks_per_sm(int threads, int min_blocks, size_t smem, const plan_device *dev, const char **limit)
{
    return fit_blocks_per_sm(dev, &(block_need){threads, fit_bounded_regs(dev->regs_sm, threads, min_blocks), smem}, limit);
}

/* The rest of a candidate (kernel, tile, split, parts, lanes, runs): grid, shared memory, blocks an SM, workspace. */
static void complete(track_plan *p, int m, int n, int k, int with_runs, const plan_device *dev)
{
    const tile_shape *t = &TRACK_TILES[p->tile];
    if (p->kernel == KERNEL_ROWS) {   /* lanes threads a row of A, a float4 each, up to the block; A in float4s */
        for (p->lanes = 1; p->lanes < ROW_THREADS && 4 * p->lanes < k; p->lanes *= 2) {}
        p->tiles = m, p->blocks = cdiv(m, ROW_THREADS / p->lanes), p->vec = k % 4 ? 4 : 16;
        p->blocks_per_sm = blocks_per_sm(ROW_THREADS, ROW_MIN_BLOCKS, 0, dev, &p->limit);
    } else if (p->kernel == KERNEL_COLS) {   /* a few columns: COL_ROWS rows of A a block, K whole in chunks; A in float4s */
        p->tiles = p->blocks = cdiv(m, COL_ROWS), p->k_tiles = cdiv(k, COL_DEPTH), p->vec = k % 4 ? 4 : 16;
        p->blocks_per_sm = blocks_per_sm(COL_THREADS, COL_MIN_BLOCKS, COL_SMEM_BYTES(cdiv(n, 4) * 4), dev, &p->limit);
    } else if (p->kernel == KERNEL_FEW) {   /* a few rows: blocks of 4 x lanes columns, each a part of K (plan.h) */
        p->tiles = cdiv(cdiv(n, 4), p->lanes), p->blocks = p->tiles * p->parts, p->vec = n % 4 ? 4 : 16;
        p->blocks_per_sm = blocks_per_sm(p->threads, FEW_MIN_BLOCKS(m), FEW_SMEM_BYTES(m), dev, &p->limit);
        p->workspace_bytes = p->parts > 1 ? (size_t)(p->blocks * m * p->lanes * 16) : 0;
        p->counts = p->parts > 1 ? p->tiles : 0;
    } else if (p->kernel == KERNEL_FLAT) {   /* K = 1: a float4 of C a thread (a grid holds 2^31 - 1 blocks) */
        p->tiles = cdiv(cdiv((long long)m * n, 4), FLAT_THREADS), p->blocks = (long long)fmin(p->tiles, 2147483647.0);
        p->blocks_per_sm = blocks_per_sm(FLAT_THREADS, 1, 0, dev, &p->limit);
    }
    if (p->kernel >= KERNEL_ROWS)
        return;
    p->tiles = cdiv(m, t->bm) * cdiv(n, t->bn), p->k_tiles = cdiv(k, t->bk);
    /* Stream-K: a last partial wave after whole ones in runs of k-tiles, one an SM or MAX_PIECES a tile at most */
    long long left = p->tiles % dev->sms, pieces = (long long)fmin(p->k_tiles, MAX_PIECES);
    p->runs = with_runs && p->tiles >= dev->sms && left ? (int)fmin(left * pieces, dev->sms) : 0;
    p->blocks = p->runs ? p->tiles - p->tiles % dev->sms : p->tiles * p->split * p->parts;
    p->smem_bytes = (size_t)p->stages * stage_bytes(p->tile);
    p->vec = p->vec == 8 && p->stages != TRACK_STAGES ? 4 : p->vec;   /* 8-byte copies: built there alone (plan.h) */
    if (p->split > 1)   /* the partial tiles are added up over the stages, and may need more */
        p->smem_bytes = (size_t)fmax(p->smem_bytes, (double)t->bm * t->bn * sizeof(float));
    p->blocks_per_sm = blocks_per_sm(t->threads, t->min_blocks, p->smem_bytes, dev, &p->limit);
    /* K in parts: a slice of C a part. Runs: a slot for each piece of a cut tile (fewer than
       twice the SMs), a count for each left-over tile (fewer than the SMs). */
    p->workspace_bytes = p->runs ? (size_t)2 * dev->sms * t->bm * t->bn * sizeof(float)
                         : p->parts > 1 ? (size_t)p->parts * SLICE_FLOATS(m, n) * sizeof(float) : 0;
    p->counts = p->runs ? dev->sms : 0;
}

/* The estimate, in microseconds. The busiest SM runs ceil(blocks / SMs) blocks (where clusters all start at once, its
 * share of SPREAD more: they do not land evenly), each k_tiles / (split x parts) deep, at the pace of the blocks it holds
 * at once; its rounds take at least their k-tiles at a lone block's pace. The first round pays a wave's fixed cost (a
 * part wave saves its share of 64 x 64's, the least); later rounds' overlap others' k-tiles. A split tile's partial sums
 * cross its cluster, a block's share each. Memory carries A, B, C and any partial sums; each launch costs its own. */
static double estimate_us(const track_plan *p, int m, int n, int k, const plan_device *dev)
{
    const tile_shape *s = &TRACK_TILES[p->tile];
    const tile_costs *c = &PLAN_COSTS.tile[p->tile];
    double mn = (double)m * n, memory = 4.0 * ((double)m * k + (double)k * n + mn) / PLAN_COSTS.bytes_per_us;
    if (p->kernel == KERNEL_FEW) {   /* a few rows: each wave waits on its busiest SM's blocks (after the first) and their
                                        threads' rounds of loads (rows of B in pairs, plan.h), or on a whole wave's memory;
                                        a later wave adds a round of loads; the last block adds the parts' sums up */
        double slots = (double)dev->sms * p->blocks_per_sm, r = PLAN_COSTS.few_round_us + m * PLAN_COSTS.few_row_us;
        double rows = ceil(ceil((double)k / p->parts) * p->lanes / p->threads), waves = ceil(p->blocks / slots);
        double per_sm = fmin(p->blocks_per_sm, cdiv(p->blocks, dev->sms)), groups = p->threads / (m * p->lanes);
        double wave = (per_sm - 1) * PLAN_COSTS.few_block_us + ceil(rows / 2) * r;
        double sums = p->parts > 1 ? PLAN_COSTS.few_sum_us + r * ceil(p->parts / (8 * groups)) : 0.0;
        return PLAN_COSTS.launch_us + waves * fmax(wave, memory * fmin(1.0, slots / p->blocks)) + sums +
               (waves - 1) * r;
    }
    if (p->kernel >= KERNEL_ROWS) {   /* A, B and C moved once, at the memory's pace; a few columns: or each SM's blocks
                                         in rounds, a chunk of K at a time, at the pace of the blocks it holds at once */
        double per_sm = (double)cdiv(p->blocks, dev->sms), at_once = fmin(fmin(per_sm, p->blocks_per_sm), 2);
        double chunks = ceil(per_sm / at_once) * p->k_tiles * PLAN_COSTS.col_chunk_us[(int)at_once - 1];
        return PLAN_COSTS.bare_launch_us + fmax(memory, p->kernel == KERNEL_COLS ? chunks : 0.0);
    }
    double per_sm = (double)cdiv(p->blocks, dev->sms), rounds = ceil(per_sm / p->blocks_per_sm);
    per_sm = rounds > 1 ? per_sm : fmin((double)cdiv(p->blocks + SPREAD * (p->split > 1), dev->sms), p->blocks_per_sm);
    int at_once = (int)fmin(fmin(per_sm, p->blocks_per_sm), s->min_blocks);
    double depth = (double)p->k_tiles / (p->split * p->parts) * (p->vec == 16 ? 1.0 : c->scalar_b);   /* B in floats */
    double wave = fmin(1.0, (double)p->blocks / dev->sms), start = PLAN_COSTS.tile[TILE_SMALL].block_us;
    double t = c->block_us - (1 - wave) * start + fmax(rounds * depth * c->k_tile_us[0] + (rounds - 1) * c->block_us,
                                                        per_sm * depth * c->k_tile_us[at_once - 1] / at_once);
    t += p->split > 1 ? per_sm * PLAN_COSTS.cluster_us * s->bm * s->bn / 1024 : 0.0;
    t = PLAN_COSTS.launch_us + fmax(t, memory + 4.0 * mn * (p->parts - 1) / PLAN_COSTS.bytes_per_us);
    if (p->parts > 1)   /* the second kernel reads every part's slice and writes C */
        t += PLAN_COSTS.add_up_us + 4.0 * mn * (p->parts + 1) / PLAN_COSTS.bytes_per_us;
    if (p->runs)   /* the second launch: the left-over tiles' k-tiles in even runs, a block each */
        t += PLAN_COSTS.launch_us + c->block_us + (double)(p->tiles - p->blocks) * p->k_tiles / p->runs * c->k_tile_us[0];
    return t;
}

int track_plan_name(const track_plan *p, char *buf, size_t len)
{
    const tile_shape *t = &TRACK_TILES[p->tile];
    if (p->kernel >= KERNEL_ROWS)   /* a few rows may have K in parts */
        return snprintf(buf, len, p->parts > 1 ? "%s/parts%d" : "%s",
                        (const char *[]){"rows", "few-cols", "few-rows", "flat"}[p->kernel - KERNEL_ROWS], p->parts);
    if (p->parts > 1 || p->split > 1)
        return snprintf(buf, len, "%dx%d/%s%d", t->bm, t->bn, p->parts > 1 ? "parts" : "split", p->parts * p->split);
    return snprintf(buf, len, "%dx%d%s", t->bm, t->bn, p->runs ? "/runs" : "");
}

int track_plan_name_check(const char *name, char *why, size_t len)
{
    int bm, bn, count, used = 0;
    int tileless = strcmp(name, "rows") == 0 || strcmp(name, "few-cols") == 0 || strcmp(name, "few-rows") == 0 ||
                   strcmp(name, "flat") == 0;
    int few = strncmp(name, "few-rows/", 9) == 0;   /* a few rows, K in parts: the kind takes a tile's place */
    if (few)
        used = (int)strlen("few-rows");
    int ok = tileless || (strlen(name) < 32 && name[strspn(name, "0123456789abcdefghijklmnopqrstuvwxyz/-")] == '\0' &&
                          (few || (sscanf(name, "%4dx%4d%n", &bm, &bn, &used) == 2 && bm > 0 && bn > 0)));
    const char *tail = name + used;
    if (ok && !tileless && *tail)
        ok = (!few && strcmp(tail, "/runs") == 0) ||
             (((!few && sscanf(tail, "/split%4d%n", &count, &used) == 1) || sscanf(tail, "/parts%4d%n", &count, &used) == 1) &&
              count > 1 && tail[used] == '\0');
    return ok ? 0 : snprintf(why, len, "is not a candidate's name (TILE, TILE/splitS, TILE/partsP or TILE/runs, TILE as "
                                       "128x128; rows, few-cols, few-rows, few-rows/partsP, flat)");
}

/* Two candidates of one kind: the same tile, K shared the same way (8 parts against 9 says little). */
static int same_kind(const track_plan *a, const track_plan *b)
{
    return a->kernel == b->kernel && a->tile == b->tile && (a->split > 1) == (b->split > 1) &&
           (a->parts > 1) == (b->parts > 1) && !a->runs == !b->runs;
}

/* The search: each candidate is offered here; the least estimate wins (on a tie the most
 * blocks: where memory sets the time, they keep more loads in flight), or the name asked for. */
typedef struct {
    int m, n, k;
    const plan_device *dev;
    const char *name;   /* --plan's, or NULL */
    track_plan best, next;
    char (*names)[32];  /* where not NULL: each candidate's name once, up to max_names (track_plan_candidates) */
    int named, max_names;
} search;

static void list_name(search *s, const char name[32])
{
    for (int i = 0; i < s->named && i < s->max_names; i++)
        if (strcmp(s->names[i], name) == 0)
            return;
    if (s->named < s->max_names)
        memcpy(s->names[s->named], name, 32);
    s->named++;
}

static void offer(search *s, track_plan c, int with_runs)
{
    complete(&c, s->m, s->n, s->k, with_runs, s->dev);
    if (c.blocks_per_sm < 1 || (with_runs && !c.runs))
        return;
    c.est_us = estimate_us(&c, s->m, s->n, s->k, s->dev), c.found = 1;
    char name[32];
    track_plan_name(&c, name, sizeof name);
    if (s->names)   /* each name once: a few rows' lanes share their names (the best runs) */
        list_name(s, name);
    if (s->name && strcmp(name, s->name) != 0)
        return;
    if (!s->best.found || c.est_us < s->best.est_us || (c.est_us == s->best.est_us && c.blocks > s->best.blocks)) {
        if (s->best.found && !same_kind(&s->best, &c))
            s->next = s->best;
        s->best = c;
    } else if (!same_kind(&s->best, &c) && (!s->next.found || c.est_us < s->next.est_us))
        s->next = c;
}

/* c with K in each count of parts from `from`, every one to 16, then a quarter more each time, up to the most: tiles,
 * all blocks at once, parts 8 k-tiles deep (wide: 64); a few rows, FEW_WAVES times that, a row of B a thread. */
static void offer_parts(search *s, track_plan c, long long from)
{
    c.parts = 1, complete(&c, s->m, s->n, s->k, 0, s->dev);
    double slots = (double)s->dev->sms * c.blocks_per_sm, most = fmin(c.kernel == KERNEL_FEW
        ? fmin(FEW_WAVES * slots / c.tiles, (double)s->k * c.lanes / c.threads)
        : fmin(slots / c.tiles, c.k_tiles / (c.kernel == KERNEL_WIDE ? 64 : 8)), MAX_PARTS);
    for (long long p = from, top = (long long)most; p == 1 || p <= top;
         p = p < 16 ? p + 1 : p + p / 4 < top ? p + p / 4 : p == top ? top + 1 : top)
        c.parts = (int)p, offer(s, c, 0);
}

/* The tiles K in parts may take, at TRACK_STAGES (plan.h): 128 x 64 and 128 x 32 K whole too (counts from 1). */
static const tile_id PART_TILES[] = {TILE_LARGE, TILE_MID, TILE_SMALL, TILE_TALL, TILE_SHORT, TILE_NARROW, TILE_WIDE};

static void offer_all(search *s, const track_plan *base, int unroll)
{
    track_plan c = *base;
    c.kernel = KERNEL_WARP;
    for (tile_id t = TILE_LARGE; t <= TILE_SMALL; t++) {   /* warp tiles, K split or whole */
        c.tile = t;
        for (c.split = t == TILE_LARGE ? 1 : t == TILE_MID ? 4 : MAX_SPLIT; c.split >= 1; c.split /= 2)
            if (c.split == 1 || (base->track >= TRACK_SPLIT_K && s->dev->clusters && s->k >= c.split * 32))
                offer(s, c, 0);
    }
    c.split = 1;
    if (base->track >= TRACK_WIDE_TILES) {   /* wide tiles, the last wave in runs or not */
        c.kernel = KERNEL_WIDE, c.tile = TILE_WIDE;
        offer(s, c, 0);
        if (base->track >= TRACK_STREAM_K && base->stages == TRACK_STAGES)   /* the runs (plan.h) */
            offer(s, c, 1);
    }
    if (base->track < TRACK_SMALL_SHAPES)
        return;
    for (c.kernel = KERNEL_ROWS; c.kernel <= KERNEL_FLAT; c.kernel++)   /* N = 1; M <= 16, at each lanes; K = 1 */
        if (c.kernel == KERNEL_FEW) {   /* lanes: a power of two, 32 at most, none past N, M x lanes <= FEW_CELLS; */
            for (int l = 32, first = 1; s->m <= FEW_MAX_M && l >= 1; l /= 2)   /* the most, down to 128-byte rows */
                if ((l == 1 || (2 * l < s->n && s->m * l <= FEW_CELLS)) && (first || l >= 8))
                    c.lanes = l, c.threads = FEW_THREADS(s->m), first = 0, offer_parts(s, c, 1);
        } else if (c.kernel == KERNEL_ROWS ? s->n == 1 : c.kernel == KERNEL_COLS ? s->n > 1 && s->n <= COL_MAX_N : s->k == 1)
            offer(s, c, 0);
    for (size_t i = 0; base->stages == TRACK_STAGES && i < sizeof PART_TILES / sizeof PART_TILES[0]; i++) {   /* parts */
        tile_id t = PART_TILES[i];
        int wide = t == TILE_WIDE, skinny = t >= TILE_TALL && !wide;
        if ((wide && unroll == UNROLL_YES) || (skinny && unroll == UNROLL_NO))
            continue;
        c.kernel = wide ? KERNEL_WIDE : KERNEL_WARP, c.tile = t;
        offer_parts(s, c, t == TILE_NARROW || t == TILE_TALL ? 1 : 2);   /* K whole first */
    }
}

/* What every candidate starts from: the problem's copy width, and the stages that fit. */
static track_plan base_plan(int n, int stages, int track, int unroll, const plan_device *dev)
{
    track_plan p = {.track = (track_part)track, .stages = stages, .stages_asked = stages,
                    .vec = n % 4 == 0 ? 16 : n % 2 == 0 && unroll != UNROLL_NO ? 8 : 4, .split = 1, .parts = 1};
    /* Every tile's stages fit in 227 KiB; a smaller device may hold fewer (fit_stages): the fewest any tile holds. */
    for (int t = 0; t < TILE_SHAPES; t++)
        p.stages = (int)fmax(1, fmin(p.stages, fit_stages(dev, 0, stage_bytes((tile_id)t), stages)));
    return p;
}

int track_plan_candidates(int m, int n, int k, int stages, int track, int unroll, const plan_device *dev,
                          char (*names)[32], int max)
{
    track_plan p = base_plan(n, stages, track, unroll, dev);
    search s = {m, n, k, dev, NULL, {0}, {0}, names, 0, max};
    offer_all(&s, &p, unroll);
    return s.named;
}

track_plan track_plan_for(int m, int n, int k, int stages, int track, int unroll, const plan_device *dev,
                          const char *name)
{
    track_plan p = base_plan(n, stages, track, unroll, dev);
    search s = {m, n, k, dev, name, {0}, {0}, NULL, 0, 0};
    offer_all(&s, &p, unroll);
    if (!s.best.found)   /* the name is none of the candidates: the plan's choice, marked so */
        s.name = NULL, offer_all(&s, &p, unroll), s.best.found = 0;
    p = s.best, p.early = dev->clusters && p.parts > 1 && p.kernel != KERNEL_FEW;
    if (s.next.found && !name)
        track_plan_name(&s.next, p.next, sizeof p.next), p.next_us = s.next.est_us;
    /* The loop: the wide tiles' lean loop unless --unroll yes; every other kernel's stage
     * loop unrolled unless --unroll no. One stage has no ring to unroll. */
    p.loop = p.kernel == KERNEL_WIDE ? (unroll == UNROLL_YES ? LOOP_UNROLLED : LOOP_LEAN)
             : unroll == UNROLL_NO && p.stages > 1 ? LOOP_ROLLED : LOOP_UNROLLED;
    return p;
}
int track_plan_describe(const track_plan *p, char *buf, size_t len)
{
    const tile_shape *t = &TRACK_TILES[p->tile];
    char k_share[96], loop[96], blocks[96], why[96] = "";   /* why: "; est. 41.0 us, next: ..." */
    int w = p->est_us > 0 ? snprintf(why, sizeof why, "; est. %.*f us", p->est_us < 100 ? 1 : 0, p->est_us) : 0;
    if (p->next_us > 0)
        snprintf(why + w, sizeof why - w, ", next: %s, est. %.*f us", p->next, p->next_us < 100 ? 1 : 0, p->next_us);
    if (p->parts > 1)
        snprintf(k_share, sizeof k_share, "K in %d parts%s%s", p->parts, p->kernel == KERNEL_FEW ?
                 ", added up by the last block" : " a tile, added up by a second kernel", p->early ? " launched early" : "");
    else if (p->runs)
        snprintf(k_share, sizeof k_share, "K whole for %lld tiles, then %lld tiles in %d runs of k-tiles",
                 p->blocks, p->tiles - p->blocks, p->runs);
    else if (p->split > 1)
        snprintf(k_share, sizeof k_share, "K split in %d over a cluster", p->split);
    else
        snprintf(k_share, sizeof k_share, "K whole");
    tile_plan fit = {.blocks_per_sm = p->blocks_per_sm, .limit = p->limit};
    fit_describe_blocks(&fit, p->kernel >= KERNEL_COLS ? p->blocks_per_sm : t->min_blocks, blocks, sizeof blocks);
    if (p->kernel >= KERNEL_ROWS)
        return p->kernel == KERNEL_FLAT ? snprintf(buf, len, "a float4 of C a thread, C as one array%s", why)
               : p->kernel == KERNEL_COLS ? snprintf(buf, len, "a block of %d threads %d rows of A (C of a few columns), "
                                                   "K in chunks of %d, A read in %d-byte pieces, %s%s", COL_THREADS,
                                                   COL_ROWS, COL_DEPTH, p->vec, blocks, why)
               : p->kernel == KERNEL_ROWS ? snprintf(buf, len, "%d thread%s a row of A (C of one column), A read in %d-byte "
                                                   "pieces%s", p->lanes, p->lanes > 1 ? "s" : "", p->vec, why)
               : snprintf(buf, len, "a block of %d threads %d columns of C, M rows a thread, %s, B read in %d-byte "
                          "pieces, %s%s", p->threads, 4 * p->lanes, k_share, p->vec, blocks, why);
    snprintf(loop, sizeof loop, "%d stages, %s", p->stages, p->loop == LOOP_LEAN ? "a lean loop"
             : p->loop == LOOP_ROLLED ? "the stage loop rolled" : "the stage loop unrolled");
    if (p->stages == 1)
        snprintf(loop, sizeof loop, "one stage");
    if (p->stages != p->stages_asked)
        snprintf(loop + strlen(loop), sizeof loop - strlen(loop), " (%d stages do not fit in a block)", p->stages_asked);
    return snprintf(buf, len, "%dx%d tiles of %dx%d a thread in warps of %dx%d, %s, %s, B copied %s%d-byte pieces, %s%s",
                    t->bm, t->bn, t->tm, t->tn, t->wm, t->wn, k_share, loop, p->vec == 8 ? "in 8-byte and C stored in "
                    : "and C stored in ", p->vec == 8 ? 4 : p->vec, blocks, why);
}
