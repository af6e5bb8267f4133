/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`
 * (scripts/course.py plan-costs): measured on NVIDIA H100 80GB HBM3 (132 SMs), commit 53b8f57dba, 2026-11-27.
 * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other
 * costs; `make plan-costs` there writes its own. */
static const plan_costs PLAN_COSTS = {
    5.31, 3.015e+06, 0.1300, 1.320,
    0.4738, 0.0248, 0.671, {1.1231, 1.7721},
    {
        {{0.6920, 1.2978}, 3.024},   /* 128x128 */
        {{0.4604, 0.7437, 1.0541, 1.3545}, 1.690},   /* 64x128 */
        {{0.4020, 0.4901, 0.6569, 0.8784}, 0.688},   /* 64x64 */
        {{1.2711}, 5.199},   /* 128x256 */
        {{0.5123, 0.8462, 1.1543, 1.5247}, 1.820},   /* 128x64 */
        {{0.4149, 0.4447, 0.7071, 0.7727, 1.0399, 1.1156, 1.3851, 1.4302}, 0.000},   /* 32x128 */
        {{0.6882, 1.3388, 1.9568, 2.4921}, 2.749},   /* 128x32 */
    },
};
