/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`
 * (scripts/course.py plan-costs): measured on NVIDIA H100 80GB HBM3 (132 SMs), commit adb69c804e, 2026-11-26.
 * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other
 * costs; `make plan-costs` there writes its own. */
static const plan_costs PLAN_COSTS = {
    4.96, 3.01e+06, 0.1660,
    {
        {{0.6951, 1.3129}, 3.963},   /* 128x128 */
        {{0.4567, 0.7491, 1.0607, 1.3928}, 3.584},   /* 64x128 */
        {{0.3973, 0.4633, 0.6388, 0.8775}, 2.955},   /* 64x64 */
        {{1.2661}, 6.251},   /* 128x256 */
        {{0.4775, 0.8257, 1.1175, 1.5342}, 7.844},   /* 128x64 */
        {{0.4131, 0.4398, 0.7135, 0.7630, 1.0627, 1.1134, 1.3959, 1.4695}, 0.117},   /* 32x128 */
        {{0.4887, 0.6673, 0.9863, 1.2598, 1.6316, 1.8667, 2.2248, 2.4315}, 8.106},   /* 128x32 */
    },
};
