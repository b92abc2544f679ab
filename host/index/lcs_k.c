/* Longest common substring of k strings (clsa_lcs_k): the generalized
 * suffix array, its document array and LCP, then one window pass over the
 * suffix order.
 *
 * A substring shared by at least m strings is a common prefix of a run of
 * suffixes that covers m documents; its longest length for a run [lo, hi]
 * is min LCP[lo+1 .. hi].  For each hi, the shortest run ending there that
 * still covers m documents gives the largest minimum, and both ends only
 * move forward: a count per document says when lo may advance, a deque of
 * LCP rows with rising values gives the window minimum (each row enters and
 * leaves once), O(N) in all.  A run of one row (m = 1) is worth the whole
 * suffix up to its string's end.
 *
 * Ties: the scan keeps the first window that reaches the best length, and
 * that window's prefix is the smallest of all the longest shared substrings
 * in suffix order (any smaller one would have all its rows, and so a
 * covering window, earlier).  The offsets then come from every row whose
 * suffix starts with that substring: the maximal run around the window with
 * LCP >= L. */
#include "fm_calls.h"
#include "sa/gsa.h"
#include "context.h"
#include "progress.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

typedef struct arrays {
    void *sa, *doc, *lcp;
    int index64;
    int64_t n, k;
    const int64_t *starts;
} arrays;

static int64_t at(const arrays *a, const void *v, int64_t i)
{
    return a->index64 ? ((const int64_t *)v)[i] : ((const int32_t *)v)[i];
}

/* Symbols left in its string for the suffix of row r. */
static int64_t rest(const arrays *a, int64_t r)
{
    int64_t p = at(a, a->sa, r), d = at(a, a->doc, r);
    return a->starts[d + 1] - 1 - p;
}

typedef struct best {
    int64_t len, lo, hi;
} best;

/* The window pass.  cnt (k entries) and dq (n entries) are work space. */
static best window(const arrays *a, int64_t m, int64_t *cnt, int64_t *dq)
{
    best b = {0, -1, -1};
    int64_t covered = 0, lo = a->k, head = 0, tail = 0;
    memset(cnt, 0, (size_t)a->k * sizeof *cnt);
    /* the first k rows are the separators $_0 .. $_{k-1}: no symbol */
    for (int64_t hi = a->k; hi < a->n; hi++) {
        if (cnt[at(a, a->doc, hi)]++ == 0) covered++;
        if (hi > lo) {
            int64_t l = at(a, a->lcp, hi);
            while (tail > head && at(a, a->lcp, dq[tail - 1]) >= l) tail--;
            dq[tail++] = hi;
        }
        while (lo < hi && (cnt[at(a, a->doc, lo)] > 1 || covered > m)) {
            if (--cnt[at(a, a->doc, lo)] == 0) covered--;
            lo++;
            while (tail > head && dq[head] <= lo) head++;
        }
        if (covered < m) continue;
        int64_t len = lo == hi ? rest(a, hi) : at(a, a->lcp, dq[head]);
        if (len > b.len) b = (best){len, lo, hi};
    }
    return b;
}

/* offsets[d] = the smallest offset in string d of the best substring. */
static void report(const arrays *a, best b, int64_t *offsets)
{
    for (int64_t d = 0; d < a->k; d++) offsets[d] = -1;
    if (b.len == 0) return;
    int64_t lo = b.lo, hi = b.hi;
    while (lo > a->k && at(a, a->lcp, lo) >= b.len) lo--;
    while (hi + 1 < a->n && at(a, a->lcp, hi + 1) >= b.len) hi++;
    for (int64_t r = lo; r <= hi; r++) {
        int64_t d = at(a, a->doc, r), off = at(a, a->sa, r) - a->starts[d];
        if (offsets[d] < 0 || off < offsets[d]) offsets[d] = off;
    }
}

static clsa_status lcs_k_run(clsa_context *ctx, const void *text, int sym,
                             const int64_t *lengths, int64_t k, int64_t m, int64_t n,
                             int64_t *length, int64_t *offsets)
{
    int index64 = n > INT32_MAX;
    size_t w = index64 ? 8 : 4;
    arrays a = {malloc((size_t)n * w), malloc((size_t)n * w), malloc((size_t)n * w), index64,
                n, k, clsa__gsa_starts(lengths, k)};
    int64_t *cnt = malloc((size_t)k * sizeof *cnt), *dq = malloc((size_t)n * sizeof *dq);
    clsa_status st = CLSA_OK;
    if (!a.sa || !a.doc || !a.lcp || !a.starts || !cnt || !dq) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "longest common substring of k strings: out "
                                                   "of host memory for %lld virtual symbols",
                        (long long)n);
        goto done;
    }
    clsa__progress_slice(ctx, 0.0, 0.8);
    CLSA_TRY(clsa__gsa_run(ctx, text, sym, lengths, k, n, a.sa, a.doc, index64));
    clsa__progress_slice(ctx, 0.8, 0.95);
    CLSA_TRY(clsa__gsa_lcp_host(ctx, text, sym, lengths, k, a.sa, a.lcp, n, index64));
    clsa__progress_slice(ctx, 0.95, 1.0);
    CLSA_TRY(clsa__progress(ctx, "common substring window", 0.0));
    best b = window(&a, m, cnt, dq);
    report(&a, b, offsets);
    *length = b.len;
done:
    free(a.sa);
    free(a.doc);
    free(a.lcp);
    free((void *)a.starts);
    free(cnt);
    free(dq);
    return st;
}

clsa_status clsa__lcs_k(clsa_context *ctx, const void *text, int sym, const int64_t *lengths,
                        int64_t k, int64_t m, int64_t *length, int64_t *offsets)
{
    const char *what = "longest common substring of k strings";
    int64_t n;
    clsa_status st = clsa__gsa_size(ctx, what, text, lengths, k, k ? offsets : NULL, &n);
    if (st == CLSA_OK && !length)
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: length is NULL", what);
    if (st == CLSA_OK && k > 0 && (m < 1 || m > k))
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: m = %lld; it must be in 1..k = %lld",
                        what, (long long)m, (long long)k);
    if (st == CLSA_OK && (uint64_t)n > UINT32_MAX)
        st = clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "%s: %lld virtual symbols (lengths + one "
                                                 "separator per string); at most 2^32-1",
                        what, (long long)n);
    if (st) return st;
    *length = 0;
    if (k == 0) return CLSA_OK;
    clsa__lock(ctx);
    if (ctx) ctx->message[0] = 0;
    st = lcs_k_run(ctx, text, sym, lengths, k, m, n, length, offsets);
    st = clsa__progress_end(ctx, st);
    clsa__unlock(ctx);
    return st;
}
