/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`
 * (tools.py plan-costs, beside it): measured on NVIDIA H100 80GB HBM3 (132 SMs), commit da145f86a8, 2026-11-28.
 * Each run's time is its median over 3 rounds of the whole list, taken in turn.
 * A fixed cost is a difference of a few microseconds between runs; read from each round alone: launch 5.15 to
 * 5.28, without tiles 4.22 to 4.42, parts' sum 2.51 to 3.01, cluster 0.11 to 0.20, 128x128's block 2.53 to 3.03,
 * 64x128's block 1.97 to 2.08, 64x64's block 0.58 to 0.88, 128x256's block 5.13 to 5.55, 128x64's block 1.79 to
 * 1.95, 32x128's block 0.66 to 1.32, 128x32's block 2.75 to 3.39 us.
 * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other
 * costs; `make plan-costs` there writes its own. */
static const plan_costs PLAN_COSTS = {
    5.23, 4.34, 2.78, 3.013e+06, 0.1650,
    1.194, 0.4800, 0.0234, 1.061,
    {1.1232, 1.8353},
    {
        {{0.7043, 1.3239}, 2.780, 1.033},   /* 128x128 */
        {{0.4602, 0.7509, 1.0861, 1.3942}, 1.973, 1.015},   /* 64x128 */
        {{0.4061, 0.4901, 0.6725, 0.9001}, 0.734, 1.008},   /* 64x64 */
        {{1.2791}, 5.262, 1.085},   /* 128x256 */
        {{0.5112, 0.8665, 1.1805, 1.5381}, 1.869, 1.024},   /* 128x64 */
        {{0.4109, 0.4459, 0.7057, 0.7691, 1.0557, 1.1337, 1.4046, 1.4700}, 0.957, 1.018},   /* 32x128 */
        {{0.6857, 1.3663, 1.9766, 2.4923}, 3.220, 1.008},   /* 128x32 */
    },
};
