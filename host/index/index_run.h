/* Shared shape of the public index calls (isa.c, bwt.c, unbwt.c, lcp.c):
 * argument checks, backend choice, lock and phase around the work. */
#ifndef CLSA_INDEX_RUN_H
#define CLSA_INDEX_RUN_H
#include "context.h"
#include "status.h"
#include "sa/dispatch.h"

/* Checks n and the index width; ptrs_ok is 0 when a required pointer or
 * buffer is NULL (only an error for n > 0). */
static inline clsa_status clsa__index_args(clsa_context *ctx, const char *what, int64_t n,
                                           int index64, int ptrs_ok)
{
    if (n < 0) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: negative length", what);
    if (n > 0 && !ptrs_ok)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: NULL array or buffer", what);
    if (!index64 && n > INT32_MAX)
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE,
                          "%s: input of %lld bytes is too large for 32-bit indexes "
                          "(at most 2^31-1); use the 64-bit call / --index 64",
                          what, (long long)n);
    return CLSA_OK;
}

/* Host-pointer calls: locks ctx (NULL allowed: host), clears the message and
 * sets *device (1: run the kernels, 0: the host backend).  On an error the
 * context is left unlocked; on success call clsa__index_end. */
static inline clsa_status clsa__index_begin(clsa_context *ctx, int64_t n, int *device)
{
    *device = 0;
    if (!ctx) return CLSA_OK;
    clsa__call_begin(ctx);
    if (clsa__use_device(ctx, (uint64_t)n)) {
        *device = 1;
        ctx->stats.last_backend = CLSA_BACKEND_DEVICE;
        return CLSA_OK;
    }
    if (ctx->backend == CLSA_BACKEND_DEVICE) {
        clsa_status st = clsa__need_device(ctx);
        clsa__unlock(ctx);
        return st;
    }
    ctx->stats.last_backend = CLSA_BACKEND_HOST;
    return CLSA_OK;
}

/* Device-resident (_mem) calls: need a device; locks and clears the message. */
static inline clsa_status clsa__index_begin_mem(clsa_context *ctx)
{
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    clsa__call_begin(ctx);
    ctx->stats.last_backend = CLSA_BACKEND_DEVICE;
    return CLSA_OK;
}

/* Whether a host-pointer index call leaves the device's in-memory route:
 * where its n-entry device arrays (SA, ISA, LCP) would pass the largest
 * allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE or CLSA_TUNE max_alloc), or the
 * suffix array's plan goes out of core anyway (n >= 2^32, the budget,
 * CLSA_TUNE ooc=1), it takes the suffix array's own route (out of core,
 * in chunks within the largest allocation) into a host array and finishes
 * on the host (clsa__index_sa). */
static inline int clsa__index_past_alloc(clsa_context *ctx, int64_t n, int index64)
{
    return (uint64_t)n * (index64 ? 8u : 4u) > ctx->tune.max_alloc ||
           clsa__sa_device_why(ctx, n, 1, index64) != CLSA_WHY_FITS;
}

/* *sa: a new host array (free()) with the suffix array of text, by the
 * route clsa_sa32/64 takes (ctx locked). */
clsa_status clsa__index_sa(clsa_context *ctx, const uint8_t *text, int64_t n, int index64,
                           void **sa);

static inline clsa_status clsa__index_end(clsa_context *ctx, clsa_status st)
{
    clsa__unlock(ctx);
    return st;
}
#endif
