/* args.c - parse and validate the command line with getopt_long and strtol/strtof. */
#define _GNU_SOURCE
#include "args.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GIT_COMMIT
#define GIT_COMMIT "unknown"
#endif

const char *build_commit(void)
{
    return GIT_COMMIT[0] ? GIT_COMMIT : "unknown";
}

static int fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

/* The value as a message quotes it: 'abc', or for a long one its start and its length,
 * so that the reason after it always fits on the line. */
static const char *quote(char *q, size_t len, const char *s)
{
    size_t n = strlen(s);
    if (n <= 32)
        snprintf(q, len, "'%s'", s);
    else
        snprintf(q, len, "'%.24s...' (%zu characters)", s, n);
    return q;
}

/* A whole number in min..max, written in decimal with an optional '+' (the one sign
 * policy for every integer option and size); no white space, no junk. `why_max` says
 * where the bound comes from. Every value outside the range gets the one wording
 * "WHAT 'V' is out of range (MIN..MAX...)". */
static int parse_whole(const char *s, const char *what, unsigned long long min, unsigned long long max,
                       const char *why_max, unsigned long long *out, char *err, size_t err_len)
{
    char q[80];
    quote(q, sizeof q, s);
    if (*s == '\0')
        return fail(err, err_len, "%s is empty: expected a whole number", what);
    if (isspace((unsigned char)*s))
        return fail(err, err_len, "%s %s starts with white space", what, q);
    const char *p = s + (*s == '+');
    if (*s == '-' && isdigit((unsigned char)s[1]))
        return fail(err, err_len, "%s %s is out of range (%llu..%llu%s)", what, q, min, max, why_max);
    if (!isdigit((unsigned char)*p))
        return fail(err, err_len, "%s %s is not a number", what, q);
    unsigned long long v = 0;
    int too_large = 0;
    for (; isdigit((unsigned char)*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (ULLONG_MAX - d) / 10)
            too_large = 1;
        else
            v = v * 10 + d;
    }
    if (*p != '\0') {
        char junk[80];
        return fail(err, err_len, "%s %s has trailing characters %s", what, q, quote(junk, sizeof junk, p));
    }
    if (too_large || v > max || v < min)
        return fail(err, err_len, "%s %s is out of range (%llu..%llu%s)", what, q, min, max, why_max);
    *out = v;
    return 0;
}

static int parse_int(const char *s, const char *what, int min, int max, const char *why_max, int *out,
                     char *err, size_t err_len)
{
    unsigned long long v;
    int rc = parse_whole(s, what, (unsigned long long)min, (unsigned long long)max, why_max, &v, err, err_len);
    if (rc == 0)
        *out = (int)v;
    return rc;
}

/* Is any digit of the significand (the part before the exponent) nonzero? */
static int nonzero_significand(const char *s)
{
    const char *p = s + strspn(s, "+-");
    int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    if (hex)
        p += 2;
    for (; *p && !strchr(hex ? "pP" : "eE", *p); p++)
        if (hex ? isxdigit((unsigned char)*p) && *p != '0' : *p >= '1' && *p <= '9')
            return 1;
    return 0;
}

/* A finite, normal (or zero) FP32 number: a value that overflows FP32 or that would
 * round to a subnormal or to zero is refused rather than changed silently. */
static int parse_float(const char *s, const char *what, float *out, char *err, size_t err_len)
{
    char q[80];
    quote(q, sizeof q, s);
    if (*s == '\0')
        return fail(err, err_len, "%s is empty: expected a number", what);
    if (isspace((unsigned char)*s))
        return fail(err, err_len, "%s %s starts with white space", what, q);
    errno = 0;
    char *end = NULL;
    float v = strtof(s, &end);
    if (end == s)
        return fail(err, err_len, "%s %s is not a number", what, q);
    if (*end != '\0') {
        char junk[80];
        return fail(err, err_len, "%s %s has trailing characters %s", what, q, quote(junk, sizeof junk, end));
    }
    if (!isfinite(v))
        return fail(err, err_len, "%s %s is not a finite FP32 number (the largest is %g)", what, q,
                    (double)FLT_MAX);
    if ((v != 0.0f && fabsf(v) < FLT_MIN) || (v == 0.0f && nonzero_significand(s)))
        return fail(err, err_len, "%s %s underflows FP32 (the smallest normal magnitude is %g): give 0 or a larger value",
                    what, q, (double)FLT_MIN);
    *out = v;
    return 0;
}

/* The next of M, N, K. */
static int parse_size(const char *s, int sizes[3], int *n_sizes, char *err, size_t err_len)
{
    static const char *const names[3] = {"M", "N", "K"};
    if (*n_sizes == 3) {
        char q[80];
        return fail(err, err_len, "too many sizes: %s (give M, or M N K)", quote(q, sizeof q, s));
    }
    int rc = parse_int(s, names[*n_sizes], 1, MAX_SIZE,
                       " = 2^30, so that no step's 32-bit index arithmetic can overflow", &sizes[*n_sizes],
                       err, err_len);
    if (rc == 0)
        (*n_sizes)++;
    return rc;
}

enum { OPT_REPS = 1000, OPT_WARMUP, OPT_SEED, OPT_ALPHA, OPT_BETA, OPT_NO_CHECK,
       OPT_CSV, OPT_CSV_HEADER, OPT_STAGES, OPT_INPUTS, OPT_DESCRIBE, OPT_HELP, OPT_PROGRAM };

/* The number of the program's own options. */
static int option_count(const step_info *step)
{
    int n = 0;
    while (step->options && step->options[n].name)
        n++;
    return n;
}

/* "yes, no" from a NULL-terminated list of words. */
static const char *word_list(char *buf, size_t len, const char *const *words, const char *sep)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; words[i] && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? sep : "", words[i]);
    return buf;
}

void print_usage(FILE *out, const char *prog, const step_info *step)
{
    fprintf(out, "usage: %s M [N K] [--reps N] [--warmup MS] [--seed S] [--alpha A] [--beta B]\n"
               "       %*s [--inputs random|integers|nonfinite] [--no-check] [--csv] [--csv-header]%s [--describe] [--help]\n",
            prog, (int)strlen(prog), "", step->max_stages > 0 ? " [--stages S]" : "");
    if (option_count(step) > 0) {
        fprintf(out, "       %*s", (int)strlen(prog), "");
        for (int i = 0; i < option_count(step); i++)
            fprintf(out, " [--%s %s]", step->options[i].name, step->options[i].value);
        fprintf(out, "\n");
    }
    fprintf(out, "       %*s [--then M [N K] [options] ...]\n", (int)strlen(prog), "");
}

/* "  --plan NAME     run ...": the option and its value, then its help text, each line of it
 * in the column where the harness's own options' texts start. */
static void print_option_help(FILE *out, const program_option *o)
{
    int width = fprintf(out, "  --%s %s", o->name, o->value);
    fprintf(out, "%*s", width < 18 ? 18 - width : 1, "");
    for (const char *line = o->help; *line;) {
        int n = (int)strcspn(line, "\n");
        fprintf(out, "%.*s\n", n, line);
        line += n + (line[n] == '\n');
        if (*line)
            fprintf(out, "%18s", "");
    }
    char words[256];
    if (o->choices && !strchr(o->value, '|'))   /* "PART": the words it stands for */
        fprintf(out, "%18sone of: %s\n", "", word_list(words, sizeof words, o->choices, ", "));
}

void print_help(FILE *out, const char *prog, const step_info *step)
{
    fprintf(out, "%s: %s\n\n", step->name, step->idea);
    print_usage(out, prog, step);
    fprintf(out, "\nComputes C = alpha*A*B + beta*C in FP32 (row-major; A is MxK, B is KxN, C is MxN),\n"
           "checks every element against cuBLAS (strict FP32) and times the step against cuBLAS.\n"
           "With one size, N = K = M. Each size is 1..%d (2^30); after \"--\" every argument\n"
           "is a size. Whole numbers may carry a '+', never a '-'. A long option may be\n"
           "shortened to any prefix that names it alone (--rep 5), and takes its value after\n"
           "a space or an '=' (--reps=5). -h and --help, anywhere, print this and exit 0.\n\n"
           "  --reps N        timed launches of the step and of cuBLAS each, 1..%d (default %d)\n"
           "  --warmup MS     warm-up time in milliseconds before timing, 0..%d (default %d)\n"
           "  --seed S        seed of the input generator (default %llu)\n"
           "  --alpha A       a finite FP32 number, 0 or normal (default 1)\n"
           "  --beta B        likewise (default 0; C is then NaN on entry and must not be read)\n"
           "  --inputs KIND   random: values in [-1, 1) (default); integers: values in\n"
           "                  {-2..2}, exact in FP32, so the check demands equality;\n"
           "                  nonfinite: random, with one NaN in A and one +Inf in B, so a\n"
           "                  row of C must be NaN and a column non-finite, as in cuBLAS\n"
           "  --no-check      skip the element-wise check\n"
           "  --csv           print one CSV row instead of the report\n"
           "  --csv-header    print the CSV header line first (implies --csv)\n",
           MAX_SIZE, MAX_REPS, DEFAULT_REPS, MAX_WARMUP_MS, DEFAULT_WARMUP_MS, DEFAULT_SEED);
    if (step->max_stages > 0)
        fprintf(out, "  --stages S      shared-memory pipeline stages, 1..%d (default %d)\n",
               step->max_stages, step->default_stages);
    for (int i = 0; i < option_count(step); i++)
        print_option_help(out, &step->options[i]);
    fprintf(out, "  --then ...      another problem after this one, with sizes and options of its\n"
                 "                  own (none carry over), run in the same process as a program\n"
                 "                  calls a library: what a launch keeps meets the next one;\n"
                 "                  each gets its report, and a wrong one makes the exit code 1\n"
                 "  --describe      print one line of key=value words for tools (name, max_stages,\n"
                 "                  default_stages, kernel_choice, options, tiles, commit, shapes,\n"
                 "                  and what the figures draw) and exit, touching no GPU\n"
                 "  --help, -h      this text\n\n"
           "Exit codes: 0 pass, 1 wrong result, 2 usage error, 3 CUDA or cuBLAS failure.\n");
}

/* A value of one of the program's own options: one of its choices, or one its check passes. */
static int parse_own(const program_option *o, const char *arg, char *err, size_t err_len)
{
    char q[80], why[256] = "";
    if (strlen(arg) > MAX_OPTION_VALUE)
        return fail(err, err_len, "--%s %s is longer than %d characters", o->name, quote(q, sizeof q, arg),
                    MAX_OPTION_VALUE);
    if (o->choices) {
        int i = 0;
        while (o->choices[i] && strcmp(o->choices[i], arg) != 0)
            i++;
        if (!o->choices[i])
            return fail(err, err_len, "--%s %s is not one of: %s", o->name, quote(q, sizeof q, arg),
                        word_list(why, sizeof why, o->choices, ", "));
    }
    if (o->check && o->check(arg, why, sizeof why))
        return fail(err, err_len, "--%s %s %s", o->name, quote(q, sizeof q, arg), why);
    return 0;
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

    /* -h or --help anywhere before "--" wins over everything else on the line: whoever
     * asks for help gets it, whatever else they typed. */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cfg->help = 1;
            return 0;
        }

    struct option options[OPT_HELP - OPT_REPS + 1 + MAX_PROGRAM_OPTIONS + 1] = {
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
        {"describe", no_argument, NULL, OPT_DESCRIBE},
        {"help", no_argument, NULL, OPT_HELP},
    };
    /* The program's own options after the harness's, each with its number in step->options */
    int own = OPT_HELP - OPT_REPS + 1, n_own = option_count(step);
    if (n_own > MAX_PROGRAM_OPTIONS)
        return fail(err, err_len, "%s declares %d options of its own, more than %d", step->name, n_own,
                    MAX_PROGRAM_OPTIONS);
    for (int i = 0; i < n_own; i++)
        options[own + i] = (struct option){step->options[i].name, required_argument, NULL, OPT_PROGRAM + i};
    options[own + n_own] = (struct option){NULL, 0, NULL, 0};
    const char *values[MAX_PROGRAM_OPTIONS] = {NULL};

    /* The leading '-' hands sizes to us in order, as "option 1", so sizes and options
     * may come in any order; the ':' reports a missing value as ':' rather than '?'. */
    optind = 0;   /* full re-initialisation, so that tests can call us repeatedly */
    opterr = 0;   /* we print our own messages */
    int sizes[3];
    int n_sizes = 0;
    int rc;
    for (;;) {
        int prev = optind ? optind : 1;   /* the argument getopt is about to read */
        int c = getopt_long(argc, argv, "-:", options, NULL);
        if (c == -1)
            break;
        const char *arg = optarg;
        switch (c) {
        case 1:
            if ((rc = parse_size(arg, sizes, &n_sizes, err, err_len)))
                return rc;
            break;
        case OPT_REPS:
            if ((rc = parse_int(arg, "--reps", 1, MAX_REPS, "", &cfg->reps, err, err_len)))
                return rc;
            break;
        case OPT_WARMUP:
            if ((rc = parse_int(arg, "--warmup", 0, MAX_WARMUP_MS, " ms, one minute", &cfg->warmup_ms, err,
                                err_len)))
                return rc;
            break;
        case OPT_SEED:
            if ((rc = parse_whole(arg, "--seed", 0, ULLONG_MAX, "", &cfg->seed, err, err_len)))
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
            else if (strcmp(arg, "nonfinite") == 0)
                cfg->inputs = INPUTS_NONFINITE;
            else {
                char q[80];
                return fail(err, err_len, "--inputs %s is not one of: random, integers, nonfinite",
                            quote(q, sizeof q, arg));
            }
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
            if ((rc = parse_int(arg, "--stages", 1, step->max_stages, "", &cfg->stages, err, err_len)))
                return rc;
            break;
        case OPT_DESCRIBE:
            cfg->describe = 1;
            break;
        case OPT_HELP:
            cfg->help = 1;
            break;
        case ':':
            return fail(err, err_len, "option '%s' needs a value", argv[prev]);
        default:   /* the program's own options; getopt_long gives '?' for one it does not know */
            if (c >= OPT_PROGRAM && c < OPT_PROGRAM + n_own) {
                if ((rc = parse_own(&step->options[c - OPT_PROGRAM], arg, err, err_len)))
                    return rc;
                values[c - OPT_PROGRAM] = arg;
                break;
            }
            /* fall through */
        case '?':
            if (argv[prev][0] == '-' && argv[prev][1] >= '0' && argv[prev][1] <= '9')
                return parse_size(argv[prev], sizes, &n_sizes, err, err_len);   /* says why */
            if (optopt)
                return fail(err, err_len, "unknown option '-%c'", optopt);
            char q[80];
            return fail(err, err_len, "unknown option %s", quote(q, sizeof q, argv[prev]));
        }
    }
    /* After "--" every argument is a size, as POSIX has it: `./step2 -- 64` runs. */
    for (int i = optind; i < argc; i++)
        if ((rc = parse_size(argv[i], sizes, &n_sizes, err, err_len))) {
            size_t used = strlen(err);
            snprintf(err + used, err_len - used, " (after '--' every argument is a size)");
            return rc;
        }
    for (int i = 0, given = 0; i < n_own; i++)   /* in the program's order, whatever the command line's */
        if (values[i]) {
            snprintf(cfg->option_text[given], sizeof cfg->option_text[given], "%s", values[i]);
            cfg->options[given] = (given_option){step->options[i].name, cfg->option_text[given]};
            given++;
        }
    if (cfg->help || cfg->describe)
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

const char *harness_option(const gemm_args *g, const char *name)
{
    for (const given_option *o = g->options; o && o->name; o++)
        if (strcmp(o->name, name) == 0)
            return o->value;
    return NULL;
}

int harness_describe_shapes(const tile_option *tiles, int n, char *buf, size_t len)
{
    int used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        const tile_option *t = &tiles[i];
        int w = snprintf(buf + used, len - (size_t)used, "%s%dx%dx%d:%dx%d:%d:%d", i ? "," : "", t->bm, t->bn, t->bk,
                         t->tm, t->tn, t->piece, t->a_pad);
        if (w < 0 || (size_t)(used + w) >= len)
            return used + (w < 0 ? 0 : w);
        used += w;
    }
    return used;
}

/* --describe: what the tools need to know of the step, as one line of key=value words. */
void args_print_describe(const step_info *step)
{
    char names[256] = "", tiles[160] = "", shapes[160] = "", more[1024] = "";
    for (int i = 0; i < option_count(step); i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? "," : "", step->options[i].name);
    /* tiles=BMxBN:threads:min_blocks:smem:smem_stage,... (tile_option), for steps 3 to 5 */
    for (int i = 0; step->tiles && i < 2; i++) {
        const tile_option *t = &step->tiles[i];
        size_t used = strlen(tiles);
        snprintf(tiles + used, sizeof tiles - used, "%s%dx%d:%d:%d:%zu:%zu", i ? "," : "", t->bm, t->bn, t->threads,
                 t->min_blocks, t->smem, t->smem_stage);
    }
    /* shapes=BMxBNxBK:TMxTN:piece:a_pad,... how each tile is cut (make figures draws them) */
    if (step->tiles || step->tile)
        harness_describe_shapes(step->tiles ? step->tiles : step->tile, step->tiles ? 2 : 1, shapes, sizeof shapes);
    if (step->describe) {
        more[0] = ' ';
        step->describe(more + 1, sizeof more - 1);
    }
    printf("name=%s max_stages=%d default_stages=%d kernel_choice=%d options=%s tiles=%s commit=%s shapes=%s%s\n",
           step->name, step->max_stages > 0 ? step->max_stages : 0, step->max_stages > 0 ? step->default_stages : 0,
           step->kernel != NULL || step->tiles != NULL, names, tiles, build_commit(), shapes, more);
}
