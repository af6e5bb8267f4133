/* test_plots.c - the charts, the README table and the run script, with no GPU.
 *
 * Renders the charts from the committed fixture tests/data/results_sample.csv (made-up
 * numbers, not measurements) through `make chart CSV=... OUT=<temporary directory>`, so the
 * committed charts are never touched; feeds the chart target bad CSVs; writes the table into
 * a temporary README; and drives plots/run.sh with stand-in steps (shell scripts that print
 * what ./stepN prints, or fail the ways it can). Run from the repository root (make test).
 * gnuplot must be installed: without it the chart tests fail, they do not skip.
 *
 * Then the tools around the course, also with no GPU: the stage sweep (make sweep with a
 * stand-in step, make sweep-chart from tests/data/sweep_sample.csv), the tile-shape sweep
 * (its build rules through make -n, its runs with stand-in binaries, make tune-table from
 * tests/data/tune_sample.csv), the step READMEs' tables (temporary READMEs only: the course's
 * own are never written), the SASS summary (tests/data/sass_excerpt.sass, and make sass on a
 * step built here), make diff, and the profile (a stand-in ncu printing
 * tests/data/ncu_raw_sample.csv). Every fixture is made-up data, marked as such.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report.h"

#define PLOTS_FIXTURE "tests/data/results_sample.csv"
#define PLOTS_DEVICE "Test Fixture GPU (made-up numbers)"

static const char *const PLOTS_CHARTS[] = {"progression.png", "progression.svg", "sizes.png",
                                           "sizes.svg"};
enum { PLOTS_N_CHARTS = sizeof PLOTS_CHARTS / sizeof PLOTS_CHARTS[0] };

/* --- helpers ----------------------------------------------------------------------- */

/* The repository root: where plots/plots.mk is (the tests run from there, or from tests/). */
static const char *plots_root(void)
{
    static char root[4096];
    if (!root[0]) {
        if (access("plots/plots.mk", R_OK) == 0)
            cr_assert(getcwd(root, sizeof root), "getcwd failed");
        else if (access("../plots/plots.mk", R_OK) == 0)
            cr_assert(realpath("..", root), "realpath failed");
        else
            cr_assert_fail("plots/plots.mk not found: run the tests from the repository root");
    }
    return root;
}

/* Runs `sh -c cmd` in the repository root with stderr folded into stdout; returns the
 * exit status (or -1 when it did not exit) and the output in *out (caller frees). */
static int plots_sh(char **out, const char *fmt, ...)
{
    char cmd[8192];
    int n = snprintf(cmd, sizeof cmd, "cd '%s' && { ", plots_root());
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(cmd + n, sizeof cmd - (size_t)n, fmt, ap);
    va_end(ap);
    n += snprintf(cmd + n, sizeof cmd - (size_t)n, "; } 2>&1");
    cr_assert_lt(n, (int)sizeof cmd, "command too long");

    FILE *p = popen(cmd, "r");
    cr_assert(p, "popen failed for: %s", cmd);
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += got;
        if (cap - len < 1024)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = '\0';
    int status = pclose(p);
    if (out)
        *out = buf;
    else
        free(buf);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* `make ARGS` as a fresh make: the flags of a make that runs this suite are not passed on. */
#define PLOTS_MAKE "unset MAKEFLAGS MFLAGS MAKELEVEL; make --no-print-directory "

static void plots_tmpdir(char *dir, size_t len)
{
    snprintf(dir, len, "%s/plots-test.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    cr_assert(mkdtemp(dir), "mkdtemp failed");
}

static void plots_rm_rf(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0, "could not remove %s", dir);
}

/* The whole file (caller frees), or NULL; its size in *len. */
static char *plots_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    buf[got] = '\0';
    if (len)
        *len = got;
    return buf;
}

static void plots_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static void plots_path(char *buf, size_t len, const char *dir, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

/* The entries of dir other than . and .. (0 when dir does not exist). */
static int plots_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static void plots_require_gnuplot(void)
{
    cr_assert_eq(system("command -v gnuplot >/dev/null 2>&1"), 0,
                 "gnuplot is not installed: the chart tests need it (`make deps` installs it), "
                 "and they fail rather than skip");
}

/* A picture gnuplot drew: a PNG with its signature and some size, or an SVG document. */
static void plots_expect_chart(const char *dir, const char *name)
{
    char path[4200];
    plots_path(path, sizeof path, dir, name);
    size_t len = 0;
    char *data = plots_read(path, &len);
    cr_assert(data, "%s was not written", path);
    if (strstr(name, ".png")) {
        static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        cr_expect(len >= 8 && memcmp(data, sig, 8) == 0, "%s does not start with the PNG signature", path);
        cr_expect_gt(len, 10000, "%s is only %zu bytes: not a drawn chart", path, len);
    } else {
        cr_expect(strstr(data, "<svg") && strstr(data, "</svg>"), "%s is not an SVG document", path);
        cr_expect_gt(len, 5000, "%s is only %zu bytes: not a drawn chart", path, len);
    }
    free(data);
}

/* `make chart CSV=csv OUT=out`; returns its exit status, its output in *log. */
static int plots_chart(const char *csv, const char *out, char **log)
{
    return plots_sh(log, PLOTS_MAKE "chart CSV='%s' OUT='%s'", csv, out);
}

/* Writes dir/name from the fixture, each data row passed through the sed script `edit`. */
static void plots_fixture_variant(char *path, size_t len, const char *dir, const char *name,
                                  const char *edit)
{
    plots_path(path, len, dir, name);
    cr_assert_eq(plots_sh(NULL, "sed -e '%s' " PLOTS_FIXTURE " > '%s'", edit, path), 0);
}

/* --- the charts from the fixture ---------------------------------------------------- */

Test(plots, chart_renders_every_chart_from_the_fixture)
{
    plots_require_gnuplot();
    char dir[256], *log;
    plots_tmpdir(dir, sizeof dir);
    int rc = plots_chart(PLOTS_FIXTURE, dir, &log);
    cr_assert_eq(rc, 0, "make chart failed:\n%s", log);
    for (int i = 0; i < PLOTS_N_CHARTS; i++)
        plots_expect_chart(dir, PLOTS_CHARTS[i]);
    cr_expect_eq(plots_entries(dir), PLOTS_N_CHARTS, "make chart left other files in %s", dir);
    free(log);
    plots_rm_rf(dir);
}

Test(plots, charts_name_the_device_date_steps_and_cublas)
{
    plots_require_gnuplot();
    char dir[256], path[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    cr_assert_eq(plots_chart(PLOTS_FIXTURE, dir, &log), 0, "make chart failed:\n%s", log);
    free(log);
    const char *names[] = {"progression.svg", "sizes.svg"};
    for (int i = 0; i < 2; i++) {
        plots_path(path, sizeof path, dir, names[i]);
        char *svg = plots_read(path, NULL);
        cr_assert(svg);
        cr_expect(strstr(svg, PLOTS_DEVICE), "%s does not name the device", names[i]);
        cr_expect(strstr(svg, "2025-11-20"), "%s does not give the date", names[i]);
        cr_expect(strstr(svg, "cuBLAS"), "%s does not show cuBLAS", names[i]);
        cr_expect(strstr(svg, "GFLOPS"), "%s has no GFLOPS axis", names[i]);
        free(svg);
    }
    plots_path(path, sizeof path, dir, "progression.svg");
    char *svg = plots_read(path, NULL);
    cr_expect(strstr(svg, "M = N = K = 4096"), "the progression chart does not say its size");
    cr_expect(strstr(svg, "0.17× cuBLAS"), "step2's bar is not labelled with its ratio 0.1654");
    free(svg);
    plots_path(path, sizeof path, dir, "sizes.svg");
    svg = plots_read(path, NULL);
    cr_expect(strstr(svg, "step2_smem (FAIL at 2048)"), "the sizes chart's key does not flag the FAIL run");
    cr_expect(strstr(svg, "step0_naive") && strstr(svg, "step1_coalesce"), "a step is missing from the key");
    free(svg);
    plots_rm_rf(dir);
}

Test(plots, charts_are_regenerated_from_the_csv)
{
    plots_require_gnuplot();
    char dir[256], out[300], csv[4200], path[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/charts", dir);
    cr_assert_eq(plots_chart(PLOTS_FIXTURE, out, &log), 0, "make chart failed:\n%s", log);
    free(log);
    for (int i = 0; i < PLOTS_N_CHARTS; i++) {
        plots_path(path, sizeof path, out, PLOTS_CHARTS[i]);
        cr_assert_eq(unlink(path), 0, "%s was not there to delete", path);
    }
    cr_assert_eq(plots_chart(PLOTS_FIXTURE, out, &log), 0, "make chart failed the second time:\n%s", log);
    free(log);
    for (int i = 0; i < PLOTS_N_CHARTS; i++)
        plots_expect_chart(out, PLOTS_CHARTS[i]);

    /* Another device in the CSV: every chart now says so, and the old name is gone. */
    plots_fixture_variant(csv, sizeof csv, dir, "renamed.csv",
                          "s/" PLOTS_DEVICE "/Regenerated GPU/");
    cr_assert_eq(plots_chart(csv, out, &log), 0, "make chart failed on the renamed CSV:\n%s", log);
    free(log);
    for (int i = 0; i < PLOTS_N_CHARTS; i++) {
        if (!strstr(PLOTS_CHARTS[i], ".svg"))
            continue;
        plots_path(path, sizeof path, out, PLOTS_CHARTS[i]);
        char *svg = plots_read(path, NULL);
        cr_expect(strstr(svg, "Regenerated GPU") && !strstr(svg, PLOTS_DEVICE),
                  "%s was not redrawn from the new CSV", PLOTS_CHARTS[i]);
        free(svg);
    }
    plots_rm_rf(dir);
}

/* The data gnuplot reads (kept through CHART_DATA): a FAIL run is NaN, never a point. */
Test(plots, failed_runs_are_never_drawn)
{
    plots_require_gnuplot();
    char dir[256], csv[4200], path[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    /* Also fail step1 at 4096, the progression chart's size. */
    plots_fixture_variant(csv, sizeof csv, dir, "fail4096.csv",
                          "/^step1_coalesce,4096,/s/,PASS,/,FAIL,/");
    int rc = plots_sh(&log, "CHART_DATA='%s/data'; export CHART_DATA; " PLOTS_MAKE "chart CSV='%s' OUT='%s/out'", dir, csv, dir);
    cr_assert_eq(rc, 0, "make chart failed:\n%s", log);
    free(log);

    plots_path(path, sizeof path, dir, "data/sizes.dat");
    char *sizes = plots_read(path, NULL);
    cr_assert(sizes, "the sizes chart's data was not kept");
    const char *block = strstr(sizes, "step2_smem (FAIL at 2048)\n");
    cr_assert(block, "no step2 series flagged FAIL at 2048 in:\n%s", sizes);
    cr_expect(strstr(block, "2048\tNaN\n"), "step2's FAIL run at 2048 is not NaN:\n%s", block);
    cr_expect(!strstr(sizes, "8046"), "step2's FAIL GFLOPS (8046) reached the chart data");
    cr_expect(strstr(sizes, "step1_coalesce (FAIL at 4096)\n"), "step1's FAIL at 4096 is not flagged");
    free(sizes);

    plots_path(path, sizeof path, dir, "data/progression.dat");
    char *bars = plots_read(path, NULL);
    cr_assert(bars, "the progression chart's data was not kept");
    cr_expect(strstr(bars, "1\tNaN\tNaN\t2\tFAIL\n"), "step1's FAIL at 4096 is drawn as a bar:\n%s", bars);
    cr_expect(!strstr(bars, "4552"), "step1's FAIL GFLOPS (4552) reached the chart data");
    cr_expect(strstr(bars, "2\t8311.0\t0.1654\t3\tPASS\n"), "step2's PASS bar is missing:\n%s", bars);
    free(bars);
    plots_path(path, sizeof path, dir, "out/progression.svg");
    char *svg = plots_read(path, NULL);
    cr_expect(svg && strstr(svg, ">FAIL<"), "the progression chart does not print FAIL where the bar would be");
    free(svg);
    plots_rm_rf(dir);
}

/* Rows formatted by the harness itself (format_csv_row) chart as they are. */
Test(plots, rows_the_harness_prints_chart)
{
    plots_require_gnuplot();
    char dir[256], csv[300], row[1024], *log;
    plots_tmpdir(dir, sizeof dir);
    snprintf(csv, sizeof csv, "%s/harness.csv", dir);
    FILE *f = fopen(csv, "w");
    cr_assert(f);
    fprintf(f, "%s\n", CSV_HEADER);
    const char *steps[] = {"step0_naive", "step3_registers"};
    const int sizes[] = {512, 1024, 4096};
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 3; i++) {
            step_info step = {.name = steps[s]};
            run_config cfg = {.m = sizes[i], .n = sizes[i], .k = sizes[i], .alpha = 1.0f, .check = 1};
            device_info dev = {.name = "Harness-Formatted GPU", .sm_count = 132,
                               .runtime_version = 13000, .driver_version = 13000};
            run_report r = {.step = &step, .cfg = &cfg, .dev = &dev};
            r.median_ms = 0.5 * (s ? 1 : 20) * sizes[i] / 512.0;
            r.min_ms = r.median_ms * 0.98;
            r.cublas_median_ms = 0.2 * sizes[i] / 512.0;
            r.check.pass = 1;
            r.check.worst_ratio = 0.05;
            r.commit = "abcdef1234";
            r.date_utc = "2025-11-21T12:00:00Z";
            cr_assert_gt(format_csv_row(row, sizeof row, &r), 0);
            fprintf(f, "%s\n", row);
        }
    fclose(f);
    int rc = plots_chart(csv, dir, &log);
    cr_assert_eq(rc, 0, "make chart failed on rows from format_csv_row:\n%s", log);
    free(log);
    for (int i = 0; i < PLOTS_N_CHARTS; i++)
        plots_expect_chart(dir, PLOTS_CHARTS[i]);
    plots_rm_rf(dir);
}

/* --- bad input: one clear error, no picture ---------------------------------------- */

/* make chart on csv into a fresh directory must fail, say `says`, and write nothing. */
static void plots_expect_rejected(const char *dir, const char *csv, const char *says)
{
    char out[300], *log;
    snprintf(out, sizeof out, "%s/out", dir);
    int rc = plots_chart(csv, out, &log);
    cr_expect_neq(rc, 0, "make chart succeeded on %s:\n%s", csv, log);
    cr_expect(strstr(log, "chart: ") && strstr(log, says),
              "make chart on %s did not say \"%s\":\n%s", csv, says, log);
    cr_expect_eq(plots_entries(out), 0, "make chart on %s left files in %s", csv, out);
    free(log);
}

Test(plots, csv_missing_columns_is_rejected)
{
    plots_require_gnuplot();
    char dir[256], csv[4200];
    plots_tmpdir(dir, sizeof dir);
    /* Drop the gflops column (the 10th) from every line. */
    plots_path(csv, sizeof csv, dir, "missing.csv");
    cr_assert_eq(plots_sh(NULL, "grep -v '^#' " PLOTS_FIXTURE " | cut -d, -f1-9,11- > '%s'", csv), 0);
    plots_expect_rejected(dir, csv, "missing column(s) gflops");
    plots_rm_rf(dir);
}

Test(plots, csv_with_only_failed_rows_is_rejected)
{
    plots_require_gnuplot();
    char dir[256], csv[4200];
    plots_tmpdir(dir, sizeof dir);
    plots_fixture_variant(csv, sizeof csv, dir, "allfail.csv", "s/,PASS,/,FAIL,/");
    plots_expect_rejected(dir, csv, "no PASS rows");
    plots_rm_rf(dir);
}

Test(plots, empty_csv_is_rejected)
{
    plots_require_gnuplot();
    char dir[256], csv[4200];
    plots_tmpdir(dir, sizeof dir);
    plots_path(csv, sizeof csv, dir, "empty.csv");
    plots_write(csv, "");
    plots_expect_rejected(dir, csv, "empty");
    plots_write(csv, "# only a comment\n\n");
    plots_expect_rejected(dir, csv, "empty");
    plots_rm_rf(dir);
}

Test(plots, absent_csv_is_rejected)
{
    plots_require_gnuplot();
    char dir[256], csv[4200];
    plots_tmpdir(dir, sizeof dir);
    plots_path(csv, sizeof csv, dir, "no-such.csv");
    plots_expect_rejected(dir, csv, "no such file");
    plots_rm_rf(dir);
}

Test(plots, csv_with_a_header_only_or_ragged_rows_is_rejected)
{
    plots_require_gnuplot();
    char dir[256], csv[4200];
    plots_tmpdir(dir, sizeof dir);
    plots_path(csv, sizeof csv, dir, "header.csv");
    cr_assert_eq(plots_sh(NULL, "grep -v '^#' " PLOTS_FIXTURE " | head -n 1 > '%s'", csv), 0);
    plots_expect_rejected(dir, csv, "no rows");
    plots_fixture_variant(csv, sizeof csv, dir, "ragged.csv", "/^step1_coalesce,512,/s/,PASS,/,PASS,extra,/");
    plots_expect_rejected(dir, csv, "fields, but the header has");
    plots_fixture_variant(csv, sizeof csv, dir, "nan.csv", "/^step1_coalesce,512,/s/,3412.0,/,nan,/");
    plots_expect_rejected(dir, csv, "gflops is 'nan'");
    plots_rm_rf(dir);
}

/* A bad CSV does not touch the charts already there. */
Test(plots, bad_csv_keeps_the_previous_charts)
{
    plots_require_gnuplot();
    char dir[256], out[300], csv[4200], path[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    cr_assert_eq(plots_chart(PLOTS_FIXTURE, out, &log), 0, "make chart failed:\n%s", log);
    free(log);
    size_t before[PLOTS_N_CHARTS];
    char *data[PLOTS_N_CHARTS];
    for (int i = 0; i < PLOTS_N_CHARTS; i++) {
        plots_path(path, sizeof path, out, PLOTS_CHARTS[i]);
        data[i] = plots_read(path, &before[i]);
    }
    plots_fixture_variant(csv, sizeof csv, dir, "allfail.csv", "s/,PASS,/,FAIL,/");
    cr_expect_neq(plots_chart(csv, out, &log), 0, "make chart succeeded on a CSV with no PASS row");
    free(log);
    for (int i = 0; i < PLOTS_N_CHARTS; i++) {
        size_t len;
        plots_path(path, sizeof path, out, PLOTS_CHARTS[i]);
        char *now = plots_read(path, &len);
        cr_expect(now && len == before[i] && memcmp(now, data[i], len) == 0, "%s changed", path);
        free(now);
        free(data[i]);
    }
    cr_expect_eq(plots_entries(out), PLOTS_N_CHARTS, "a failed make chart left temporary files");
    plots_rm_rf(dir);
}

/* --- make table ---------------------------------------------------------------------- */

#define PLOTS_README_HEAD "# The course\n\nSome text before the table.\n\n<!-- results-table:begin -->\n"
#define PLOTS_README_TAIL "<!-- results-table:end -->\n\n## After the table\n\nText that must stay.\n"

Test(plots, table_goes_between_the_markers)
{
    char dir[256], readme[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    plots_path(readme, sizeof readme, dir, "README.md");
    plots_write(readme, PLOTS_README_HEAD "an old table, 99999 GFLOPS\n" PLOTS_README_TAIL);
    int rc = plots_sh(&log, PLOTS_MAKE "table CSV=" PLOTS_FIXTURE " README='%s'", readme);
    cr_assert_eq(rc, 0, "make table failed:\n%s", log);
    free(log);

    size_t len;
    char *text = plots_read(readme, &len);
    cr_assert(text);
    size_t head = strlen(PLOTS_README_HEAD), tail = strlen(PLOTS_README_TAIL);
    cr_expect(len > head + tail && strncmp(text, PLOTS_README_HEAD, head) == 0,
              "the README before the table changed:\n%s", text);
    cr_expect(len > tail && strcmp(text + len - tail, PLOTS_README_TAIL) == 0,
              "the README after the table changed:\n%s", text);
    cr_expect(!strstr(text, "99999"), "the old table was not replaced:\n%s", text);
    /* The fixture's numbers: GFLOPS and ratios, per step and size, and cuBLAS's medians. */
    const char *want[] = {
        "| step | 256 GFLOPS | vs cuBLAS |",
        "| step0_naive | 391 | 0.13× | 562 | 0.048× | 608 | 0.021× | 419 | 0.0095× | 307 | 0.0061× | PASS |",
        "| step1_coalesce | 1853 | 0.63× |",
        "| step2_smem | 2104 | 0.72× | 5619 | 0.48× | 7807 | 0.26× | FAIL | – | 8311 | 0.17× | FAIL at 2048 |",
        "| cuBLAS (median) | 2907 | 1× |", "50260",
        PLOTS_DEVICE, "2025-11-20", "fixture000"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect(strstr(text, want[i]), "the table lacks \"%s\":\n%s", want[i], text);

    /* Again: the same file (the table replaces itself). */
    rc = plots_sh(&log, PLOTS_MAKE "table CSV=" PLOTS_FIXTURE " README='%s'", readme);
    cr_expect_eq(rc, 0, "make table failed the second time:\n%s", log);
    free(log);
    char *again = plots_read(readme, NULL);
    cr_expect_str_eq(again, text, "a second make table changed the README");
    free(again);
    free(text);
    plots_rm_rf(dir);
}

Test(plots, table_without_markers_fails_clearly)
{
    char dir[256], readme[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    plots_path(readme, sizeof readme, dir, "README.md");
    const char *original = "# The course\n\nNo markers here.\n";
    plots_write(readme, original);
    int rc = plots_sh(&log, PLOTS_MAKE "table CSV=" PLOTS_FIXTURE " README='%s'", readme);
    cr_expect_neq(rc, 0, "make table succeeded without markers");
    cr_expect(strstr(log, "no results-table markers") && strstr(log, "<!-- results-table:begin -->"),
              "make table did not say the markers are missing:\n%s", log);
    free(log);
    char *text = plots_read(readme, NULL);
    cr_expect_str_eq(text, original, "make table changed a README without markers");
    free(text);

    plots_path(readme, sizeof readme, dir, "absent.md");
    rc = plots_sh(&log, PLOTS_MAKE "table CSV=" PLOTS_FIXTURE " README='%s'", readme);
    cr_expect_neq(rc, 0, "make table succeeded without a README");
    cr_expect(strstr(log, "does not exist"), "make table did not say the README is missing:\n%s", log);
    free(log);
    cr_expect_eq(plots_entries(dir), 1, "make table left files behind");
    plots_rm_rf(dir);
}

/* --- plots/run.sh, with stand-in steps ------------------------------------------------ */

/* A stand-in for ./stepN: prints the harness's CSV header and a row, or fails as FAKE_*
 * says ("NAME:SIZE" words: FAKE_FAIL exits 1 with a FAIL row, FAKE_ERR exits 3, FAKE_CRASH
 * dies of SIGSEGV). */
static void plots_fake_step(const char *dir, const char *name)
{
    char path[4200];
    plots_path(path, sizeof path, dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fprintf(f,
            "#!/bin/sh\n"
            "name=$(basename \"$0\")\n"
            "if [ \"$1\" = --help ]; then echo \"${name}_fake: a stand-in step\"; exit 0; fi\n"
            "case \" ${FAKE_ERR:-} \" in *\" $name:$1 \"*) echo \"error: cudaMalloc: out of memory\" >&2; exit 3;; esac\n"
            "case \" ${FAKE_CRASH:-} \" in *\" $name:$1 \"*) kill -SEGV $$;; esac\n"
            "v=PASS; case \" ${FAKE_FAIL:-} \" in *\" $name:$1 \"*) v=FAIL;; esac\n"
            "echo '%s'\n"
            "echo \"${name}_fake,$1,$2,$3,1,0,0,1.0,0.9,31215.3,0.66,47296.0,0.6600,0.03,$v,Stand-in GPU,132,13.0,13.0,abc1234,2025-11-21T10:00:00Z\"\n"
            "[ $v = FAIL ] && { echo 'check FAIL: 12 elements wrong' >&2; exit 1; }\n"
            "exit 0\n",
            CSV_HEADER);
    fclose(f);
    chmod(path, 0755);
}

Test(plots, run_script_records_every_run_and_every_failure)
{
    char dir[256], csv[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    const char *names[] = {"step0", "step1", "step2", "step3"};
    for (int i = 0; i < 4; i++)
        plots_fake_step(dir, names[i]);
    plots_path(csv, sizeof csv, dir, "results.csv");
    int rc = plots_sh(&log,
                      "FAKE_FAIL='step1:512' FAKE_ERR='step2:256' FAKE_CRASH='step3:512' "
                      "SIZES='256 512' REPS=3 sh plots/run.sh '%s' '%s/step0' '%s/step1' '%s/step2' '%s/step3'",
                      csv, dir, dir, dir, dir);
    cr_assert_eq(rc, 0, "run.sh failed:\n%s", log);
    const char *progress[] = {
        "[1/8] step0 256 ... 31.2 TFLOPS (0.66 of cuBLAS) PASS\n",
        "[3/8] step2 256 ... ERROR exit 3\n", "error: cudaMalloc: out of memory",
        "[6/8] step1 512 ... 31.2 TFLOPS (0.66 of cuBLAS) FAIL\n", "check FAIL: 12 elements wrong",
        "[8/8] step3 512 ... CRASH signal 11\n"};
    for (size_t i = 0; i < sizeof progress / sizeof progress[0]; i++)
        cr_expect(strstr(log, progress[i]), "run.sh did not print \"%s\":\n%s", progress[i], log);
    free(log);

    char *text = plots_read(csv, NULL);
    cr_assert(text, "run.sh wrote no CSV");
    size_t hlen = strlen(CSV_HEADER);
    cr_expect(strncmp(text, CSV_HEADER, hlen) == 0 && text[hlen] == '\n', "the CSV does not start with the header");
    cr_expect(!strstr(text + hlen, "step,m,n,k"), "the header appears more than once");
    int lines = 0;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    cr_expect_eq(lines, 1 + 8, "expected a header and 8 rows:\n%s", text);
    cr_expect(strstr(text, "\nstep1_fake,512,512,512,1,0,0,1.0,0.9,31215.3,0.66,47296.0,0.6600,0.03,FAIL,"),
              "the FAIL run's row is not kept:\n%s", text);
    /* Runs that printed no row get one: full step name, size, what happened, the run's device. */
    cr_expect(strstr(text, "\nstep2_fake,256,256,256,,,,,,,,,,,ERROR exit 3,Stand-in GPU,132,13.0,13.0,abc1234,"),
              "no ERROR row for the run that exited 3:\n%s", text);
    cr_expect(strstr(text, "\nstep3_fake,512,512,512,,,,,,,,,,,CRASH signal 11,Stand-in GPU,132,13.0,13.0,abc1234,"),
              "no CRASH row for the run that crashed:\n%s", text);
    free(text);

    /* Those rows chart: the failed ones are left out, the CSV is valid. */
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
        char out[300];
        snprintf(out, sizeof out, "%s/charts", dir);
        cr_expect_eq(plots_chart(csv, out, &log), 0, "make chart failed on run.sh's CSV:\n%s", log);
        free(log);
    }
    plots_rm_rf(dir);
}

Test(plots, run_script_keeps_the_old_csv_when_nothing_passes)
{
    char dir[256], csv[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    plots_fake_step(dir, "step0");
    plots_path(csv, sizeof csv, dir, "results.csv");
    plots_write(csv, "the previous results\n");
    int rc = plots_sh(&log, "FAKE_ERR='step0:256 step0:512' SIZES='256 512' sh plots/run.sh '%s' '%s/step0'", csv, dir);
    cr_expect_neq(rc, 0, "run.sh succeeded with no run passing:\n%s", log);
    cr_expect(strstr(log, "left as it was"), "run.sh did not say it kept the old CSV:\n%s", log);
    free(log);
    rc = plots_sh(&log, "FAKE_FAIL='step0:256' SIZES='256' sh plots/run.sh '%s' '%s/step0'", csv, dir);
    cr_expect_neq(rc, 0, "run.sh succeeded with every run failing its check:\n%s", log);
    free(log);
    char *text = plots_read(csv, NULL);
    cr_expect_str_eq(text, "the previous results\n", "run.sh replaced the CSV though nothing passed");
    free(text);
    cr_expect_eq(plots_entries(dir), 2, "run.sh left temporary files next to the CSV");
    plots_rm_rf(dir);
}

/* make plots: the runs, the CSV, then charts where gnuplot is, the way to draw them where not. */
Test(plots, make_plots_renders_or_says_how)
{
    plots_require_gnuplot();
    char dir[256], *log;
    plots_tmpdir(dir, sizeof dir);
    plots_fake_step(dir, "step0");
    plots_fake_step(dir, "step1");
    /* STEPS= so that make builds nothing; the stand-ins are run instead. */
    const char *args = "plots STEPS= PLOT_STEPS='%s/step0 %s/step1' SIZES='256 4096' RESULTS='%s/results.csv' OUT='%s/%s'";
    char fmt[1024];
    snprintf(fmt, sizeof fmt, "%s%s GNUPLOT=/no/such/gnuplot", PLOTS_MAKE, args);
    int rc = plots_sh(&log, fmt, dir, dir, dir, dir, "none");
    cr_expect_eq(rc, 0, "make plots without gnuplot failed:\n%s", log);
    cr_expect(strstr(log, "[4/4] step1 4096 ... ") && strstr(log, "gnuplot is not installed") &&
              strstr(log, "make chart"), "make plots without gnuplot did not say how to render:\n%s", log);
    free(log);
    char path[4200];
    plots_path(path, sizeof path, dir, "results.csv");
    cr_expect_eq(access(path, R_OK), 0, "make plots wrote no CSV");
    plots_path(path, sizeof path, dir, "none");
    cr_expect_eq(plots_entries(path), 0, "make plots drew charts without gnuplot");

    snprintf(fmt, sizeof fmt, "%s%s", PLOTS_MAKE, args);
    rc = plots_sh(&log, fmt, dir, dir, dir, dir, "charts");
    cr_expect_eq(rc, 0, "make plots failed:\n%s", log);
    free(log);
    plots_path(path, sizeof path, dir, "charts");
    for (int i = 0; i < PLOTS_N_CHARTS; i++)
        plots_expect_chart(path, PLOTS_CHARTS[i]);
    plots_rm_rf(dir);
}

/* --- the stage sweep (make sweep, make sweep-chart) ---------------------------------- */

#define SWEEP_FIXTURE "tests/data/sweep_sample.csv"
#define TUNE_FIXTURE "tests/data/tune_sample.csv"

/* A stand-in for a step with pipeline stages: its --help offers --stages 1..FAKE_MAX
 * (default 4); a row's stages and GFLOPS (10000 + 1000 S + size) follow --stages; --no-check
 * makes the verdict UNCHECKED; FAKE_FAIL and FAKE_ERR ("NAME:SIZE:S" words) fail a run;
 * FAKE_LOG, when set, gets each run's arguments. */
static void plots_fake_staged_step(const char *path)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fprintf(f,
            "#!/bin/sh\n"
            "name=$(basename \"$0\")\n"
            "if [ \"$1\" = --help ]; then\n"
            "  echo \"${name}_fake: a stand-in step\"\n"
            "  echo \"  --stages S      shared-memory pipeline stages, 1..${FAKE_MAX:-4} (default 3)\"\n"
            "  exit 0\n"
            "fi\n"
            "[ -n \"${FAKE_LOG:-}\" ] && echo \"$*\" >> \"$FAKE_LOG\"\n"
            "s=3; v=PASS; prev=\n"
            "for a in \"$@\"; do [ \"$prev\" = --stages ] && s=$a; [ \"$a\" = --no-check ] && v=UNCHECKED; prev=$a; done\n"
            "case \" ${FAKE_ERR:-} \" in *\" $name:$1:$s \"*) echo \"error: cudaLaunchKernel: too many resources requested\" >&2; exit 3;; esac\n"
            "case \" ${FAKE_FAIL:-} \" in *\" $name:$1:$s \"*) v=FAIL;; esac\n"
            "echo '%s'\n"
            "echo \"${name}_fake,$1,$2,$3,1,0,$s,1.0,0.9,$((10000 + 1000 * s + $1)).0,0.5,20000.0,0.$s$s,0.03,$v,Stand-in GPU,132,13.0,13.0,abc1234,2025-11-21T10:00:00Z\"\n"
            "[ $v = FAIL ] && exit 1\n"
            "exit 0\n",
            CSV_HEADER);
    fclose(f);
    chmod(path, 0755);
}

Test(sweep, run_script_runs_carry_their_options)
{
    char dir[256], step[4200], csv[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    plots_path(step, sizeof step, dir, "step5");
    plots_fake_staged_step(step);
    plots_path(csv, sizeof csv, dir, "sweep.csv");
    int rc = plots_sh(&log, "FAKE_ERR='step5:256:2' SIZES='256 512' sh plots/run.sh '%s' '%s --stages 1' '%s --stages 2'",
                      csv, step, step);
    cr_assert_eq(rc, 0, "run.sh failed:\n%s", log);
    cr_expect(strstr(log, "[1/4] step5 --stages 1 256 ... 11.3 TFLOPS (0.11 of cuBLAS) PASS\n"),
              "no progress line naming the run's options:\n%s", log);
    cr_expect(strstr(log, "[2/4] step5 --stages 2 256 ... ERROR exit 3\n"), "the failed run is not reported:\n%s", log);
    free(log);
    char *text = plots_read(csv, NULL);
    cr_assert(text, "run.sh wrote no CSV");
    cr_expect(strstr(text, "\nstep5_fake,256,256,256,1,0,1,1.0,0.9,11256.0,"), "the S=1 row is missing:\n%s", text);
    cr_expect(strstr(text, "\nstep5_fake,512,512,512,1,0,2,1.0,0.9,12512.0,"), "the S=2 row is missing:\n%s", text);
    /* The run that printed no row keeps its stage count. */
    cr_expect(strstr(text, "\nstep5_fake,256,256,256,,,2,,,,,,,,ERROR exit 3,Stand-in GPU,"),
              "the ERROR row does not carry --stages 2:\n%s", text);
    free(text);
    plots_rm_rf(dir);
}

Test(sweep, run_script_labels_each_run_in_a_leading_column)
{
    char dir[256], step[4200], csv[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    plots_path(step, sizeof step, dir, "step6");
    plots_fake_staged_step(step);
    plots_path(csv, sizeof csv, dir, "tune.csv");
    int rc = plots_sh(&log, "FAKE_ERR='step6:256:2' RUN_LABEL=config RUN_ARGS=--no-check RUN_VALID='PASS UNCHECKED' "
                      "SIZES=256 sh plots/run.sh '%s' 'cfgA %s --stages 1' 'cfgB %s --stages 2'", csv, step, step);
    cr_assert_eq(rc, 0, "run.sh failed:\n%s", log);
    cr_expect(strstr(log, "[1/2] cfgA: step6 --stages 1 256 ... ") && strstr(log, "UNCHECKED\n"),
              "the progress line lacks the label or the verdict:\n%s", log);
    cr_expect(strstr(log, "cfgB: step6_fake 256 S=2 (ERROR exit 3)"), "the failure summary does not name the label:\n%s", log);
    free(log);
    char *text = plots_read(csv, NULL);
    cr_assert(text);
    cr_expect(strncmp(text, "config,step,m,n,k,", 18) == 0, "the CSV does not start with the config column:\n%s", text);
    cr_expect(strstr(text, "\ncfgA,step6_fake,256,256,256,1,0,1,"), "cfgA's row is missing:\n%s", text);
    cr_expect(strstr(text, "\ncfgB,step6_fake,256,256,256,,,2,,,,,,,,ERROR exit 3,"), "cfgB's ERROR row is missing:\n%s", text);
    free(text);

    /* Unchecked runs do not count as results unless RUN_VALID says so. */
    rc = plots_sh(&log, "RUN_ARGS=--no-check SIZES=256 sh plots/run.sh '%s/other.csv' '%s --stages 1'", dir, step);
    cr_expect_neq(rc, 0, "run.sh took UNCHECKED runs as results:\n%s", log);
    free(log);
    /* A labelled run without its label is refused before anything runs. */
    rc = plots_sh(&log, "RUN_LABEL=config SIZES=256 sh plots/run.sh '%s/other.csv' '%s'", dir, step);
    cr_expect_eq(rc, 2, "run.sh ran a labelled sweep with no label:\n%s", log);
    free(log);
    plots_rm_rf(dir);
}

/* make sweep with a stand-in step: every S its --help offers, the CSV, the table, the chart. */
Test(sweep, make_sweep_runs_every_stage_the_step_offers)
{
    plots_require_gnuplot();
    char dir[256], step[4200], path[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    plots_path(step, sizeof step, dir, "step5");
    plots_fake_staged_step(step);
    int rc = plots_sh(&log, "export FAKE_MAX=3 FAKE_FAIL='step5:512:3'; " PLOTS_MAKE
                      "sweep SWEEP_STEP='%s' SWEEP_SIZES='256 512' SWEEP_CSV='%s/sweep.csv' OUT='%s/charts'",
                      step, dir, dir);
    cr_assert_eq(rc, 0, "make sweep failed:\n%s", log);
    const char *want[] = {"S = 1..3", "[1/6] step5 --stages 1 256 ... ", "[6/6] step5 --stages 3 512 ... ",
                          "| M = N = K | S = 1 | S = 2 | S = 3 | cuBLAS GFLOPS | best S |",
                          "| 256 | 11256 (0.11×) | 12256 (0.22×) | **13256** (0.33×) | 20000 | 3 |",
                          "| 512 | 11512 (0.11×) | **12512** (0.22×) | FAIL | 20000 | 2 |",
                          "chart: wrote"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect(strstr(log, want[i]), "make sweep did not print \"%s\":\n%s", want[i], log);
    cr_expect(!strstr(log, "--stages 4"), "make sweep ran a stage count the step does not offer:\n%s", log);
    free(log);
    plots_path(path, sizeof path, dir, "charts");
    plots_expect_chart(path, "sweep.png");
    plots_expect_chart(path, "sweep.svg");

    /* Without gnuplot: the CSV and the table, then how to draw the chart elsewhere. */
    rc = plots_sh(&log, "export FAKE_MAX=2; " PLOTS_MAKE "sweep SWEEP_STEP='%s' SWEEP_SIZES=256 SWEEP_CSV='%s/sweep2.csv' "
                  "OUT='%s/none' GNUPLOT=/no/such/gnuplot", step, dir, dir);
    cr_expect_eq(rc, 0, "make sweep without gnuplot failed:\n%s", log);
    cr_expect(strstr(log, "gnuplot is not installed") && strstr(log, "make sweep-chart"),
              "make sweep without gnuplot did not say how to draw the chart:\n%s", log);
    free(log);
    plots_path(path, sizeof path, dir, "none");
    cr_expect_eq(plots_entries(path), 0, "make sweep drew a chart without gnuplot");

    /* A step without stages cannot be swept. */
    plots_fake_step(dir, "step0");
    rc = plots_sh(&log, PLOTS_MAKE "sweep SWEEP_STEP='%s/step0' SWEEP_CSV='%s/sweep3.csv'", dir, dir);
    cr_expect_neq(rc, 0, "make sweep swept a step without --stages");
    cr_expect(strstr(log, "no pipeline stages"), "make sweep did not say why:\n%s", log);
    free(log);
    plots_rm_rf(dir);
}

Test(sweep, sweep_chart_renders_from_the_committed_kind_of_csv)
{
    plots_require_gnuplot();
    char dir[256], path[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    int rc = plots_sh(&log, "CHART_DATA='%s/data'; export CHART_DATA; " PLOTS_MAKE
                      "sweep-chart SWEEP_CSV=" SWEEP_FIXTURE " OUT='%s/out'", dir, dir);
    cr_assert_eq(rc, 0, "make sweep-chart failed:\n%s", log);
    free(log);
    plots_path(path, sizeof path, dir, "out");
    plots_expect_chart(path, "sweep.png");
    plots_expect_chart(path, "sweep.svg");
    cr_expect_eq(plots_entries(path), 2, "make sweep-chart wrote other files");

    plots_path(path, sizeof path, dir, "out/sweep.svg");
    char *svg = plots_read(path, NULL);
    cr_assert(svg);
    const char *want[] = {PLOTS_DEVICE, "2025-11-22", "step5_pipeline", "GFLOPS", "pipeline stages",
                          "M = N = K = 4096", "M = N = K = 2048 (FAIL at S=4)", "M = N = K = 8192 (ERROR at S=3)"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect(strstr(svg, want[i]), "the sweep chart lacks \"%s\"", want[i]);
    free(svg);

    /* The FAIL and ERROR runs are NaN in the data gnuplot reads: never a point. */
    plots_path(path, sizeof path, dir, "data/sweep.dat");
    char *dat = plots_read(path, NULL);
    cr_assert(dat, "the sweep chart's data was not kept");
    const char *b2048 = strstr(dat, "M = N = K = 2048");
    const char *b8192 = strstr(dat, "M = N = K = 8192");
    cr_assert(b2048 && b8192, "a series is missing:\n%s", dat);
    cr_expect(strstr(b2048, "4\tNaN\tNaN\n"), "the FAIL run at 2048, S=4 is not NaN:\n%s", dat);
    cr_expect(strstr(b8192, "3\tNaN\tNaN\n"), "the ERROR run at 8192, S=3 is not NaN:\n%s", dat);
    cr_expect(!strstr(dat, "28800"), "the FAIL run's GFLOPS (28800) reached the chart data");
    cr_expect(strstr(b8192, "4\t36000.0\t0.7200\n"), "the PASS run at 8192, S=4 is missing:\n%s", dat);
    free(dat);
    plots_rm_rf(dir);
}

Test(sweep, sweep_chart_rejects_what_is_not_a_sweep)
{
    plots_require_gnuplot();
    char dir[256], *log;
    plots_tmpdir(dir, sizeof dir);
    int rc = plots_sh(&log, PLOTS_MAKE "sweep-chart SWEEP_CSV='%s/absent.csv' OUT='%s/out'", dir, dir);
    cr_expect_neq(rc, 0, "make sweep-chart succeeded without a CSV");
    cr_expect(strstr(log, "no such file") && strstr(log, "make sweep"), "no clear error for a missing CSV:\n%s", log);
    free(log);
    /* The results CSV holds several steps. */
    rc = plots_sh(&log, PLOTS_MAKE "sweep-chart SWEEP_CSV=" PLOTS_FIXTURE " OUT='%s/out'", dir);
    cr_expect_neq(rc, 0, "make sweep-chart drew a CSV of several steps");
    cr_expect(strstr(log, "a sweep is one step's rows"), "no clear error for a CSV of several steps:\n%s", log);
    free(log);
    char out[300];
    snprintf(out, sizeof out, "%s/out", dir);
    cr_expect_eq(plots_entries(out), 0, "a rejected sweep CSV left files behind");
    plots_rm_rf(dir);
}

/* --- the tile-shape sweep (make tune, make tune-table) -------------------------------- */

static const char *const TUNE_NAMES[] = {
    "bk8_128x128_w32x64_t8x8", "bk8_128x128_w64x32_t8x8", "bk8_64x128_w32x64_t8x8",  "bk8_128x64_w64x32_t8x8",
    "bk8_64x64_w32x32_t4x8",   "bk8_64x64_w32x32_t8x4",   "bk16_128x128_w32x64_t8x8", "bk16_64x128_w32x64_t8x8"};

/* make -n: the build of every configuration, with its -D flags, and none of it in make all. */
Test(tune, every_configuration_is_built_with_its_flags_and_not_by_make_all)
{
    char *log;
    int rc = plots_sh(&log, PLOTS_MAKE "-n tune-build");
    cr_assert_eq(rc, 0, "make -n tune-build failed:\n%s", log);
    for (size_t i = 0; i < sizeof TUNE_NAMES / sizeof TUNE_NAMES[0]; i++) {
        char out[128];
        snprintf(out, sizeof out, "-o build/tune/%s/step6\n", TUNE_NAMES[i]);
        cr_expect(strstr(log, out), "make tune-build does not build %s:\n%s", TUNE_NAMES[i], log);
    }
    cr_expect(strstr(log, "-DTUNE_BK=16 -DTUNE_BM=64 -DTUNE_BN=128 -DTUNE_WM=32 -DTUNE_WN=64 -DTUNE_TM=8 -DTUNE_TN=8 step6_"),
              "the flags of \"16 64 128 32 64 8 8\" are wrong:\n%s", log);
    cr_expect(strstr(log, "-DTUNE_BK=8 -DTUNE_BM=64 -DTUNE_BN=64 -DTUNE_WM=32 -DTUNE_WN=32 -DTUNE_TM=8 -DTUNE_TN=4 step6_"),
              "the flags of \"8 64 64 32 32 8 4\" are wrong:\n%s", log);
    free(log);

    rc = plots_sh(&log, PLOTS_MAKE "-n all");
    cr_expect_eq(rc, 0, "make -n all failed:\n%s", log);
    cr_expect(!strstr(log, "TUNE_") && !strstr(log, "build/tune"), "make all builds tune binaries:\n%s", log);
    free(log);

    rc = plots_sh(&log, PLOTS_MAKE "-n tune-build TUNE_CONFIGS='\"8 128 128 32 64 8\"'");
    cr_expect_neq(rc, 0, "a configuration of 6 numbers was accepted");
    cr_expect(strstr(log, "is not 7 numbers"), "no clear error for a malformed configuration:\n%s", log);
    free(log);
}

/* plots/tune.sh run with stand-in binaries: every configuration, size and S, unchecked. */
Test(tune, tune_runs_every_configuration_size_and_stage)
{
    char dir[256], path[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    const char *names[] = {"bk8_128x128_w32x64_t8x8", "bk16_64x128_w32x64_t8x8"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/bin/%s", dir, names[i]);
        cr_assert_eq(plots_sh(NULL, "mkdir -p '%s'", path), 0);
        snprintf(path, sizeof path, "%s/bin/%s/step6", dir, names[i]);
        plots_fake_staged_step(path);
    }
    int rc = plots_sh(&log, "FAKE_MAX=3 FAKE_LOG='%s/args' FAKE_ERR='step6:512:2' TUNE_SIZES='256 512' "
                      "sh plots/tune.sh run '%s/tune.csv' '%s/bin' '8 128 128 32 64 8 8' '16 64 128 32 64 8 8'",
                      dir, dir, dir);
    cr_assert_eq(rc, 0, "tune.sh run failed:\n%s", log);
    const char *want[] = {"[1/12] bk8_128x128_w32x64_t8x8: step6 --stages 1 256 ... ",
                          "[12/12] bk16_64x128_w32x64_t8x8: step6 --stages 3 512 ... ",
                          "--no-check", "| configuration | 256 | 512 |",
                          "| bk8_128x128_w32x64_t8x8 | **13256** (S=3, 0.33×) | **13512** (S=3, 0.33×) |",
                          "| **best** | bk8_128x128_w32x64_t8x8, S=3 |", "correctness is the test suite's job"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect(strstr(log, want[i]), "make tune did not print \"%s\":\n%s", want[i], log);
    free(log);

    plots_path(path, sizeof path, dir, "args");
    char *args = plots_read(path, NULL);
    cr_assert(args, "the stand-ins were not run");
    cr_expect(strstr(args, "256 256 256 --reps 5 --stages 1 --no-check"), "a run's arguments are wrong:\n%s", args);
    free(args);
    plots_path(path, sizeof path, dir, "tune.csv");
    char *text = plots_read(path, NULL);
    cr_assert(text);
    char header[1024];
    snprintf(header, sizeof header, "config,%s\n", CSV_HEADER);
    cr_expect(strncmp(text, header, strlen(header)) == 0, "the header is not config + the CSV header:\n%s", text);
    cr_expect(strstr(text, "\nbk16_64x128_w32x64_t8x8,step6_fake,512,512,512,,,2,,,,,,,,ERROR exit 3,"),
              "the ERROR row is missing:\n%s", text);
    cr_expect(strstr(text, "\nbk8_128x128_w32x64_t8x8,step6_fake,256,256,256,1,0,3,1.0,0.9,13256.0,0.5,20000.0,0.33,0.03,UNCHECKED,"),
              "an UNCHECKED row is missing:\n%s", text);
    free(text);

    /* A configuration that is not built is named. */
    rc = plots_sh(&log, "sh plots/tune.sh run '%s/t2.csv' '%s/bin' '8 64 64 32 32 4 8'", dir, dir);
    cr_expect_eq(rc, 2, "tune.sh ran a configuration that is not built");
    cr_expect(strstr(log, "bk8_64x64_w32x32_t4x8/step6 is not built"), "no clear error:\n%s", log);
    free(log);
    plots_rm_rf(dir);
}

Test(tune, tune_table_prints_the_best_of_each_size)
{
    char *log;
    int rc = plots_sh(&log, PLOTS_MAKE "tune-table TUNE_CSV=" TUNE_FIXTURE);
    cr_assert_eq(rc, 0, "make tune-table failed:\n%s", log);
    const char *want[] = {
        "| configuration | 1024 | 4096 |\n",
        "| bk8_128x128_w32x64_t8x8 | 17000 (S=2, 0.68×) | **41000** (S=3, 0.82×) |\n",
        "| bk8_64x128_w32x64_t8x8 | **19000** (S=2, 0.76×) | 36000 (S=3, 0.72×) |\n",
        "| bk16_128x128_w32x64_t8x8 | ERROR exit 3 | 40000 (S=2, 0.80×) |\n",
        "| cuBLAS (median) | 25000 | 50000 |\n",
        "| **best** | bk8_64x128_w32x64_t8x8, S=2 | bk8_128x128_w32x64_t8x8, S=3 |\n",
        PLOTS_DEVICE, "2025-11-23", "fixture000", "--no-check"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect(strstr(log, want[i]), "make tune-table did not print \"%s\":\n%s", want[i], log);
    free(log);
    rc = plots_sh(&log, PLOTS_MAKE "tune-table TUNE_CSV=/no/such/tune.csv");
    cr_expect_neq(rc, 0, "make tune-table succeeded without a CSV");
    cr_expect(strstr(log, "no such file") && strstr(log, "make tune"), "no clear error for a missing CSV:\n%s", log);
    free(log);
}

/* --- make table: the step READMEs ------------------------------------------------------ */

/* Writes dir/sub/README.md with `text`. */
static void plots_step_readme(char *path, size_t len, const char *dir, const char *sub, const char *text)
{
    snprintf(path, len, "%s/%s", dir, sub);
    cr_assert_eq(mkdir(path, 0755), 0, "mkdir %s failed", path);
    snprintf(path, len, "%s/%s/README.md", dir, sub);
    plots_write(path, text);
}

#define STEP2_README "# step 2\n\n## Measured\n\n<!-- step-results:begin -->\nold numbers 99999\n<!-- step-results:end -->\n\nText after.\n"
#define STEP5_README "# step 5\n\n<!-- step-results:begin -->\n<!-- step-results:end -->\n\n## The sweep\n\n" \
                     "<!-- sweep-results:begin -->\n<!-- sweep-results:end -->\n\nThe end.\n"
#define STEP6_README "# step 6\n\n<!-- step-results:begin -->\n<!-- step-results:end -->\n\n" \
                     "<!-- tune-results:begin -->\n<!-- tune-results:end -->\n"
#define STEP1_README "# step 1, no markers\n"

Test(table, step_readmes_get_their_own_tables)
{
    char dir[256], readme[4200], s1[4200], s2[4200], s5[4200], s6[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    plots_path(readme, sizeof readme, dir, "README.md");
    plots_write(readme, PLOTS_README_HEAD PLOTS_README_TAIL);
    plots_step_readme(s1, sizeof s1, dir, "step1_tiling", STEP1_README);
    plots_step_readme(s2, sizeof s2, dir, "step2_shared", STEP2_README);
    plots_step_readme(s5, sizeof s5, dir, "step5_pipeline", STEP5_README);
    plots_step_readme(s6, sizeof s6, dir, "step6_unroll", STEP6_README);
    const char *cmd = PLOTS_MAKE "table CSV=" PLOTS_FIXTURE " README='%s' STEP_READMES='%s %s %s %s' "
                      "SWEEP_CSV=" SWEEP_FIXTURE " TUNE_CSV=" TUNE_FIXTURE;
    int rc = plots_sh(&log, cmd, readme, s1, s2, s5, s6);
    cr_assert_eq(rc, 0, "make table failed:\n%s", log);
    cr_expect(strstr(log, "step1_tiling/README.md has no table markers"), "no note for the README without markers:\n%s", log);
    cr_expect(strstr(log, "has no row of step5_pipeline"), "no note for a step without rows:\n%s", log);
    free(log);

    char *text = plots_read(s2, NULL);
    cr_assert(text);
    const char *want2[] = {
        "## Measured\n\n<!-- step-results:begin -->\n",
        "| M = N = K | time, ms (median) | GFLOPS | cuBLAS GFLOPS | ratio to cuBLAS | verdict |\n",
        "| 1024 | 0.275 | 7807 | 29600 | 0.26× | PASS |\n",
        "| 2048 | – | – | 44076 | – | FAIL |\n",
        "| 4096 | 16.54 | 8311 | 50260 | 0.17× | PASS |\n",
        "| 8192 | – | – | – | – | not run |\n",
        PLOTS_DEVICE, "2025-11-20", "fixture000",
        "<!-- step-results:end -->\n\nText after.\n"};
    for (size_t i = 0; i < sizeof want2 / sizeof want2[0]; i++)
        cr_expect(strstr(text, want2[i]), "step 2's README lacks \"%s\":\n%s", want2[i], text);
    cr_expect(!strstr(text, "99999") && !strstr(text, "step0_naive") && !strstr(text, "| 256 |"),
              "step 2's table holds what is not its own:\n%s", text);
    free(text);

    text = plots_read(s5, NULL);
    cr_expect(strstr(text, "<!-- step-results:begin -->\n<!-- step-results:end -->"),
              "step 5's empty step table was touched though the CSV has no step 5:\n%s", text);
    cr_expect(strstr(text, "| 2048 | 18000 (0.45×) | 24000 (0.60×) | **28000** (0.70×) | FAIL | 40000 | 3 |\n") &&
              strstr(text, "\nThe end.\n"), "step 5's README lacks the sweep table:\n%s", text);
    free(text);
    text = plots_read(s6, NULL);
    cr_expect(strstr(text, "| **best** | bk8_64x128_w32x64_t8x8, S=2 | bk8_128x128_w32x64_t8x8, S=3 |\n"),
              "step 6's README lacks the tune table:\n%s", text);
    free(text);
    text = plots_read(s1, NULL);
    cr_expect_str_eq(text, STEP1_README, "a README without markers changed");
    free(text);

    /* Again: nothing changes. */
    char *before = plots_read(s5, NULL);
    rc = plots_sh(&log, cmd, readme, s1, s2, s5, s6);
    cr_expect_eq(rc, 0, "make table failed the second time:\n%s", log);
    free(log);
    char *after = plots_read(s5, NULL);
    cr_expect_str_eq(after, before, "a second make table changed step 5's README");
    free(before);
    free(after);
    plots_rm_rf(dir);
}

Test(table, missing_optional_csvs_are_skipped_and_broken_markers_fail)
{
    char dir[256], readme[4200], s5[4200], s6[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    plots_path(readme, sizeof readme, dir, "README.md");
    plots_write(readme, PLOTS_README_HEAD PLOTS_README_TAIL);
    plots_step_readme(s5, sizeof s5, dir, "step5_pipeline", STEP5_README);
    plots_step_readme(s6, sizeof s6, dir, "step6_unroll",
                      "# step 6\n<!-- tune-results:end -->\n<!-- tune-results:begin -->\n");
    int rc = plots_sh(&log, PLOTS_MAKE "table CSV=" PLOTS_FIXTURE " README='%s' STEP_READMES='%s %s' "
                      "SWEEP_CSV='%s/no-sweep.csv' TUNE_CSV=" TUNE_FIXTURE, readme, s5, s6, dir);
    cr_expect_eq(rc, 2, "make table did not fail on broken markers:\n%s", log);
    cr_expect(strstr(log, "no-sweep.csv is not there"), "no note for the missing sweep CSV:\n%s", log);
    cr_expect(strstr(log, "<!-- tune-results:end --> (line 2) before"), "no error for the broken markers:\n%s", log);
    cr_expect(strstr(log, "wrote the results table"), "README.md was not written:\n%s", log);
    free(log);
    char *text = plots_read(s5, NULL);
    cr_expect_str_eq(text, STEP5_README, "step 5's README changed though its CSVs are missing");
    free(text);

    /* The table for another README leaves the course's step READMEs alone. */
    rc = plots_sh(&log, PLOTS_MAKE "-n table README='%s'", readme);
    cr_expect_eq(rc, 0);
    cr_expect(!strstr(log, "step0_naive/README.md"), "make table README=... would rewrite the step READMEs:\n%s", log);
    free(log);
    plots_rm_rf(dir);
}

/* --- make sass, make diff, make profile ------------------------------------------------- */

#define SASS_FIXTURE "tests/data/sass_excerpt.sass"
#define NCU_FIXTURE "tests/data/ncu_raw_sample.csv"

Test(tools, sass_summary_counts_each_kernel)
{
    char *log;
    int rc = plots_sh(&log, "awk -f scripts/sass_summary.awk " SASS_FIXTURE);
    cr_assert_eq(rc, 0, "sass_summary.awk failed:\n%s", log);
    const char *want[] = {
        "[1] _Z13sgemm_fixtureiiifPKfS0_fPf  (sm_90)\n",
        "    26 instructions: FFMA 4 (15.4%), BAR 2, LDL 0, STL 0\n",
        "    global  LDG.E 1, LDG.E.64 0, LDG.E.128 1 | STG.E 1, STG.E.64 0, STG.E.128 1 | LDGSTS.E.BYPASS.128 1, LDGSTS.E 1\n",
        "    shared  LDS 1, LDS.64 1, LDS.128 1 | STS 1, STS.64 0, STS.128 1\n",
        /* The outer loop (0xa0 to 0x150), not the inner one it holds. */
        "    longest loop 0x00a0-0x0150: 12 instructions, FFMA 4 (33.3%)\n",
        "[2] _Z12sgemm_spillsiiifPKfS0_fPf  (sm_90)\n",
        "    9 instructions: FFMA 1 (11.1%), BAR 0, LDL 1, STL 1  <- local memory: spills?\n",
        "LDG.E.64 1, LDG.E.128 0, LDG.E.128.CONSTANT 1 |", "| LDGSTS 0\n",
        "    no loop (no backward branch)\n"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect(strstr(log, want[i]), "the summary lacks \"%s\":\n%s", want[i], log);
    free(log);
    rc = plots_sh(&log, "awk -f scripts/sass_summary.awk " PLOTS_FIXTURE);
    cr_expect_neq(rc, 0, "a file with no kernel was summarized");
    cr_expect(strstr(log, "no kernel"), "no clear error for a file with no kernel:\n%s", log);
    free(log);
}

/* cuobjdump reads binaries built here, with no GPU. Where the toolkit has none and
 * `make deps` has not installed one, or where ARCH leaves step 6 out, the test skips,
 * naming what is missing and the fix. */
Test(tools, make_sass_summarizes_a_built_step)
{
    char *log;
    int rc = plots_sh(&log, PLOTS_MAKE "sass STEP=6");
    const char *missing = strstr(log, "cuobjdump is not installed");
    if (!missing)
        missing = strstr(log, "step6: needs compute capability 8.0");   /* make ARCH=sm_75 test */
    if (rc != 0 && missing) {
        char reason[512];
        snprintf(reason, sizeof reason, "%.*s", (int)strcspn(missing, "\n"), missing);
        free(log);
        cr_skip_test("%s", reason);
    }
    cr_assert_eq(rc, 0, "make sass STEP=6 failed:\n%s", log);
    cr_expect(strstr(log, "sgemm_unrolled") && strstr(log, "longest loop") && strstr(log, "LDGSTS"),
              "make sass STEP=6 printed no summary of step 6's kernels:\n%s", log);
    free(log);
    cr_expect_eq(access("build/step6.sass", R_OK), 0, "build/step6.sass was not written");
    rc = plots_sh(&log, PLOTS_MAKE "sass STEP=9");
    cr_expect_eq(rc, 2, "make sass STEP=9 did not fail");
    cr_expect(strstr(log, "STEP='9' is not a step"), "no clear error for STEP=9:\n%s", log);
    free(log);
}

Test(tools, make_diff_shows_what_a_step_changed)
{
    char *log;
    int rc = plots_sh(&log, PLOTS_MAKE "diff STEP=1");
    cr_expect_eq(rc, 0, "make diff STEP=1 did not exit 0 (the files differ):\n%s", log);
    cr_expect(strstr(log, "--- step0_") && strstr(log, "/step0.cu") && strstr(log, "+++ step1_") && strstr(log, "\n@@ "),
              "make diff STEP=1 is not a diff of step 0's and step 1's kernel files:\n%.2000s", log);
    free(log);
    const char *bad[][2] = {{"0", "step 0 is the first step"}, {"9", "there is no step 9"},
                            {"x", "is not a step number"}, {"", "is not a step number"}};
    for (int i = 0; i < 4; i++) {
        rc = plots_sh(&log, PLOTS_MAKE "diff STEP='%s'", bad[i][0]);
        cr_expect_neq(rc, 0, "make diff STEP=%s succeeded", bad[i][0]);
        cr_expect(strstr(log, bad[i][1]), "make diff STEP=%s did not say \"%s\":\n%s", bad[i][0], bad[i][1], log);
        free(log);
    }
}

Test(tools, make_profile_without_ncu_fails_clearly)
{
    char *log;
    int rc = plots_sh(&log, PLOTS_MAKE "profile STEP=5 NCU=/no/such/ncu");
    cr_expect_neq(rc, 0, "make profile succeeded without ncu");
    cr_expect(strstr(log, "ncu (Nsight Compute) is not installed"), "no clear error without ncu:\n%s", log);
    cr_expect(!strstr(log, "nvcc"), "make profile built before finding ncu missing:\n%s", log);
    free(log);
    rc = plots_sh(&log, PLOTS_MAKE "profile-all NCU=/no/such/ncu");
    cr_expect_neq(rc, 0, "make profile-all succeeded without ncu");
    cr_expect(strstr(log, "ncu (Nsight Compute) is not installed"), "no clear error without ncu:\n%s", log);
    free(log);
    rc = plots_sh(&log, PLOTS_MAKE "profile STEP=7 NCU=/no/such/ncu");
    cr_expect(rc != 0 && strstr(log, "STEP='7' is not a step"), "no clear error for STEP=7:\n%s", log);
    free(log);
}

/* profile.sh with a stand-in ncu that records its arguments and prints the fixture. */
Test(tools, profile_runs_ncu_on_the_first_launch_and_reads_its_metrics)
{
    char dir[256], ncu[4200], step[4200], path[4200], *log;
    plots_tmpdir(dir, sizeof dir);
    plots_path(ncu, sizeof ncu, dir, "ncu");
    FILE *f = fopen(ncu, "w");
    cr_assert(f);
    fprintf(f, "#!/bin/sh\necho \"$*\" > '%s/ncu.args'\ncat '%s/" NCU_FIXTURE "'\n", dir, plots_root());
    fclose(f);
    chmod(ncu, 0755);
    plots_path(step, sizeof step, dir, "step5");
    plots_fake_staged_step(step);
    int rc = plots_sh(&log, "NCU='%s' sh scripts/profile.sh run '%s' 4096 '%s/profile_step5_4096'", ncu, step, dir);
    cr_assert_eq(rc, 0, "profile.sh run failed:\n%s", log);
    const char *want[] = {"kernel: sgemm_pipelined (the first launch)", "gpu__time_duration.sum",
                          "3.927 ms", "2147.5 MB", "45.6 %", "shared-memory load bank conflicts",
                          "launch__occupancy_limit_registers"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect(strstr(log, want[i]), "the profile lacks \"%s\":\n%s", want[i], log);
    plots_path(path, sizeof path, dir, "profile_step5_4096.txt");
    char *txt = plots_read(path, NULL);
    cr_assert(txt, "no profile_step5_4096.txt");
    cr_expect(strstr(txt, "3.927 ms") && strstr(txt, "1024"), "the .txt lacks the metrics:\n%s", txt);
    free(txt);
    free(log);

    plots_path(path, sizeof path, dir, "ncu.args");
    char *args = plots_read(path, NULL);
    cr_assert(args, "the stand-in ncu was not run");
    const char *want_args[] = {"--csv --page raw", "-k regex:^sgemm_ -c 1",
                               "--metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,",
                               "launch__occupancy_limit_registers ", "/step5 4096 --reps 1 --warmup 0 --no-check\n"};
    for (size_t i = 0; i < sizeof want_args / sizeof want_args[0]; i++)
        cr_expect(strstr(args, want_args[i]), "ncu was not given \"%s\":\n%s", want_args[i], args);
    free(args);

    /* The table across steps: one row per file, named by its step. */
    cr_assert_eq(plots_sh(NULL, "cp " NCU_FIXTURE " '%s/profile_step3_4096.ncu.csv'", dir), 0);
    rc = plots_sh(&log, "sh scripts/profile.sh table '%s/profile_step3_4096.ncu.csv' '%s/profile_step5_4096.ncu.csv'", dir, dir);
    cr_expect_eq(rc, 0, "profile.sh table failed:\n%s", log);
    cr_expect(strstr(log, "step  ") && strstr(log, "time") && strstr(log, "FMA pipe %"), "the table has no header:\n%s", log);
    cr_expect(strstr(log, "\nstep3 ") && strstr(log, "\nstep5 "), "the table lacks a step's row:\n%s", log);
    free(log);

    /* ncu's details page (one row per metric) reads the same. */
    plots_path(path, sizeof path, dir, "details.csv");
    plots_write(path, "==PROF== Connected to process 1\n"
                      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                      "\"0\",\"1\",\"step0\",\"h\",\"sgemm_naive\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"nsecond\",\"1,500,000\"\n"
                      "\"0\",\"1\",\"step0\",\"h\",\"sgemm_naive\",\"Command line profiler metrics\",\"launch__registers_per_thread\",\"register/thread\",\"40\"\n"
                      "\"1\",\"1\",\"step0\",\"h\",\"sgemm_naive\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"nsecond\",\"9,999,999\"\n");
    rc = plots_sh(&log, "awk -v metrics=gpu__time_duration.sum,launch__registers_per_thread -f scripts/ncu_metrics.awk '%s'", path);
    cr_expect_eq(rc, 0, "the details page was not read:\n%s", log);
    cr_expect(strstr(log, "1.500 ms") && strstr(log, "40") && !strstr(log, "10.000 ms"),
              "the details page's first launch was not read right:\n%s", log);
    free(log);
    plots_rm_rf(dir);
}
