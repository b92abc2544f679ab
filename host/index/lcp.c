/* LCP array: device PLCP over irreducible values (cl_kernels/lcp.cl),
 * Kasai on the host, public entry points. */
#include "lcp.h"
#include "cpu/reference.h"
#include "index_run.h"
#include "sa/sa.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "progress.h"
#include "status.h"
#include "text_pack.h"
#include "tuning.h"

#include <stdlib.h>

/* Irreducible comparisons longer than this go to the many-work-items
 * phase; most irreducible values are short. */
#define SHORT_CAP 256u
/* Long phase: bytes per compare work-item, work-items per round. */
#define SEG 256u
#define ROUND_ITEMS ((size_t)1 << 20)

/* The program of these kernels. */
static const char *const PROGRAM = "lcp";

typedef struct lcp_job {
    clsa_context *ctx;
    cl_mem text, plcp;
    cl_ulong n;
    int index64;
    size_t w, wg;
} lcp_job;

static size_t pow2_ceil(size_t x)
{
    size_t p = 1;
    while (p < x) p *= 2;
    return p;
}

/* Rounds over one collected list of m pending pairs until all are done. */
static clsa_status finish_list(const lcp_job *j, cl_mem list, cl_mem off, cl_uint m,
                               cl_mem remaining)
{
    clsa_context *ctx = j->ctx;
    size_t per_text = clsa__div_up((size_t)j->n, SEG);
    size_t groups = ROUND_ITEMS / m;
    if (groups > per_text) groups = per_text;
    if (groups < 1) groups = 1;
    cl_uint g = (cl_uint)groups, seg = SEG, lanes = (cl_uint)pow2_ceil(groups);
    if (lanes > j->wg) lanes = (cl_uint)j->wg;
    cl_mem mm = NULL;
    uint32_t left = 0;
    const uint32_t zero = 0; /* written, not filled: Oclgrind tracks writes */
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)m * groups * 4, &mm));
    do {
        CLSA_TRY(clsa__write(ctx, remaining, 0, &zero, 4));
        CLSA_TRY(CLSA_RUN(ctx, PROGRAM, j->index64, NULL, "lcp_long_compare", (size_t)m * groups,
                          j->wg, CLSA_KARG(j->text), CLSA_KARG(j->n), CLSA_KARG(list), CLSA_KARG(m),
                          CLSA_KARG(off), CLSA_KARG(j->plcp), CLSA_KARG(g), CLSA_KARG(seg),
                          CLSA_KARG(mm)));
        CLSA_TRY(CLSA_RUN(ctx, PROGRAM, j->index64, NULL, "lcp_long_reduce", (size_t)m * lanes,
                          j->wg, CLSA_KARG(list), CLSA_KARG(m), CLSA_KARG(off), CLSA_KARG(j->plcp),
                          CLSA_KARG(g), CLSA_KARG(seg), CLSA_KARG(lanes), CLSA_KARG(mm),
                          CLSA_KARG(remaining), CLSA_KLOCAL(j->wg * 4)));
        CLSA_TRY(clsa__read(ctx, remaining, 0, &left, 4));
    } while (left > 0);
done:
    clsa__free(ctx, &mm);
    return st;
}

/* Resolves every PENDING entry; the list holds at most list_cap at once,
 * so collection repeats until one fits. */
static clsa_status finish_long(const lcp_job *j)
{
    clsa_context *ctx = j->ctx;
    size_t want = (size_t)j->n / 64;
    if (want < 1024) want = 1024;
    cl_uint list_cap = want > UINT32_MAX / 2 ? UINT32_MAX / 2 : (cl_uint)want;
    cl_uint cap = SHORT_CAP;
    cl_mem list = NULL, off = NULL, count = NULL, remaining = NULL;
    uint32_t found = 0;
    const uint32_t zero = 0; /* written, not filled: Oclgrind tracks writes */
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)list_cap * j->w, &list));
    CLSA_TRY(clsa__alloc(ctx, (size_t)list_cap * j->w, &off));
    CLSA_TRY(clsa__alloc(ctx, 4, &count));
    CLSA_TRY(clsa__alloc(ctx, 4, &remaining));
    do {
        CLSA_TRY(clsa__write(ctx, count, 0, &zero, 4));
        CLSA_TRY(CLSA_RUN(ctx, PROGRAM, j->index64, NULL, "lcp_collect", (size_t)j->n, j->wg,
                          CLSA_KARG(j->plcp), CLSA_KARG(j->n), CLSA_KARG(count),
                          CLSA_KARG(list_cap), CLSA_KARG(cap), CLSA_KARG(list), CLSA_KARG(off)));
        CLSA_TRY(clsa__read(ctx, count, 0, &found, 4));
        if (found > 0)
            CLSA_TRY(finish_list(j, list, off, found < list_cap ? found : list_cap, remaining));
    } while (found > list_cap);
done:
    clsa__free(ctx, &list);
    clsa__free(ctx, &off);
    clsa__free(ctx, &count);
    clsa__free(ctx, &remaining);
    return st;
}

/* Reducible values from the prefix maximum of V: tile maxima, their
 * exclusive scan in one work-group, then each tile from its prefix. */
static clsa_status fill_reducible(const lcp_job *j)
{
    clsa_context *ctx = j->ctx;
    cl_uint items = (cl_uint)(ctx->tune.scan_items ? ctx->tune.scan_items : 8);
    size_t wg = j->wg;
    while (wg > 1 && 2 * wg * j->w > ctx->tune.local_mem) wg /= 2;
    size_t tile = wg * items;
    cl_ulong tiles = clsa__div_up((size_t)j->n, tile);
    size_t loc = wg * j->w;
    cl_mem tmax = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)tiles * j->w, &tmax));
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, j->index64, NULL, "lcp_tile_max", (size_t)tiles * wg, wg,
                      CLSA_KARG(j->plcp), CLSA_KARG(j->n), CLSA_KARG(items), CLSA_KARG(tmax),
                      CLSA_KLOCAL(loc), CLSA_KLOCAL(loc)));
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, j->index64, NULL, "lcp_scan_tiles", wg, wg, CLSA_KARG(tmax),
                      CLSA_KARG(tiles), CLSA_KLOCAL(loc), CLSA_KLOCAL(loc)));
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, j->index64, NULL, "lcp_tile_apply", (size_t)tiles * wg, wg,
                      CLSA_KARG(j->plcp), CLSA_KARG(j->n), CLSA_KARG(items), CLSA_KARG(tmax),
                      CLSA_KLOCAL(loc), CLSA_KLOCAL(loc)));
done:
    clsa__free(ctx, &tmax);
    return st;
}

clsa_status clsa__lcp_device(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n, int index64,
                             cl_mem lcp)
{
    if (n == 0) return CLSA_OK;
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    lcp_job j = {ctx, text, NULL, (cl_ulong)n, index64, index64 ? 8 : 4, ctx->tune.wg};
    cl_uint cap = SHORT_CAP;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)n * j.w, &j.plcp));
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, index64, NULL, "lcp_phi", (size_t)n, j.wg, CLSA_KARG(sa),
                      CLSA_KARG(j.n), CLSA_KARG(j.plcp)));
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, index64, NULL, "lcp_irreducible", (size_t)n, j.wg,
                      CLSA_KARG(text), CLSA_KARG(j.n), CLSA_KARG(cap), CLSA_KARG(j.plcp)));
    CLSA_TRY(finish_long(&j));
    CLSA_TRY(fill_reducible(&j));
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, index64, NULL, "lcp_gather", (size_t)n, j.wg, CLSA_KARG(j.plcp),
                      CLSA_KARG(sa), CLSA_KARG(j.n), CLSA_KARG(lcp)));
done:
    clsa__free(ctx, &j.plcp);
    clsa__set_phase(ctx, phase);
    return st;
}

/* ---- host: Kasai ----------------------------------------------------------- */

static int64_t get_at(const void *a, int64_t i, int index64)
{
    return index64 ? ((const int64_t *)a)[i] : ((const int32_t *)a)[i];
}

static void set_at(void *a, int64_t i, int64_t v, int index64)
{
    if (index64) ((int64_t *)a)[i] = v;
    else ((int32_t *)a)[i] = (int32_t)v;
}

clsa_status clsa__lcp_host(clsa_context *ctx, const uint8_t *text, const void *sa, void *lcp,
                           int64_t n, int index64)
{
    if (n == 0) return CLSA_OK;
    void *rank = malloc((size_t)n * (index64 ? 8 : 4));
    if (!rank) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "LCP: out of host memory");
    for (int64_t i = 0; i < n; i++) set_at(lcp, i, 0, index64);
    for (int64_t i = 0; i < n; i++) {
        int64_t s = get_at(sa, i, index64);
        if (s >= 0 && s < n) set_at(rank, s, i, index64);
        else set_at(rank, i, 0, index64); /* a corrupt sa: anything in bounds */
    }
    int64_t h = 0;
    for (int64_t jpos = 0; jpos < n; jpos++) {
        int64_t r = get_at(rank, jpos, index64);
        if (r <= 0 || r >= n) {
            h = 0;
            continue;
        }
        int64_t k = get_at(sa, r - 1, index64);
        if (k < 0 || k >= n) {
            h = 0;
            continue;
        }
        while (jpos + h < n && k + h < n && text[jpos + h] == text[k + h]) h++;
        set_at(lcp, r, h, index64);
        if (h > 0) h--;
    }
    free(rank);
    return CLSA_OK;
}

/* ---- public entry points ------------------------------------------------- */

/* sa: the caller's host array, or NULL to build it (in place of the LCP). */
static clsa_status lcp_on_device(clsa_context *ctx, const uint8_t *text, const void *sa,
                                 void *lcp, int64_t n, int index64)
{
    size_t bytes = (size_t)n * (index64 ? 8 : 4);
    cl_mem dtext = NULL, dsa = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)n, &dtext));
    CLSA_TRY(clsa__alloc(ctx, bytes, &dsa));
    CLSA_TRY(clsa__write_text(ctx, dtext, text, (size_t)n));
    if (sa) CLSA_TRY(clsa__write(ctx, dsa, 0, sa, bytes));
    else {
        /* the suffix array is most of the work; Kasai on the device the rest */
        clsa__progress_slice(ctx, 0.0, 0.8);
        st = clsa__sa_device(ctx, dtext, dsa, n, index64);
        clsa__progress_slice(ctx, 0.0, 1.0);
        CLSA_TRY(st);
    }
    CLSA_TRY(clsa__progress(ctx, "lcp", sa ? 0.0 : 0.8));
    CLSA_TRY(clsa__lcp_device(ctx, dtext, dsa, n, index64, dsa));
    CLSA_TRY(clsa__read(ctx, dsa, 0, lcp, bytes));
done:
    clsa__free(ctx, &dtext);
    clsa__free(ctx, &dsa);
    return st;
}

static clsa_status lcp_on_host(clsa_context *ctx, const uint8_t *text, const void *sa, void *lcp,
                               int64_t n, int index64)
{
    if (sa) return clsa__lcp_host(ctx, text, sa, lcp, n, index64);
    void *tmp = malloc((size_t)n * (index64 ? 8 : 4));
    if (!tmp) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "LCP: out of host memory");
    clsa__progress_slice(ctx, 0.0, 0.6);
    clsa_status st = clsa__sa_host(ctx, text, tmp, n, index64);
    clsa__progress_slice(ctx, 0.0, 1.0);
    if (st == CLSA_OK) st = clsa__progress(ctx, "lcp", 0.6);
    if (st == CLSA_OK) st = clsa__lcp_host(ctx, text, tmp, lcp, n, index64);
    free(tmp);
    return st;
}

/* Past the largest allocation: the suffix array by its own route, Kasai
 * on the host. */
static clsa_status lcp_past_alloc(clsa_context *ctx, const uint8_t *text, const void *sa,
                                  void *lcp, int64_t n, int index64)
{
    void *tmp = NULL;
    clsa__progress_slice(ctx, 0.0, 0.6);
    clsa_status st = sa ? CLSA_OK : clsa__index_sa(ctx, text, n, index64, &tmp);
    clsa__progress_slice(ctx, 0.0, 1.0);
    if (st == CLSA_OK) st = clsa__lcp_host(ctx, text, sa ? sa : tmp, lcp, n, index64);
    free(tmp);
    return st;
}

clsa_status clsa__lcp_run(clsa_context *ctx, const uint8_t *text, const void *sa, void *lcp,
                          int64_t n, int index64, int need_sa)
{
    clsa_status st = clsa__index_args(ctx, "LCP", n, index64, text && lcp && (sa || !need_sa));
    int device;
    if (st || n == 0 || (st = clsa__index_begin(ctx, n, &device))) return st;
    if (device && clsa__index_past_alloc(ctx, n, index64))
        st = lcp_past_alloc(ctx, text, sa, lcp, n, index64);
    else
        st = device ? lcp_on_device(ctx, text, sa, lcp, n, index64)
                    : lcp_on_host(ctx, text, sa, lcp, n, index64);
    return clsa__call_end(ctx, st);
}

/* Device arrays past the largest allocation: the LCP through host memory. */
static clsa_status lcp_mem_host(clsa_context *ctx, cl_mem text, cl_mem sa, cl_mem lcp, int64_t n,
                                int index64)
{
    size_t w = index64 ? 8 : 4;
    void *t = NULL, *s = NULL, *l = malloc((size_t)n * w);
    clsa_status st = CLSA_OK;
    if (!l) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "LCP: out of host memory");
        goto done;
    }
    CLSA_TRY(clsa__read_new(ctx, text, (size_t)n, &t));
    CLSA_TRY(clsa__read_new(ctx, sa, (size_t)n * w, &s));
    CLSA_TRY(clsa__lcp_host(ctx, t, s, l, n, index64));
    CLSA_TRY(clsa__write(ctx, lcp, 0, l, (size_t)n * w));
done:
    free(t);
    free(s);
    free(l);
    return st;
}

clsa_status clsa__lcp_mem_run(clsa_context *ctx, cl_mem text, cl_mem sa, cl_mem lcp, int64_t n,
                              int index64)
{
    clsa_status st = clsa__index_begin_mem(ctx);
    if (st) return st;
    st = clsa__index_args(ctx, "LCP", n, index64, text && sa && lcp);
    if (st == CLSA_OK && n > 0 && (uint64_t)n * (index64 ? 8u : 4u) > ctx->tune.max_alloc)
        st = lcp_mem_host(ctx, text, sa, lcp, n, index64);
    else if (st == CLSA_OK) st = clsa__lcp_device(ctx, text, sa, n, index64, lcp);
    return clsa__index_end(ctx, st);
}
