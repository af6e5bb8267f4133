/* stats.c - median, minimum, GFLOPS. */
#include "stats.h"

#include <stdlib.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median(double *x, size_t n)
{
    qsort(x, n, sizeof *x, compare_doubles);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

double minimum(const double *x, size_t n)
{
    double m = x[0];
    for (size_t i = 1; i < n; i++)
        if (x[i] < m)
            m = x[i];
    return m;
}

double gflops(int m, int n, int k, double ms)
{
    return 2.0 * (double)m * (double)n * (double)k / (ms * 1e-3) / 1e9;
}
