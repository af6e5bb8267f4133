/* test_plots.c - the charts, the README table and the run script, with no GPU.
 *
 * Renders the charts from the committed fixture tests/data/results_sample.csv (made-up
 * numbers, not measurements) through `make chart CSV=... OUT=<temporary directory>`, so the
 * committed charts are never touched; feeds the chart target bad CSVs; writes the table into
 * a temporary README; and drives plots/run.sh with stand-in steps (shell scripts that print
 * what ./stepN prints, or fail the ways it can). Run from the repository root (make test).
 * gnuplot must be installed: without it the chart tests fail, they do not skip.
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
            run_report r;
            memset(&r, 0, sizeof r);
            r.step = steps[s];
            r.m = r.n = r.k = sizes[i];
            r.alpha = 1.0f;
            r.median_ms = 0.5 * (s ? 1 : 20) * sizes[i] / 512.0;
            r.min_ms = r.median_ms * 0.98;
            r.cublas_median_ms = 0.2 * sizes[i] / 512.0;
            r.checked = 1;
            r.check.pass = 1;
            r.check.worst_ratio = 0.05;
            r.device = "Harness-Formatted GPU";
            r.sm_count = 132;
            r.runtime_version = r.driver_version = 13000;
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
