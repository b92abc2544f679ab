/* LCP array of a generalized suffix array (clsa_gsa_lcp32 ...): Kasai on
 * the host over the virtual text s_0 $_0 ... s_{k-1} $_{k-1}, read from the
 * caller's strings without building it.  A comparison stops at the end of
 * either string, so a separator matches nothing; the virtual text with
 * unique separators is an ordinary string, so Kasai's bound (the LCP of
 * suffix p+1 is at least that of p, less one) holds within a string. */
#include "sa/gsa.h"
#include "context.h"
#include "progress.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

static int64_t get_at(const void *a, int64_t i, int index64)
{
    return index64 ? ((const int64_t *)a)[i] : ((const int32_t *)a)[i];
}

static void set_at(void *a, int64_t i, int64_t v, int index64)
{
    if (index64) ((int64_t *)a)[i] = v;
    else ((int32_t *)a)[i] = (int32_t)v;
}

/* rank = sa^-1; CLSA_ERR_INVALID_ARG if sa is not a permutation of 0..n-1. */
static clsa_status invert(clsa_context *ctx, const void *sa, void *rank, int64_t n, int index64)
{
    memset(rank, 0xff, (size_t)n * (index64 ? 8 : 4)); /* -1: not seen yet */
    for (int64_t i = 0; i < n; i++) {
        int64_t p = get_at(sa, i, index64);
        if (p < 0 || p >= n || get_at(rank, p, index64) != -1)
            return clsa__fail(ctx, CLSA_ERR_INVALID_ARG,
                              "generalized LCP: sa[%lld] = %lld %s", (long long)i, (long long)p,
                              p < 0 || p >= n ? "is out of range" : "appears twice");
        set_at(rank, p, i, index64);
    }
    return CLSA_OK;
}

typedef struct gsa_text {
    const void *text;
    int sym;
    const int64_t *lengths, *starts;
    int64_t k;
} gsa_text;

/* Kasai over the virtual positions, string by string: p in string d is
 * text symbol p - d; it has starts[d+1] - 1 - p symbols before its $. */
static void kasai(const gsa_text *t, const void *sa, const void *rank, void *lcp, int index64)
{
    int64_t h = 0;
    for (int64_t d = 0; d < t->k; d++)
        for (int64_t p = t->starts[d]; p < t->starts[d + 1]; p++) {
            int64_t r = get_at(rank, p, index64);
            if (r == 0) {
                h = 0;
                continue;
            }
            int64_t q = get_at(sa, r - 1, index64), e = t->starts[d + 1] - 1 - p;
            int64_t dq = clsa__gsa_string_of(t->starts, t->k, q);
            int64_t eq = t->starts[dq + 1] - 1 - q, bound = e < eq ? e : eq;
            if (h > bound) h = bound; /* only for an sa that is not sorted */
            while (h < bound && clsa__sym_at(t->text, t->sym, (uint64_t)(p - d + h)) ==
                                    clsa__sym_at(t->text, t->sym, (uint64_t)(q - dq + h)))
                h++;
            set_at(lcp, r, h, index64);
            if (h > 0) h--;
        }
}

clsa_status clsa__gsa_lcp_host(clsa_context *ctx, const void *text, int sym,
                               const int64_t *lengths, int64_t k, const void *sa, void *lcp,
                               int64_t n, int index64)
{
    void *rank = malloc((size_t)n * (index64 ? 8 : 4));
    int64_t *starts = clsa__gsa_starts(lengths, k);
    clsa_status st = CLSA_OK;
    if (!rank || !starts)
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "generalized LCP: out of host memory for "
                                                   "%lld entries", (long long)n);
    if (st == CLSA_OK) st = clsa__progress(ctx, "lcp (host)", 0.0);
    if (st == CLSA_OK) st = invert(ctx, sa, rank, n, index64);
    if (st == CLSA_OK) {
        gsa_text t = {text, sym, lengths, starts, k};
        set_at(lcp, 0, 0, index64);
        kasai(&t, sa, rank, lcp, index64);
    }
    free(rank);
    free(starts);
    return st;
}
