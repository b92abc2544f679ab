/* Prefix doubling, stage 4 (prefix_doubling.c): SA = ISA^-1 once every
 * rank is final.  Kernels: cl_kernels/sa/pd_invert.cl. */
#include "pd_invert.h"
#include "pd_pass.h"
#include "prim/radix_sort.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "status.h"
#include "tuning.h"

/* The program of these kernels. */
static const char *const PROGRAM = "pd_invert";
/* Digit bits of the bucketing sort before the inversion's scatter. */
#define INVERT_BUCKET_BITS 8

/* SA = ISA^-1 (isa is destroyed).  A plain scatter writes anywhere in the
 * SA, a sector per 4 bytes once it is larger than the cache; with room
 * for two more arrays within 5 iw bytes per input byte (always, at the
 * end of the loop), one radix pass first groups the (rank, position)
 * pairs by the rank's top bits, so the writes of a stretch of pairs land
 * in one window of 1/256 of the SA.
 * CLSA_TUNE sa_path=plain_invert: the plain scatter. */
clsa_status clsa__pd_invert(clsa_context *ctx, pd_buffers *b, clsa__sa_work *w, cl_mem sa)
{
    size_t iw = w->index64 ? 8 : 4;
    cl_ulong nn = w->n;
    cl_mem dead[4] = {w->u, w->k, w->sk, w->sv}; /* the loop's work arrays (m = 0) */
    clsa__pd_drop_long_views(ctx, w);
    for (int i = 0; i < 4; i++)
        if (dead[i] != w->isa) clsa__pd_release(ctx, b, dead[i]);
    w->u = w->k = w->sk = w->sv = NULL;
    unsigned hi = clsa__bits_of(w->n - 1), lo = hi > INVERT_BUCKET_BITS ? hi - INVERT_BUCKET_BITS : 0;
    uint64_t extra = 2 * iw * w->n + pd_table_cap(w->n);
    int bucketed = !(ctx->tune.sa_path & CLSA_SA_PLAIN_INVERT) && hi > INVERT_BUCKET_BITS &&
                   ctx->stats.current_device_bytes + extra <= 5 * iw * w->n &&
                   extra <= clsa__mem_free(ctx);
    if (!bucketed)
        return CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_invert", w->n, 0, CLSA_KARG(w->isa),
                           CLSA_KARG(nn), CLSA_KARG(sa));
    cl_mem vals = NULL, scratch = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__pd_alloc(ctx, b, w->n * iw, &vals));
    CLSA_TRY(clsa__pd_alloc(ctx, b, w->n * iw, &scratch));
    CLSA_TRY(
        CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_iota", w->n, 0, CLSA_KARG(nn), CLSA_KARG(vals)));
    /* sa is free until the scatter: the sort's value scratch */
    CLSA_TRY(clsa__radix_sort_capped(ctx, w->isa, vals, w->n, (int)iw, (int)iw, lo, hi, scratch,
                                     sa, pd_table_cap(w->n)));
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_scatter_pairs", w->n, 0, CLSA_KARG(w->isa),
                         CLSA_KARG(vals), CLSA_KARG(nn), CLSA_KARG(sa)));
done:
    clsa__pd_release(ctx, b, vals);
    clsa__pd_release(ctx, b, scratch);
    return st;
}
