/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`
 * (scripts/course.py plan-costs): measured on NVIDIA H100 80GB HBM3 (132 SMs), commit 8ddb0eefd3, 2026-11-28.
 * Each run's time is its median over 3 rounds of the whole list, taken in turn.
 * NOT YET FROM ONE RUN (a branch's stand-in, to be replaced by `make plan-costs`): K = 1's launch is
 * the median of 5 runs in the same call, the B-in-floats factors are from another run that day.
 * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other
 * costs; `make plan-costs` there writes its own. */
static const plan_costs PLAN_COSTS = {
    5.44, 4.64, 2.88, 3.015e+06, 0.1550,
    1.199, 0.4747, 0.0248, 0.959,
    {1.1188, 1.7879},
    {
        {{0.6936, 1.2943}, 2.758, 1.048},   /* 128x128 */
        {{0.4586, 0.7401, 1.0709, 1.3620}, 1.903, 1.014},   /* 64x128 */
        {{0.4036, 0.4941, 0.6595, 0.8793}, 0.374, 1.008},   /* 64x64 */
        {{1.2787}, 4.900, 1.091},   /* 128x256 */
        {{0.5121, 0.8407, 1.1668, 1.5193}, 1.631, 1.028},   /* 128x64 */
        {{0.4096, 0.4409, 0.7011, 0.7657, 1.0378, 1.1220, 1.3821, 1.4331}, 0.562, 1.029},   /* 32x128 */
        {{0.6881, 1.3501, 1.9622, 2.4877}, 2.798, 1.011},   /* 128x32 */
    },
};
