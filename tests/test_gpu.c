/* test_gpu.c - every built step against the cuBLAS reference on awkward shapes (needs a GPU).
 *
 * Each test runs ./stepN once per shape (and per stage count, for steps with --stages)
 * with --reps 1 --warmup 0 and demands exit 0 and PASS. The harness itself compares
 * every element with cuBLAS; these tests choose the shapes that break indexing and
 * edge code. Without a GPU every test here is skipped and says why. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "process.h"

#define OUTPUT_FMT "\n--- stdout ---\n%.3000s\n--- stderr ---\n%.3000s"

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

typedef struct {
    char step[STEP_PATH_LEN];
    int max_stages;   /* from --help: 0 without --stages, -1 when --help failed */
    int group;        /* index into GROUPS */
} gpu_param;

static int list_steps(gpu_param *out, int max)
{
    char paths[MAX_STEPS][STEP_PATH_LEN];
    int n = built_steps(paths, MAX_STEPS < max ? MAX_STEPS : max);
    for (int i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        memcpy(out[i].step, paths[i], STEP_PATH_LEN);
        out[i].max_stages = step_max_stages(paths[i]);
    }
    return n;
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

/* Runs argv, expects exit 0 and PASS; returns 1 when it did. */
static int expect_pass(const char *const *argv)
{
    proc_result r;
    char st[64];
    run_process(argv, &r);
    int ok = r.status == 0 && strstr(r.out, "PASS") && !strstr(r.out, "FAIL");
    cr_expect(ok, "`%s` gave %s, expected exit 0 and PASS" OUTPUT_FMT, r.cmd,
              describe_status(r.status, st, sizeof st), r.out, r.err);
    proc_result_free(&r);
    return ok;
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
            params[n].group = g;
            n++;
        }
    return cr_make_param_array(gpu_param, params, (size_t)n);
}

ParameterizedTest(gpu_param *p, gpu, awkward_shapes_pass, .timeout = 1200)
{
    run_group(p, &GROUPS[p->group]);
}

/* Small integers make every sum exact in FP32, so the harness demands equality with
 * cuBLAS: any indexing mistake shows, however small. */
ParameterizedTestParameters(gpu, integer_inputs_bit_exact)
{
    static gpu_param params[MAX_STEPS];
    int n = list_steps(params, MAX_STEPS);
    return cr_make_param_array(gpu_param, params, (size_t)n);
}

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

/* The plan above, checked on the CPU: every shape has a nonzero alpha, most a nonzero
 * beta, and a few beta = 0 for the NaN-poisoned path. */
Test(gpu_plan, shapes_cover_both_beta_paths)
{
    int zero = 0, nonzero = 0;
    for (int g = 0; g < N_GROUPS; g++) {
        cr_expect_neq(GROUPS[g].shapes[0].m, 0, "group %s is empty", GROUPS[g].name);
        for (const shape *s = GROUPS[g].shapes; s->m; s++) {
            char alpha[16], beta[16], seed[24], again[3][24];
            shape_scalars(s, alpha, beta, seed, sizeof alpha);
            shape_scalars(s, again[0], again[1], again[2], sizeof again[0]);
            cr_expect(strcmp(alpha, again[0]) == 0 && strcmp(beta, again[1]) == 0 &&
                      strcmp(seed, again[2]) == 0, "the scalars of a shape are fixed");
            cr_expect_neq(atof(alpha), 0.0, "%dx%dx%d: alpha %s", s->m, s->n, s->k, alpha);
            cr_expect_eq(atof(beta) == 0.0, s->beta_zero, "%dx%dx%d: beta %s", s->m, s->n, s->k, beta);
            if (atof(beta) == 0.0)
                zero++;
            else
                nonzero++;
        }
    }
    cr_expect_geq(zero, 3, "a few shapes with beta = 0");
    cr_expect_gt(nonzero, zero, "most shapes with beta != 0");
}
