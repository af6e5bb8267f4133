/* test_cli.c - the real ./stepN binaries on bad command lines, --help, and no GPU.
 *
 * Everything here except the oversized-problem test runs without a GPU: a step must
 * reject bad input before it touches CUDA, so on a machine without a GPU a bad
 * command line still exits 2 (not 3). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>

#include "bad_inputs.h"
#include "process.h"

/* Shown in failure messages: what the child printed, cut to a readable length. */
#define OUTPUT_FMT "\n--- stdout ---\n%.3000s\n--- stderr ---\n%.3000s"

typedef struct {
    char step[STEP_PATH_LEN];
    int max_stages;   /* from --help; -1 when --help failed */
    int bad;          /* index into BAD_INPUTS */
} cli_param;

/* Every built step, with its stage count. Runs in the test runner, before any test. */
static int list_steps(cli_param *out, int max)
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

Test(cli, steps_are_built)
{
    char paths[MAX_STEPS][STEP_PATH_LEN];
    int n = built_steps(paths, MAX_STEPS);
    cr_assert_gt(n, 0, "no ./stepN is built: run `make test` (it builds every step first)");
    cr_expect_str_eq(paths[0], "./step0", "step 0 is the first step");
}

/* ---- every bad input class, on every built step ---- */

ParameterizedTestParameters(cli, bad_input_exits_2_naming_the_value)
{
    static cli_param params[MAX_STEPS * 64];
    cli_param steps[MAX_STEPS];
    int n_steps = list_steps(steps, MAX_STEPS), n = 0;
    for (int s = 0; s < n_steps; s++)
        for (int b = 0; b < N_BAD_INPUTS && n < (int)(sizeof params / sizeof params[0]); b++) {
            int staged = steps[s].max_stages > 0;
            if ((BAD_INPUTS[b].scope == FOR_STAGED_STEPS && !staged) ||
                (BAD_INPUTS[b].scope == FOR_UNSTAGED_STEPS && steps[s].max_stages != 0))
                continue;
            params[n] = steps[s];
            params[n].bad = b;
            n++;
        }
    return cr_make_param_array(cli_param, params, (size_t)n);
}

ParameterizedTest(cli_param *p, cli, bad_input_exits_2_naming_the_value)
{
    const bad_input *b = &BAD_INPUTS[p->bad];
    char buf[8][32];
    const char *argv[8];
    int argc = 0;
    argv[argc++] = p->step;
    for (int i = 0; b->args[i]; i++, argc++)
        argv[argc] = bad_input_arg(b->args[i], p->max_stages, buf[argc], sizeof buf[argc]);
    argv[argc] = NULL;
    char names_buf[64], st[64];
    const char *names = bad_input_arg(b->names, p->max_stages, names_buf, sizeof names_buf);

    proc_result r;
    run_process(argv, &r);
    cr_expect_eq(r.status, 2, "%s: `%s` gave %s, expected exit 2 (usage)" OUTPUT_FMT, b->what, r.cmd,
                 describe_status(r.status, st, sizeof st), r.out, r.err);
    cr_expect_eq(r.out_len, 0, "%s: `%s` printed on stdout" OUTPUT_FMT, b->what, r.cmd, r.out, r.err);

    /* stderr: one line that names the bad value, then the usage line (and its continuation). */
    const char *first = r.err, *first_end = line_end(first);
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)(first_end - first), first);
    cr_expect(strstr(line, names) != NULL, "%s: `%s`: the error line does not name %s" OUTPUT_FMT,
              b->what, r.cmd, names, r.out, r.err);
    cr_expect(strncmp(line, "usage:", 6) != 0 && line[0] != '\0',
              "%s: `%s`: stderr does not start with the error line" OUTPUT_FMT, b->what, r.cmd, r.out,
              r.err);
    const char *usage = *first_end ? first_end + 1 : first_end;
    cr_expect(strncmp(usage, "usage: ", 7) == 0,
              "%s: `%s`: the error line is not followed by the usage line" OUTPUT_FMT, b->what, r.cmd,
              r.out, r.err);
    for (const char *l = *usage ? line_end(usage) : usage; *l;) {
        l++;   /* past the '\n' */
        cr_expect(*l == '\0' || *l == ' ',
                  "%s: `%s`: more than the error line and the usage on stderr" OUTPUT_FMT, b->what,
                  r.cmd, r.out, r.err);
        l = line_end(l);
    }
    proc_result_free(&r);
}

/* ---- per step: --help, sizes that overflow, no GPU, a problem too big for the GPU ---- */

/* Every built step, as parameters (Criterion needs one parameter function per test). */
#define PER_STEP_PARAMETERS(name)                                      \
    ParameterizedTestParameters(cli, name)                             \
    {                                                                  \
        static cli_param params[MAX_STEPS];                            \
        int n = list_steps(params, MAX_STEPS);                         \
        return cr_make_param_array(cli_param, params, (size_t)n);      \
    }

PER_STEP_PARAMETERS(help_exits_0_and_prints_usage)
ParameterizedTest(cli_param *p, cli, help_exits_0_and_prints_usage)
{
    char usage[64], st[64];
    snprintf(usage, sizeof usage, "usage: %s M [N K]", p->step);
    const char *const first[] = {p->step, "--help", NULL};
    const char *const last[] = {p->step, "64", "--reps", "3", "--help", NULL};
    const char *const *cmds[] = {first, last};
    for (int i = 0; i < 2; i++) {
        proc_result r;
        run_process(cmds[i], &r);
        cr_expect_eq(r.status, 0, "`%s` gave %s, expected exit 0" OUTPUT_FMT, r.cmd,
                     describe_status(r.status, st, sizeof st), r.out, r.err);
        cr_expect(strstr(r.out, usage), "`%s`: stdout lacks \"%s\"" OUTPUT_FMT, r.cmd, usage, r.out, r.err);
        cr_expect(strstr(r.out, "--reps") && strstr(r.out, "--alpha") && strstr(r.out, "--csv"),
                  "`%s`: the help lists the options" OUTPUT_FMT, r.cmd, r.out, r.err);
        cr_expect_eq(r.err_len, 0, "`%s`: --help printed on stderr" OUTPUT_FMT, r.cmd, r.out, r.err);
        proc_result_free(&r);
    }
    cr_expect_geq(p->max_stages, 0, "%s: the --stages line of --help gives no range 1..N", p->step);
}

PER_STEP_PARAMETERS(sizes_that_overflow_exit_2_without_gpu)
ParameterizedTest(cli_param *p, cli, sizes_that_overflow_exit_2_without_gpu)
{
    /* Caught before the GPU is opened: each size is allowed, but the byte count of the
     * matrices overflows 64 bits. */
    const char *const argv[] = {p->step, "1073741824", "1073741824", "1073741824", NULL};
    proc_result r;
    char st[64];
    run_process(argv, &r);
    cr_expect_eq(r.status, 2, "`%s` gave %s, expected exit 2" OUTPUT_FMT, r.cmd,
                 describe_status(r.status, st, sizeof st), r.out, r.err);
    cr_expect(strstr(r.err, "1073741824") && strstr(r.err, "overflow"),
              "`%s`: stderr does not say the sizes overflow" OUTPUT_FMT, r.cmd, r.out, r.err);
    cr_expect_eq(r.out_len, 0, "`%s` printed on stdout" OUTPUT_FMT, r.cmd, r.out, r.err);
    proc_result_free(&r);
}

/* The other side of the size bound (the bad-input table has 2^30 + 1 and INT_MAX): 2^30
 * passes the parser and the 64-bit byte count, and reaches the GPU. Where there is one,
 * such a run (a 2^30-long dot product) would take minutes, so this runs without a GPU. */
PER_STEP_PARAMETERS(largest_size_reaches_the_gpu)
ParameterizedTest(cli_param *p, cli, largest_size_reaches_the_gpu)
{
    char why[256], st[64];
    if (gpu_available(why, sizeof why))
        cr_skip_test("a CUDA GPU is present (%s): this would run a 2^30-long product; test_gpu.c runs M and N at 2^30", why);
    const char *const argv[] = {p->step, "1", "1", "1073741824", NULL};
    proc_result r;
    run_process(argv, &r);
    cr_expect_eq(r.status, 3, "`%s` gave %s, expected exit 3 (accepted, then no GPU)" OUTPUT_FMT, r.cmd,
                 describe_status(r.status, st, sizeof st), r.out, r.err);
    cr_expect(strstr(r.err, "no CUDA device"), "`%s`" OUTPUT_FMT, r.cmd, r.out, r.err);
    proc_result_free(&r);
}

/* A 10,000-digit size: one short line whose reason shows, then the usage. */
PER_STEP_PARAMETERS(ten_thousand_digit_size_exits_2_with_its_reason)
ParameterizedTest(cli_param *p, cli, ten_thousand_digit_size_exits_2_with_its_reason)
{
    static char huge[10001];
    memset(huge, '7', 10000);
    const char *const argv[] = {p->step, huge, NULL};
    proc_result r;
    char st[64];
    run_process(argv, &r);
    cr_expect_eq(r.status, 2, "`%.40s...` gave %s, expected exit 2" OUTPUT_FMT, r.cmd,
                 describe_status(r.status, st, sizeof st), r.out, r.err);
    int first = (int)(line_end(r.err) - r.err);
    cr_expect(first < 200, "the error line is %d characters long:\n%.400s", first, r.err);
    char line[256];
    snprintf(line, sizeof line, "%.*s", first, r.err);
    cr_expect(strstr(line, "too large") && strstr(line, "10000 characters") && strstr(line, "1073741824"),
              "the error line gives the reason: %s", line);
    cr_expect_eq(count_lines(r.err), 3, "the error line and the two usage lines:\n%.600s", r.err);
    proc_result_free(&r);
}

/* After "--" every argument is a size, so `./stepN ... -- 8` runs like `./stepN 8`. */
PER_STEP_PARAMETERS(double_dash_then_a_size_runs)
ParameterizedTest(cli_param *p, cli, double_dash_then_a_size_runs)
{
    char why[256], st[64];
    int gpu = gpu_available(why, sizeof why);
    const char *const argv[] = {p->step, "--reps", "1", "--warmup", "0", "--", "8", NULL};
    proc_result r;
    run_process(argv, &r);
    if (gpu)
        cr_expect(r.status == 0 && strstr(r.out, "M=8 N=8 K=8") && strstr(r.out, "PASS"),
                  "`%s` gave %s, expected exit 0 and PASS at 8x8x8" OUTPUT_FMT, r.cmd,
                  describe_status(r.status, st, sizeof st), r.out, r.err);
    else
        cr_expect(r.status == 3 && strstr(r.err, "no CUDA device"),
                  "`%s` without a GPU gave %s, expected exit 3 (the size was accepted)" OUTPUT_FMT, r.cmd,
                  describe_status(r.status, st, sizeof st), r.out, r.err);
    proc_result_free(&r);
}

PER_STEP_PARAMETERS(no_gpu_exits_3)
ParameterizedTest(cli_param *p, cli, no_gpu_exits_3)
{
    char why[256], st[64];
    if (gpu_available(why, sizeof why))
        cr_skip_test("a CUDA GPU is present (%s); this test is for machines without one", why);
    const char *const argv[] = {p->step, "1024", NULL};
    proc_result r;
    run_process(argv, &r);
    cr_expect_eq(r.status, 3, "`%s` without a GPU gave %s, expected exit 3" OUTPUT_FMT, r.cmd,
                 describe_status(r.status, st, sizeof st), r.out, r.err);
    cr_expect(strstr(r.err, "no CUDA device"), "`%s`: stderr does not say \"no CUDA device\"" OUTPUT_FMT,
              r.cmd, r.out, r.err);
    cr_expect_null(strstr(r.err, "insufficient"), "`%s`: no GPU is not a reason to upgrade a driver" OUTPUT_FMT,
                   r.cmd, r.out, r.err);
    cr_expect_eq(count_lines(r.err), 1, "`%s`: one line on stderr" OUTPUT_FMT, r.cmd, r.out, r.err);
    cr_expect_eq(r.out_len, 0, "`%s` printed on stdout" OUTPUT_FMT, r.cmd, r.out, r.err);
    proc_result_free(&r);
}

PER_STEP_PARAMETERS(problem_too_big_for_the_gpu_exits_2)
ParameterizedTest(cli_param *p, cli, problem_too_big_for_the_gpu_exits_2)
{
    char why[256], st[64];
    if (!gpu_available(why, sizeof why))
        cr_skip_test("no CUDA GPU: %s", why);
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
