/* plan.h - the going-further track's launch plan: which kernel, which tile, how K is shared
 * and how many blocks, worked out once from the problem and the device into one struct that
 * the launch, the report's kernel line, the tests and the tools read. Plain C, so the tests
 * check it without a GPU. Its chapter: 6_the_plan.md. (--part core is step 6's own plan, in
 * step6.cu.) */
#ifndef TRACK_PLAN_H
#define TRACK_PLAN_H

#include <stddef.h>

#include "../common/fit.h"

#ifdef __cplusplus
#define PLAN_TABLE constexpr
extern "C" {
#else
#define PLAN_TABLE const
#endif

/* The going-further track, in the order a learner meets it (README.md beside this file);
 * `./further --part PART` runs the core and every part up to PART. */
typedef enum {
    TRACK_CORE,         /* step6.cu: step 5's kernel with its stage loop unrolled */
    TRACK_WARP_TILES,   /* warp_tiles.cuh: warp tiles, rasterization, FMAs in serpentine order */
    TRACK_SPLIT_K,      /* split_k.cuh: K split over a cluster where tiles are fewer than SMs */
    TRACK_WIDE_TILES,   /* wide_tiles.cuh: 128x256 tiles in a lean loop, copies among the FMAs */
    TRACK_STREAM_K,     /* stream_k.cuh: the last partial wave of wide tiles in runs of k-tiles */
    TRACK_SMALL_SHAPES, /* fewer tiles than SMs: K in parts added up by a second kernel (split-K
                           with a reduction, stream_k.cuh); C of one column (gemv.cuh), a few
                           columns (few_columns.cuh), a few rows (few_rows.cuh), K = 1
                           (outer_product.cuh) */
    TRACK_PARTS,
    TRACK_WHOLE = TRACK_PARTS - 1   /* every part: ./further by default */
} track_part;

/* --part's names, index = track_part, NULL-terminated. */
extern const char *const TRACK_NAMES[TRACK_PARTS + 1];

/* The tile shapes the track is built for. The kernels' tile configurations assert that they
 * are these (warp_tiles.cuh, wide_tiles.cuh, stream_k.cuh). */
typedef enum {
    TILE_LARGE, TILE_MID, TILE_SMALL, TILE_WIDE, TILE_TALL, TILE_SHORT, TILE_NARROW,
    TILE_SHAPES
} tile_id;
typedef struct {
    int bm, bn, bk;   /* block tile BM x BN, k-tiles BK deep */
    int wm, wn;       /* warp tile */
    int tm, tn;       /* a thread's tile of C */
    int threads;      /* a block */
    int min_blocks;   /* blocks an SM, at least (__launch_bounds__) */
} tile_shape;

static PLAN_TABLE tile_shape TRACK_TILES[TILE_SHAPES] = {
    /* warp tiles (and split K) */
    {128, 128, 8, 32, 64, 8, 8, 256, 2},  /* TILE_LARGE */
    {64, 128, 8, 32, 64, 8, 8, 128, 4},   /* TILE_MID */
    {64, 64, 8, 32, 32, 8, 4, 128, 4},    /* TILE_SMALL */
    /* wide tiles: 128 accumulators a thread, one block an SM */
    {128, 256, 8, 64, 64, 16, 8, 256, 1}, /* TILE_WIDE */
    /* skinny shapes' warp tiles, at TRACK_STAGES only: N of 64 or less, K whole too; M of 32 or
       less, for K in parts only; N of 32 or less, K whole too, k-tiles 16 deep */
    {128, 64, 8, 64, 32, 8, 8, 128, 4},   /* TILE_TALL */
    {32, 128, 8, 32, 64, 8, 8, 64, 8},    /* TILE_SHORT */
    {128, 32, 16, 32, 32, 8, 4, 128, 4},  /* TILE_NARROW */
};

/* Which kernel: warp tiles (warp_tiles.cuh; K split or in parts too), wide tiles (wide_tiles.cuh;
 * stream_k.cuh's runs), A times a vector (gemv.cuh: N = 1), a few columns (few_columns.cuh: N of
 * 2 to COL_MAX_N), a few rows (few_rows.cuh: M of FEW_MAX_M or less), or K = 1 (outer_product.cuh). */
typedef enum { KERNEL_WARP, KERNEL_WIDE, KERNEL_ROWS, KERNEL_COLS, KERNEL_FEW, KERNEL_FLAT } kernel_kind;
enum { ROW_THREADS = 256, ROW_MIN_BLOCKS = 4 };
/* A few columns (N of 2 ... COL_MAX_N): COL_ROWS rows of A a block, K in chunks of COL_DEPTH (B's chunk read a
 * float a thread in turn), two blocks an SM (__launch_bounds__: 128 registers a thread) */
enum { COL_MAX_N = 16, COL_THREADS = 256, COL_ROWS = 16, COL_DEPTH = 256, COL_MIN_BLOCKS = 2 };
/* and their shared memory at N rounded up to np: a chunk of B (4 rows a row of 4 x np + 4 floats), the warps' sums */
#define COL_SMEM_BYTES(np) ((size_t)(COL_DEPTH / 4 * (4 * (np) + 4) + COL_THREADS / 32 * 8 * (np)) * sizeof(float))
/* A few rows: M of FEW_MAX_M or less, M x lanes cells a block at most FEW_CELLS (lanes: plan.c), K in
 * parts up to FEW_WAVES waves of blocks */
enum { FEW_MAX_M = 16, FEW_CELLS = 128, FEW_WAVES = 4 };
/* a block's threads: 512 at M = 1, where one block an SM is common (more rows of B in flight); 256 above */
#define FEW_THREADS(m) ((m) == 1 ? 512 : 256)
enum { FLAT_THREADS = 256 };
/* M rows' blocks an SM (__launch_bounds__: 64, 40, 64, 80 or 128 registers a thread), and their shared
 * memory: each warp's sums, a float4 for each of its M x lanes cells (FEW_CELLS at most) */
#define FEW_MIN_BLOCKS(m) ((m) == 1 ? 2 : (m) <= 2 ? 6 : (m) <= 4 ? 4 : (m) <= 8 ? 3 : 2)
#define FEW_SMEM_BYTES(m) ((size_t)FEW_THREADS(m) / 32 * FEW_CELLS * 16)
/* and the rows of B a thread has in flight: 8 at M = 1, where 64 registers hold them; 2 above. The
 * estimate counts rounds of two at M = 1 too: its memory term cannot tell how few blocks load. */
#define FEW_IN_FLIGHT(m) ((m) == 1 ? 8 : 2)
/* How a kernel walks its ring of stages: unrolled (stage indices are constants), rolled
 * (run-time stage indices: step 5's loop), or the wide tiles' lean loop (one k-tile a trip,
 * stage offsets stepping round the ring). */
typedef enum { LOOP_UNROLLED, LOOP_ROLLED, LOOP_LEAN } loop_kind;

/* The device's limits (fit.h), `clusters` 1 only where the GPU launches clusters and this
 * binary holds their code (launch.cuh). */
typedef gpu_limits plan_device;

typedef struct {
    track_part track;         /* the parts that may be used */
    kernel_kind kernel;
    tile_id tile;
    loop_kind loop;
    int stages;               /* as asked, or the most a block may hold */
    int stages_asked;
    int blocks_per_sm;        /* blocks of the first launch an SM holds at once */
    const char *limit;        /* what sets blocks_per_sm (fit_blocks_per_sm) */
    int vec;                  /* bytes a copy of B: 16 (N % 4 == 0; C stored so too), 8 (N even: plan.c), 4 */
    int split;                /* blocks sharing a tile's K (one cluster); 1: K whole */
    long long tiles;          /* tiles of C */
    long long k_tiles;        /* k-tiles of one tile's K */
    long long blocks;         /* blocks of the first launch */
    int parts;                /* K in parts a tile, a block each, added up by a second kernel (a few rows: the
                                 last block); 1: none */
    int early;                /* 1: that second kernel launched early, waiting for the first (sm_90 on) */
    int lanes;                /* rows: threads a row of A (1 ... 256); a few rows: a block's float4s of C's row */
    int threads;              /* a few rows: a block's threads (FEW_THREADS) */
    int runs;                 /* blocks of the second launch, the last wave in runs of k-tiles; 0: none */
    size_t smem_bytes;        /* dynamic shared memory of a block */
    size_t workspace_bytes;   /* device memory for partial sums (harness_workspace): slots or slices; 0: none */
    long long counts;         /* counters of blocks handed over, one a tile (harness_counts: 0 at a launch's start
                                 and end); 0: none */
    double est_us;            /* the estimate of its time (plan.c), microseconds */
    char next[32];            /* the runner-up: the best of another tile or way of sharing K */
    double next_us;           /* its estimate; 0: none */
    int found;                /* 0: no candidate has the name asked for (track_plan_for) */
} track_plan;

/* What the estimate of a candidate's time is made of (plan.c), in microseconds, measured by
 * `make plan-costs` into plan_costs.h. For each tile: */
enum { MAX_RESIDENT = 8 };   /* the most blocks an SM holds of any tile (min_blocks above) */
typedef struct {
    double k_tile_us[MAX_RESIDENT];   /* [b - 1]: a k-tile of each of b blocks on one SM, b = 1 to
                                         min_blocks; [0] is a block alone, the latency of its loop */
    double block_us;                  /* a block's fixed cost: the pipeline's prologue, writing C */
    double scalar_b;                  /* B copied a float at a time (N % 4 != 0): its k-tiles' time over
                                         theirs in float4s, at the most blocks an SM */
} tile_costs;
typedef struct {
    double launch_us;      /* a launch, and a kernel's start and end: a tiles' kernel (or a few rows') */
    double bare_launch_us; /* the same of a kernel that starts straight on its loads (N = 1, a few columns, K = 1) */
    double add_up_us;      /* K in parts: the second kernel's start after the first (early where it can be), and
                              its end */
    double bytes_per_us;   /* device memory's bandwidth */
    double cluster_us;     /* a block's share of adding a tile's partial sums over a cluster, per 1024 floats */
    double few_block_us;   /* a few rows: each block on an SM after the first, */
    double few_round_us;   /* a round of a block's loads (two rows of B and their M floats of A, or 8 parts'
                              sums), */
    double few_row_us;     /* and its more for each row of A (the line through M = 1 ... 16), */
    double few_sum_us;     /* and, K in parts, handing a part's sums over (a slot, a fence, a count) */
    double col_chunk_us[2];   /* a few columns: a chunk of K of each of b blocks on one SM, b = 1, 2 */
    tile_costs tile[TILE_SHAPES];
} plan_costs;

/* The wide tiles' last partial wave is cut into runs of k-tiles, a tile into at most this
 * many pieces; K split over at most MAX_SPLIT blocks; K in at most MAX_PARTS parts. */
enum { MAX_PIECES = 4, MAX_SPLIT = 8, MAX_PARTS = 1024 };
/* The one stage count (step 6's default) that K in parts, the runs, the skinny tiles (unrolled
 * only) and B's 8-byte copies are built for: each kernel built is build time. Other counts have
 * the warp and wide tiles, K whole or split, B in 4-byte copies where N % 4 != 0. */
enum { TRACK_STAGES = 3 };
/* K in parts: each part's slice of the workspace, M x N floats padded to a multiple of 4 (the second kernel reads
 * C and the slices as flat arrays, in float4s whatever N) */
#define SLICE_FLOATS(m, n) (((size_t)(m) * (size_t)(n) + 3) / 4 * 4)
/* Clusters launched all at once do not land evenly on the SMs (blocks without clusters do): the
 * estimate gives the busiest SM its share of SPREAD more blocks (plan.c). */
enum { SPREAD = 8 };

/* --unroll: every pipelined loop unrolled (yes) or rolled (no), or each as the plan has it. */
enum { UNROLL_AS_PLANNED = -1, UNROLL_NO = 0, UNROLL_YES = 1 };

/* The plan for C = alpha A B + beta C of m x n x k at `stages` stages, the track up to `track` (from
 * TRACK_WARP_TILES: TRACK_CORE is step6.cu's) and --unroll's `unroll`: the candidate of least
 * estimated time, or the one `name` names (--plan), `found` 0 where there is none. */
track_plan track_plan_for(int m, int n, int k, int stages, int track, int unroll, const plan_device *dev,
                          const char *name);

/* The names (as --plan takes them) of every candidate of that plan, in names[0 .. max - 1]; returns
 * how many there are (it may be more than max). The tests run each one. */
int track_plan_candidates(int m, int n, int k, int stages, int track, int unroll, const plan_device *dev,
                          char (*names)[32], int max);

/* A candidate's name, as --plan takes it: "128x128" (K whole), "64x128/split4" (K split over
 * a cluster), "128x64/parts8" (K in 8 parts), "128x256/runs" (the last wave in runs). */
int track_plan_name(const track_plan *p, char *buf, size_t len);

/* Whether `name` is written as a candidate's name is (--plan, before any CUDA call): 0, or nonzero
 * with the names' forms in why. Whether it is one of the problem's: track_plan_for's `found`. */
int track_plan_name_check(const char *name, char *why, size_t len);

/* The report's kernel line for the plan ("64x128 tiles of 8x8 a thread in warps of 32x64,
 * K split in 4 over a cluster, ..."). Returns what snprintf returns. */
int track_plan_describe(const track_plan *p, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
