/* Public entry points of clsa.h for string collections: generalized suffix
 * arrays (host/sa/gsa.c) and their LCP arrays (host/index/gsa_lcp.c). */
#include "context.h"
#include "status.h"
#include "sa/gsa.h"

/* ---- generalized suffix arrays ---------------------------------------------- */

static clsa_status gsa_any(clsa_context *ctx, const void *text, int sym, const int64_t *lengths,
                           int64_t k, void *sa, void *doc, int index64)
{
    int64_t n;
    clsa_status st = clsa__gsa_size(ctx, "generalized suffix array", text, lengths, k, sa, &n);
    if (st == CLSA_OK && (uint64_t)n > (index64 ? (uint64_t)UINT32_MAX : (uint64_t)INT32_MAX))
        st = clsa__fail(ctx, CLSA_ERR_TOO_LARGE,
                        "generalized suffix array: %lld virtual symbols (lengths + one "
                        "separator per string); at most %s",
                        (long long)n, index64 ? "2^32-1" : "2^31-1 (use clsa_gsa64)");
    if (st || n == 0) return st;
    clsa__call_begin(ctx);
    return clsa__call_end(ctx, clsa__gsa_run(ctx, text, sym, lengths, k, n, sa, doc, index64));
}

clsa_status clsa_gsa32(clsa_context *ctx, const uint8_t *text, const int64_t *lengths, int64_t k,
                       int32_t *sa, int32_t *doc)
{
    return gsa_any(ctx, text, 1, lengths, k, sa, doc, 0);
}

clsa_status clsa_gsa64(clsa_context *ctx, const uint8_t *text, const int64_t *lengths, int64_t k,
                       int64_t *sa, int64_t *doc)
{
    return gsa_any(ctx, text, 1, lengths, k, sa, doc, 1);
}

clsa_status clsa_gsa32_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                           int64_t k, int32_t *sa, int32_t *doc)
{
    return gsa_any(ctx, text, 2, lengths, k, sa, doc, 0);
}

clsa_status clsa_gsa64_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                           int64_t k, int64_t *sa, int64_t *doc)
{
    return gsa_any(ctx, text, 2, lengths, k, sa, doc, 1);
}

clsa_status clsa_gsa32_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                           int64_t k, int32_t *sa, int32_t *doc)
{
    return gsa_any(ctx, text, 4, lengths, k, sa, doc, 0);
}

clsa_status clsa_gsa64_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                           int64_t k, int64_t *sa, int64_t *doc)
{
    return gsa_any(ctx, text, 4, lengths, k, sa, doc, 1);
}

clsa_status clsa_gsa32_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                           int64_t k, int32_t *sa, int32_t *doc)
{
    return gsa_any(ctx, text, 8, lengths, k, sa, doc, 0);
}

clsa_status clsa_gsa64_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                           int64_t k, int64_t *sa, int64_t *doc)
{
    return gsa_any(ctx, text, 8, lengths, k, sa, doc, 1);
}

/* ---- generalized LCP arrays (host/index/gsa_lcp.c) ----------------------------- */

static clsa_status gsa_lcp_any(clsa_context *ctx, const void *text, int sym,
                               const int64_t *lengths, int64_t k, const void *sa, void *lcp,
                               int index64)
{
    const char *what = "generalized LCP";
    int64_t n;
    clsa_status st = clsa__gsa_size(ctx, what, text, lengths, k, lcp, &n);
    if (st == CLSA_OK && n > 0 && !sa)
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: sa is NULL", what);
    if (st == CLSA_OK && !index64 && n > INT32_MAX)
        st = clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "%s: %lld virtual symbols; at most 2^31-1 "
                                                 "(use clsa_gsa_lcp64)", what, (long long)n);
    if (st == CLSA_OK && (uint64_t)n > SIZE_MAX / 8)
        st = clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "%s: %lld entries do not fit in memory", what,
                        (long long)n);
    if (st || n == 0) return st;
    clsa__call_begin(ctx);
    if (ctx) ctx->stats.last_backend = CLSA_BACKEND_HOST;
    return clsa__call_end(ctx, clsa__gsa_lcp_host(ctx, text, sym, lengths, k, sa, lcp, n, index64));
}

clsa_status clsa_gsa_lcp32(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                           int64_t k, const int32_t *sa, int32_t *lcp)
{
    return gsa_lcp_any(ctx, text, 1, lengths, k, sa, lcp, 0);
}

clsa_status clsa_gsa_lcp64(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                           int64_t k, const int64_t *sa, int64_t *lcp)
{
    return gsa_lcp_any(ctx, text, 1, lengths, k, sa, lcp, 1);
}

clsa_status clsa_gsa_lcp32_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                               int64_t k, const int32_t *sa, int32_t *lcp)
{
    return gsa_lcp_any(ctx, text, 2, lengths, k, sa, lcp, 0);
}

clsa_status clsa_gsa_lcp64_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                               int64_t k, const int64_t *sa, int64_t *lcp)
{
    return gsa_lcp_any(ctx, text, 2, lengths, k, sa, lcp, 1);
}

clsa_status clsa_gsa_lcp32_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                               int64_t k, const int32_t *sa, int32_t *lcp)
{
    return gsa_lcp_any(ctx, text, 4, lengths, k, sa, lcp, 0);
}

clsa_status clsa_gsa_lcp64_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                               int64_t k, const int64_t *sa, int64_t *lcp)
{
    return gsa_lcp_any(ctx, text, 4, lengths, k, sa, lcp, 1);
}

clsa_status clsa_gsa_lcp32_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                               int64_t k, const int32_t *sa, int32_t *lcp)
{
    return gsa_lcp_any(ctx, text, 8, lengths, k, sa, lcp, 0);
}

clsa_status clsa_gsa_lcp64_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                               int64_t k, const int64_t *sa, int64_t *lcp)
{
    return gsa_lcp_any(ctx, text, 8, lengths, k, sa, lcp, 1);
}
