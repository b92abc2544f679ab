/* Shared helpers for the cmocka tests.
 *
 * Each test binary runs once per OpenCL implementation (tests/run_impl.sh
 * sets CLSA_DEVICE and, for oclgrind, runs the binary under oclgrind with
 * CLSA_TEST_SMALL=1).  tu_context() opens that device with the device
 * backend forced; tu_small() says whether to keep inputs small.  Under
 * Oclgrind a context serves many cases like anywhere else: the library
 * works around the simulator's uninitialised-value faults itself
 * (host/runtime/oclgrind.c), and run_impl.sh keeps every diagnostic. */
#ifndef CLSA_TESTUTIL_H
#define CLSA_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clsa.h"

/* Exit code that CTest reads as "skipped". */
#define TU_SKIP 77

static inline int tu_small(void)
{
    const char *s = getenv("CLSA_TEST_SMALL");
    return s && *s && strcmp(s, "0") != 0;
}

/* Oclgrind's mode (CLSA_TEST_LEAN=1, set by run_impl.sh there): the
 * simulator looks for races, out-of-bounds and uninitialised reads, so each
 * kernel and program variant must run once on small inputs, not every
 * case: a test may then keep one input per code path (tests/kernel_coverage.sh
 * checks that every kernel still runs there). */
static inline int tu_lean(void)
{
    const char *s = getenv("CLSA_TEST_LEAN");
    return s && *s && strcmp(s, "0") != 0;
}

/* Scales a size down under oclgrind. */
static inline size_t tu_size(size_t normal, size_t small)
{
    return tu_small() ? small : normal;
}

/* The same with a third size for Oclgrind's lean mode (the same code path). */
static inline size_t tu_sizes(size_t normal, size_t small, size_t lean)
{
    return tu_lean() ? lean : tu_small() ? small : normal;
}

/* A context on the implementation under test, device backend forced.
 * Exits with TU_SKIP (or fails, if CLSA_TEST_REQUIRE=1) when the device is absent. */
static inline clsa_context *tu_context_opts(int profile)
{
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    o.profile = profile;
    clsa_context *ctx = NULL;
    char err[512];
    clsa_status st = clsa_create_ex(&o, &ctx, err, sizeof err);
    if (st != CLSA_OK) {
        const char *dev = getenv("CLSA_DEVICE");
        const char *req = getenv("CLSA_TEST_REQUIRE");
        fprintf(stderr, "%s: device '%s' not available: %s\n",
                req && !strcmp(req, "1") ? "FAIL" : "SKIP", dev ? dev : "(default)", err);
        exit(req && !strcmp(req, "1") ? 1 : TU_SKIP);
    }
    return ctx;
}

static inline clsa_context *tu_context(void) { return tu_context_opts(0); }

/* The same, made under CLSA_TUNE = tune (NULL: none; read when a context is
 * made, unset again afterwards). */
static inline clsa_context *tu_context_tuned(const char *tune, int profile)
{
    if (tune) setenv("CLSA_TUNE", tune, 1);
    clsa_context *ctx = tu_context_opts(profile);
    unsetenv("CLSA_TUNE");
    return ctx;
}

/* Deterministic generator (splitmix64): same seed, same data everywhere. */
typedef struct tu_rng { uint64_t s; } tu_rng;
static inline uint64_t tu_next(tu_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline uint32_t tu_below(tu_rng *r, uint32_t m) { return (uint32_t)(tu_next(r) % m); }

/* 1 when kernel (or timed copy) `name` ran on c since its last stats reset
 * (a profiled context). */
static inline int tu_kernel_ran(clsa_context *c, const char *name)
{
    char got[64];
    double ms;
    uint64_t launches;
    for (size_t i = 0; clsa_get_kernel_time(c, i, got, sizeof got, &ms, &launches) == CLSA_OK; i++)
        if (!strcmp(got, name) && launches > 0) return 1;
    return 0;
}

/* Kasai et al.'s LCP of sa (32-bit), the reference; rank: n entries of
 * work space. */
static inline void tu_kasai32(const uint8_t *t, const int32_t *sa, int32_t *lcp, int32_t *rank,
                              size_t n)
{
    for (size_t i = 0; i < n; i++) rank[sa[i]] = (int32_t)i;
    size_t h = 0;
    for (size_t i = 0; i < n; i++) {
        if (rank[i] == 0) {
            lcp[0] = 0;
            h = 0;
            continue;
        }
        size_t j = (size_t)sa[rank[i] - 1];
        while (i + h < n && j + h < n && t[i + h] == t[j + h]) h++;
        lcp[rank[i]] = (int32_t)h;
        if (h) h--;
    }
}

static inline void *tu_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    assert_non_null(p);
    return p;
}

/* Asserts st == CLSA_OK, printing the context's message otherwise. */
#define TU_OK(ctx, expr)                                                          \
    do {                                                                          \
        clsa_status tu_st_ = (expr);                                              \
        if (tu_st_ != CLSA_OK)                                                    \
            fail_msg("%s -> %d (%s): %s", #expr, (int)tu_st_,                     \
                     clsa_status_string(tu_st_), clsa_last_error(ctx));           \
    } while (0)

/* The cl_device_id of the device under test (the one tu_context opens),
 * found by name, for tests that make their own OpenCL context and queue. */
static inline cl_device_id tu_device_id(void)
{
    clsa_context *probe = tu_context();
    clsa_device_info me;
    TU_OK(probe, clsa_get_device_info(probe, &me));
    clsa_destroy(probe);
    cl_platform_id plats[16];
    cl_uint np = 0;
    assert_int_equal(clGetPlatformIDs(16, plats, &np), CL_SUCCESS);
    cl_device_id dev = NULL;
    for (cl_uint p = 0; p < np && !dev; p++) {
        cl_device_id ds[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, ds, &nd) != CL_SUCCESS) continue;
        for (cl_uint d = 0; d < nd && !dev; d++) {
            char name[128] = "";
            clGetDeviceInfo(ds[d], CL_DEVICE_NAME, sizeof name, name, NULL);
            if (!strcmp(name, me.name)) dev = ds[d];
        }
    }
    assert_non_null(dev);
    return dev;
}

/* An application's own OpenCL context (*cl) and in-order queue on the
 * device under test. */
static inline cl_command_queue tu_app_queue(cl_context *cl)
{
    cl_device_id dev = tu_device_id();
    cl_int err;
    *cl = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    cl_command_queue q = clCreateCommandQueue(*cl, dev, 0, &err);
#pragma GCC diagnostic pop
    assert_int_equal(err, CL_SUCCESS);
    return q;
}

#endif
