/* test_report.c - the CSV header and rows the plots read, and the report for people (CPU only). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "report.h"

static const char *const COLUMNS[] = {
    "step", "m", "n", "k", "alpha", "beta", "stages", "median_ms", "min_ms", "gflops",
    "cublas_median_ms", "cublas_gflops", "ratio", "err_over_bound", "verdict", "device",
    "sm_count", "cuda_runtime", "cuda_driver", "commit", "date_utc", "variant", "sm_clock_mhz", "power_w",
    "temp_c", "measurements", "disturbed", "kernel"};
enum { VARIANT = 21 };
enum { N_COLUMNS = sizeof COLUMNS / sizeof COLUMNS[0] };

/* Splits a copy of line at commas; returns the number of fields (all of them, even
 * beyond max). The fields point into *copy, which the caller frees. */
static int split_csv(const char *line, char **fields, int max, char **copy)
{
    *copy = strdup(line);
    int n = 0;
    char *p = *copy;
    for (;;) {
        char *comma = strchr(p, ',');
        if (n < max)
            fields[n] = p;
        n++;
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return n;
}

/* A report and what it reads: the step, its configuration and the device. */
typedef struct {
    step_info step;
    run_config cfg;
    device_info dev;
    run_report r;
} report_fixture;

static void filled_report(report_fixture *f)
{
    memset(f, 0, sizeof *f);
    f->step.name = "step3_registers";
    f->step.idea = "a tile of C per thread, in registers";
    f->cfg.m = 1024;
    f->cfg.n = 768;
    f->cfg.k = 640;
    f->cfg.alpha = 1.5f;
    f->cfg.beta = -0.5f;
    f->cfg.stages = 3;
    f->cfg.seed = 2024;
    f->cfg.inputs = INPUTS_RANDOM;
    f->cfg.reps = 20;
    f->cfg.check = 1;
    snprintf(f->dev.name, sizeof f->dev.name, "NVIDIA H100 80GB HBM3");
    f->dev.sm_count = 132;
    f->dev.runtime_version = 13000;
    f->dev.driver_version = 12080;
    f->r.step = &f->step;
    f->r.cfg = &f->cfg;
    f->r.dev = &f->dev;
    f->r.median_ms = 1.0;
    f->r.min_ms = 0.9;
    f->r.cublas_median_ms = 0.5;
    f->r.cublas_min_ms = 0.45;
    f->r.check.pass = 1;
    f->r.check.worst_ratio = 0.25;
    f->r.guard_words = 2048;
    f->r.commit = "0123456789";
    f->r.date_utc = "2026-11-21T23:59:59Z";
    f->r.gpu = (sensor_figures){1980, 452.4, 41, 37};
    f->r.measurements = 1;
    f->r.spread = 0.012;
}

Test(report, csv_header_has_the_28_columns_in_order)
{
    char *fields[32], *copy;
    int n = split_csv(CSV_HEADER, fields, 32, &copy);
    cr_assert_eq(n, N_COLUMNS, "the header has %d columns, not %d: %s", n, N_COLUMNS, CSV_HEADER);
    for (int i = 0; i < N_COLUMNS; i++)
        cr_expect_str_eq(fields[i], COLUMNS[i], "column %d", i);
    cr_expect_null(strchr(CSV_HEADER, '\n'), "no newline in the header");
    free(copy);
}

Test(report, csv_row_values_in_their_columns)
{
    report_fixture fx;
    filled_report(&fx);
    run_report r = fx.r;
    r.kernel = "128x128 tiles, at least 2 blocks an SM";
    char row[1024];
    int len = format_csv_row(row, sizeof row, &r);
    cr_expect_eq(len, (int)strlen(row), "returns what snprintf returns");
    cr_expect_null(strchr(row, '\n'), "no trailing newline");

    char *f[32], *copy;
    int n = split_csv(row, f, 32, &copy);
    cr_assert_eq(n, N_COLUMNS, "%d fields, not %d: %s", n, N_COLUMNS, row);
    const char *expected[N_COLUMNS] = {
        "step3_registers", "1024", "768", "640", "1.5", "-0.5", "3", "1.000000", "0.900000",
        "1006.6",                  /* 2*1024*768*640 flops in 1 ms */
        "0.500000", "2013.3",      /* the same in 0.5 ms */
        "0.5000",                  /* cuBLAS median / our median */
        "0.25", "PASS", "NVIDIA H100 80GB HBM3", "132", "13.0", "12.8", "0123456789",
        "2026-11-21T23:59:59Z", "",   /* no variant: step 3 has no options of its own */
        "1980", "452", "41", "1", "no",
        "128x128 tiles  at least 2 blocks an SM"};   /* the kernel line, its commas gone */
    for (int i = 0; i < N_COLUMNS; i++)
        cr_expect_str_eq(f[i], expected[i], "column %d (%s) of: %s", i, COLUMNS[i], row);
    free(copy);
}

/* What --csv prints: the row on a line of its own; with --csv-header the header first. */
Test(report, print_csv_writes_the_header_only_when_asked)
{
    report_fixture fx;
    filled_report(&fx);
    char row[1024], expected[2048], *text = NULL;
    size_t len = 0;
    format_csv_row(row, sizeof row, &fx.r);
    for (int header = 0; header <= 1; header++) {
        fx.cfg.csv = 1;
        fx.cfg.csv_header = header;
        FILE *f = open_memstream(&text, &len);
        cr_assert_not_null(f);
        print_csv(f, &fx.r);
        fclose(f);
        snprintf(expected, sizeof expected, "%s%s%s\n", header ? CSV_HEADER : "", header ? "\n" : "", row);
        cr_expect_str_eq(text, expected, "--csv%s", header ? "-header" : "");
        free(text);
        text = NULL;
    }
}

Test(report, csv_ratio_is_cublas_over_ours)
{
    report_fixture fx;
    filled_report(&fx);
    run_report r = fx.r;
    r.median_ms = 2.0;
    r.cublas_median_ms = 3.0;
    char row[1024], *f[32], *copy;
    format_csv_row(row, sizeof row, &r);
    cr_assert_eq(split_csv(row, f, 32, &copy), N_COLUMNS);
    cr_expect_str_eq(f[12], "1.5000", "faster than cuBLAS gives a ratio above 1: %s", row);
    free(copy);
}

Test(report, csv_verdicts)
{
    report_fixture fx;
    filled_report(&fx);
    run_report r = fx.r;
    char row[1024], *f[32], *copy;

    r.check.pass = 0;
    r.check.n_bad = 3;
    r.check.worst_ratio = INFINITY;
    format_csv_row(row, sizeof row, &r);
    cr_assert_eq(split_csv(row, f, 32, &copy), N_COLUMNS, "%s", row);
    cr_expect_str_eq(f[14], "FAIL", "%s", row);
    cr_expect_str_eq(f[13], "inf", "%s", row);
    free(copy);

    r.check.worst_ratio = 12.5;
    format_csv_row(row, sizeof row, &r);
    cr_assert_eq(split_csv(row, f, 32, &copy), N_COLUMNS, "%s", row);
    cr_expect_str_eq(f[14], "FAIL", "%s", row);
    cr_expect_str_eq(f[13], "12.5", "%s", row);
    free(copy);

    fx.cfg.check = 0;
    format_csv_row(row, sizeof row, &r);
    cr_assert_eq(split_csv(row, f, 32, &copy), N_COLUMNS, "%s", row);
    cr_expect_str_eq(f[14], "UNCHECKED", "%s", row);
    cr_expect_str_eq(f[13], "nan", "%s", row);
    free(copy);
}

Test(report, verdict)
{
    report_fixture fx;
    filled_report(&fx);
    run_report r = fx.r;
    cr_expect_str_eq(verdict(&r), "PASS");
    r.check.pass = 0;
    cr_expect_str_eq(verdict(&r), "FAIL");
    fx.cfg.check = 0;
    cr_expect_str_eq(verdict(&r), "UNCHECKED", "--no-check wins over the check result");
}

/* print_report's whole text, for the caller to free. */
static char *report_text(const run_report *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    print_report(f, r);
    fclose(f);
    return text;
}

/* print_report's whole text against the golden file report/<name>. */
static void expect_report(const run_report *r, const char *name)
{
    char *text = report_text(r), path[64];
    snprintf(path, sizeof path, "report/%s.txt", name);
    expect_golden(path, text);
    free(text);
}

Test(report, report_for_people_pass)
{
    report_fixture fx;
    filled_report(&fx);
    expect_report(&fx.r, "pass");
}

/* The failing element by row and column, with both values and its error over the bound. */
Test(report, report_for_people_fail_names_the_element)
{
    report_fixture fx;
    filled_report(&fx);
    fx.r.check.pass = 0;
    fx.r.check.n_bad = 2;
    fx.r.check.worst_index = 5 * 768 + 7;   /* row 5, column 7 */
    fx.r.check.worst_ratio = INFINITY;
    fx.r.check.worst_value = NAN;
    fx.r.check.worst_ref = 1.25f;
    expect_report(&fx.r, "fail");
}

Test(report, report_for_people_unchecked)
{
    report_fixture fx;
    filled_report(&fx);
    fx.cfg.check = 0;
    expect_report(&fx.r, "unchecked");
}

/* A step with a choice of kernels names it; a second launch that changed C and writes
 * outside it are failures of their own, each with its count. */
Test(report, report_for_people_says_kernel_repeat_and_guards)
{
    report_fixture fx;
    filled_report(&fx);
    fx.r.kernel = "128x128 tiles";
    fx.r.repeat_diffs = 5;
    fx.r.repeat_first = 2 * 768 + 3;
    fx.r.guard_writes = 7;
    expect_report(&fx.r, "kernel_repeat_and_guards_fail");
}

/* With NaN and Inf in the inputs the report says where they are and how many of C's
 * elements are non-finite, as cuBLAS's are; integer inputs say so. */
Test(report, report_for_people_says_the_inputs)
{
    report_fixture fx;
    filled_report(&fx);
    fx.cfg.inputs = INPUTS_NONFINITE;
    fx.r.check.n_nonfinite = 1791;
    expect_report(&fx.r, "nonfinite_inputs");
    filled_report(&fx);
    fx.cfg.inputs = INPUTS_INTEGERS;
    fx.cfg.stages = 0;
    expect_report(&fx.r, "integer_inputs_no_stages");
}

Test(report, verdict_fails_on_a_changed_repeat_or_a_stray_write)
{
    report_fixture fx;
    filled_report(&fx);
    run_report r = fx.r;
    r.repeat_diffs = 1;
    cr_expect_str_eq(verdict(&r), "FAIL", "a second launch that differs is a failure");
    r.repeat_diffs = 0;
    r.guard_writes = 3;
    cr_expect_str_eq(verdict(&r), "FAIL", "a write outside C is a failure");
}

Test(report, csv_versions)
{
    report_fixture fx;
    filled_report(&fx);
    run_report r = fx.r;
    fx.dev.runtime_version = 12040;
    fx.dev.driver_version = 13010;
    char row[1024], *f[32], *copy;
    format_csv_row(row, sizeof row, &r);
    cr_assert_eq(split_csv(row, f, 32, &copy), N_COLUMNS);
    cr_expect_str_eq(f[17], "12.4");
    cr_expect_str_eq(f[18], "13.1");
    free(copy);
}

/* A program with options of its own names those given, "name=value" in its order, in the
 * CSV's variant column and on the report's problem line; nothing when none is given. */
Test(report, the_variant_names_the_programs_own_options)
{
    report_fixture fx;
    filled_report(&fx);
    run_report r = fx.r;
    run_config cfg = *r.cfg;
    r.cfg = &cfg;
    const struct {
        given_option given[3];
        const char *variant;
    } cases[] = {{{{NULL, NULL}}, ""},
                 {{{"part", "core"}, {"unroll", "no"}, {NULL, NULL}}, "part=core unroll=no"},
                 {{{"plan", "128x128/split2"}, {NULL, NULL}}, "plan=128x128/split2"}};
    for (int i = 0; i < 3; i++) {
        memcpy(cfg.options, cases[i].given, sizeof cases[i].given);
        char row[1024], *f[32], *copy;
        format_csv_row(row, sizeof row, &r);
        cr_assert_eq(split_csv(row, f, 32, &copy), N_COLUMNS, "%s", row);
        cr_expect_str_eq(f[VARIANT], cases[i].variant);
        free(copy);
        char *text = report_text(&r), line[160];
        snprintf(line, sizeof line, "seed 2024, 3 stages%s%s\n", cases[i].variant[0] ? ", " : "", cases[i].variant);
        cr_expect(strstr(text, line) != NULL, "the problem line ends \"%s\": %s", line, text);
        free(text);
    }
}

Test(report, csv_device_name_with_a_comma_is_cleaned)
{
    report_fixture fx;
    filled_report(&fx);
    run_report r = fx.r;
    const char *names[] = {"NVIDIA H100, PCIe", "GPU \"quoted\", with\nnewline", ",,,"};
    for (int i = 0; i < 3; i++) {
        snprintf(fx.dev.name, sizeof fx.dev.name, "%s", names[i]);
        char row[1024], *f[32], *copy;
        format_csv_row(row, sizeof row, &r);
        cr_expect_null(strchr(row, '\n'), "no newline in the row: %s", row);
        cr_expect_null(strchr(row, '"'), "no quote in the row: %s", row);
        int n = split_csv(row, f, 32, &copy);
        cr_expect_eq(n, N_COLUMNS, "device \"%s\": %d fields, not %d: %s", names[i], n, N_COLUMNS, row);
        if (n == N_COLUMNS) {
            cr_expect_str_eq(f[16], "132", "the columns after the device stay in place: %s", row);
            cr_expect_str_eq(f[20], "2026-11-21T23:59:59Z");
        }
        free(copy);
    }
    snprintf(fx.dev.name, sizeof fx.dev.name, "NVIDIA H100, PCIe");
    char row[1024], *f[32], *copy;
    format_csv_row(row, sizeof row, &r);
    split_csv(row, f, 32, &copy);
    cr_expect_str_eq(f[15], "NVIDIA H100  PCIe", "the comma becomes a space, the name stays readable");
    free(copy);
}

/* The GPU's clock, power and temperature, and the disturbance rule's verdict: in the CSV
 * row and the report, "not available" where NVML is not, DISTURBED where the rule saw a
 * disturbance in every measurement. */
Test(report, the_gpu_conditions_and_the_timing_verdict_are_reported)
{
    report_fixture fx;
    filled_report(&fx);
    fx.r.gpu = (sensor_figures){SENSOR_NONE, SENSOR_NONE, SENSOR_NONE, 0};
    fx.r.sensors_missing = "NVML (libnvidia-ml.so.1) could not be loaded";
    fx.r.measurements = 4;
    fx.r.disturbed = 1;
    fx.r.spread = 0.6;
    char row[1024], *f[32], *copy;
    format_csv_row(row, sizeof row, &fx.r);
    cr_assert_eq(split_csv(row, f, 32, &copy), N_COLUMNS, "%s", row);
    const char *want[] = {"not available", "not available", "not available", "4", "yes"};
    for (int i = 0; i < 5; i++)
        cr_expect_str_eq(f[VARIANT + 1 + i], want[i], "column %s of: %s", COLUMNS[VARIANT + 1 + i], row);
    free(copy);
    char *text = report_text(&fx.r);
    cr_expect(strstr(text, "  gpu      SM clock, power and temperature not available: NVML (libnvidia-ml.so.1) "
                           "could not be loaded\n") != NULL, "%s", text);
    cr_expect(strstr(text, "  timing   DISTURBED: the halves of the timed launches differ by 60% (more than 10%) in "
                           "all 4 measurements: rerun it\n") != NULL, "%s", text);
    free(text);
    /* Steady at the second measurement; one reading missing. */
    filled_report(&fx);
    fx.r.gpu.power_w = SENSOR_NONE;
    fx.r.measurements = 2;
    text = report_text(&fx.r);
    cr_expect(strstr(text, "  gpu      SM clock 1980 MHz, power not available, temperature 41 C (medians of 37 "
                           "samples while timed)\n") != NULL, "%s", text);
    cr_expect(strstr(text, "  timing   steady: the halves of the timed launches within 1.2% (at most 10%), measured "
                           "again: the first measurement was disturbed\n") != NULL, "%s", text);
    free(text);
}
