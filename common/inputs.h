/* inputs.h - reproducible inputs from a fixed seed. */
#ifndef INPUTS_H
#define INPUTS_H

#include <stddef.h>
#include "args.h"

/* Fills x[0..count) from the generator at `seed`, in a small symmetric range:
 * random: multiples of 2^-23 in [-1, 1); integers: whole numbers in {-2..2}.
 * The same seed always gives the same values. */
void fill_inputs(float *x, size_t count, unsigned long long seed, input_kind kind);

/* Where --inputs nonfinite puts its two special values: A[nan_row][nan_k] = NaN, which
 * makes row nan_row of C NaN, and B[inf_k][inf_col] = +Inf, which makes column inf_col of
 * C non-finite (+-Inf, or NaN where it meets the NaN row or a zero of A). */
typedef struct {
    int nan_row, nan_k, inf_k, inf_col;
} nonfinite_spots;

/* Picks the spots from the seed (anywhere in the matrices, edges included) and writes
 * the two values into a (M x K) and b (K x N). */
nonfinite_spots place_nonfinite(float *a, float *b, int m, int n, int k, unsigned long long seed);

#endif
