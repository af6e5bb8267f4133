/* report.c - the human report and the CSV row. */
#include "report.h"

#include <math.h>
#include <string.h>

#include "sensors.h"
#include "stats.h"

const char CSV_HEADER[] =
    "step,m,n,k,alpha,beta,stages,median_ms,min_ms,gflops,cublas_median_ms,cublas_gflops,"
    "ratio,err_over_bound,verdict,device,sm_count,cuda_runtime,cuda_driver,commit,date_utc,variant,"
    "sm_clock_mhz,power_w,temp_c,measurements,disturbed,kernel";

const char *verdict(const run_report *r)
{
    if (!r->cfg->check)
        return "UNCHECKED";
    return r->check.pass && r->repeat_diffs == 0 && r->guard_writes == 0 ? "PASS" : "FAIL";
}

/* "13.0" from 13000. */
static void version_string(char *buf, size_t len, int v)
{
    snprintf(buf, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* A CSV field must hold no comma, quote or newline: replace them. */
static void csv_clean(char *dst, size_t len, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 1 < len; i++)
        dst[i] = (src[i] == ',' || src[i] == '"' || src[i] == '\n') ? ' ' : src[i];
    dst[i] = '\0';
}

/* The program's own options as given, "name=value" each, in the program's order: "part=core";
 * "" for the program as it runs by default. */
static const char *variant(char *buf, size_t len, const run_report *r)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const given_option *o = r->cfg->options; o->name && used < len; o++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", o->name, o->value);
    return buf;
}

int format_csv_row(char *buf, size_t len, const run_report *r)
{
    const run_config *c = r->cfg;
    char device[256], named[448], runtime[16], driver[16], err[32], var[160], clock[24], power[24], temp[24], kernel[320];
    /* A run planned for a smaller device says so where the device is named. */
    snprintf(named, sizeof named, r->dev->plan_device[0] ? "%s (plans for " PLAN_DEVICE_VAR "=%s)" : "%s",
             r->dev->name, r->dev->plan_device);
    csv_clean(device, sizeof device, named);
    version_string(runtime, sizeof runtime, r->dev->runtime_version);
    version_string(driver, sizeof driver, r->dev->driver_version);
    if (!c->check)
        snprintf(err, sizeof err, "nan");
    else if (isinf(r->check.worst_ratio))
        snprintf(err, sizeof err, "inf");
    else
        snprintf(err, sizeof err, "%.4g", r->check.worst_ratio);
    sensor_text(clock, sizeof clock, r->gpu.sm_clock_mhz, "");
    sensor_text(power, sizeof power, r->gpu.power_w, "");
    sensor_text(temp, sizeof temp, r->gpu.temp_c, "");
    csv_clean(kernel, sizeof kernel, r->kernel ? r->kernel : "");
    return snprintf(buf, len, "%s,%d,%d,%d,%g,%g,%d,%.6f,%.6f,%.1f,%.6f,%.1f,%.4f,%s,%s,%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%d,%s,%s",
                    r->step->name, c->m, c->n, c->k, (double)c->alpha, (double)c->beta, c->stages,
                    r->median_ms, r->min_ms, gflops(c->m, c->n, c->k, r->median_ms),
                    r->cublas_median_ms, gflops(c->m, c->n, c->k, r->cublas_median_ms),
                    r->cublas_median_ms / r->median_ms, err, verdict(r), device, r->dev->sm_count,
                    runtime, driver, r->commit, r->date_utc, variant(var, sizeof var, r), clock, power, temp,
                    r->measurements, r->disturbed ? "yes" : "no", kernel);
}

void print_csv(FILE *out, const run_report *r)
{
    char row[1536];
    if (r->cfg->csv_header)
        fprintf(out, "%s\n", CSV_HEADER);
    format_csv_row(row, sizeof row, r);
    fprintf(out, "%s\n", row);
}

/* The GPU while timed, and what the disturbance rule said of the timings. */
static void print_conditions(FILE *out, const run_report *r)
{
    char clock[24], power[24], temp[24];
    if (r->sensors_missing)
        fprintf(out, "  gpu      SM clock, power and temperature not available: %s\n", r->sensors_missing);
    else
        fprintf(out, "  gpu      SM clock %s, power %s, temperature %s (medians of %d samples while timed)\n",
                sensor_text(clock, sizeof clock, r->gpu.sm_clock_mhz, "MHz"),
                sensor_text(power, sizeof power, r->gpu.power_w, "W"),
                sensor_text(temp, sizeof temp, r->gpu.temp_c, "C"), r->gpu.samples);
    int earlier = r->measurements - 1;
    if (r->disturbed)
        fprintf(out, "  timing   DISTURBED: the halves of the timed launches differ by %.0f%% (more than %.0f%%) in "
                     "all %d measurements: rerun it\n", 100 * r->spread, 100 * DISTURBED_SPREAD, r->measurements);
    else
        fprintf(out, "  timing   steady: the halves of the timed launches within %.1f%% (at most %.0f%%)%s%s\n",
                100 * r->spread, 100 * DISTURBED_SPREAD, earlier ? ", measured again: " : "",
                earlier == 0 ? "" : earlier == 1 ? "the first measurement was disturbed" : "the earlier ones were disturbed");
}

void print_report(FILE *out, const run_report *r)
{
    const run_config *c = r->cfg;
    char runtime[16], driver[16];
    version_string(runtime, sizeof runtime, r->dev->runtime_version);
    version_string(driver, sizeof driver, r->dev->driver_version);
    double ours = gflops(c->m, c->n, c->k, r->median_ms);
    double theirs = gflops(c->m, c->n, c->k, r->cublas_median_ms);

    fprintf(out, "%s: %s\n", r->step->name, r->step->idea);
    fprintf(out, "  device   %s, %d SMs, CUDA runtime %s, driver %s\n", r->dev->name, r->dev->sm_count,
            runtime, driver);
    if (r->dev->plan_device[0])
        fprintf(out, "  plans    for a smaller device: %s=%s\n", PLAN_DEVICE_VAR, r->dev->plan_device);
    fprintf(out, "  problem  C = alpha*A*B + beta*C, M=%d N=%d K=%d, alpha=%g beta=%g, %s inputs, seed %llu",
            c->m, c->n, c->k, (double)c->alpha, (double)c->beta,
            c->inputs == INPUTS_INTEGERS ? "integer" : c->inputs == INPUTS_NONFINITE ? "random (one NaN in A, one +Inf in B)" : "random",
            c->seed);
    if (c->stages > 0)
        fprintf(out, ", %d stages", c->stages);
    char var[160];
    if (variant(var, sizeof var, r)[0])
        fprintf(out, ", %s", var);
    fprintf(out, "\n");
    if (r->kernel)
        fprintf(out, "  kernel   %s\n", r->kernel);
    fprintf(out, "  time     median %.4f ms, min %.4f ms (%d timed launches, L2 flushed before each)\n",
            r->median_ms, r->min_ms, c->reps);
    fprintf(out, "  speed    %.1f GFLOPS; cuBLAS %.1f GFLOPS (median %.4f ms); ratio to cuBLAS %.3f\n",
            ours, theirs, r->cublas_median_ms, r->cublas_median_ms / r->median_ms);
    print_conditions(out, r);
    if (!c->check) {
        fprintf(out, "  check    UNCHECKED (--no-check)\n");
        return;
    }
    size_t nc = (size_t)c->m * (size_t)c->n;
    int row = (int)(r->check.worst_index / (size_t)c->n);
    int col = (int)(r->check.worst_index % (size_t)c->n);
    char nonfinite[96] = "";
    if (r->check.n_nonfinite)
        snprintf(nonfinite, sizeof nonfinite, " (%zu of them NaN or Inf, as cuBLAS's)", r->check.n_nonfinite);
    if (r->check.pass)
        fprintf(out, "  check    PASS: all %zu elements within their bound%s; worst |C-Cref|/bound %.3g at (%d,%d)\n",
                nc, nonfinite, r->check.worst_ratio, row, col);
    else
        fprintf(out, "  check    FAIL: %zu of %zu elements wrong; worst at (%d,%d): got %.9g, cuBLAS %.9g (|C-Cref|/bound %.3g)\n",
                r->check.n_bad, nc, row, col, (double)r->check.worst_value,
                (double)r->check.worst_ref, r->check.worst_ratio);
    if (r->repeat_diffs == 0)
        fprintf(out, "  repeat   PASS: a second launch gave the same bits\n");
    else
        fprintf(out, "  repeat   FAIL: a second launch changed %zu elements, the first at (%d,%d)\n",
                r->repeat_diffs, (int)(r->repeat_first / (size_t)c->n), (int)(r->repeat_first % (size_t)c->n));
    if (r->guard_writes == 0)
        fprintf(out, "  guards   PASS: the %zu words just before and after C were not written\n", r->guard_words);
    else
        fprintf(out, "  guards   FAIL: %zu of the %zu words just before and after C were written\n",
                r->guard_writes, r->guard_words);
}
