/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`
 * (scripts/course.py plan-costs): measured on NVIDIA H100 80GB HBM3 (132 SMs), commit d7aba8ca45, 2026-11-27.
 * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other
 * costs; `make plan-costs` there writes its own. */
static const plan_costs PLAN_COSTS = {
    5.33, 3.012e+06, 0.1720, 1.163,
    0.4633, 0.0253, 1.078, {1.25, 2.0},
    {
        {{0.6981, 1.2953}, 2.590},   /* 128x128 */
        {{0.4588, 0.7429, 1.0475, 1.3519}, 1.875},   /* 64x128 */
        {{0.4063, 0.4933, 0.6564, 0.8716}, 0.539},   /* 64x64 */
        {{1.2707}, 5.284},   /* 128x256 */
        {{0.5115, 0.8497, 1.1502, 1.5181}, 1.769},   /* 128x64 */
        {{0.4157, 0.4409, 0.7067, 0.7645, 1.0409, 1.1042, 1.3747, 1.4321}, 0.000},   /* 32x128 */
        {{0.6890, 1.3505, 1.9674, 2.4779}, 2.608},   /* 128x32 */
    },
};
