/* plan_costs.h - the constants of the plan's estimate (plan.c), measured by
 * `make plan-costs` (GPU), which rewrites this file. What each one is: plan.h (plan_costs).
 * Guessed, not measured: replace with a run of `make plan-costs`. */
#define PLAN_COSTS_SOURCE "guessed from make track-ablation on an H100"
static const plan_costs PLAN_COSTS = {
    4.0, 3.0e6, 1.0,
    {
        {1.15, 0.67, 3.0},   /* 128x128 */
        {0.90, 0.37, 3.0},   /* 64x128 */
        {0.65, 0.22, 3.0},   /* 64x64 */
        {1.30, 1.29, 3.0},   /* 128x256 */
        {0.90, 0.37, 3.0},   /* 128x64 */
        {0.65, 0.22, 3.0},   /* 32x128 */
        {0.65, 0.22, 3.0},   /* 128x32 */
    },
};
