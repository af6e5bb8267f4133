/* test_step_binaries.c - the real ./stepN binaries before the GPU: --help, usage errors
 * and no GPU, each output whole against its golden file (tests/data/).
 *
 * The parser's suite (test_args.c) runs every bad input in-process; here one case of each
 * class runs through one step without stages (./step2) and one with them (./step5), which
 * shows that the binaries print what the parser says, then the usage, and exit 2. Every
 * step runs --help and a run without a GPU. Only problem_too_big_for_the_gpu_exits_2 needs
 * a GPU: a step must reject bad input before it touches CUDA, so on a machine without one
 * a bad command line still exits 2 (not 3). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bad_inputs.h"
#include "golden.h"
#include "process.h"

/* The binaries the classes of bad input run through: one step without stages, one with. */
static const char *const CLASS_STEPS[] = {"./step2", "./step5"};
enum { N_CLASS_STEPS = sizeof CLASS_STEPS / sizeof CLASS_STEPS[0] };

#define CLASS_STEP_PARAMETERS(name)                                                  \
    ParameterizedTestParameters(step_binaries, name)                                 \
    {                                                                                \
        static step_param params[N_CLASS_STEPS];                                     \
        for (int i = 0; i < N_CLASS_STEPS; i++) {                                    \
            snprintf(params[i].step, STEP_PATH_LEN, "%s", CLASS_STEPS[i]);           \
            params[i].max_stages = step_max_stages(CLASS_STEPS[i]);                  \
        }                                                                            \
        return cr_make_param_array(step_param, params, N_CLASS_STEPS);               \
    }

/* Skips the test, saying why, when this build leaves the step out (steps 5 and 6 need sm_80);
 * a step it must hold and does not fails the test. */
static void require_built(const step_param *p)
{
    char why[160];
    if (step_left_out(p->step, why, sizeof why))
        cr_skip_test("%s", why);
    cr_assert_eq(access(p->step, X_OK), 0, "%s is not built: run `make all`", p->step);
    cr_assert_geq(p->max_stages, 0, "%s --help failed or its --stages line gives no range", p->step);
}

/* The transcript of one run: the command, its exit status, then what it wrote on stdout
 * and on stderr (a stream that stayed empty is left out). shown stands for the command
 * line when it is too long to read. */
static void transcribe(FILE *out, const char *title, const char *const argv[], const char *shown)
{
    proc_result r;
    char st[64];
    run_process(argv, &r);
    fprintf(out, "# %s\n$ %s\n[%s]\n", title, shown ? shown : r.cmd, describe_status(r.status, st, sizeof st));
    const char *names[] = {"stdout", "stderr"}, *texts[] = {r.out, r.err};
    size_t lens[] = {r.out_len, r.err_len};
    for (int i = 0; i < 2; i++)
        if (lens[i])
            fprintf(out, "[%s]\n%s%s", names[i], texts[i],
                    texts[i][lens[i] - 1] == '\n' ? "" : "\n[no newline at the end]\n");
    proc_result_free(&r);
}

/* Runs argv, which a machine without a GPU accepts and then stops at the GPU: exit 3 and
 * the one line that says why, in the harness's own words. */
static void expect_no_gpu(const char *const argv[])
{
    char why[256], line[512], st[64];
    cr_assert(!gpu_available(why, sizeof why), "a GPU is present: %s", why);
    cr_expect_null(strstr(why, "insufficient"), "no GPU is not a reason to upgrade a driver: %s", why);
    snprintf(line, sizeof line, "error: no CUDA device found: %s\n", why);
    proc_result r;
    run_process(argv, &r);
    cr_expect(r.status == 3 && strcmp(r.err, line) == 0 && r.out_len == 0,
              "`%s` without a GPU gave %s, expected exit 3 and only \"%s\" on stderr" OUTPUT_FMT, r.cmd,
              describe_status(r.status, st, sizeof st), line, r.out, r.err);
    proc_result_free(&r);
}

Test(step_binaries, steps_are_built)
{
    char paths[MAX_STEPS][STEP_PATH_LEN];
    int n = built_steps(paths, MAX_STEPS);
    cr_assert_gt(n, 0, "no ./stepN is built: run `make test` (it builds every step first)");
    cr_expect_str_eq(paths[0], "./step0", "step 0 is the first step");
}

/* ---- every step: its --help, and no GPU ---- */

PER_STEP_PARAMETERS(step_binaries, help_is_golden)
ParameterizedTest(step_param *p, step_binaries, help_is_golden)
{
    const char *const argv[] = {p->step, "--help", NULL};
    char *text = NULL, name[64];
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_not_null(out);
    transcribe(out, "the help", argv, NULL);
    fclose(out);
    snprintf(name, sizeof name, "help/%s.txt", p->step + 2);
    expect_golden(name, text);
    free(text);
    cr_expect_geq(p->max_stages, 0, "%s: the --stages line of --help gives no range 1..N", p->step);
}

PER_STEP_PARAMETERS(step_binaries, no_gpu_exits_3)
ParameterizedTest(step_param *p, step_binaries, no_gpu_exits_3)
{
    char why[256];
    if (gpu_available(why, sizeof why))
        cr_skip_test("a CUDA GPU is present (%s); this test is for machines without one", why);
    const char *const argv[] = {p->step, "1024", NULL};
    expect_no_gpu(argv);
}

/* ---- one step without stages, one with: a bad input of each class ---- */

/* The first case of each class of bad input, then what only the harness catches (sizes
 * each allowed whose byte count overflows 64 bits), a 10,000-digit size (one short line
 * whose reason shows), --help after other arguments and bad problems after --then: the
 * whole transcript. */
CLASS_STEP_PARAMETERS(one_bad_input_of_each_class_is_golden)
ParameterizedTest(step_param *p, step_binaries, one_bad_input_of_each_class_is_golden)
{
    require_built(p);
    char *text = NULL, name[64];
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_not_null(out);
    int classes = 0;
    for (int i = 0; i < N_BAD_INPUTS; i++) {
        const bad_input *b = &BAD_INPUTS[i];
        if (!bad_input_represents_its_kind(b, p->max_stages))
            continue;
        const char *argv[8] = {p->step};
        char buf[6][32], title[160];
        bad_input_args(b, p->max_stages, argv + 1, buf);
        snprintf(title, sizeof title, "%s: %s", b->kind, b->what);
        transcribe(out, title, argv, NULL);
        classes++;
    }
    const char *const overflow[] = {p->step, "1073741824", "1073741824", "1073741824", NULL};
    transcribe(out, "sizes each allowed, whose matrices' byte count overflows 64 bits", overflow, NULL);
    static char huge[10001];
    memset(huge, '7', 10000);
    const char *const long_size[] = {p->step, huge, NULL};
    char shown[64];
    snprintf(shown, sizeof shown, "%s 777...7 (10,000 sevens)", p->step);
    transcribe(out, "a 10,000-digit size", long_size, shown);
    const char *const late_help[] = {p->step, "64", "--reps", "3", "--help", NULL};
    transcribe(out, "--help after other arguments", late_help, NULL);
    /* Several problems (--then): each one's command line is checked before the first runs. */
    const char *const bad_second[] = {p->step, "64", "--then", "64", "--reps", "0", NULL};
    transcribe(out, "--then: the second problem's bad value, before the first runs", bad_second, NULL);
    const char *const empty_second[] = {p->step, "64", "--then", NULL};
    transcribe(out, "--then with no problem after it", empty_second, NULL);
    fclose(out);
    cr_expect_geq(classes, 14, "%s: only %d classes of bad input", p->step, classes);
    snprintf(name, sizeof name, "cli/%s.txt", p->step + 2);
    expect_golden(name, text);
    free(text);
}

/* The other side of the size bound (2^30 + 1 and INT_MAX are bad inputs): 2^30 passes the
 * parser and the 64-bit byte count, and reaches the GPU. Where there is one, such a run (a
 * 2^30-long dot product) would take minutes, so this runs without a GPU. */
CLASS_STEP_PARAMETERS(largest_size_reaches_the_gpu)
ParameterizedTest(step_param *p, step_binaries, largest_size_reaches_the_gpu)
{
    require_built(p);
    char why[256];
    if (gpu_available(why, sizeof why))
        cr_skip_test("a CUDA GPU is present (%s): this would run a 2^30-long product; test_gpu.c runs M and N at 2^30", why);
    const char *const argv[] = {p->step, "1", "1", "1073741824", NULL};
    expect_no_gpu(argv);
}

/* After "--" every argument is a size, so `./stepN ... -- 8` runs like `./stepN 8`. */
CLASS_STEP_PARAMETERS(double_dash_then_a_size_runs)
ParameterizedTest(step_param *p, step_binaries, double_dash_then_a_size_runs)
{
    require_built(p);
    char why[256], st[64];
    const char *const argv[] = {p->step, "--reps", "1", "--warmup", "0", "--", "8", NULL};
    if (!gpu_available(why, sizeof why)) {
        expect_no_gpu(argv);
        return;
    }
    proc_result r;
    run_process(argv, &r);
    cr_expect(r.status == 0 && strstr(r.out, "M=8 N=8 K=8") && strstr(r.out, "PASS"),
              "`%s` gave %s, expected exit 0 and PASS at 8x8x8" OUTPUT_FMT, r.cmd,
              describe_status(r.status, st, sizeof st), r.out, r.err);
    proc_result_free(&r);
}

/* The one class that needs a GPU to meet: matrices larger than its free memory. */
CLASS_STEP_PARAMETERS(problem_too_big_for_the_gpu_exits_2)
ParameterizedTest(step_param *p, step_binaries, problem_too_big_for_the_gpu_exits_2)
{
    char why[256], st[64];
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
    require_built(p);
    /* 320 GB of matrices: more than any single GPU has. */
    const char *const argv[] = {p->step, "100000", "100000", "100000", NULL};
    proc_result r;
    run_process(argv, &r);
    cr_expect_eq(r.status, 2, "`%s` gave %s, expected exit 2" OUTPUT_FMT, r.cmd,
                 describe_status(r.status, st, sizeof st), r.out, r.err);
    cr_expect(strstr(r.err, "bytes") && strstr(r.err, "free"),
              "`%s`: stderr does not give the bytes needed and free" OUTPUT_FMT, r.cmd, r.out, r.err);
    cr_expect(strstr(r.err, "usage: "), "`%s`: no usage line" OUTPUT_FMT, r.cmd, r.out, r.err);
    cr_expect_eq(r.out_len, 0, "`%s` printed on stdout" OUTPUT_FMT, r.cmd, r.out, r.err);
    proc_result_free(&r);
}
