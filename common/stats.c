/* stats.c - median, minimum, the disturbance rule, GFLOPS. */
#include "stats.h"

#include <stdlib.h>
#include <string.h>

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

int disturbed(const double *ms, size_t reps, double *spread)
{
    *spread = 0;
    if (reps < 2)
        return 0;
    double *copy = malloc(sizeof *copy * reps);
    if (!copy)
        return 0;
    memcpy(copy, ms, sizeof *copy * reps);
    size_t half = reps / 2;
    double first = median(copy, half), second = median(copy + half, reps - half);
    free(copy);
    double lo = first < second ? first : second, hi = first < second ? second : first;
    *spread = lo > 0 ? (hi - lo) / lo : 0;
    return *spread > DISTURBED_SPREAD;
}

double gflops(int m, int n, int k, double ms)
{
    return 2.0 * (double)m * (double)n * (double)k / (ms * 1e-3) / 1e9;
}
