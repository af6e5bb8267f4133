/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`
 * (scripts/course.py plan-costs): measured on NVIDIA H100 80GB HBM3 (132 SMs), commit fc6e3b27b4-dirty, 2026-11-27.
 * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other
 * costs; `make plan-costs` there writes its own. */
static const plan_costs PLAN_COSTS = {
    5.34, 3.016e+06, 0.1380, 1.334,
    0.4636, 0.0266, 1.116, {1.1638, 1.8323},
    {
        {{0.6986, 1.3043}, 2.774},   /* 128x128 */
        {{0.4609, 0.7461, 1.0588, 1.3697}, 1.889},   /* 64x128 */
        {{0.4067, 0.4919, 0.6550, 0.8767}, 0.436},   /* 64x64 */
        {{1.2709}, 5.090},   /* 128x256 */
        {{0.5123, 0.8416, 1.1521, 1.4943}, 1.772},   /* 128x64 */
        {{0.4123, 0.4487, 0.7074, 0.7668, 1.0393, 1.1135, 1.3811, 1.4325}, 0.000},   /* 32x128 */
        {{0.6899, 1.3521, 1.9625, 2.4939}, 2.497},   /* 128x32 */
    },
};
