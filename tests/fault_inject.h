/* Test-only OpenCL fault injector.
 *
 * tests/fault_inject.c defines __wrap_<f> for every OpenCL entry point the
 * library may call; a test binary linked with -Wl,--wrap=<f> (see
 * tests/CMakeLists.txt, FI_WRAPPED) routes the library's calls through it.
 * The library itself has no hook: the switch exists only in the test binary.
 *
 * Counting mode (nothing armed) learns how many calls a run makes; arming
 * call N makes exactly that call fail with a realistic error code for its
 * kind (CL_MEM_OBJECT_ALLOCATION_FAILURE for clCreateBuffer,
 * CL_BUILD_PROGRAM_FAILURE for clBuildProgram, CL_OUT_OF_RESOURCES for a
 * launch, ...), and every later call succeed (one fault per run).
 * clRetain and clRelease calls are counted for the object balance but never
 * fail: a failed release would be a leak the library could not prevent.
 * Not thread-safe: use from one thread. */
#ifndef CLSA_FAULT_INJECT_H
#define CLSA_FAULT_INJECT_H

#include <stdint.h>

#include "clsa.h"

typedef enum fi_kind {
    FI_MEM = 0, /* cl_mem */
    FI_PROGRAM,
    FI_KERNEL,
    FI_EVENT,
    FI_QUEUE,
    FI_CONTEXT,
    FI_KIND_COUNT
} fi_kind;

/* Zeroes the call counter and disarms; the object balances are kept
 * (they count what is alive, whatever the phase). */
void fi_reset(void);
/* Arms a fault at the n-th failable call from now (1-based); 0 disarms. */
void fi_arm(unsigned long n);
/* A device fault as NVIDIA's driver shows one: the n-th failable call from
 * now fails with `first` (-9999: an illegal address), and from then on
 * every failable call but the platform and device queries fails with
 * `after` (CL_OUT_OF_RESOURCES) until a clCreateContext: the context is
 * lost.  fi_arm and fi_reset end it. */
void fi_device_fault(unsigned long n, int first, int after);
/* Failable calls seen since the last fi_reset. */
unsigned long fi_calls(void);
/* Name of the call that was made to fail, or NULL if the armed one was not
 * reached; and the error code it returned. */
const char *fi_failed_call(void);
int fi_failed_code(void);
/* Live objects of a kind created through the wrapped calls, minus
 * releases (retains count as creations). */
long fi_live(fi_kind k);
const char *fi_kind_name(fi_kind k);
/* Calls of `name` since the last fi_reset (0 if never called). */
unsigned long fi_count_of(const char *name);
/* Names of the wrapped entry points called since the last fi_reset:
 * *count gets how many distinct ones; returns a static array. */
const char *const *fi_called(unsigned *count);
/* Name of the i-th call (1-based) since the last fi_reset, NULL if none. */
const char *fi_name_at(unsigned long i);
/* Call-stack signature of the i-th call: a hash of the `depth` innermost
 * return addresses from the wrapper on (1 = the wrapper alone, i.e. the
 * entry point; 2 = its caller in the library; ... up to FI_MAX_DEPTH).
 * Failing one call per distinct signature covers the error paths and
 * clean-ups without repeating a loop's iterations. */
#define FI_MAX_DEPTH 8
uint64_t fi_site_at(unsigned long i, int depth);
/* Optional per-call trace to stderr (env FI_TRACE=1 also enables it). */
void fi_trace(int on);

#endif
