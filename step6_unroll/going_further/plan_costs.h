/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`
 * (scripts/course.py plan-costs): measured on NVIDIA H100 80GB HBM3 (132 SMs), commit b0504566b2, 2026-11-25.
 * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other
 * costs; `make plan-costs` there writes its own. */
static const plan_costs PLAN_COSTS = {
    4.75, 3.01e+06, 1.088,
    {
        {0.6875, 0.6528, 5.152},   /* 128x128 */
        {0.4558, 0.3411, 3.643},   /* 64x128 */
        {0.3949, 0.2179, 3.701},   /* 64x64 */
        {1.2815, 1.2787, 5.184},   /* 128x256 */
        {0.4760, 0.3961, 8.597},   /* 128x64 */
        {0.4184, 0.1784, 0.112},   /* 32x128 */
        {0.4829, 0.3039, 8.944},   /* 128x32 */
    },
};
