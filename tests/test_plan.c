/* test_plan.c - the launch plans, without a GPU: step 6's (step6_unroll/plan.c) and steps
 * 3 to 5's choice of tile and stages (fit_tiles, common/fit.c, with each step's tiles as
 * its --describe gives them).
 *
 * A plan is a function of the problem and of the device's limits (fit.h). Every GPU of the
 * table below gets every step, track part, stage count and shape family, and each plan
 * must cover C, fit every limit of the device (shared memory a block and an SM, registers,
 * threads and blocks an SM), launch what the grid allows, use clusters only where the
 * device and the binary allow, and fit its workspace. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "plan.h"
#include "plan_costs.h"
#include "process.h"

typedef struct {
    const char *name;
    int sm;            /* compute capability, as sm_XX */
    plan_device dev;   /* sms, smem_block, smem_sm, smem_reserved, regs_sm, threads_sm, blocks_sm, clusters */
} gpu;

/* Each compute capability's limits are from the CUDA C++ Programming Guide (13.0), "Compute
 * Capabilities", table "Technical Specifications per Compute Capability": shared memory an
 * SM and a block (opt-in), 1 KiB reserved a block from 8.0 on ("Shared Memory" of each
 * capability's section), 64 K registers an SM, resident threads (warps x 32) and blocks an
 * SM; clusters from 9.0 on ("Thread Block Clusters"). SM counts are from the vendor's
 * data sheet or architecture whitepaper of each product, named with it. */
#define CC75(sms) {sms, 64 * 1024, 64 * 1024, 0, 65536, 1024, 16, 0}
#define CC80(sms) {sms, 163 * 1024, 164 * 1024, 1024, 65536, 2048, 32, 0}
#define CC86(sms) {sms, 99 * 1024, 100 * 1024, 1024, 65536, 1536, 16, 0}
#define CC89(sms) {sms, 99 * 1024, 100 * 1024, 1024, 65536, 1536, 24, 0}
#define CC90(sms) {sms, 227 * 1024, 228 * 1024, 1024, 65536, 2048, 32, 1}
#define CC100(sms) {sms, 227 * 1024, 228 * 1024, 1024, 65536, 2048, 32, 1}
#define CC120(sms) {sms, 99 * 1024, 100 * 1024, 1024, 65536, 1536, 32, 1}
static const gpu GPUS[] = {
    {"Tesla T4 (T4 data sheet: 2560 CUDA cores, 40 SMs)", 75, CC75(40)},
    {"A10 (A10 data sheet, GA102: 72 SMs)", 86, CC86(72)},
    {"A100 40 GB (A100 whitepaper: 108 SMs)", 80, CC80(108)},
    {"A100 80 GB (A100 data sheet: 108 SMs)", 80, CC80(108)},
    {"RTX 3060 (GA106, 3584 CUDA cores: 28 SMs)", 86, CC86(28)},
    {"RTX 3090 (GA102, 10496 CUDA cores: 82 SMs)", 86, CC86(82)},
    {"RTX 4090 (AD102, 16384 CUDA cores: 128 SMs)", 89, CC89(128)},
    {"L4 (L4 data sheet, AD104: 58 SMs)", 89, CC89(58)},
    {"H100 PCIe (H100 whitepaper: 114 SMs)", 90, CC90(114)},
    {"H100 SXM5 (H100 whitepaper: 132 SMs)", 90, CC90(132)},
    {"H200 (H100 SXM's GH100 with 141 GB: 132 SMs)", 90, CC90(132)},
    {"B200 (Blackwell whitepaper: 148 SMs)", 100, CC100(148)},
    {"RTX 5090 (GB202, 21760 CUDA cores: 170 SMs)", 120, CC120(170)},
};
enum { N_GPUS = sizeof GPUS / sizeof GPUS[0] };

/* The H100 SXM / H200 row: the GPU the course measures on. */
static const plan_device *hopper(void) { return &GPUS[9].dev; }

/* Squares, odd sizes, skinny, deep K: the shape families. */
static const int SHAPES[][3] = {
    {1, 1, 1},       {7, 13, 5},       {129, 127, 33},   {256, 256, 256},   {512, 512, 512},
    {1000, 998, 601}, {1024, 1024, 1024}, {1500, 1500, 1500}, {2048, 2048, 2048}, {2047, 2500, 3},
    {4096, 4096, 4096}, {8192, 8192, 8192}, {16, 4096, 4096}, {4096, 16, 4096}, {256, 256, 65536},
    {1073741824, 1, 1}, {1, 1073741824, 1}, {8192, 64, 8192}, {896, 896, 896}, {512, 768, 3072},
    {8192, 16, 8192}, {7, 3000, 5000}, {3000, 30, 5000}, {4096, 1, 16384}, {65, 1, 4099},
};
enum { N_SHAPES = sizeof SHAPES / sizeof SHAPES[0] };

static long long cdiv(long long a, long long b) { return (a + b - 1) / b; }

/* What every plan, chosen or named, must hold: it covers C, fits the device, and uses only
 * the parts of the track in use and clusters only where there are some. */
static void check_plan(const track_plan *p, const plan_device *d, int m, int n, int k, int track, int stages,
                       int unroll, const char *where)
{
    plan_device dev = *d;
    const tile_shape *t = &TRACK_TILES[p->tile];
    if (p->kernel == KERNEL_ROWS) {   /* A times a vector: lanes threads a row (the fewest powers of two that
                                         give each a float4 of K, up to the block), the block's rows */
        int l = p->lanes;
        cr_assert(n == 1 && track >= TRACK_SMALL_SHAPES && l >= 1 && l <= ROW_THREADS && (l & (l - 1)) == 0 &&
                      (l == ROW_THREADS || 4 * l >= k) && (l == 1 || 2 * l < k) && p->tiles == m &&
                      p->blocks == cdiv(m, ROW_THREADS / l) && p->split == 1 && p->parts == 1 && p->runs == 0 &&
                      p->smem_bytes == 0 && p->workspace_bytes == 0 && p->vec == (k % 4 ? 4 : 16),
                  "%s: %d threads a row", where, l);
        cr_assert(p->blocks_per_sm >= 1 && p->blocks_per_sm * ROW_THREADS <= dev.threads_sm &&
                      p->blocks_per_sm <= dev.blocks_sm, "%s: %d blocks an SM", where, p->blocks_per_sm);
        return;
    }
    if (p->kernel == KERNEL_COLS) {   /* a few columns: COL_ROWS rows of A a block, K whole in chunks of COL_DEPTH */
        cr_assert(n > 1 && n <= COL_MAX_N && track >= TRACK_SMALL_SHAPES && p->tiles == cdiv(m, COL_ROWS) &&
                      p->blocks == p->tiles && p->k_tiles == cdiv(k, COL_DEPTH) && p->split == 1 && p->parts == 1 &&
                      p->runs == 0 && p->smem_bytes == 0 && p->workspace_bytes == 0 && p->vec == (k % 4 ? 4 : 16),
                  "%s: a few columns, %lld blocks", where, p->blocks);
        cr_assert(p->blocks_per_sm >= 1 && p->blocks_per_sm * COL_THREADS <= dev.threads_sm &&
                      p->blocks_per_sm * COL_SMEM_BYTES(cdiv(n, 4) * 4) <= (size_t)dev.smem_sm &&
                      p->blocks_per_sm <= dev.blocks_sm, "%s: %d blocks an SM", where, p->blocks_per_sm);
        return;
    }
    if (p->kernel == KERNEL_FEW) {   /* a few rows: blocks of 4 x lanes columns (a power of two, up to 32, none
                                        wholly past N, FEW_CELLS float4s of C at most; 8 or more, or the widest),
                                        each a part of K */
        int l = p->lanes, widest = 1;
        while (widest < 32 && 4 * widest < n && 2 * m * widest <= FEW_CELLS)
            widest *= 2;
        cr_assert(m <= FEW_MAX_M && track >= TRACK_SMALL_SHAPES && l >= 1 && l <= widest && (l & (l - 1)) == 0 &&
                      m * l <= FEW_CELLS && (l == 1 || 2 * l < n) && (l >= 8 || l == widest) &&
                      p->tiles == cdiv(cdiv(n, 4), l) &&
                      p->blocks == p->tiles * p->parts && p->split == 1 && p->runs == 0 && p->smem_bytes == 0 &&
                      p->vec == (n % 4 ? 4 : 16),
                  "%s: a few rows, %d lanes", where, l);
        cr_assert(p->parts >= 1 && (p->parts == 1 || (p->parts <= MAX_PARTS &&
                                                        (long long)p->parts * FEW_THREADS(m) <= (long long)k * l &&
                                                        p->blocks <= (long long)FEW_WAVES * dev.sms * p->blocks_per_sm)),
                  "%s: %d parts, %lld blocks", where, p->parts, p->blocks);
        cr_assert(p->parts > 1 ? p->workspace_bytes >= (size_t)p->blocks * m * l * 16 && p->counts == p->tiles
                               : p->workspace_bytes == 0 && p->counts == 0, "%s: workspace and counts", where);
        cr_assert(p->blocks_per_sm >= 1 && p->blocks_per_sm * FEW_THREADS(m) <= dev.threads_sm &&
                      p->blocks_per_sm * FEW_SMEM_BYTES(m) <= (size_t)dev.smem_sm && p->blocks_per_sm <= dev.blocks_sm,
                  "%s: %d blocks an SM", where, p->blocks_per_sm);
        return;
    }
    if (p->kernel == KERNEL_FLAT) {   /* K = 1: a float4 of C a thread, up to the most blocks a grid holds */
        long long quads = cdiv((long long)m * n, 4);
        cr_assert(k == 1 && track >= TRACK_SMALL_SHAPES && p->tiles == cdiv(quads, FLAT_THREADS) &&
                      p->blocks == (p->tiles < 2147483647LL ? p->tiles : 2147483647LL) && p->split == 1 &&
                      p->parts == 1 && p->runs == 0 && p->smem_bytes == 0 && p->workspace_bytes == 0,
                  "%s: C as one array, %lld blocks", where, p->blocks);
        cr_assert(p->blocks_per_sm >= 1 && p->blocks_per_sm * FLAT_THREADS <= dev.threads_sm &&
                      p->blocks_per_sm <= dev.blocks_sm, "%s: %d blocks an SM", where, p->blocks_per_sm);
        return;
    }
    cr_assert_eq(p->tiles, cdiv(m, t->bm) * cdiv(n, t->bn), "%s: tiles", where);
    /* B's copies: 16 bytes where N % 4 == 0, 8 where N is even (at TRACK_STAGES, --unroll not no), else 4 */
    cr_assert_eq(p->vec, n % 4 == 0 ? 16 : n % 2 == 0 && p->stages == TRACK_STAGES && unroll != UNROLL_NO ? 8 : 4,
                 "%s: %d-byte copies of B", where, p->vec);
    cr_assert_eq(p->k_tiles, cdiv(k, t->bk), "%s: k-tiles", where);
    /* every tile of C has its blocks, in the first launch or in the runs */
    if (p->runs == 0) {
        cr_assert_eq(p->blocks, p->tiles * p->split * p->parts, "%s: blocks", where);
        cr_assert_eq(p->counts, 0, "%s: counts without runs", where);
    } else {
        cr_assert(p->kernel == KERNEL_WIDE && track >= TRACK_STREAM_K && p->stages == TRACK_STAGES, "%s: runs", where);
        long long left = p->tiles - p->blocks;
        cr_assert(left > 0 && left < dev.sms && p->blocks % dev.sms == 0 && p->blocks > 0,
                  "%s: %lld tiles left after %lld", where, left, p->blocks);
        cr_assert(p->runs <= dev.sms && p->runs <= left * MAX_PIECES && p->runs >= left,
                  "%s: %d runs for %lld tiles", where, p->runs, left);
        cr_assert_geq(p->counts, left, "%s: a count for each left-over tile", where);
        /* run r's piece of left-over tile t has slot r + t */
        cr_assert_geq(p->workspace_bytes, (size_t)(p->runs + left) * t->bm * t->bn * sizeof(float),
                      "%s: slots", where);
    }
    /* K in parts: at TRACK_STAGES (the kernels built), warp tiles in parts of 8 k-tiles or
       more, or wide tiles in their lean loop in parts of 64 or more; K whole otherwise,
       all the blocks at once, a slice of the workspace for each part */
    cr_assert_geq(p->parts, 1, "%s: parts", where);
    if (p->parts > 1) {
        int wide = p->kernel == KERNEL_WIDE;
        cr_assert((p->kernel == KERNEL_WARP || (wide && p->tile == TILE_WIDE && p->loop == LOOP_LEAN)) &&
                      track >= TRACK_SMALL_SHAPES && p->stages == TRACK_STAGES && p->split == 1 && p->runs == 0 &&
                      p->k_tiles >= (wide ? 64LL : 8LL) * p->parts,
                  "%s: %d parts", where, p->parts);
        cr_assert_leq(p->blocks, (long long)dev.sms * p->blocks_per_sm, "%s: parts' blocks", where);
        cr_assert_geq(p->workspace_bytes, (size_t)p->parts * SLICE_FLOATS(m, n) * sizeof(float),
                      "%s: workspace", where);
    }
    /* the parts' second kernel launched early (it waits for the first) only where there is one, on a device and
       binary of sm_90 on: where clusters are */
    cr_assert_eq(p->early, dev.clusters && p->parts > 1 && p->kernel != KERNEL_FEW, "%s: early", where);
    /* the skinny shapes' tiles: through TRACK_STAGES unrolled; 32 x 128 with K in parts
       only (128 x 64 and 128 x 32 with K whole too) */
    if (p->tile == TILE_TALL || p->tile == TILE_SHORT || p->tile == TILE_NARROW)
        cr_assert((p->parts > 1 || p->tile != TILE_SHORT) && p->stages == TRACK_STAGES && p->loop == LOOP_UNROLLED &&
                      unroll != UNROLL_NO, "%s: tile %dx%d", where, t->bm, t->bn);
    /* the first launch's grid (x) holds at most 2^31 - 1 blocks */
    cr_assert(p->blocks > 0 && p->blocks <= 2147483647LL, "%s: %lld blocks", where, p->blocks);
    /* K is split only over a cluster, and only where the device and binary have them */
    cr_assert(p->split == 1 || (dev.clusters && track >= TRACK_SPLIT_K && p->split <= MAX_SPLIT &&
                               t->bm % p->split == 0),
              "%s: split %d", where, p->split);
    /* each share of K has at least 32 of it */
    cr_assert(p->split == 1 || k >= p->split * 32, "%s: split %d of K %d", where, p->split, k);
    /* the parts of the track in use */
    cr_assert(track >= TRACK_WIDE_TILES || p->kernel != KERNEL_WIDE, "%s: kernel", where);
    /* the loop: lean only for wide tiles; rolled only when asked, with a ring */
    cr_assert((p->loop == LOOP_LEAN) == (p->kernel == KERNEL_WIDE && unroll != UNROLL_YES),
              "%s: loop", where);
    cr_assert((p->loop == LOOP_ROLLED) == (p->kernel != KERNEL_WIDE && unroll == UNROLL_NO &&
                                          stages > 1),
              "%s: loop", where);
    size_t stage = (size_t)t->bk * (t->bm + 4 + t->bn) * sizeof(float);
    cr_assert(p->stages >= 1 && p->stages <= stages, "%s: %d stages", where, p->stages);
    cr_assert_geq(p->smem_bytes, p->stages * stage, "%s: shared memory", where);
    /* the device's limits: a block's shared memory, and at least one block an SM
       by threads, registers (what __launch_bounds__ allows), shared memory and slots */
    cr_assert_leq(p->smem_bytes, (size_t)dev.smem_block, "%s: %zu bytes of shared memory", where,
                  p->smem_bytes);
    int regs = fit_bounded_regs(dev.regs_sm, t->threads, t->min_blocks);
    cr_assert(regs >= 64 && t->threads <= dev.threads_sm, "%s: registers %d", where, regs);
    int blocks = p->blocks_per_sm;
    cr_assert(blocks >= 1 && blocks <= dev.blocks_sm && blocks * t->threads <= dev.threads_sm &&
                  blocks * (p->smem_bytes + dev.smem_reserved) <= (size_t)dev.smem_sm &&
                  (long long)blocks * t->threads * ((regs + 7) / 8 * 8) <= dev.regs_sm,
              "%s: %d blocks an SM", where, blocks);
    /* a cluster of `split` blocks fits on one SM's worth of each of them */
    cr_assert(p->split == 1 || p->split <= 8, "%s: cluster of %d", where, p->split);}

/* The candidates --plan may name: every tile, K whole, split, in parts, the last wave in runs. */
static const char *const SHARES[] = {"", "/split2", "/split4", "/split8", "/runs", "/parts2", "/parts5", "/parts16",
                                     "/parts66"};
enum { N_SHARES = sizeof SHARES / sizeof SHARES[0] };

Test(plan, every_plan_covers_c_and_fits_the_device)
{
    int checked = 0, named = 0;
    for (int g = 0; g < N_GPUS; g++)
        for (int binary_clusters = 0; binary_clusters <= 1; binary_clusters++)
        for (int s = 0; s < N_SHAPES; s++)
            for (int track = TRACK_WARP_TILES; track < TRACK_PARTS; track++)   /* core: step6.cu's plan */
                for (int stages = 1; stages <= 4; stages++)
                    for (int unroll = UNROLL_AS_PLANNED; unroll <= UNROLL_YES; unroll++) {
                        const gpu *d = &GPUS[g];
                        if (d->sm < 80)
                            continue;   /* step 6 needs cp.async: sm_80 on */
                        /* a binary without sm_90 code has no clusters on any GPU (launch.cuh) */
                        plan_device dev = d->dev;
                        dev.clusters = dev.clusters && binary_clusters;
                        int m = SHAPES[s][0], n = SHAPES[s][1], k = SHAPES[s][2];
                        char where[200];
                        snprintf(where, sizeof where, "%s%s, %dx%dx%d, track %s, %d stages, unroll %d", d->name,
                                 binary_clusters ? "" : " (binary without cluster code)", m, n, k, TRACK_NAMES[track],
                                 stages, unroll);
                        track_plan p = track_plan_for(m, n, k, stages, track, unroll, &dev, NULL);
                        cr_assert(p.found && p.est_us > 0, "%s: no plan", where);
                        check_plan(&p, &dev, m, n, k, track, stages, unroll, where);
                        checked++;
                        if (stages != 3)
                            continue;
                        for (int t = 0; t < TILE_SHAPES; t++)   /* every candidate --plan may name */
                            for (int i = 0; i < N_SHARES; i++) {
                                char name[32], at[260];
                                snprintf(name, sizeof name, "%dx%d%s", TRACK_TILES[t].bm, TRACK_TILES[t].bn, SHARES[i]);
                                track_plan q = track_plan_for(m, n, k, stages, track, unroll, &dev, name);
                                if (!q.found)
                                    continue;
                                snprintf(at, sizeof at, "%s, --plan %s", where, name);
                                char got[32];
                                track_plan_name(&q, got, sizeof got);
                                cr_assert_str_eq(got, name, "%s", at);
                                cr_assert_geq(q.est_us, p.est_us, "%s: estimated below the choice", at);
                                check_plan(&q, &dev, m, n, k, track, stages, unroll, at);
                                named++;
                            }
                    }
    cr_assert_eq(checked, (N_GPUS - 1) * 2 * N_SHAPES * (TRACK_PARTS - 1) * 4 * 3);
    cr_log_info("%d plans and %d named candidates checked", checked, named);
}

/* Steps 3 to 5's tiles, from each built step's --describe ("tiles=128x128:256:2:8192:0,..."). */
static int step_tiles(const char *path, tile_option out[2], int *max_stages)
{
    const char *argv[] = {path, "--describe", NULL};
    proc_result r;
    int ok = run_process(argv, &r) == 0;
    const char *t = ok ? strstr(r.out, " tiles=") : NULL, *st = ok ? strstr(r.out, "max_stages=") : NULL;
    int got = 0;
    if (t && st && t[7] != '\n' && t[7] != '\0') {
        *max_stages = atoi(st + 11);
        got = sscanf(t + 7, "%dx%d:%d:%d:%zu:%zu,%dx%d:%d:%d:%zu:%zu", &out[0].bm, &out[0].bn, &out[0].threads,
                     &out[0].min_blocks, &out[0].smem, &out[0].smem_stage, &out[1].bm, &out[1].bn, &out[1].threads,
                     &out[1].min_blocks, &out[1].smem, &out[1].smem_stage) == 12;
    }
    proc_result_free(&r);
    return got;
}

/* Step 6 plans as step 5 does, with the k-tiles 8 deep that its --describe names. */
Test(plan, steps_3_to_6_choose_a_tile_and_stages_that_fit_every_gpu)
{
    static const char *const steps[] = {"./step3", "./step4", "./step5", "./step6"};
    int checked = 0, found = 0;
    for (int i = 0; i < 4; i++) {
        tile_option tiles[2];
        int max_stages = 0;
        if (access(steps[i], X_OK) != 0)
            continue;   /* not built for this ARCH (step 5 before sm_80): `make test` says so */
        found++;
        cr_assert(step_tiles(steps[i], tiles, &max_stages), "%s --describe names no tiles", steps[i]);
        for (int g = 0; g < N_GPUS; g++)
            for (int s = 0; s < N_SHAPES; s++)
                for (int stages = max_stages ? 1 : 0; stages <= max_stages; stages++) {
                    const gpu *d = &GPUS[g];
                    if (max_stages && d->sm < 80)
                        continue;   /* the pipelined step needs cp.async */
                    int m = SHAPES[s][0], n = SHAPES[s][1];
                    tile_plan p = fit_tiles(m, n, stages, tiles, 0, &d->dev);
                    const tile_option *t = &tiles[p.tile];
                    long long cover = cdiv(m, tiles[0].bm) * cdiv(n, tiles[0].bn);
                    char where[160];
                    snprintf(where, sizeof where, "%s on %s, %dx%d, %d stages", steps[i], d->name, m, n, stages);
                    cr_assert_eq(p.tile, cover >= d->dev.sms ? 0 : 1, "%s: tile", where);
                    cr_assert_eq(p.blocks, cdiv(m, t->bm) * cdiv(n, t->bn), "%s: blocks", where);
                    cr_assert(p.blocks <= 2147483647LL, "%s: grid", where);
                    cr_assert(stages == 0 ? p.stages == 0 : p.stages >= 1 && p.stages <= stages, "%s: stages", where);
                    size_t smem = t->smem + p.stages * t->smem_stage;
                    cr_assert_leq(smem, (size_t)d->dev.smem_block, "%s: shared memory", where);
                    cr_assert(p.blocks_per_sm >= 1 && p.blocks_per_sm * (smem + d->dev.smem_reserved) <=
                                                          (size_t)d->dev.smem_sm &&
                                  p.blocks_per_sm * t->threads <= d->dev.threads_sm,
                              "%s: %d blocks an SM", where, p.blocks_per_sm);
                    checked++;
                }
    }
    cr_assert(found > 0, "no step 3, 4, 5 or 6 is built: run `make all` first");
    cr_log_info("%d plans of steps 3 to 6 checked", checked);
}

/* Step 5's large tile at 4 stages asks for two blocks an SM: a 99 KiB GPU (sm_86, sm_89,
 * sm_120) holds one, and the kernel line must say so; a Hopper holds two. */
Test(plan, step_5_at_four_stages_holds_one_block_on_a_99_kib_gpu)
{
    /* step 5's large tile: 128 x 128, k-tiles 16 deep, A's rows padded by 4 */
    const tile_option tiles[2] = {{.bm = 128, .bn = 128, .threads = 256, .min_blocks = 2, .smem_stage = 16 * (128 + 4 + 128) * 4},
                                  {.bm = 64, .bn = 128, .threads = 128, .min_blocks = 4, .smem_stage = 16 * (64 + 4 + 128) * 4}};
    char line[128];
    tile_plan p = fit_tiles(4096, 4096, 4, tiles, 0, &GPUS[6].dev);   /* RTX 4090 */
    fit_describe_blocks(&p, 2, line, sizeof line);
    cr_expect_eq(p.blocks_per_sm, 1);
    cr_expect_str_eq(line, "1 block an SM (shared memory; 2 planned)");
    p = fit_tiles(4096, 4096, 3, tiles, 0, &GPUS[6].dev);
    cr_expect_eq(p.blocks_per_sm, 2, "3 stages: 2 x 49 KiB fit in 100 KiB");
    p = fit_tiles(4096, 4096, 4, tiles, 0, hopper());
    fit_describe_blocks(&p, 2, line, sizeof line);
    cr_expect_str_eq(line, "at least 2 blocks an SM (registers)");
}

Test(fit, blocks_per_sm_names_what_limits_them)
{
    const char *limit;
    block_need wide = {256, 255, 3 * 12416};
    cr_expect_eq(fit_blocks_per_sm(hopper(), &wide, &limit), 1);
    cr_expect_str_eq(limit, "registers");
    block_need small = {128, 40, 1024};
    cr_expect_eq(fit_blocks_per_sm(&GPUS[0].dev, &small, &limit), 8);   /* T4: 1024 threads */
    cr_expect_str_eq(limit, "threads");
    cr_expect_eq(fit_blocks_per_sm(hopper(), &small, &limit), 12);   /* 65536 / (40 x 128) = 12.8 */
    cr_expect_str_eq(limit, "registers");
    block_need too_big = {256, 128, 100 * 1024};
    cr_expect_eq(fit_blocks_per_sm(&GPUS[5].dev, &too_big, &limit), 0);
    cr_expect_str_eq(limit, "shared memory");
    cr_expect_eq(fit_bounded_regs(65536, 256, 2), 128);
    cr_expect_eq(fit_bounded_regs(65536, 256, 1), 255);
    cr_expect_eq(fit_bounded_regs(65536, 128, 3), 168);
    cr_expect_eq(fit_stages(&GPUS[5].dev, 0, 40 * 1024, 4), 2);
    cr_expect_eq(fit_stages(&GPUS[5].dev, 0, 100 * 1024, 4), 0);
}

/* SGEMM_PLAN_DEVICE: names and figures it takes, and what it refuses. */
Test(fit, a_smaller_device_is_read_from_its_description)
{
    plan_device d = *hopper();
    char why[256] = "";
    cr_assert(fit_shrink(&d, "sms=82 smem_block=99K,smem_sm=102400 threads_sm=1536 clusters=0", why, sizeof why), "%s",
              why);
    cr_expect(d.sms == 82 && d.smem_block == 99 * 1024 && d.smem_sm == 102400 && d.threads_sm == 1536 &&
              d.clusters == 0 && d.regs_sm == 65536);
    static const struct {
        const char *spec, *says;
    } bad[] = {
        {"sms=200", "more than this GPU has (132)"},
        {"smem=99K", "'smem' is not a limit a plan sees"},
        {"sms", "is not NAME=VALUE"},
        {"sms=0", "must be a positive number"},
        {"sms=12x", "must be a positive number"},
        {"clusters=2", "more than this GPU has (1)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        plan_device e = *hopper();
        cr_expect_not(fit_shrink(&e, bad[i].spec, why, sizeof why), "%s was taken", bad[i].spec);
        cr_expect(strstr(why, bad[i].says) != NULL, "%s: \"%s\"", bad[i].spec, why);
        cr_expect_eq(e.sms, 132, "a refused description leaves the limits alone");
    }
}

/* What the course measured on a 132-SM Hopper with the whole track (going_further/README.md,
 * "The whole track"): the plan must still choose it. */
Test(plan, the_course_sizes_on_a_132_sm_hopper)
{
    static const struct {
        int size;
        const char *line;
    } want[] = {
        {256, "64x64 tiles of 8x4 a thread in warps of 32x32, K split in 8 over a cluster"},
        {512, "64x64 tiles of 8x4 a thread in warps of 32x32, K split in 4 over a cluster"},
        {1024, "64x128 tiles of 8x8 a thread in warps of 32x64, K split in 4 over a cluster"},
        {2048, "128x256 tiles of 16x8 a thread in warps of 64x64, K whole, 3 stages, a lean loop"},
        {4096, "128x256 tiles of 16x8 a thread in warps of 64x64, K whole for 396 tiles, then 116 tiles in 132 runs"},
        {8192, "128x256 tiles of 16x8 a thread in warps of 64x64, K whole for 1980 tiles, then 68 tiles in 132 runs"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int s = want[i].size;
        track_plan p = track_plan_for(s, s, s, 3, TRACK_PARTS - 1, UNROLL_AS_PLANNED, hopper(), NULL);
        char line[256], without[256];
        track_plan_describe(&p, line, sizeof line);
        cr_expect(strncmp(line, want[i].line, strlen(want[i].line)) == 0, "%d: \"%s\", expected \"%s...\"", s, line,
                  want[i].line);
        /* No kernel of the small shapes' part is chosen here: at these sizes the whole track runs what
           --part stream-k runs (the lesson's stream-K chapter reads the whole track's row as it) */
        track_plan q = track_plan_for(s, s, s, 3, TRACK_STREAM_K, UNROLL_AS_PLANNED, hopper(), NULL);
        char chosen[32];
        track_plan_name(&p, chosen, sizeof chosen);
        track_plan_name(&q, without, sizeof without);
        cr_expect(strcmp(chosen, without) == 0 && p.est_us == q.est_us && p.loop == q.loop && p.vec == q.vec,
                  "%d: the whole track chose %s, --part stream-k %s", s, chosen, without);
    }
}

/* The estimate never falls as M, N or K grows: a candidate's at the larger size is at least
 * its estimate at the smaller, and so is the choice's as M or N grow (a larger C has no
 * candidate a smaller one lacks). A deeper K may let in a candidate a shallower one lacks (a
 * split needs 32 of K a share, a part 8 k-tiles), so there the choice may estimate less. One
 * step down is left out, as the time falls there too: from an N that B is copied a float at a
 * time at (N % 4 != 0) to a larger N it is copied in float4s at (plan.h, scalar_b; on an H100,
 * 2048 x 129 x 2048 takes longer than 2048 x 256 x 2048, and 64 x 129 x 4096 than 64 x 256 x 4096). */
Test(plan, the_estimate_grows_with_each_size)
{
    static const int SIZES[] = {1, 7, 64, 100, 129, 256, 500, 1000, 1500, 2048, 3000, 4096, 6000, 8192, 16384};
    enum { N = sizeof SIZES / sizeof SIZES[0] };
    int checked = 0;
    for (int g = 0; g < N_GPUS; g++) {
        if (GPUS[g].sm < 80)
            continue;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                for (int l = 0; l + 1 < N; l++) {
                    int a = SIZES[i], b = SIZES[j], lo = SIZES[l], hi = SIZES[l + 1];
                    const int dims[3][2][3] = {{{lo, a, b}, {hi, a, b}}, {{a, lo, b}, {a, hi, b}}, {{a, b, lo}, {a, b, hi}}};
                    for (int d = 0; d < 3; d++) {
                        const int *x = dims[d][0], *y = dims[d][1];
                        if (x[1] % 4 != 0 && y[1] % 4 == 0)
                            continue;
                        track_plan p = track_plan_for(x[0], x[1], x[2], 3, TRACK_WHOLE, UNROLL_AS_PLANNED, &GPUS[g].dev, NULL);
                        char name[32];
                        track_plan_name(&p, name, sizeof name);
                        track_plan q = track_plan_for(y[0], y[1], y[2], 3, TRACK_WHOLE, UNROLL_AS_PLANNED, &GPUS[g].dev,
                                                      d == 2 ? name : NULL);
                        if (!q.found)
                            continue;   /* not a candidate there: more blocks than fit at once */
                        cr_expect_leq(p.est_us, q.est_us * (1 + 1e-9), "%s: %dx%dx%d est. %.2f us, %dx%dx%d%s%s est. %.2f us",
                                      GPUS[g].name, x[0], x[1], x[2], p.est_us, y[0], y[1], y[2], d == 2 ? " as " : "",
                                      d == 2 ? name : "", q.est_us);
                        checked++;
                    }
                }
    }
    cr_log_info("%d pairs checked", checked);
}

/* Clusters only where the device launches them and the binary holds their code: the same
 * Hopper without them has no split among its candidates, chosen or runner-up, and a split
 * it is asked for by name is none of them. */
Test(plan, clusters_only_where_the_device_and_the_binary_have_them)
{
    plan_device none = *hopper();
    none.clusters = 0;
    int splits = 0;
    for (int s = 0; s < N_SHAPES; s++) {
        int m = SHAPES[s][0], n = SHAPES[s][1], k = SHAPES[s][2];
        track_plan p = track_plan_for(m, n, k, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(), NULL);
        track_plan q = track_plan_for(m, n, k, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, &none, NULL);
        splits += p.split > 1 || strstr(p.next, "split") != NULL;
        cr_expect(q.split == 1 && strstr(q.next, "split") == NULL, "%dx%dx%d without clusters: split %d, next %s", m,
                  n, k, q.split, q.next);
        q = track_plan_for(m, n, k, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, &none, "64x64/split2");
        cr_expect_not(q.found, "%dx%dx%d without clusters: 64x64/split2 was found", m, n, k);
    }
    cr_expect_gt(splits, 0, "no shape splits K on the Hopper: the test shows nothing");
    /* and a name the track does not have, or a part of it not in use */
    track_plan p = track_plan_for(4096, 4096, 4096, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(), "96x96");
    cr_expect_not(p.found);
    p = track_plan_for(4096, 4096, 4096, 3, TRACK_WIDE_TILES, UNROLL_AS_PLANNED, hopper(), "128x256/runs");
    cr_expect_not(p.found);
    p = track_plan_for(4096, 4096, 4096, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(), "128x256/runs");
    cr_expect(p.found && p.runs == 132);
}

/* The estimate's arithmetic (going_further/6_the_plan.md) where blocks come in rounds:
 * 4096 x 4096 x 4096 in 128 x 128 tiles, K whole, is 1024 blocks, 8 on the busiest SM,
 * 2 at a time, each 512 k-tiles deep; the rounds after the first overlap their fixed cost. */
Test(plan, the_estimate_is_the_lessons_arithmetic)
{
    track_plan p = track_plan_for(4096, 4096, 4096, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(), "128x128");
    const tile_costs *c = &PLAN_COSTS.tile[TILE_LARGE];
    double per_sm = 8, rounds = 4, depth = 512;
    double work = c->block_us + fmax(rounds * depth * c->k_tile_us[0] + (rounds - 1) * c->block_us,
                                     per_sm * depth * c->k_tile_us[1] / 2);
    double memory = 4.0 * 3 * 4096 * 4096 / PLAN_COSTS.bytes_per_us;
    cr_assert(p.found && p.blocks == 1024 && p.blocks_per_sm == 2);
    cr_expect_float_eq(p.est_us, PLAN_COSTS.launch_us + fmax(work, memory), 1e-9);
}

/* A tile's fixed cost is measured over a whole wave (a block an SM) and the launch holds a block of 64 x 64's start:
 * a grid short of a wave saves its share of 64 x 64's, the least. 33 blocks of 64 x 64 on 132 SMs, one each, pay a
 * quarter of it; 33 of 128 x 32 pay their own less three quarters of it. */
Test(plan, a_grid_short_of_a_wave_saves_its_share_of_the_fixed_cost)
{
    const double start = PLAN_COSTS.tile[TILE_SMALL].block_us;
    static const struct { const char *name; tile_id tile; int m, n; } grid[] = {
        {"64x64", TILE_SMALL, 64, 64 * 33}, {"128x32", TILE_NARROW, 128, 32 * 33}};
    for (int i = 0; i < 2; i++) {
        track_plan p = track_plan_for(grid[i].m, grid[i].n, 1024, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(),
                                      grid[i].name);
        const tile_costs *c = &PLAN_COSTS.tile[grid[i].tile];
        double m = grid[i].m, n = grid[i].n, memory = 4.0 * (m * 1024 + 1024 * n + m * n) / PLAN_COSTS.bytes_per_us;
        double work = c->block_us - 0.75 * start + p.k_tiles * c->k_tile_us[0];
        cr_assert(p.found && p.blocks == 33 && p.vec == 16, "%s", grid[i].name);
        cr_expect_float_eq(p.est_us, PLAN_COSTS.launch_us + fmax(work, memory), 1e-9, "%s: est. %.3f us", grid[i].name,
                           p.est_us);
    }
}

/* An SM goes at the pace of the blocks it holds at once, and each block of a split tile adds
 * up its share of the partial sums: at 512 in 64 x 64 tiles, K split in 4 is 256 blocks, 2
 * on the busiest SM, each 16 k-tiles deep; split in 8, 512 blocks, 4 on it, 8 deep. The
 * same k-tiles an SM, and the lesson's worked example. */
Test(plan, an_sm_goes_at_the_pace_of_the_blocks_it_holds)
{
    const tile_costs *c = &PLAN_COSTS.tile[TILE_SMALL];
    double share = PLAN_COSTS.cluster_us * 64 * 64 / 1024;
    static const struct { const char *name; int blocks, per_sm, depth; } split[] = {
        {"64x64/split4", 256, 2, 16}, {"64x64/split8", 512, 4, 8}};
    for (int i = 0; i < 2; i++) {
        track_plan p = track_plan_for(512, 512, 512, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(), split[i].name);
        double per_sm = split[i].per_sm, depth = split[i].depth;
        double work = c->block_us + fmax(depth * c->k_tile_us[0], depth * c->k_tile_us[split[i].per_sm - 1]) +
                      per_sm * share;
        cr_assert(p.found && p.blocks == split[i].blocks && p.blocks_per_sm == 4, "%s", split[i].name);
        cr_expect_float_eq(p.est_us, PLAN_COSTS.launch_us + work, 1e-9, "%s", split[i].name);
    }
}

/* K in parts (the lesson's 256 x 256 x 16384): 4 tiles of 128 x 128 in 66 parts, 264 blocks, 2 an SM, each
 * 2048 / 66 k-tiles deep. Memory carries A, B and each part's slice of C; then the second kernel: its start
 * (add_up_us, measured apart from a launch), every slice read and C written. */
Test(plan, k_in_parts_adds_the_second_kernel)
{
    track_plan p = track_plan_for(256, 256, 16384, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(), "128x128/parts66");
    const tile_costs *c = &PLAN_COSTS.tile[TILE_LARGE];
    double depth = 2048.0 / 66, mn = 256.0 * 256, bw = PLAN_COSTS.bytes_per_us;
    double work = c->block_us + fmax(depth * c->k_tile_us[0], 2 * depth * c->k_tile_us[1] / 2);
    double memory = 4.0 * (2 * 256.0 * 16384 + mn) / bw + 4.0 * mn * 65 / bw;
    cr_assert(p.found && p.tiles == 4 && p.parts == 66 && p.blocks == 264 && p.blocks_per_sm == 2);
    cr_expect_float_eq(p.est_us, PLAN_COSTS.launch_us + fmax(work, memory) + PLAN_COSTS.add_up_us + 4.0 * mn * 67 / bw,
                       1e-9);
    cr_expect_gt(PLAN_COSTS.add_up_us, 0, "the second kernel costs nothing");
}

/* plan_costs.h has a pace for every count of blocks an SM may hold of each tile (up to its
 * min_blocks, which the register bound makes the most), and more blocks at once never make
 * an SM's k-tile of each quicker than fewer. */
Test(plan, every_tile_has_a_pace_for_each_count_of_blocks)
{
    for (int t = 0; t < TILE_SHAPES; t++) {
        const tile_costs *c = &PLAN_COSTS.tile[t];
        cr_assert_leq(TRACK_TILES[t].min_blocks, MAX_RESIDENT, "tile %d", t);
        for (int b = 1; b <= TRACK_TILES[t].min_blocks; b++) {
            cr_expect_gt(c->k_tile_us[b - 1], 0, "tile %d, %d blocks: no pace", t, b);
            if (b > 1)
                cr_expect_geq(c->k_tile_us[b - 1], c->k_tile_us[b - 2], "tile %d: %d blocks quicker than %d", t, b,
                              b - 1);
        }
    }
}

/* Where memory sets the time, candidates tie: at 4096 x 4096 x 8 every warp tile with K
 * whole is estimated at A, B and C's traffic alone. On a tie the plan takes the one of most
 * blocks, which keep more loads in flight. */
Test(plan, on_a_tie_the_most_blocks)
{
    track_plan p = track_plan_for(4096, 4096, 8, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(), NULL);
    int ties = 0;
    for (const char *const *name = (const char *const[]){"128x128", "64x128", "64x64", NULL}; *name; name++) {
        track_plan q = track_plan_for(4096, 4096, 8, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(), *name);
        cr_assert(q.found, "%s", *name);
        cr_expect_geq(q.est_us, p.est_us, "%s estimates less than the choice", *name);
        if (q.est_us == p.est_us && q.blocks != p.blocks) {
            ties++;
            cr_expect_gt(p.blocks, q.blocks, "%s ties with the choice and has more blocks", *name);
        }
    }
    cr_expect_gt(ties, 0, "no candidate ties with the choice: the test shows nothing");
}

/* A few rows of C, estimated as going_further/6_the_plan.md says: each wave of blocks
 * waits on its busiest SM's blocks after the first and on its threads' rounds of loads (rows
 * of B in pairs), or on its share of memory; each later wave adds a round of loads; K in
 * parts adds a hand-over and the last block's rounds over the parts' sums. The arithmetic,
 * written out again here. */
static double few_rows_us(const track_plan *p, int m, int n, int k, const plan_device *d)
{
    double slots = (double)d->sms * p->blocks_per_sm, waves = ceil(p->blocks / slots);
    double per_sm = fmin(p->blocks_per_sm, ceil((double)p->blocks / d->sms));
    double rows = ceil(ceil((double)k / p->parts) / (FEW_THREADS(m) / p->lanes)), later = waves - 1;
    double r = PLAN_COSTS.few_round_us + m * PLAN_COSTS.few_row_us;
    double wave = (per_sm - 1) * PLAN_COSTS.few_block_us + ceil(rows / 2) * r;
    double memory = 4.0 * ((double)m * k + (double)k * n + (double)m * n) / PLAN_COSTS.bytes_per_us;
    int groups = FEW_THREADS(m) / (m * p->lanes);   /* threads a cell of sums, in the last block */
    double sums = p->parts > 1 ? PLAN_COSTS.few_sum_us + r * ceil(p->parts / (8.0 * groups)) : 0.0;
    return PLAN_COSTS.launch_us + waves * fmax(wave, memory * fmin(1.0, slots / p->blocks)) + sums +
           later * r;
}

/* 2 x 18 x 11999 on an H100: 18 columns in 5 float4s, so 8 lanes (32 columns) a block and
 * one column of blocks. K whole, a block's threads would read 375 rows of B each, 188 rounds
 * of loads one after another; in parts, a few each. The choice is the least of every count
 * offered, each estimated as above; K whole is a candidate (--plan few-rows) and costs more.
 * Not at M = 9, nor where the track stops before its last part. */
Test(plan, a_few_rows_of_c_take_k_in_the_parts_of_least_estimate)
{
    const plan_device *h = hopper();
    track_plan p = track_plan_for(2, 18, 11999, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, h, NULL);
    cr_assert(p.kernel == KERNEL_FEW && p.lanes == 8 && p.tiles == 1 && p.parts > 1 && p.blocks == p.parts && p.vec == 4,
              "2x18x11999: kernel %d, %d lanes, %lld tiles, %d parts", p.kernel, p.lanes, p.tiles, p.parts);
    cr_expect_float_eq(p.est_us, few_rows_us(&p, 2, 18, 11999, h), 1e-9, "est. %.3f us", p.est_us);
    cr_expect_geq(p.workspace_bytes, (size_t)p.parts * 2 * 8 * 16, "a slot of 2 x 8 float4s a part");
    cr_expect_eq(p.counts, 1, "a count for its one column of blocks");
    int offered = 0;
    for (int parts = 1; parts <= MAX_PARTS; parts++) {
        char name[32];
        snprintf(name, sizeof name, parts == 1 ? "few-rows" : "few-rows/parts%d", parts);
        track_plan q = track_plan_for(2, 18, 11999, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, h, name);
        if (!q.found)
            continue;
        offered++;
        cr_expect(q.kernel == KERNEL_FEW && q.parts == parts, "%s", name);
        cr_expect_float_eq(q.est_us, few_rows_us(&q, 2, 18, 11999, h), 1e-9, "%s", name);
        cr_expect_geq(q.est_us, p.est_us, "%s (est. %.2f us) below the choice (%.2f)", name, q.est_us, p.est_us);
        if (parts == 1)
            cr_expect_gt(q.est_us, 10 * p.est_us, "K whole: 188 rounds, est. %.1f us", q.est_us);
    }
    cr_expect_gt(offered, 16, "%d counts of parts offered", offered);
    char line[256];
    track_plan_describe(&p, line, sizeof line);
    cr_expect(strstr(line, "a block of 256 threads 32 columns of C") && strstr(line, "parts, added up by the last block") &&
              strstr(line, "4-byte pieces") && strstr(line, "blocks an SM"), "%s", line);
    /* 8 x 32768 x 64: 512 blocks of 64 columns with K whole, 3 an SM (396 slots): two waves of two rounds, and the
       second wave's first round */
    p = track_plan_for(8, 32768, 64, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, h, "few-rows");
    cr_expect(p.found && p.lanes == 16 && p.tiles == 512 && p.blocks_per_sm == 3, "8x32768x64: %d lanes, %d an SM", p.lanes,
              p.blocks_per_sm);
    cr_expect_float_eq(p.est_us, few_rows_us(&p, 8, 32768, 64, h), 1e-9, "8x32768x64 est. %.2f us", p.est_us);
    cr_expect_geq(p.est_us, PLAN_COSTS.launch_us + 2 * (2 * PLAN_COSTS.few_block_us + 2 * PLAN_COSTS.few_round_us) +
                  PLAN_COSTS.few_round_us - 1e-9, "two waves of three blocks an SM, two rounds each");
    /* K of 4: not a row of B for each of a block's 512 threads, so K whole only */
    p = track_plan_for(1, 1, 4, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, h, "few-rows/parts2");
    cr_expect_not(p.found, "1x1x4 in 2 parts");
    p = track_plan_for(FEW_MAX_M + 1, 18, 11999, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, h, "few-rows");
    cr_expect_not(p.found, "M = %d has few-rows", FEW_MAX_M + 1);
    p = track_plan_for(2, 18, 11999, 3, TRACK_WIDE_TILES, UNROLL_AS_PLANNED, h, "few-rows");
    cr_expect_not(p.found, "--track wide-tiles has few-rows");
}

/* C of one column (N = 1): lanes threads a row of A, a float4 of K each (up to the block of
 * 256), estimated as a bare launch (plan.h) and A, b and C read or written once at the memory's pace
 * (going_further/5_small_shapes.md); not where N > 1 or the track stops before its
 * last part. */
Test(plan, a_column_of_c_reads_a_once_by_rows)
{
    const plan_device *h = hopper();
    track_plan p = track_plan_for(4096, 1, 16384, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, h, NULL);
    cr_assert(p.kernel == KERNEL_ROWS && p.lanes == 256 && p.blocks == 4096 && p.vec == 16, "4096x1x16384: kernel %d",
              p.kernel);
    double want = PLAN_COSTS.bare_launch_us + 4.0 * (4096.0 * 16384 + 16384 + 4096) / PLAN_COSTS.bytes_per_us;
    cr_expect_float_eq(p.est_us, want, 1e-9, "est. %.3f us, want %.3f", p.est_us, want);
    char line[256];
    track_plan_describe(&p, line, sizeof line);
    cr_expect(strstr(line, "256 threads a row of A") && strstr(line, "16-byte pieces"), "%s", line);
    p = track_plan_for(4097, 1, 4099, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, h, "rows");
    cr_expect(p.found && p.kernel == KERNEL_ROWS && p.vec == 4, "4097x1x4099: A in 4-byte pieces");
    /* a short row: a warp a row at 1631 x 1 x 75 (19 float4s), 8 rows a block; a thread a row at K = 1 */
    static const int shorts[][4] = {{1631, 75, 32, 204}, {4096, 512, 128, 2048}, {5371, 10, 4, 84}, {6295, 1, 1, 25}};
    for (size_t i = 0; i < sizeof shorts / sizeof shorts[0]; i++) {
        const int *x = shorts[i];
        p = track_plan_for(x[0], 1, x[1], 3, TRACK_WHOLE, UNROLL_AS_PLANNED, h, NULL);
        cr_expect(p.kernel == KERNEL_ROWS && p.lanes == x[2] && p.blocks == x[3], "%dx1x%d: kernel %d, %d lanes, %lld "
                  "blocks, want %d and %d", x[0], x[1], p.kernel, p.lanes, p.blocks, x[2], x[3]);
    }
    track_plan_describe(&p, line, sizeof line);
    cr_expect(strstr(line, "1 thread a row of A") == line && strstr(line, "4-byte pieces"), "%s", line);
    p = track_plan_for(4096, 2, 16384, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, h, "rows");
    cr_expect_not(p.found, "N = 2 has rows");
    p = track_plan_for(4096, 1, 16384, 3, TRACK_WIDE_TILES, UNROLL_AS_PLANNED, h, "rows");
    cr_expect_not(p.found, "--track wide-tiles has rows");
}

/* C of K = 1 (an outer product): a float4 of C a thread, C as one array, estimated as a launch
 * without tiles (plan.h) and A, B and C moved once (going_further/5_small_shapes.md).
 * Not at K = 2, nor where the track stops before its last part. */
Test(plan, k_of_one_writes_c_as_one_array)
{
    const plan_device *h = hopper();
    track_plan p = track_plan_for(4714, 6189, 1, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, h, NULL);
    cr_assert(p.kernel == KERNEL_FLAT && p.tiles == 28492 && p.blocks == 28492, "4714x6189x1: kernel %d, %lld blocks",
              p.kernel, p.blocks);
    double want = PLAN_COSTS.bare_launch_us + 4.0 * (4714.0 + 6189.0 + 4714.0 * 6189) / PLAN_COSTS.bytes_per_us;
    cr_expect_float_eq(p.est_us, want, 1e-9, "est. %.3f us, want %.3f", p.est_us, want);
    char line[256];
    track_plan_describe(&p, line, sizeof line);
    cr_expect(strstr(line, "a float4 of C a thread, C as one array; est.") == line, "%s", line);
    p = track_plan_for(4714, 6189, 2, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, h, "flat");
    cr_expect_not(p.found, "K = 2 has flat");
    p = track_plan_for(4714, 6189, 1, 3, TRACK_WIDE_TILES, UNROLL_AS_PLANNED, h, "flat");
    cr_expect_not(p.found, "--track wide-tiles has flat");
}

/* Blocks that all start at once do not land evenly (plan.h, SPREAD): at 896 in 64 x 128
 * tiles with K split in 4, 392 blocks (2.97 an SM) count as 4 on the busiest SM, each 28
 * k-tiles deep; where they come in rounds (4096 above) the count is ceil(blocks / SMs). */
Test(plan, blocks_that_start_at_once_count_unevenly)
{
    track_plan p = track_plan_for(896, 896, 896, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(), "64x128/split4");
    const tile_costs *c = &PLAN_COSTS.tile[TILE_MID];
    double per_sm = 4, depth = 28;
    double work = c->block_us + fmax(depth * c->k_tile_us[0], depth * c->k_tile_us[3]) +
                  per_sm * PLAN_COSTS.cluster_us * 64 * 128 / 1024;
    cr_assert(p.found && p.blocks == 392 && p.blocks_per_sm == 4);
    cr_expect_float_eq(p.est_us, PLAN_COSTS.launch_us + work, 1e-9);
}

/* Without clusters (an A100, an RTX 4090, a Hopper running a binary without sm_90 code) the
 * small and skinny shapes with a deep K put it in parts rather than leave most SMs idle; a
 * column of C (N = 1) is read a row of A a block, a block for each of its 4096 rows, a few
 * columns (8192 x 16) COL_ROWS rows a block, more blocks than SMs, and a row (1 x 4096) may
 * keep K whole in 128 blocks of 32 columns, more than half the SMs. */
Test(plan, without_clusters_small_and_skinny_shapes_take_k_in_parts)
{
    static const int shapes[][3] = {{300, 200, 2049}, {2049, 18, 2049}, {1, 4096, 4096}, {4096, 1, 4096},
                                    {64, 64, 65536}, {16, 8192, 8192}, {8192, 16, 8192}};
    plan_device none = *hopper();
    none.clusters = 0;
    const plan_device *devs[] = {&GPUS[3].dev, &GPUS[6].dev, &none};   /* A100 80 GB, RTX 4090 */
    const char *names[] = {GPUS[3].name, GPUS[6].name, "Hopper without clusters"};
    for (size_t d = 0; d < sizeof devs / sizeof devs[0]; d++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            const int *x = shapes[s];
            track_plan p = track_plan_for(x[0], x[1], x[2], 3, TRACK_WHOLE, UNROLL_AS_PLANNED, devs[d], NULL);
            char name[32];
            track_plan_name(&p, name, sizeof name);
            int column = (x[1] == 1 && p.kernel == KERNEL_ROWS && p.blocks == x[0]) ||
                         (p.kernel == KERNEL_COLS && p.blocks > devs[d]->sms) ||
                         (p.kernel == KERNEL_FEW && p.blocks > devs[d]->sms / 2);
            cr_expect(column || (p.parts > 1 && p.tiles * p.parts > devs[d]->sms / 2), "%s, %dx%dx%d: %s", names[d],
                      x[0], x[1], x[2], name);
        }
}

/* The kernel line says what the plan chose, and its width of B's copies follows N, then its
 * estimate. */
static void expect_line(const char *line, const char *want)
{
    size_t n = strlen(want);
    cr_expect(strncmp(line, want, n) == 0 && strncmp(line + n, "; est. ", 7) == 0, "\"%s\", expected \"%s; est. ...\"",
              line, want);
}

Test(plan, the_kernel_line_names_tile_split_runs_loop_and_copies)
{
    char line[256];
    track_plan p = track_plan_for(1000, 998, 601, 2, TRACK_SPLIT_K, UNROLL_NO, hopper(), "64x128/split4");
    track_plan_describe(&p, line, sizeof line);
    expect_line(line, "64x128 tiles of 8x8 a thread in warps of 32x64, K split in 4 over a cluster, 2 stages, "
                           "the stage loop rolled, B copied and C stored in 4-byte pieces, at least 4 blocks an SM (registers)");
    p = track_plan_for(1000, 998, 601, 3, TRACK_SPLIT_K, UNROLL_AS_PLANNED, hopper(), "64x128/split4");
    track_plan_describe(&p, line, sizeof line);
    expect_line(line, "64x128 tiles of 8x8 a thread in warps of 32x64, K split in 4 over a cluster, 3 stages, "
                           "the stage loop unrolled, B copied in 8-byte and C stored in 4-byte pieces, at least 4 blocks "
                           "an SM (registers)");
    p = track_plan_for(129, 127, 33, 1, TRACK_WARP_TILES, UNROLL_AS_PLANNED, hopper(), "64x128");
    track_plan_describe(&p, line, sizeof line);
    expect_line(line, "64x128 tiles of 8x8 a thread in warps of 32x64, K whole, one stage, B copied and C stored "
                           "in 4-byte pieces, at least 4 blocks an SM (registers)");
    p = track_plan_for(256, 256, 16384, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(), "128x128/parts66");
    track_plan_describe(&p, line, sizeof line);
    expect_line(line, "128x128 tiles of 8x8 a thread in warps of 32x64, K in 66 parts a tile, added up by a "
                           "second kernel launched early, 3 stages, the stage loop unrolled, B copied and C stored in "
                           "16-byte pieces, at least 2 blocks an SM (registers)");
    cr_expect_eq(p.blocks, 4 * 66);
    cr_expect_eq(p.workspace_bytes, (size_t)66 * 256 * 256 * sizeof(float));
    /* 13 x 1907 = 24791 floats a part: each slice padded to 24792, so that every one starts a float4 */
    p = track_plan_for(13, 1907, 5074, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(), "32x128/parts16");
    cr_expect_eq(p.parts, 16);
    cr_expect_eq(p.workspace_bytes, (size_t)16 * 24792 * sizeof(float));
    p = track_plan_for(256, 256, 65536, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, hopper(), "128x256/parts66");
    track_plan_describe(&p, line, sizeof line);
    expect_line(line, "128x256 tiles of 16x8 a thread in warps of 64x64, K in 66 parts a tile, added up by a "
                           "second kernel launched early, 3 stages, a lean loop, B copied and C stored in 16-byte pieces, "
                           "at least 1 block an SM (registers)");
    cr_expect_eq(p.blocks, 2 * 66);
    /* --unroll yes has no wide tiles in parts (their lean loop only) */
    p = track_plan_for(256, 256, 65536, 3, TRACK_WHOLE, UNROLL_YES, hopper(), "128x256/parts66");
    cr_expect_not(p.found);
    p = track_plan_for(256, 256, 65536, 3, TRACK_WHOLE, UNROLL_YES, hopper(), "128x128/parts66");
    cr_expect(p.kernel == KERNEL_WARP && p.tile == TILE_LARGE && p.parts == 66 && p.loop == LOOP_UNROLLED);
    p = track_plan_for(2047, 2500, 1001, 3, TRACK_WHOLE, UNROLL_YES, hopper(), "128x256/runs");
    track_plan_describe(&p, line, sizeof line);
    expect_line(line, "128x256 tiles of 16x8 a thread in warps of 64x64, K whole for 132 tiles, then 28 tiles in "
                           "112 runs of k-tiles, 3 stages, the stage loop unrolled, B copied and C stored in 16-byte "
                           "pieces, at least 1 block an SM (registers)");
}

/* K in parts, the runs and the skinny shapes' tiles are built for TRACK_STAGES alone (plan.h): at
 * every other stage count none of them is a candidate, even by name. */
Test(plan, parts_runs_and_skinny_tiles_only_at_the_tracks_stages)
{
    static const struct {
        const char *name;
        int m, n, k;
    } built[] = {{"128x256/runs", 2047, 2500, 1001}, {"128x128/parts66", 256, 256, 65536},
                 {"128x256/parts66", 256, 256, 65536}, {"128x64", 8192, 64, 65536}, {"128x32", 8192, 32, 65536}};
    for (int stages = 1; stages <= 4; stages++)
        for (size_t i = 0; i < sizeof built / sizeof built[0]; i++) {
            track_plan p = track_plan_for(built[i].m, built[i].n, built[i].k, stages, TRACK_WHOLE,
                                          UNROLL_AS_PLANNED, hopper(), built[i].name);
            cr_expect_eq(p.found, stages == TRACK_STAGES, "%s at %d stages: %s", built[i].name, stages,
                         p.found ? "a candidate" : "none");
        }
}

/* track_plan_candidates lists what --plan can name, each name once: every name it gives is a
 * candidate of that name, the plan's own choice is among them, and so is every name of a tile
 * and a way of sharing K that track_plan_for finds (the GPU suite runs each listed one). */
Test(plan, the_candidates_listed_are_those_plan_can_name)
{
    static char names[2048][32];
    const plan_device *h = hopper();
    for (int s = 0; s < N_SHAPES; s++)
        for (int stages = 1; stages <= 4; stages++) {
            int m = SHAPES[s][0], n = SHAPES[s][1], k = SHAPES[s][2];
            int count = track_plan_candidates(m, n, k, stages, TRACK_WHOLE, UNROLL_AS_PLANNED, h, names, 2048);
            cr_assert(count > 0 && count <= 2048, "%dx%dx%d, %d stages: %d candidates", m, n, k, stages, count);
            for (int i = 0; i < count; i++) {
                track_plan q = track_plan_for(m, n, k, stages, TRACK_WHOLE, UNROLL_AS_PLANNED, h, names[i]);
                char got[32];
                track_plan_name(&q, got, sizeof got);
                cr_assert(q.found && strcmp(got, names[i]) == 0, "%dx%dx%d, %d stages: %s listed, not found",
                          m, n, k, stages, names[i]);
                for (int j = 0; j < i; j++)
                    cr_assert_str_neq(names[j], names[i], "%dx%dx%d: %s listed twice", m, n, k, names[i]);
            }
            track_plan p = track_plan_for(m, n, k, stages, TRACK_WHOLE, UNROLL_AS_PLANNED, h, NULL);
            char choice[32];
            track_plan_name(&p, choice, sizeof choice);
            int listed = 0;
            for (int i = 0; i < count; i++)
                listed |= strcmp(names[i], choice) == 0;
            cr_assert(listed, "%dx%dx%d, %d stages: the choice %s is not listed", m, n, k, stages, choice);
            for (int t = 0; t < TILE_SHAPES; t++)
                for (int i = 0; i < N_SHARES; i++) {
                    char name[32];
                    snprintf(name, sizeof name, "%dx%d%s", TRACK_TILES[t].bm, TRACK_TILES[t].bn, SHARES[i]);
                    if (!track_plan_for(m, n, k, stages, TRACK_WHOLE, UNROLL_AS_PLANNED, h, name).found)
                        continue;
                    int found = 0;
                    for (int j = 0; j < count; j++)
                        found |= strcmp(names[j], name) == 0;
                    cr_assert(found, "%dx%dx%d, %d stages: %s is a candidate, not listed", m, n, k, stages, name);
                }
        }
}

/* --plan NAME names a candidate of the track's plan: a tile, and how K is shared, or one of
 * the kernels without a tile (rows, few-cols, few-rows and few-rows in parts, flat). The
 * harness checks its form with track_plan_name_check before any CUDA call; whether it is a
 * candidate of the problem is the plan's to say (track_plan_for's `found`). */
Test(plan, a_plan_name_is_checked_before_the_run)
{
    char why[256];
    static const char *const good[] = {"128x128", "64x128/split4", "128x64/parts12", "128x256/runs", "rows", "few-cols",
                                       "few-rows", "few-rows/parts2", "few-rows/parts218", "flat"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        cr_expect_eq(track_plan_name_check(good[i], why, sizeof why), 0, "'%s' was refused: %s", good[i], why);
    static const char *const bad[] = {"", "128", "128x", "x128", "128x128/", "128x128/split", "128x128/split1",
                                      "128x128/parts2x", "128x128/run", "0x128", "128x128/splits4",
                                      "123456789x1234567890/parts2", "row", "few-rows/parts1", "few-rows/split2",
                                      "few-rows/runs", "few-rows/", "few-rows-", "few-rows/parts2x", "flat/parts2",
                                      "64x64/split 4", "+64x64", "64x64/parts+8", "rows/runs"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_neq(track_plan_name_check(bad[i], why, sizeof why), 0, "'%s' was taken", bad[i]);
        cr_expect(strstr(why, "is not a candidate's name (TILE, TILE/splitS, TILE/partsP or TILE/runs") == why,
                  "'%s': %s", bad[i], why);
    }
}
