// track.cuh - the going-further track (README.md beside this file), a kernel family a file, each
// building on the ones before and on step6.cu, which further.cu includes first. Its launch
// (launch.cuh) runs the plan of plan.c; --part core hands the problem to step6.cu's own launch.
#include "plan.h"

// Any kernel of the track with its grid and arguments: past 48 KiB of shared memory a
// kernel must ask for it first (the harness checks the device's limit); then one launch.
template <typename... Params, typename... Args>
static cudaError_t launch_kernel(void (*kernel)(Params...), long long blocks, int threads, size_t smem,
                                 cudaStream_t stream, Args... args)
{
    cudaError_t err = harness_ask_smem((const void *)kernel, smem);
    if (err != cudaSuccess)
        return err;
    kernel<<<(unsigned)blocks, threads, smem, stream>>>(args...);
    return cudaGetLastError();
}

#include "warp_tiles.cuh"
#include "split_k.cuh"
#include "wide_tiles.cuh"
#include "stream_k.cuh"
#include "gemv.cuh"
#include "few_columns.cuh"
#include "few_rows.cuh"
#include "outer_product.cuh"
#include "launch.cuh"
#include "describe.cuh"

// The track's own options; the harness checks their values and hands them to the launch
// (launch.cuh: choice_of). --unroll is step 6's option, here obeyed by every pipelined loop.
static int check_plan(const char *name, char *why, size_t len) { return track_plan_name_check(name, why, len); }
static const program_option TRACK_OPTIONS[] = {
    {.name = "part", .value = "PART", .help = "run step 6's kernel and the track up to PART (default: the whole\n"
                                               "track); --part core runs step 6's kernel alone", .choices = TRACK_NAMES},
    {.name = "unroll", .value = "yes|no", .help = "run every pipelined loop with its stages unrolled (yes) or\n"
                                                   "with run-time stage indices (no), instead of each kernel's\n"
                                                   "own choice, to measure what unrolling buys", .choices = YES_NO},
    {.name = "plan", .value = "NAME", .help = "run this candidate of the track's plan instead of the one\n"
                                              "of least estimated time: TILE (K whole), TILE/splitS (K\n"
                                              "split over a cluster), TILE/partsP (K in P parts),\n"
                                              "TILE/runs (the last wave in runs), TILE as 128x128;\n"
                                              "rows (C of one column), few-cols (N of 2 to 16),\n"
                                              "few-rows and few-rows/partsP (M of 16 or less), flat\n"
                                              "(K = 1: C as one array); the kernel line names the\n"
                                              "runner-up; exit 2 where NAME is none of the candidates\n"
                                              "for the problem on this GPU", .check = check_plan},
    {},
};
