/* further - past cuBLAS: the kernels and the launch plan of the going-further track, a
 * program of its own after step 6 (README.md beside this file, one chapter an idea).
 *
 * It builds on step 6 as the learner has it: step6.cu comes in whole, its kernels, its copy
 * plan and its launch (`--part core` runs that launch alone). Its main() is renamed on the
 * way, unused, so that this program has its own. Each chapter's kernels follow (track.cuh),
 * then the plan that picks among them for each problem (plan.c).
 *
 *   make further && ./further 1024
 */
#define main step6_main
#include "../step6_unroll/step6.cu"
#undef main

#include "track.cuh"

int main(int argc, char **argv)
{
    static const step_info program = {
        .name = "going_further",
        .idea = "past cuBLAS: each problem planned over warp tiles, split-K, wide tiles, stream-K and GEMV",
        .launch = track_launch,
        .max_stages = MAX_STAGES,
        .default_stages = 3,
        .kernel = track_kernel_name,
        .options = TRACK_OPTIONS,
        .tiles = TILES,
        .describe = track_describe,
        .refuse = track_refuse,
    };
    return harness_main(argc, argv, &program);
}
