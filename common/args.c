/* args.c - parse and validate the command line with getopt_long and strtol/strtof. */
#define _GNU_SOURCE
#include "args.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

/* A whole, positive int: no sign games, no junk, no overflow. */
static int parse_positive_int(const char *s, const char *what, int *out, char *err, size_t err_len)
{
    if (*s == '\0')
        return fail(err, err_len, "%s is empty: expected a positive integer", what);
    if (isspace((unsigned char)*s))
        return fail(err, err_len, "%s '%s' starts with white space", what, s);
    errno = 0;
    char *end = NULL;
    long long v = strtoll(s, &end, 10);
    if (end == s)
        return fail(err, err_len, "%s '%s' is not a number", what, s);
    if (*end != '\0')
        return fail(err, err_len, "%s '%s' has trailing characters '%s'", what, s, end);
    if (errno == ERANGE || v > INT_MAX)
        return fail(err, err_len, "%s '%s' is too large (the largest is %d)", what, s, INT_MAX);
    if (v <= 0)
        return fail(err, err_len, "%s '%s' must be at least 1", what, s);
    *out = (int)v;
    return 0;
}

static int parse_nonnegative_int(const char *s, const char *what, int *out, char *err, size_t err_len)
{
    if (*s != '\0' && strspn(s, "0") == strlen(s)) {
        *out = 0;
        return 0;
    }
    if (*s == '-')
        return fail(err, err_len, "%s '%s' must be 0 or more", what, s);
    return parse_positive_int(s, what, out, err, err_len);
}

static int parse_seed(const char *s, unsigned long long *out, char *err, size_t err_len)
{
    if (*s == '\0')
        return fail(err, err_len, "--seed is empty: expected a non-negative integer");
    if (!isdigit((unsigned char)*s))
        return fail(err, err_len, "--seed '%s' must be a non-negative integer", s);
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return fail(err, err_len, "--seed '%s' is not a number", s);
    if (*end != '\0')
        return fail(err, err_len, "--seed '%s' has trailing characters '%s'", s, end);
    if (errno == ERANGE)
        return fail(err, err_len, "--seed '%s' is too large", s);
    *out = v;
    return 0;
}

/* A finite float in the range of FP32. */
static int parse_float(const char *s, const char *what, float *out, char *err, size_t err_len)
{
    if (*s == '\0')
        return fail(err, err_len, "%s is empty: expected a number", what);
    if (isspace((unsigned char)*s))
        return fail(err, err_len, "%s '%s' starts with white space", what, s);
    errno = 0;
    char *end = NULL;
    float v = strtof(s, &end);
    if (end == s)
        return fail(err, err_len, "%s '%s' is not a number", what, s);
    if (*end != '\0')
        return fail(err, err_len, "%s '%s' has trailing characters '%s'", what, s, end);
    if (!isfinite(v) || (errno == ERANGE && fabsf(v) > 1.0f))
        return fail(err, err_len, "%s '%s' is not a finite FP32 number", what, s);
    *out = v;
    return 0;
}

enum { OPT_REPS = 1000, OPT_WARMUP, OPT_SEED, OPT_ALPHA, OPT_BETA, OPT_NO_CHECK,
       OPT_CSV, OPT_CSV_HEADER, OPT_STAGES, OPT_INPUTS, OPT_HELP };

void print_usage(void *out, const char *prog, const step_info *step)
{
    FILE *f = (FILE *)out;
    fprintf(f, "usage: %s M [N K] [--reps N] [--warmup MS] [--seed S] [--alpha A] [--beta B]\n"
               "       %*s [--inputs random|integers] [--no-check] [--csv] [--csv-header]%s [--help]\n",
            prog, (int)strlen(prog), "", step->max_stages > 0 ? " [--stages S]" : "");
}

static void print_help(const char *prog, const step_info *step)
{
    printf("%s: %s\n\n", step->name, step->idea);
    print_usage(stdout, prog, step);
    printf("\nComputes C = alpha*A*B + beta*C in FP32 (row-major; A is MxK, B is KxN, C is MxN),\n"
           "checks every element against cuBLAS (strict FP32) and times the step against cuBLAS.\n"
           "With one size, N = K = M.\n\n"
           "  --reps N        timed launches of the step and of cuBLAS each (default %d)\n"
           "  --warmup MS     warm-up time in milliseconds before timing (default %d)\n"
           "  --seed S        seed of the input generator (default %llu)\n"
           "  --alpha A       (default 1)\n"
           "  --beta B        (default 0; C is then NaN on entry and must not be read)\n"
           "  --inputs KIND   random: values in [-1, 1) (default); integers: values in\n"
           "                  {-2..2}, exact in FP32, so the check demands equality\n"
           "  --no-check      skip the element-wise check\n"
           "  --csv           print one CSV row instead of the report\n"
           "  --csv-header    print the CSV header line first (implies --csv)\n",
           DEFAULT_REPS, DEFAULT_WARMUP_MS, DEFAULT_SEED);
    if (step->max_stages > 0)
        printf("  --stages S      shared-memory pipeline stages, 1..%d (default %d)\n",
               step->max_stages, step->default_stages);
    printf("  --help          this text\n\n"
           "Exit codes: 0 pass, 1 wrong result, 2 usage error, 3 CUDA or cuBLAS failure.\n");
}

int parse_args(int argc, char **argv, const step_info *step, run_config *cfg,
               char *err, size_t err_len)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->reps = DEFAULT_REPS;
    cfg->warmup_ms = DEFAULT_WARMUP_MS;
    cfg->seed = DEFAULT_SEED;
    cfg->alpha = 1.0f;
    cfg->beta = 0.0f;
    cfg->check = 1;
    cfg->stages = step->max_stages > 0 ? step->default_stages : 0;
    err[0] = '\0';

    static const struct option options[] = {
        {"reps", required_argument, NULL, OPT_REPS},
        {"warmup", required_argument, NULL, OPT_WARMUP},
        {"seed", required_argument, NULL, OPT_SEED},
        {"alpha", required_argument, NULL, OPT_ALPHA},
        {"beta", required_argument, NULL, OPT_BETA},
        {"inputs", required_argument, NULL, OPT_INPUTS},
        {"no-check", no_argument, NULL, OPT_NO_CHECK},
        {"csv", no_argument, NULL, OPT_CSV},
        {"csv-header", no_argument, NULL, OPT_CSV_HEADER},
        {"stages", required_argument, NULL, OPT_STAGES},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };

    /* The leading '-' hands sizes to us in order, as "option 1", so sizes and options
     * may come in any order; the ':' reports a missing value as ':' rather than '?'. */
    optind = 0;   /* full re-initialisation, so that tests can call us repeatedly */
    opterr = 0;   /* we print our own messages */
    int sizes[3];
    int n_sizes = 0;
    const char *size_names[3] = {"M", "N", "K"};
    int rc;
    for (;;) {
        int prev = optind ? optind : 1;   /* the argument getopt is about to read */
        int c = getopt_long(argc, argv, "-:", options, NULL);
        if (c == -1)
            break;
        const char *arg = optarg;
        switch (c) {
        case 1:
            if (n_sizes == 3)
                return fail(err, err_len, "too many sizes: '%s' (give M, or M N K)", arg);
            if ((rc = parse_positive_int(arg, size_names[n_sizes], &sizes[n_sizes], err, err_len)))
                return rc;
            n_sizes++;
            break;
        case OPT_REPS:
            if ((rc = parse_positive_int(arg, "--reps", &cfg->reps, err, err_len)))
                return rc;
            break;
        case OPT_WARMUP:
            if ((rc = parse_nonnegative_int(arg, "--warmup", &cfg->warmup_ms, err, err_len)))
                return rc;
            break;
        case OPT_SEED:
            if ((rc = parse_seed(arg, &cfg->seed, err, err_len)))
                return rc;
            break;
        case OPT_ALPHA:
            if ((rc = parse_float(arg, "--alpha", &cfg->alpha, err, err_len)))
                return rc;
            break;
        case OPT_BETA:
            if ((rc = parse_float(arg, "--beta", &cfg->beta, err, err_len)))
                return rc;
            break;
        case OPT_INPUTS:
            if (strcmp(arg, "random") == 0)
                cfg->inputs = INPUTS_RANDOM;
            else if (strcmp(arg, "integers") == 0)
                cfg->inputs = INPUTS_INTEGERS;
            else
                return fail(err, err_len, "--inputs '%s' is not one of: random, integers", arg);
            break;
        case OPT_NO_CHECK:
            cfg->check = 0;
            break;
        case OPT_CSV:
            cfg->csv = 1;
            break;
        case OPT_CSV_HEADER:
            cfg->csv = 1;
            cfg->csv_header = 1;
            break;
        case OPT_STAGES:
            if (step->max_stages <= 0)
                return fail(err, err_len, "unknown option '--stages' (%s has no pipeline stages)", step->name);
            if ((rc = parse_positive_int(arg, "--stages", &cfg->stages, err, err_len)))
                return rc;
            if (cfg->stages > step->max_stages)
                return fail(err, err_len, "--stages '%s' is out of range (1..%d)", arg, step->max_stages);
            break;
        case OPT_HELP:
            cfg->help = 1;
            break;
        case ':':
            return fail(err, err_len, "option '%s' needs a value", argv[prev]);
        case '?':
        default:
            if (argv[prev][0] == '-' && argv[prev][1] >= '0' && argv[prev][1] <= '9')
                return fail(err, err_len, "%s '%s' must be at least 1",
                            n_sizes < 3 ? size_names[n_sizes] : "size", argv[prev]);
            if (optopt)
                return fail(err, err_len, "unknown option '-%c'", optopt);
            return fail(err, err_len, "unknown option '%s'", argv[prev]);
        }
    }
    if (cfg->help)
        return 0;
    if (n_sizes == 0)
        return fail(err, err_len, "missing the matrix size M");
    if (n_sizes == 2)
        return fail(err, err_len, "two sizes given ('%d %d'): give M, or M N K", sizes[0], sizes[1]);
    cfg->m = sizes[0];
    cfg->n = n_sizes == 3 ? sizes[1] : sizes[0];
    cfg->k = n_sizes == 3 ? sizes[2] : sizes[0];
    return 0;
}

/* Called from harness.c for --help, so that the help text lives next to the options. */
void args_print_help(const char *prog, const step_info *step)
{
    print_help(prog, step);
}
