/* stats.h - what we report of a set of timings. */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>

/* The median of x[0..n) (mean of the middle two when n is even). Sorts x. n >= 1. */
double median(double *x, size_t n);
double minimum(const double *x, size_t n);

/* 2*M*N*K floating-point operations in `ms` milliseconds, in GFLOPS. */
double gflops(int m, int n, int k, double ms);

#endif
