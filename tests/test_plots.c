/* test_plots.c - the tooling (scripts/course, and the going-further track's tools.py, through the
 * make targets), with no GPU.
 *
 * Each test runs a make target (or one of the tools itself) on a committed fixture under tests/data/
 * (made-up numbers, marked as such), or on stand-in steps (shell scripts that print what
 * ./stepN prints, or fail the ways it can), writing only into a temporary directory, and
 * compares what comes out with an expected file under tests/data/expected/ (`diff -u`, so a
 * failure shows the lines that differ). Dates (a run stamps the rows of failed runs) and
 * temporary paths are masked before the comparison. gnuplot must be installed: the chart
 * tests fail without it. Run from the repository root (make test).
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process.h"
#include "shell.h"
#include "report.h"

#define FIXTURE "tests/data/results_sample.csv"
#define SWEEP_FIXTURE "tests/data/sweep_sample.csv"
#define ABLATION_FIXTURE "tests/data/ablation_sample.csv"
#define TRACK_FIXTURE "tests/data/track_sample.csv"
#define SHAPES_FIXTURE "tests/data/shapes_sample.csv"
#define EXPECTED "tests/data/expected/"
/* `make ARGS` as a fresh make: the flags of a make that runs this suite are not passed on. */
#define MAKE "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory "
/* make results and make plots run ./fma_peak first. With stand-in steps it is not remade
 * (-o): after a commit since the last build it would be linked again, its link line would
 * join the log the test compares, and two tests running at once would both write it. */
#define MAKE_RESULTS MAKE "-o fma_peak "
/* Masks what changes from run to run: the temporary directory (as DIR) and run dates. */
#define MASK "sed -e \"s|$D|DIR|g\" -e 's/20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]\\(T[0-9:]*Z\\)*/DATE/g'"

/* Expects the command to exit with rc, showing its output otherwise. */
static void expect_rc(int rc, const char *dir, const char *fmt, ...)
{
    char cmd[8192], *log;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int got = sh(&log, dir, "%s", cmd);
    cr_expect_eq(got, rc, "exit %d, not %d, from: %s\n%s", got, rc, cmd, log);
    free(log);
}

/* Expects the file `actual` (a shell word: may use $D) to equal tests/data/expected/NAME. */
static void expect_golden(const char *dir, const char *name, const char *actual)
{
    char *log;
    if (getenv("GOLDEN_UPDATE"))   /* as in golden.c: GOLDEN_UPDATE=1 writes the golden file */
        cr_assert_eq(sh(NULL, dir, "cp %s " EXPECTED "%s", actual, name), 0);
    int rc = sh(&log, dir, "diff -u " EXPECTED "%s %s", name, actual);
    cr_expect_eq(rc, 0, "%s differs from " EXPECTED "%s:\n%s", actual, name, log);
    free(log);
}

static void tmpdir(char *dir, size_t len) { tmpdir_named(dir, len, "plots-test"); }

/* The entries of dir, as `ls -A | wc -l` counts them. */
static int entries(const char *dir, const char *sub)
{
    char *log;
    sh(&log, dir, "ls -A \"$D/%s\" 2>/dev/null | wc -l", sub);
    int n = atoi(log);
    free(log);
    return n;
}

/* A stand-in for ./stepN at dir/name: --describe gives max_stages=$FAKE_MAX (default 0); a
 * run prints the harness's CSV header and a row whose stages follow --stages and whose GFLOPS
 * are 10000 + 1000 S + M; --no-check makes the verdict UNCHECKED; "NAME:M:S" words in
 * FAKE_FAIL, FAKE_ERR, FAKE_CRASH and FAKE_HANG fail that run (check FAIL, exit 3, SIGSEGV,
 * sleep); FAKE_LOG, when set, gets each run's arguments; its options (./further's: --part,
 * --unroll, --plan; ./step6's: --unroll), as --describe names them, make the row's variant as the
 * harness writes it ("part=core unroll=no"). */
static void fake_step(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fprintf(f,
            "#!/bin/sh\n"
            "name=$(basename \"$0\")\n"
            "if [ \"$1\" = --describe ]; then\n"
            "  case $name in further) o=part,unroll,plan;; step6) o=unroll;; *) o=;; esac\n"
            "  echo \"name=${name}_fake max_stages=${FAKE_MAX:-0} default_stages=1 kernel_choice=0 options=$o\"; exit 0\n"
            "fi\n"
            "[ -n \"${FAKE_LOG:-}\" ] && echo \"$*\" >> \"$FAKE_LOG\"\n"
            "s=0; v=PASS; prev=; p=; u=; l=\n"
            "for a in \"$@\"; do [ \"$prev\" = --stages ] && s=$a; [ \"$a\" = --no-check ] && v=UNCHECKED; "
            "[ \"$prev\" = --part ] && p=part=$a; [ \"$prev\" = --unroll ] && u=unroll=$a; [ \"$prev\" = --plan ] && l=plan=$a; "
            "prev=$a; done\n"
            "t=$(echo $p $u $l)\n"
            "case \" ${FAKE_ERR:-} \" in *\" $name:$1:$s \"*) echo 'error: cudaMalloc: out of memory' >&2; exit 3;; esac\n"
            "case \" ${FAKE_CRASH:-} \" in *\" $name:$1:$s \"*) kill -SEGV $$;; esac\n"
            "case \" ${FAKE_HANG:-} \" in *\" $name:$1:$s \"*) exec sleep 5;; esac\n"
            "case \" ${FAKE_FAIL:-} \" in *\" $name:$1:$s \"*) v=FAIL;; esac\n"
            "echo '%s'\n"
            "echo \"${name}_fake,$1,$2,$3,1,0,$s,1.0,0.9,$((10000 + 1000 * s + $1)).0,0.5,20000.0,0.5$s,0.03,$v,"
            "Stand-in GPU,132,13.0,13.0,abc1234,2025-11-21T10:00:00Z,$t,1755,612,48,1,no\"\n"
            "[ $v = FAIL ] && { echo 'check FAIL: 12 elements wrong' >&2; exit 1; }\n"
            "exit 0\n",
            CSV_HEADER);
    fclose(f);
    chmod(path, 0755);
}

/* --- make chart, make sweep-chart ---------------------------------------------------- */

/* The charts from the fixture, and the data gnuplot drew them from: a FAIL run is NaN there,
 * never a point or a bar; the PNGs are 1600 px wide. */
Test(chart, renders_the_fixture_from_the_expected_data)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, MAKE "chart CSV=" FIXTURE " OUT=\"$D/out\" CHART_DATA=\"$D/data\"");
    expect_golden(dir, "progression.dat", "\"$D/data/progression.dat\"");
    expect_golden(dir, "sizes.dat", "\"$D/data/sizes.dat\"");
    expect_golden(dir, "peak.dat", "\"$D/data/peak.dat\"");
    cr_expect_eq(entries(dir, "out"), 6, "make chart did not write exactly the six pictures");
    const char *png = "for f in \"$D\"/out/*.png; do head -c 24 \"$f\" | od -An -tx1 | tr -d ' \\n'; echo; done";
    char *log;
    sh(&log, dir, "%s", png);
    /* The PNG signature, IHDR, and the width 1600 (0x640), for each of the three. */
    const char *want = "89504e470d0a1a0a0000000d4948445200000640";
    int pngs = 0;
    for (const char *at = strstr(log, want); at; at = strstr(at + 1, want))
        pngs++;
    cr_expect_eq(pngs, 3, "not three 1600 px PNGs:\n%s", log);
    free(log);
    expect_rc(0, dir, "grep -q 'Test Fixture GPU (made-up numbers), 2025-11-20' \"$D/out/sizes.svg\"");
    expect_rc(0, dir, MAKE "sweep-chart SWEEP_CSV=" SWEEP_FIXTURE " OUT=\"$D/out\" CHART_DATA=\"$D/data\"");
    expect_golden(dir, "sweep.dat", "\"$D/data/sweep.dat\"");
    cr_expect_eq(entries(dir, "out"), 8, "make sweep-chart did not add exactly its two pictures");
    rm_rf(dir);
}

/* Bad input: one clear line, exit 2, and the charts already there are left as they were. */
Test(chart, bad_csvs_are_refused_and_leave_the_charts_alone)
{
    static const struct {
        const char *make_csv, *says;
    } bad[] = {
        {"cut -d, -f1-9,11- " FIXTURE, "missing column(s) gflops"},
        {"sed s/,PASS,/,FAIL,/ " FIXTURE, "no PASS rows"},
        {"printf ''", "empty"},
        {"printf '# only a comment\\n\\n'", "empty"},
        {"grep -v '^#' " FIXTURE " | head -n 1", "no PASS rows (0 rows"},
        {"sed '/^step1_coalesce,512,/s/,PASS,/,PASS,extra,/' " FIXTURE, "line 11: 22 fields, but the header has 21"},
        {"sed '/^step1_coalesce,512,/s/,3412.0,/,nan,/' " FIXTURE, "line 11: gflops is 'nan'"},
        {"sed '/^step1_coalesce,512,/s/Test Fixture GPU/Other GPU/' " FIXTURE, "rows from 2 devices"},
        /* a row of the old ./step6 --track core, before the track was a program of its own */
        {"awk -F, -v OFS=, '/^step,/ { print $0, \"variant\"; next } /^s/ { print $0, \"core\" }' " FIXTURE,
         "line 2: variant 'core' is not NAME=VALUE words: a row of the old ./step6 --track"},
        {NULL, "no such file: `make results`"},
    };
    char dir[256];
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, MAKE "chart CSV=" FIXTURE " OUT=\"$D/out\" && cp -r \"$D/out\" \"$D/before\"");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *log;
        int rc = sh(&log, dir, "rm -f \"$D/bad.csv\"; %s%s " MAKE "chart CSV=\"$D/bad.csv\" OUT=\"$D/out\"",
                    bad[i].make_csv ? bad[i].make_csv : "", bad[i].make_csv ? " > \"$D/bad.csv\";" : "");
        cr_expect_eq(rc, 2, "make chart on bad CSV %zu exited %d:\n%s", i, rc, log);
        cr_expect(strstr(log, "chart: ") && strstr(log, bad[i].says), "bad CSV %zu: no \"%s\" in:\n%s", i, bad[i].says, log);
        free(log);
    }
    expect_rc(0, dir, "diff -r \"$D/before\" \"$D/out\" && [ $(ls -A \"$D/out\" | wc -l) = 6 ]");
    expect_rc(0, dir, "out=$(" MAKE "sweep-chart SWEEP_CSV=" FIXTURE " OUT=\"$D/out\" 2>&1); [ $? = 2 ] && "
              "echo \"$out\" | grep -q \"a sweep is one step's rows\"");
    rm_rf(dir);
}

/* Every series its own colour and marker: step 6 and the going-further track (./further, its
 * rows named going_further) draw in linetypes 7 and 8 (plots/style.gp: brown and an open square, purple and an open
 * circle), and the track run with an option (a part of it) in 9 (grey, an open triangle), in the
 * bars' data and in the pictures. The fixture's rows with a variant column, step 6 and the track
 * made of two of its steps' rows. */
Test(chart, step_6_the_track_and_its_parts_draw_apart)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, "awk -F, -v OFS=, '/^#/ { next } /^step,/ { print $0, \"variant\"; next } "
                      "{ print $0, \"\" } $1 == \"step0_naive\" { $1 = \"step6_unroll\"; print $0, \"\" } "
                      "$1 == \"step1_coalesce\" { $1 = \"going_further\"; print $0, \"\" }' " FIXTURE " > \"$D/step6.csv\"");
    expect_rc(0, dir, MAKE "chart CSV=\"$D/step6.csv\" OUT=\"$D/out\" CHART_DATA=\"$D/data\"");
    expect_golden(dir, "step6_progression.dat", "\"$D/data/progression.dat\"");
    expect_rc(0, dir, "grep -qx 'step6_unroll' \"$D/data/sizes.dat\" && grep -qx 'going_further' \"$D/data/sizes.dat\"");
    /* Brown (#7A5C2E) and purple (#6A3D9A) lines, an open square and an open circle (gnuplot's svg names
     * point type N gpPt(N-1)), in the sizes chart. */
    expect_rc(0, dir, "grep -q \"stroke='rgb(122,  92,  46)'\" \"$D/out/sizes.svg\" && "
                      "grep -q \"stroke='rgb(106,  61, 154)'\" \"$D/out/sizes.svg\" && "
                      "grep -q \"xlink:href='#gpPt3'\" \"$D/out/sizes.svg\" && grep -q \"xlink:href='#gpPt5'\" \"$D/out/sizes.svg\"");
    /* A part of the track (--part wide-tiles) is a row of its own, in grey (#999999), never the whole track's purple. */
    expect_rc(0, dir, "sed 's/^going_further,\\(.*\\),$/going_further,\\1,part=wide-tiles/' \"$D/step6.csv\" > \"$D/part.csv\" && "
                      MAKE "chart CSV=\"$D/part.csv\" OUT=\"$D/part\" CHART_DATA=\"$D/part\" && "
                      "grep -qx 'going_further (part=wide-tiles)' \"$D/part/sizes.dat\" && "
                      "grep -q '\t9\tPASS$' \"$D/part/progression.dat\" && ! grep -q '\t8\tPASS$' \"$D/part/progression.dat\" && "
                      "grep -q \"stroke='rgb(153, 153, 153)'\" \"$D/part/sizes.svg\"");
    rm_rf(dir);
}

/* Rows formatted by the harness itself (format_csv_row) chart as they are. */
Test(chart, rows_the_harness_formats_chart)
{
    char dir[256], csv[300], row[1024];
    tmpdir(dir, sizeof dir);
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
    expect_rc(0, dir, MAKE "chart CSV=\"$D/harness.csv\" OUT=\"$D\" && grep -q 'Harness-Formatted GPU' \"$D/sizes.svg\"");
    rm_rf(dir);
}

/* The share of the FMA peak comes only from a peak.csv of the same run (same device and
 * commit, measured at most an hour before the first row): else the table and charts go
 * without it and say why in one line. */
Test(chart, the_fma_peak_share_needs_the_peak_of_the_same_run)
{
    static const struct {
        const char *peak, *says;
    } runs[] = {
        {NULL, "peak.csv is not there"},
        {"sed s/fixture000/fixture001/ tests/data/peak.csv", "peak.csv is from another run"},
        {"sed s/2025-11-20T09:59:50Z/2025-11-20T08:00:00Z/ tests/data/peak.csv", "peak.csv is from another run"},
        {"sed 's/,64000.0,/,0,/' tests/data/peak.csv", "not one row of ./fma_peak --csv with a positive fma_gflops"},
        {"cat tests/data/peak.csv", NULL},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char dir[256], *log;
        tmpdir(dir, sizeof dir);
        expect_rc(0, dir, "cp " FIXTURE " \"$D/results.csv\" && printf '# c\\n<!-- results-table:begin -->\\n"
                  "<!-- results-table:end -->\\n' > \"$D/README.md\"%s%s%s", runs[i].peak ? " && " : "",
                  runs[i].peak ? runs[i].peak : "", runs[i].peak ? " > \"$D/peak.csv\"" : "");
        int rc = sh(&log, dir, MAKE "chart CSV=\"$D/results.csv\" OUT=\"$D/out\" && " MAKE
                    "table CSV=\"$D/results.csv\" README=\"$D/README.md\" STEP_READMES= && cat \"$D/README.md\"");
        cr_expect_eq(rc, 0, "peak %zu: exit %d:\n%s", i, rc, log);
        if (runs[i].says) {
            cr_expect(strstr(log, "no peak chart") && strstr(log, "the results table has no share of the FMA peak") &&
                          strstr(log, runs[i].says) && !strstr(log, "hardware's limit"),
                      "peak %zu: no \"%s\", or a share of the peak all the same:\n%s", i, runs[i].says, log);
            cr_expect_eq(entries(dir, "out"), 4, "peak %zu: not just the four other pictures", i);
        } else {
            cr_expect(strstr(log, "| step0_naive | 0.61% · 0.13× |") && strstr(log, "| cuBLAS (median) | 4.5% · 1× |") &&
                          strstr(log, "64000 GFLOPS as `./fma_peak` measured it in the same run") && !strstr(log, "note"),
                      "peak %zu: no share of the peak:\n%s", i, log);
            cr_expect_eq(entries(dir, "out"), 6, "peak %zu: no peak chart", i);
        }
        free(log);
        rm_rf(dir);
    }
}

/* --- make table ------------------------------------------------------------------------ */

/* The course's README, the step READMEs and the track's lesson with their markers, in a temporary tree
 * (make table fills the track's through its tools.py). */
static void readmes(const char *dir)
{
    cr_assert_eq(sh(NULL, dir,
                    "mkdir -p \"$D/step1_tiling\" \"$D/step2_shared\" \"$D/step5_pipeline\" \"$D/step6_unroll\" \"$D/going_further\" && "
                    "printf '# The course\\n\\n<!-- results-table:begin -->\\nold table 99999\\n<!-- results-table:end -->\\n\\nText after.\\n' > \"$D/README.md\" && "
                    "printf '# step 1, no markers\\n' > \"$D/step1_tiling/README.md\" && "
                    "printf '# step 2\\n<!-- step-results:begin -->\\nold numbers 99999\\n  <!-- step-results:end -->\\nText after.\\n' > \"$D/step2_shared/README.md\" && "
                    "printf '# step 5\\n<!-- step-results:begin -->\\n<!-- step-results:end -->\\n\\n<!-- sweep-results:begin -->\\n<!-- sweep-results:end -->\\n' > \"$D/step5_pipeline/README.md\" && "
                    "printf '# step 6\\n<!-- ablation-results:begin -->\\n<!-- ablation-results:end -->\\nProse.\\n' > \"$D/step6_unroll/README.md\" && "
                    "printf '# the track\\n<!-- track-results:begin -->\\n<!-- track-results:end -->\\nProse.\\n"
                    "<!-- ratios core,warp-tiles 1024,4096:begin -->\\n<!-- ratios core,warp-tiles 1024,4096:end -->\\n' > \"$D/going_further/README.md\""),
                 0);
}

#define TABLE MAKE "table CSV=" FIXTURE " README=\"$D/README.md\" STEP_READMES=\"$(echo \"$D\"/step*/README.md)\" " \
                   "TRACK_README=\"$D/going_further/README.md\" SWEEP_CSV=" SWEEP_FIXTURE " ABLATION_CSV=" ABLATION_FIXTURE \
                   " TRACK_CSV=" TRACK_FIXTURE

Test(table, fills_each_readme_between_its_markers)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    readmes(dir);
    expect_rc(0, dir, TABLE " | " MASK " > \"$D/table.log\"");
    expect_golden(dir, "table.log", "\"$D/table.log\"");
    expect_golden(dir, "course_README.md", "\"$D/README.md\"");
    expect_golden(dir, "step2_README.md", "\"$D/step2_shared/README.md\"");
    expect_golden(dir, "step5_README.md", "\"$D/step5_pipeline/README.md\"");
    expect_golden(dir, "step6_README.md", "\"$D/step6_unroll/README.md\"");
    expect_golden(dir, "going_further_README.md", "\"$D/going_further/README.md\"");
    /* Again: nothing changes. */
    expect_rc(0, dir, "cp -r \"$D\" \"$D.1\" && " TABLE " >/dev/null && diff -r \"$D.1\" \"$D\"; rc=$?; rm -rf \"$D.1\"; exit $rc");
    rm_rf(dir);
}

Test(table, broken_or_missing_markers_fail_and_change_nothing)
{
    char dir[256], *log;
    tmpdir(dir, sizeof dir);
    readmes(dir);
    expect_rc(0, dir, "printf '# step 6\\n<!-- ablation-results:end -->\\n<!-- ablation-results:begin -->\\n' > \"$D/step6_unroll/README.md\"");
    int rc = sh(&log, dir, TABLE " && cat \"$D/step6_unroll/README.md\"");
    cr_expect(rc == 2 && strstr(log, "<!-- ablation-results:end --> (line 2) before <!-- ablation-results:begin --> (line 3)"),
              "broken markers were not refused:\n%s", log);
    free(log);
    expect_rc(0, dir, "printf '# The course\\nNo markers.\\n' > \"$D/README.md\" && cp \"$D/README.md\" \"$D/orig\"");
    rc = sh(&log, dir, TABLE);
    cr_expect(rc == 2 && strstr(log, "has no results-table markers: put the lines <!-- results-table:begin -->"),
              "a README without markers was not refused:\n%s", log);
    free(log);
    expect_rc(0, dir, "cmp \"$D/README.md\" \"$D/orig\"");
    rc = sh(&log, dir, MAKE "table CSV=" FIXTURE " README=\"$D/absent.md\"");
    cr_expect(rc == 2 && strstr(log, "absent.md does not exist"), "a missing README was not named:\n%s", log);
    free(log);
    /* A table for another README leaves the course's step READMEs alone. */
    rc = sh(&log, dir, MAKE "-n table README=\"$D/README.md\"");
    cr_expect(rc == 0 && !strstr(log, "step0_naive/README.md"), "make table README=... would write the step READMEs:\n%s", log);
    free(log);
    rm_rf(dir);
}

/* --- make results, make plots: the runs, each failure recorded, the CSV written whole ---- */

Test(run, every_run_and_every_failure_is_recorded)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    const char *names[] = {"step0", "step1", "step2", "step3", "step4"};
    for (int i = 0; i < 5; i++)
        fake_step(dir, names[i]);
    expect_rc(0, dir, "FAKE_FAIL=step1:512:0 FAKE_ERR=step2:256:0 FAKE_CRASH=step3:512:0 FAKE_HANG=step4:256:0 "
              MAKE_RESULTS "results STEPS= TRACK_SRC= BUILT_STEPS= PLOT_STEPS=\"$(echo \"$D\"/step?)\" SIZES='256 512' REPS=3 RUN_TIMEOUT=1 "
              "RESULTS=\"$D/results.csv\" | " MASK " > \"$D/run.log\"");
    expect_golden(dir, "run.log", "\"$D/run.log\"");
    expect_rc(0, dir, MASK " \"$D/results.csv\" > \"$D/masked.csv\"");
    expect_golden(dir, "run.csv", "\"$D/masked.csv\"");
    rm_rf(dir);
}

/* make shapes: every shape of every family, for each step, in one CSV whose rows say the
 * family and the shape's name; the chart of its squares, the chart of the other named
 * families, a row a shape under its family's heading, and the chart of the random shapes
 * against their FLOPs. 238 shapes (shape_list, scripts/course/runs.py: 64 squares, 16 skinny,
 * 6 deep K, 11 layers, 10 small K, 10 matrix-vector, 6 tall and thin, 4 tiny C, 11 primes,
 * 100 random) for two stand-in steps; step 5's runs at M = 557 (one random shape, 557 x 2109 x 2)
 * fail. */
Test(shapes, every_family_is_run_named_and_the_squares_drawn)
{
    static const struct {
        const char *family;
        int rows;
        const char *row;   /* the start of one row of the family */
    } families[] = {
        {"square,,", 128, "square,,step6_fake,8192,8192,8192,"},
        {"skinny,", 32, "skinny,N small,step5_fake,8192,16,8192,"},
        {"deep K,,", 12, "deep K,,step6_fake,256,256,65536,"},
        {"layer,", 22, "layer,Llama-2-7B 2048 tokens: mlp down,step6_fake,2048,4096,11008,"},
        {"small K,,", 20, "small K,,step5_fake,16384,16384,8,"},
        {"matrix-vector,", 20, "matrix-vector,M = 1,step6_fake,1,8192,8192,"},
        {"tall and thin,,", 12, "tall and thin,,step5_fake,262144,128,64,"},
        {"tiny C,deep K,", 8, "tiny C,deep K,step6_fake,64,64,262144,"},
        {"primes,,", 22, "primes,,step5_fake,4099,701,1499,"},
        {"random,seed 1,", 200, "random,seed 1,step6_fake,557,2109,2,"},
    };
    char dir[256];
    tmpdir(dir, sizeof dir);
    fake_step(dir, "step5");
    fake_step(dir, "step6");
    expect_rc(0, dir, "FAKE_FAIL=step5:557:0 python3 scripts/course shapes \"$D/shapes.csv\" \"$D/step5\" \"$D/step6\" "
              "--reps 1 > \"$D/run.log\"");
    expect_rc(0, dir, "[ $(wc -l < \"$D/shapes.csv\") = 477 ] && head -1 \"$D/shapes.csv\" | grep -q '^family,shape,step,m,n,k,'");
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        expect_rc(0, dir, "[ $(grep -c '^%s' \"$D/shapes.csv\") = %d ] && grep -q '^%s' \"$D/shapes.csv\"", families[i].family,
                  families[i].rows, families[i].row);
    expect_rc(0, dir, "grep -q '^random,seed 1,step5_fake,557,2109,2,.*,FAIL,' \"$D/shapes.csv\"");
    /* The summary follows the CSV: a row a step and family, FAILs not counted but counted apart. */
    expect_rc(0, dir, "grep -qx '| step5_fake | random (seed 1) | 99 | 0.50× | 0.50× | 4 x 3728 x 1655 | 1 |' \"$D/run.log\" && "
                      "grep -qx '| step6_fake | every shape | 238 | 0.50× | 0.50× | 128 x 128 x 128 | 0 |' \"$D/run.log\" && "
                      "grep -q '^1 of the 476 rows did not pass and are not counted: step5_fake 557 x 2109 x 2 (FAIL)' \"$D/run.log\"");
    /* The random shapes are the seed's: the same seed draws the same ones, another seed others. */
    expect_rc(0, dir, "python3 scripts/course shapes \"$D/seed1.csv\" \"$D/step5\" --only random --reps 1 --seed 1 > /dev/null && "
                      "python3 scripts/course shapes \"$D/seed2.csv\" \"$D/step5\" --only random --reps 1 --seed 2 > /dev/null && "
                      "grep '^random,seed 1,step6' \"$D/shapes.csv\" | cut -d, -f4-6 > \"$D/all1\" && "
                      "grep '^random,seed 1,step5' \"$D/seed1.csv\" | cut -d, -f4-6 > \"$D/only1\" && "
                      "grep '^random,seed 2,step5' \"$D/seed2.csv\" | cut -d, -f4-6 > \"$D/only2\" && "
                      "[ $(wc -l < \"$D/only2\") = 100 ] && cmp -s \"$D/all1\" \"$D/only1\" && ! cmp -s \"$D/only1\" \"$D/only2\"");
    /* The charts: one series a step over the 64 squares; one a step over the 74 other named shapes, their
     * rows under 12 headings (skinny M small and N small, deep K, each model's layers, small K,
     * matrix-vector M = 1 and N = 1, tall and thin, tiny C, primes); one a step over the random shapes,
     * step 5's FAIL not drawn and said in its key. */
    expect_rc(0, dir, MAKE "shapes-chart SHAPES_CSV=\"$D/shapes.csv\" OUT=\"$D\" CHART_DATA=\"$D/data\" > /dev/null && "
                      "[ -s \"$D/shapes.png\" ] && grep -q '<svg' \"$D/shapes.svg\" && "
                      "[ -s \"$D/shapes_nonsquare.png\" ] && grep -q '<svg' \"$D/shapes_nonsquare.svg\" && "
                      "[ -s \"$D/shapes_random.png\" ] && grep -q '<svg' \"$D/shapes_random.svg\" && "
                      "[ $(grep -c '^[0-9]' \"$D/data/shapes.dat\") = 128 ] && head -1 \"$D/data/shapes.dat\" | grep -q '^step5_fake'");
    expect_golden(dir, "shapes_nonsquare.dat", "\"$D/data/shapes_nonsquare.dat\"");
    expect_golden(dir, "shapes_random.dat", "\"$D/data/shapes_random.dat\"");
    expect_rc(0, dir, "[ $(grep -c '^[0-9]' \"$D/data/shapes_nonsquare.dat\") = 148 ] && "
                      "[ $(grep -c '^[0-9]' \"$D/data/shapes_random.dat\") = 200 ] && "
                      "grep -q '100 random shapes M x N x K (seed 1)' \"$D/shapes_random.svg\" && "
                      "grep -q '>step5_fake: geometric mean 0.50×, minimum 0.50× at 4 x 3728 x 1655 (1 of 100 not PASS, not drawn)<' "
                      "\"$D/shapes_random.svg\"");
    expect_rc(0, dir, "for h in 'skinny: M small' 'skinny: N small' 'deep K' 'layer: BERT-base 512 tokens' "
                      "'layer: Llama-2-7B 16 tokens (decode)' 'small K' 'matrix-vector: M = 1' 'matrix-vector: N = 1' "
                      "'tall and thin' 'tiny C: deep K' 'primes'; do grep -q \">$h<\" \"$D/shapes_nonsquare.svg\" || exit 1; done");
    /* The headings are bold in the SVG too (gnuplot names the font "Sans:Bold", which no browser knows). */
    expect_rc(0, dir, "grep -q 'font-weight=\"bold\"' \"$D/shapes_nonsquare.svg\" && ! grep -q 'Sans:Bold' \"$D/shapes_nonsquare.svg\"");
    /* A CSV of some families only (make shapes SHAPES_ONLY=..., or one from before the random shapes):
     * the charts its rows make, and a note for each other. */
    char *log;
    int rc = sh(&log, dir, "grep -v '^square,' \"$D/shapes.csv\" > \"$D/others.csv\" && "
                "python3 scripts/course chart \"$D/others.csv\" \"$D/others\" shapes shapes_nonsquare shapes_random && ls \"$D/others\"");
    cr_expect(rc == 0 && strstr(log, "chart: note: no square (M = N = K) shape in") && strstr(log, "shapes_nonsquare.svg") &&
                  strstr(log, "shapes_random.svg") && !strstr(log, "shapes.png"), "a CSV with no square drew, or did not say:\n%s", log);
    free(log);
    rc = sh(&log, dir, "grep -v '^random,' \"$D/shapes.csv\" > \"$D/old.csv\" && "
            MAKE "shapes-chart SHAPES_CSV=\"$D/old.csv\" OUT=\"$D/old\" && ls \"$D/old\"");
    cr_expect(rc == 0 && strstr(log, "chart: note: no passing random shape in") && strstr(log, "shapes_nonsquare.svg") &&
                  strstr(log, "shapes.svg") && !strstr(log, "shapes_random.png"), "a CSV with no random shape drew, or did not say:\n%s", log);
    free(log);
    expect_rc(2, dir, "python3 scripts/course chart \"$D/others.csv\" \"$D/others\" shapes 2> /dev/null");
    expect_rc(2, dir, "python3 scripts/course chart \"$D/old.csv\" \"$D/old\" shapes_random 2> /dev/null");
    expect_rc(0, dir, "out=$(python3 scripts/course shapes \"$D/x.csv\" \"$D/step5\" --only cubes 2>&1); [ $? = 2 ] && "
                      "echo \"$out\" | grep -q \"no such family (square, skinny, deep K, layer, small K, matrix-vector, "
                      "tall and thin, tiny C, primes, random)\"");
    rm_rf(dir);
}

/* make shapes-summary: each step's count, geometric mean and minimum over each family and over
 * every shape, on a fixture whose ratios give round answers (tests/data/shapes_sample.csv): a
 * FAIL row is not counted but named, and a family a step did not run has no row. Step 6's
 * estimates against its times: their median, 10% and 90%, extremes, and a few rows' median. */
Test(shapes, the_summary_gives_each_familys_geometric_mean_and_minimum)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, MAKE "shapes-summary SHAPES_CSV=" SHAPES_FIXTURE " > \"$D/summary.md\"");
    expect_golden(dir, "shapes_summary.md", "\"$D/summary.md\"");
    expect_rc(0, dir, "grep -qx '| step5_pipeline | skinny | 2 | 0.60× | 0.40× | 4096 x 16 x 4096 | 1 |' \"$D/summary.md\" && "
                      "grep -qx '| going_further | random (seed 7) | 2 | 2.00× | 0.50× | 3 x 5 x 7 | 0 |' \"$D/summary.md\" && "
                      "grep -q 'over the 5 PASS rows that give one: median 1.00, 10%% to 90%% 0.50 to 2.00, least 0.50 "
                      "(4096 x 16 x 4096), most 2.00 (1000 x 1 x 20); a few rows of C: median 0.50 (1 row).' \"$D/summary.md\"");
    expect_rc(0, dir, "out=$(" MAKE "shapes-summary SHAPES_CSV=/no/such/shapes.csv 2>&1); [ $? = 2 ] && "
                      "echo \"$out\" | grep -q 'shapes-summary: /no/such/shapes.csv: no such file: `make shapes`'");
    rm_rf(dir);
}

/* Where gnuplot is not (the GPU machine), make shapes writes its CSV and says how to draw its
 * charts elsewhere: make shapes-chart, never make table, which would write the shapes into the
 * squares' results table. */
Test(shapes, without_gnuplot_the_charts_are_left_to_make_shapes_chart)
{
    char dir[256], *log;
    tmpdir(dir, sizeof dir);
    int rc = sh(&log, dir, "python3 scripts/course chart --gnuplot /no/such/gnuplot " SHAPES_FIXTURE
                           " \"$D/none\" shapes shapes_nonsquare shapes_random --optional shapes");
    cr_expect(rc == 0 && strstr(log, "make shapes-chart SHAPES_CSV=" SHAPES_FIXTURE) && !strstr(log, "make table"),
              "make shapes without gnuplot did not point to make shapes-chart:\n%s", log);
    free(log);
    cr_expect_eq(entries(dir, "none"), 0, "charts were drawn without gnuplot");
    rm_rf(dir);
}

/* make estimate-chart: a point for each PASS row whose kernel line gives the plan's estimate (the
 * fixture's five), a block a family in make shapes' order, titled with its count and its median of
 * estimated over measured time, drawn as a 1600 px PNG and an SVG. A CSV without the track's
 * estimates is refused alone, and noted by make shapes-chart, which draws its other charts. */
Test(chart, the_estimate_chart_draws_each_shape_at_its_estimate_and_time)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, MAKE "estimate-chart SHAPES_CSV=" SHAPES_FIXTURE " OUT=\"$D/out\" CHART_DATA=\"$D/data\"");
    expect_golden(dir, "estimate.dat", "\"$D/data/estimate.dat\"");
    cr_expect_eq(entries(dir, "out"), 2, "make estimate-chart did not write exactly its two pictures");
    expect_rc(0, dir, "head -c 24 \"$D/out/estimate.png\" | od -An -tx1 | tr -d ' \\n' | "
                      "grep -q '^89504e470d0a1a0a0000000d4948445200000640'");
    /* The SVG: its title and caption, a key entry a family, and the squares' two points (gnuplot's svg
     * draws point type 7 as #gpPt6), one more in the key. */
    expect_rc(0, dir, "s=\"$D/out/estimate.svg\"; grep -q 'against the measured time at 5 shapes' \"$s\" && "
                      "grep -q 'Test Fixture GPU (made-up numbers), 2025-11-20' \"$s\" && "
                      "grep -q '>square (2): 1.00<' \"$s\" && grep -q '>skinny (1): 0.50<' \"$s\" && "
                      "grep -q '>random (2): 1.25<' \"$s\" && "
                      "grep -q 'all 5 shapes: median 1.00, 10%% to 90%% 0.50 to 2.00<' \"$s\" && "
                      "[ $(grep -c \"href='#gpPt6' transform\" \"$s\") = 3 ]");
    expect_rc(0, dir, "out=$(" MAKE "estimate-chart SHAPES_CSV=" FIXTURE " OUT=\"$D/none\" 2>&1); [ $? = 2 ] && "
                      "echo \"$out\" | grep -q 'no PASS row gives the plan.s estimate' && [ ! -e \"$D/none\" ]");
    expect_rc(0, dir, "sed 's/; est\\. [0-9.]* us//' " SHAPES_FIXTURE " > \"$D/no_est.csv\" && "
                      "out=$(" MAKE "shapes-chart SHAPES_CSV=\"$D/no_est.csv\" OUT=\"$D/shapes\") && "
                      "echo \"$out\" | grep -q 'no estimate chart' && [ -s \"$D/shapes/shapes.svg\" ] && "
                      "[ ! -e \"$D/shapes/estimate.svg\" ]");
    rm_rf(dir);
}

/* make plan-check: at each shape, the plan's choice and then the runner-up its kernel line names
 * (--plan); the CSV and how often the choice was the faster. The stand-in ./further: the choice
 * takes 10 us (estimated 9), the runner-up 64x64 20 us (estimated 25), except at M = 1009
 * (two of the primes), where it takes 5 us; M = 701 has no runner-up; cuBLAS takes 10 us.
 * Where the GPU's pace moves between the two runs, cuBLAS's time moves with them: the first
 * choice at 1009^3 runs 10 times slow, cuBLAS too (timed again, it holds), and cuBLAS by the
 * runner-up at 3499 x 2503 x 1009 always takes 30 us (left out of the count). */
Test(plan_check, the_choice_and_its_runner_up_are_run_and_counted)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, "cat > \"$D/further\" <<'EOF'\n"
                      "#!/bin/sh\n"
                      "plan=; prev=; for a in \"$@\"; do [ \"$prev\" = --plan ] && plan=$a; prev=$a; done\n"
                      "echo step,m,n,k,median_ms,cublas_median_ms,ratio,verdict,device,commit,date_utc,kernel\n"
                      "t=0.010000; c=0.010000; next=' next: 64x64  est. 25.0 us'; [ $1 = 701 ] && next=\n"
                      "if [ -n \"$plan\" ]; then t=0.020000; [ $1 = 1009 ] && t=0.005000\n"
                      "  [ $1$2 = 34992503 ] && c=0.030000\n"
                      "elif [ $1$2 = 10091009 ] && [ ! -e \"$0.slow\" ]; then\n"
                      "  t=0.100000; c=0.100000; touch \"$0.slow\"\n"
                      "fi\n"
                      "echo \"going_further,$1,$2,$3,$t,$c,1.0,PASS,Stand-in GPU,abc,2026-01-01T00:00:00Z,128x128 tiles;"
                      " est. 9.0 us $next\"\n"
                      "EOF\n"
                      "chmod +x \"$D/further\"");
    expect_rc(0, dir, "python3 going_further/tools.py plan-check \"$D/further\" \"$D/check.csv\" --only primes --reps 1 > \"$D/log\"");
    expect_rc(0, dir, "[ $(wc -l < \"$D/check.csv\") = 12 ] && cd \"$D\" && "
                      "grep -qx 'primes,,701,701,701,1.0,10.000,9.0,,,,Stand-in GPU,abc,"
                      "2026-01-01T00:00:00Z,10.000,' check.csv && "
                      "grep -qx 'primes,,1009,1009,1009,1.0,10.000,9.0,64x64,5.000,25.0,Stand-in GPU,abc,"
                      "2026-01-01T00:00:00Z,10.000,10.000' check.csv && "
                      "grep -qx 'primes,,3499,2503,1009,1.0,10.000,9.0,64x64,20.000,25.0,Stand-in GPU,abc,"
                      "2026-01-01T00:00:00Z,10.000,30.000' check.csv");
    expect_rc(0, dir, "grep -qx 'The choice ran faster than its runner-up at 7 of 9 shapes (within 1%% at 7); 1 of 11 had "
                      "no runner-up.' \"$D/log\" && grep -q 'the runner-up: median 1.25, ' \"$D/log\" && "
                      "grep -q 'the choice: 1009 x 1009 x 1009 64x64 2.00x as fast; 1009 x 2003 x 3001' \"$D/log\" && "
                      "[ $(grep -c \"cuBLAS's time moved 10.00x between the two runs: both again\" \"$D/log\") = 1 ] && "
                      "[ $(grep -c \"cuBLAS's time moved 3.00x between the two runs: both again\" \"$D/log\") = 2 ] && "
                      "grep -q '^Left out: 1 of 10 pairs, cuBLAS.s time having moved by more than 1.25x' \"$D/log\"");
    expect_rc(0, dir, "python3 going_further/tools.py plan-check-summary \"$D/check.csv\" | grep -q 'at 7 of 9 shapes'");
    /* a CSV written before cuBLAS's times were kept: every pair counts */
    expect_rc(0, dir, "cut -d, -f1-14 \"$D/check.csv\" > \"$D/old.csv\" && "
                      "python3 going_further/tools.py plan-check-summary \"$D/old.csv\" | grep -q 'at 8 of 10 shapes'");
    expect_rc(2, dir, "python3 going_further/tools.py plan-check \"$D/further\" \"$D/old.csv\" --only primes --reps 1 --resume "
                      "2> \"$D/err\" > /dev/null; rc=$?; grep -q 'keeps no cuBLAS times' \"$D/err\" && exit $rc");
    expect_rc(2, dir, "python3 going_further/tools.py plan-check-summary " SHAPES_FIXTURE);
    /* a run cut short after 4 shapes (the CSV is written after each); --resume runs only the other 7 */
    expect_rc(0, dir, "head -5 \"$D/check.csv\" > \"$D/cut.csv\" && "
                      "python3 going_further/tools.py plan-check \"$D/further\" \"$D/cut.csv\" --only primes --reps 1 --resume "
                      "> \"$D/log\" && cmp \"$D/check.csv\" \"$D/cut.csv\" && "
                      "[ $(grep -c 'kept from' \"$D/log\") = 4 ] && grep -q 'at 7 of 9 shapes' \"$D/log\"");
    /* rows of another commit are not mixed in */
    expect_rc(0, dir, "head -5 \"$D/check.csv\" | sed 's/,abc,/,def,/' > \"$D/other.csv\"");
    expect_rc(2, dir, "python3 going_further/tools.py plan-check \"$D/further\" \"$D/other.csv\" --only primes --reps 1 --resume "
                      "2> \"$D/err\" > /dev/null; rc=$?; grep -q 'at commit def' \"$D/err\" && exit $rc");
    rm_rf(dir);
}

/* New costs from make plan-costs recompile the plan's C and relink ./further, not its
 * kernels: the object of its kernel file (the .cu in going_further/) depends on the track's
 * headers but plan_costs.h (Makefile), which holds while only plan.c includes it. The rule is read
 * for ARCH=sm_80, the oldest that builds the track, so that a suite built for an older ARCH (which
 * leaves it out) checks it too. */
Test(plan_costs, new_costs_recompile_the_plan_not_the_kernels)
{
    expect_rc(0, NULL, "deps=$(" MAKE "-pq ARCH=sm_80 2>/dev/null | grep '^build/[a-z_]*\\.o: going_further/[a-z_]*\\.cu ') && "
                       "echo \"$deps\" | grep -q 'going_further/plan.h' && ! echo \"$deps\" | grep -q plan_costs.h");
    expect_rc(0, NULL, "test \"$(grep -rl 'include \"plan_costs.h\"' going_further step6_unroll common)\" = going_further/plan.c");
}

/* make plan-costs: each cost from two runs of a candidate (--plan) that differ only in K. The
 * stand-in step takes 4 us and 0.5 us a k-tile of a block, times the blocks an SM runs beyond
 * one (tiles x parts over 132 SMs), and says 2 blocks an SM: so a k-tile of a block alone
 * costs 0.5 us and one of each of 2 blocks on an SM 1.0 us, 10% more with B in 4-byte pieces
 * (N % 4 != 0; the launch's 1 x 1 x 1 too: 4.55 us; K = 1's, 3.5 us); K in parts adds 1.5 us.
 * A few rows: 4.5 us, 0.4 + 0.05 M us a round of loads (8 rows of B a thread of 512 at M = 1, 2
 * of 256 above, as its --describe says: K sized for 256, M = 1 would read 0.15 us), timed at each M its
 * --describe names (1 to 16, where a real block's rows of A show beyond about 8), 0.5 us for a
 * second block on an SM (read as 0.45 against that launch), 0.9 us to hand parts over; a block
 * of 128 cells, M x columns / 4, as step 6's (64 columns at M = 8, where 32 are tried first). A few
 * columns: 16 rows a block, K in chunks of 256, 3 us and 0.6 us a chunk times the blocks an SM
 * runs. The first run of each is 5 us late, as in a disturbed round: each time is the median
 * of 3 rounds, so the costs are as without it, and the header tells how far the launches read
 * from each round alone moved (4.55 to 9.55 us). The header it writes compiles against plan.h. */
Test(plan_costs, each_cost_from_two_runs_into_a_header_that_compiles)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, "cat > \"$D/further\" <<'EOF'\n"
                      "#!/usr/bin/env python3\n"
                      "import sys\n"
                      "a = sys.argv[1:]\n"
                      "if a == ['--describe']:\n"
                      "    print('name=going_further track_tiles=large:128x128x8:32x64:8x8:256:2,'\n"
                      "          'tall:128x64x8:64x32:8x8:128:4,short:32x128x8:32x64:8x8:64:8 '\n"
                      "          'few_in_flight=8,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2 '\n"
                      "          'few_threads=512,256,256,256,256,256,256,256,256,256,256,256,256,256,256,256'); sys.exit()\n"
                      "m, n, k = map(int, a[:3]); plan = a[a.index('--plan') + 1]\n"
                      "import os; seen = os.path.join(os.path.dirname(sys.argv[0]), 'seen')\n"
                      "key = ' '.join(a[:3] + [plan])   # its first run: 5 us late\n"
                      "late = 5 * (not os.path.exists(seen) or key not in open(seen).read().splitlines())\n"
                      "open(seen, 'a').write(key + '\\n')\n"
                      "if plan.startswith('few-rows'):\n"
                      "    parts = int(plan.split('parts')[1]) if 'parts' in plan else 1\n"
                      "    cols = 4 if n == 4 else 4 * min(32, 128 // m)\n"
                      "    threads = 512 if m == 1 else 256; blocks = -(-n // cols) * parts\n"
                      "    rows = -(-(-(-k // parts) * cols // 4 // threads)); rounds = -(-rows // (8 if m == 1 else 2))\n"
                      "    r = 0.4 + 0.05 * m; us = 4.5 + r * rounds + 0.5 * (-(-blocks // 132) - 1) + (0.9 + r) * (parts > 1)\n"
                      "    print('step,m,n,k,median_ms,verdict,sm_count,device,commit,kernel')\n"
                      "    print(f'going_further,{m},{n},{k},{(us + late) / 1000:.6f},PASS,132,Stand-in GPU,abc,a block of {threads} threads {cols} '\n"
                      "          'columns of C  at least 2 blocks an SM'); sys.exit()\n"
                      "if plan == 'flat':\n"
                      "    print('step,m,n,k,median_ms,verdict,sm_count,device,commit,kernel')\n"
                      "    print(f'going_further,{m},{n},{k},{(3.5 + late) / 1000:.6f},PASS,132,Stand-in GPU,abc,'\n"
                      "          'a float4 of C a thread'); sys.exit()\n"
                      "if plan == 'few-cols':\n"
                      "    us = 3 + 0.6 * -(-k // 256) * max(1, -(-m // 16) / 132)\n"
                      "    print('step,m,n,k,median_ms,verdict,sm_count,device,commit,kernel')\n"
                      "    print(f'going_further,{m},{n},{k},{(us + late) / 1000:.6f},PASS,132,Stand-in GPU,abc,a block of 256 threads 16 rows '\n"
                      "          'of A (C of a few columns)  K in chunks of 256  at least 2 blocks an SM'); sys.exit()\n"
                      "bm, bn = map(int, plan.split('/')[0].split('x')); parts = int(plan.split('parts')[1]) if 'parts' in plan else 1\n"
                      "blocks = -(-m // bm) * -(-n // bn) * parts; kt = -(-k // 8) // parts\n"
                      "us = 4 + 0.5 * kt * max(1, blocks / 132) * (1.1 if n % 4 else 1) + 1.5 * (parts > 1)\n"
                      "print('step,m,n,k,median_ms,verdict,sm_count,device,commit,kernel')\n"
                      "print(f'going_further,{m},{n},{k},{(us + late) / 1000:.6f},PASS,132,Stand-in GPU,abc,{bm}x{bn} tiles  at least 2 blocks an SM')\n"
                      "EOF\n"
                      "chmod +x \"$D/further\"");
    expect_rc(0, dir, "python3 going_further/tools.py plan-costs \"$D/further\" \"$D/plan_costs.h\" --reps 1 > \"$D/log\"");
    expect_rc(0, dir, "grep -q 'measured on Stand-in GPU (132 SMs), commit abc' \"$D/plan_costs.h\" && "
                      "grep -q '^    4.55, 3.50, 1.50, ' \"$D/plan_costs.h\" && "
                      "tr '\\n' ' ' < \"$D/plan_costs.h\" | sed 's/  \\* / /g' | "
                      "grep -q 'alone: launch 4.55 to 9.55, without tiles 3.50 to 8.50, parts. sum 1.50, cluster' && "
                      "grep -q '{{0.5000, 1.0000}, 0.000, 1.100},   /\\* 128x128 \\*/' \"$D/plan_costs.h\" && "
                      "grep -q '^    0.450, 0.4000, 0.0500, 0.900,$' \"$D/plan_costs.h\" && "
                      "grep -q '^  16 x 4 x 8192 --plan few-rows: ' \"$D/log\" && ! grep -q '^  17 x 4 x ' \"$D/log\" && "
                      "grep -q '^    {0.6000, 1.2000},$' \"$D/plan_costs.h\" && "
                      "printf '#include \"plan.h\"\\n#include \"%%s/plan_costs.h\"\\nint main(void) { return PLAN_COSTS.tile[0].k_tile_us[1] > PLAN_COSTS.tile[0].k_tile_us[0] ? 0 : 1; }\\n' \"$D\" > \"$D/t.c\" && "
                      "gcc -std=c11 -Wall -Werror -Wno-unused-const-variable -Icommon -Igoing_further -I/usr/local/cuda/include -fsyntax-only \"$D/t.c\"");
    /* in one round, every run is a first one, 5 us late: the launches read 9.55 and 8.5 us */
    expect_rc(0, dir, "rm \"$D/seen\" && "
                      "python3 going_further/tools.py plan-costs \"$D/further\" \"$D/one.h\" --reps 1 --rounds 1 > \"$D/log\" && "
                      "grep -q '^    9.55, 8.50, 1.50, ' \"$D/one.h\"");
    rm_rf(dir);
}

Test(run, the_old_csv_stays_when_nothing_passes)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    fake_step(dir, "step0");
    expect_rc(0, dir, "echo 'the previous results' > \"$D/results.csv\"");
    expect_rc(1, dir, "FAKE_ERR='step0:256:0 step0:512:0' python3 scripts/course run \"$D/results.csv\" \"$D/step0\" --sizes '256 512'");
    expect_rc(1, dir, "FAKE_FAIL=step0:256:0 python3 scripts/course run \"$D/results.csv\" \"$D/step0\" --sizes 256");
    expect_rc(1, dir, "python3 scripts/course run \"$D/results.csv\" \"$D/step0\" --sizes 256 --extra=--no-check");
    expect_rc(0, dir, "[ \"$(cat \"$D/results.csv\")\" = 'the previous results' ] && [ $(ls -A \"$D\" | wc -l) = 2 ]");
    expect_rc(2, dir, "python3 scripts/course run \"$D/results.csv\" \"$D/no-such-step\"");
    rm_rf(dir);
}

/* make plots: the runs and the CSV, then the charts where gnuplot is, the way to draw them where not. */
Test(run, make_plots_renders_or_says_how)
{
    char dir[256], *log;
    tmpdir(dir, sizeof dir);
    fake_step(dir, "step0");
    fake_step(dir, "step1");
    const char *plots = MAKE_RESULTS "plots STEPS= TRACK_SRC= BUILT_STEPS= PLOT_STEPS=\"$D/step0 $D/step1\" SIZES='256 4096' RESULTS=\"$D/results.csv\" "
                        "PLOTS_ALSO= ";
    int rc = sh(&log, dir, "%s OUT=\"$D/none\" GNUPLOT=/no/such/gnuplot", plots);
    cr_expect(rc == 0 && strstr(log, "gnuplot is not installed") && strstr(log, "make chart CSV="),
              "make plots without gnuplot did not say how to draw:\n%s", log);
    free(log);
    cr_expect_eq(entries(dir, "none"), 0, "make plots drew charts without gnuplot");
    expect_rc(0, dir, "%s OUT=\"$D/charts\"", plots);
    cr_expect_eq(entries(dir, "charts"), 4, "make plots did not draw the four pictures");
    rm_rf(dir);
}

/* --- make sweep, make ablation: the stage range from --describe --------------------------- */

Test(sweep, make_sweep_runs_every_stage_the_step_describes)
{
    char dir[256], *log;
    tmpdir(dir, sizeof dir);
    fake_step(dir, "step5");
    expect_rc(0, dir, "FAKE_MAX=3 FAKE_FAIL=step5:512:3 " MAKE "sweep SWEEP_STEP=\"$D/step5\" SWEEP_SIZES='256 512' "
              "SWEEP_CSV=\"$D/sweep.csv\" OUT=\"$D/charts\" | " MASK " > \"$D/sweep.log\"");
    expect_golden(dir, "sweep.log", "\"$D/sweep.log\"");
    cr_expect_eq(entries(dir, "charts"), 2, "make sweep did not draw sweep.png and sweep.svg");
    int rc = sh(&log, dir, "FAKE_MAX=2 " MAKE "sweep SWEEP_STEP=\"$D/step5\" SWEEP_SIZES=256 SWEEP_CSV=\"$D/s2.csv\" "
                "OUT=\"$D/none\" GNUPLOT=/no/such/gnuplot");
    cr_expect(rc == 0 && strstr(log, "gnuplot is not installed") && strstr(log, "make sweep-chart SWEEP_CSV="),
              "make sweep without gnuplot did not say how to draw the chart:\n%s", log);
    free(log);
    rc = sh(&log, dir, MAKE "sweep SWEEP_STEP=\"$D/step5\" SWEEP_CSV=\"$D/s3.csv\"");
    cr_expect(rc == 2 && strstr(log, "it has no pipeline stages to sweep"), "a step without stages was swept:\n%s", log);
    free(log);
    rm_rf(dir);
}

/* make ablation: step 5 and step 6 at each stage count, each run checked, each row named by its
 * command; the table grouped by stage count, in the order of the runs. */
Test(ablation, make_ablation_runs_step_5_and_step_6_at_each_stage_count)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    fake_step(dir, "step5");
    fake_step(dir, "step6");
    expect_rc(0, dir, "FAKE_LOG=\"$D/args\" FAKE_FAIL=step6:512:3 " MAKE "ablation ABLATION_CSV=\"$D/ablation.csv\" "
              "ABLATION_SIZES='256 512' ABLATION_RUNS=\"'$D/step5 --stages 2' '$D/step6 --stages 2' "
              "'$D/step5 --stages 3' '$D/step6 --stages 3' '$D/step6 --stages 3 --unroll no'\" "
              "ABLATION_BUILD= | " MASK " > \"$D/ablation.log\"");
    expect_golden(dir, "ablation.log", "\"$D/ablation.log\"");
    expect_rc(0, dir, "grep -qx '256 256 256 --reps 10 --stages 3 --unroll no --csv-header' \"$D/args\"");
    expect_rc(0, dir, "test $(grep -c , \"$D/ablation.csv\") = 11");
    rm_rf(dir);
}

/* make track-ablation: step 6, then the track part by part, each run checked, each row named by
 * its program and options, the rows of a run that failed to print one too (from the options its
 * --describe names); the table in the order of the runs. */
Test(ablation, make_track_ablation_runs_each_part_in_order_checked)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    fake_step(dir, "step6");
    fake_step(dir, "further");
    expect_rc(0, dir, "FAKE_LOG=\"$D/args\" FAKE_FAIL='step6:512:0 further:512:0' FAKE_ERR=further:256:0 "
              MAKE "track-ablation TRACK_CSV=\"$D/track.csv\" ABLATION_SIZES='256 512' TRACK_RUNS=\"'$D/step6' "
              "'$D/further --part warp-tiles' '$D/further' '$D/further --unroll yes'\" TRACK_BUILD= | "
              MASK " > \"$D/track.log\"");
    expect_golden(dir, "track.log", "\"$D/track.log\"");
    expect_rc(0, dir, "grep -qx '512 512 512 --reps 10 --part warp-tiles --csv-header' \"$D/args\"");
    expect_rc(0, dir, "grep -q '^further_fake,256,256,256,.*,ERROR exit 3,.*,part=warp-tiles,' \"$D/track.csv\"");
    expect_rc(0, dir, "test $(grep -c , \"$D/track.csv\") = 9");
    rm_rf(dir);
}

Test(ablation, ablation_tables_name_each_run)
{
    char *log;
    int rc = sh(&log, NULL, MAKE "ablation-table ABLATION_CSV=" ABLATION_FIXTURE " | diff -u " EXPECTED "ablation_table.md -");
    cr_expect_eq(rc, 0, "make ablation-table differs from " EXPECTED "ablation_table.md:\n%s", log);
    free(log);
    rc = sh(&log, NULL, MAKE "track-table TRACK_CSV=" TRACK_FIXTURE " | diff -u " EXPECTED "track_table.md -");
    cr_expect_eq(rc, 0, "make track-table differs from " EXPECTED "track_table.md:\n%s", log);
    free(log);
    rc = sh(&log, NULL, MAKE "ablation-table ABLATION_CSV=/no/such/ablation.csv");
    cr_expect(rc == 2 && strstr(log, "no such file: `make ablation`"), "no clear error for a missing CSV:\n%s", log);
    free(log);
    rc = sh(&log, NULL, MAKE "track-table TRACK_CSV=/no/such/track.csv");
    cr_expect(rc == 2 && strstr(log, "no such file: `make track-ablation`"), "no clear error for a missing CSV:\n%s", log);
    free(log);
}

/* --- make sass, make diff, make profile, --describe ------------------------------------ */

/* MASK, and the commit that the headers of make sass and make profile name. */
#define MASK_COMMIT MASK " -e 's/commit [0-9a-z-]*/commit COMMIT/'"

/* The committed excerpt of a listing, tests/data/sass_excerpt.sass; a file that is no listing. */
/* The excerpt's loop has four FFMAs: two read three registers of one bank (R12 R16 R20,
 * R13 R17 R21), one takes R13 from the reuse cache (marked .reuse by the FFMA before it)
 * and reads two, one reads registers of both banks: "2 of them". */
Test(tools, sass_summary_counts_each_kernel)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, "python3 scripts/course sass tests/data/sass_excerpt.sass | " MASK_COMMIT " > \"$D/sass.txt\"");
    expect_golden(dir, "sass.txt", "\"$D/sass.txt\"");
    expect_rc(0, dir, "out=$(python3 scripts/course sass " FIXTURE " 2>&1); [ $? = 2 ] && echo \"$out\" | grep -q 'sass: no kernel'");
    rm_rf(dir);
}

/* The real cuobjdump on a step built here, no GPU: step 6, or step 4 where ARCH leaves step 6
 * out. Where the toolkit has none and `make deps` has not installed one, the test skips, naming
 * the fix. */
Test(tools, make_sass_summarizes_a_built_step)
{
    char *log, why[160], header[64], listing[32];
    int n = step_left_out("./step6", why, sizeof why) ? 4 : 6;
    if (n != 6)
        cr_log_info("make sass STEP=4, not 6: %s", why);
    int rc = sh(&log, NULL, MAKE "sass STEP=%d", n);
    const char *missing = strstr(log, "cuobjdump is not installed");
    if (rc != 0 && missing) {
        char reason[512];
        snprintf(reason, sizeof reason, "%.*s", (int)strcspn(missing, "\n"), missing);
        free(log);
        cr_skip_test("%s", reason);
    }
    cr_assert_eq(rc, 0, "make sass STEP=%d failed:\n%s", n, log);
    int kernels = n == 6 ? strstr(log, "sgemm_pipelined") && strstr(log, "LDGSTS")
                         : strstr(log, "sgemm_vectorized") != NULL;
    snprintf(header, sizeof header, "sass: binary ./step%d, code for sm_", n);
    cr_expect(kernels && strstr(log, "longest loop") && strstr(log, header) && strstr(log, "(UTC), commit "),
              "make sass STEP=%d printed no summary of step %d's kernels, or no header naming ./step%d and the commit:\n%s",
              n, n, n, log);
    free(log);
    snprintf(listing, sizeof listing, "build/step%d.sass", n);
    cr_expect_eq(access(listing, R_OK), 0, "%s was not written", listing);
    rc = sh(&log, NULL, MAKE "sass STEP=9");
    cr_expect(rc == 2 && strstr(log, "STEP='9' is not a step"), "no clear error for STEP=9:\n%s", log);
    free(log);
}

/* make spills: ptxas's logs read (two excerpts of a real one, sm_100: one with a kernel that
 * spilled, one without), and one log made by the real rule for a step built here. */
Test(tools, spills_names_each_kernel_that_spills_or_uses_local_memory)
{
    char dir[256];
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, "out=$(python3 scripts/course spills tests/data/ptxas_clean.log) && "
                      "echo \"$out\" | grep -qE '^sm_100 +ptxas_clean +2 +95-255 +0 +0 +0$' && "
                      "echo \"$out\" | grep -q 'spills: 2 kernels in 1 build, none spills'");
    expect_rc(0, dir, "out=$(python3 scripts/course spills tests/data/ptxas_spill.log 2>&1); [ $? = 1 ] && "
                      "echo \"$out\" | grep -qE '^sm_100 +ptxas_spill +2 +95-255 +4 +1 +2$' && "
                      "echo \"$out\" | grep -q 'sm_100 ptxas_spill: .*sgemm_wide.*: 8 bytes stack frame, 4 bytes spill stores'");
    expect_rc(0, dir, "out=$(python3 scripts/course spills tests/data/results_sample.csv 2>&1); [ $? = 2 ] && "
                      "echo \"$out\" | grep -q 'no kernel in it'");
    /* The rule: step 3 for sm_75 (two kernels), compiled here. */
    expect_rc(0, dir, MAKE "build/spills/sm_75/step3.log > /dev/null && "
                      "python3 scripts/course spills build/spills/sm_75/step3.log | grep -qE '^sm_75 +step3 +2 +[0-9]+-[0-9]+ +0 +0 +0$'");
    expect_rc(0, dir, "out=$(" MAKE "spills SPILL_ARCHS='sm_86 86' 2>&1); [ $? = 2 ] && "
                      "echo \"$out\" | grep -q \"SPILL_ARCHS holds '86': each must be sm_ and a number\"");
    rm_rf(dir);
}

Test(tools, make_diff_shows_what_a_step_changed_with_or_without_comments)
{
    char *log;
    int rc = sh(&log, NULL, MAKE "diff STEP=1 | sed -n '1,2p'");
    cr_expect(rc == 0 && strstr(log, "--- step0_naive/step0.cu\n+++ step1_tiling/step1.cu\n"),
              "make diff STEP=1 is not a diff of step 0's and step 1's kernel files:\n%s", log);
    free(log);
    /* CODE=1: no changed line holds a comment, and the diff is shorter than the whole one. */
    rc = sh(&log, NULL, "for n in 1 2 3 4 5 6; do " MAKE "diff STEP=$n CODE=1 | grep -c '^[-+]' >/dev/null || exit 3; "
            MAKE "diff STEP=$n CODE=1 | tail -n +3 | grep -E '^[-+].*(//|/\\*|\\*/)' && exit 4; "
            "[ $(" MAKE "diff STEP=$n CODE=1 | wc -l) -lt $(" MAKE "diff STEP=$n | wc -l) ] || exit 5; done; exit 0");
    cr_expect_eq(rc, 0, "make diff CODE=1 shows comments, or nothing, or no less than the whole diff (%d):\n%s", rc, log);
    free(log);
    static const char *const bad[][2] = {{"0", "step 0 is the first step"}, {"9", "STEP='9' is not a step"},
                                         {"x", "STEP='x' is not a step"}, {"", "STEP='' is not a step"}};
    for (int i = 0; i < 4; i++) {
        rc = sh(&log, NULL, MAKE "diff STEP='%s'", bad[i][0]);
        cr_expect(rc == 2 && strstr(log, bad[i][1]), "make diff STEP=%s did not say \"%s\":\n%s", bad[i][0], bad[i][1], log);
        free(log);
    }
}

/* A stand-in ncu that records its arguments and prints tests/data/ncu_raw_sample.csv. */
Test(tools, profile_runs_ncu_on_the_first_launch_and_reads_its_metrics)
{
    char dir[256], *log;
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, "printf '#!/bin/sh\\necho \"$*\" > \"%%s/ncu.args\"\\ncat tests/data/ncu_raw_sample.csv\\n' \"$D\" > \"$D/ncu\" "
              "&& chmod +x \"$D/ncu\"");
    expect_rc(0, dir, "{ python3 scripts/course profile ./step5 4096 \"$D/profile_step5_4096\" --ncu \"$D/ncu\" && "
              "cp \"$D/profile_step5_4096.ncu.csv\" \"$D/profile_step3_4096.ncu.csv\" && "
              "python3 scripts/course profile-table \"$D\"/profile_step[35]_4096.ncu.csv && cat \"$D/ncu.args\"; } | " MASK_COMMIT
              " > \"$D/profile.txt\"");
    expect_golden(dir, "profile.txt", "\"$D/profile.txt\"");
    int rc = sh(&log, NULL, MAKE "profile STEP=5 NCU=/no/such/ncu");
    cr_expect(rc == 2 && strstr(log, "/no/such/ncu is not installed here: Nsight Compute") && !strstr(log, "nvcc"),
              "no clear error without ncu, or a build before it:\n%s", log);
    free(log);
    rm_rf(dir);
}

/* The lines of s that make itself wrote ("make: *** [...] Error 2"), not the recipe. */
static int count_make_lines(const char *s)
{
    int n = 0;
    for (const char *p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        n += strncmp(p, "make: ", 6) == 0 || strncmp(p, "make[", 5) == 0;
    return n;
}

/* make test, make chart and make plots install what they need when it is missing, as make
 * deps does, or say in one line which command to run (here: no apt-get to run). */
Test(tools, a_missing_tool_is_installed_or_named_in_one_line)
{
    char *log;
    int rc = sh(&log, NULL, MAKE "need-gnuplot GNUPLOT=/no/such/gnuplot APT_GET=/no/such/apt-get");
    cr_expect(rc == 2 && count_lines(log) - count_make_lines(log) == 1 &&
                  strstr(log, "chart: gnuplot is not installed: run: sudo apt-get install -y gnuplot-nox"),
              "no one-line answer for a missing gnuplot:\n%s", log);
    free(log);
    rc = sh(&log, NULL, MAKE "need-criterion CC=false APT_GET=/no/such/apt-get");
    cr_expect(rc == 2 && count_lines(log) - count_make_lines(log) == 1 &&
                  strstr(log, "test: Criterion is not installed: run: sudo apt-get install -y libcriterion-dev"),
              "no one-line answer for a missing Criterion:\n%s", log);
    free(log);
    rc = sh(&log, NULL, MAKE "need-criterion need-gnuplot");
    cr_expect_eq(rc, 0, "with both installed, nothing to do:\n%s", log);
    free(log);
}

/* The Makefile's CC takes effect: gcc by default, the command line's or the environment's
 * when given (make's built-in default, cc, does not count). */
Test(tools, cc_is_gcc_unless_set)
{
    char *log;
    int rc = sh(&log, NULL, "env -u CC " MAKE "-n -B build/common/stats.o | grep -c '^gcc .* -c common/stats.c'");
    cr_expect(rc == 0 && atoi(log) == 1, "make does not compile with gcc by default:\n%s", log);
    free(log);
    rc = sh(&log, NULL, MAKE "-n -B build/common/stats.o CC=my-cc | grep -c '^my-cc .* -c common/stats.c'");
    cr_expect(rc == 0 && atoi(log) == 1, "CC=my-cc is not taken:\n%s", log);
    free(log);
    rc = sh(&log, NULL, "CC=my-cc2 " MAKE "-n -B build/common/stats.o | grep -c '^my-cc2 .* -c common/stats.c'");
    cr_expect(rc == 0 && atoi(log) == 1, "CC from the environment is not taken:\n%s", log);
    free(log);
}

/* Each lesson's evidence folder holds only files the lesson cites, at most 12, each named for
 * what it shows (no issue or run number, no commit hash); every file a lesson cites is there.
 * The chapters of one folder (the going-further track's) share it: each file cited by one of
 * them and listed in the folder's README.md, at most 12 for each chapter. */
Test(tools, every_evidence_file_is_cited_and_named_for_what_it_shows)
{
    char *log;
    int rc = sh(&log, NULL, "python3 scripts/course evidence step[0-9]_*/README.md going_further/*.md");
    cr_expect_eq(rc, 0, "an evidence folder breaks the rule:\n%s", log);
    free(log);
    char dir[256];
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, "mkdir -p \"$D/step9_x/evidence\" && printf 'x\\n' > \"$D/step9_x/evidence/README.md\" && "
                      "printf 'x\\n' > \"$D/step9_x/evidence/cited.txt\" && "
                      "printf 'See evidence/cited.txt and evidence/gone.csv.\\n' > \"$D/step9_x/README.md\"");
    rc = sh(&log, dir, "python3 scripts/course evidence \"$D/step9_x/README.md\"");
    cr_expect(rc == 1 && strstr(log, "cites evidence/gone.csv, which") && !strstr(log, "cited.txt: not cited"),
              "a cited file that is missing passed:\n%s", log);
    free(log);
    expect_rc(0, dir, "printf 'See evidence/cited.txt.\\n' > \"$D/step9_x/README.md\" && "
                      "printf 'x\\n' > \"$D/step9_x/evidence/run3_5bcbe02.log\"");
    rc = sh(&log, dir, "python3 scripts/course evidence \"$D/step9_x/README.md\"");
    cr_expect(rc == 1 && strstr(log, "run3_5bcbe02.log: not cited") &&
                  strstr(log, "run3_5bcbe02.log: named by an issue, a run or a commit"),
              "an uncited, badly named file passed:\n%s", log);
    free(log);
    expect_rc(0, dir, "rm \"$D/step9_x/evidence/run3_5bcbe02.log\" && for i in 1 2 3 4 5 6 7 8 9 10 11 12; do "
                      "printf 'x\\n' > \"$D/step9_x/evidence/f$i.txt\"; printf 'evidence/f%%s.txt\\n' $i >> \"$D/step9_x/README.md\"; done");
    rc = sh(&log, dir, "python3 scripts/course evidence \"$D/step9_x/README.md\"");
    cr_expect(rc == 1 && strstr(log, "14 files, more than 12"), "a folder of 14 files passed:\n%s", log);
    free(log);
    expect_rc(0, dir, "mkdir -p \"$D/track/evidence\" && printf 'one.csv, two.csv\\n' > \"$D/track/evidence/README.md\" && "
                      "printf 'x\\n' > \"$D/track/evidence/one.csv\" && printf 'x\\n' > \"$D/track/evidence/two.csv\" && "
                      "printf 'See evidence/one.csv.\\n' > \"$D/track/1_a.md\" && "
                      "printf 'See evidence/two.csv.\\n' > \"$D/track/2_b.md\"");
    rc = sh(&log, dir, "python3 scripts/course evidence \"$D\"/track/*.md");
    cr_expect_eq(rc, 0, "two chapters, each citing one file of their folder, failed:\n%s", log);
    free(log);
    rc = sh(&log, dir, "python3 scripts/course evidence \"$D/track/1_a.md\"");
    cr_expect(rc == 1 && strstr(log, "two.csv: not cited by"), "a file no chapter given cites passed:\n%s", log);
    free(log);
    expect_rc(0, dir, "printf 'one.csv\\n' > \"$D/track/evidence/README.md\"");
    rc = sh(&log, dir, "python3 scripts/course evidence \"$D\"/track/*.md");
    cr_expect(rc == 1 && strstr(log, "two.csv: not listed in"), "a file its folder's README.md does not list passed:\n%s",
              log);
    free(log);
    rm_rf(dir);
}

/* A lesson quotes its step's code line for line: every ```cuda block of every lesson is in
 * that step's sources, every ```c block in the plain C beside them (the track's plan.c); and a
 * changed quote is caught. */
Test(tools, every_quoted_code_block_is_in_the_steps_sources)
{
    char *log;
    int rc = sh(&log, NULL, "python3 scripts/course quotes step[0-9]_*/README.md step[0-9]_*/*/README.md going_further/*.md");
    cr_expect_eq(rc, 0, "a lesson quotes code its step does not have:\n%s", log);
    free(log);
    char dir[256];
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, "mkdir \"$D/step9_x\" && printf 'int f() { return 1; }\\n' > \"$D/step9_x/step9.cu\" && "
                      "printf '```cuda\\nint f() { return 2; }\\n```\\n' > \"$D/step9_x/README.md\"");
    rc = sh(&log, dir, "python3 scripts/course quotes \"$D/step9_x/README.md\"");
    cr_expect(rc == 1 && strstr(log, "code block 1 (int f() { return 2; })"), "a changed quote passed:\n%s", log);
    free(log);
    expect_rc(0, dir, "printf 'int g(void) { return 3; }\\n' > \"$D/step9_x/plan.c\" && "
                      "printf '```c\\nint g(void) { return 3; }\\n```\\n' > \"$D/step9_x/README.md\"");
    rc = sh(&log, dir, "python3 scripts/course quotes \"$D/step9_x/README.md\"");
    cr_expect_eq(rc, 0, "a quote of the plain C beside the step failed:\n%s", log);
    free(log);
    expect_rc(0, dir, "printf '```c\\nint g(void) { return 4; }\\n```\\n' > \"$D/step9_x/README.md\"");
    rc = sh(&log, dir, "python3 scripts/course quotes \"$D/step9_x/README.md\"");
    cr_expect(rc == 1 && strstr(log, "c code block 1 (int g(void) { return 4; })"),
              "a changed quote of plain C passed:\n%s", log);
    free(log);
    rm_rf(dir);
}

/* A number in a lesson's prose that comes from a measured file is registered in
 * plots/prose_numbers.csv, and it is what the file gives; a changed number, in the lesson or
 * in its file, is caught (in a scratch copy of both). */
Test(tools, every_registered_prose_number_is_what_its_file_gives)
{
    char *log;
    int rc = sh(&log, NULL, "python3 scripts/course numbers plots/prose_numbers.csv");
    cr_expect_eq(rc, 0, "a lesson's number drifted from its file:\n%s", log);
    free(log);
    char dir[256];
    tmpdir(dir, sizeof dir);
    /* The number step 0's lesson gives for its time at 1024, changed in the lesson, then in the
     * CSV: whatever the run measured, 9.99 ms is neither. */
    expect_rc(0, dir, "cp -r README.md docs step*_* plots \"$D/\" && "
                      "sed -i -E 's/At 1024 the kernel takes [0-9.]+ ms/At 1024 the kernel takes 9.99 ms/' "
                      "\"$D/step0_naive/README.md\" && grep -q 'takes 9.99 ms' \"$D/step0_naive/README.md\"");
    rc = sh(&log, dir, "python3 scripts/course numbers plots/prose_numbers.csv --root \"$D\"");
    cr_expect(rc == 1 && strstr(log, "step0_naive/README.md (registry line ") &&
                  strstr(log, "the lesson no longer says \"At 1024 the kernel takes "),
              "a changed number in a lesson passed:\n%s", log);
    free(log);
    expect_rc(0, dir, "cp step0_naive/README.md \"$D/step0_naive/\" && "
                      "awk -F, -v OFS=, '$1 == \"step0_naive\" && $2 == 1024 { $8 = 9.99 } 1' plots/results.csv "
                      "> \"$D/plots/results.csv\"");
    rc = sh(&log, dir, "python3 scripts/course numbers plots/prose_numbers.csv --root \"$D\"");
    cr_expect(rc == 1 && strstr(log, "\"At 1024 the kernel takes ") &&
                  strstr(log, "but plots/results.csv gives 9.99 (ms('step0_naive', 1024))"),
              "a changed measurement passed:\n%s", log);
    free(log);
    rm_rf(dir);
}

/* Each step marks the lines of its idea for its exercise: regions well formed, comments alone,
 * each of lines the step adds, and the exercise with them put back is the step. A region around
 * a line the step before already has is caught (in a scratch pair of steps). */
Test(tools, every_step_marks_its_idea_for_its_exercise)
{
    char *log;
    int rc = sh(&log, NULL, "python3 scripts/course exercise-markers");
    cr_expect_eq(rc, 0, "a step's exercise regions are wrong:\n%s", log);
    free(log);
    char dir[256];
    tmpdir(dir, sizeof dir);
    expect_rc(0, dir, "mkdir \"$D/step1_x\" \"$D/step2_y\" && "
                      "printf 'int f() { return 1; }\\n' > \"$D/step1_x/step1.cu\" && "
                      "printf '    // exercise: the old line\\nint f() { return 1; }\\n    // exercise end\\n"
                      "int g() { return 2; }\\n' > \"$D/step2_y/step2.cu\"");
    rc = sh(&log, dir, "R=$PWD && cd \"$D\" && python3 \"$R/scripts/course\" exercise-markers");
    cr_expect(rc == 1 && strstr(log, "step2_y/step2.cu:1 (the old line): the region holds lines step 1 has already"),
              "a region of an earlier step's line passed:\n%s", log);
    free(log);
    rm_rf(dir);
}

/* make exercise writes a step with the lines of its idea taken out: the file does not build
 * until each TODO is written (the compiler stops at its #error, which names it), and it is
 * not written over a learner's work without FORCE=1. */
Test(tools, an_exercise_does_not_build_until_its_todos_are_written, .timeout = 120)
{
    char dir[256], *log;
    tmpdir(dir, sizeof dir);
    int rc = sh(&log, dir, MAKE "exercise STEP=3 EXERCISES=\"$D\"");
    cr_expect(rc == 0 && strstr(log, "TODO(step 3): this thread's TM values of A and TN of B at step p"),
              "make exercise STEP=3 did not name its TODOs:\n%s", log);
    free(log);
    rc = sh(&log, dir, "nvcc -std=c++17 -E \"$D/step3.cu\" -o /dev/null");
    cr_expect(rc != 0 && strstr(log, "#error \"TODO(step 3): this thread's TM values"),
              "the exercise as written got past the preprocessor:\n%s", log);
    free(log);
    rc = sh(&log, dir, MAKE "exercise STEP=3 EXERCISES=\"$D\"");
    cr_expect(rc == 2 && strstr(log, "FORCE=1 writes it again"), "make exercise wrote over an exercise:\n%s", log);
    free(log);
    rm_rf(dir);
}

/* make exercise-check, where the check fails, names the mistakes of the region whose lines
 * differ from the step's, and only those: here the fragments swapped in step 3's FMA, its
 * other region (the fragments' loads) as the step has it. A stand-in for the learner's binary
 * prints the rows of a failed check, so no GPU is needed. */
Test(tools, exercise_check_names_the_mistakes_of_the_lines_that_differ, .timeout = 60)
{
    char dir[256], *log;
    tmpdir(dir, sizeof dir);
    int rc = sh(&log, dir,
                "sed 's/acc\\[i\\]\\[j\\] += a_frag\\[i\\] \\* b_frag\\[j\\];/acc[i][j] += a_frag[j] * b_frag[i];/' "
                "step3_registers/step3.cu > \"$D/step3.cu\" && ! cmp -s step3_registers/step3.cu \"$D/step3.cu\" || exit 9; "
                "printf '#!/bin/sh\\necho m,n,k,verdict\\nfor s in 1 2 3 4 5 6 7; do echo 129,127,33,FAIL; done\\nexit 1\\n' "
                "> \"$D/mine\" && chmod +x \"$D/mine\" && "
                "python3 scripts/course exercise-check 3 \"$D/mine\" ./step3 --source \"$D/step3.cu\"");
    cr_expect(rc == 1 && strstr(log, "your lines differ from the step's at: the outer product of the fragments") &&
                  strstr(log, "the fragments swapped") && !strstr(log, "threads overlap"),
              "exercise-check did not name the FMA's mistakes alone (exit %d):\n%s", rc, log);
    free(log);
    rm_rf(dir);
}

/* The table of each step's typical mistakes (tests/data/exercise_mistakes.tsv, which the GPU
 * test builds and checks) follows the steps: every line it changes is in the step's exercise
 * with the step's lines written. A row naming a line the step does not have is refused, with
 * the step and the line (in a scratch copy of the table). */
Test(tools, every_typical_mistake_changes_lines_its_step_has, .timeout = 60)
{
    char dir[256], *log;
    tmpdir(dir, sizeof dir);
    int rc = sh(&log, dir,
                "for n in 1 2 3 4 5 6; do python3 scripts/course exercise-mistakes $n tests/data/exercise_mistakes.tsv "
                "./step$n --write-only --out \"$D\" || exit $n; done");
    cr_expect(rc == 0 && strstr(log, "step 6: 3 mistakes written"), "a mistake's lines are not in its step (%d):\n%s",
              rc, log);
    free(log);
    rc = sh(&log, dir,
            "printf '3\\ta line no step has\\tFAIL\\tno_such_line();\\tx\\n' > \"$D/t.tsv\" && "
            "python3 scripts/course exercise-mistakes 3 \"$D/t.tsv\" ./step3 --write-only --out \"$D\"");
    cr_expect(rc == 1 && strstr(log, "step 3 has no line 'no_such_line();'"), "a stale row passed (%d):\n%s", rc, log);
    free(log);
    rm_rf(dir);
}

/* What make sweep and make ablation rely on: --describe names the stage range that --stages
 * takes, and the program's own options, for every built step and ./further, with no GPU. */
Test(tools, each_step_describes_the_stages_it_takes)
{
    char *log;
    int rc = sh(&log, NULL,
                "for s in ./step[0-9] $(ls ./further 2>/dev/null); do d=$($s --describe) || exit 3; echo \"$d\"; "
                "echo \"$d\" | grep -Eqx 'name=(step[0-9]_[a-z]+|going_further) max_stages=[0-9]+ default_stages=[0-9]+ kernel_choice=[01] options=[a-z,]* tiles=([0-9x:,]*) commit=[0-9a-z-]+ shapes=[0-9x:,-]*( [a-z_]+=[^ ]+)*' || exit 4; "
                "max=$(echo \"$d\" | sed 's/.*max_stages=\\([0-9]*\\).*/\\1/'); "
                "if [ $max -gt 0 ]; then $s 64 --stages $max --describe >/dev/null || exit 5; fi; "
                "$s 64 --stages $((max + 1)) --describe >/dev/null 2>&1; [ $? = 2 ] || exit 6; done");
    cr_expect_eq(rc, 0, "a step's --describe is malformed or does not match --stages (%d):\n%s", rc, log);
    cr_expect(strstr(log, "max_stages=0"), "no step without stages:\n%s", log);
    /* Step 5 is built only for sm_80 or newer (cp.async): with an older ARCH it is absent. */
    char why[160];
    if (step_left_out("./step5", why, sizeof why))
        cr_log_info("%s: its stage range is not checked", why);
    else
        cr_expect(strstr(log, "name=step5_pipeline max_stages=4 default_stages=2"),
                  "step 5's range is not 1..4 (default 2):\n%s", log);
    /* The options each program names, which the tools turn into a command (and a failed run's row into its variant). */
    if (!step_left_out("./further", why, sizeof why))
        cr_expect(strstr(log, "kernel_choice=1 options=unroll tiles=") && strstr(log, "name=going_further ") &&
                      strstr(log, " options=part,unroll,plan "),
                  "step 6 does not name its option unroll, or ./further part, unroll and plan:\n%s", log);
    free(log);
}
