/* harness.c - harness_main() in four phases: prepare (the command line, the device, the
 * problem), check (against cuBLAS, a second launch, the guards), time (the step and cuBLAS
 * interleaved) and report. The phases come last, each a short list of named steps; the
 * helpers they call come first. */
#define _POSIX_C_SOURCE 199309L   /* nanosleep */
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "check.h"
#include "device.h"
#include "problem.h"
#include "reference.h"
#include "report.h"
#include "sensors.h"
#include "stats.h"
#include "timing.h"

/* What the timing loop launches: the step, and cuBLAS on the same problem. */
typedef struct {
    const step_info *step;
    gemm_args args;
    cudaStream_t stream;
} step_launch;

typedef struct {
    cublasHandle_t handle;
    gemm_args args;
} cublas_launch;

/* Everything one run holds, from prepare to report. */
typedef struct {
    const step_info *step;
    run_config cfg;
    device_info dev;
    problem p;
    step_launch step_run;
    cublas_launch cublas_run;
    char date_utc[32];   /* when the report was made, as it prints it */
    char kernel[256];    /* the kernel line, where the step words it here */
    char sensors_missing[160];   /* why the GPU's clock, power and temperature are not read */
} harness_run;

static void run_step(void *ctx)
{
    step_launch *s = ctx;
    CUDA_CHECK(s->step->launch(&s->args, s->stream));
}

static void run_cublas(void *ctx)
{
    cublas_launch *c = ctx;
    reference_sgemm(c->handle, c->args.m, c->args.n, c->args.k, c->args.alpha, c->args.a,
                    c->args.b, c->args.beta, c->args.c);
}

/* ---- prepare's helpers ---- */

static int usage_error(const char *prog, const step_info *step, const char *msg)
{
    fprintf(stderr, "%s: %s\n", prog, msg);
    print_usage(stderr, prog, step);
    return EXIT_USAGE;
}

/* Exits 2 unless the problem fits in the GPU's free memory (or, without a device,
 * unless its byte count fits in 64 bits). */
static int check_fits(const char *prog, const step_info *step, const run_config *cfg, const device_info *dev)
{
    char err[512];
    size_t need;
    if (!device_bytes_needed(cfg->m, cfg->n, cfg->k, dev ? dev->l2_bytes : 0, &need)) {
        if (!dev) {
            snprintf(err, sizeof err,
                     "sizes M=%d N=%d K=%d: the bytes they need (A, B, C and the check's copies of them) "
                     "overflow a 64-bit count",
                     cfg->m, cfg->n, cfg->k);
            return usage_error(prog, step, err);
        }
        need = SIZE_MAX;
    }
    if (dev && need > dev->free_bytes) {
        char need_s[32], free_s[32];
        format_bytes(need_s, sizeof need_s, (double)need);
        format_bytes(free_s, sizeof free_s, (double)dev->free_bytes);
        snprintf(err, sizeof err,
                 "sizes M=%d N=%d K=%d need %zu bytes (%s) of GPU memory, but %s has %zu bytes (%s) free",
                 cfg->m, cfg->n, cfg->k, need, need_s, dev->name, dev->free_bytes, free_s);
        return usage_error(prog, step, err);
    }
    return 0;
}

enum { RUN_GOES_ON = -1 };

/* One problem's command line (argv[0] the program), checked before the GPU is touched: the
 * exit code of a usage error or of --help, or RUN_GOES_ON. `problem` of `problems` names it in
 * an error, where the command line holds several (--then). */
static int read_command_line(run_config *cfg, const step_info *step, int argc, char **argv, const char *prog,
                             int problem, int problems)
{
    char err[512], msg[600];
    if (parse_args(argc, argv, step, cfg, err, sizeof err)) {
        if (problems > 1)
            snprintf(msg, sizeof msg, "problem %d of %d (--then): %s", problem + 1, problems, err);
        return usage_error(prog, step, problems > 1 ? msg : err);
    }
    if (cfg->help) {
        print_help(stdout, prog, step);
        return EXIT_PASS;
    }
    if (cfg->describe) {
        args_print_describe(step);
        return EXIT_PASS;
    }
    return check_fits(prog, step, cfg, NULL) ? EXIT_USAGE : RUN_GOES_ON;
}

/* The inputs on the host and the GPU, and the two launches on them: the step into C,
 * cuBLAS into the reference. */
static void set_up_problem(harness_run *run)
{
    const run_config *c = &run->cfg;
    const problem *p = &run->p;
    problem_setup(&run->p, c);
    run->step_run = (step_launch){run->step,
                                  {c->m, c->n, c->k, c->alpha, c->beta, p->d_a, p->d_b, p->d_c, c->stages, c->options},
                                  p->stream};
    run->cublas_run = (cublas_launch){p->handle, {c->m, c->n, c->k, c->alpha, c->beta, p->d_a, p->d_b, p->d_ref, 0, NULL}};
}

/* ---- check's helpers ---- */

/* The step's result, launched twice on the same inputs: the first launch's C (the caller
 * frees it), and in rep the elements whose bits the second launch changed. */
static float *launch_twice(harness_run *run, run_report *rep)
{
    problem *p = &run->p;
    float *c = host_alloc(p->nc * sizeof *c, "the result");
    float *again = host_alloc(p->nc * sizeof *again, "the second result");
    problem_reset_c(p, p->d_c);
    run_step(&run->step_run);
    download(c, p->d_c, p->nc, p->stream);
    problem_reset_c(p, p->d_c);
    run_step(&run->step_run);
    download(again, p->d_c, p->nc, p->stream);
    for (size_t i = 0; i < p->nc; i++)
        if (memcmp(&c[i], &again[i], sizeof *c) != 0 && rep->repeat_diffs++ == 0)
            rep->repeat_first = i;
    free(again);
    return c;
}

/* c against cuBLAS's result, each element within the bound that |A| |B| gives (through
 * the same cuBLAS call), or equal where integer inputs make FP32 exact. */
static check_result compare_with_cublas(harness_run *run, const float *c)
{
    problem *p = &run->p;
    const run_config *cfg = &run->cfg;
    problem_reset_c(p, p->d_ref);
    run_cublas(&run->cublas_run);
    for (size_t i = 0; i < p->na; i++)
        p->a[i] = fabsf(p->a[i]);
    for (size_t i = 0; i < p->nb; i++)
        p->b[i] = fabsf(p->b[i]);
    float *d_abs_a = device_upload(p->a, p->na), *d_abs_b = device_upload(p->b, p->nb), *d_abs_ab;
    CUDA_CHECK(cudaMalloc((void **)&d_abs_ab, p->nc * sizeof *d_abs_ab));
    reference_sgemm(p->handle, cfg->m, cfg->n, cfg->k, 1.0f, d_abs_a, d_abs_b, 0.0f, d_abs_ab);
    float *ref = host_alloc(p->nc * sizeof *ref, "the reference");
    float *abs_ab = host_alloc(p->nc * sizeof *abs_ab, "the error bound");
    download(ref, p->d_ref, p->nc, p->stream);
    download(abs_ab, d_abs_ab, p->nc, p->stream);
    int exact = cfg->inputs == INPUTS_INTEGERS && integer_inputs_are_exact(cfg->k, cfg->alpha, cfg->beta);
    check_result result = check_against_reference(c, ref, abs_ab, p->c0, p->nc, cfg->k, cfg->alpha,
                                                   cfg->beta, exact);
    free(ref);
    free(abs_ab);
    CUDA_CHECK(cudaFree(d_abs_a));
    CUDA_CHECK(cudaFree(d_abs_b));
    CUDA_CHECK(cudaFree(d_abs_ab));
    return result;
}

/* ---- the phases ---- */

/* Prepare: the device, whether the problem fits in it, the inputs. Returns RUN_GOES_ON, or
 * the exit code to stop with. */
static int prepare(harness_run *run, const char *prog)
{
    device_open(&run->dev);   /* from here on the GPU is used */
    if (check_fits(prog, run->step, &run->cfg, &run->dev))
        return EXIT_USAGE;
    set_up_problem(run);
    char why[512];
    if (run->step->refuse && run->step->refuse(&run->step_run.args, why, sizeof why))
        return usage_error(prog, run->step, why);
    return RUN_GOES_ON;
}

/* Check: the step's first launch against cuBLAS element by element; a second launch on
 * the same inputs must give the same bits; the guards around C must be intact. */
static void check(harness_run *run, run_report *rep)
{
    float *c = launch_twice(run, rep);
    rep->guard_words = 2 * (size_t)GUARD_FLOATS;
    rep->guard_writes = problem_guard_writes(&run->p);
    rep->check = compare_with_cublas(run, c);
    free(c);
}

/* Time: the step and cuBLAS in turn after the warm-up, each launch L2-cold; median and
 * minimum, with the GPU's SM clock, power and temperature sampled meanwhile (sensors.h).
 * A measurement that the disturbance rule (stats.h) calls disturbed, for the step or for
 * cuBLAS, is made again after a pause of PAUSE_MS, up to MEASUREMENTS in all; the report
 * gives the last, how many were made, and whether the last was disturbed too. */
enum { MEASUREMENTS = 4, PAUSE_MS = 1000 };
static void time_launches(harness_run *run, run_report *rep)
{
    int reps = run->cfg.reps;
    timed_kernel kernels[2] = {{run_step, &run->step_run}, {run_cublas, &run->cublas_run}};
    double *ms = host_alloc(sizeof *ms * 2 * (size_t)reps, "the timings");
    sensors *gpu = sensors_open(run->sensors_missing, sizeof run->sensors_missing);
    rep->sensors_missing = gpu ? NULL : run->sensors_missing;
    for (rep->measurements = 1;; rep->measurements++) {
        warm_up(kernels, 2, run->cfg.warmup_ms, run->p.stream);
        sensors_start(gpu);
        time_interleaved(kernels, 2, reps, run->dev.l2_bytes, run->p.stream, ms);
        rep->gpu = sensors_stop(gpu);
        double step_spread, cublas_spread;
        rep->disturbed = disturbed(ms, reps, &step_spread) | disturbed(ms + reps, reps, &cublas_spread);
        rep->spread = fmax(step_spread, cublas_spread);
        if (!rep->disturbed || rep->measurements == MEASUREMENTS)
            break;
        struct timespec pause = {PAUSE_MS / 1000, PAUSE_MS % 1000 * 1000000L};
        nanosleep(&pause, NULL);
    }
    sensors_close(gpu);
    rep->min_ms = minimum(ms, reps);
    rep->median_ms = median(ms, reps);
    rep->cublas_min_ms = minimum(ms + reps, reps);
    rep->cublas_median_ms = median(ms + reps, reps);
    free(ms);
}

/* Report: the block for people, or the CSV row. */
static void report(harness_run *run, run_report *rep)
{
    time_t now = time(NULL);
    strftime(run->date_utc, sizeof run->date_utc, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    const gemm_args *g = &run->step_run.args;
    rep->kernel = NULL;
    if (run->step->tiles) {   /* the plan of the step's tiles, made once for the kernel line */
        cudaError_t err;
        tile_plan plan = harness_plan_tiles(g, run->step->tiles, &err);
        if (err != cudaSuccess)
            rep->kernel = "unknown (a device query failed)";
        else if (run->step->kernel)
            rep->kernel = run->step->kernel(g, &plan, run->kernel, sizeof run->kernel);
        else
            rep->kernel = harness_describe_tiles(g, run->step->tiles, &plan, NULL, run->kernel, sizeof run->kernel);
    } else if (run->step->kernel) {
        rep->kernel = run->step->kernel(g, NULL, run->kernel, sizeof run->kernel);
    }
    rep->commit = build_commit();
    rep->date_utc = run->date_utc;
    if (run->cfg.csv)
        print_csv(stdout, rep);
    else
        print_report(stdout, rep);
}

/* One problem, from prepare to report: its exit code. */
static int run_problem(const step_info *step, const run_config *cfg, const char *prog)
{
    harness_run run = {.step = step, .cfg = *cfg};
    int rc = prepare(&run, prog);
    if (rc != RUN_GOES_ON)
        return rc;
    run_report rep = {.step = step, .cfg = &run.cfg, .dev = &run.dev};
    if (run.cfg.check)
        check(&run, &rep);
    time_launches(&run, &rep);
    report(&run, &rep);
    problem_free(&run.p);
    return run.cfg.check && strcmp(verdict(&rep), "PASS") != 0 ? EXIT_WRONG : EXIT_PASS;
}

/* The command line may hold several problems, each after a --then: all are read before the GPU
 * is touched, then run one after another in this process, as a program calls a library, so
 * that what a launch keeps (the workspace, a plan) meets the next problem. A usage error stops
 * the run; a wrong result does not, and the run exits EXIT_WRONG at its end. */
int harness_main(int argc, char **argv, const step_info *step)
{
    const char *prog = argc > 0 ? argv[0] : step->name;
    int problems = 1;
    for (int i = 1; i < argc; i++)
        problems += strcmp(argv[i], "--then") == 0;
    run_config *cfgs = host_alloc(sizeof *cfgs * (size_t)problems, "the problems");
    char **words = host_alloc(sizeof *words * (size_t)(argc + 1), "the arguments");
    for (int p = 0, next = 1; p < problems; p++) {   /* problem p: argv[next] up to the next --then */
        int end = next;
        while (end < argc && strcmp(argv[end], "--then") != 0)
            end++;
        words[0] = (char *)prog;
        for (int i = next; i < end; i++)
            words[1 + i - next] = argv[i];
        words[1 + end - next] = NULL;
        int rc = read_command_line(&cfgs[p], step, 1 + end - next, words, prog, p, problems);
        if (rc != RUN_GOES_ON) {
            free(cfgs);
            free(words);
            return rc;
        }
        next = end + 1;
    }
    free(words);
    int rc = EXIT_PASS;
    for (int p = 0; p < problems && rc != EXIT_USAGE; p++) {
        if (p > 0 && !cfgs[p].csv)
            printf("\n");
        int problem_rc = run_problem(step, &cfgs[p], prog);
        rc = problem_rc == EXIT_PASS ? rc : problem_rc;
    }
    free(cfgs);
    harness_workspace_free();
    return rc;
}
