/* fit.h - what a GPU holds, and how many blocks of a kernel fit on one of its SMs. Plain
 * C with no CUDA call: the launch plans of steps 3 to 6 are worked out from these figures,
 * and the tests check those plans against a table of real GPUs on a machine without one. */
#ifndef FIT_H
#define FIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The limits a launch plan must fit, as the CUDA runtime reports them (cudaDevAttr*). */
typedef struct {
    int sms;             /* multiprocessors */
    int smem_block;      /* shared memory a block may opt in to, bytes (MaxSharedMemoryPerBlockOptin) */
    int smem_sm;         /* shared memory of an SM, bytes (MaxSharedMemoryPerMultiprocessor) */
    int smem_reserved;   /* shared memory the system keeps for each block (ReservedSharedMemoryPerBlock) */
    int regs_sm;         /* 32-bit registers of an SM */
    int threads_sm;      /* resident threads of an SM */
    int blocks_sm;       /* resident blocks of an SM */
    int clusters;        /* 1: the GPU launches thread-block clusters (compute capability 9.0 on) */
} gpu_limits;

/* What one block of a kernel asks of an SM. */
typedef struct {
    int threads;
    int regs;        /* a thread's registers, at most: what __launch_bounds__ allows */
    size_t smem;     /* shared memory, static and dynamic */
} block_need;

/* Steps 3 to 5 choose between two tiles, a larger and a smaller; what a block of each asks,
 * and how the tile is cut (steps 1 and 2 have one tile: `--describe` prints them all for the
 * figures of `make figures`). */
typedef struct {
    int bm, bn;           /* the block's tile of C */
    int threads;          /* a block */
    int min_blocks;       /* __launch_bounds__(threads, min_blocks); 1 when not given */
    size_t smem;          /* static shared memory of a block */
    size_t smem_stage;    /* dynamic shared memory of one stage (steps with --stages), else 0 */
    int bk;               /* the k-tiles' depth; 0 where K is not cut into k-tiles (step 1) */
    int tm, tn;           /* a thread's tile of C */
    int piece;            /* a thread's rows come in runs of this many, piece * BM / TM rows apart,
                             and its columns likewise: 1 (steps 1 to 3), 4 (float4 pieces) */
    int a_pad;            /* A's k-tile is stored transposed in shared memory, in rows of BM + a_pad
                             floats; -1 where it is stored as it is (or not at all) */
} tile_option;

/* What steps 3 to 5 launch: the larger tile when its tiles give every SM one (else the
 * smaller), with as many stages as asked or the most a block may hold, and how many blocks
 * an SM then holds. */
typedef struct {
    int tile;             /* 0: the larger, 1: the smaller */
    int stages;           /* 0 for a step without stages */
    size_t smem_dynamic;  /* stages * smem_stage */
    long long blocks;     /* the grid */
    int blocks_per_sm;    /* 0: a block does not fit (no stage fits) */
    const char *limit;    /* what sets blocks_per_sm (fit_blocks_per_sm) */
} tile_plan;

/* The plan for an m x n C at `stages` (0 without); regs: a thread's registers, or 0 for
 * the most __launch_bounds__ allows. */
tile_plan fit_tiles(int m, int n, int stages, const tile_option options[2], int regs, const gpu_limits *gpu);

/* The kernel line's words for a plan's blocks an SM: "at least 2 blocks an SM (registers)"
 * where registers (at most what __launch_bounds__ allows) set it, else the count and what
 * sets it, with min_blocks when fewer: "1 block an SM (shared memory; 2 planned)". */
int fit_describe_blocks(const tile_plan *p, int min_blocks, char *buf, size_t len);

/* Registers a thread may use under __launch_bounds__(threads, min_blocks) where an SM has
 * regs_sm: the register file shared by min_blocks blocks, in steps of 8, at most 255. */
int fit_bounded_regs(int regs_sm, int threads, int min_blocks);

/* Blocks of `need` one SM holds at once: the fewest that its threads, registers, shared
 * memory and block slots allow. *limit (when not NULL) names the resource that sets it:
 * "threads", "registers", "shared memory" or "block slots". 0 when a block does not fit at
 * all (more shared memory than a block may have, or more threads or registers than an SM). */
int fit_blocks_per_sm(const gpu_limits *gpu, const block_need *need, const char **limit);

/* The most stages, at most `asked`, whose shared memory (fixed + stages * per_stage bytes)
 * a block may opt in to; 0 when not even one stage fits. */
int fit_stages(const gpu_limits *gpu, size_t fixed, size_t per_stage, int asked);

/* The limits a plan should see in place of the GPU's, from a description such as
 * "sms=82 smem_block=101376 smem_sm=102400 threads_sm=1536 clusters=0" (the environment
 * variable SGEMM_PLAN_DEVICE): each figure named replaces the GPU's where it is smaller,
 * so that the kernels planned for a smaller device still run on this one. Returns 0 and
 * says why in `why` for a name it does not know, a figure that is not a positive number,
 * or one larger than the GPU's. */
int fit_shrink(gpu_limits *gpu, const char *spec, char *why, size_t len);

/* "82 SMs, 99 KiB of shared memory a block, 100 KiB an SM, 1536 threads an SM, no clusters". */
int fit_describe(const gpu_limits *gpu, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
