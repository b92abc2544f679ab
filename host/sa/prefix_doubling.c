/* Device suffix array by prefix doubling (docs/SA.md): the pipeline that
 * runs its stages in order and the entry points of sa.h.  Each stage has a
 * host file, its header and a kernel file of one name (cl_kernels/sa/):
 *
 * 1. pd_init: initial sort of all suffixes by their first h0 symbols,
 *    packed with the bits the text's alphabet needs (h0 = 64 / bits).
 * 2. pd_init: ranks = SA index of the group's first suffix, into ISA;
 *    singletons leave the working set u (pd_split.c settle).
 * 3. pd_pass: while u is not empty: sort u stably by ISA[p + h], then by
 *    the group rank (groups by length class: pd_sort), split groups, new
 *    ranks, drop singletons (pd_split), h *= 2.  pd_lazy fills the ranks
 *    a pass reads where the initial ranks were written lazily.
 * 4. pd_invert: SA = ISA^-1 (the SA buffer is work space until then),
 *    unless in direct mode (pd_init.c shrink) the SA buffer kept the
 *    initial order and each split wrote its new singletons into it.
 * pd_part runs stages 1-4 over one part of the suffixes on several devices;
 * pd_work holds the buffers the stages share and runs their kernels.
 * One repeated byte is answered directly. */
#include "sa.h"
#include "small.h"
#include "pd_init.h"
#include "pd_invert.h"
#include "pd_pass.h"
#include "pd_part.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "progress.h"
#include "status.h"
#include "tuning.h"

#include <string.h>

/* The program of these kernels. */
static const char *const PROGRAM = "pd_invert";
/* Share of the call's progress the sorting takes; the inversion the rest. */
#define SORTED_SHARE 0.95

/* Progress after a sort step: the share of suffixes already final, an
 * honest measure of the work done (passes shrink with the unsorted set). */
static clsa_status report_sorted(clsa_context *ctx, const char *phase, const clsa__sa_work *w)
{
    double done = w->n ? 1.0 - (double)w->m / (double)w->n : 1.0;
    return clsa__progress(ctx, phase, SORTED_SHARE * done);
}

/* A pass at h >= n separates every suffix (the keys past the end differ in
 * length); one more means broken ranks: fail, never spin. */
static clsa_status past_convergence(clsa_context *ctx, uint64_t h, uint64_t n)
{
    if (h / 2 < n) return CLSA_OK;
    return clsa__fail(ctx, CLSA_ERR_OPENCL,
                      "suffix array: doubling did not converge (h = %llu, n = %llu): "
                      "the device computed inconsistent ranks",
                      (unsigned long long)h, (unsigned long long)n);
}

static clsa_status sa_device(clsa_context *ctx, cl_mem text, int sym, int sep_byte,
                             int text_writable, cl_mem sa, int64_t n, int index64,
                             int *ranks);

clsa_status clsa__sa_device(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n, int index64)
{
    return sa_device(ctx, text, 1, -1, 0, sa, n, index64, NULL);
}

clsa_status clsa__sa_device_ranks(clsa_context *ctx, cl_mem text, cl_mem out, int64_t n,
                                  int index64, int *is_isa)
{
    *is_isa = 0;
    if (ctx->tune.sa_path & CLSA_SA_FROM_SA) /* CLSA_TUNE sa_path=from_sa: always the SA, for comparison */
        return sa_device(ctx, text, 1, -1, 0, out, n, index64, NULL);
    return sa_device(ctx, text, 1, -1, 0, out, n, index64, is_isa);
}

clsa_status clsa__sa_device_sym(clsa_context *ctx, cl_mem text, int sym, int text_writable,
                                cl_mem sa, int64_t n, int index64)
{
    return sa_device(ctx, text, sym, -1, text_writable, sa, n, index64, NULL);
}

clsa_status clsa__sa_device_gsa(clsa_context *ctx, cl_mem text, int sep_byte, cl_mem sa,
                                int64_t n, int index64)
{
    return sa_device(ctx, text, 1, sep_byte, 0, sa, n, index64, NULL);
}

/* ranks: NULL for the suffix array in sa; else the caller takes the final
 * ranks (the ISA) in sa where the doubling ended with them (*ranks = 1,
 * no inversion), and the suffix array where it ended without (*ranks = 0:
 * the initial sort separated every suffix, or a one-symbol text). */
static clsa_status sa_device(clsa_context *ctx, cl_mem text, int sym, int sep_byte,
                             int text_writable, cl_mem sa, int64_t n, int index64, int *ranks)
{
    size_t iw = index64 ? 8 : 4;
    int prev = clsa__set_phase(ctx, CLSA_PHASE_INITIAL_SORT);
    pd_buffers b = {{NULL}};
    clsa__sa_work w;
    memset(&w, 0, sizeof w);
    w.index64 = index64;
    w.n = (uint64_t)n;
    w.sa_len = w.n;
    w.direct_ok = !ranks; /* ranks: the final ISA is wanted, kept as before */
    pd_alphabet a;
    memset(&a, 0, sizeof a);
    cl_ulong nn = (cl_ulong)n;
    clsa_status st = CLSA_OK;
    ctx->stats.doubling_passes = 0;
    if (n <= 0) goto done;
    if ((uint64_t)n > UINT32_MAX) {
        st = clsa__fail(ctx, CLSA_ERR_TOO_LARGE,
                        "device suffix array: %lld bytes; the device path handles fewer "
                        "than 2^32 (its scans count in 32 bits); use the host backend",
                        (long long)n);
        goto done;
    }
    if (sym == 1 && sep_byte < 0 && clsa__sa_small_wanted(ctx, n)) { /* small.c */
        int declined = 0;
        st = clsa__sa_small(ctx, text, sa, n, index64, ranks != NULL, &declined);
        if (ranks) *ranks = !st && !declined;
        if (st || !declined) goto done;
    }
    /* Initial phase: three n-entry work arrays (the first becomes ISA); the
     * loop then needs ISA plus three arrays of the unsorted suffixes
     * (checked in shrink, once their number is known). */
    CLSA_TRY(clsa__reserve_check(ctx, 3 * iw * (uint64_t)n + 4096, "suffix array working set"));
    CLSA_TRY(clsa__progress(ctx, "initial sort", 0.0));
    memset(&a, 0, sizeof a);
    a.sym = (unsigned)sym;
    a.sep_byte = sep_byte;
    a.h0 = 1; /* integer alphabets: the first symbol, unless packed (initial_groups_int) */
    if (sym == 1) CLSA_TRY(clsa__pd_alphabet(ctx, text, w.n, &a));
    if (sym == 1 && a.sigma == 1 && sep_byte < 0) {
        CLSA_TRY(
            CLSA_SA_RUN(ctx, PROGRAM, index64, "pd_reverse", w.n, 0, CLSA_KARG(nn), CLSA_KARG(sa)));
        CLSA_TRY(clsa__progress(ctx, "initial sort", 1.0));
        goto done;
    }
    CLSA_TRY(clsa__pd_alloc(ctx, &b, 8, &w.counter));
    CLSA_TRY(clsa__pd_alloc(ctx, &b, 36 * 4, &w.counts));
    if (sym == 1) CLSA_TRY(clsa__pd_initial_groups(ctx, text, sa, &b, &w, &a, 0));
    else CLSA_TRY(clsa__pd_initial_groups_int(ctx, text, text_writable, sa, &b, &w, &a));
    CLSA_TRY(report_sorted(ctx, "initial sort", &w));
    for (uint64_t h = a.h0; w.m > 0; h *= 2) {
        if ((st = past_convergence(ctx, h, w.n))) goto done;
        ctx->stats.doubling_passes++;
        CLSA_TRY(clsa__pd_pass(ctx, &w, h));
        CLSA_TRY(report_sorted(ctx, "doubling", &w));
    }
    clsa__set_phase(ctx, CLSA_PHASE_ISA_UPDATE);
    CLSA_TRY(clsa__progress(ctx, "inversion", SORTED_SHARE));
    if (w.isa_unset || w.sa) { /* the initial sort and the splits left the SA in sa */
    } else if (ranks) {
        CLSA_TRY(clsa__copy(ctx, w.isa, 0, sa, 0, (size_t)w.n * iw));
        *ranks = 1;
    } else {
        CLSA_TRY(clsa__pd_invert(ctx, &b, &w, sa));
    }
    CLSA_TRY(clsa__progress(ctx, "inversion", 1.0));
done:
    clsa__pd_drop_long_views(ctx, &w);
    clsa__free(ctx, &a.dcodes);
    clsa__pd_release_all(ctx, &b);
    clsa__set_phase(ctx, prev);
    return st;
}

/* One member's part of a suffix array on several devices (pd_part.h): the
 * same initial sort and doubling passes over the member's suffixes, with
 * the ranks other members own fetched before each pass.  Every member
 * takes part in every collective whatever fails locally (the failure is
 * agreed at the next one), so none waits for ever.  *out (made here, m
 * entries: only the ranks span all n) gets the slice
 * SA[p->base, p->base + p->count). */
clsa_status clsa__sa_device_part(clsa_context *ctx, cl_mem text, cl_mem *out, int64_t n,
                                 clsa__pd_part *p, clsa_status st)
{
    int prev = clsa__set_phase(ctx, CLSA_PHASE_INITIAL_SORT);
    pd_buffers b = {{NULL}};
    clsa__sa_work w;
    memset(&w, 0, sizeof w);
    w.n = (uint64_t)n;
    pd_alphabet a;
    memset(&a, 0, sizeof a);
    a.sym = 1;
    a.sep_byte = -1;
    uint64_t m = 0;
    size_t iw = 4;
    ctx->stats.doubling_passes = 0;
    if (!st && (uint64_t)n > UINT32_MAX)
        st = clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "several devices: %lld bytes; the device path "
                        "handles fewer than 2^32", (long long)n);
    if (!st) st = clsa__reserve_check(ctx, iw * (uint64_t)n + 4096, "suffix array working set");
    if (!st) st = clsa__pd_alphabet(ctx, text, w.n, &a);
    if (!st) st = clsa__pd_alloc(ctx, &b, (size_t)n * iw, &w.k); /* the ranks of all n */
    if (!st) st = clsa__pd_alloc(ctx, &b, ((size_t)n + 31) / 32 * 4, &w.sk); /* a bit a suffix */
    if (!st) st = clsa__pd_alloc(ctx, &b, 8, &w.counter);
    if (!st) st = clsa__pd_alloc(ctx, &b, 36 * 4, &w.counts);
    if (!st) st = clsa__pd_part_own(ctx, p, text, w.n, out, w.sk, &m);
    cl_mem sa = *out;
    /* the initial sort's scratch: the member's m suffixes, not all n */
    clsa__pd_release(ctx, &b, w.sk);
    w.sk = NULL;
    if (!st) st = clsa__reserve_check(ctx, 2 * iw * m + 256, "suffix array working set");
    if (!st) st = clsa__pd_alloc(ctx, &b, (size_t)m * iw, &w.sk);
    if (!st) st = clsa__pd_alloc(ctx, &b, (size_t)m * iw, &w.sv);
    st = clsa__pd_part_slices(ctx, p, st, m);
    w.u = sa;
    w.m = (size_t)m;
    w.rank_base = p->base;
    w.sa_len = m;
    w.direct_ok = 1; /* the slice written as its suffixes finish */
    if (!st && m) st = clsa__pd_initial_groups(ctx, text, sa, &b, &w, &a, 1);
    for (uint64_t h = a.h0 ? a.h0 : 1;; h *= 2) {
        int more = 0;
        st = clsa__pd_part_exchange(ctx, p, &w, text, h, st, &more);
        if (st || !more) break;
        /* every member sees the same h and n: all stop here */
        if ((st = past_convergence(ctx, h, w.n))) break;
        ctx->stats.doubling_passes++;
        clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
        if (w.m) st = clsa__pd_pass(ctx, &w, h);
    }
    clsa__set_phase(ctx, CLSA_PHASE_ISA_UPDATE);
    clsa__pd_drop_long_views(ctx, &w);
    clsa__free(ctx, &a.dcodes);
    if (!st) st = clsa__pd_part_invert(ctx, p, &w, text, sa);
    clsa__pd_release_all(ctx, &b);
    clsa__free(ctx, &p->dsplit);
    clsa__set_phase(ctx, prev);
    return st;
}
