/* timing.h - warm-up by time, an L2 flush before each launch, CUDA events around it. */
#ifndef TIMING_H
#define TIMING_H

#include <cuda_runtime.h>

/* One thing to time: run(ctx) enqueues it on the stream. */
typedef struct {
    void (*run)(void *ctx);
    void *ctx;
} timed_kernel;

/* Runs the kernels in turn until warmup_ms of wall-clock time has passed (each at
 * least once), so that module loading, cuBLAS's heuristics and clocks settle. */
void warm_up(const timed_kernel *kernels, int count, int warmup_ms, cudaStream_t stream);

/* For each of reps rounds, and each kernel in turn: write a buffer of twice the
 * L2 size (so no operand is left in L2), then time one launch with CUDA events.
 * ms[i * reps + r] is kernel i's time in round r. */
void time_interleaved(const timed_kernel *kernels, int count, int reps, int l2_bytes,
                      cudaStream_t stream, double *ms);

#endif
