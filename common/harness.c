/* harness.c - harness_main(), in phases: parse, set up, check against cuBLAS, time, report. */
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
#include "inputs.h"
#include "reference.h"
#include "report.h"
#include "stats.h"
#include "timing.h"

static void *host_alloc(size_t bytes, const char *what)
{
    void *p = malloc(bytes);
    if (!p) {
        char b[32];
        format_bytes(b, sizeof b, (double)bytes);
        fprintf(stderr, "error: malloc of %zu bytes (%s) for %s failed: out of host memory\n",
                bytes, b, what);
        exit(EXIT_CUDA);
    }
    return p;
}

static float *device_upload(const float *host, size_t count)
{
    float *d;
    CUDA_CHECK(cudaMalloc((void **)&d, count * sizeof *d));
    CUDA_CHECK(cudaMemcpy(d, host, count * sizeof *d, cudaMemcpyHostToDevice));
    return d;
}

static void download(float *host, const float *d, size_t count, cudaStream_t stream)
{
    CUDA_CHECK(cudaMemcpyAsync(host, d, count * sizeof *host, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

/* One problem: its inputs on the host and on the GPU, C (guarded) and the reference. */
typedef struct {
    int m, n, k;
    float beta;
    size_t na, nb, nc;
    float *a, *b, *c0;         /* host; c0 is NULL when beta == 0 */
    float *d_a, *d_b, *d_c0;
    float *d_c_block;          /* guard, C, guard */
    float *d_c, *d_ref;
    cudaStream_t stream;
    cublasHandle_t handle;
} problem;

static void problem_setup(problem *p, const run_config *cfg)
{
    memset(p, 0, sizeof *p);
    p->m = cfg->m;
    p->n = cfg->n;
    p->k = cfg->k;
    p->beta = cfg->beta;
    p->na = (size_t)p->m * p->k;
    p->nb = (size_t)p->k * p->n;
    p->nc = (size_t)p->m * p->n;

    /* Inputs on the host, reproducible from the seed. */
    p->a = host_alloc(p->na * sizeof *p->a, "A");
    p->b = host_alloc(p->nb * sizeof *p->b, "B");
    fill_inputs(p->a, p->na, cfg->seed, cfg->inputs);
    fill_inputs(p->b, p->nb, cfg->seed + 1, cfg->inputs);
    if (p->beta != 0.0f) {   /* with beta == 0, C on entry is never read: no C0 */
        p->c0 = host_alloc(p->nc * sizeof *p->c0, "C");
        fill_inputs(p->c0, p->nc, cfg->seed + 2, cfg->inputs);
    }
    if (cfg->inputs == INPUTS_NONFINITE)
        place_nonfinite(p->a, p->b, p->m, p->n, p->k, cfg->seed);

    CUDA_CHECK(cudaStreamCreate(&p->stream));
    p->handle = reference_create(p->stream);
    p->d_a = device_upload(p->a, p->na);
    p->d_b = device_upload(p->b, p->nb);
    p->d_c0 = p->c0 ? device_upload(p->c0, p->nc) : NULL;
    size_t block = p->nc + 2 * (size_t)GUARD_FLOATS;
    CUDA_CHECK(cudaMalloc((void **)&p->d_c_block, block * sizeof(float)));
    CUDA_CHECK(cudaMemsetAsync(p->d_c_block, GUARD_BYTE, block * sizeof(float), p->stream));
    p->d_c = p->d_c_block + GUARD_FLOATS;
    CUDA_CHECK(cudaMalloc((void **)&p->d_ref, p->nc * sizeof *p->d_ref));
}

/* C as the step finds it. With beta == 0 it is poisoned with NaN (all bits set): the
 * step must write every element without reading it. Otherwise it starts as C0, and an
 * element left unwritten keeps C0's value, which the check catches. */
static void reset_c(const problem *p, float *d_c)
{
    if (p->beta == 0.0f)
        CUDA_CHECK(cudaMemsetAsync(d_c, 0xff, p->nc * sizeof *d_c, p->stream));
    else
        CUDA_CHECK(cudaMemcpyAsync(d_c, p->d_c0, p->nc * sizeof *d_c, cudaMemcpyDeviceToDevice, p->stream));
}

static void problem_free(problem *p)
{
    free(p->a);
    free(p->b);
    free(p->c0);
    CUDA_CHECK(cudaFree(p->d_a));
    CUDA_CHECK(cudaFree(p->d_b));
    CUDA_CHECK(cudaFree(p->d_c0));
    CUDA_CHECK(cudaFree(p->d_c_block));
    CUDA_CHECK(cudaFree(p->d_ref));
    CUBLAS_CHECK(cublasDestroy(p->handle));
    CUDA_CHECK(cudaStreamDestroy(p->stream));
}

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

/* The words of the two guard bands that no longer hold GUARD_BYTE. */
static size_t guard_writes(const problem *p)
{
    unsigned char band[GUARD_FLOATS * sizeof(float)];
    size_t changed = 0;
    for (int side = 0; side < 2; side++) {
        const float *d = side == 0 ? p->d_c_block : p->d_c + p->nc;
        CUDA_CHECK(cudaMemcpyAsync(band, d, sizeof band, cudaMemcpyDeviceToHost, p->stream));
        CUDA_CHECK(cudaStreamSynchronize(p->stream));
        for (size_t w = 0; w < GUARD_FLOATS; w++)
            for (size_t i = 0; i < sizeof(float); i++)
                if (band[w * sizeof(float) + i] != GUARD_BYTE) {
                    changed++;
                    break;
                }
    }
    return changed;
}

/* The check: the step's first launch against cuBLAS element by element; a second
 * launch on the same inputs must give the same bits; the guards must be intact. */
static void check_phase(problem *p, const run_config *cfg, step_launch *sl, cublas_launch *cl,
                        run_report *rep)
{
    float *c = host_alloc(p->nc * sizeof *c, "the result");
    float *again = host_alloc(p->nc * sizeof *again, "the second result");
    reset_c(p, p->d_c);
    run_step(sl);
    download(c, p->d_c, p->nc, p->stream);
    reset_c(p, p->d_c);
    run_step(sl);
    download(again, p->d_c, p->nc, p->stream);
    for (size_t i = 0; i < p->nc; i++)
        if (memcmp(&c[i], &again[i], sizeof *c) != 0 && rep->repeat_diffs++ == 0)
            rep->repeat_first = i;
    free(again);
    rep->guard_words = 2 * (size_t)GUARD_FLOATS;
    rep->guard_writes = guard_writes(p);

    reset_c(p, p->d_ref);
    run_cublas(cl);
    /* The bound's magnitudes: |A| |B| through the same cuBLAS call. */
    for (size_t i = 0; i < p->na; i++)
        p->a[i] = fabsf(p->a[i]);
    for (size_t i = 0; i < p->nb; i++)
        p->b[i] = fabsf(p->b[i]);
    float *d_abs_a = device_upload(p->a, p->na), *d_abs_b = device_upload(p->b, p->nb), *d_abs_ab;
    CUDA_CHECK(cudaMalloc((void **)&d_abs_ab, p->nc * sizeof *d_abs_ab));
    reference_sgemm(p->handle, p->m, p->n, p->k, 1.0f, d_abs_a, d_abs_b, 0.0f, d_abs_ab);
    float *ref = host_alloc(p->nc * sizeof *ref, "the reference");
    float *abs_ab = host_alloc(p->nc * sizeof *abs_ab, "the error bound");
    download(ref, p->d_ref, p->nc, p->stream);
    download(abs_ab, d_abs_ab, p->nc, p->stream);
    int exact = cfg->inputs == INPUTS_INTEGERS && integer_inputs_are_exact(p->k, cfg->alpha, cfg->beta);
    rep->check = check_against_reference(c, ref, abs_ab, p->c0, p->nc, p->k,
                                         cfg->alpha, cfg->beta, exact);
    free(c);
    free(ref);
    free(abs_ab);
    CUDA_CHECK(cudaFree(d_abs_a));
    CUDA_CHECK(cudaFree(d_abs_b));
    CUDA_CHECK(cudaFree(d_abs_ab));
}

/* Timing: the step and cuBLAS in turn, each launch L2-cold; median and minimum. */
static void time_phase(const run_config *cfg, const device_info *dev, problem *p, step_launch *sl,
                       cublas_launch *cl, run_report *rep)
{
    timed_kernel kernels[2] = {{run_step, sl}, {run_cublas, cl}};
    double *ms = host_alloc(sizeof *ms * 2 * (size_t)cfg->reps, "the timings");
    warm_up(kernels, 2, cfg->warmup_ms, p->stream);
    time_interleaved(kernels, 2, cfg->reps, dev->l2_bytes, p->stream, ms);
    rep->min_ms = minimum(ms, cfg->reps);
    rep->median_ms = median(ms, cfg->reps);
    rep->cublas_min_ms = minimum(ms + cfg->reps, cfg->reps);
    rep->cublas_median_ms = median(ms + cfg->reps, cfg->reps);
    free(ms);
}

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
            snprintf(err, sizeof err, "sizes M=%d N=%d K=%d: the element count overflows 64-bit sizes",
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

int harness_main(int argc, char **argv, const step_info *step)
{
    const char *prog = argc > 0 ? argv[0] : step->name;
    run_config cfg;
    char err[512];
    if (parse_args(argc, argv, step, &cfg, err, sizeof err))
        return usage_error(prog, step, err);
    if (cfg.help) {
        args_print_help(prog, step);
        return EXIT_PASS;
    }
    if (cfg.describe) {
        args_print_describe(step);
        return EXIT_PASS;
    }
    if (check_fits(prog, step, &cfg, NULL))
        return EXIT_USAGE;

    /* From here on the GPU is used. */
    device_info dev;
    device_open(&dev);
    if (check_fits(prog, step, &cfg, &dev))
        return EXIT_USAGE;

    problem p;
    problem_setup(&p, &cfg);
    step_launch sl = {step, {p.m, p.n, p.k, cfg.alpha, cfg.beta, p.d_a, p.d_b, p.d_c, cfg.stages}, p.stream};
    cublas_launch cl = {p.handle, {p.m, p.n, p.k, cfg.alpha, cfg.beta, p.d_a, p.d_b, p.d_ref, 0}};

    run_report rep;
    memset(&rep, 0, sizeof rep);
    rep.checked = cfg.check;
    if (cfg.check)
        check_phase(&p, &cfg, &sl, &cl, &rep);
    time_phase(&cfg, &dev, &p, &sl, &cl, &rep);

    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    rep.step = step->name;
    rep.idea = step->idea;
    rep.kernel = step->kernel ? step->kernel(&sl.args) : NULL;
    rep.m = p.m;
    rep.n = p.n;
    rep.k = p.k;
    rep.alpha = cfg.alpha;
    rep.beta = cfg.beta;
    rep.stages = cfg.stages;
    rep.seed = cfg.seed;
    rep.inputs = cfg.inputs;
    rep.reps = cfg.reps;
    rep.device = dev.name;
    rep.sm_count = dev.sm_count;
    rep.runtime_version = dev.runtime_version;
    rep.driver_version = dev.driver_version;
    rep.commit = build_commit();
    rep.date_utc = date;
    if (cfg.csv) {
        char row[1024];
        if (cfg.csv_header)
            printf("%s\n", CSV_HEADER);
        format_csv_row(row, sizeof row, &rep);
        printf("%s\n", row);
    } else {
        print_report(stdout, &rep);
    }

    problem_free(&p);
    return rep.checked && strcmp(verdict(&rep), "PASS") != 0 ? EXIT_WRONG : EXIT_PASS;
}
