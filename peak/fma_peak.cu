/* fma_peak.cu - the GPU's FP32 FMA throughput, measured: the ceiling no SGEMM can pass.
 *
 * Every thread runs CHAINS independent chains of FMAs (x = x * a + b) in registers: no
 * memory, no other instruction in the loop worth counting, and CHAINS chains in flight so
 * that each FMA's latency is covered. The grid fills every SM with as many blocks as it
 * holds. GFLOPS = 2 * FMAs / the median time of REPS launches; divided by the SMs and the
 * SM clock (NVML, sampled while timed) it is the FLOPs an SM does a clock, which the
 * architecture fixes (2 x its FP32 lanes: 256 on Hopper).
 *
 *   make fma_peak && ./fma_peak          one line for people
 *   ./fma_peak --csv                     a CSV row (make plots writes plots/peak.csv)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

extern "C" {   // the harness is plain C
#include "../common/device.h"
#include "../common/report.h"
#include "../common/sensors.h"
#include "../common/stats.h"
}

constexpr int CHAINS = 8, THREADS = 256, REPS = 10;

__global__ void __launch_bounds__(THREADS) fma_chains(float *sink, int iters, float a, float b)
{
    float x[CHAINS];
#pragma unroll
    for (int i = 0; i < CHAINS; i++)
        x[i] = threadIdx.x * 1e-3f + i;
    // 16 trips unrolled: 128 FMAs to one add, compare and branch of the loop.
#pragma unroll 16
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int i = 0; i < CHAINS; i++)
            x[i] = fmaf(x[i], a, b);
    float s = 0;
#pragma unroll
    for (int i = 0; i < CHAINS; i++)
        s += x[i];
    if (s == -1.0f)   // never true: keeps the chains from being thrown away
        sink[threadIdx.x] = s;
}

static double time_launch(dim3 grid, float *sink, int iters)
{
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaEventRecord(start));
    fma_chains<<<grid, THREADS>>>(sink, iters, 0.999999f, 1e-7f);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return ms;
}

int main(int argc, char **argv)
{
    int csv = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--csv"))
            csv = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: %s [--csv]: the GPU's FP32 FMA throughput, measured (exit 3 without a GPU)\n", argv[0]);
            return 0;
        } else {
            fprintf(stderr, "error: '%s' is not an option of %s (--csv, --help)\n", argv[i], argv[0]);
            return 2;
        }
    }
    device_info dev;
    device_open(&dev);
    int per_sm;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fma_chains, THREADS, 0));
    dim3 grid(dev.sm_count * per_sm);
    float *sink;
    CUDA_CHECK(cudaMalloc(&sink, THREADS * sizeof(float)));

    // Warm up and size the launch: enough iterations for about 50 ms.
    int iters = 1024;
    double ms = time_launch(grid, sink, iters);
    while (ms < 50 && iters < (1 << 24)) {
        iters *= 2;
        ms = time_launch(grid, sink, iters);
    }
    char why[160];
    sensors *gpu = sensors_open(why, sizeof why);
    double t[REPS];
    sensors_start(gpu);
    for (int r = 0; r < REPS; r++)
        t[r] = time_launch(grid, sink, iters);
    sensor_figures f = sensors_stop(gpu);
    sensors_close(gpu);
    CUDA_CHECK(cudaFree(sink));

    double fmas = (double)grid.x * THREADS * CHAINS * iters;
    double gflops = 2 * fmas / (median(t, REPS) * 1e-3) / 1e9;
    double per_clock = f.sm_clock_mhz > 0 ? gflops * 1e3 / (dev.sm_count * f.sm_clock_mhz) : SENSOR_NONE;
    char clock[32], power[32], temp[32], flops[32], date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    if (csv) {
        printf("device,sm_count,fma_gflops,flop_per_clock_sm,sm_clock_mhz,power_w,temp_c,commit,date_utc\n");
        for (char *c = dev.name; *c; c++)
            if (*c == ',')
                *c = ' ';
        printf("%s,%d,%.1f,%s,%s,%s,%s,%s,%s\n", dev.name, dev.sm_count, gflops,
               per_clock == SENSOR_NONE ? "not available" : (snprintf(flops, sizeof flops, "%.1f", per_clock), flops),
               sensor_text(clock, sizeof clock, f.sm_clock_mhz, ""), sensor_text(power, sizeof power, f.power_w, ""),
               sensor_text(temp, sizeof temp, f.temp_c, ""), build_commit(), date);
    } else {
        printf("fma_peak: %s, %d SMs: %.1f GFLOPS of FP32 FMA (median of %d launches of %u blocks)\n", dev.name,
               dev.sm_count, gflops, REPS, grid.x);
        if (per_clock == SENSOR_NONE)
            printf("  SM clock not available (%s): FLOPs a clock an SM not known\n", why);
        else
            printf("  SM clock %s, power %s, temperature %s: %.1f FLOPs a clock an SM\n",
                   sensor_text(clock, sizeof clock, f.sm_clock_mhz, "MHz"), sensor_text(power, sizeof power, f.power_w, "W"),
                   sensor_text(temp, sizeof temp, f.temp_c, "C"), per_clock);
    }
    return 0;
}
