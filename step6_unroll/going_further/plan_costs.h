/* plan_costs.h - the constants of the plan's estimate (plan.c), written by `make plan-costs`
 * (scripts/course.py plan-costs): measured on NVIDIA H100 80GB HBM3 (132 SMs), commit 60aa01ed45, 2026-11-27.
 * What each one is: plan.h (plan_costs). A GPU of other SMs, clocks or memory has other
 * costs; `make plan-costs` there writes its own. */
static const plan_costs PLAN_COSTS = {
    5.10, 3.015e+06, 0.1760, 1.181,
    0.4622, 0.0245, 0.940,
    {
        {{0.6935, 1.2959}, 2.951},   /* 128x128 */
        {{0.4597, 0.7393, 1.0417, 1.3529}, 2.101},   /* 64x128 */
        {{0.4051, 0.4943, 0.6593, 0.8754}, 0.878},   /* 64x64 */
        {{1.2704}, 5.194},   /* 128x256 */
        {{0.5158, 0.8331, 1.1521, 1.5305}, 1.827},   /* 128x64 */
        {{0.4122, 0.4450, 0.7068, 0.7679, 1.0456, 1.1021, 1.3873, 1.4183}, 0.393},   /* 32x128 */
        {{0.6866, 1.3561, 1.9631, 2.4775}, 3.110},   /* 128x32 */
    },
};
