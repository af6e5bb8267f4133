/* test_gpu.c - every built step against the cuBLAS reference on awkward shapes (needs a GPU).
 *
 * Each test runs ./stepN once per shape (and per stage count, for steps with --stages)
 * with --reps 1 --warmup 0 and demands exit 0 and PASS. The harness itself compares
 * every element with cuBLAS, launches the step a second time for the same bits, and
 * checks the guard bands around C for stray writes; these tests choose the shapes that
 * break indexing and edge code, reach every kernel a launch function can pick, and put
 * NaN and Inf in the inputs. Without a GPU every test here is skipped and says why. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "harness.h"
#include "plan.h"
#include "process.h"
#include "shell.h"

#ifndef BUILT_SM
#define BUILT_SM 0   /* the architecture the steps are built for (the Makefile passes it) */
#endif

typedef struct {
    int m, n, k;
    int beta_zero;   /* 1: beta = 0, so C starts as NaN and must not be read */
} shape;

typedef struct {
    const char *name;
    shape shapes[8];   /* ends at the first m == 0 */
} shape_group;

static const shape_group GROUPS[] = {
    {"tiny, odd, K below one tile", {{1, 1, 1, 1}, {7, 13, 5, 0}, {33, 65, 17, 0}, {64, 64, 7, 1}}},
    {"around the tile edges",
     {{127, 127, 127, 0}, {129, 129, 129, 1}, {129, 127, 33, 0}, {255, 257, 3, 0}, {100, 100, 1001, 0}}},
    {"tall, skinny and thin", {{1000, 1, 1000, 1}, {1, 1000, 1000, 0}, {4096, 16, 16, 1}, {16, 4096, 16, 0}}},
    {"larger", {{512, 512, 512, 0}, {1024, 768, 640, 0}}},
};
enum { N_GROUPS = sizeof GROUPS / sizeof GROUPS[0] };

/* A step, and for awkward_shapes_pass the index of its group in GROUPS (item). */
typedef step_param gpu_param;

/* Skips the test, saying why, where this build leaves `program` out (./step6 or ./further:
 * they need sm_80); where the build must hold it and does not, the test fails. */
static void require_built(const char *program)
{
    char why[160];
    if (step_left_out(program, why, sizeof why))
        cr_skip_test("%s", why);
    cr_assert_eq(access(program, X_OK), 0, "%s is not built: run `make all`", program);
}

/* alpha, beta and the seed: pseudo-random, but fixed by the shape, so a failure repeats. */
static void shape_scalars(const shape *s, char *alpha, char *beta, char *seed, size_t len)
{
    uint64_t z = ((uint64_t)s->m << 42) ^ ((uint64_t)s->n << 21) ^ (uint64_t)s->k;
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    /* |alpha| in [0.25, 2.00], |beta| in [0.25, 1.50], either sign; two decimals. */
    double a = (0.25 + (double)((z >> 8) % 176) / 100.0) * ((z & 1) ? -1.0 : 1.0);
    double b = (0.25 + (double)((z >> 24) % 126) / 100.0) * ((z & 2) ? -1.0 : 1.0);
    snprintf(alpha, len, "%.2f", a);
    snprintf(beta, len, "%.2f", s->beta_zero ? 0.0 : b);
    snprintf(seed, len, "%llu", (unsigned long long)((z >> 32) % 1000000));
}

/* Runs argv, expects exit 0 and PASS on the check, the second launch and the guards;
 * returns 1 when it did, with the report in *out when out is not NULL (free it). */
static int expect_pass_report(const char *const *argv, char **out)
{
    proc_result r;
    char st[64];
    run_process(argv, &r);
    int ok = r.status == 0 && strstr(r.out, "  check    PASS") && strstr(r.out, "  repeat   PASS") &&
             strstr(r.out, "  guards   PASS") && !strstr(r.out, "FAIL");
    cr_expect(ok, "`%s` gave %s, expected exit 0 and PASS (check, repeat, guards)" OUTPUT_FMT, r.cmd,
              describe_status(r.status, st, sizeof st), r.out, r.err);
    if (out) {
        *out = r.out;
        r.out = NULL;
    }
    proc_result_free(&r);
    return ok;
}

static int expect_pass(const char *const *argv)
{
    return expect_pass_report(argv, NULL);
}

/* Every shape of one group, at every stage count the step has. */
static void run_group(const gpu_param *p, const shape_group *g)
{
    char why[256];
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    cr_assert_geq(p->max_stages, 0, "%s --help failed or gives no --stages range", p->step);

    int runs = 0;
    for (const shape *s = g->shapes; s->m; s++) {
        char m[16], n[16], k[16], alpha[16], beta[16], seed[24], stages[16];
        snprintf(m, sizeof m, "%d", s->m);
        snprintf(n, sizeof n, "%d", s->n);
        snprintf(k, sizeof k, "%d", s->k);
        shape_scalars(s, alpha, beta, seed, sizeof alpha);
        int last = p->max_stages > 0 ? p->max_stages : 1;
        for (int st = 1; st <= last; st++) {
            snprintf(stages, sizeof stages, "%d", st);
            const char *argv[] = {p->step, m, n, k, "--reps", "1", "--warmup", "0", "--seed", seed,
                                  "--alpha", alpha, "--beta", beta,
                                  p->max_stages > 0 ? "--stages" : NULL, stages, NULL};
            expect_pass(argv);
            runs++;
        }
    }
    cr_assert_gt(runs, 0, "%s, %s: nothing was run", p->step, g->name);
}

ParameterizedTestParameters(gpu, awkward_shapes_pass)
{
    static gpu_param params[MAX_STEPS * N_GROUPS];
    gpu_param steps[MAX_STEPS];
    int n_steps = list_steps(steps, MAX_STEPS), n = 0;
    for (int s = 0; s < n_steps; s++)
        for (int g = 0; g < N_GROUPS; g++) {
            params[n] = steps[s];
            params[n].item = g;
            n++;
        }
    return cr_make_param_array(gpu_param, params, (size_t)n);
}

ParameterizedTest(gpu_param *p, gpu, awkward_shapes_pass, .timeout = 1200)
{
    run_group(p, &GROUPS[p->item]);
}

/* Small integers make every sum exact in FP32, so the harness demands equality with
 * cuBLAS: any indexing mistake shows, however small. */
PER_STEP_PARAMETERS(gpu, integer_inputs_bit_exact)

ParameterizedTest(gpu_param *p, gpu, integer_inputs_bit_exact, .timeout = 600)
{
    char why[256];
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    cr_assert_geq(p->max_stages, 0, "%s --help failed or gives no --stages range", p->step);

    static const int sizes[][3] = {{129, 127, 33}, {256, 256, 256}};
    int runs = 0;
    for (int i = 0; i < 2; i++) {
        char m[16], n[16], k[16], stages[16];
        snprintf(m, sizeof m, "%d", sizes[i][0]);
        snprintf(n, sizeof n, "%d", sizes[i][1]);
        snprintf(k, sizeof k, "%d", sizes[i][2]);
        int last = p->max_stages > 0 ? p->max_stages : 1;
        for (int st = 1; st <= last; st++) {
            snprintf(stages, sizeof stages, "%d", st);
            const char *argv[] = {p->step, m, n, k, "--reps", "1", "--warmup", "0", "--inputs",
                                  "integers", "--alpha", "1", "--beta", "2",
                                  p->max_stages > 0 ? "--stages" : NULL, stages, NULL};
            expect_pass(argv);
            runs++;
        }
    }
    cr_assert_gt(runs, 0);
}

/* ---- NaN and Inf in the inputs propagate as in cuBLAS ----
 * --inputs nonfinite puts one NaN in A (its row of C must be all NaN) and one +Inf in B
 * (its column of C must be +-Inf, NaN where it meets that row): a kernel that skips or
 * zero-fills part of the matrix, or reads a stale tile, loses one of them. The harness
 * compares each non-finite element's class with cuBLAS's; the report counts them. */
static const shape NONFINITE_SHAPES[] = {{129, 127, 33, 0}, {64, 64, 7, 1}, {1000, 1, 1000, 0},
                                         {7, 13, 5, 1}, {2048, 2050, 40, 0}, {0, 0, 0, 0}};

PER_STEP_PARAMETERS(gpu, nan_and_inf_propagate)

ParameterizedTest(gpu_param *p, gpu, nan_and_inf_propagate, .timeout = 600)
{
    char why[256];
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    cr_assert_geq(p->max_stages, 0, "%s --help failed or gives no --stages range", p->step);
    for (const shape *s = NONFINITE_SHAPES; s->m; s++) {
        char m[16], n[16], k[16], alpha[16], beta[16], seed[24], stages[16], expected[64];
        snprintf(m, sizeof m, "%d", s->m);
        snprintf(n, sizeof n, "%d", s->n);
        snprintf(k, sizeof k, "%d", s->k);
        shape_scalars(s, alpha, beta, seed, sizeof alpha);
        /* one row and one column of C, which share one element */
        snprintf(expected, sizeof expected, "(%d of them NaN or Inf, as cuBLAS's)", s->m + s->n - 1);
        int last = p->max_stages > 0 ? p->max_stages : 1;
        for (int st = 1; st <= last; st++) {
            snprintf(stages, sizeof stages, "%d", st);
            const char *argv[] = {p->step, m, n, k, "--reps", "1", "--warmup", "0", "--seed", seed,
                                  "--alpha", alpha, "--beta", beta, "--inputs", "nonfinite",
                                  p->max_stages > 0 ? "--stages" : NULL, stages, NULL};
            char *out = NULL;
            if (expect_pass_report(argv, &out))
                cr_expect(strstr(out, expected), "%s %s %s %s: the report does not say %s:\n%s", p->step, m, n,
                          k, expected, out);
            free(out);
        }
    }
}

/* ---- every kernel a launch function can pick ----
 * A step with a choice names it on the report's "kernel" line. Each row: a shape and
 * what that line must say there. Steps 3 to 6 pick 128x128 tiles when there are at
 * least as many of them as SMs: 2047 x 2050 makes 272, more than any GPU has SMs today;
 * 65 x 130 makes 2. Edges stay awkward: K is not a multiple of the k-tile, M not of the
 * tile. */
/* How the kernel line of steps 3 to 6 opens: the plan's tile and why it took it. */
#define LARGE_TILE "128x128 tiles of 8x8 a thread (one or more tiles per SM)"
#define SMALL_TILE "64x128 tiles of 8x4 a thread (fewer 128x128 tiles than SMs)"

typedef struct {
    const char *step;
    int m, n, k;
    const char *kernel;   /* what the "kernel" line contains */
} kernel_case;

static const kernel_case KERNEL_CASES[] = {
    {"./step3", 2047, 2050, 1001, LARGE_TILE},
    {"./step3", 65, 130, 33, SMALL_TILE},
    {"./step4", 2047, 2052, 1004, LARGE_TILE ", 16-byte loads"},
    {"./step4", 2047, 2050, 1004, LARGE_TILE ", 4-byte loads"},   /* N not a multiple of 4 */
    {"./step4", 2047, 2052, 1001, LARGE_TILE ", 4-byte loads"},   /* K not a multiple of 4 */
    {"./step4", 65, 132, 36, SMALL_TILE ", 16-byte loads"},
    {"./step4", 65, 132, 35, SMALL_TILE ", 4-byte loads"},
    {"./step5", 2047, 2052, 1001, LARGE_TILE ", B copied and C stored in 16-byte pieces"},
    {"./step5", 2047, 2050, 1001, LARGE_TILE ", B copied and C stored in 4-byte pieces"},
    {"./step5", 65, 132, 33, SMALL_TILE ", B copied and C stored in 16-byte pieces"},
    {"./step5", 65, 130, 33, SMALL_TILE ", B copied and C stored in 4-byte pieces"},
};
enum { N_KERNEL_CASES = sizeof KERNEL_CASES / sizeof KERNEL_CASES[0] };

PER_STEP_PARAMETERS(gpu, every_kernel_choice_is_reached_and_passes)

ParameterizedTest(gpu_param *p, gpu, every_kernel_choice_is_reached_and_passes, .timeout = 600)
{
    char why[256];
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    cr_assert_geq(p->max_stages, 0, "%s --help failed or gives no --stages range", p->step);
    if (strcmp(p->step, "./step6") == 0)
        cr_skip_test("step 6's choices: gpu::step6_every_stage_count_and_loop_passes");
    if (strcmp(p->step, "./further") == 0)
        cr_skip_test("the track's choices: gpu::track_every_choice_of_the_plan_passes");
    int cases = 0;
    for (int c = 0; c < N_KERNEL_CASES; c++) {
        const kernel_case *kc = &KERNEL_CASES[c];
        if (strcmp(kc->step, p->step) != 0)
            continue;
        cases++;
        char m[16], n[16], k[16], stages[16];
        snprintf(m, sizeof m, "%d", kc->m);
        snprintf(n, sizeof n, "%d", kc->n);
        snprintf(k, sizeof k, "%d", kc->k);
        int last = p->max_stages > 0 ? p->max_stages : 1;
        for (int st = 1; st <= last; st++) {
            snprintf(stages, sizeof stages, "%d", st);
            const char *argv[] = {p->step, m, n, k, "--reps", "1", "--warmup", "0", "--beta", "0.5",
                                  p->max_stages > 0 ? "--stages" : NULL, stages, NULL};
            char *out = NULL;
            if (expect_pass_report(argv, &out)) {
                const char *line = strstr(out, "  kernel   ");
                cr_expect(line && strstr(line, kc->kernel) && strstr(line, kc->kernel) < line_end(line),
                          "%s %s %s %s --stages %s: the kernel line does not say \"%s\":\n%s", p->step, m, n, k,
                          stages, kc->kernel, out);
            }
            free(out);
        }
    }
    /* A step without a choice prints no kernel line; one with a choice must have cases here. */
    const char *argv[] = {p->step, "8", "--reps", "1", "--warmup", "0", NULL};
    char *out = NULL;
    if (expect_pass_report(argv, &out)) {
        int has_line = strstr(out, "  kernel   ") != NULL;
        cr_expect(has_line == (cases > 0), "%s %s a kernel line but has %d cases in KERNEL_CASES:\n%s", p->step,
                  has_line ? "prints" : "prints no", cases, out);
    }
    free(out);
}

/* ---- the largest sizes the harness accepts ----
 * M = 2^30 or N = 2^30 (with the other two 1): every index a step computes is then near
 * its 32-bit limit's half, and the check still covers all 2^30 elements. (K = 2^30 would
 * be a 2^30-long product in one thread or block: minutes per step, so the parser's
 * boundary test and the index arithmetic's comments stand for it.) */
Test(gpu, largest_m_and_n_pass, .timeout = 1200)
{
    char why[256];
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    /* One step after another (24 GB of GPU memory each), not in parallel; on a GPU with
       less free memory than that, the steps refuse the size (exit 2), and this test skips. */
    size_t free_bytes = 0, total = 0, need = 0;
    int l2 = 0;
    cr_assert_eq(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
    cr_assert_eq(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0), cudaSuccess);
    cr_assert(device_bytes_needed(1073741824, 1, 1, l2, &need));
    if (need > free_bytes) {
        char needs[32], has[32];
        format_bytes(needs, sizeof needs, (double)need);
        format_bytes(has, sizeof has, (double)free_bytes);
        cr_skip_test("M = 2^30 needs %s of GPU memory; this GPU has %s free", needs, has);
    }
    gpu_param steps[MAX_STEPS];
    int n_steps = list_steps(steps, MAX_STEPS);
    cr_assert_gt(n_steps, 0, "no step is built");
    const char *const shapes[][3] = {{"1073741824", "1", "1"}, {"1", "1073741824", "1"}};
    for (int s = 0; s < n_steps; s++)
        for (int i = 0; i < 2; i++) {
            const char *argv[] = {steps[s].step, shapes[i][0], shapes[i][1], shapes[i][2], "--reps", "1",
                                  "--warmup", "0", NULL};
            expect_pass(argv);
        }
}

/* ---- the steps this build leaves out ----
 * Steps 5 and 6 copy with cp.async (sm_80 on): a build for an older ARCH leaves them out,
 * and their tests are not run. Said here, as a skip, so that no run hides it. */
Test(gpu, steps_5_and_6_are_built_where_the_architecture_has_cp_async)
{
    int built5 = access("./step5", X_OK) == 0, built6 = access("./step6", X_OK) == 0,
        built_track = access("./further", X_OK) == 0;
    if (BUILT_SM < 80) {
        cr_expect(!built5 && !built6 && !built_track, "a build for sm_%d holds step 5, step 6 or the track", BUILT_SM);
        cr_skip_test("steps 5 and 6 and the track are not built for sm_%d (cp.async needs sm_80): their tests do "
                     "not run", BUILT_SM);
    }
    cr_expect(built5 && built6 && built_track, "a build for sm_%d must hold steps 5 and 6 and ./further: run "
              "`make all`", BUILT_SM);
}

/* ---- the device memory a launch function keeps (step 6's partial sums and counts) ----
 * In this process, not a step's: the counts zeroed when new, kept with their contents for a
 * smaller request, new and zeroed for a larger; the workspace kept and grown likewise; the
 * two apart, so that no kernel's sums land on another's counts. */
Test(gpu, workspace_and_counts_are_kept_grown_and_apart)
{
    char why[256];
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    static int host[2048];
    cudaError_t err;
    int *counts = harness_counts(1024, &err);
    cr_assert(err == cudaSuccess && counts != NULL, "1024 counts: %s", cudaGetErrorString(err));
    cr_assert_eq(cudaMemcpy(host, counts, 1024 * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 1024; i++)
        cr_assert_eq(host[i], 0, "count %d of new counts is %d, not 0", i, host[i]);
    cr_assert_eq(cudaMemset(counts, 7, 1024 * sizeof(int)), cudaSuccess);
    cr_expect_eq(harness_counts(100, &err), counts, "a smaller request got other counts");
    cr_assert_eq(cudaMemcpy(host, counts, 1024 * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    cr_expect_eq(host[1023], 0x07070707, "the counts lost their contents");
    int *grown = harness_counts(2048, &err);
    cr_assert(err == cudaSuccess && grown != NULL, "2048 counts: %s", cudaGetErrorString(err));
    cr_assert_eq(cudaMemcpy(host, grown, 2048 * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 2048; i++)
        cr_assert_eq(host[i], 0, "count %d of grown counts is %d, not 0", i, host[i]);
    char *w = harness_workspace(4096, &err);
    cr_assert(err == cudaSuccess && w != NULL, "4096 bytes: %s", cudaGetErrorString(err));
    cr_expect_eq(harness_workspace(100, &err), w, "a smaller request got another workspace");
    char *wider = harness_workspace(1 << 20, &err);
    cr_assert(err == cudaSuccess && wider != NULL, "1 MiB: %s", cudaGetErrorString(err));
    cr_expect(wider + (1 << 20) <= (char *)grown || (char *)(grown + 2048) <= wider,
              "the workspace and the counts overlap");
    harness_workspace_free();
}

/* ---- what the device refuses, named ----
 * A step asks for the shared memory its plan needs; past the device's limit (or the
 * limit SGEMM_PLAN_DEVICE sets) the harness refuses before CUDA does, with one line that
 * names the amount and the limit. A refused cluster launch gets one line naming the
 * cluster's blocks, threads, shared memory, CUDA's error and what the device holds. The
 * plans never ask past a limit, so these call the harness's functions themselves. */
Test(gpu, a_shared_memory_request_past_the_limit_is_named, .init = cr_redirect_stderr)
{
    char why[256];
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    gpu_limits gpu;
    cudaError_t err;
    cr_assert(harness_gpu_limits(&gpu, &err), "the device's limits: %s", cudaGetErrorString(err));
    size_t bytes = (size_t)gpu.smem_block + 1024;
    /* Refused before the kernel is looked at: no kernel is needed. */
    cr_expect_eq(harness_ask_smem(NULL, bytes), cudaErrorInvalidValue, "a request past the limit was not refused");
    char want[256];
    snprintf(want, sizeof want,
             "error: shared memory: a block asks for %zu bytes (%.1f KiB), and this device lets a block have %d "
             "(%.1f KiB)%s\n",
             bytes, bytes / 1024.0, gpu.smem_block, gpu.smem_block / 1024.0,
             getenv(PLAN_DEVICE_VAR) ? " as " PLAN_DEVICE_VAR " sets it" : "");
    fflush(stderr);
    cr_expect_stderr_eq_str(want, "the refusal's line is not %s", want);
}

Test(gpu, a_refused_cluster_is_named, .init = cr_redirect_stderr)
{
    char why[256];
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    int supported = 0;
    cr_assert_eq(cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, 0), cudaSuccess);
    cudaLaunchConfig_t config = {0};
    config.gridDim.x = 64, config.gridDim.y = config.gridDim.z = 1;
    config.blockDim.x = 256, config.blockDim.y = config.blockDim.z = 1;
    config.dynamicSmemBytes = 100 * 1024;
    /* No kernel: how many such clusters fit cannot be read, and the line says so. */
    harness_explain_cluster(NULL, &config, 16, cudaErrorInvalidClusterSize);
    char want[320];
    snprintf(want, sizeof want,
             "error: thread-block clusters: a cluster of 16 blocks of 256 threads and 100.0 KiB of shared memory "
             "each was refused (cudaErrorInvalidClusterSize): %s\n",
             supported ? "how many fit could not be read" : "this device does not launch clusters");
    fflush(stderr);
    cr_expect_stderr_eq_str(want, "the refusal's line is not %s", want);
    cr_expect_eq(cudaGetLastError(), cudaSuccess, "the query's own error was left for the next CUDA call");
}

/* ---- step 6: step 5's tiles with k-tiles 8 deep, and step 5's plan; its main loop unrolled
 * at 3 stages, step 5's loop at 2 and 4; --unroll yes or no turns the unrolling on or off at
 * any stage count from 2. Every tile, copy width, stage count and loop runs, and the kernel
 * line names each. */
Test(gpu, step6_every_stage_count_and_loop_passes, .timeout = 900)
{
    static const struct {
        int m, n, k;
        const char *tile;
    } shapes[] = {
        {2047, 2052, 1001, LARGE_TILE ", B copied and C stored in 16-byte pieces (N a multiple of 4)"},
        {2047, 2050, 1001, LARGE_TILE ", B copied and C stored in 4-byte pieces (N not a multiple of 4)"},
        {65, 132, 33, SMALL_TILE ", B copied and C stored in 16-byte pieces (N a multiple of 4)"},
        {65, 130, 33, SMALL_TILE ", B copied and C stored in 4-byte pieces (N not a multiple of 4)"},
    };
    char why[256];
    require_built("./step6");
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (int st = 1; st <= 4; st++)
            for (int u = UNROLL_AS_PLANNED; u <= UNROLL_YES; u++) {
                char m[16], n[16], k[16], stages[16], expected[256];
                snprintf(m, sizeof m, "%d", shapes[i].m);
                snprintf(n, sizeof n, "%d", shapes[i].n);
                snprintf(k, sizeof k, "%d", shapes[i].k);
                snprintf(stages, sizeof stages, "%d", st);
                int unrolled = st > 1 && (u == UNROLL_AS_PLANNED ? st == 3 : u == UNROLL_YES);
                snprintf(expected, sizeof expected, "%s, %s", shapes[i].tile,
                         unrolled ? "the stage loop unrolled" : "step 5's loop");
                const char *argv[] = {"./step6", m, n, k, "--reps", "1", "--warmup", "0", "--beta", "0.5",
                                      "--stages", stages,
                                      u == UNROLL_AS_PLANNED ? NULL : "--unroll", u == UNROLL_YES ? "yes" : "no", NULL};
                char *out = NULL;
                if (expect_pass_report(argv, &out)) {
                    const char *line = strstr(out, "  kernel   ");
                    cr_expect(line && strncmp(line + 11, expected, strlen(expected)) == 0,
                              "the kernel line does not start \"%s\":\n%s", expected, out);
                }
                free(out);
            }
}

/* ---- the track: every choice its launch plan makes on this GPU, every part of it ----
 * The plan (going_further/plan.c) is a function of the problem and the device; these tests
 * ask it, for the GPU present, what ./further must run, search shapes that reach each of its
 * choices (tile, split, runs of k-tiles, loop, copy width) at each part of the track, run
 * each at every stage count it is built for, and demand PASS and the plan's own kernel line. */
typedef struct {
    int m, n, k, track, unroll;
    track_plan plan;   /* at 3 stages */
    char name[32];     /* --plan NAME, or "" for the plan's own choice */
} step6_case;

/* The device as the track's plan sees it: the harness's limits (SGEMM_PLAN_DEVICE, when set,
 * shrinks them for the steps and for these tests alike), clusters only where the binary
 * holds their code (built for sm_90 or newer: the Makefile's ARCH). */
static int this_device(plan_device *dev, char *why, size_t len)
{
    int major = 0;
    cudaError_t err;
    if (!gpu_available(why, len))
        return 0;
    if (!harness_gpu_limits(dev, &err) ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess) {
        snprintf(why, len, err != cudaSuccess ? "a device attribute could not be read"
                                              : PLAN_DEVICE_VAR " cannot be read: run a step to see why");
        return 0;
    }
    dev->clusters = dev->clusters && major >= 9 && BUILT_SM >= 90;
    return 1;
}

static int same_choice(const track_plan *a, const track_plan *b)
{
    return a->kernel == b->kernel && a->tile == b->tile && a->split == b->split && !a->runs == !b->runs &&
           (a->parts > 1) == (b->parts > 1) && a->vec == b->vec && a->loop == b->loop && a->lanes == b->lanes;
}

static const int MS[] = {1, 7, 65, 129, 200, 500, 1000, 1100, 1500, 1600, 2047, 4097};
static const int NS[] = {18, 20, 60, 61, 130, 132, 251, 252, 998, 1000, 1499, 1500, 2498, 2500, 4099, 4100};
static const int KS[] = {33, 201, 300, 601, 1001, 4099};
enum { N_GRID = (int)(sizeof MS / sizeof MS[0] * sizeof NS / sizeof NS[0] * sizeof KS / sizeof KS[0]) };
/* Shape i of the grid, K slowest, then M, then N. */
static void grid_shape(int i, int *m, int *n, int *k)
{
    const int nn = sizeof NS / sizeof NS[0], nm = sizeof MS / sizeof MS[0];
    *n = NS[i % nn];
    *m = MS[i / nn % nm];
    *k = KS[i / nn / nm];
}

/* The first shape of a grid (odd sizes, N a multiple of 4, even and odd, K not a multiple of the
 * k-tile), then of six columns of C (N = 1, K a multiple of 4 and not; 256, 32, 128, 4 and 1
 * threads a row, the last block's rows cut short) and two of K = 1 (C of whole float4s, and
 * with the last float4 cut short) and two of a few columns (N of 13 and 6, K a multiple of 4
 * and not), that reaches each distinct choice of the plan, at each track part and --unroll. */
static const int COLUMNS[][3] = {{4097, 1, 4096}, {1000, 1, 4099}, {1631, 1, 75}, {4097, 1, 512}, {5371, 1, 10},
                                 {6295, 1, 1}, {4096, 1000, 1}, {4097, 1001, 1}, {4099, 13, 4096}, {3001, 6, 2049}};
enum { N_COLUMNS = (int)(sizeof COLUMNS / sizeof COLUMNS[0]) };
static int step6_cases(const plan_device *dev, step6_case *out, int max)
{
    int count = 0;
    for (int track = TRACK_WARP_TILES; track < TRACK_PARTS; track++)
        for (int u = UNROLL_AS_PLANNED; u <= UNROLL_YES; u++)
            for (int i = 0; i < N_GRID + N_COLUMNS; i++) {
                int m, n, k;
                if (i < N_GRID)
                    grid_shape(i, &m, &n, &k);
                else
                    m = COLUMNS[i - N_GRID][0], n = COLUMNS[i - N_GRID][1], k = COLUMNS[i - N_GRID][2];
                track_plan p = track_plan_for(m, n, k, 3, track, u, dev, NULL);
                int seen = 0;
                for (int c = 0; c < count && !seen; c++)
                    seen = same_choice(&out[c].plan, &p);
                if (!seen && count < max)
                    out[count++] = (step6_case){m, n, k, track, u, p, ""};
            }
    return count;
}

/* Every kernel the plan may launch, by name (--plan), with B (rows: A) read in 16-byte pieces,
 * 8-byte ones (tiles only: N even) and 4-byte ones: the first shape of the grid, then of the
 * columns, where the whole track has it as a candidate. */
static int step6_named_cases(const plan_device *dev, step6_case *out, int max)
{
    static const char *const NAMES[] = {"128x128", "64x128", "64x64", "64x128/split2", "64x128/split4",
                                        "64x64/split2", "64x64/split4", "64x64/split8", "128x256", "128x256/runs",
                                        "128x128/parts2", "64x128/parts2", "64x64/parts2", "128x256/parts2",
                                        "128x64", "128x64/parts2", "32x128/parts2", "128x32", "128x32/parts2", "few-rows",
                                        "few-rows/parts2", "rows", "few-cols", "flat"};
    int count = 0;
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        for (int vec = 4; vec <= 16; vec *= 2) {
            int found = 0;
            for (int g = 0; g < N_GRID + N_COLUMNS && !found; g++) {
                int m, n, k;
                if (g < N_GRID)
                    grid_shape(g, &m, &n, &k);
                else
                    m = COLUMNS[g - N_GRID][0], n = COLUMNS[g - N_GRID][1], k = COLUMNS[g - N_GRID][2];
                track_plan p = track_plan_for(m, n, k, 3, TRACK_WHOLE, UNROLL_AS_PLANNED, dev, NAMES[i]);
                if (p.found && p.vec == vec && count < max) {
                    out[count] = (step6_case){m, n, k, TRACK_WHOLE, UNROLL_AS_PLANNED, p, ""};
                    snprintf(out[count++].name, sizeof out[0].name, "%s", NAMES[i]);
                    found = 1;
                }
            }
            cr_expect(found || (strstr(NAMES[i], "split") && !dev->clusters) ||
                          (vec == 8 && !strchr(NAMES[i], 'x')),   /* 8-byte copies: tiles only */
                      "no test shape has %s as a candidate with %d-byte copies on this GPU (%d SMs)", NAMES[i],
                      vec, dev->sms);
        }
    return count;
}

/* One test a stage count, so that a parallel run (-j) takes the four at once. */
ParameterizedTestParameters(gpu, track_every_choice_of_the_plan_passes)
{
    static int stage_counts[] = {1, 2, 3, 4};
    return cr_make_param_array(int, stage_counts, 4);
}

ParameterizedTest(int *stage_count, gpu, track_every_choice_of_the_plan_passes, .timeout = 1800)
{
    char why[256];
    plan_device dev;
    require_built("./further");
    if (!this_device(&dev, why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    static step6_case cases[320];
    int count = step6_cases(&dev, cases, 256);
    count += step6_named_cases(&dev, cases + count, 320 - count);
    for (int c = 0; c < count; c++) {
        const step6_case *sc = &cases[c];
        char m[16], n[16], k[16], stages[16], expected[256];
        snprintf(m, sizeof m, "%d", sc->m);
        snprintf(n, sizeof n, "%d", sc->n);
        snprintf(k, sizeof k, "%d", sc->k);
        int st = *stage_count;
        snprintf(stages, sizeof stages, "%d", st);
        track_plan p = track_plan_for(sc->m, sc->n, sc->k, st, sc->track, sc->unroll, &dev,
                                      sc->name[0] ? sc->name : NULL);
        if (!p.found)
            continue;   /* K in parts, the runs, the skinny tiles: at 3 stages only */
        track_plan_describe(&p, expected, sizeof expected);
        const char *argv[20] = {"./further", m, n, k, "--reps", "1", "--warmup", "0", "--beta", "0.5",
                                "--stages", stages, "--part", TRACK_NAMES[sc->track]};
        int argc = 14;
        if (sc->name[0]) {
            argv[argc++] = "--plan";
            argv[argc++] = sc->name;
        }
        if (sc->unroll != UNROLL_AS_PLANNED) {
            argv[argc++] = "--unroll";
            argv[argc++] = sc->unroll == UNROLL_YES ? "yes" : "no";
        }
        char *out = NULL;
        if (expect_pass_report(argv, &out)) {
            const char *line = strstr(out, "  kernel   ");
            cr_expect(line && strncmp(line + 11, expected, strlen(expected)) == 0 &&
                          line + 11 + strlen(expected) == line_end(line),
                      "the kernel line does not say \"%s\":\n%s", expected, out);
        }
        free(out);
    }
}

/* Every part of the track, and --unroll both ways, at the awkward shapes: sizes below a
 * tile, odd sizes, K not a multiple of the k-tile, beta 0 and not; two shapes of wide tiles,
 * one wave with K whole and one with runs of k-tiles that cut tiles in four; two columns
 * of C, A read in 16-byte and 4-byte pieces; three of a few rows of C (1, 8 and 5 rows;
 * 1, 8 and 16 lanes; 17, 132 and 390 blocks on an H100); and two of a few columns (13 and 6,
 * A read in 16-byte and 4-byte pieces). */
static const shape STEP6_MORE[] = {{1600, 2500, 1001, 0}, {2047, 2498, 1001, 1}, {3001, 1, 2048, 0}, {129, 1, 1027, 1},
                                   {1, 2, 4471, 1}, {8, 357, 2776, 0}, {5, 4100, 3001, 1}, {4099, 13, 4096, 1},
                                   {3001, 6, 2049, 0}, {0, 0, 0, 0}};
Test(gpu, track_every_part_at_awkward_shapes, .timeout = 1800)
{
    char why[256];
    require_built("./further");
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    for (int track = 0; track < TRACK_PARTS; track++)
        for (int u = UNROLL_AS_PLANNED; u <= UNROLL_YES; u++)
            for (int g = 0; g < 3; g++)
                for (const shape *s = g < 2 ? GROUPS[g].shapes : STEP6_MORE; s->m; s++) {
                    char m[16], n[16], k[16], alpha[16], beta[16], seed[24];
                    snprintf(m, sizeof m, "%d", s->m);
                    snprintf(n, sizeof n, "%d", s->n);
                    snprintf(k, sizeof k, "%d", s->k);
                    shape_scalars(s, alpha, beta, seed, sizeof alpha);
                    const char *argv[] = {"./further", m, n, k, "--reps", "1", "--warmup", "0", "--seed", seed,
                                          "--alpha", alpha, "--beta", beta, "--part", TRACK_NAMES[track],
                                          u == UNROLL_AS_PLANNED ? NULL : "--unroll", u == UNROLL_YES ? "yes" : "no",
                                          NULL};
                    expect_pass(argv);
                }
}

/* ---- the track's launch as a program uses a library: many problems in one process ----
 * A program that calls the launch calls it again, at other shapes, plans and stage counts;
 * what one launch leaves (the workspace, the counts, a kept plan) must not change the next
 * one's result. ./further runs the problems given after each --then one after another in one
 * process; each gets its check against cuBLAS, a second launch and the guards. */
enum { MAX_SEQ_ARGS = 1 << 16, SEQ_POOL = 1 << 20, MAX_CANDIDATES = 1024 };
typedef struct {
    const char *argv[MAX_SEQ_ARGS];   /* the wrapper (compute-sanitizer), the program, the problems; NULL-terminated */
    int argc, problems;
    char pool[SEQ_POOL];              /* the arguments' text */
    size_t used;
} sequence;

static void seq_add(sequence *s, const char *arg)
{
    size_t len = strlen(arg) + 1;
    cr_assert(s->argc + 1 < MAX_SEQ_ARGS && s->used + len <= SEQ_POOL, "the sequence is too long for its buffers");
    memcpy(s->pool + s->used, arg, len);
    s->argv[s->argc++] = s->pool + s->used;
    s->argv[s->argc] = NULL;
    s->used += len;
}

/* One problem: m x n x k at `stages` (0: no --stages), candidate `plan` (NULL: the plan's choice), and either
 * integer inputs with alpha = beta = 1 (exact: equal to cuBLAS's), or random ones with beta 0
 * or the shape's alpha and beta (shape_scalars). */
typedef enum { INTEGERS_BETA_1, RANDOM_BETA_0, RANDOM_SCALARS, INPUT_KINDS } input_mix;
static void seq_problem(sequence *s, int m, int n, int k, int stages, const char *plan, input_mix mix)
{
    char text[3][16], alpha[16], beta[16], seed[24], st[16];
    shape sh = {m, n, k, mix == RANDOM_BETA_0};
    shape_scalars(&sh, alpha, beta, seed, sizeof alpha);
    snprintf(text[0], sizeof text[0], "%d", m);
    snprintf(text[1], sizeof text[1], "%d", n);
    snprintf(text[2], sizeof text[2], "%d", k);
    snprintf(st, sizeof st, "%d", stages);
    if (s->problems++ > 0)
        seq_add(s, "--then");
    const char *args[] = {text[0], text[1], text[2], "--reps", "1", "--warmup", "0", "--seed", seed};
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++)
        seq_add(s, args[i]);
    if (stages > 0) {
        seq_add(s, "--stages");
        seq_add(s, st);
    }
    if (plan) {
        seq_add(s, "--plan");
        seq_add(s, plan);
    }
    const char *inputs[] = {"--inputs", "integers", "--alpha", "1", "--beta", "1"};
    const char *scalars[] = {"--alpha", alpha, "--beta", beta};
    for (int i = 0; mix == INTEGERS_BETA_1 && i < 6; i++)
        seq_add(s, inputs[i]);
    for (int i = 0; mix != INTEGERS_BETA_1 && i < 4; i++)
        seq_add(s, scalars[i]);
}

/* Runs the sequence and expects exit 0 and, for every problem, PASS on the check, the repeat
 * and the guards; a failure names the first few problems that failed, with their reports
 * (each starts at `report`, the step's name and a colon). */
static void expect_sequence_passes(sequence *s, const char *report, const char *what)
{
    proc_result r;
    char st[64];
    run_process(s->argv, &r);
    int passes[3] = {0, 0, 0};
    const char *const lines[3] = {"  check    PASS", "  repeat   PASS", "  guards   PASS"};
    for (int i = 0; i < 3; i++)
        for (const char *at = strstr(r.out, lines[i]); at; at = strstr(at + 1, lines[i]))
            passes[i]++;
    int ok = r.status == 0 && passes[0] == s->problems && passes[1] == s->problems && passes[2] == s->problems;
    if (!ok) {   /* the reports that failed: each starts at the step's name */
        int shown = 0;
        for (const char *rep = strstr(r.out, report); rep && shown < 3; rep = strstr(rep + 1, report)) {
            const char *end = strstr(rep + 1, report);
            int len = end ? (int)(end - rep) : (int)strlen(rep);
            const char *fail = strstr(rep, "FAIL");
            if (fail && fail < rep + len && shown++ < 3)
                cr_log_error("%s: a problem that failed:\n%.*s", what, len, rep);
        }
    }
    cr_expect(ok, "%s: %d problems in one process gave %s and %d, %d, %d PASS (check, repeat, guards), expected "
                  "exit 0 and all PASS\n--- stderr ---\n%.3000s\n--- stdout's end ---\n%.2000s",
              what, s->problems, describe_status(r.status, st, sizeof st), passes[0], passes[1], passes[2], r.err,
              r.out_len > 2000 ? r.out + r.out_len - 2000 : r.out);
    cr_log_info("%s: %d problems in one process: %s", what, s->problems, ok ? "all PASS" : "FAILED");
    proc_result_free(&r);
}

/* The candidates of the track's plan for a shape at a stage count, each name once: with `few` 0,
 * every one; else, of each kind's counts of parts, the fewest and the most. */
static int seq_candidates(const plan_device *dev, int m, int n, int k, int stages, int few, char (*names)[32])
{
    int count = track_plan_candidates(m, n, k, stages, TRACK_WHOLE, UNROLL_AS_PLANNED, dev, names, MAX_CANDIDATES);
    cr_assert_leq(count, MAX_CANDIDATES, "%d x %d x %d has more candidates than the test holds", m, n, k);
    if (!few)
        return count;
    int kept = 0;
    for (int i = 0; i < count; i++) {
        const char *parts = strstr(names[i], "/parts");
        int fewest = 1, most = 1;
        for (int j = 0; parts && j < count; j++) {   /* another count of parts of the same kind */
            const char *other = strstr(names[j], "/parts");
            if (j == i || !other || other - names[j] != parts - names[i] || strncmp(names[j], names[i], parts - names[i]))
                continue;
            fewest &= atoi(other + 6) > atoi(parts + 6);
            most &= atoi(other + 6) < atoi(parts + 6);
        }
        if (!parts || fewest || most)
            memmove(names[kept++], names[i], 32);
    }
    return kept;
}

/* Shapes where the workspace and the counts are used in every way: the few rows' sums (1 to
 * 16 rows, N % 4 of 0 to 3), K in parts of every tile (deep K, tiny C), the runs of the last
 * wave; between them K whole, split over a cluster, one column, a few columns and K = 1. The
 * first five were wrong after other K-in-parts shapes before the counts had their own memory. */
static const shape SEQUENCE_SHAPES[] = {{6, 18, 9999, 0},    {2, 5, 40000, 0},    {16, 16, 65537, 0},
                                        {7, 24, 14449, 0},   {11, 1386, 257, 0},  {1537, 1535, 259, 0},
                                        {61, 251, 4099, 0},  {2049, 2503, 263, 0}, {1000, 1, 1000, 0},
                                        {4099, 13, 300, 0},  {4097, 1001, 1, 0},  {1, 1, 1, 0},
                                        {3, 4098, 5003, 0},  {13, 4094, 2049, 0}, {0, 0, 0, 0}};

Test(gpu, track_launches_in_one_process_as_a_program_would, .timeout = 1800)
{
    char why[256];
    plan_device dev;
    require_built("./further");
    if (!this_device(&dev, why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    static sequence s;
    static char names[MAX_CANDIDATES][32];
    s.argc = s.problems = 0, s.used = 0;
    seq_add(&s, "./further");
    /* First the pair that found it: 53,142 of the second's 53,222 elements were wrong. */
    seq_problem(&s, 3, 4098, 5003, 3, NULL, RANDOM_SCALARS);
    seq_problem(&s, 13, 4094, 2049, 3, NULL, INTEGERS_BETA_1);
    /* Then every shape's candidates at every stage count, the shapes taken in turn (one
     * problem of each, round after round), so that each kind of launch follows every other. */
    typedef struct { int shape, stages; char name[32]; } item;
    static item items[8192];
    int n_items = 0, most = 0, n_shapes = 0;
    for (const shape *sh = SEQUENCE_SHAPES; sh->m; sh++, n_shapes++)
        for (int st = 1; st <= 4; st++) {
            int count = seq_candidates(&dev, sh->m, sh->n, sh->k, st, 1, names);
            for (int i = 0; i <= count && n_items < 8192; i++, n_items++) {   /* i == count: the plan's choice */
                items[n_items] = (item){(int)(sh - SEQUENCE_SHAPES), st, ""};
                snprintf(items[n_items].name, 32, "%s", i < count ? names[i] : "");
            }
        }
    int per_shape[16] = {0};
    for (int i = 0; i < n_items; i++)
        most = (int)fmax(most, ++per_shape[items[i].shape]);
    for (int round = 0, done = 0; round < most; round++)
        for (int sh = 0; sh < n_shapes; sh++)
            for (int i = 0, seen = 0; i < n_items; i++)
                if (items[i].shape == sh && seen++ == round) {
                    const shape *x = &SEQUENCE_SHAPES[sh];
                    seq_problem(&s, x->m, x->n, x->k, items[i].stages, items[i].name[0] ? items[i].name : NULL,
                                (input_mix)(done++ % INPUT_KINDS));
                    break;
                }
    expect_sequence_passes(&s, "going_further: ", "the track, every kind of launch in turn");
}

/* Steps 0 to 6 as a library is used: every shape of GROUPS and of the step's KERNEL_CASES
 * (each tile and each copy width it can pick), at every stage count, in one process. The
 * shapes come in turn (one problem of each, round after round, at stage counts 1, 2, ... by
 * turns), so that each tile, width and stage count follows every other, and the inputs go
 * from integers (exact) to random ones, with beta 0 and not. */
PER_STEP_PARAMETERS(gpu, steps_launch_in_one_process_as_a_program_would)

ParameterizedTest(gpu_param *p, gpu, steps_launch_in_one_process_as_a_program_would, .timeout = 900)
{
    char why[256], report[32], what[96];
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    cr_assert_geq(p->max_stages, 0, "%s --help failed or gives no --stages range", p->step);
    shape shapes[64];
    int n_shapes = 0;
    for (int g = 0; g < N_GROUPS; g++)
        for (const shape *sh = GROUPS[g].shapes; sh->m && n_shapes < 64; sh++)
            shapes[n_shapes++] = *sh;
    for (int c = 0; c < N_KERNEL_CASES && n_shapes < 64; c++)
        if (strcmp(KERNEL_CASES[c].step, p->step) == 0)
            shapes[n_shapes++] = (shape){KERNEL_CASES[c].m, KERNEL_CASES[c].n, KERNEL_CASES[c].k, c % 2};
    static sequence s;
    s.argc = s.problems = 0, s.used = 0;
    seq_add(&s, p->step);
    int stage_counts = p->max_stages > 0 ? p->max_stages : 1, done = 0;
    for (int round = 0; round < stage_counts; round++)
        for (int i = 0; i < n_shapes; i++) {
            int stages = p->max_stages > 0 ? 1 + (round + i) % p->max_stages : 0;
            seq_problem(&s, shapes[i].m, shapes[i].n, shapes[i].k, stages, NULL,
                        shapes[i].beta_zero ? RANDOM_BETA_0 : (input_mix)(done++ % INPUT_KINDS));
        }
    snprintf(report, sizeof report, "%s", p->step + 2);   /* "./step3" -> "step3", the start of "step3_registers: " */
    snprintf(what, sizeof what, "%s, %d shapes at %d stage count(s) in turn", p->step, n_shapes, stage_counts);
    expect_sequence_passes(&s, report, what);
}

/* Every candidate the plan names, at every stage count, at awkward shapes, under
 * compute-sanitizer's memcheck: no access outside an allocation, no leak. One process a
 * shape, its candidates after --then. (64x64/split8 at one stage wrote far outside C at
 * 1537 x 1535 x 259: its eighth block had no k-tile, and read the tile's origin before any
 * barrier.) */
static const shape MEMCHECK_SHAPES[] = {
    {1537, 1535, 259, 0}, {7, 13, 5, 1},     {33, 65, 17, 0},   {131, 257, 1031, 1}, {127, 130, 509, 0},
    {61, 251, 4099, 1},   {13, 4094, 2049, 0}, {3, 4098, 5003, 1}, {2049, 2503, 263, 0}, {1000, 1, 1000, 1},
    {4099, 13, 300, 0},   {4097, 1001, 1, 1},  {16, 16, 65537, 0}, {129, 127, 33, 1},   {1, 1, 1, 0},
    {255, 257, 3, 1},
};
enum { N_MEMCHECK_SHAPES = sizeof MEMCHECK_SHAPES / sizeof MEMCHECK_SHAPES[0] };

/* compute-sanitizer: $COMPUTE_SANITIZER, else on PATH, else in the toolkit's usual place. */
static int find_sanitizer(char *path, size_t len)
{
    const char *set = getenv("COMPUTE_SANITIZER"), *dirs = getenv("PATH");
    if (set && access(set, X_OK) == 0)
        return snprintf(path, len, "%s", set), 1;
    char all[4096];
    snprintf(all, sizeof all, "%s:/usr/local/cuda/bin", dirs ? dirs : "");
    for (char *dir = strtok(all, ":"); dir; dir = strtok(NULL, ":")) {
        snprintf(path, len, "%s/compute-sanitizer", dir);
        if (access(path, X_OK) == 0)
            return 1;
    }
    return 0;
}

ParameterizedTestParameters(gpu, track_every_candidate_at_awkward_shapes_under_memcheck)
{
    static int shapes[N_MEMCHECK_SHAPES];
    for (int i = 0; i < N_MEMCHECK_SHAPES; i++)
        shapes[i] = i;
    return cr_make_param_array(int, shapes, N_MEMCHECK_SHAPES);
}

ParameterizedTest(int *which, gpu, track_every_candidate_at_awkward_shapes_under_memcheck, .timeout = 1800)
{
    char why[256], sanitizer[1024];
    plan_device dev;
    require_built("./further");
    if (!this_device(&dev, why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    if (!find_sanitizer(sanitizer, sizeof sanitizer))
        cr_skip_test("compute-sanitizer is not on PATH nor in /usr/local/cuda/bin (set COMPUTE_SANITIZER)");
    const shape *sh = &MEMCHECK_SHAPES[*which];
    static sequence s;
    static char names[MAX_CANDIDATES][32];
    s.argc = s.problems = 0, s.used = 0;
    const char *tool[] = {sanitizer, "--tool", "memcheck", "--leak-check", "full", "--error-exitcode", "9",
                          "./further"};
    for (size_t i = 0; i < sizeof tool / sizeof tool[0]; i++)
        seq_add(&s, tool[i]);
    for (int st = 1; st <= 4; st++) {
        int count = seq_candidates(&dev, sh->m, sh->n, sh->k, st, 0, names);
        for (int i = 0; i < count; i++)
            seq_problem(&s, sh->m, sh->n, sh->k, st, names[i], sh->beta_zero ? RANDOM_BETA_0 : RANDOM_SCALARS);
    }
    char what[96];
    snprintf(what, sizeof what, "memcheck, every candidate at %d x %d x %d", sh->m, sh->n, sh->k);
    expect_sequence_passes(&s, "going_further: ", what);
}

/* ---- the exercises' check, checked ----
 * Each typical mistake of a step's exercise (tests/data/exercise_mistakes.tsv), made in the
 * exercise with the step's own lines written, built with nvcc for this build's architecture
 * and, as the Makefile builds, with its PTX (which a GPU newer than the build runs), must be
 * caught by exercise-check: a check that fails, a kernel that stops, or a right but slow
 * kernel named slow (make exercise-mistakes STEP=N runs the same). */
PER_STEP_PARAMETERS(gpu, exercise_check_catches_each_typical_mistake)

ParameterizedTest(gpu_param *p, gpu, exercise_check_catches_each_typical_mistake, .timeout = 1200)
{
    char why[256], dir[256], *log;
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    if (strcmp(p->step, "./step0") == 0)
        cr_skip_test("step 0 has no exercise: it is where the course starts");
    if (strcmp(p->step, "./further") == 0)
        cr_skip_test("the going-further track has no exercise");
    if (step_left_out(p->step, why, sizeof why))
        cr_skip_test("%s", why);
    if (sh(NULL, NULL, "command -v nvcc >/dev/null") != 0)
        cr_skip_test("nvcc is not on PATH: the mistakes are built with it");
    cr_assert_eq(access("build/libharness.a", R_OK), 0, "build/libharness.a is not there: run `make all`");
    tmpdir_named(dir, sizeof dir, "mistakes");
    int rc = sh(&log, dir,
                "python3 scripts/course exercise-mistakes %s tests/data/exercise_mistakes.tsv %s --out \"$D\" "
                "--build 'nvcc -O3 -std=c++17 -gencode arch=compute_%d,code=[sm_%d,compute_%d] {src} {objs} "
                "build/libharness.a -L\"$(dirname \"$(dirname \"$(command -v nvcc)\")\")/lib64\" "
                "-lcublas -lcudart -ldl -lpthread -o {out}'",
                p->step + 6, p->step, BUILT_SM, BUILT_SM, BUILT_SM);
    cr_expect(rc == 0 && strstr(log, "mistakes caught"), "exercise-check missed a typical mistake of %s (exit %d):\n%s",
              p->step, rc, log);
    cr_log_info("%s", log);
    free(log);
    rm_rf(dir);
}
