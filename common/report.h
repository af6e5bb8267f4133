/* report.h - what ./stepN prints: a block for people, or one CSV row for the plots. */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "args.h"
#include "check.h"

typedef struct {
    const char *step, *idea;
    int m, n, k;
    float alpha, beta;
    int stages;                 /* 0 when the step has none */
    unsigned long long seed;
    input_kind inputs;
    int reps;
    double median_ms, min_ms;                 /* the step */
    double cublas_median_ms, cublas_min_ms;   /* cuBLAS, same run, interleaved */
    int checked;                              /* 0 with --no-check */
    check_result check;                       /* the step's first launch against cuBLAS */
    size_t repeat_diffs;                      /* elements whose bits differed on a second launch */
    size_t repeat_first;                      /* the first of them (row-major index) */
    size_t guard_writes;                      /* words written in the guard bands around C */
    size_t guard_words;                       /* the words in those bands */
    const char *kernel;                       /* the configuration the step picked, or NULL */
    const char *device;
    int sm_count;
    int runtime_version, driver_version;      /* e.g. 13000 */
    const char *commit;
    const char *date_utc;                     /* 2026-11-21T23:59:59Z */
} run_report;

/* The CSV columns, in order, without a trailing newline. */
extern const char CSV_HEADER[];

/* Formats one CSV row (no trailing newline). Returns what snprintf returns. */
int format_csv_row(char *buf, size_t len, const run_report *r);

/* "PASS", "FAIL" or "UNCHECKED". PASS needs every element right, the same bits on a
 * second launch, and no write outside C. */
const char *verdict(const run_report *r);

/* The block for people. */
void print_report(FILE *out, const run_report *r);

/* The commit the binary was built from (GIT_COMMIT at build time), or "unknown". */
const char *build_commit(void);

#endif
