/* The suffix array's routing below the public calls: the host, the
 * device in memory (copied or zero copy) or out of core, for the public
 * entry points (host/api.c) and the algorithms that need a suffix array
 * of a host text (gsa.c, bwt_int.c). */
#include "dispatch.h"
#include "buffer.h"
#include "context.h"
#include "host_mem.h"
#include "status.h"
#include "text_pack.h"
#include "cpu/par_sa.h"
#include "cpu/reference.h"
#include "sa/out_of_core.h"
#include "sa/sa.h"
#include "sa/runlen.h"
#include "sa/skew.h"

#include <stdlib.h>
#include <string.h>

/* By clsa_options.algorithm (dispatch.h). */
clsa_status clsa__sa_device_chosen(clsa_context *ctx, cl_mem dtext, int sym, int writable,
                                   cl_mem dsa, int64_t n, int index64)
{
    int algorithm;
    clsa_status st = clsa__sa_pick_algorithm(ctx, dtext, sym, n, &algorithm);
    if (st) return st;
    /* the other algorithm's arrays have other sizes: the pool's idle
     * parents from it would only add to this call's peak */
    if ((algorithm == CLSA_ALGORITHM_DOUBLING) != (ctx->sa_ran == CLSA_ALGORITHM_DOUBLING))
        clsa__pool_drain(ctx, 1);
    ctx->sa_ran = algorithm;
    if (algorithm == CLSA_ALGORITHM_RUNLEN)
        return clsa__sa_device_runlen(ctx, dtext, sym, writable, dsa, n, index64);
    if (algorithm == CLSA_ALGORITHM_SKEW || algorithm == CLSA_ALGORITHM_HYBRID)
        return clsa__sa_device_skew(ctx, dtext, sym, writable, dsa, n, index64,
                                    algorithm == CLSA_ALGORITHM_HYBRID);
    ctx->stats.skew_levels = 0;
    return clsa__sa_device_sym(ctx, dtext, sym, writable, dsa, n, index64);
}

/* The device suffix array of text in a device buffer: sep >= 0 (bytes
 * only) makes every occurrence of byte sep a separator of a generalized
 * suffix array. */
static clsa_status sa_device_of(clsa_context *ctx, cl_mem dtext, int sym, int sep,
                                int writable, cl_mem dsa, int64_t n, int index64)
{
    if (sep >= 0) return clsa__sa_device_gsa(ctx, dtext, sep, dsa, n, index64);
    return clsa__sa_device_chosen(ctx, dtext, sym, writable, dsa, n, index64);
}

/* Devices that share memory with the host work on the caller's arrays.
 * sym: bytes per text symbol (1, 2, 4). */
static clsa_status sa_zero_copy(clsa_context *ctx, const void *text, int sym, int sep, void *sa,
                                int64_t n, int index64)
{
    size_t w = index64 ? 8 : 4;
    cl_mem dtext = NULL, dsa = NULL;
    clsa_status st = CLSA_OK;
    /* USE_HOST_PTR takes a non-const pointer; the text is only read */
    CLSA_TRY(clsa__alloc_host(ctx, (void *)(uintptr_t)text, (size_t)n * sym, &dtext));
    CLSA_TRY(clsa__alloc_host(ctx, sa, (size_t)n * w, &dsa));
    CLSA_TRY(sa_device_of(ctx, dtext, sym, sep, 0, dsa, n, index64));
    CLSA_TRY(clsa__sync_host(ctx, dsa, (size_t)n * w));
done:
    clsa__free(ctx, &dtext);
    clsa__free(ctx, &dsa);
    return st;
}

/* Whether the caller's arrays are wrapped (devices that share memory with
 * the host), not copied: clsa_host_alloc memory is already a mapped buffer,
 * copied from (at the page-locked rate) rather than wrapped a second time. */
static int zero_copy(clsa_context *ctx, const void *text, const void *sa, int64_t n, int sym,
                     int index64)
{
    return ctx->tune.zero_copy && !clsa__is_pinned(ctx, text, (size_t)n * sym) &&
           !clsa__is_pinned(ctx, sa, (size_t)n * (index64 ? 8 : 4));
}

/* A 64-bit SA of n < 2^32 copied to the host: built in 32-bit entries (the
 * device path counts in 32 bits anyway; 17-20 instead of 33 B/n) and
 * widened as it comes down (CLSA_TUNE sa64_narrow=0: the 64-bit pipeline),
 * unless the caller's array is page-locked (sa_in_memory). */
static int narrow(const clsa_context *ctx, int64_t n, int index64)
{
    return index64 && ctx->tune.sa64_narrow && (uint64_t)n <= UINT32_MAX;
}

/* Whether the in-memory route's device entries are 64-bit (its memory
 * need); where the caller's arrays may be wrapped, they are. */
static int device_index64(const clsa_context *ctx, int64_t n, int index64)
{
    return index64 && (ctx->tune.zero_copy || !narrow(ctx, n, index64));
}

static clsa_status sa_in_memory(clsa_context *ctx, const void *text, int sym, int sep, void *sa,
                                int64_t n, int index64)
{
    size_t tb = (size_t)n * sym;
    if (zero_copy(ctx, text, sa, n, sym, index64))
        return sa_zero_copy(ctx, text, sym, sep, sa, n, index64);
    /* a page-locked 64-bit array (clsa_host_alloc) takes the bus's rate
     * whole; widening into it would run on one thread */
    int dev64 = index64 && (!narrow(ctx, n, index64) || clsa__is_pinned(ctx, sa, (size_t)n * 8));
    cl_mem dtext = NULL, dsa = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, tb, &dtext));
    CLSA_TRY(clsa__alloc(ctx, (size_t)n * (dev64 ? 8 : 4), &dsa));
    CLSA_TRY(sym == 1 ? clsa__write_text(ctx, dtext, text, tb)
                      : clsa__write(ctx, dtext, 0, text, tb));
    CLSA_TRY(sa_device_of(ctx, dtext, sym, sep, 1, dsa, n, dev64));
    CLSA_TRY(index64 && !dev64 ? clsa__read_wide(ctx, dsa, sa, (size_t)n)
                               : clsa__read(ctx, dsa, 0, sa, (size_t)n * (index64 ? 8 : 4)));
done:
    clsa__free(ctx, &dtext);
    clsa__free(ctx, &dsa);
    return st;
}

/* The in-memory route's largest single buffer: its n-entry arrays (the
 * SA, ISA and work arrays), or the text where its symbols are wider; each
 * must fit CL_DEVICE_MAX_MEM_ALLOC_SIZE, else the route is out of core
 * (whose chunks do, out_of_core.c). */
static uint64_t in_memory_largest(const clsa_context *ctx, int64_t n, int sym, int index64)
{
    uint64_t iw = device_index64(ctx, n, index64) ? 8 : 4;
    return (uint64_t)n * ((uint64_t)sym > iw ? (uint64_t)sym : iw);
}

/* In memory when its working set fits the limit and its arrays the largest
 * allocation, else out of core; n >= 2^32 always out of core (the in-memory
 * pipeline counts in 32 bits, the out-of-core path keeps its host arrays in
 * 64 bits there). */
static int device_why(clsa_context *ctx, int64_t n, int sym, int index64)
{
    if ((uint64_t)n > UINT32_MAX) return CLSA_WHY_PAST_2_32;
    if (ctx->tune.out_of_core) return CLSA_WHY_FORCED;
    if (in_memory_largest(ctx, n, sym, index64) > ctx->tune.max_alloc) return CLSA_WHY_MAX_ALLOC;
    if (clsa__sa_in_memory_need((uint64_t)n, sym, device_index64(ctx, n, index64)) >
        clsa__mem_free(ctx))
        return CLSA_WHY_BUDGET;
    return CLSA_WHY_FITS;
}

int clsa__sa_device_why(clsa_context *ctx, int64_t n, int sym, int index64)
{
    return device_why(ctx, n, sym, index64);
}

static int device_route(clsa_context *ctx, int64_t n, int sym, int index64)
{
    return device_why(ctx, n, sym, index64) == CLSA_WHY_FITS ? CLSA_ROUTE_DEVICE
                                                             : CLSA_ROUTE_DEVICE_OOC;
}

/* The route a host-pointer suffix array takes on ctx (not NULL), or -1
 * when the call can only fail: a forced device backend without a device. */
static int sa_route(clsa_context *ctx, int64_t n, int sym, int index64)
{
    if (clsa__use_device(ctx, (uint64_t)n)) return device_route(ctx, n, sym, index64);
    return ctx->backend == CLSA_BACKEND_DEVICE ? -1 : CLSA_ROUTE_HOST;
}

/* An in-memory run that still finds the device full (the need is an
 * estimate, and a driver may refuse an allocation) is retried out of
 * core.  The byte route of a generalized SA (sep >= 0) is in memory only:
 * where it would go out of core, *declined is set instead (the caller's
 * 32-bit route then goes out of core). */
static clsa_status sa_on_device(clsa_context *ctx, const void *text, int sym, int sep, void *sa,
                                int64_t n, int index64, int *declined)
{
    int ooc = device_route(ctx, n, sym, index64) == CLSA_ROUTE_DEVICE_OOC;
    if (ooc && sep >= 0) {
        *declined = 1;
        return CLSA_OK;
    }
    if (ooc) return clsa__sa_out_of_core(ctx, text, sym, sa, n, index64);
    clsa_status st = sa_in_memory(ctx, text, sym, sep, sa, n, index64);
    if (st == CLSA_ERR_DEVICE_MEMORY && sep >= 0) {
        *declined = 1;
        ctx->message[0] = 0;
        return CLSA_OK;
    }
    if (st != CLSA_ERR_DEVICE_MEMORY) return st;
    clsa__log(ctx, "suffix array: in-memory path out of device memory (%s); out of core",
              clsa__last_error(ctx));
    ctx->message[0] = 0;
    return clsa__sa_out_of_core(ctx, text, sym, sa, n, index64);
}

static clsa_status sa_on_host(clsa_context *ctx, const void *text, int sym, void *sa, int64_t n,
                              int index64)
{
    return sym == 1 ? clsa__sa_host(ctx, text, sa, n, index64)
                    : clsa__sa_host_int(ctx, text, sym, sa, n, index64);
}

clsa_status clsa__sa_pick_gsa(clsa_context *ctx, const void *text, int sym, int sep, void *sa,
                             int64_t n, int index64, int *declined)
{
    if (!ctx && sep >= 0) {
        *declined = 1;
        return CLSA_OK;
    }
    if (!ctx) return sa_on_host(NULL, text, sym, sa, n, index64);
    int route = sa_route(ctx, n, sym, index64);
    if (route != CLSA_ROUTE_HOST && route >= 0) {
        ctx->stats.last_backend = CLSA_BACKEND_DEVICE;
        return sa_on_device(ctx, text, sym, sep, sa, n, index64, declined);
    }
    if (sep >= 0) {
        *declined = 1;
        return CLSA_OK;
    }
    if (route < 0) return clsa__need_device(ctx);
    ctx->stats.last_backend = CLSA_BACKEND_HOST;
    return sa_on_host(ctx, text, sym, sa, n, index64);
}

/* Host bytes the host backend allocates: the sorter works in the SA
 * beside its block cache and buckets; the integer-alphabet doubling (its
 * bound for any alphabet) keeps three 4-byte arrays (and a 32-bit copy of
 * a 64-bit output). */
static uint64_t host_route_bytes(clsa_context *ctx, uint64_t n, int sym, int index64)
{
    uint64_t work = clsa__par_sa_work_bytes((int64_t)n, ctx ? ctx->threads : 0);
    return sym == 1 ? work : work + 12 * n + (index64 ? 4 * n : 0);
}

/* The plan of the out-of-core route: its chunk and what it holds. */
static clsa_status plan_ooc(clsa_context *ctx, uint64_t n, int index64, clsa_sa_plan_info *p)
{
    p->index64_host = clsa__ooc_wide(ctx, n);
    p->chunk_items = clsa__ooc_chunk_cap(ctx, n, p->budget_bytes);
    if (!p->chunk_items)
        return clsa__fail(ctx, CLSA_ERR_DEVICE_MEMORY,
                          "out-of-core suffix array: needs at least %llu bytes of device "
                          "memory, %llu available",
                          (unsigned long long)clsa__ooc_min_budget(n),
                          (unsigned long long)p->budget_bytes);
    p->device_bytes = clsa__ooc_dev_bytes(p->chunk_items, p->budget_bytes);
    p->host_bytes = clsa__ooc_host_bytes(n, p->chunk_items, p->index64_host, index64);
    return clsa__ooc_host_check(ctx, n, p->chunk_items, index64);
}

clsa_status clsa__sa_plan_route(clsa_context *ctx, int64_t n, int sym_bytes, int index64,
                                clsa_sa_plan_info *out)
{
    memset(out, 0, sizeof *out);
    clsa_status st = CLSA_OK;
    uint64_t un = (uint64_t)n;
    out->in_memory_bytes =
        clsa__sa_in_memory_need(un, sym_bytes, ctx ? device_index64(ctx, n, index64) : index64);
    int route = ctx ? sa_route(ctx, n, sym_bytes, index64) : CLSA_ROUTE_HOST;
    if (ctx && ctx->has_device) out->budget_bytes = clsa__mem_free(ctx);
    if (ctx && ctx->has_device) out->max_alloc_bytes = ctx->tune.max_alloc;
    if (route > 0) out->why = device_why(ctx, n, sym_bytes, index64);
    if (route < 0) {
        st = clsa__need_device(ctx);
    } else if (route == CLSA_ROUTE_HOST) {
        out->route = CLSA_ROUTE_HOST;
        out->algorithm = -1;
        out->host_bytes = host_route_bytes(ctx, un, sym_bytes, index64);
        if (sym_bytes > 1 && un > UINT32_MAX)
            st = clsa__fail(ctx, CLSA_ERR_TOO_LARGE,
                            "integer-alphabet suffix array on the host: %lld symbols; at most "
                            "2^32-1", (long long)n);
    } else if (route == CLSA_ROUTE_DEVICE) {
        out->route = CLSA_ROUTE_DEVICE;
        out->device_bytes = out->in_memory_bytes;
        out->algorithm = ctx->algorithm;
    } else {
        out->route = CLSA_ROUTE_DEVICE_OOC;
        out->algorithm = CLSA_ALGORITHM_DOUBLING;
        if (n > 0) st = plan_ooc(ctx, un, index64, out);
    }
    return st;
}

clsa_status clsa__sa_mem_run(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n, int index64)
{
    size_t w = index64 ? 8 : 4;
    if ((uint64_t)n <= UINT32_MAX && (uint64_t)n * w <= ctx->tune.max_alloc)
        return clsa__sa_device_chosen(ctx, text, 1, 0, sa, n, index64);
    void *t = NULL, *s = malloc((size_t)n * w);
    clsa_status st = CLSA_OK;
    if (!s) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "suffix array: out of host memory");
        goto done;
    }
    CLSA_TRY(clsa__read_new(ctx, text, (size_t)n, &t));
    CLSA_TRY(clsa__sa_out_of_core(ctx, t, 1, s, n, index64));
    CLSA_TRY(clsa__write(ctx, sa, 0, s, (size_t)n * w));
done:
    free(t);
    free(s);
    return st;
}

clsa_status clsa__sa_pick_run(clsa_context *ctx, const void *text, int sym, void *sa, int64_t n,
                              int index64)
{
    int declined = 0;
    return clsa__sa_pick_gsa(ctx, text, sym, -1, sa, n, index64, &declined);
}

clsa_status clsa__sa_plan(clsa_context *ctx, int64_t n, int sym_bytes, int index64,
                          clsa_sa_plan_info *out)
{
    clsa__call_begin(ctx);
    clsa_status st = clsa__sa_plan_route(ctx, n, sym_bytes, index64, out);
    clsa__unlock(ctx);
    return st;
}

clsa_status clsa__sa_call(clsa_context *ctx, const void *text, int sym, void *sa, int64_t n,
                          int index64)
{
    clsa__call_begin(ctx);
    return clsa__call_end(ctx, clsa__sa_pick_run(ctx, text, sym, sa, n, index64));
}
