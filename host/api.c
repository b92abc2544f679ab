/* Public entry points of clsa.h (suffix arrays, several contexts, the
 * check, scan and compaction): check arguments, lock the context, move data
 * to and from the device, call down.  The rest of clsa.h's entry points:
 * api_gsa.c (generalized suffix and LCP arrays) and api_context.c (devices,
 * contexts, tuning, statistics, messages, host memory). */
#include "buffer.h"
#include "context.h"
#include "status.h"
#include "text_pack.h"
#include "cpu/reference.h"
#include "multi/multi_sa.h"
#include "prim/scan.h"
#include "sa/dispatch.h"
#include "sa/sa.h"
#include "sa/sym_rank.h"

#include <stdlib.h>
#include <string.h>

/* ---- suffix arrays -------------------------------------------------------- */

static clsa_status sa_args(clsa_context *ctx, const void *text, const void *sa, int64_t n,
                           int index64)
{
    if (n < 0 || (n > 0 && (!text || !sa)))
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "suffix array: %s",
                          n < 0 ? "negative length" : "text or sa is NULL");
    if (!index64 && n > INT32_MAX)
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE,
                          "input of %lld bytes is too large for a 32-bit suffix array "
                          "(at most 2^31-1); use clsa_sa64 / --index 64",
                          (long long)n);
    return CLSA_OK;
}

clsa_status clsa_sa_plan(clsa_context *ctx, int64_t n, int sym_bytes, int index64,
                         clsa_sa_plan_info *out)
{
    if (!out || (sym_bytes != 1 && sym_bytes != 2 && sym_bytes != 4) || (index64 & ~1))
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "suffix array plan: %s",
                          !out ? "out is NULL" : index64 & ~1 ? "index64 must be 0 or 1"
                                                              : "sym_bytes must be 1, 2 or 4");
    /* the same checks as the call (non-NULL stand-ins for its arrays) */
    clsa_status st = sa_args(ctx, out, out, n, index64);
    return st ? st : clsa__sa_plan(ctx, n, sym_bytes, index64, out);
}

static clsa_status sa_any(clsa_context *ctx, const void *text, int sym, void *sa, int64_t n,
                          int index64)
{
    clsa_status st = sa_args(ctx, text, sa, n, index64);
    if (st == CLSA_OK && (uint64_t)n > SIZE_MAX / 8)
        st = clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "suffix array: %lld symbols do not fit in "
                                                 "memory", (long long)n);
    if (st || n == 0) return st;
    return clsa__sa_call(ctx, text, sym, sa, n, index64);
}

clsa_status clsa_sa32(clsa_context *ctx, const uint8_t *text, int32_t *sa, int64_t n)
{
    return sa_any(ctx, text, 1, sa, n, 0);
}

clsa_status clsa_sa64(clsa_context *ctx, const uint8_t *text, int64_t *sa, int64_t n)
{
    return sa_any(ctx, text, 1, sa, n, 1);
}

clsa_status clsa_sa32_u16(clsa_context *ctx, const uint16_t *text, int32_t *sa, int64_t n)
{
    return sa_any(ctx, text, 2, sa, n, 0);
}

clsa_status clsa_sa64_u16(clsa_context *ctx, const uint16_t *text, int64_t *sa, int64_t n)
{
    return sa_any(ctx, text, 2, sa, n, 1);
}

clsa_status clsa_sa32_u32(clsa_context *ctx, const uint32_t *text, int32_t *sa, int64_t n)
{
    return sa_any(ctx, text, 4, sa, n, 0);
}

clsa_status clsa_sa64_u32(clsa_context *ctx, const uint32_t *text, int64_t *sa, int64_t n)
{
    return sa_any(ctx, text, 4, sa, n, 1);
}

/* 64-bit symbols: dense 32-bit ranks on the host (order kept, so the
 * suffix order is the same), then the 32-bit symbol path. */
static clsa_status sa_u64(clsa_context *ctx, const uint64_t *text, void *sa, int64_t n,
                          int index64)
{
    clsa_status st = sa_args(ctx, text, sa, n, index64);
    if (st == CLSA_OK && (uint64_t)n > UINT32_MAX)
        st = clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "suffix array: %lld 64-bit symbols; at most "
                                                 "2^32-1", (long long)n);
    if (st == CLSA_OK && (uint64_t)n > SIZE_MAX / 16)
        st = clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "suffix array: %lld symbols do not fit in "
                                                 "memory", (long long)n);
    if (st || n == 0) return st;
    uint32_t *ranks = malloc((size_t)n * sizeof *ranks);
    if (!ranks || !clsa__sym_ranks(text, 8, (size_t)n, ranks)) {
        free(ranks);
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "suffix array: out of host memory to rank "
                                                     "%lld 64-bit symbols", (long long)n);
    }
    st = sa_any(ctx, ranks, 4, sa, n, index64);
    free(ranks);
    return st;
}

clsa_status clsa_sa32_u64(clsa_context *ctx, const uint64_t *text, int32_t *sa, int64_t n)
{
    return sa_u64(ctx, text, sa, n, 0);
}

clsa_status clsa_sa64_u64(clsa_context *ctx, const uint64_t *text, int64_t *sa, int64_t n)
{
    return sa_u64(ctx, text, sa, n, 1);
}

/* ---- suffix arrays of device texts ------------------------------------------- */

static clsa_status sa_mem(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n, int index64)
{
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    clsa__call_begin(ctx);
    st = sa_args(ctx, text, sa, n, index64);
    if (st == CLSA_OK && n > 0) {
        uint64_t caller = (uint64_t)n * (index64 ? 9 : 5); /* text and SA */
        ctx->stats.last_backend = CLSA_BACKEND_DEVICE;
        clsa__hold_caller(ctx, caller, 1);
        st = clsa__sa_mem_run(ctx, text, sa, n, index64);
        clsa__hold_caller(ctx, caller, 0);
        return clsa__call_end(ctx, st);
    }
    clsa__unlock(ctx);
    return st;
}

clsa_status clsa_sa32_mem(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n)
{
    return sa_mem(ctx, text, sa, n, 0);
}

clsa_status clsa_sa64_mem(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n)
{
    return sa_mem(ctx, text, sa, n, 1);
}

/* ---- several contexts (host/multi/multi_sa.c) ----------------------------------- */

clsa_status clsa_sa32_multi(clsa_context *const *ctxs, int k, const uint8_t *text, int32_t *sa,
                            int64_t n)
{
    return clsa__sa_multi(ctxs, k, text, sa, n, 0);
}

clsa_status clsa_sa64_multi(clsa_context *const *ctxs, int k, const uint8_t *text, int64_t *sa,
                            int64_t n)
{
    return clsa__sa_multi(ctxs, k, text, sa, n, 1);
}

/* ---- checking a suffix array (host/cpu/check.c) ---------------------------------- */

static clsa_status check_args(const uint8_t *text, const void *sa, int64_t n, int *valid)
{
    if (!valid || n < 0 || (n > 0 && (!text || !sa))) return CLSA_ERR_INVALID_ARG;
    return CLSA_OK;
}

clsa_status clsa_check_sa32(const uint8_t *text, const int32_t *sa, int64_t n, int *valid,
                            char *why, size_t cap)
{
    clsa_status st = check_args(text, sa, n, valid);
    if (st) return st;
    if (n > INT32_MAX) return CLSA_ERR_TOO_LARGE;
    *valid = clsa__check_sa(text, sa, n, 0, why, cap);
    return CLSA_OK;
}

clsa_status clsa_check_sa64(const uint8_t *text, const int64_t *sa, int64_t n, int *valid,
                            char *why, size_t cap)
{
    clsa_status st = check_args(text, sa, n, valid);
    if (st) return st;
    *valid = clsa__check_sa(text, sa, n, 1, why, cap);
    return CLSA_OK;
}

/* ---- scan and compaction ---------------------------------------------------- */

static clsa_status prim_begin(clsa_context *ctx)
{
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    clsa__call_begin(ctx);
    ctx->phase = CLSA_PHASE_PRIMITIVE;
    return CLSA_OK;
}

clsa_status clsa_scan_u32_mem(clsa_context *ctx, cl_mem in, cl_mem out, size_t n, int inclusive)
{
    clsa_status st = prim_begin(ctx);
    if (st) return st;
    if (n > 0 && (!in || !out)) st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "scan: NULL buffer");
    else st = clsa__scan(ctx, in, out, n, inclusive, 0, NULL);
    clsa__unlock(ctx);
    return st;
}

clsa_status clsa_scan_u32(clsa_context *ctx, const uint32_t *in, uint32_t *out, size_t n,
                          int inclusive)
{
    clsa_status st = prim_begin(ctx);
    if (st) return st;
    cl_mem buf = NULL;
    if (n > 0 && (!in || !out)) {
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "scan: NULL array");
        goto done;
    }
    if (n == 0) goto done;
    CLSA_TRY(clsa__alloc(ctx, n * 4, &buf));
    CLSA_TRY(clsa__write(ctx, buf, 0, in, n * 4));
    CLSA_TRY(clsa__scan(ctx, buf, buf, n, inclusive, 0, NULL));
    CLSA_TRY(clsa__read(ctx, buf, 0, out, n * 4));
done:
    clsa__free(ctx, &buf);
    clsa__unlock(ctx);
    return st;
}

clsa_status clsa_compact_u32_mem(clsa_context *ctx, cl_mem in, cl_mem flags, size_t n, cl_mem out,
                                 size_t *count)
{
    clsa_status st = prim_begin(ctx);
    if (st) return st;
    if (n > 0 && (!in || !flags || !out))
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "compact: NULL buffer");
    else st = clsa__compact(ctx, in, flags, n, out, count);
    clsa__unlock(ctx);
    return st;
}

clsa_status clsa_compact_u32(clsa_context *ctx, const uint32_t *in, const uint32_t *flags,
                             size_t n, uint32_t *out, size_t *count)
{
    clsa_status st = prim_begin(ctx);
    if (st) return st;
    cl_mem din = NULL, dflags = NULL, dout = NULL;
    size_t got = 0;
    if (count) *count = 0;
    if (n > 0 && (!in || !flags || !out)) {
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "compact: NULL array");
        goto done;
    }
    if (n == 0) goto done;
    CLSA_TRY(clsa__alloc(ctx, n * 4, &din));
    CLSA_TRY(clsa__alloc(ctx, n * 4, &dflags));
    CLSA_TRY(clsa__alloc(ctx, n * 4, &dout));
    CLSA_TRY(clsa__write(ctx, din, 0, in, n * 4));
    CLSA_TRY(clsa__write(ctx, dflags, 0, flags, n * 4));
    CLSA_TRY(clsa__compact(ctx, din, dflags, n, dout, &got));
    CLSA_TRY(clsa__read(ctx, dout, 0, out, got * 4));
    if (count) *count = got;
done:
    clsa__free(ctx, &din);
    clsa__free(ctx, &dflags);
    clsa__free(ctx, &dout);
    clsa__unlock(ctx);
    return st;
}
