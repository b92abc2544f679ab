/* The host backend's suffix array: the multi-threaded suffix sorter
 * (par_sa.c) with the context's thread count and progress. */
#include "reference.h"
#include "context.h"
#include "par_sa.h"
#include "progress.h"
#include "status.h"
#include "par_pool.h"

#include <divsufsort.h>
#include <divsufsort64.h>

typedef struct host_tick {
    clsa_context *ctx;
    const char *phase;
    clsa_status st;
} host_tick;

static int tick(void *arg, double f)
{
    host_tick *h = arg;
    h->st = clsa__progress(h->ctx, h->phase, f);
    return h->st != CLSA_OK;
}

/* The sorter on `threads` threads (<= 0: clsa__cpu_threads()). */
static clsa_status sorter(clsa_context *ctx, const void *text, int sym, int64_t k, void *sa,
                          int64_t n, int index64, int threads)
{
    if (n == 0) return CLSA_OK;
    host_tick h = {ctx, "sort (host)", CLSA_OK};
    clsa_status st = clsa__progress(ctx, h.phase, 0.0);
    if (st) return st;
    unsigned from = ctx ? ctx->tune.host_par_blocks : 0;
    int t = threads > 0 ? threads : clsa__cpu_threads();
    clsa_par_opts o = {threads, tick, &h, 0, 0, from && (unsigned)t >= from};
    int rc = sym == 1 ? clsa__par_sa_bytes(text, sa, n, index64, &o)
                      : clsa__par_sa_sym(text, sym, k, sa, n, index64, &o);
    if (rc == -3) return h.st;
    if (rc != 0)
        return clsa__fail(ctx, rc == -2 ? CLSA_ERR_HOST_MEMORY : CLSA_ERR_INVALID_ARG,
                          "host suffix sorting of %lld symbols: %s", (long long)n,
                          rc == -2 ? "out of host memory" : "bad arguments");
    return clsa__progress(ctx, h.phase, 1.0);
}

clsa_status clsa__sa_host_sorter(clsa_context *ctx, const void *text, int sym, int64_t k,
                                 void *sa, int64_t n, int index64)
{
    return sorter(ctx, text, sym, k, sa, n, index64, ctx ? ctx->threads : 0);
}

/* libdivsufsort: faster than the sorter on few threads; it cannot be
 * interrupted, so progress is reported before and after only. */
static clsa_status sa_divsufsort(clsa_context *ctx, const uint8_t *text, void *sa, int64_t n,
                                 int index64)
{
    clsa_status st = clsa__progress(ctx, "sort (libdivsufsort)", 0.0);
    if (st) return st;
    int rc = index64 ? divsufsort64(text, (saidx64_t *)sa, (saidx64_t)n)
                     : divsufsort(text, (saidx_t *)sa, (saidx_t)n);
    if (rc != 0)
        return clsa__fail(ctx, rc == -2 ? CLSA_ERR_HOST_MEMORY : CLSA_ERR_INVALID_ARG,
                          "libdivsufsort failed (%d)", rc);
    return clsa__progress(ctx, "sort (libdivsufsort)", 1.0);
}

clsa_status clsa__sa_host(clsa_context *ctx, const uint8_t *text, void *sa, int64_t n,
                          int index64)
{
    int threads = ctx && ctx->threads > 0 ? ctx->threads : clsa__cpu_threads();
    unsigned few = ctx ? ctx->tune.host_par_threads : 4;
    if (n > 1 && (unsigned)threads < few) return sa_divsufsort(ctx, text, sa, n, index64);
    return sorter(ctx, text, 1, 256, sa, n, index64, threads); /* resolved once */
}
