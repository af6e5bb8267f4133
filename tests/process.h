/* process.h - run a ./stepN as a child process and capture what it says; find the built
 * steps, as test parameters. The one place the suites that run binaries take these from. */
#ifndef TESTS_PROCESS_H
#define TESTS_PROCESS_H

#include <stddef.h>
#include <stdio.h>

/* A child gets this long before it is killed (SIGALRM), so that a hung step fails its
 * test instead of hanging the suite. */
enum { PROCESS_TIMEOUT_S = 300 };

typedef struct {
    int status;        /* the exit code, or -signal when the child was killed */
    char *out;         /* everything it wrote on stdout, NUL-terminated (never NULL after a run) */
    size_t out_len;
    char *err;         /* everything it wrote on stderr, NUL-terminated */
    size_t err_len;
    char cmd[1024];    /* the command line, shell-quoted, for failure messages */
} proc_result;

/* Shown in failure messages after a command: what the child printed, cut to a readable length. */
#define OUTPUT_FMT "\n--- stdout ---\n%.3000s\n--- stderr ---\n%.3000s"

/* Writes argv (NULL-terminated) into buf as one command line, each argument in single
 * quotes where the shell would need them, so a failure message can be pasted and rerun. */
void format_command(char *buf, size_t len, const char *const argv[]);

/* Runs argv[0] (a path relative to the repository root, e.g. "./step0") with the
 * NULL-terminated argv, stdin from /dev/null and stdout and stderr captured apart
 * (through unlinked temporary files, so any amount of output is fine), waits for it
 * and returns r->status. Returns -1000 when the child could not be started at all. */
int run_process(const char *const argv[], proc_result *r);

/* The whole content of f from its start, NUL-terminated, its length in *len; never NULL
 * (aborts when memory runs out). */
char *read_stream(FILE *f, size_t *len);

/* Frees what run_process allocated. */
void proc_result_free(proc_result *r);

/* The child's status in words: "exit 2", "killed by signal 11 (Segmentation fault)",
 * "timed out after 300 s". */
const char *describe_status(int status, char *buf, size_t len);

/* 1 when CUDA sees at least one device; else 0, with the reason in why (no driver,
 * an old driver, no GPU: the harness's own words). */
int gpu_available(char *why, size_t len);

/* 1 when this build leaves `step` (e.g. "./step5") out, with the reason in why, for a skip or a
 * log line: steps 5 and 6 (and ./further, built on step 6) copy with cp.async, so a build for
 * an ARCH older than sm_80 (BUILT_SM) holds steps 0-4 only. 0 for a step the build must hold: where
 * it is missing, a test fails. */
int step_left_out(const char *step, char *why, size_t len);

/* The programs that are built: every ./stepN, N in 0..9, that exists and is executable, in
 * order, then ./further where it is. Returns how many were written to paths (at most max). */
enum { MAX_STEPS = 11, STEP_PATH_LEN = 24 };
int built_steps(char paths[][STEP_PATH_LEN], int max);

/* A built step as a test parameter, and which case of the test's own table it runs
 * (for tests with several cases a step; 0 for the others). */
typedef struct {
    char step[STEP_PATH_LEN];
    int max_stages;   /* as step_max_stages() gives it */
    int item;
} step_param;

/* Every built step, with its stage count, in order; returns how many (at most max). Runs
 * in the test runner, in a test's parameter function, before any test. */
int list_steps(step_param *out, int max);

/* The parameter function of a test that runs once on every built step. */
#define PER_STEP_PARAMETERS(suite, name)                               \
    ParameterizedTestParameters(suite, name)                           \
    {                                                                  \
        static step_param params[MAX_STEPS];                           \
        int n = list_steps(params, MAX_STEPS);                         \
        return cr_make_param_array(step_param, params, (size_t)n);     \
    }

/* The step's pipeline stages, read from its --describe line ("... max_stages=N ..."):
 * N, or 0 when the step has no --stages option, or -1 when --describe failed or its
 * line has no max_stages. */
int step_max_stages(const char *path);

/* Where the first line of s ends (a pointer to its '\n' or to the final NUL). */
const char *line_end(const char *s);

/* The number of lines in s (a final line without '\n' counts). */
int count_lines(const char *s);

#endif
