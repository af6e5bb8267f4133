/* inputs.c - a splitmix64 generator: tiny, fast, and the same on every machine. */
#include "inputs.h"

#include <math.h>
#include <stdint.h>

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void fill_inputs(float *x, size_t count, unsigned long long seed, input_kind kind)
{
    uint64_t state = seed;
    for (size_t i = 0; i < count; i++) {
        uint64_t r = splitmix64(&state);
        if (kind == INPUTS_INTEGERS)
            x[i] = (float)((int)((r >> 32) % 5) - 2);          /* {-2..2}, each 1/5 */
        else
            x[i] = (float)((int64_t)(r >> 40) - (1 << 23)) / (float)(1 << 23);  /* 24 bits: exact */
    }
}

nonfinite_spots place_nonfinite(float *a, float *b, int m, int n, int k, unsigned long long seed)
{
    uint64_t state = seed ^ 0x6E6F6E66696E6974ULL;
    nonfinite_spots s;
    s.nan_row = (int)(splitmix64(&state) % (uint64_t)m);
    s.nan_k = (int)(splitmix64(&state) % (uint64_t)k);
    s.inf_k = (int)(splitmix64(&state) % (uint64_t)k);
    s.inf_col = (int)(splitmix64(&state) % (uint64_t)n);
    a[(size_t)s.nan_row * k + s.nan_k] = NAN;
    b[(size_t)s.inf_k * n + s.inf_col] = INFINITY;
    return s;
}
