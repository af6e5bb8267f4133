/* sensors.c - NVML, loaded at run time, sampled by a thread while the launches are timed. */
#define _POSIX_C_SOURCE 199309L
#include "sensors.h"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "stats.h"

/* The little of NVML's API used here, as its reference documents it (nvml.h is not part
 * of every toolkit install): a return code (0 is success), an opaque device handle, the
 * SM clock domain (NVML_CLOCK_SM = 1) and the GPU's temperature sensor (0). */
typedef int nvml_return;
typedef struct nvml_device_st *nvml_device;
enum { NVML_OK = 0, NVML_CLOCK_SM = 1, NVML_TEMPERATURE_GPU = 0 };

enum { MAX_SAMPLES = 1 << 14 };   /* 8 s at one sample every 500 us; later ones are not kept */

struct sensors {
    nvml_device device;
    nvml_return (*clock)(nvml_device, int, unsigned *);
    nvml_return (*power)(nvml_device, unsigned *);
    nvml_return (*temp)(nvml_device, int, unsigned *);
    pthread_t thread;
    pthread_mutex_t lock;
    int running, count;
    double clock_mhz[MAX_SAMPLES], power_w[MAX_SAMPLES], temp_c[MAX_SAMPLES];
};

sensors *sensors_open(char *why, size_t len)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, len, "NVML (libnvidia-ml.so.1) could not be loaded");
        return NULL;
    }
    nvml_return (*init)(void) = (nvml_return(*)(void))dlsym(lib, "nvmlInit_v2");
    nvml_return (*by_bus)(const char *, nvml_device *) =
        (nvml_return(*)(const char *, nvml_device *))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    sensors *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, len, "no memory for the samples");
        return NULL;
    }
    *(void **)&s->clock = dlsym(lib, "nvmlDeviceGetClockInfo");
    *(void **)&s->power = dlsym(lib, "nvmlDeviceGetPowerUsage");
    *(void **)&s->temp = dlsym(lib, "nvmlDeviceGetTemperature");
    char bus[32];
    int device;
    if (!init || !by_bus || !s->clock || !s->power || !s->temp)
        snprintf(why, len, "this NVML lacks a function the report reads");
    else if (init() != NVML_OK)
        snprintf(why, len, "NVML did not start (nvmlInit)");
    else if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess)
        snprintf(why, len, "the CUDA device's PCI bus id could not be read");
    else if (by_bus(bus, &s->device) != NVML_OK)
        snprintf(why, len, "NVML does not know the device at PCI bus %s", bus);
    else {
        pthread_mutex_init(&s->lock, NULL);
        return s;
    }
    free(s);
    return NULL;
}

/* One sample of each reading, SENSOR_NONE where the GPU does not report it. */
static void sample(sensors *s, int i)
{
    unsigned v;
    s->clock_mhz[i] = s->clock(s->device, NVML_CLOCK_SM, &v) == NVML_OK ? v : SENSOR_NONE;
    s->power_w[i] = s->power(s->device, &v) == NVML_OK ? v / 1000.0 : SENSOR_NONE;   /* milliwatts */
    s->temp_c[i] = s->temp(s->device, NVML_TEMPERATURE_GPU, &v) == NVML_OK ? v : SENSOR_NONE;
}

static void *sampler(void *arg)
{
    sensors *s = arg;
    const struct timespec period = {0, SENSOR_PERIOD_US * 1000L};
    for (;;) {
        pthread_mutex_lock(&s->lock);
        int go_on = s->running || s->count == 0;   /* at least one sample */
        if (go_on && s->count < MAX_SAMPLES)
            sample(s, s->count++);
        pthread_mutex_unlock(&s->lock);
        if (!go_on)
            return NULL;
        nanosleep(&period, NULL);
    }
}

void sensors_start(sensors *s)
{
    if (!s)
        return;
    s->count = 0;
    s->running = 1;
    if (pthread_create(&s->thread, NULL, sampler, s) != 0)
        s->running = 0;   /* no thread: no samples, and the figures say "not available" */
}

/* The median of the readings that are there, or SENSOR_NONE. */
static double median_of(double *x, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (x[i] != SENSOR_NONE)
            x[k++] = x[i];
    return k ? median(x, (size_t)k) : SENSOR_NONE;
}

sensor_figures sensors_stop(sensors *s)
{
    sensor_figures f = {SENSOR_NONE, SENSOR_NONE, SENSOR_NONE, 0};
    if (!s || !s->running)
        return f;
    pthread_mutex_lock(&s->lock);
    s->running = 0;
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    f.samples = s->count;
    f.sm_clock_mhz = median_of(s->clock_mhz, s->count);
    f.power_w = median_of(s->power_w, s->count);
    f.temp_c = median_of(s->temp_c, s->count);
    return f;
}

void sensors_close(sensors *s)
{
    if (s)
        pthread_mutex_destroy(&s->lock);
    free(s);
}

const char *sensor_text(char *buf, size_t len, double value, const char *unit)
{
    if (value == SENSOR_NONE)
        snprintf(buf, len, "not available");
    else
        snprintf(buf, len, "%.0f%s%s", value, unit[0] ? " " : "", unit);
    return buf;
}
