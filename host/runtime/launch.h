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

/* ---- the kernel-argument idiom ----------------------------------------------
 * A kernel's arguments as one list, in order: CLSA_KARG(value) for a scalar
 * or cl_mem lvalue, CLSA_KLOCAL(bytes) for local memory.  CLSA_ARGS sets
 * them on a kernel the caller holds; CLSA_RUN also gets the kernel from its
 * program and launches it.  Errors name the OpenCL call and the kernel. */
typedef struct clsa__karg {
    size_t size;
    const void *ptr; /* NULL: a local-memory array of size bytes */
} clsa__karg;
#define CLSA_KARG(v) {sizeof(v), &(v)}
#define CLSA_KLOCAL(bytes) {(bytes), NULL}
/* A value converted to a 32- or 64-bit scalar, or to the program's idx_t
 * (8 bytes when index64, else 4). */
#define CLSA_KU32(v) {sizeof(cl_uint), &(cl_uint){(cl_uint)(v)}}
#define CLSA_KU64(v) {sizeof(cl_ulong), &(cl_ulong){(cl_ulong)(v)}}
#define CLSA_KIDX(index64, v)                                                            \
    {(index64) ? sizeof(cl_ulong) : sizeof(cl_uint),                                     \
     (index64) ? (const void *)&(cl_ulong){(cl_ulong)(v)}                                \
               : (const void *)&(cl_uint){(cl_uint)(v)}}
/* The count and the array of a list of clsa__karg, for the functions below. */
#define CLSA_KARGS(...)                                                                  \
    sizeof((clsa__karg[]){__VA_ARGS__}) / sizeof(clsa__karg), (clsa__karg[]){__VA_ARGS__}
/* Sets the list as arguments first, first + 1, ... of k. */
clsa_status clsa__args(clsa_context *ctx, cl_kernel k, const char *kname, cl_uint first,
                       size_t nargs, const clsa__karg *args);
#define CLSA_ARGS(ctx, k, kname, ...) clsa__args(ctx, k, kname, 0, CLSA_KARGS(__VA_ARGS__))
/* The list from argument `first` on (a kernel whose arguments depend on its
 * options, set in parts). */
#define CLSA_ARGS_AT(ctx, k, kname, first, ...)                                          \
    clsa__args(ctx, k, kname, first, CLSA_KARGS(__VA_ARGS__))
/* Kernel `name` of program `file` (program.h: width index64, -D options
 * opts, may be NULL), its arguments set, launched over `global` work-items
 * in work-groups of `local` (0: ctx->tune.wg). */
clsa_status clsa__run(clsa_context *ctx, const char *file, int index64, const char *opts,
                      const char *name, size_t global, size_t local, size_t nargs,
                      const clsa__karg *args);
#define CLSA_RUN(ctx, file, index64, opts, name, global, local, ...)                     \
    clsa__run(ctx, file, index64, opts, name, global, local, CLSA_KARGS(__VA_ARGS__))
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
