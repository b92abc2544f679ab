/* Burrows-Wheeler transform (divbwt convention): device gather from the
 * suffix array, the host sorter on the host, public entry points. */
#include "bwt.h"
#include "dc_bwt.h"
#include "index_run.h"
#include "sa/sa.h"
#include "sa/dispatch.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "progress.h"
#include "status.h"
#include "text_pack.h"

#include "cpu/reference.h"
#include <stdlib.h>

static clsa_status launch_primary(clsa_context *ctx, cl_mem sa, cl_ulong n, int index64,
                                  cl_mem primary)
{
    static const char *name = "bwt_primary";
    return CLSA_RUN(ctx, "bwt", index64, NULL, name, (size_t)n, 0, CLSA_KARG(sa), CLSA_KARG(n),
                    CLSA_KARG(primary));
}

static clsa_status launch_gather(clsa_context *ctx, cl_mem text, cl_mem sa, cl_ulong n,
                                 int index64, cl_mem primary, cl_mem bwt)
{
    static const char *name = "bwt_gather";
    return CLSA_RUN(ctx, "bwt", index64, NULL, name, (size_t)n, 0, CLSA_KARG(text),
                    CLSA_KARG(sa), CLSA_KARG(n), CLSA_KARG(primary), CLSA_KARG(bwt));
}

clsa_status clsa__bwt_device(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n, int index64,
                             cl_mem bwt, int64_t *primary)
{
    *primary = 0;
    if (n == 0) return CLSA_OK;
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    cl_mem dprim = NULL;
    cl_ulong p = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, sizeof p, &dprim));
    CLSA_TRY(clsa__fill_zero(ctx, dprim, 0, sizeof p));
    CLSA_TRY(launch_primary(ctx, sa, (cl_ulong)n, index64, dprim));
    CLSA_TRY(launch_gather(ctx, text, sa, (cl_ulong)n, index64, dprim, bwt));
    CLSA_TRY(clsa__read(ctx, dprim, 0, &p, sizeof p));
    if (p == 0 || p > (cl_ulong)n) {
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "BWT: the suffix array has no entry 0");
        goto done;
    }
    *primary = (int64_t)p;
done:
    clsa__free(ctx, &dprim);
    clsa__set_phase(ctx, phase);
    return st;
}

/* The same from the inverse suffix array: primary = isa[0] + 1. */
static clsa_status bwt_device_isa(clsa_context *ctx, cl_mem text, cl_mem isa, int64_t n,
                                  int index64, cl_mem bwt, int64_t *primary)
{
    static const char *name = "bwt_from_isa";
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    cl_ulong nn = (cl_ulong)n;
    uint64_t r0 = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(CLSA_RUN(ctx, "bwt", index64, NULL, name, (size_t)n, 0, CLSA_KARG(text),
                      CLSA_KARG(isa), CLSA_KARG(nn), CLSA_KARG(bwt)));
    CLSA_TRY(clsa__read(ctx, isa, 0, &r0, index64 ? 8 : 4)); /* little-endian host and device */
    if (!index64) r0 = (uint32_t)r0;
    if (r0 >= (uint64_t)n) {
        st = clsa__fail(ctx, CLSA_ERR_OPENCL, "BWT: rank of suffix 0 out of range");
        goto done;
    }
    *primary = (int64_t)r0 + 1;
done:
    clsa__set_phase(ctx, phase);
    return st;
}

/* bwt[0] = text[n-1], then text[sa[i]-1] skipping the row of suffix 0. */
static clsa_status bwt_from_sa_host(const uint8_t *text, const void *sa, uint8_t *bwt, int64_t n,
                                    int index64, int64_t *primary)
{
    int64_t k = 1;
    bwt[0] = text[n - 1];
    *primary = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t s = index64 ? ((const int64_t *)sa)[i] : ((const int32_t *)sa)[i];
        if (s == 0) *primary = i + 1;
        else if (k < n) bwt[k++] = s > 0 && s <= n ? text[s - 1] : 0;
    }
    return *primary ? CLSA_OK : CLSA_ERR_INVALID_ARG;
}

clsa_status clsa__bwt_host(clsa_context *ctx, const uint8_t *text, uint8_t *bwt, int64_t n,
                           int64_t *primary)
{
    *primary = 0;
    if (n == 0) return CLSA_OK;
    int index64 = n > INT32_MAX;
    void *sa = malloc((size_t)n * (index64 ? 8 : 4));
    if (!sa)
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "bwt on the host: out of host memory for "
                                                     "the suffix array of %lld bytes", (long long)n);
    clsa_status st = clsa__sa_host(ctx, text, sa, n, index64);
    if (st == CLSA_OK) st = bwt_from_sa_host(text, sa, bwt, n, index64, primary);
    free(sa);
    return st;
}

/* The suffix sorting of a BWT built from the text (90% of the call's
 * progress): work gets the final ranks (*is_isa = 1) or, where the sort
 * ended without them, the suffix array; bwt_finish then makes the BWT. */
static clsa_status bwt_sort_step(clsa_context *ctx, cl_mem text, cl_mem work, int64_t n,
                                 int index64, int *is_isa)
{
    clsa__progress_slice(ctx, 0.0, 0.9);
    clsa_status st = clsa__sa_device_ranks(ctx, text, work, n, index64, is_isa);
    clsa__progress_slice(ctx, 0.0, 1.0);
    return st ? st : clsa__progress(ctx, "bwt", 0.9);
}

static clsa_status bwt_finish(clsa_context *ctx, cl_mem text, cl_mem work, int is_isa, int64_t n,
                              int index64, cl_mem bwt, int64_t *primary)
{
    return is_isa ? bwt_device_isa(ctx, text, work, n, index64, bwt, primary)
                  : clsa__bwt_device(ctx, text, work, n, index64, bwt, primary);
}

/* sa: host array of the caller, or NULL to build it on the device. */
static clsa_status bwt_on_device(clsa_context *ctx, const uint8_t *text, const void *sa,
                                 uint8_t *bwt, int64_t n, int index64, int64_t *primary)
{
    size_t w = index64 ? 8 : 4;
    cl_mem dtext = NULL, dsa = NULL, dbwt = NULL;
    int is_isa = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)n, &dtext));
    CLSA_TRY(clsa__alloc(ctx, (size_t)n * w, &dsa));
    CLSA_TRY(clsa__write_text(ctx, dtext, text, (size_t)n));
    if (sa) CLSA_TRY(clsa__write(ctx, dsa, 0, sa, (size_t)n * w));
    else CLSA_TRY(bwt_sort_step(ctx, dtext, dsa, n, index64, &is_isa));
    CLSA_TRY(clsa__alloc(ctx, (size_t)n, &dbwt));
    CLSA_TRY(bwt_finish(ctx, dtext, dsa, is_isa, n, index64, dbwt, primary));
    CLSA_TRY(clsa__read(ctx, dbwt, 0, bwt, (size_t)n));
done:
    clsa__free(ctx, &dtext);
    clsa__free(ctx, &dsa);
    clsa__free(ctx, &dbwt);
    return st;
}

/* Past the largest allocation: the suffix array by its own route, the
 * gather on the host. */
static clsa_status bwt_past_alloc(clsa_context *ctx, const uint8_t *text, const void *sa,
                                  uint8_t *bwt, int64_t n, int index64, int64_t *primary)
{
    void *tmp = NULL;
    int declined = 1;
    clsa_status st = CLSA_OK;
    if (!sa && clsa__dc_bwt_wanted(ctx, 1))
        st = clsa__dc_bwt(ctx, text, n, &(clsa__dc_out){bwt, NULL}, primary, NULL, &declined);
    if (st || !declined) return st;
    if (!sa) st = clsa__index_sa(ctx, text, n, index64, &tmp);
    if (st == CLSA_OK && bwt_from_sa_host(text, sa ? sa : tmp, bwt, n, index64, primary))
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "BWT: the suffix array has no entry 0");
    free(tmp);
    return st;
}

clsa_status clsa__index_sa(clsa_context *ctx, const uint8_t *text, int64_t n, int index64,
                           void **sa)
{
    *sa = malloc((size_t)n * (index64 ? 8 : 4));
    if (!*sa) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "suffix array: out of host memory");
    return clsa__sa_pick_run(ctx, text, 1, *sa, n, index64);
}

clsa_status clsa__bwt_run(clsa_context *ctx, const uint8_t *text, const void *sa, uint8_t *bwt,
                          int64_t n, int index64, int64_t *primary)
{
    if (!primary) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "BWT: primary is NULL");
    *primary = 0;
    clsa_status st = clsa__index_args(ctx, "BWT", n, index64, text && bwt);
    int device;
    if (st || n == 0 || (st = clsa__index_begin(ctx, n, &device))) return st;
    if (device && (clsa__index_past_alloc(ctx, n, index64) || (!sa && clsa__dc_bwt_wanted(ctx, 0))))
        st = bwt_past_alloc(ctx, text, sa, bwt, n, index64, primary);
    else if (device) st = bwt_on_device(ctx, text, sa, bwt, n, index64, primary);
    else if (!sa) st = clsa__bwt_host(ctx, text, bwt, n, primary);
    else if (bwt_from_sa_host(text, sa, bwt, n, index64, primary))
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "BWT: the suffix array has no entry 0");
    return clsa__call_end(ctx, st);
}

clsa_status clsa__bytes_via_host(clsa_context *ctx, cl_mem in, cl_mem out, int64_t n,
                                 clsa__bytes_fn fn, void *arg)
{
    void *h = NULL;
    uint8_t *o = malloc((size_t)n);
    clsa_status st = CLSA_OK;
    if (!o) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "out of host memory for %lld bytes",
                        (long long)n);
        goto done;
    }
    CLSA_TRY(clsa__read_new(ctx, in, (size_t)n, &h));
    CLSA_TRY(fn(ctx, h, o, n, arg));
    CLSA_TRY(clsa__write(ctx, out, 0, o, (size_t)n));
done:
    free(h);
    free(o);
    return st;
}

/* The BWT of a host copy by the suffix array's own route (bwt_mem past
 * the device route); arg: the primary index's int64_t. */
static clsa_status bwt_routed(clsa_context *ctx, const uint8_t *text, uint8_t *bwt, int64_t n,
                              void *arg)
{
    return bwt_past_alloc(ctx, text, NULL, bwt, n, n > INT32_MAX, arg);
}

clsa_status clsa__bwt_mem_run(clsa_context *ctx, cl_mem text, cl_mem bwt, int64_t n,
                              int64_t *primary)
{
    clsa_status st = clsa__index_begin_mem(ctx);
    if (st) return st;
    int index64 = n > INT32_MAX, is_isa = 0;
    cl_mem sa = NULL;
    if (primary) *primary = 0;
    st = clsa__index_args(ctx, "BWT", n, 1, text && bwt && primary);
    if (st == CLSA_OK && n > 0 && text == bwt)
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "BWT: text and bwt must be different buffers");
    if (st || n == 0) goto done;
    if (clsa__index_past_alloc(ctx, n, index64)) {
        st = clsa__bytes_via_host(ctx, text, bwt, n, bwt_routed, primary);
        goto done;
    }
    CLSA_TRY(clsa__alloc(ctx, (size_t)n * (index64 ? 8 : 4), &sa));
    CLSA_TRY(bwt_sort_step(ctx, text, sa, n, index64, &is_isa));
    CLSA_TRY(bwt_finish(ctx, text, sa, is_isa, n, index64, bwt, primary));
done:
    clsa__free(ctx, &sa);
    return clsa__call_end(ctx, st);
}
