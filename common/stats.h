/* stats.h - what we report of a set of timings. */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>

/* The median of x[0..n) (mean of the middle two when n is even). Sorts x. n >= 1. */
double median(double *x, size_t n);
double minimum(const double *x, size_t n);

/* The disturbance rule. A launch set is `reps` timings in the order they ran. It is
 * disturbed when the medians of its first and its second half differ by more than
 * DISTURBED_SPREAD of the smaller: something slowed the GPU for part of the set (a
 * burst that covers the whole set is not seen here; the report's clock, power and
 * temperature record it). *spread gets that difference as a fraction of the smaller
 * median. A set of fewer than 2 timings is never disturbed (*spread = 0). */
#define DISTURBED_SPREAD 0.10
int disturbed(const double *ms, size_t reps, double *spread);

/* 2*M*N*K floating-point operations in `ms` milliseconds, in GFLOPS. */
double gflops(int m, int n, int k, double ms);

#endif
