/* inputs.h - reproducible inputs from a fixed seed. */
#ifndef INPUTS_H
#define INPUTS_H

#include <stddef.h>
#include "args.h"

/* Fills x[0..count) from the generator at `seed`, in a small symmetric range:
 * random: multiples of 2^-23 in [-1, 1); integers: whole numbers in {-2..2}.
 * The same seed always gives the same values. */
void fill_inputs(float *x, size_t count, unsigned long long seed, input_kind kind);

#endif
