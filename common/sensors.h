/* sensors.h - the GPU's SM clock, power and temperature while the launches are timed.
 *
 * Read through NVML, the driver's management library, loaded when the run starts
 * (dlopen of libnvidia-ml.so.1: nothing to link, and a machine without it still runs the
 * steps). A thread samples the three while the timed launches run; the report gives the
 * median of each. Where NVML or a reading is missing, the figure is "not available". */
#ifndef SENSORS_H
#define SENSORS_H

#include <stddef.h>

#define SENSOR_NONE (-1.0)   /* a reading that is not available */

typedef struct {
    double sm_clock_mhz, power_w, temp_c;   /* medians over the samples, or SENSOR_NONE */
    int samples;                             /* how many samples they come from */
} sensor_figures;

typedef struct sensors sensors;

/* NVML's handle of the current CUDA device (matched by PCI bus id), or NULL where NVML, or
 * the device in it, is not available: then *why says which, and the figures will be
 * SENSOR_NONE. */
sensors *sensors_open(char *why, size_t len);

/* Samples from start to stop, every SENSOR_PERIOD_US microseconds and at least once. */
#define SENSOR_PERIOD_US 500
void sensors_start(sensors *s);
sensor_figures sensors_stop(sensors *s);
void sensors_close(sensors *s);   /* s may be NULL */

/* "1980 MHz", "452 W", "41 C" (with no unit: "1980"), or "not available", into buf. */
const char *sensor_text(char *buf, size_t len, double value, const char *unit);

#endif
