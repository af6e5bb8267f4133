/* harness.c - harness_main(): parse, build inputs, check against cuBLAS, time, report. */
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

static int usage_error(const char *prog, const step_info *step, const char *msg)
{
    fprintf(stderr, "%s: %s\n", prog, msg);
    print_usage(stderr, prog, step);
    return EXIT_USAGE;
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
    size_t need;
    if (!device_bytes_needed(cfg.m, cfg.n, cfg.k, 0, &need)) {
        snprintf(err, sizeof err, "sizes M=%d N=%d K=%d: the element count overflows 64-bit sizes",
                 cfg.m, cfg.n, cfg.k);
        return usage_error(prog, step, err);
    }

    /* From here on the GPU is used. */
    device_info dev;
    device_open(&dev);
    if (!device_bytes_needed(cfg.m, cfg.n, cfg.k, dev.l2_bytes, &need))
        need = SIZE_MAX;
    if (need > dev.free_bytes) {
        char need_s[32], free_s[32];
        format_bytes(need_s, sizeof need_s, (double)need);
        format_bytes(free_s, sizeof free_s, (double)dev.free_bytes);
        snprintf(err, sizeof err,
                 "sizes M=%d N=%d K=%d need %zu bytes (%s) of GPU memory, but %s has %zu bytes (%s) free",
                 cfg.m, cfg.n, cfg.k, need, need_s, dev.name, dev.free_bytes, free_s);
        return usage_error(prog, step, err);
    }

    const int m = cfg.m, n = cfg.n, k = cfg.k;
    const size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;

    /* Inputs on the host, reproducible from the seed; |A| and |B| for the error bound. */
    float *a = host_alloc(na * sizeof *a, "A");
    float *b = host_alloc(nb * sizeof *b, "B");
    float *c0 = host_alloc(nc * sizeof *c0, "C");
    fill_inputs(a, na, cfg.seed, cfg.inputs);
    fill_inputs(b, nb, cfg.seed + 1, cfg.inputs);
    fill_inputs(c0, nc, cfg.seed + 2, cfg.inputs);

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    cublasHandle_t handle = reference_create(stream);
    float *d_a = device_upload(a, na), *d_b = device_upload(b, nb), *d_c0 = device_upload(c0, nc);
    float *d_c, *d_ref;
    CUDA_CHECK(cudaMalloc((void **)&d_c, nc * sizeof *d_c));
    CUDA_CHECK(cudaMalloc((void **)&d_ref, nc * sizeof *d_ref));

    /* With beta == 0, C is poisoned with NaN (all bits set): the step must write every
     * element without reading it. With beta != 0 it starts from C0, and an element
     * left unwritten keeps C0's value, which the check catches. */
    if (cfg.beta == 0.0f) {
        CUDA_CHECK(cudaMemsetAsync(d_c, 0xff, nc * sizeof *d_c, stream));
        CUDA_CHECK(cudaMemsetAsync(d_ref, 0xff, nc * sizeof *d_ref, stream));
    } else {
        CUDA_CHECK(cudaMemcpyAsync(d_c, d_c0, nc * sizeof *d_c, cudaMemcpyDeviceToDevice, stream));
        CUDA_CHECK(cudaMemcpyAsync(d_ref, d_c0, nc * sizeof *d_ref, cudaMemcpyDeviceToDevice, stream));
    }

    step_launch sl = {step, {m, n, k, cfg.alpha, cfg.beta, d_a, d_b, d_c, cfg.stages}, stream};
    cublas_launch cl = {handle, {m, n, k, cfg.alpha, cfg.beta, d_a, d_b, d_ref, 0}};

    run_report rep;
    memset(&rep, 0, sizeof rep);
    rep.checked = cfg.check;
    if (cfg.check) {
        run_step(&sl);
        run_cublas(&cl);
        CUDA_CHECK(cudaStreamSynchronize(stream));

        /* The bound's magnitudes: |A| |B| through the same cuBLAS call. */
        for (size_t i = 0; i < na; i++)
            a[i] = fabsf(a[i]);
        for (size_t i = 0; i < nb; i++)
            b[i] = fabsf(b[i]);
        float *d_abs_a = device_upload(a, na), *d_abs_b = device_upload(b, nb), *d_abs_ab;
        CUDA_CHECK(cudaMalloc((void **)&d_abs_ab, nc * sizeof *d_abs_ab));
        reference_sgemm(handle, m, n, k, 1.0f, d_abs_a, d_abs_b, 0.0f, d_abs_ab);

        float *c = host_alloc(nc * sizeof *c, "the result");
        float *ref = host_alloc(nc * sizeof *ref, "the reference");
        float *abs_ab = host_alloc(nc * sizeof *abs_ab, "the error bound");
        CUDA_CHECK(cudaMemcpyAsync(c, d_c, nc * sizeof *c, cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaMemcpyAsync(ref, d_ref, nc * sizeof *ref, cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaMemcpyAsync(abs_ab, d_abs_ab, nc * sizeof *abs_ab, cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        int exact = cfg.inputs == INPUTS_INTEGERS && integer_inputs_are_exact(k, cfg.alpha, cfg.beta);
        rep.check = check_against_reference(c, ref, abs_ab, cfg.beta != 0.0f ? c0 : NULL, nc, k,
                                            cfg.alpha, cfg.beta, exact);
        free(c);
        free(ref);
        free(abs_ab);
        CUDA_CHECK(cudaFree(d_abs_a));
        CUDA_CHECK(cudaFree(d_abs_b));
        CUDA_CHECK(cudaFree(d_abs_ab));
    }

    /* Timing: the step and cuBLAS in turn, each launch L2-cold. */
    timed_kernel kernels[2] = {{run_step, &sl}, {run_cublas, &cl}};
    double *ms = host_alloc(sizeof *ms * 2 * (size_t)cfg.reps, "the timings");
    warm_up(kernels, 2, cfg.warmup_ms, stream);
    time_interleaved(kernels, 2, cfg.reps, dev.l2_bytes, stream, ms);
    rep.min_ms = minimum(ms, cfg.reps);
    rep.median_ms = median(ms, cfg.reps);
    rep.cublas_min_ms = minimum(ms + cfg.reps, cfg.reps);
    rep.cublas_median_ms = median(ms + cfg.reps, cfg.reps);

    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    rep.step = step->name;
    rep.idea = step->idea;
    rep.m = m;
    rep.n = n;
    rep.k = k;
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

    free(ms);
    free(a);
    free(b);
    free(c0);
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c0));
    CUDA_CHECK(cudaFree(d_c));
    CUDA_CHECK(cudaFree(d_ref));
    CUBLAS_CHECK(cublasDestroy(handle));
    CUDA_CHECK(cudaStreamDestroy(stream));
    return rep.checked && !rep.check.pass ? EXIT_WRONG : EXIT_PASS;
}
