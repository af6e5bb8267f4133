/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`
 * (scripts/course.py plan-costs): measured on NVIDIA H100 80GB HBM3 (132 SMs), commit aef61944e1, 2026-11-27.
 * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other
 * costs; `make plan-costs` there writes its own. */
static const plan_costs PLAN_COSTS = {
    5.33, 2.66, 3.016e+06, 0.1600, 1.340,
    0.4927, 0.0214, 1.208, {1.1248, 1.7929},
    {
        {{0.6922, 1.2941}, 3.005},   /* 128x128 */
        {{0.4588, 0.7436, 1.0559, 1.3654}, 1.955},   /* 64x128 */
        {{0.4017, 0.4925, 0.6601, 0.8816}, 1.044},   /* 64x64 */
        {{1.2673}, 5.467},   /* 128x256 */
        {{0.5109, 0.8513, 1.1698, 1.5303}, 1.489},   /* 128x64 */
        {{0.4103, 0.4447, 0.7017, 0.7639, 1.0641, 1.1159, 1.3101, 1.4821}, 0.807},   /* 32x128 */
        {{0.6874, 1.3452, 1.9904, 2.4803}, 2.746},   /* 128x32 */
    },
};
