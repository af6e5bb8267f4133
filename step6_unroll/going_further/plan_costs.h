/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`
 * (scripts/course.py plan-costs): measured on NVIDIA H100 80GB HBM3 (132 SMs), commit 8ddb0eefd3, 2026-11-28.
 * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other
 * costs; `make plan-costs` there writes its own. */
static const plan_costs PLAN_COSTS = {
    5.18, 2.69, 3.01e+06, 0.1300, 1.324,
    0.4629, 0.0252, 1.304, {1.1318, 1.8057},
    {
        {{0.6967, 1.3058}, 3.108, 1.047},   /* 128x128 */
        {{0.4599, 0.7478, 1.0530, 1.3577}, 2.289, 1.029},   /* 64x128 */
        {{0.4062, 0.4890, 0.6659, 0.8761}, 0.653, 1.012},   /* 64x64 */
        {{1.2775}, 5.609, 1.085},   /* 128x256 */
        {{0.5141, 0.8473, 1.1545, 1.5293}, 1.791, 1.020},   /* 128x64 */
        {{0.4108, 0.4423, 0.7035, 0.7652, 1.0487, 1.1209, 1.3862, 1.4639}, 1.085, 1.008},   /* 32x128 */
        {{0.6897, 1.3547, 1.9626, 2.4901}, 3.140, 1.007},   /* 128x32 */
    },
};
