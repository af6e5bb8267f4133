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
       OPT_CSV, OPT_CSV_HEADER, OPT_STAGES, OPT_TRACK, OPT_UNROLL, OPT_PLAN, OPT_INPUTS, OPT_DESCRIBE, OPT_HELP };

int harness_track_parts(const step_info *step)
{
    int n = 0;
    while (step->track && step->track[n])
        n++;
    return n;
}

/* "core, warp-tiles, split-k" from the track's names. */
static const char *track_list(char *buf, size_t len, const step_info *step, const char *sep)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < harness_track_parts(step) && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? sep : "", step->track[i]);
    return buf;
}

void print_usage(FILE *out, const char *prog, const step_info *step)
{
    fprintf(out, "usage: %s M [N K] [--reps N] [--warmup MS] [--seed S] [--alpha A] [--beta B]\n"
               "       %*s [--inputs random|integers|nonfinite] [--no-check] [--csv] [--csv-header]%s [--describe] [--help]\n",
            prog, (int)strlen(prog), "", step->max_stages > 0 ? " [--stages S]" : "");
    if (step->track)
        fprintf(out, "       %*s [--track PART] [--unroll yes|no] [--plan NAME]\n", (int)strlen(prog), "");
    fprintf(out, "       %*s [--then M [N K] [options] ...]\n", (int)strlen(prog), "");
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
    if (step->track) {
        char parts[256];
        int n = harness_track_parts(step);
        fprintf(out, "  --track PART    run the step's core and its going-further track up to PART,\n"
                     "                  one of: %s (default %s, the\n"
                     "                  whole track); --track %s runs the step's own idea alone\n"
                     "  --unroll yes|no run every pipelined loop with its stages unrolled (yes) or\n"
                     "                  with run-time stage indices (no), instead of each kernel's\n"
                     "                  own choice, to measure what unrolling buys\n"
                     "  --plan NAME     run this candidate of the track's plan instead of the one\n"
                     "                  of least estimated time: TILE (K whole), TILE/splitS (K\n"
                     "                  split over a cluster), TILE/partsP (K in P parts),\n"
                     "                  TILE/runs (the last wave in runs), TILE as 128x128;\n"
                     "                  rows (C of one column), few-cols (N of 2 to 16),\n"
                     "                  few-rows and few-rows/partsP (M of 16 or less), flat\n"
                     "                  (K = 1: C as one array); the kernel line names the\n"
                     "                  runner-up; exit 2 where NAME is none of the candidates\n"
                     "                  for the problem on this GPU\n",
                track_list(parts, sizeof parts, step, ", "), step->track[n - 1], step->track[0]);
    }
    fprintf(out, "  --then ...      another problem after this one, with sizes and options of its\n"
                 "                  own (none carry over), run in the same process as a program\n"
                 "                  calls a library: what a launch keeps meets the next one;\n"
                 "                  each gets its report, and a wrong one makes the exit code 1\n"
                 "  --describe      print one line of key=value words for tools (name, max_stages,\n"
                 "                  default_stages, kernel_choice, track, tiles, commit, shapes,\n"
                 "                  and what the figures draw) and exit, touching no GPU\n"
                 "  --help, -h      this text\n\n"
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
    cfg->track = step->track ? harness_track_parts(step) - 1 : 0;
    cfg->unroll = UNROLL_AS_PLANNED;
    err[0] = '\0';

    /* -h or --help anywhere before "--" wins over everything else on the line: whoever
     * asks for help gets it, whatever else they typed. */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cfg->help = 1;
            return 0;
        }

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
        {"track", required_argument, NULL, OPT_TRACK},
        {"unroll", required_argument, NULL, OPT_UNROLL},
        {"plan", required_argument, NULL, OPT_PLAN},
        {"describe", no_argument, NULL, OPT_DESCRIBE},
        {"help", no_argument, NULL, OPT_HELP},
        {NULL, 0, NULL, 0},
    };

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
        case OPT_TRACK: {
            char q[80], parts[256];
            if (!step->track)
                return fail(err, err_len, "unknown option '--track' (%s has no going-further track)", step->name);
            int i = 0;
            while (step->track[i] && strcmp(step->track[i], arg) != 0)
                i++;
            if (!step->track[i])
                return fail(err, err_len, "--track %s is not a part of %s's track (one of: %s)",
                            quote(q, sizeof q, arg), step->name, track_list(parts, sizeof parts, step, ", "));
            cfg->track = i;
            break;
        }
        case OPT_UNROLL: {
            char q[80];
            if (!step->track)
                return fail(err, err_len, "unknown option '--unroll' (%s has no going-further track)", step->name);
            if (strcmp(arg, "yes") == 0)
                cfg->unroll = UNROLL_YES;
            else if (strcmp(arg, "no") == 0)
                cfg->unroll = UNROLL_NO;
            else
                return fail(err, err_len, "--unroll %s is not one of: yes, no", quote(q, sizeof q, arg));
            break;
        }
        case OPT_PLAN: {
            char q[80];
            int bm, bn, count, used = 0;
            if (!step->track)
                return fail(err, err_len, "unknown option '--plan' (%s has no going-further track)", step->name);
            int tileless = strcmp(arg, "rows") == 0 || strcmp(arg, "few-cols") == 0 || strcmp(arg, "few-rows") == 0 ||
                           strcmp(arg, "flat") == 0;
            int few = strncmp(arg, "few-rows/", 9) == 0;   /* a few rows, K in parts: the kind takes a tile's place */
            if (few)
                used = (int)strlen("few-rows");
            int ok = tileless || (strlen(arg) < sizeof cfg->plan &&
                                  arg[strspn(arg, "0123456789abcdefghijklmnopqrstuvwxyz/-")] == '\0' &&
                                  (few || (sscanf(arg, "%4dx%4d%n", &bm, &bn, &used) == 2 && bm > 0 && bn > 0)));
            const char *tail = arg + used;
            if (ok && !tileless && *tail)
                ok = (!few && strcmp(tail, "/runs") == 0) ||
                     (((!few && sscanf(tail, "/split%4d%n", &count, &used) == 1) ||
                       sscanf(tail, "/parts%4d%n", &count, &used) == 1) && count > 1 && tail[used] == '\0');
            if (!ok)
                return fail(err, err_len, "--plan %s is not a candidate's name (TILE, TILE/splitS, TILE/partsP or "
                            "TILE/runs, TILE as 128x128; rows, few-cols, few-rows, few-rows/partsP, flat)",
                            quote(q, sizeof q, arg));
            snprintf(cfg->plan, sizeof cfg->plan, "%s", arg);
            break;
        }
        case OPT_DESCRIBE:
            cfg->describe = 1;
            break;
        case OPT_HELP:
            cfg->help = 1;
            break;
        case ':':
            return fail(err, err_len, "option '%s' needs a value", argv[prev]);
        case '?':
        default:
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
    char parts[256], tiles[160] = "", shapes[160] = "", more[1024] = "";
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
    printf("name=%s max_stages=%d default_stages=%d kernel_choice=%d track=%s tiles=%s commit=%s shapes=%s%s\n",
           step->name, step->max_stages > 0 ? step->max_stages : 0, step->max_stages > 0 ? step->default_stages : 0,
           step->kernel != NULL || step->tiles != NULL, track_list(parts, sizeof parts, step, ","), tiles, build_commit(), shapes, more);
}
