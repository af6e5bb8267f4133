/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`
 * (scripts/course.py plan-costs): measured on NVIDIA H100 80GB HBM3 (132 SMs), commit ebda0edf31-dirty, 2026-11-27.
 * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other
 * costs; `make plan-costs` there writes its own. */
static const plan_costs PLAN_COSTS = {
    5.10, 4.27, 3.012e+06, 0.1420, 1.338,
    0.4578, 0.0282, 0.996, {1.1267, 1.7705},
    {
        {{0.6907, 1.2924}, 3.092},   /* 128x128 */
        {{0.4579, 0.7419, 1.0385, 1.3607}, 2.225},   /* 64x128 */
        {{0.4063, 0.4919, 0.6452, 0.8702}, 0.748},   /* 64x64 */
        {{1.2703}, 5.468},   /* 128x256 */
        {{0.5113, 0.8322, 1.1387, 1.5032}, 1.835},   /* 128x64 */
        {{0.4133, 0.4455, 0.7021, 0.7649, 1.0416, 1.0932, 1.3826, 1.4647}, 0.711},   /* 32x128 */
        {{0.6913, 1.3556, 1.9680, 2.4854}, 3.020},   /* 128x32 */
    },
};
