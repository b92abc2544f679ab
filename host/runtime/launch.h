/* Kernel arguments, launches and their profiling (launch.c). */
#ifndef CLSA_RT_LAUNCH_H
#define CLSA_RT_LAUNCH_H

#include "clsa.h"
#include "cl_loader.h"
#include <stddef.h>

/* ---- launches (launch.c) ----------------------------------------------------
 * 1-D launch; global is rounded up to a multiple of local.  Time is charged
 * to ctx->phase when profiling. */
clsa_status clsa__launch(clsa_context *ctx, cl_kernel k, const char *name, size_t global,
                         size_t local);
/* Notes k's first launch in CLSA_TEST_LAUNCH_LOG when that names a file. */
void clsa__log_launch(clsa_context *ctx, cl_kernel k);
/* clSetKernelArg with error reporting; CLSA_ARG(k, i, value) for scalars/mem. */
clsa_status clsa__arg(clsa_context *ctx, cl_kernel k, const char *kname, cl_uint i, size_t size,
                      const void *value);
#define CLSA_ARG(ctx, k, kname, i, v) clsa__arg((ctx), (k), (kname), (i), sizeof(v), &(v))
/* Local-memory argument of `bytes`. */
clsa_status clsa__arg_local(clsa_context *ctx, cl_kernel k, const char *kname, cl_uint i,
                            size_t bytes);
clsa_status clsa__finish(clsa_context *ctx);
/* Adds ms (a host-timed step, such as a copy over threads) to `phase` and
 * to the times of `what`. */
void clsa__charge_ms(clsa_context *ctx, int phase, const char *what, double ms);
/* Seconds on a monotonic clock (host-side step times). */
double clsa__now(void);
/* Waits for a profiled command, adds its time to `phase`, releases the event. */
clsa_status clsa__charge_event(clsa_context *ctx, cl_event ev, int phase, const char *what);
/* Sets the phase later launches are charged to; returns the previous one. */
int clsa__set_phase(clsa_context *ctx, int phase);

/* Reads the profiling events still pending into the phase times. */
/* Host time (ms) under name in the kernel table, no phase (profiling). */
void clsa__charge_host(clsa_context *ctx, const char *name, double ms);
void clsa__profile_drain(clsa_context *ctx);

#endif
