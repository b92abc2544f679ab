/* Prefix doubling, the group sorts of stage 3 (groups.h): the unsorted
 * groups by length class, sorted in private or local memory, or (longer
 * than R1) by radix sorts over their suffixes.  Kernels:
 * cl_kernels/sa/pd_sort.cl (with groups.cl). */
#include "pd_sort.h"
#include "prim/radix_sort.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "status.h"
#include "tuning.h"

#include <string.h>

/* The boundary flag of the sorts (groups.cl GRP_TOP, or 0 unless
 * w->flagged) as an idx_t kernel argument in f32 / f64. */
#define FLAG_KARG(w, f32, f64)                                                           \
    ((f32) = (w)->flagged ? 0x80000000u : 0u, (f64) = (cl_ulong)(f32) << 32,              \
     (w)->index64 ? (clsa__karg)CLSA_KARG(f64) : (clsa__karg)CLSA_KARG(f32))

/* The program of these kernels. */
static const char *const PROGRAM = "groups+pd_sort";

clsa_status clsa__groups_flag_from_keys(clsa_context *ctx, clsa__sa_work *w)
{
    cl_ulong m = w->m;
    clsa_status st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_key_bits", w->m, 0, CLSA_KARG(w->k),
                                 CLSA_KARG(m), CLSA_KARG(w->u));
    w->flagged = st == CLSA_OK;
    return st;
}

/* A class-c group is sorted by min(P / 2, wg) work-items over P slots. */
static size_t class_slots(unsigned c) { return (size_t)CLSA_GRP_TINY << (c + 1); }

unsigned clsa__groups_nclass(const clsa_context *ctx, int index64)
{
    size_t iw = index64 ? 8 : 4;
    size_t lm = (size_t)(ctx->tune.local_mem ? ctx->tune.local_mem : 16384);
    size_t r1 = clsa__pow2_floor(ctx->tune.r1 ? ctx->tune.r1 : 1024);
    size_t fit = clsa__pow2_floor((lm > 1024 ? lm - 1024 : lm / 2) / (2 * iw));
    if (r1 > fit) r1 = fit;
    unsigned c = 0;
    while (class_slots(c) <= r1 && c < 24) c++;
    return c; /* classes 0..c-1 hold up to CLSA_GRP_TINY << c <= r1 */
}

clsa_status clsa__groups_classify(clsa_context *ctx, clsa__sa_work *w, clsa__grp_classes *c)
{
    cl_ulong m = w->m, g = w->g;
    cl_uint nc = c->nclass;
    uint32_t counts[36];
    size_t bytes = (c->nclass + 2) * 4;
    clsa_status st;
    /* known: the split counted them (its summary), no read; zeroed: the
     * split zeroed counts */
    int known = w->classes_known, zeroed = w->counts_zero && bytes <= CLSA_SCAN_USER_WORDS * 4;
    memset(counts, 0, sizeof counts);
    w->classes_known = w->counts_zero = 0;
    if ((!zeroed && (st = clsa__fill_zero(ctx, w->counts, 0, bytes))) ||
        (st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_classify", w->g, 0, CLSA_KARG(w->sv),
                          CLSA_KARG(g), CLSA_KARG(m), CLSA_KARG(nc), CLSA_KARG(w->counts),
                          CLSA_KARG(w->k), CLSA_KLOCAL((c->nclass + 1) * 4),
                          CLSA_KLOCAL((c->nclass + 1) * 4))) ||
        (!known && (st = clsa__read(ctx, w->counts, 0, counts, bytes))))
        return st;
    const uint32_t *from = known ? w->summary : counts;
    memcpy(c->count, from, (c->nclass + 1) * 4);
    c->large_slots = from[c->nclass + 1];
    return CLSA_OK;
}

/* The classes of one grp_sort_local launch from class k on: those up to
 * P / 2 = wg (their teams fill a work-group at 2 wg slots) eight at a
 * time, a longer one alone.  firsts, counts: each class's first work-group
 * and groups (the unused lanes past the last work-group, empty); *wgs:
 * work-groups in all; *slots: local keys a work-group.  Returns the
 * classes taken. */
static unsigned local_batch(const clsa__grp_classes *c, unsigned k, size_t wg, cl_uint8 *firsts,
                            cl_uint8 *counts, size_t *wgs, size_t *slots)
{
    int shared = class_slots(k) / 2 <= wg;
    unsigned j = 0;
    *wgs = 0;
    do {
        /* a team of up to P/2 work-items per group, wg / team groups per
         * work-group */
        size_t P = class_slots(k + j), team = P / 2 < wg ? P / 2 : wg, per = wg / team;
        firsts->s[j] = (cl_uint)*wgs;
        counts->s[j] = c->count[k + j];
        *wgs += clsa__div_up(c->count[k + j], per);
        *slots = per * P;
        j++;
    } while (shared && j < 8 && k + j < c->nclass && class_slots(k + j) / 2 <= wg);
    for (unsigned i = j; i < 8; i++) {
        firsts->s[i] = (cl_uint)*wgs;
        counts->s[i] = 0;
    }
    return j;
}

clsa_status clsa__groups_sort_small(clsa_context *ctx, clsa__sa_work *w,
                                    const clsa__grp_classes *c, uint64_t h)
{
    size_t iw = w->index64 ? 8 : 4, wg = ctx->tune.wg;
    cl_ulong m = w->m, g = w->g, n = w->n, hh = h;
    cl_uint nc = c->nclass, f32;
    cl_ulong f64;
    /* the tiny groups: work-groups after the first local launch's own, a
     * group a work-item (a launch of their own where no class is local) */
    size_t tiny_wgs = clsa__div_up(w->g, wg);
    clsa_status st = CLSA_OK;
    for (unsigned k = 0; st == CLSA_OK && k < c->nclass;) {
        size_t slots, wgs;
        cl_uint8 firsts, counts;
        cl_uint cls0 = k;
        k += local_batch(c, k, wg, &firsts, &counts, &wgs, &slots);
        if (!wgs && !tiny_wgs) continue;
        cl_uint tiny_from = (cl_uint)wgs;
        st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_sort_local", (wgs + tiny_wgs) * wg, wg,
                         CLSA_KARG(w->k), CLSA_KARG(cls0), CLSA_KARG(firsts), CLSA_KARG(counts),
                         CLSA_KARG(nc), CLSA_KARG(w->sv), CLSA_KARG(g), CLSA_KARG(m), CLSA_KARG(n),
                         CLSA_KARG(hh), CLSA_KARG(w->isa), CLSA_KARG(w->u), CLSA_KLOCAL(slots * iw),
                         CLSA_KLOCAL(slots * iw), FLAG_KARG(w, f32, f64), CLSA_KARG(tiny_from));
        tiny_wgs = 0;
    }
    if (st || !tiny_wgs) return st;
    return CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_sort_tiny", w->g, 0, CLSA_KARG(w->sv),
                       CLSA_KARG(g), CLSA_KARG(m), CLSA_KARG(n), CLSA_KARG(hh), CLSA_KARG(w->isa),
                       CLSA_KARG(w->u), FLAG_KARG(w, f32, f64));
}

clsa_status clsa__groups_large_bounds(clsa_context *ctx, clsa__sa_work *w,
                                      const clsa__grp_classes *c, cl_mem offs, cl_mem lens)
{
    cl_ulong m = w->m, g = w->g, count = c->count[c->nclass];
    cl_uint nc = c->nclass;
    return CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_large_bounds", (size_t)count, 0,
                       CLSA_KARG(w->k), CLSA_KARG(nc), CLSA_KARG(count), CLSA_KARG(w->sv),
                       CLSA_KARG(g), CLSA_KARG(m), CLSA_KARG(offs), CLSA_KARG(lens));
}

/* The two sorts of clsa__groups_sort_long, from the keys
 * (grp_large_keys): by key2 (views 0 and 2), then regrouped into views 1
 * and 3 and sorted by group.  Their single-pass faults are read once,
 * after both (ctl); *faulted: the sorts are to be redone (the regroup
 * clamps the positions it reads, so a faulted sort's values are never
 * used as an index out of range). */
static clsa_status long_sorts(clsa_context *ctx, clsa__sa_work *w, uint64_t h, cl_mem offs,
                              cl_mem cstart, uint32_t count, uint32_t total,
                              const cl_mem views[4], size_t table_bytes, cl_mem ctl, int *faulted)
{
    int iw = w->index64 ? 8 : 4, pending = 0;
    cl_ulong n = w->n, hh = h;
    cl_uint f32;
    cl_ulong f64;
    clsa_status st;
    *faulted = 0;
    if ((st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_large_keys", total, 0, CLSA_KARG(w->u),
                          CLSA_KARG(w->isa), CLSA_KARG(n), CLSA_KARG(hh), CLSA_KARG(offs),
                          CLSA_KARG(cstart), CLSA_KARG(count), CLSA_KARG(total),
                          CLSA_KARG(views[0]), CLSA_KARG(views[2]))) ||
        (st = clsa__radix_sort_unchecked(ctx, views[0], views[2], total, iw, iw, 0,
                                         clsa__bits_of(w->n), views[1], views[3], table_bytes, ctl,
                                         &pending)) ||
        (st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_large_regroup", total, 0, CLSA_KARG(w->u),
                          CLSA_KARG(offs), CLSA_KARG(cstart), CLSA_KARG(count), CLSA_KARG(total),
                          CLSA_KARG(views[0]), CLSA_KARG(views[2]), CLSA_KARG(views[1]),
                          CLSA_KARG(views[3]), FLAG_KARG(w, f32, f64))))
        return st;
    if (count > 1 &&
        (st = clsa__radix_sort_unchecked(ctx, views[1], views[3], total, iw, iw, 0,
                                         clsa__bits_of(count - 1), views[0], views[2],
                                         table_bytes, ctl, &pending)))
        return st;
    return clsa__radix_sort_faulted(ctx, ctl, pending, faulted);
}

/* The bits of the long groups' joint key (group number above key2), 0
 * where it does not fit an index (two sorts then) or CLSA_TUNE
 * sa_path=two_sorts asks for two sorts. */
static unsigned joint_bits(const clsa_context *ctx, const clsa__sa_work *w, uint32_t count)
{
    unsigned bits = clsa__bits_of(w->n) + (count > 1 ? clsa__bits_of(count - 1) : 0);
    int two = (ctx->tune.sa_path & CLSA_SA_TWO_SORTS) != 0;
    return bits <= (w->index64 ? 64u : 32u) && !two ? bits : 0;
}

/* The long groups as one sort by (group, key2) (joint > 0: its bits) or
 * two (long_sorts), from their keys; *faulted as long_sorts'. */
static clsa_status long_sort(clsa_context *ctx, clsa__sa_work *w, uint64_t h, cl_mem offs,
                             cl_mem cstart, uint32_t count, uint32_t total, unsigned joint,
                             const cl_mem views[4], size_t table_bytes, cl_mem ctl, int *faulted)
{
    int iw = w->index64 ? 8 : 4, pending = 0;
    cl_ulong n = w->n, hh = h;
    cl_uint kb = clsa__bits_of(w->n), f32;
    cl_ulong f64;
    clsa_status st;
    if (!joint)
        return long_sorts(ctx, w, h, offs, cstart, count, total, views, table_bytes, ctl,
                          faulted);
    if ((st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_large_joint_keys", total, 0,
                          CLSA_KARG(w->u), CLSA_KARG(w->isa), CLSA_KARG(n), CLSA_KARG(hh),
                          CLSA_KARG(offs), CLSA_KARG(cstart), CLSA_KARG(count), CLSA_KARG(total),
                          CLSA_KARG(kb), CLSA_KARG(views[0]), CLSA_KARG(views[2]))) ||
        (st = clsa__radix_sort_unchecked(ctx, views[0], views[2], total, iw, iw, 0, joint, views[1],
                                         views[3], table_bytes, ctl, &pending)) ||
        (st = clsa__radix_sort_faulted(ctx, ctl, pending, faulted)) || *faulted)
        return st;
    return CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_large_joint_put", total, 0,
                       CLSA_KARG(views[0]), CLSA_KARG(views[2]), CLSA_KARG(offs), CLSA_KARG(cstart),
                       CLSA_KARG(count), CLSA_KARG(total), CLSA_KARG(w->u), FLAG_KARG(w, f32, f64));
}

clsa_status clsa__groups_sort_long(clsa_context *ctx, clsa__sa_work *w, const clsa__grp_classes *c,
                                   uint64_t h, const cl_mem views[4], size_t table_bytes)
{
    int iw = w->index64 ? 8 : 4;
    uint32_t count = c->count[c->nclass], total = (uint32_t)c->large_slots;
    cl_ulong m = w->m, g = w->g, cc = count;
    cl_uint nc = c->nclass;
    cl_mem offs = NULL, cstart = NULL, ctl = NULL;
    unsigned joint = joint_bits(ctx, w, count);
    int faulted = 1;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)count * iw, &offs));
    CLSA_TRY(clsa__alloc(ctx, (size_t)count * 4, &cstart));
    CLSA_TRY(clsa__alloc(ctx, CLSA_RADIX_CTL_BYTES, &ctl));
    /* the class lists are in k, where the keys go: spans first */
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_large_spans", count, 0, CLSA_KARG(w->k),
                         CLSA_KARG(nc), CLSA_KARG(cc), CLSA_KARG(w->sv), CLSA_KARG(g), CLSA_KARG(m),
                         CLSA_KARG(offs), CLSA_KARG(cstart)));
    CLSA_TRY(clsa__scan(ctx, cstart, cstart, count, 0, 0, NULL));
    /* a fault: once more from the keys, by reduce-then-scan (the context
     * keeps it, as radix_sort.c does after a fault it finds itself) */
    for (int round = 0; faulted && round < 2; round++) {
        if (round) ctx->tune.onesweep = 0;
        CLSA_TRY(long_sort(ctx, w, h, offs, cstart, count, total, joint, views, table_bytes,
                           ctl, &faulted));
    }
    if (faulted) {
        st = clsa__fail(ctx, CLSA_ERR_OPENCL, "suffix array: the long groups' sorts faulted twice");
        goto done;
    }
    if (!joint)
        CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_large_put", total, 0,
                             CLSA_KARG(views[3]), CLSA_KARG(offs), CLSA_KARG(cstart),
                             CLSA_KARG(count), CLSA_KARG(total), CLSA_KARG(w->u)));
done:
    clsa__free(ctx, &offs);
    clsa__free(ctx, &cstart);
    clsa__free(ctx, &ctl);
    return st;
}
