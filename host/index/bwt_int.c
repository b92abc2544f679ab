/* Burrows-Wheeler transform and its inverse over 16-, 32- and 64-bit
 * symbols, in the divbwt convention of clsa_bwt.
 *
 * The suffix array comes from the integer-alphabet path (device, out of
 * core or host, by the backend rules of clsa_sa32_u16) into a host array,
 * and the gather is one pass on the host: a device gather would need the
 * text on the device a second time (the symbol path may overwrite its
 * copy with codes) and a kernel per symbol width, to save one sequential
 * pass.  The inverse is LF mapping on the host: the symbols' dense ranks
 * and a counting sort give each BWT position its row in the first column,
 * which holds for any alphabet size. */
#include "context.h"
#include "status.h"
#include "sa/dispatch.h"
#include "bwt.h"
#include "sa/sa.h"
#include "sa/sym_rank.h"

#include <stdlib.h>

static void put_sym(void *out, int sym, uint64_t i, uint64_t v)
{
    if (sym == 1) ((uint8_t *)out)[i] = (uint8_t)v;
    else if (sym == 2) ((uint16_t *)out)[i] = (uint16_t)v;
    else if (sym == 4) ((uint32_t *)out)[i] = (uint32_t)v;
    else ((uint64_t *)out)[i] = v;
}

static int64_t sa_at(const void *sa, int index64, int64_t i)
{
    return index64 ? ((const int64_t *)sa)[i] : ((const int32_t *)sa)[i];
}

void clsa__bwt_gather_host(const void *text, int sym, const void *sa, int index64, void *bwt,
                           int64_t n, int64_t *primary)
{
    int64_t k = 1;
    put_sym(bwt, sym, 0, clsa__sym_at(text, sym, (uint64_t)n - 1));
    for (int64_t i = 0; i < n; i++) {
        int64_t s = sa_at(sa, index64, i);
        if (s == 0) *primary = i + 1;
        else if (k < n) put_sym(bwt, sym, (uint64_t)k++, clsa__sym_at(text, sym, (uint64_t)s - 1));
    }
}

static clsa_status int_args(clsa_context *ctx, const char *what, const void *in, const void *out,
                            int64_t n)
{
    if (n < 0) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: negative length", what);
    if (n > 0 && (!in || !out))
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: NULL array", what);
    /* the symbol path and the ranks count in 32 bits */
    if ((uint64_t)n > UINT32_MAX || (uint64_t)n > SIZE_MAX / 16)
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "%s: %lld symbols; at most 2^32-1", what,
                          (long long)n);
    return CLSA_OK;
}

clsa_status clsa__sa_int_run(clsa_context *ctx, const void *text, int sym, void *sa, int64_t n,
                             int index64)
{
    if (sym != 8) return clsa__sa_pick_run(ctx, text, sym, sa, n, index64);
    uint32_t *ranks = malloc((size_t)n * sizeof *ranks);
    clsa_status st;
    if (!ranks || !clsa__sym_ranks(text, 8, (size_t)n, ranks))
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "BWT: out of host memory to rank %lld "
                                                   "64-bit symbols", (long long)n);
    else st = clsa__sa_pick_run(ctx, ranks, 4, sa, n, index64);
    free(ranks);
    return st;
}

clsa_status clsa__bwt_int_run(clsa_context *ctx, const void *text, int sym, void *bwt, int64_t n,
                              int64_t *primary)
{
    if (!primary) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "BWT: primary is NULL");
    *primary = 0;
    clsa_status st = int_args(ctx, "BWT", text, bwt, n);
    if (st || n == 0) return st;
    int index64 = n > INT32_MAX;
    void *sa = malloc((size_t)n * (index64 ? 8 : 4));
    if (!sa)
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "BWT: out of host memory for the suffix "
                                                     "array of %lld symbols", (long long)n);
    clsa__call_begin(ctx);
    st = clsa__sa_int_run(ctx, text, sym, sa, n, index64);
    if (st == CLSA_OK) clsa__bwt_gather_host(text, sym, sa, index64, bwt, n, primary);
    st = clsa__call_end(ctx, st);
    free(sa);
    return st;
}

/* ---- inverse --------------------------------------------------------------------- */

/* lf[j] = the row, in the (n + 1)-row matrix, of the rotation that BWT
 * position j precedes: 1 (the $ row) + the place of j in the stable order of
 * the symbols.  rank[j] = the dense rank of symbol j, vals the distinct
 * symbols.  0 when out of memory. */
static int lf_table(const void *bwt, int sym, int64_t n, uint32_t *rank, uint32_t *lf,
                    uint64_t **vals)
{
    size_t m;
    if (!clsa__sym_distinct(bwt, sym, (size_t)n, vals, &m)) return 0;
    uint64_t *cnt = calloc(m + 1, sizeof *cnt);
    if (!cnt) return 0;
    for (int64_t j = 0; j < n; j++) {
        rank[j] = clsa__sym_rank(*vals, m, clsa__sym_at(bwt, sym, (uint64_t)j));
        cnt[rank[j] + 1]++;
    }
    for (size_t c = 0; c < m; c++) cnt[c + 1] += cnt[c];
    for (int64_t j = 0; j < n; j++) lf[j] = (uint32_t)(1 + cnt[rank[j]]++);
    free(cnt);
    return 1;
}

/* Walks LF from the $ row (the rotation starting at text position n),
 * writing the text from its end.  Row r > primary is BWT position r - 1
 * (the $ is left out of bwt); a bwt that is no transform may lead to the
 * primary row itself, which maps to position primary - 1, still in range. */
static void walk(const uint32_t *rank, const uint32_t *lf, const uint64_t *vals, int sym,
                 void *text, int64_t n, int64_t primary)
{
    int64_t row = 0;
    for (int64_t t = n - 1; t >= 0; t--) {
        int64_t j = row < primary ? row : row - 1;
        put_sym(text, sym, (uint64_t)t, vals[rank[j]]);
        row = lf[j];
    }
}

clsa_status clsa__unbwt_int_run(clsa_context *ctx, const void *bwt, int sym, void *text, int64_t n,
                                int64_t primary)
{
    clsa_status st = int_args(ctx, "inverse BWT", bwt, text, n);
    if (st) return st;
    if (n == 0 ? primary != 0 : (primary < 1 || primary > n))
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG,
                          "inverse BWT: primary index %lld out of range (valid: %s%lld)",
                          (long long)primary, n ? "1.." : "", (long long)n);
    if (n == 0) return CLSA_OK;
    uint32_t *rank = malloc((size_t)n * sizeof *rank), *lf = malloc((size_t)n * sizeof *lf);
    uint64_t *vals = NULL;
    clsa__call_begin(ctx);
    if (ctx) ctx->stats.last_backend = CLSA_BACKEND_HOST;
    if (!rank || !lf || !lf_table(bwt, sym, n, rank, lf, &vals))
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "inverse BWT: out of host memory for %lld "
                                                   "symbols", (long long)n);
    else walk(rank, lf, vals, sym, text, n, primary);
    clsa__unlock(ctx);
    free(rank);
    free(lf);
    free(vals);
    return st;
}
