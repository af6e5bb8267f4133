/* bad_inputs.c - the table of bad command lines, one line per case, grouped by class.
 * What each one must print is in the golden transcripts (tests/data/). */
#include "bad_inputs.h"

#include <stdio.h>
#include <string.h>

const bad_input BAD_INPUTS[] = {
    {"not a number", "size not a number", {"abc"}, FOR_ALL_STEPS},
    {"not a number", "size with two signs", {"+-5"}, FOR_ALL_STEPS},
    {"not a number", "--reps not a number", {"1024", "--reps", "abc"}, FOR_ALL_STEPS},
    {"not a number", "--seed a sign alone", {"64", "--seed", "+"}, FOR_ALL_STEPS},
    {"not a number", "--seed with two signs", {"1024", "--seed", "+-5"}, FOR_ALL_STEPS},
    {"not a number", "--alpha not a number", {"1024", "--alpha", "x"}, FOR_ALL_STEPS},
    {"not a number", "--stages not a number", {"1024", "--stages", "two"}, FOR_STAGED_STEPS},
    {"empty", "size empty", {""}, FOR_ALL_STEPS},
    {"empty", "third size empty", {"8", "8", ""}, FOR_ALL_STEPS},
    {"empty", "--reps empty", {"1024", "--reps", ""}, FOR_ALL_STEPS},
    {"zero", "size zero", {"0"}, FOR_ALL_STEPS},
    {"zero", "--reps zero", {"1024", "--reps", "0"}, FOR_ALL_STEPS},
    {"zero", "--stages zero", {"1024", "--stages", "0"}, FOR_STAGED_STEPS},
    {"negative", "size negative, first", {"-5"}, FOR_ALL_STEPS},
    {"negative", "size negative, second", {"1", "-5", "3"}, FOR_ALL_STEPS},
    {"negative", "--reps negative", {"64", "--reps", "-3"}, FOR_ALL_STEPS},
    {"negative", "--warmup negative", {"1024", "--warmup", "-1"}, FOR_ALL_STEPS},
    {"negative", "--seed negative", {"1024", "--seed", "-1"}, FOR_ALL_STEPS},
    {"negative", "--seed negative, larger", {"64", "--seed", "-5"}, FOR_ALL_STEPS},
    {"beyond its type", "size beyond int", {"3000000000"}, FOR_ALL_STEPS},
    {"beyond its type", "size one past INT_MAX", {"2147483648"}, FOR_ALL_STEPS},
    {"beyond its type", "--reps of a billion", {"1024", "--reps", "1000000000"}, FOR_ALL_STEPS},
    {"beyond its type", "--warmup of 25 days", {"1024", "--warmup", "2147483647"}, FOR_ALL_STEPS},
    {"beyond its type", "--seed beyond 64 bits", {"1024", "--seed", "18446744073709551616"}, FOR_ALL_STEPS},
    {"beyond its type", "--alpha out of FP32 range", {"1024", "--alpha", "1e50"}, FOR_ALL_STEPS},
    {"past a documented bound", "M one past 2^30", {"1073741825", "1", "1"}, FOR_ALL_STEPS},
    {"past a documented bound", "N one past 2^30", {"1", "1073741825", "1"}, FOR_ALL_STEPS},
    {"past a documented bound", "K one past 2^30", {"1", "1", "1073741825"}, FOR_ALL_STEPS},
    {"past a documented bound", "K at INT_MAX, which fits in memory", {"1", "1", "2147483647"}, FOR_ALL_STEPS},
    {"past a documented bound", "--reps one past its bound", {"1024", "--reps", "10001"}, FOR_ALL_STEPS},
    {"past a documented bound", "--warmup one past its bound", {"1024", "--warmup", "60001"}, FOR_ALL_STEPS},
    {"trailing junk", "size with trailing junk", {"12x"}, FOR_ALL_STEPS},
    {"trailing junk", "size not a number, after a good one", {"64", "64x64", "64"}, FOR_ALL_STEPS},
    {"trailing junk", "size with a fraction", {"1.5"}, FOR_ALL_STEPS},
    {"trailing junk", "--warmup with trailing junk", {"1024", "--warmup", "10ms"}, FOR_ALL_STEPS},
    {"trailing junk", "--beta with trailing junk", {"1024", "--beta", "0.5f"}, FOR_ALL_STEPS},
    {"trailing junk", "--seed with trailing junk", {"1024", "--seed", "12x"}, FOR_ALL_STEPS},
    {"not finite, or below FP32's normal range", "--alpha NaN", {"1024", "--alpha", "nan"}, FOR_ALL_STEPS},
    {"not finite, or below FP32's normal range", "--beta infinite", {"1024", "--beta", "-inf"}, FOR_ALL_STEPS},
    {"not finite, or below FP32's normal range", "--alpha that underflows to zero", {"1024", "--alpha", "1e-50"},
     FOR_ALL_STEPS},
    {"not finite, or below FP32's normal range", "--beta that would be subnormal", {"1024", "--beta", "-1e-40"},
     FOR_ALL_STEPS},
    {"not finite, or below FP32's normal range", "--alpha, the smallest subnormal", {"64", "--alpha", "-1e-45"},
     FOR_ALL_STEPS},
    {"not finite, or below FP32's normal range", "--alpha in hexadecimal, below normal", {"64", "--alpha", "0x1p-130"},
     FOR_ALL_STEPS},
    {"not finite, or below FP32's normal range", "--alpha, 1e-47 written out",
     {"64", "--alpha", "0.00000000000000000000000000000000000000000000001"}, FOR_ALL_STEPS},
    {"not one of the words", "--inputs unknown kind", {"1024", "--inputs", "floats"}, FOR_ALL_STEPS},
    {"unknown option", "unknown option after the size", {"1024", "--frobnicate"}, FOR_ALL_STEPS},
    {"unknown option", "unknown option first", {"--frobnicate", "1024"}, FOR_ALL_STEPS},
    {"unknown option", "unknown short option", {"1024", "-x"}, FOR_ALL_STEPS},
    {"option missing its value", "option missing its value, at the end", {"1024", "--reps"}, FOR_ALL_STEPS},
    {"option missing its value", "option missing its value, alone", {"--reps"}, FOR_ALL_STEPS},
    {"wrong count of sizes", "too many sizes", {"1", "2", "3", "4"}, FOR_ALL_STEPS},
    {"wrong count of sizes", "two sizes", {"1", "2"}, FOR_ALL_STEPS},
    {"wrong count of sizes", "no size", {"--reps", "3"}, FOR_ALL_STEPS},
    {"wrong count of sizes", "four sizes, the last after --", {"1", "2", "--", "3", "4"}, FOR_ALL_STEPS},
    {"after --, not a size", "a word after --", {"64", "--", "junk"}, FOR_ALL_STEPS},
    {"after --, not a size", "an option after --", {"64", "--", "--reps", "0"}, FOR_ALL_STEPS},
    {"a stage count the step does not have", "--stages one past the maximum",
     {"1024", "--stages", ARG_MAX_STAGES_PLUS_1}, FOR_STAGED_STEPS},
    {"a stage count the step does not have", "--stages on a step without stages", {"1024", "--stages", "2"},
     FOR_UNSTAGED_STEPS},
};
const int N_BAD_INPUTS = (int)(sizeof BAD_INPUTS / sizeof BAD_INPUTS[0]);

int bad_input_applies(const bad_input *b, int max_stages)
{
    return b->scope == FOR_ALL_STEPS || (b->scope == FOR_STAGED_STEPS) == (max_stages > 0);
}

int bad_input_represents_its_kind(const bad_input *b, int max_stages)
{
    if (!bad_input_applies(b, max_stages))
        return 0;
    for (const bad_input *earlier = BAD_INPUTS; earlier < b; earlier++)
        if (strcmp(earlier->kind, b->kind) == 0 && bad_input_applies(earlier, max_stages))
            return 0;
    return 1;
}

void bad_input_args(const bad_input *b, int max_stages, const char *args[7], char buf[6][32])
{
    int i = 0;
    for (; i < 6 && b->args[i]; i++) {
        args[i] = b->args[i];
        if (strcmp(b->args[i], ARG_MAX_STAGES_PLUS_1) == 0) {
            snprintf(buf[i], sizeof buf[i], "%d", max_stages + 1);
            args[i] = buf[i];
        }
    }
    args[i] = NULL;
}
