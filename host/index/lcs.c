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
 * On the device the scans run over runs of rows, one work-item each
 * (cl_kernels/lcs.cl); the host chains the runs from a few values per run,
 * so the SA and LCP never leave the device.  The host backend runs the same
 * scans on host arrays. */
#include "fm_calls.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "status.h"
#include "text_pack.h"
#include "cpu/reference.h"
#include "index/index_run.h"
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

/* ---- device scans ------------------------------------------------------------------ */

#define LCS_RUN 256

typedef struct lcs_dev {
    clsa_context *ctx;
    int index64;
    int64_t n, na, nruns;
    cl_mem sa, lcp;
} lcs_dev;

/* Reads `count` idx_t values from the device as int64 (all-ones -> INT64_MAX). */
static clsa_status read_idx(lcs_dev *d, cl_mem m, size_t count, int64_t *out)
{
    size_t w = d->index64 ? 8 : 4;
    clsa_status st = clsa__read(d->ctx, m, 0, out, count * w);
    if (st) return st;
    for (size_t i = count; i-- > 0;) {
        uint64_t v;
        if (d->index64) memcpy(&v, (uint8_t *)out + i * 8, 8);
        else {
            uint32_t v32;
            memcpy(&v32, (uint8_t *)out + i * 4, 4);
            v = v32 == UINT32_MAX ? UINT64_MAX : v32;
        }
        out[i] = v == UINT64_MAX ? INT64_MAX : (int64_t)v;
    }
    return CLSA_OK;
}

/* Kernel `name` of lcs.cl over nr work-items: the arguments every lcs
 * kernel starts with, then the list given (CLSA_KARGS). */
static clsa_status lcs_run(lcs_dev *d, const char *name, size_t nr, size_t nargs,
                           const clsa__karg *args)
{
    cl_kernel k;
    int w = d->index64;
    clsa_status st = clsa__kernel(d->ctx, "lcs", w, NULL, name, &k);
    if (!st)
        st = CLSA_ARGS(d->ctx, k, name, CLSA_KARG(d->sa), CLSA_KARG(d->lcp), CLSA_KIDX(w, d->n),
                       CLSA_KIDX(w, d->na), CLSA_KIDX(w, LCS_RUN), CLSA_KIDX(w, d->nruns));
    if (!st) st = clsa__args(d->ctx, k, name, 6, nargs, args);
    return st ? st : clsa__launch(d->ctx, k, name, nr, d->ctx->tune.wg);
}

static clsa_status device_scans(lcs_dev *d, lcs_result *res)
{
    clsa_context *ctx = d->ctx;
    size_t w = d->index64 ? 8 : 4, nr = (size_t)d->nruns;
    int64_t *v = malloc(nr * 7 * 8);
    cl_mem buf = NULL, xin = NULL;
    clsa_status st = CLSA_OK;
    if (!v) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "LCS: out of host memory");
    CLSA_TRY(clsa__alloc(ctx, nr * 7 * w, &buf));
    CLSA_TRY(clsa__alloc(ctx, nr * 2 * w, &xin));
    CLSA_TRY(lcs_run(d, "lcs_compose", nr, CLSA_KARGS(CLSA_KARG(buf))));
    CLSA_TRY(read_idx(d, buf, nr * 3, v));
    /* Chain the runs: incoming side values of run j. */
    int64_t xa = 0, xb = 0;
    uint8_t *x = malloc(nr * 2 * w);
    if (!x) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "LCS: out of host memory");
        goto done;
    }
    for (size_t j = 0; j < nr; j++) {
        uint64_t pair[2] = {(uint64_t)xa, (uint64_t)xb};
        for (int s = 0; s < 2; s++) {
            if (d->index64) memcpy(x + (2 * j + s) * 8, &pair[s], 8);
            else {
                uint32_t p32 = (uint32_t)pair[s];
                memcpy(x + (2 * j + s) * 4, &p32, 4);
            }
        }
        int64_t ra = v[3 * j], rba = v[3 * j + 1], rbb = v[3 * j + 2];
        xa = max64(min64(xa, ra), rba);
        xb = max64(min64(xb, ra), rbb);
    }
    st = clsa__write(ctx, xin, 0, x, nr * 2 * w);
    free(x);
    if (st) goto done;
    CLSA_TRY(lcs_run(d, "lcs_best", nr, CLSA_KARGS(CLSA_KARG(xin), CLSA_KARG(buf))));
    CLSA_TRY(read_idx(d, buf, nr, v));
    int64_t L = 0;
    for (size_t j = 0; j < nr; j++) L = max64(L, v[j]);
    res->len = L;
    if (L == 0) goto done;
    CLSA_TRY(lcs_run(d, "lcs_groups", nr, CLSA_KARGS(CLSA_KIDX(d->index64, L), CLSA_KARG(buf))));
    CLSA_TRY(read_idx(d, buf, nr * 7, v));
    /* Merge the group pieces across runs; keep the smallest a position. */
    int64_t oa = INT64_MAX, ob = INT64_MAX;
    res->pa = res->pb = INT64_MAX;
    for (size_t j = 0; j <= nr; j++) {
        int64_t *o = v + 7 * j;
        int64_t ca = j < nr ? min64(oa, o[0]) : oa, cb = j < nr ? min64(ob, o[1]) : ob;
        if (j < nr && !o[2]) {
            oa = ca;
            ob = cb;
            continue;
        }
        int64_t cand[2][2] = {{ca, cb}, {j < nr ? o[5] : INT64_MAX, j < nr ? o[6] : INT64_MAX}};
        for (int c = 0; c < 2; c++)
            if (cand[c][0] != INT64_MAX && cand[c][1] != INT64_MAX && cand[c][0] < res->pa) {
                res->pa = cand[c][0];
                res->pb = cand[c][1];
            }
        if (j < nr) {
            oa = o[3];
            ob = o[4];
        }
    }
done:
    clsa__free(ctx, &buf);
    clsa__free(ctx, &xin);
    free(v);
    return st;
}

static clsa_status lcs_device(clsa_context *ctx, const uint8_t *s, int64_t n, int64_t na,
                              int index64, lcs_result *res)
{
    size_t w = index64 ? 8 : 4;
    lcs_dev d = {ctx, index64, n, na, (n + LCS_RUN - 1) / LCS_RUN, NULL, NULL};
    cl_mem dt = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)n, &dt));
    CLSA_TRY(clsa__alloc(ctx, (size_t)n * w, &d.sa));
    CLSA_TRY(clsa__alloc(ctx, (size_t)n * w, &d.lcp));
    CLSA_TRY(clsa__write_text(ctx, dt, s, (size_t)n));
    CLSA_TRY(clsa__sa_device(ctx, dt, d.sa, n, index64));
    CLSA_TRY(clsa__lcp_device(ctx, dt, d.sa, n, index64, d.lcp));
    clsa__free(ctx, &dt);
    CLSA_TRY(device_scans(&d, res));
done:
    clsa__free(ctx, &dt);
    clsa__free(ctx, &d.sa);
    clsa__free(ctx, &d.lcp);
    return st;
}

/* Host backend: the same scans over host arrays.  routed: the suffix array
 * by the device's own route (out of core past the largest allocation). */
static clsa_status lcs_host(clsa_context *ctx, const uint8_t *s, int64_t n, int64_t na,
                            int index64, int routed, lcs_result *res)
{
    size_t w = index64 ? 8 : 4;
    void *sa = malloc((size_t)n * w), *lcp = malloc((size_t)n * w);
    clsa_status st = CLSA_OK;
    if (!sa || !lcp) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "LCS: out of host memory");
        goto done;
    }
    CLSA_TRY(routed ? clsa__sa_pick_run(ctx, s, 1, sa, n, index64)
                    : clsa__sa_host(ctx, s, sa, n, index64));
    CLSA_TRY(clsa__lcp_host(ctx, s, sa, lcp, n, index64));
    int64_t L = best_length(sa, lcp, index64, na, n);
    if (L > 0) *res = pick(sa, lcp, index64, na, n, L);
done:
    free(sa);
    free(lcp);
    return st;
}

static clsa_status lcs_locked(clsa_context *ctx, int device, const uint8_t *a, int64_t na,
                              const uint8_t *b, int64_t nb, lcs_result *res)
{
    int64_t n = na + nb;
    int index64 = n >= INT32_MAX;
    uint8_t *s = malloc((size_t)n);
    if (!s)
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "LCS: out of host memory for %lld bytes",
                          (long long)n);
    memcpy(s, a, (size_t)na);
    memcpy(s + na, b, (size_t)nb);
    int routed = device && clsa__index_past_alloc(ctx, n, index64);
    clsa_status st = device && !routed ? lcs_device(ctx, s, n, na, index64, res)
                                       : lcs_host(ctx, s, n, na, index64, routed, res);
    free(s);
    return st;
}

clsa_status clsa__lcs(clsa_context *ctx, const uint8_t *a, int64_t na, const uint8_t *b,
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
        clsa__call_begin(ctx);
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
