/* args.h - the command line of every ./stepN, parsed and validated before any CUDA call. */
#ifndef ARGS_H
#define ARGS_H

#include <stddef.h>
#include <stdio.h>

#include "harness.h"

/* random: values in [-1, 1); integers: {-2..2}, exact in FP32; nonfinite: random, with
 * one NaN in A and one +Inf in B, which must propagate as they do in cuBLAS. */
typedef enum { INPUTS_RANDOM = 0, INPUTS_INTEGERS = 1, INPUTS_NONFINITE = 2 } input_kind;

/* The longest value of a program's own option (a longer one is refused). */
enum { MAX_OPTION_VALUE = 63 };

typedef struct {
    int m, n, k;
    int reps;                  /* timed launches of the step and of cuBLAS each */
    int warmup_ms;             /* warm-up time before timing */
    unsigned long long seed;   /* seed of the input generator */
    float alpha, beta;
    input_kind inputs;
    int check;                 /* 0 with --no-check */
    int csv;                   /* print one CSV row instead of the report */
    int csv_header;            /* print the CSV header line first */
    int stages;                /* --stages, for steps that have it; else 0 */
    /* The program's own options given (step_info.options), in its order, up to a NULL name;
     * their values are copies, in option_text */
    given_option options[MAX_PROGRAM_OPTIONS + 1];
    char option_text[MAX_PROGRAM_OPTIONS][MAX_OPTION_VALUE + 1];
    int help;                  /* --help was given */
    int describe;              /* --describe was given */
} run_config;

enum { DEFAULT_REPS = 20, DEFAULT_WARMUP_MS = 200 };

/* The documented bounds (--help, common/README.md). A size is at most 2^30, so that every index a
 * step computes in 32-bit int arithmetic (a size plus a tile, a k-tile count times its
 * depth) stays far below INT_MAX; --reps bounds the events and timings the harness keeps;
 * --warmup bounds the time spent before timing. */
enum { MAX_SIZE = 1 << 30, MAX_REPS = 10000, MAX_WARMUP_MS = 60000 };
#define DEFAULT_SEED 2024ULL

/* Parses argv into cfg. Returns 0, or EXIT_USAGE with one line in err that
 * names the bad value. Touches no CUDA state, so it runs anywhere. */
int parse_args(int argc, char **argv, const step_info *step, run_config *cfg,
               char *err, size_t err_len);

/* Prints the usage lines for this step: after a usage error on stderr, in --help on stdout. */
void print_usage(FILE *out, const char *prog, const step_info *step);

/* Prints the --help text, which lives here next to the options it describes. */
void print_help(FILE *out, const char *prog, const step_info *step);

/* Prints the --describe line to stdout: "name=step5_pipeline max_stages=4 default_stages=2
 * kernel_choice=1 options=", for the tools (make sweep, make ablation) that need the stage
 * range and the program's own options (options=plan). */
void args_print_describe(const step_info *step);

/* The commit the binary was built from (GIT_COMMIT at build time), or "unknown": in the
 * --describe line, the report and the CSV row. */
const char *build_commit(void);

#endif
