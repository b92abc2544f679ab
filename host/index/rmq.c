/* Range-minimum structure over an LCP array on the device
 * (cl_kernels/rmq.cl): in-block stack masks plus a sparse table of block
 * minima, O(n) words, O(1) per query. */
#include "fm_calls.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

struct clsa_lcp_rmq {
    clsa_context *ctx;
    int64_t n, nb;
    unsigned levels;
    int index64;
    cl_mem v, masks, st;
};

static void release(clsa_lcp_rmq *r)
{
    if (!r) return;
    clsa__free(r->ctx, &r->v);
    clsa__free(r->ctx, &r->masks);
    clsa__free(r->ctx, &r->st);
    free(r);
}

void clsa__lcp_rmq_free(clsa_lcp_rmq *rmq)
{
    if (!rmq) return;
    clsa_context *ctx = rmq->ctx;
    clsa__lock(ctx);
    release(rmq);
    clsa__unlock(ctx);
}

/* Masks, block minima (level 0 of the table) and the higher levels. */
static clsa_status build(clsa_lcp_rmq *r)
{
    clsa_context *ctx = r->ctx;
    size_t iw = r->index64 ? 8 : 4;
    clsa_status st = CLSA_OK;
    r->nb = (r->n + 31) / 32;
    r->levels = 1;
    while (((int64_t)1 << r->levels) <= r->nb) r->levels++;
    CLSA_TRY(clsa__alloc(ctx, (size_t)r->n * 4, &r->masks));
    CLSA_TRY(clsa__alloc(ctx, (size_t)r->nb * r->levels * iw, &r->st));
    CLSA_TRY(CLSA_RUN(ctx, "rmq", r->index64, NULL, "rmq_masks", (size_t)r->nb, 0, CLSA_KARG(r->v),
                      CLSA_KIDX(r->index64, r->n), CLSA_KARG(r->masks), CLSA_KARG(r->st),
                      CLSA_KIDX(r->index64, r->nb)));
    for (unsigned k = 1; k < r->levels; k++) {
        CLSA_TRY(CLSA_RUN(ctx, "rmq", r->index64, NULL, "rmq_level", (size_t)r->nb, 0,
                          CLSA_KARG(r->st), CLSA_KIDX(r->index64, r->nb), CLSA_KU32(k),
                          CLSA_KIDX(r->index64, (uint64_t)1 << (k - 1))));
    }
    CLSA_TRY(clsa__finish(ctx));
done:
    return st;
}

/* Copies the values (host pointer or device buffer) and builds. */
clsa_status clsa__lcp_rmq_create(clsa_context *ctx, const void *host, cl_mem mem, int64_t n,
                                 int index64, clsa_lcp_rmq **out)
{
    if (!out) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "LCP RMQ: out is NULL");
    *out = NULL;
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    if (n < 1 || (!host && !mem))
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "LCP RMQ: %s",
                          n < 1 ? "needs at least one value" : "values is NULL");
    if (!index64 && host)
        for (int64_t i = 0; i < n; i++)
            if (((const int32_t *)host)[i] < 0)
                return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "LCP RMQ: negative value at %lld",
                                  (long long)i);
    if (index64 && host)
        for (int64_t i = 0; i < n; i++)
            if (((const int64_t *)host)[i] < 0)
                return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "LCP RMQ: negative value at %lld",
                                  (long long)i);
    clsa_lcp_rmq *r = calloc(1, sizeof *r);
    if (!r) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "LCP RMQ: out of host memory");
    r->ctx = ctx;
    r->n = n;
    r->index64 = index64;
    size_t bytes = (size_t)n * (index64 ? 8 : 4);
    clsa__call_begin(ctx);
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    ctx->stats.last_backend = CLSA_BACKEND_DEVICE;
    CLSA_TRY(clsa__alloc(ctx, bytes, &r->v));
    if (host) CLSA_TRY(clsa__write(ctx, r->v, 0, host, bytes));
    else CLSA_TRY(clsa__copy(ctx, mem, 0, r->v, 0, bytes));
    CLSA_TRY(build(r));
done:
    if (st == CLSA_OK) *out = r;
    else release(r);
    clsa__set_phase(ctx, phase);
    clsa__unlock(ctx);
    return st;
}

clsa_status clsa__lcp_rmq_query(clsa_lcp_rmq *r, const int64_t *a, const int64_t *b, size_t nq,
                                int lcp_mode, int64_t *out)
{
    if (!r) return CLSA_ERR_INVALID_ARG;
    clsa_context *ctx = r->ctx;
    if (nq == 0) return CLSA_OK;
    if (!a || !b || !out) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "LCP RMQ: NULL array");
    for (size_t q = 0; q < nq; q++)
        if (a[q] < 0 || b[q] < 0 || a[q] >= r->n || b[q] >= r->n || (!lcp_mode && a[q] > b[q]))
            return clsa__fail(ctx, CLSA_ERR_INVALID_ARG,
                              "LCP RMQ: query %zu (%lld, %lld) is out of range for n = %lld", q,
                              (long long)a[q], (long long)b[q], (long long)r->n);
    cl_mem da = NULL, db = NULL, dout = NULL;
    clsa_status st = CLSA_OK;
    clsa__call_begin(ctx);
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    CLSA_TRY(clsa__alloc(ctx, nq * 8, &da));
    CLSA_TRY(clsa__alloc(ctx, nq * 8, &db));
    CLSA_TRY(clsa__alloc(ctx, nq * 8, &dout));
    CLSA_TRY(clsa__write(ctx, da, 0, a, nq * 8));
    CLSA_TRY(clsa__write(ctx, db, 0, b, nq * 8));
    CLSA_TRY(CLSA_RUN(ctx, "rmq", r->index64, NULL, "rmq_query", nq, 0, CLSA_KARG(r->v),
                      CLSA_KARG(r->masks), CLSA_KARG(r->st), CLSA_KIDX(r->index64, r->nb),
                      CLSA_KARG(da), CLSA_KARG(db), CLSA_KU64(nq), CLSA_KU32((cl_uint)lcp_mode),
                      CLSA_KARG(dout)));
    CLSA_TRY(clsa__read(ctx, dout, 0, out, nq * 8));
done:
    clsa__free(ctx, &da);
    clsa__free(ctx, &db);
    clsa__free(ctx, &dout);
    clsa__set_phase(ctx, phase);
    clsa__unlock(ctx);
    return st;
}
