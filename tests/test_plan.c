/* test_plan.c - step 6's launch plan (step6_unroll/plan.c), without a GPU.
 *
 * The plan is a function of the problem and of two properties of the device (its SM
 * count, and whether it launches clusters with code for them in the binary): every GPU of
 * the table below gets every track part, stage count and shape family, and each plan must
 * cover C, launch what the grid allows, split K only with clusters, and fit its workspace. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "plan.h"

typedef struct {
    const char *name;
    plan_device dev;
} gpu;

/* SM counts from the vendors' specifications; clusters need compute capability 9.0 or
 * newer (CUDA Programming Guide, "Thread Block Clusters"). */
static const gpu GPUS[] = {
    {"Tesla T4 (sm_75)", {40, 0}},          {"A100 (sm_80)", {108, 0}},
    {"RTX 3090 (sm_86)", {82, 0}},          {"RTX 4090 (sm_89)", {128, 0}},
    {"H100 PCIe (sm_90)", {114, 1}},        {"H100 SXM / H200 (sm_90)", {132, 1}},
    {"B200 (sm_100)", {148, 1}},            {"H100 SXM, binary without sm_90 code", {132, 0}},
};
enum { N_GPUS = sizeof GPUS / sizeof GPUS[0] };

/* Squares, odd sizes, skinny, deep K: the shape families. */
static const int SHAPES[][3] = {
    {1, 1, 1},       {7, 13, 5},       {129, 127, 33},   {256, 256, 256},   {512, 512, 512},
    {1000, 998, 601}, {1024, 1024, 1024}, {1500, 1500, 1500}, {2048, 2048, 2048}, {2047, 2500, 3},
    {4096, 4096, 4096}, {8192, 8192, 8192}, {16, 4096, 4096}, {4096, 16, 4096}, {256, 256, 65536},
    {1073741824, 1, 1}, {1, 1073741824, 1},
};
enum { N_SHAPES = sizeof SHAPES / sizeof SHAPES[0] };

static long long cdiv(long long a, long long b) { return (a + b - 1) / b; }

Test(plan, every_plan_covers_c_and_fits_the_device)
{
    int checked = 0;
    for (int g = 0; g < N_GPUS; g++)
        for (int s = 0; s < N_SHAPES; s++)
            for (int track = 0; track < TRACK_PARTS; track++)
                for (int stages = 1; stages <= 4; stages++)
                    for (int unroll = UNROLL_AS_PLANNED; unroll <= UNROLL_YES; unroll++) {
                        const gpu *d = &GPUS[g];
                        int m = SHAPES[s][0], n = SHAPES[s][1], k = SHAPES[s][2];
                        step6_plan p = step6_plan_for(m, n, k, stages, track, unroll, &d->dev);
                        const tile_shape *t = &TILES[p.tile];
                        char where[160];
                        snprintf(where, sizeof where, "%s, %dx%dx%d, track %s, %d stages, unroll %d", d->name, m, n,
                                 k, TRACK_NAMES[track], stages, unroll);
                        cr_assert_eq(p.tiles, cdiv(m, t->bm) * cdiv(n, t->bn), "%s: tiles", where);
                        cr_assert_eq(p.k_tiles, cdiv(k, t->bk), "%s: k-tiles", where);
                        /* every tile of C has its blocks, in the first launch or in the runs */
                        if (p.runs == 0)
                            cr_assert_eq(p.blocks, p.tiles * p.split, "%s: blocks", where);
                        else {
                            cr_assert(p.kernel == KERNEL_WIDE && track >= TRACK_STREAM_K, "%s: runs", where);
                            long long left = p.tiles - p.blocks;
                            cr_assert(left > 0 && left < d->dev.sms && p.blocks % d->dev.sms == 0 && p.blocks > 0,
                                      "%s: %lld tiles left after %lld", where, left, p.blocks);
                            cr_assert(p.runs <= d->dev.sms && p.runs <= left * MAX_PIECES && p.runs >= left,
                                      "%s: %d runs for %lld tiles", where, p.runs, left);
                            cr_assert_geq(p.workspace_bytes,
                                          p.slots_bytes + (size_t)left * sizeof(int), "%s: workspace", where);
                            /* run r's piece of left-over tile t has slot r + t */
                            cr_assert_geq(p.slots_bytes, (size_t)(p.runs + left) * t->bm * t->bn * sizeof(float),
                                          "%s: slots", where);
                        }
                        /* the first launch's grid (x) holds at most 2^31 - 1 blocks */
                        cr_assert(p.blocks > 0 && p.blocks <= 2147483647LL, "%s: %lld blocks", where, p.blocks);
                        /* K is split only over a cluster, and only where the device and binary have them */
                        cr_assert(p.split == 1 || (d->dev.clusters && track >= TRACK_SPLIT_K && p.split <= MAX_SPLIT &&
                                                   t->bm % p.split == 0),
                                  "%s: split %d", where, p.split);
                        /* each share of K has at least 32 of it */
                        cr_assert(p.split == 1 || k >= p.split * 32, "%s: split %d of K %d", where, p.split, k);
                        /* the parts of the track in use */
                        cr_assert(track >= TRACK_WARP_TILES || p.kernel == KERNEL_CORE, "%s: kernel", where);
                        cr_assert(track >= TRACK_WIDE_TILES || p.kernel != KERNEL_WIDE, "%s: kernel", where);
                        /* the loop: lean only for wide tiles; rolled only when asked, with a ring */
                        cr_assert((p.loop == LOOP_LEAN) == (p.kernel == KERNEL_WIDE && unroll != UNROLL_YES),
                                  "%s: loop", where);
                        cr_assert((p.loop == LOOP_ROLLED) == (p.kernel != KERNEL_WIDE && unroll == UNROLL_NO &&
                                                              stages > 1),
                                  "%s: loop", where);
                        size_t stage = (size_t)t->bk * (t->bm + 4 + t->bn) * sizeof(float);
                        cr_assert_geq(p.smem_bytes, stages * stage, "%s: shared memory", where);
                        checked++;
                    }
    cr_assert_eq(checked, N_GPUS * N_SHAPES * TRACK_PARTS * 4 * 3);
}

/* What the course measured on a 132-SM Hopper with the whole track (README, step 6): the
 * plan must still choose it. */
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
    const plan_device hopper = {132, 1};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int s = want[i].size;
        step6_plan p = step6_plan_for(s, s, s, 3, TRACK_PARTS - 1, UNROLL_AS_PLANNED, &hopper);
        char line[256];
        step6_plan_describe(&p, line, sizeof line);
        cr_expect(strncmp(line, want[i].line, strlen(want[i].line)) == 0, "%d: \"%s\", expected \"%s...\"", s, line,
                  want[i].line);
    }
    /* the core alone: step 5's rule, 128 x 128 when they cover the SMs */
    step6_plan p = step6_plan_for(1024, 1024, 1024, 3, TRACK_CORE, UNROLL_AS_PLANNED, &hopper);
    cr_expect(p.kernel == KERNEL_CORE && p.tile == TILE_CORE_SMALL && p.loop == LOOP_UNROLLED);
    p = step6_plan_for(2048, 2048, 2048, 3, TRACK_CORE, UNROLL_NO, &hopper);
    cr_expect(p.kernel == KERNEL_CORE && p.tile == TILE_CORE_LARGE && p.loop == LOOP_ROLLED);
}

/* The kernel line says what the plan chose, and its width of B's copies follows N. */
Test(plan, the_kernel_line_names_tile_split_runs_loop_and_copies)
{
    const plan_device hopper = {132, 1};
    char line[256];
    step6_plan p = step6_plan_for(1000, 998, 601, 2, TRACK_SPLIT_K, UNROLL_NO, &hopper);
    step6_plan_describe(&p, line, sizeof line);
    cr_expect_str_eq(line, "64x128 tiles of 8x8 a thread in warps of 32x64, K split in 4 over a cluster, 2 stages, "
                           "the stage loop rolled, B copied and C stored in 4-byte pieces");
    p = step6_plan_for(129, 127, 33, 1, TRACK_CORE, UNROLL_AS_PLANNED, &hopper);
    step6_plan_describe(&p, line, sizeof line);
    cr_expect_str_eq(line, "64x128 tiles of 8x8 a thread, K whole, one stage, B copied and C stored in 4-byte pieces");
    p = step6_plan_for(2047, 2500, 1001, 4, TRACK_STREAM_K, UNROLL_YES, &hopper);
    step6_plan_describe(&p, line, sizeof line);
    cr_expect_str_eq(line, "128x256 tiles of 16x8 a thread in warps of 64x64, K whole for 132 tiles, then 28 tiles in "
                           "112 runs of k-tiles, 4 stages, the stage loop unrolled, B copied and C stored in 16-byte "
                           "pieces");
}
