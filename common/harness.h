/* harness.h - the one header a step includes.
 *
 * A step supplies a launch function for C = alpha * A * B + beta * C (row-major,
 * FP32) and hands it to harness_main(), which parses the command line, builds
 * the inputs, checks the result against cuBLAS element by element, times the
 * step and cuBLAS in the same process and prints the report.
 */
#ifndef HARNESS_H
#define HARNESS_H

#include <cuda_runtime.h>
#include <stdio.h>

#include "fit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The exit codes of every ./stepN, documented in README.md beside this file. */
enum {
    EXIT_PASS = 0,     /* the result matched the reference (or --no-check) */
    EXIT_WRONG = 1,    /* the result did not match the reference */
    EXIT_USAGE = 2,    /* bad command line, or sizes that cannot fit on the GPU */
    EXIT_CUDA = 3      /* no GPU, or a CUDA / cuBLAS / allocation failure */
};

/* An option of a program's own, beside the harness's: --NAME VALUE.
 * The harness parses it, prints it in --help, --describe (options=) and the report, and
 * hands its value to the launch as text. */
typedef struct {
    const char *name;                /* "plan": the option is --plan VALUE */
    const char *value;               /* the value in the usage line: "yes|no", "NAME" */
    const char *help;                /* its --help text; '\n' between lines */
    const char *const *choices;      /* the values it takes, NULL-terminated; NULL: any value
                                        that check passes */
    /* Reads a value before any CUDA call: 0, or nonzero with why in `why`: the rest of the
     * sentence that "--NAME 'VALUE'" begins ("is not a candidate's name"). NULL: every value
     * of choices is good. */
    int (*check)(const char *value, char *why, size_t len);
} program_option;
enum { MAX_PROGRAM_OPTIONS = 4 };

/* One option as the command line gives it. */
typedef struct {
    const char *name;    /* program_option.name */
    const char *value;
} given_option;

/* One SGEMM, as the harness hands it to a step. All matrices are row-major
 * with no padding: lda = k, ldb = n, ldc = n. The pointers come from
 * cudaMalloc, so row 0 is 256-byte aligned; later rows are 16-byte aligned
 * only when their length is a multiple of 4. When beta == 0, C holds NaN on
 * entry and must not be read (the BLAS rule). */
typedef struct {
    int m, n, k;
    float alpha, beta;
    const float *a;    /* M x K */
    const float *b;    /* K x N */
    float *c;          /* M x N */
    int stages;        /* pipeline depth from --stages; 0 for steps without it */
    /* The program's own options (step_info.options) that the command line gives, in the
     * order the program declares them, up to one whose name is NULL: read them with
     * harness_option. NULL for a launch with none. */
    const given_option *options;
} gemm_args;

/* The value --name has in g (a string of the command line), or NULL where it is not given. */
const char *harness_option(const gemm_args *g, const char *name);

/* Launches the step's kernel(s) on `stream` and returns cudaGetLastError(). */
typedef cudaError_t (*gemm_launch_fn)(const gemm_args *args, cudaStream_t stream);

/* For a step whose launch function chooses among kernels: which one it picks for
 * these arguments, in words ("128x128 tiles, B copied in float4"), a string of its own
 * or written into buf (len bytes). plan is the plan of the step's tiles for these
 * arguments (harness_plan_tiles), made once by the harness; NULL for a step without
 * tiles. The report prints the line, and the tests use it to show that every choice
 * is reached. */
typedef const char *(*gemm_kernel_fn)(const gemm_args *args, const tile_plan *plan, char *buf, size_t len);

typedef struct {
    const char *name;        /* "step0_naive" */
    const char *idea;        /* the one idea the step adds, one line */
    gemm_launch_fn launch;
    int max_stages;          /* 0: the step has no --stages option; else 1..max_stages */
    int default_stages;
    gemm_kernel_fn kernel;   /* NULL when launch always runs the same kernel, or when the
                                plan of `tiles` says all there is to say */
    /* The program's own options, up to one whose name is NULL; NULL for none. At most
     * MAX_PROGRAM_OPTIONS. */
    const program_option *options;
    /* Steps 3 to 5: their two tiles, the larger first (harness_plan_tiles); `--describe`
     * prints them, and the tests check their plans against real GPUs' limits. Else NULL. */
    const tile_option *tiles;
    /* Steps 1 and 2, which choose no tile: their one tile, for `--describe` (shapes=). Else NULL. */
    const tile_option *tile;
    /* More key=value words for the end of the `--describe` line, written into buf (step 6:
     * the stage counts of its other loop); NULL when none.
     * Returns what snprintf returns. */
    int (*describe)(char *buf, size_t len);
    /* Before anything runs: nonzero, with why in buf, where the step cannot run these
     * arguments on this device (a plan that is none of its candidates); the run
     * stops with EXIT_USAGE. NULL when every argument the parser takes runs. */
    int (*refuse)(const gemm_args *args, char *buf, size_t len);
} step_info;

/* A tile's shape as `--describe` prints it (shapes=): "BMxBNxBK:TMxTN:piece:a_pad" for
 * each of the n tiles, comma-separated. Returns what snprintf returns. */
int harness_describe_shapes(const tile_option *tiles, int n, char *buf, size_t len);

/* The environment variable that makes the launch plans see a smaller device than the
 * GPU present (fit_shrink): SGEMM_PLAN_DEVICE="sms=82 smem_block=99K clusters=0". The
 * kernels so planned still run on this GPU; the report says the plans were made so. */
#define PLAN_DEVICE_VAR "SGEMM_PLAN_DEVICE"

/* The limits the launch plans see: the current device's, shrunk by SGEMM_PLAN_DEVICE.
 * Returns 1; 0 when a CUDA query failed (*err says which) or SGEMM_PLAN_DEVICE cannot be
 * read (*err is cudaSuccess; the harness stopped at start-up, saying why). */
int harness_gpu_limits(gpu_limits *gpu, cudaError_t *err);

/* The tiles of bm x bn that cover an m x n C. */
size_t harness_tile_count(int m, int n, int bm, int bn);

/* Steps 3 to 6's plan (fit_tiles) for g on the current device; *err is the CUDA error of
 * the device's query. */
tile_plan harness_plan_tiles(const gemm_args *g, const tile_option options[2], cudaError_t *err);
/* The same at `stages` instead of g->stages (step 6, whose k-tiles depend on the stages). */
tile_plan harness_plan_stages(const gemm_args *g, int stages, const tile_option options[2], cudaError_t *err);
/* The kernel line for plan p into buf: the tile and why the plan took it ("128x128 tiles of
 * 8x8 a thread (one or more tiles per SM)"), then the step's own words (how it moves data;
 * NULL for none), the stages where fewer fit than asked, and the blocks an SM. A step with
 * tiles and no kernel function gets this line with no words of its own. */
const char *harness_describe_tiles(const gemm_args *g, const tile_option options[2], const tile_plan *p,
                                   const char *words, char *buf, size_t len);

/* Lets `kernel` launch with `bytes` of dynamic shared memory (cudaFuncSetAttribute),
 * first checking them against what the device lets a block have: past it, one line on
 * stderr names the resource, the amount and the limit, and the result is
 * cudaErrorInvalidValue. */
cudaError_t harness_ask_smem(const void *kernel, size_t bytes);

/* After a cluster launch of `config` failed with err: one line on stderr naming the
 * cluster asked for (its blocks, their threads and shared memory) and what the device
 * holds (whether it launches clusters, how many such clusters fit at once). */
void harness_explain_cluster(const void *kernel, const cudaLaunchConfig_t *config, int cluster_blocks,
                             cudaError_t err);

/* Device memory a step's launch function keeps from one launch to the next: allocated at the
 * first request that needs more than is kept (outside the timed launches, so a launch need
 * not allocate), freed by harness_workspace_free. Two buffers, apart, so that no kernel's
 * sums land on another's counts:
 *   harness_workspace: `bytes` of scratch. A launch may not count on what an earlier one left
 *     there: each kernel reads only what it (or the launch's kernel before it) wrote.
 *   harness_counts: `count` ints that are all 0 whenever a launch starts. Zeroed when
 *     allocated; every kernel that counts in them puts each back to 0 before it ends.
 * NULL, with *err set, when the allocation fails. */
void *harness_workspace(size_t bytes, cudaError_t *err);
int *harness_counts(long long count, cudaError_t *err);
/* Frees both (harness_main does, at the end of a run). */
void harness_workspace_free(void);

/* Runs the whole program; returns the exit code for main(). */
int harness_main(int argc, char **argv, const step_info *step);

#ifdef __cplusplus
}
#endif

#endif
