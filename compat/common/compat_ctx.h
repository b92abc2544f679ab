/* One clsa context for the whole process, shared by the drop-in libraries
 * (libdivsufsort.so.3, libdivsufsort64.so.3, the libsais API).
 *
 * Callers ask clsa_compat_use_device(n) first: 0 means "run your CPU path"
 * and opens nothing.  Only a nonzero answer may be followed by
 * clsa_compat_context(), which opens the context on first use (from
 * CLSA_DEVICE and CLSA_BACKEND, as clsa_create does) and returns it, or
 * NULL when none could be opened (the caller then runs its CPU path too).
 * A failed device call is also answered by the CPU path.
 *
 * Routing (env read once):
 *   CLSA_BACKEND=host            never the device;
 *   CLSA_BACKEND=device          the device at any size >= the crossover,
 *                                CPU OpenCL devices included;
 *   otherwise (auto)             GPUs only, at n >= the crossover;
 *   CLSA_COMPAT_MIN_BYTES=N[KMG] the crossover (default
 *                                CLSA_COMPAT_DEFAULT_MIN_BYTES; 0: every
 *                                size, as the tests force it); when set,
 *                                CPU OpenCL devices are used as well.
 * The default crossover is clsa's host-fallback threshold for GPUs
 * (host/runtime/tuning.c); tools/bench/dropin_bench.sh prints the rows
 * (8 KB to 1 MB) to check it for the drop-in.
 *
 * Thread-safe: concurrent callers share the context (clsa serialises calls
 * on it).  Never prints.  The context is released at exit or when the
 * library is unloaded (except on Oclgrind, whose teardown aborts then). */
#ifndef CLSA_COMPAT_CTX_H
#define CLSA_COMPAT_CTX_H

#include <stdint.h>

#include "clsa.h"

#define CLSA_COMPAT_DEFAULT_MIN_BYTES ((int64_t)1 << 15)

#if defined(__GNUC__)
#define CLSA_COMPAT_API __attribute__((visibility("default")))
#else
#define CLSA_COMPAT_API
#endif

/* Nonzero: try the device for an input of n_bytes; 0: the CPU path. */
CLSA_COMPAT_API int clsa_compat_use_device(int64_t n_bytes);

/* The shared context, opened on the first call; NULL: none (go CPU). */
CLSA_COMPAT_API clsa_context *clsa_compat_context(void);

/* Why clsa_compat_context() gave NULL ("" when it did not). */
CLSA_COMPAT_API const char *clsa_compat_why(void);

#endif
