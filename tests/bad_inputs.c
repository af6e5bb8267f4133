/* bad_inputs.c - the table of bad command lines, one line per class of mistake. */
#include "bad_inputs.h"

#include <stdio.h>
#include <string.h>

const bad_input BAD_INPUTS[] = {
    {"size not a number", {"abc"}, "'abc'", FOR_ALL_STEPS},
    {"size not a number, after a good one", {"64", "64x64", "64"}, "'64x64'", FOR_ALL_STEPS},
    {"size empty", {""}, "M is empty", FOR_ALL_STEPS},
    {"third size empty", {"8", "8", ""}, "K is empty", FOR_ALL_STEPS},
    {"size zero", {"0"}, "'0'", FOR_ALL_STEPS},
    {"size negative, first", {"-5"}, "-5", FOR_ALL_STEPS},
    {"size negative, second", {"1", "-5", "3"}, "'-5'", FOR_ALL_STEPS},
    {"size beyond int", {"3000000000"}, "'3000000000'", FOR_ALL_STEPS},
    {"size one past INT_MAX", {"2147483648"}, "'2147483648'", FOR_ALL_STEPS},
    {"K at INT_MAX, which fits in memory", {"1", "1", "2147483647"}, "K '2147483647' is too large", FOR_ALL_STEPS},
    {"size one past 2^30", {"1", "1073741825", "1"}, "N '1073741825' is too large", FOR_ALL_STEPS},
    {"size with two signs", {"+-5"}, "'+-5'", FOR_ALL_STEPS},
    {"a word after --", {"64", "--", "junk"}, "'junk'", FOR_ALL_STEPS},
    {"an option after --", {"64", "--", "--reps", "0"}, "'--reps'", FOR_ALL_STEPS},
    {"four sizes, the last after --", {"1", "2", "--", "3", "4"}, "'4'", FOR_ALL_STEPS},
    {"size with trailing junk", {"12x"}, "'12x'", FOR_ALL_STEPS},
    {"size with a fraction", {"1.5"}, "'1.5'", FOR_ALL_STEPS},
    {"unknown option after the size", {"1024", "--frobnicate"}, "'--frobnicate'", FOR_ALL_STEPS},
    {"unknown option first", {"--frobnicate", "1024"}, "'--frobnicate'", FOR_ALL_STEPS},
    {"unknown short option", {"1024", "-x"}, "'-x'", FOR_ALL_STEPS},
    {"option missing its value, at the end", {"1024", "--reps"}, "'--reps'", FOR_ALL_STEPS},
    {"option missing its value, alone", {"--reps"}, "'--reps'", FOR_ALL_STEPS},
    {"too many sizes", {"1", "2", "3", "4"}, "'4'", FOR_ALL_STEPS},
    {"two sizes", {"1", "2"}, "1 2", FOR_ALL_STEPS},
    {"no size", {"--reps", "3"}, "missing the matrix size M", FOR_ALL_STEPS},
    {"--reps zero", {"1024", "--reps", "0"}, "--reps '0'", FOR_ALL_STEPS},
    {"--reps not a number", {"1024", "--reps", "abc"}, "--reps 'abc'", FOR_ALL_STEPS},
    {"--reps empty", {"1024", "--reps", ""}, "--reps is empty", FOR_ALL_STEPS},
    {"--reps above its bound", {"1024", "--reps", "10001"}, "--reps '10001' is too large", FOR_ALL_STEPS},
    {"--reps of a billion", {"1024", "--reps", "1000000000"}, "--reps '1000000000'", FOR_ALL_STEPS},
    {"--warmup above its bound", {"1024", "--warmup", "60001"}, "--warmup '60001' is too large", FOR_ALL_STEPS},
    {"--warmup of 25 days", {"1024", "--warmup", "2147483647"}, "--warmup '2147483647'", FOR_ALL_STEPS},
    {"--warmup negative", {"1024", "--warmup", "-1"}, "--warmup '-1'", FOR_ALL_STEPS},
    {"--warmup with trailing junk", {"1024", "--warmup", "10ms"}, "--warmup '10ms'", FOR_ALL_STEPS},
    {"--alpha out of FP32 range", {"1024", "--alpha", "1e50"}, "--alpha '1e50'", FOR_ALL_STEPS},
    {"--alpha NaN", {"1024", "--alpha", "nan"}, "--alpha 'nan'", FOR_ALL_STEPS},
    {"--alpha not a number", {"1024", "--alpha", "x"}, "--alpha 'x'", FOR_ALL_STEPS},
    {"--beta infinite", {"1024", "--beta", "-inf"}, "--beta '-inf'", FOR_ALL_STEPS},
    {"--beta with trailing junk", {"1024", "--beta", "0.5f"}, "--beta '0.5f'", FOR_ALL_STEPS},
    {"--alpha that underflows to zero", {"1024", "--alpha", "1e-50"}, "--alpha '1e-50' underflows", FOR_ALL_STEPS},
    {"--beta that would be subnormal", {"1024", "--beta", "-1e-40"}, "--beta '-1e-40' underflows", FOR_ALL_STEPS},
    {"--inputs unknown kind", {"1024", "--inputs", "floats"}, "--inputs 'floats'", FOR_ALL_STEPS},
    {"--seed negative", {"1024", "--seed", "-1"}, "--seed '-1'", FOR_ALL_STEPS},
    {"--seed beyond 64 bits", {"1024", "--seed", "18446744073709551616"}, "'18446744073709551616'",
     FOR_ALL_STEPS},
    {"--seed with trailing junk", {"1024", "--seed", "12x"}, "--seed '12x'", FOR_ALL_STEPS},
    {"--seed with two signs", {"1024", "--seed", "+-5"}, "--seed '+-5'", FOR_ALL_STEPS},
    {"--stages zero", {"1024", "--stages", "0"}, "--stages '0'", FOR_STAGED_STEPS},
    {"--stages above the maximum", {"1024", "--stages", ARG_MAX_STAGES_PLUS_1},
     "--stages '" ARG_MAX_STAGES_PLUS_1 "'", FOR_STAGED_STEPS},
    {"--stages not a number", {"1024", "--stages", "two"}, "--stages 'two'", FOR_STAGED_STEPS},
    {"--stages on a step without stages", {"1024", "--stages", "2"}, "'--stages'", FOR_UNSTAGED_STEPS},
};
const int N_BAD_INPUTS = (int)(sizeof BAD_INPUTS / sizeof BAD_INPUTS[0]);

const char *bad_input_arg(const char *s, int max_stages, char *buf, int len)
{
    const char *mark = strstr(s, ARG_MAX_STAGES_PLUS_1);
    if (!mark)
        return s;
    snprintf(buf, (size_t)len, "%.*s%d%s", (int)(mark - s), s, max_stages + 1,
             mark + strlen(ARG_MAX_STAGES_PLUS_1));
    return buf;
}
