/* test_args.c - parse_args on every option and both sides of every bound, and every bad
 * input in-process, against its golden message (CPU only). */
#include <criterion/criterion.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "bad_inputs.h"
#include "golden.h"
#include "process.h"

static const step_info PLAIN = {.name = "stepX_plain", .idea = "a step without pipeline stages"};
static const step_info STAGED = {.name = "stepY_staged", .idea = "a step with 1..4 pipeline stages", .max_stages = 4,
                                 .default_stages = 2};
/* A program with options of its own: one of a few words, and one its check reads. */
static const char *const PARTS[] = {"core", "first", "second", NULL};
static int even_length(const char *value, char *why, size_t len)
{
    return strlen(value) % 2 ? snprintf(why, len, "is not of even length") : 0;
}
static const program_option OWN_OPTIONS[] = {
    {.name = "part", .value = "PART", .help = "the part to run", .choices = PARTS},
    {.name = "pair", .value = "WORD", .help = "a word of even length\non two lines", .check = even_length},
    {},
};
static const step_info OWN = {.name = "stepZ_own", .idea = "a program with options of its own", .max_stages = 4,
                              .default_stages = 3, .options = OWN_OPTIONS};

/* parse_args on "./stepX" followed by the arguments in args (NULL-terminated). */
static int parse_list(const step_info *step, run_config *cfg, char *err, size_t err_len,
                      const char *const *args)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = strdup("./stepX");
    for (int i = 0; args[i]; i++) {
        cr_assert_lt(argc, 31, "too many arguments for the test helper");
        argv[argc++] = strdup(args[i]);
    }
    argv[argc] = NULL;
    int rc = parse_args(argc, argv, step, cfg, err, err_len);
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    return rc;
}

#define PARSE(step, cfg, ...)                                                          \
    parse_list((step), (cfg), err, sizeof err, (const char *const[]){__VA_ARGS__, NULL})

/* Parses and demands success. */
#define PARSE_OK(step, cfg, ...)                                                       \
    do {                                                                               \
        int rc_ = PARSE(step, cfg, __VA_ARGS__);                                       \
        cr_assert_eq(rc_, 0, "parse_args(%s) returned %d: %s", #__VA_ARGS__, rc_, err);  \
        cr_assert_str_empty(err, "a successful parse left an error: %s", err);         \
    } while (0)

Test(args, defaults_and_one_size_means_square)
{
    char err[512];
    run_config c;
    PARSE_OK(&PLAIN, &c, "1024");
    cr_expect_eq(c.m, 1024);
    cr_expect_eq(c.n, 1024);
    cr_expect_eq(c.k, 1024);
    cr_expect_eq(c.reps, DEFAULT_REPS);
    cr_expect_eq(c.warmup_ms, DEFAULT_WARMUP_MS);
    cr_expect_eq(c.seed, DEFAULT_SEED);
    cr_expect_eq(c.alpha, 1.0f);
    cr_expect_eq(c.beta, 0.0f);
    cr_expect_eq(c.inputs, INPUTS_RANDOM);
    cr_expect_eq(c.check, 1);
    cr_expect_eq(c.csv, 0);
    cr_expect_eq(c.csv_header, 0);
    cr_expect_eq(c.stages, 0, "a step without stages gets stages = 0");
    cr_expect_eq(c.help, 0);
}

Test(args, three_sizes_are_m_n_k)
{
    char err[512];
    run_config c;
    PARSE_OK(&PLAIN, &c, "7", "13", "5");
    cr_expect_eq(c.m, 7);
    cr_expect_eq(c.n, 13);
    cr_expect_eq(c.k, 5);
}

/* The documented bound: 2^30 is a size in every position (2^30 + 1 is a bad input). */
Test(args, sizes_up_to_two_to_the_thirty)
{
    char err[512];
    run_config c;
    PARSE_OK(&PLAIN, &c, "1073741824", "1", "1");
    cr_expect_eq(c.m, MAX_SIZE);
    PARSE_OK(&PLAIN, &c, "1", "1073741824", "1");
    cr_expect_eq(c.n, MAX_SIZE);
    PARSE_OK(&PLAIN, &c, "1", "1", "1073741824");
    cr_expect_eq(c.k, MAX_SIZE);
    cr_expect_eq(MAX_SIZE, 1073741824);
}

Test(args, one_sign_policy_a_plus_everywhere_a_minus_nowhere)
{
    char err[512];
    run_config c;
    PARSE_OK(&STAGED, &c, "+64", "--seed", "+5", "--reps", "+3", "--warmup", "+0", "--stages", "+2",
             "--alpha", "+1.5");
    cr_expect_eq(c.m, 64);
    cr_expect_eq(c.seed, 5ULL);
    cr_expect_eq(c.reps, 3);
    cr_expect_eq(c.warmup_ms, 0);
    cr_expect_eq(c.stages, 2);
    cr_expect_eq(c.alpha, 1.5f);
}

Test(args, double_dash_ends_the_options)
{
    char err[512];
    run_config c;
    PARSE_OK(&PLAIN, &c, "--", "64");
    cr_expect_eq(c.m, 64, "`-- 64`: the size after -- counts");
    PARSE_OK(&PLAIN, &c, "--reps", "3", "7", "--", "8", "9");
    cr_expect_eq(c.m, 7);
    cr_expect_eq(c.n, 8);
    cr_expect_eq(c.k, 9);
    cr_expect_eq(c.reps, 3);
    cr_expect_eq(PARSE(&PLAIN, &c, "64", "--"), 0, "a -- with nothing after it is harmless");
    cr_expect_eq(c.m, 64);
}

/* The accepted side of each bound; the rejected side (0 and 10001 launches, -1 and 60001
 * ms) is in the bad-input table. */
Test(args, reps_and_warmup_from_their_least_to_their_bounds)
{
    char err[512];
    run_config c;
    PARSE_OK(&PLAIN, &c, "64", "--reps", "10000", "--warmup", "60000");
    cr_expect_eq(c.reps, MAX_REPS);
    cr_expect_eq(c.warmup_ms, MAX_WARMUP_MS);
    PARSE_OK(&PLAIN, &c, "64", "--reps", "1", "--warmup", "0");
    cr_expect_eq(c.reps, 1);
    cr_expect_eq(c.warmup_ms, 0);
}

Test(args, alpha_and_beta_never_change_silently)
{
    char err[512];
    run_config c;
    PARSE_OK(&PLAIN, &c, "64", "--alpha", "1.17549435e-38", "--beta", "-0");
    cr_expect_eq(c.alpha, FLT_MIN, "the smallest normal FP32 number is accepted");
    cr_expect_eq(c.beta, 0.0f);
    PARSE_OK(&PLAIN, &c, "64", "--alpha", "0.0e-99", "--beta", "3.4e38");
    cr_expect_eq(c.alpha, 0.0f, "a zero with a small exponent is still zero, not an underflow");
    cr_expect_eq(c.beta, 3.4e38f);
}

/* A very long bad value is shortened in the message, so the reason always shows. */
Test(args, a_ten_thousand_digit_size_gets_a_short_error_with_its_reason)
{
    char err[512];
    run_config c;
    char *huge = malloc(10001);
    cr_assert_not_null(huge);
    memset(huge, '9', 10000);
    huge[10000] = '\0';
    const char *const args[] = {huge, NULL};
    cr_expect_eq(parse_list(&PLAIN, &c, err, sizeof err, args), EXIT_USAGE);
    cr_expect_str_eq(err, "M '999999999999999999999999...' (10000 characters) is out of range "
                          "(1..1073741824 = 2^30, so that no step's 32-bit index arithmetic can overflow)");
    huge[5] = 'x';
    cr_expect_eq(parse_list(&PLAIN, &c, err, sizeof err, args), EXIT_USAGE);
    cr_expect_str_eq(err, "M '99999x999999999999999999...' (10000 characters) has trailing characters "
                          "'x99999999999999999999999...' (9995 characters)");
    free(huge);
}

Test(args, every_option)
{
    char err[512];
    run_config c;
    PARSE_OK(&PLAIN, &c, "--reps", "5", "--warmup", "50", "--seed", "42", "--alpha", "2.5",
             "--beta", "0.75", "--inputs", "integers", "--no-check", "--csv", "100", "200", "300");
    cr_expect_eq(c.m, 100);
    cr_expect_eq(c.n, 200);
    cr_expect_eq(c.k, 300);
    cr_expect_eq(c.reps, 5);
    cr_expect_eq(c.warmup_ms, 50);
    cr_expect_eq(c.seed, 42ULL);
    cr_expect_eq(c.alpha, 2.5f);
    cr_expect_eq(c.beta, 0.75f);
    cr_expect_eq(c.inputs, INPUTS_INTEGERS);
    cr_expect_eq(c.check, 0);
    cr_expect_eq(c.csv, 1);
    cr_expect_eq(c.csv_header, 0);

    PARSE_OK(&PLAIN, &c, "64", "--inputs", "random");
    cr_expect_eq(c.inputs, INPUTS_RANDOM);
    PARSE_OK(&PLAIN, &c, "64", "--inputs", "nonfinite");
    cr_expect_eq(c.inputs, INPUTS_NONFINITE);
    PARSE_OK(&PLAIN, &c, "64", "--reps=7", "--alpha=-3");
    cr_expect_eq(c.reps, 7, "--reps=7 is the same as --reps 7");
    cr_expect_eq(c.alpha, -3.0f);
}

Test(args, seed_zero_and_the_largest_seed)
{
    char err[512];
    run_config c;
    PARSE_OK(&PLAIN, &c, "64", "--seed", "0");
    cr_expect_eq(c.seed, 0ULL);
    PARSE_OK(&PLAIN, &c, "64", "--seed", "18446744073709551615");
    cr_expect_eq(c.seed, 18446744073709551615ULL);
}

Test(args, negative_alpha_and_beta_as_separate_arguments)
{
    char err[512];
    run_config c;
    PARSE_OK(&PLAIN, &c, "64", "--beta", "-1.5", "--alpha", "-2");
    cr_expect_eq(c.beta, -1.5f, "'--beta' '-1.5' is a value, not an option");
    cr_expect_eq(c.alpha, -2.0f);
    cr_expect_eq(c.m, 64);
    PARSE_OK(&PLAIN, &c, "--beta", "-0.25", "8", "9", "10");
    cr_expect_eq(c.beta, -0.25f);
    cr_expect_eq(c.m, 8);
    cr_expect_eq(c.n, 9);
    cr_expect_eq(c.k, 10);
}

Test(args, csv_header_implies_csv)
{
    char err[512];
    run_config c;
    PARSE_OK(&PLAIN, &c, "64", "--csv-header");
    cr_expect_eq(c.csv, 1);
    cr_expect_eq(c.csv_header, 1);
    PARSE_OK(&PLAIN, &c, "64", "--csv");
    cr_expect_eq(c.csv, 1);
    cr_expect_eq(c.csv_header, 0);
}

Test(args, help_needs_no_size)
{
    char err[512];
    run_config c;
    PARSE_OK(&PLAIN, &c, "--help");
    cr_expect_eq(c.help, 1);
    PARSE_OK(&STAGED, &c, "512", "--help");
    cr_expect_eq(c.help, 1);
}

Test(args, options_before_between_and_after_sizes)
{
    char err[512];
    run_config c;
    PARSE_OK(&PLAIN, &c, "--reps", "3", "1", "--seed", "9", "2", "3", "--alpha", "0.5");
    cr_expect_eq(c.m, 1);
    cr_expect_eq(c.n, 2);
    cr_expect_eq(c.k, 3);
    cr_expect_eq(c.reps, 3);
    cr_expect_eq(c.seed, 9ULL);
    cr_expect_eq(c.alpha, 0.5f);
    PARSE_OK(&PLAIN, &c, "4", "5", "6", "--no-check");
    cr_expect_eq(c.m, 4);
    cr_expect_eq(c.n, 5);
    cr_expect_eq(c.k, 6);
    cr_expect_eq(c.check, 0);
}

Test(args, stages_within_range_on_a_staged_step)
{
    char err[512];
    run_config c;
    PARSE_OK(&STAGED, &c, "64");
    cr_expect_eq(c.stages, 2, "without --stages a staged step gets its default");
    for (int s = 1; s <= 4; s++) {
        char v[8];
        snprintf(v, sizeof v, "%d", s);
        PARSE_OK(&STAGED, &c, "64", "--stages", v);
        cr_expect_eq(c.stages, s);
    }
}

/* A program's own options: each takes one of its choices, or a value its check passes; the
 * harness keeps them in the program's order, whatever the command line's, and the launch finds
 * them by name. A program without them has no such option. */
Test(args, a_programs_own_options)
{
    char err[512];
    run_config c;
    PARSE_OK(&OWN, &c, "64");
    cr_expect_null(c.options[0].name, "no option given, none kept");
    gemm_args g = {.options = c.options};
    cr_expect_null(harness_option(&g, "part"));
    PARSE_OK(&OWN, &c, "--pair", "ab", "64", "--part", "first");
    cr_expect_str_eq(c.options[0].name, "part");
    cr_expect_str_eq(c.options[0].value, "first");
    cr_expect_str_eq(c.options[1].name, "pair");
    cr_expect_str_eq(c.options[1].value, "ab");
    cr_expect_null(c.options[2].name);
    g.options = c.options;
    cr_expect_str_eq(harness_option(&g, "pair"), "ab");
    cr_expect_str_eq(harness_option(&g, "part"), "first");
    cr_expect_null(harness_option(&g, "stages"), "the harness's own options are not the program's");
    PARSE_OK(&OWN, &c, "64", "--pai=ab", "--part", "core", "--part", "second");
    cr_expect_str_eq(c.options[0].value, "second", "the last of an option given twice counts");
    cr_expect_str_eq(c.options[1].value, "ab", "a prefix naming one option alone names it");

    cr_expect_eq(PARSE(&OWN, &c, "64", "--part", "third"), EXIT_USAGE);
    cr_expect_str_eq(err, "--part 'third' is not one of: core, first, second");
    cr_expect_eq(PARSE(&OWN, &c, "64", "--part", ""), EXIT_USAGE);
    char long_word[MAX_OPTION_VALUE + 3];
    memset(long_word, 'a', MAX_OPTION_VALUE + 1);
    long_word[MAX_OPTION_VALUE + 1] = '\0';
    cr_expect_eq(PARSE(&OWN, &c, "64", "--pair", long_word), EXIT_USAGE, "a value is kept in MAX_OPTION_VALUE characters");
    cr_expect(strstr(err, "is longer than 63 characters") != NULL, "%s", err);
    cr_expect_eq(PARSE(&OWN, &c, "64", "--pair", "abc"), EXIT_USAGE);
    cr_expect_str_eq(err, "--pair 'abc' is not of even length");
    cr_expect_eq(PARSE(&OWN, &c, "64", "--pa", "ab"), EXIT_USAGE);
    cr_expect_str_eq(err, "unknown option '--pa'", "a prefix of two options names neither");
    cr_expect_eq(PARSE(&OWN, &c, "64", "--part"), EXIT_USAGE);
    cr_expect_str_eq(err, "option '--part' needs a value");
    cr_expect_eq(PARSE(&STAGED, &c, "64", "--part", "core"), EXIT_USAGE);
    cr_expect_str_eq(err, "unknown option '--part'");
}

/* Its usage line and --help name each of them, the help's lines in the harness's column. */
Test(args, a_programs_own_options_in_its_help)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_not_null(out);
    print_help(out, "./stepZ", &OWN);
    fclose(out);
    cr_expect(strstr(text, "[--part PART] [--pair WORD]\n") != NULL, "%s", text);
    cr_expect(strstr(text, "\n  --part PART     the part to run\n                  one of: core, first, second\n") != NULL,
              "%s", text);
    cr_expect(strstr(text, "\n  --pair WORD     a word of even length\n                  on two lines\n") != NULL,
              "%s", text);
    free(text);
}

/* -h means --help, and either, anywhere before "--", prints the help and exits 0, whatever
 * else is on the line, bad values included. */
Test(args, help_anywhere_wins_and_h_is_help)
{
    char err[512];
    run_config c;
    static const char *const lines[][6] = {
        {"-h", NULL},
        {"--help", "--reps", "0", NULL},
        {"--reps", "0", "--help", NULL},
        {"64", "--stages", "9", "-h", NULL},
        {"--bogus", "--help", NULL},
        {"x", "y", "z", "w", "--help", NULL},
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        cr_expect_eq(parse_list(&STAGED, &c, err, sizeof err, lines[i]), 0, "line %zu: %s", i, err);
        cr_expect_eq(c.help, 1, "line %zu", i);
    }
    /* after "--" it is a size, and not one */
    cr_expect_eq(PARSE(&STAGED, &c, "--", "--help"), EXIT_USAGE);
}

/* Long options may be shortened to a prefix that names one alone, and take a value after
 * '=' (getopt_long's rules, said so in --help); an ambiguous prefix is refused. */
Test(args, abbreviated_options_and_equals_are_accepted_as_documented)
{
    char err[512];
    run_config c;
    PARSE_OK(&STAGED, &c, "64", "--rep", "5", "--warm=7", "--csv-h", "--stag=3");
    cr_expect_eq(c.reps, 5);
    cr_expect_eq(c.warmup_ms, 7);
    cr_expect(c.csv && c.csv_header);
    cr_expect_eq(c.stages, 3);
    PARSE_OK(&STAGED, &c, "64", "--reps=5");
    cr_expect_eq(c.reps, 5);
    cr_expect_eq(PARSE(&STAGED, &c, "64", "--csv"), 0);
    cr_expect_eq(PARSE(&STAGED, &c, "64", "--c"), EXIT_USAGE, "--c names --csv and --csv-header: ambiguous");
}

/* One wording for every value outside its range: "WHAT 'V' is out of range (MIN..MAX...)". */
Test(args, every_range_message_has_one_wording)
{
    char err[512];
    run_config c;
    static const struct {
        const char *opt, *value, *message;
    } cases[] = {
        {"--reps", "0", "--reps '0' is out of range (1..10000)"},
        {"--reps", "10001", "--reps '10001' is out of range (1..10000)"},
        {"--reps", "-3", "--reps '-3' is out of range (1..10000)"},
        {"--warmup", "60001", "--warmup '60001' is out of range (0..60000 ms, one minute)"},
        {"--stages", "5", "--stages '5' is out of range (1..4)"},
        {"--stages", "0", "--stages '0' is out of range (1..4)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_expect_eq(PARSE(&STAGED, &c, "64", cases[i].opt, cases[i].value), EXIT_USAGE);
        cr_expect_str_eq(err, cases[i].message);
    }
    cr_expect_eq(PARSE(&STAGED, &c, "0"), EXIT_USAGE);
    cr_expect_str_eq(err, "M '0' is out of range (1..1073741824 = 2^30, so that no step's 32-bit index arithmetic "
                          "can overflow)");
}

Test(args, repeated_calls_start_afresh)
{
    char err[512];
    run_config c;
    cr_assert_eq(PARSE(&PLAIN, &c, "1", "2"), EXIT_USAGE);
    PARSE_OK(&PLAIN, &c, "--alpha", "3", "5");
    cr_expect_eq(c.m, 5, "a failed parse must not leave getopt's state behind");
    cr_expect_eq(c.alpha, 3.0f);
    PARSE_OK(&PLAIN, &c, "6");
    cr_expect_eq(c.alpha, 1.0f, "options do not carry over from one call to the next");
}

/* Every bad input, on a step without stages and on one with them: the whole transcript
 * (each command line and the parser's one-line message) against its golden file. */
Test(args, every_bad_input_gives_its_golden_message)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_not_null(out);
    const step_info *const kinds[] = {&PLAIN, &STAGED};
    for (int i = 0; i < N_BAD_INPUTS; i++) {
        const bad_input *b = &BAD_INPUTS[i];
        fprintf(out, "# %s (%s)\n", b->what, b->kind);
        for (int s = 0; s < 2; s++) {
            if (!bad_input_applies(b, kinds[s]->max_stages))
                continue;
            const char *args[7], *argv[8] = {kinds[s]->name};
            char buf[6][32], err[512], cmd[512];
            bad_input_args(b, kinds[s]->max_stages, args, buf);
            memcpy(argv + 1, args, sizeof args);
            format_command(cmd, sizeof cmd, argv);
            run_config c;
            int rc = parse_list(kinds[s], &c, err, sizeof err, args);
            cr_expect_eq(rc, EXIT_USAGE, "`%s` is not a usage error", cmd);
            cr_expect(strchr(err, '\n') == NULL, "`%s`: the error is more than one line: %s", cmd, err);
            fprintf(out, "$ %s\n%d: %s\n", cmd, rc, err);
        }
    }
    fclose(out);
    expect_golden("parser_bad_inputs.txt", text);
    free(text);
}

Test(args, error_fits_a_small_buffer)
{
    char err[16];
    run_config c;
    const char *const args[] = {"this-is-a-long-bad-size", NULL};
    cr_expect_eq(parse_list(&PLAIN, &c, err, sizeof err, args), EXIT_USAGE);
    cr_expect_eq(strlen(err), sizeof err - 1, "the error is cut to the buffer, NUL-terminated");
}
