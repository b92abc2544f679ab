/* Longest common substring of a and b: suffix array and LCP array of a + b
 * (no separator: any byte may occur in either input, so none is free), built
 * on the device; then one pass over the suffixes in order finds the best
 * pair from different inputs, with suffixes of a clamped at the end of a.
 *
 * Why a clamp scan and not "max LCP of adjacent suffixes": without a unique
 * separator, lcp(a-suffix, b-suffix) in a + b may run past the end of a, and
 * the clamped value min(lcp, na - pos) is not monotone along the suffix
 * order, so the best pair need not be adjacent.  The scan keeps, for each
 * side, the best clamped lcp to any earlier suffix of that side:
 * x = max(min(x, LCP[r]), len_r), which is exact.  Suffixes of b end with
 * the text, so they need no clamp.
 *
 * Ties (documented in clsa_fm.h): with L the maximum, the suffixes sharing
 * an L-prefix form runs of the suffix order (LCP >= L inside a run); among
 * runs holding an a-suffix with at least L bytes left in a and a b-suffix,
 * the smallest a position wins, then the smallest b position in its run.
 *
 * The final O(n) scan runs on the host over the SA and LCP read back. */
#include "runtime.h"
#include "cpu/reference.h"
#include "index/lcp.h"
#include "sa/sa.h"

#include <stdlib.h>
#include <string.h>

typedef struct lcs_result {
    int64_t len, pa, pb;
} lcs_result;

static int64_t get(const void *arr, int index64, int64_t i)
{
    return index64 ? ((const int64_t *)arr)[i] : ((const int32_t *)arr)[i];
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Longest length L by the clamp scan. */
static int64_t best_length(const void *sa, const void *lcp, int index64, int64_t na, int64_t n)
{
    int64_t xa = 0, xb = 0, best = 0;
    for (int64_t r = 0; r < n; r++) {
        if (r > 0) {
            int64_t l = get(lcp, index64, r);
            xa = min64(xa, l);
            xb = min64(xb, l);
        }
        int64_t pos = get(sa, index64, r);
        if (pos < na) {
            int64_t len = na - pos;
            best = max64(best, min64(len, xb));
            xa = max64(xa, len);
        } else {
            best = max64(best, xa);
            xb = max64(xb, n - pos);
        }
    }
    return best;
}

/* Tie-break over the runs with LCP >= L. */
static lcs_result pick(const void *sa, const void *lcp, int index64, int64_t na, int64_t n,
                       int64_t L)
{
    lcs_result res = {L, INT64_MAX, INT64_MAX};
    int64_t ga = INT64_MAX, gb = INT64_MAX;
    for (int64_t r = 0; r <= n; r++) {
        if (r == n || (r > 0 && get(lcp, index64, r) < L)) {
            if (ga != INT64_MAX && gb != INT64_MAX && ga < res.pa) {
                res.pa = ga;
                res.pb = gb;
            }
            ga = gb = INT64_MAX;
            if (r == n) break;
        }
        int64_t pos = get(sa, index64, r);
        if (pos < na) {
            if (na - pos >= L) ga = min64(ga, pos);
        } else {
            gb = min64(gb, pos - na);
        }
    }
    return res;
}

/* SA and LCP of s (n bytes) into host arrays, on the device or the host. */
static clsa_status sa_lcp(clsa_context *ctx, int device, const uint8_t *s, int64_t n, int index64,
                          void *sa, void *lcp)
{
    size_t w = index64 ? 8 : 4;
    if (!device) {
        clsa_status st = clsa__sa_host(ctx, s, sa, n, index64);
        return st ? st : clsa__lcp_host(ctx, s, sa, lcp, n, index64);
    }
    cl_mem dt = NULL, dsa = NULL, dlcp = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)n, &dt));
    CLSA_TRY(clsa__alloc(ctx, (size_t)n * w, &dsa));
    CLSA_TRY(clsa__alloc(ctx, (size_t)n * w, &dlcp));
    CLSA_TRY(clsa__write(ctx, dt, 0, s, (size_t)n));
    CLSA_TRY(clsa__sa_device(ctx, dt, dsa, n, index64));
    CLSA_TRY(clsa__lcp_device(ctx, dt, dsa, n, index64, dlcp));
    CLSA_TRY(clsa__read(ctx, dsa, 0, sa, (size_t)n * w));
    CLSA_TRY(clsa__read(ctx, dlcp, 0, lcp, (size_t)n * w));
done:
    clsa__free(ctx, &dt);
    clsa__free(ctx, &dsa);
    clsa__free(ctx, &dlcp);
    return st;
}

static clsa_status lcs_locked(clsa_context *ctx, int device, const uint8_t *a, int64_t na,
                              const uint8_t *b, int64_t nb, lcs_result *res)
{
    int64_t n = na + nb;
    int index64 = n >= INT32_MAX;
    size_t w = index64 ? 8 : 4;
    uint8_t *s = malloc((size_t)n);
    void *sa = malloc((size_t)n * w), *lcp = malloc((size_t)n * w);
    clsa_status st = CLSA_OK;
    if (!s || !sa || !lcp) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "LCS: out of host memory for %lld bytes",
                        (long long)n);
        goto done;
    }
    memcpy(s, a, (size_t)na);
    memcpy(s + na, b, (size_t)nb);
    CLSA_TRY(sa_lcp(ctx, device, s, n, index64, sa, lcp));
    int64_t L = best_length(sa, lcp, index64, na, n);
    if (L > 0) *res = pick(sa, lcp, index64, na, n, L);
done:
    free(s);
    free(sa);
    free(lcp);
    return st;
}

clsa_status clsa_lcs(clsa_context *ctx, const uint8_t *a, int64_t na, const uint8_t *b,
                     int64_t nb, int64_t *length, int64_t *pos_a, int64_t *pos_b)
{
    if (!length || !pos_a || !pos_b || na < 0 || nb < 0 || (na > 0 && !a) || (nb > 0 && !b))
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "LCS: NULL pointer or negative length");
    if (na + nb >= ((int64_t)1 << 40))
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "LCS: inputs longer than 2^40 bytes");
    *length = *pos_a = *pos_b = 0;
    if (na == 0 || nb == 0) return CLSA_OK;
    lcs_result res = {0, 0, 0};
    clsa_status st;
    if (!ctx) {
        st = lcs_locked(NULL, 0, a, na, b, nb, &res);
    } else {
        clsa__lock(ctx);
        ctx->message[0] = 0;
        int device = clsa__use_device(ctx, (uint64_t)(na + nb));
        if (!device && ctx->backend == CLSA_BACKEND_DEVICE) st = clsa__need_device(ctx);
        else {
            int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
            ctx->stats.last_backend = device ? CLSA_BACKEND_DEVICE : CLSA_BACKEND_HOST;
            st = lcs_locked(ctx, device, a, na, b, nb, &res);
            clsa__set_phase(ctx, phase);
        }
        clsa__unlock(ctx);
    }
    if (st == CLSA_OK) {
        *length = res.len;
        *pos_a = res.len ? res.pa : 0;
        *pos_b = res.len ? res.pb : 0;
    }
    return st;
}
