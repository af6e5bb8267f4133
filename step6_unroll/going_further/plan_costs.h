/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`
 * (scripts/course.py plan-costs): measured on NVIDIA H100 80GB HBM3 (132 SMs), commit f05daf2af0, 2026-11-27.
 * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other
 * costs; `make plan-costs` there writes its own. */
static const plan_costs PLAN_COSTS = {
    5.10, 3.011e+06, 0.2000,
    {
        {{0.6942, 1.3042}, 3.393},   /* 128x128 */
        {{0.4629, 0.7479, 1.0654, 1.3638}, 1.893},   /* 64x128 */
        {{0.4033, 0.4888, 0.6613, 0.8821}, 0.947},   /* 64x64 */
        {{1.2792}, 5.333},   /* 128x256 */
        {{0.5125, 0.8488, 1.1500, 1.5629}, 0.000},   /* 128x64 */
        {{0.4113, 0.4488, 0.7079, 0.7658, 1.0454, 1.1142, 1.3825, 1.4350}, 0.443},   /* 32x128 */
        {{0.6850, 1.3479, 1.9650, 2.4879}, 3.140},   /* 128x32 */
    },
};
