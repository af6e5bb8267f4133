/* report.h - what ./stepN prints: a block for people, or one CSV row for the plots. */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "args.h"
#include "check.h"
#include "device.h"
#include "sensors.h"

/* A run as the report tells it: what was asked (the step, its configuration) and where
 * (the device), read where they live, and what was measured. */
typedef struct {
    const step_info *step;                    /* name and idea */
    const run_config *cfg;                    /* sizes, alpha, beta, stages, seed, inputs, reps;
                                                 cfg->check is 0 with --no-check */
    const device_info *dev;                   /* name, SMs, CUDA versions */
    const char *kernel;                       /* the configuration the step picked, or NULL */
    double median_ms, min_ms;                 /* the step */
    double cublas_median_ms, cublas_min_ms;   /* cuBLAS, same run, interleaved */
    sensor_figures gpu;                       /* SM clock, power, temperature while timed */
    const char *sensors_missing;              /* why they are not available, or NULL */
    int measurements;                         /* 1, or more where the rule saw a disturbance */
    int disturbed;                            /* the last measurement too (stats.h's rule) */
    double spread;                            /* the rule's figure for the last, step or cuBLAS */
    check_result check;                       /* the step's first launch against cuBLAS */
    size_t repeat_diffs;                      /* elements whose bits differed on a second launch */
    size_t repeat_first;                      /* the first of them (row-major index) */
    size_t guard_writes;                      /* words written in the guard bands around C */
    size_t guard_words;                       /* the words in those bands */
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

/* The CSV row, after the header line when cfg->csv_header. */
void print_csv(FILE *out, const run_report *r);

/* The block for people. */
void print_report(FILE *out, const run_report *r);

#endif
