/* Prefix doubling, stage 3 (prefix_doubling.c): one doubling pass sorts
 * the unsorted suffixes u stably by ISA[p + h], then by the group rank
 * (skipped when one group is left), and splits the groups (pd_split.c).
 * Groups are sorted by length class (pd_sort.c) or all at once by global
 * radix sorts (sort_global).  Kernels: cl_kernels/sa/pd_pass.cl. */
#include "pd_pass.h"
#include "pd_sort.h"
#include "pd_split.h"
#include "pd_work.h"
#include "pd_lazy.h"
#include "prim/radix_sort.h"
#include "prim/segmented_sort.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "status.h"
#include "tuning.h"

#include <string.h>

/* The program of these kernels. */
static const char *const PROGRAM = "pd_pass";
/* Stable sort of (k, u) by the key bits [0, bits).  When sv is shorter
 * than m (the memory budget, see shrink), the two halves are radix sorted
 * one after the other with the same scratch (sv keys, sk values) and
 * merged into sk, which then becomes u: the scratch and the digit table
 * are m / 2 instead of m. */
static clsa_status sort_by_key(clsa_context *ctx, clsa__sa_work *w, unsigned bits)
{
    int kb = w->index64 ? 8 : 4;
    if (w->m <= w->sv_len)
        return clsa__radix_sort_capped(ctx, w->k, w->u, w->m, kb, kb, 0, bits, w->sv, w->sk,
                                       pd_table_cap(w->m));
    size_t al = clsa__pd_align_elems(ctx, (size_t)kb), a = w->m / 2 / al * al, rest = w->m - a;
    cl_mem k2 = NULL, u2 = NULL;
    cl_ulong ca = a, m = w->m;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__pd_tail_views(ctx, w, a, &k2, &u2));
    CLSA_TRY(clsa__radix_sort_capped(ctx, w->k, w->u, a, kb, kb, 0, bits, w->sv, w->sk,
                                     pd_table_cap(a)));
    CLSA_TRY(clsa__radix_sort_capped(ctx, k2, u2, rest, kb, kb, 0, bits, w->sv, w->sk,
                                     pd_table_cap(rest)));
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_merge_halves", w->m, 0, CLSA_KARG(w->k),
                         CLSA_KARG(w->u), CLSA_KARG(ca), CLSA_KARG(m), CLSA_KARG(w->sk)));
    cl_mem t = w->u;
    w->u = w->sk;
    w->sk = t;
done:
    clsa__release_mem(ctx, k2);
    clsa__release_mem(ctx, u2);
    return st;
}

/* Where the m slots split into two parts that each fit sv (sv_len slots)
 * at a group boundary b, so that the global sorts run part by part with no
 * merge: part A = [0, b), part B = [a, m), a = b rounded down to the
 * sub-buffer alignment.  B sorts A's tail [a, b) again, which keeps its
 * order: its groups come before all of B's.  sk and sv must still hold the
 * head scan and the groups' first slots.  *b = 0 when no boundary of the
 * group around the middle fits, or CLSA_TUNE sa_path=halves (halves and a
 * merge, as before). */
static clsa_status group_split(clsa_context *ctx, const clsa__sa_work *w, size_t *b, size_t *a)
{
    size_t kb = w->index64 ? 8 : 4, al = clsa__pd_align_elems(ctx, kb);
    uint32_t grp = 0;
    uint64_t bound[2] = {0, w->m};
    clsa_status st;
    *b = *a = 0;
    if ((ctx->tune.sa_path & CLSA_SA_HALVES) || w->m <= w->sv_len || w->g < 2) return CLSA_OK;
    if ((st = clsa__read(ctx, w->sk, w->m / 2 * 4, &grp, 4))) return st;
    if (grp < 1 || grp > w->g)
        return clsa__fail(ctx, CLSA_ERR_OPENCL, "suffix array: group %u of %zu out of range",
                          grp, w->g);
    /* the group's first slot and the next group's (none after the last) */
    union { cl_uint u32[2]; cl_ulong u64[2]; } v = {{0}};
    size_t heads = grp < w->g ? 2 : 1;
    if ((st = clsa__read(ctx, w->sv, (grp - 1) * kb, &v, heads * kb))) return st;
    for (size_t i = 0; i < heads; i++) bound[i] = kb == 8 ? v.u64[i] : v.u32[i];
    for (int i = 0; i < 2; i++) {
        size_t cut = (size_t)bound[i], start = cut / al * al;
        if (cut > 0 && cut < w->m && cut <= w->sv_len && w->m - start <= w->sv_len) {
            *b = cut;
            *a = start;
            return CLSA_OK;
        }
    }
    return CLSA_OK;
}

/* The key sorts of sort_global over w's slots: by (group, key2) in k
 * (combined, keys made beforehand), else by key2, then by the group (its
 * number through ranks when given, g of them) or its rank. */
static clsa_status sort_keys(clsa_context *ctx, clsa__sa_work *w, uint64_t h, int combined,
                             unsigned gbits, cl_mem ranks, cl_ulong g)
{
    cl_ulong m = w->m, n = w->n, hh = h;
    unsigned shift = clsa__bits_of(w->n), rbits = clsa__bits_of(w->n - 1);
    clsa_status st;
    if (combined) return sort_by_key(ctx, w, shift + gbits);
    cl_mem rk = g ? ranks : w->k; /* unread without g */
    if ((st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_key2", w->m, 0, CLSA_KARG(w->u),
                          CLSA_KARG(w->isa), CLSA_KARG(m), CLSA_KARG(n), CLSA_KARG(hh),
                          CLSA_KARG(w->k))) ||
        (st = sort_by_key(ctx, w, shift)) ||
        (st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_rank_key", w->m, 0, CLSA_KARG(w->u),
                          CLSA_KARG(w->isa), CLSA_KARG(m), CLSA_KARG(w->k), CLSA_KARG(rk),
                          CLSA_KARG(g))))
        return st;
    return sort_by_key(ctx, w, g ? gbits : rbits);
}

/* sort_keys over the two parts of group_split, one after the other. */
static clsa_status sort_parts(clsa_context *ctx, clsa__sa_work *w, uint64_t h, int combined,
                              unsigned gbits, cl_mem ranks, cl_ulong g, size_t b, size_t a)
{
    clsa__sa_work part = *w;
    cl_mem u2 = NULL, k2 = NULL;
    clsa_status st = CLSA_OK;
    part.m = b;
    CLSA_TRY(sort_keys(ctx, &part, h, combined, gbits, ranks, g));
    CLSA_TRY(clsa__pd_tail_views(ctx, w, a, &k2, &u2));
    part.u = u2;
    part.k = k2;
    part.m = w->m - a;
    st = sort_keys(ctx, &part, h, combined, gbits, ranks, g);
done:
    clsa__release_mem(ctx, u2);
    clsa__release_mem(ctx, k2);
    return st;
}

/* Sorts all m unsorted suffixes at once.  When the group number and key2
 * fit in one idx_t together (few groups: the periodic inputs that take
 * this path), one sort by (group, key2); else a stable sort by key2, then
 * one by rank to restore the groups.  sk holds the inclusive scan of the
 * head flags (clsa__groups_starts).  When sv is shorter than m, the sorts
 * run in two parts split at a group boundary (group_split), else in halves
 * with a merge.  *group_shift: k >> it is the group (or its rank) of each
 * slot afterwards, or -1 when k is not in order (halves). */
static clsa_status sort_global(clsa_context *ctx, clsa__sa_work *w, uint64_t h, int *group_shift)
{
    int kb = w->index64 ? 8 : 4;
    cl_ulong m = w->m, n = w->n, hh = h;
    cl_uint shift = clsa__bits_of(w->n);
    unsigned gbits = clsa__bits_of(w->g - 1);
    size_t b = 0, a = 0;
    clsa_status st;
    clsa__set_phase(ctx, CLSA_PHASE_SORT_L);
    if ((st = group_split(ctx, w, &b, &a))) return st;
    int combined = shift + gbits <= (unsigned)(8 * kb) && (ctx->tune.sa_path & CLSA_SA_MODE) != CLSA_SA_GLOBAL_PLAIN;
    *group_shift = (w->m > w->sv_len && !b) || (combined && shift >= (unsigned)(8 * kb)) ? -1
                   : combined                                                       ? (int)shift
                                                                                    : 0;
    if (combined &&
        (st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_key_group", w->m, 0, CLSA_KARG(w->u),
                          CLSA_KARG(w->isa), CLSA_KARG(w->sk), CLSA_KARG(m), CLSA_KARG(n),
                          CLSA_KARG(hh), CLSA_KARG(shift), CLSA_KARG(w->k))))
        return st;
    /* The second sort by group number rather than rank where that takes
     * fewer digits (few groups: the periodic inputs' first passes): the
     * groups' ranks are taken while sv still holds their first slots.
     * CLSA_TUNE sa_path=restore_rank: always by rank. */
    unsigned rbits = clsa__bits_of(w->n - 1);
    cl_ulong g = !combined && (gbits + 7) / 8 < (rbits + 7) / 8 &&
                         !(ctx->tune.sa_path & CLSA_SA_RESTORE_RANK) &&
                         ctx->stats.current_device_bytes + w->g * kb <= 5 * (uint64_t)kb * w->n
                     ? w->g
                     : 0;
    cl_mem granks = NULL;
    if (g && ((st = clsa__alloc(ctx, (size_t)g * kb, &granks)) ||
              (st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_group_ranks", (size_t)g, 0,
                                CLSA_KARG(w->u), CLSA_KARG(w->sv), CLSA_KARG(w->isa), CLSA_KARG(g),
                                CLSA_KARG(granks)))))
        goto done;
    st = b ? sort_parts(ctx, w, h, combined, gbits, granks, g, b, a)
           : sort_keys(ctx, w, h, combined, gbits, granks, g);
done:
    clsa__free(ctx, &granks);
    return st;
}

/* Groups longer than R1 through the segmented sort (merge path up to R2,
 * radix beyond), keys in k. */
static clsa_status sort_large(clsa_context *ctx, clsa__sa_work *w, const clsa__grp_classes *c,
                              uint64_t h)
{
    size_t iw = w->index64 ? 8 : 4, count = c->count[c->nclass];
    cl_ulong m = w->m, n = w->n, hh = h;
    cl_mem offs = NULL, lens = NULL;
    clsa_status st = CLSA_OK;
    clsa__set_phase(ctx, CLSA_PHASE_SORT_M);
    CLSA_TRY(clsa__alloc(ctx, count * iw, &offs));
    CLSA_TRY(clsa__alloc(ctx, count * iw, &lens));
    CLSA_TRY(clsa__groups_large_bounds(ctx, w, c, offs, lens)); /* before k is overwritten */
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_key2", w->m, 0, CLSA_KARG(w->u),
                         CLSA_KARG(w->isa), CLSA_KARG(m), CLSA_KARG(n), CLSA_KARG(hh),
                         CLSA_KARG(w->k)));
    CLSA_TRY(clsa__segmented_sort(ctx, w->k, w->u, w->m, offs, lens, count, w->index64));
done:
    clsa__free(ctx, &offs);
    clsa__free(ctx, &lens);
    return st;
}

/* Whether an earlier pass's long-group views (long_views) are of k and
 * at least b bytes long. */
static int views_fit(const clsa__sa_work *w, size_t b)
{
    return w->lview[0] && w->lview_k == w->k && b <= w->lview_bytes;
}

/* Byte offsets of the long groups' sort arrays (clsa__groups_sort_long:
 * keys, scratch keys, values, scratch values) in the work arrays: all four
 * in k, or (*uses_sk) keys and values in k, the scratch in sk at the same
 * offsets.  k holds at least m idx_t (as made: the passes' m shrinks, k
 * does not), sk m; 0 when the arrays do not fit. */
static int long_layout(clsa_context *ctx, const clsa__sa_work *w, uint64_t slots, size_t off[4],
                       int *uses_sk)
{
    size_t iw = w->index64 ? 8 : 4, a = clsa__pd_align_elems(ctx, 1), cap = w->m * iw, kcap = 0;
    size_t b = (size_t)slots * iw;
    if (clGetMemObjectInfo(w->k, CL_MEM_SIZE, sizeof kcap, &kcap, NULL) != CL_SUCCESS ||
        kcap < cap)
        kcap = cap;
    /* an earlier pass's views where they still fit (long_views) */
    if (views_fit(w, b) && 3 * pd_round_up(w->lview_bytes, a) + w->lview_bytes <= kcap)
        b = w->lview_bytes;
    for (int i = 0; i < 4; i++) off[i] = i * pd_round_up(b, a);
    *uses_sk = off[3] + b > kcap;
    if (!*uses_sk) return 1;
    off[1] = 0;
    off[2] = off[3] = pd_round_up(b, a);
    return off[2] + b <= cap;
}

void clsa__pd_drop_long_views(clsa_context *ctx, clsa__sa_work *w)
{
    for (int i = 0; i < 4; i++) {
        clsa__release_mem(ctx, w->lview[i]);
        w->lview[i] = NULL;
    }
    w->lview_k = NULL;
    w->lview_bytes = 0;
}

/* The long groups' four views: those of an earlier pass where long_layout
 * chose their offsets again (a new sub-buffer's first use costs the host
 * more than a launch), else new ones, kept for the next
 * pass where all four are in k (which the loop keeps; *kept: not to be
 * released now). */
static clsa_status long_views(clsa_context *ctx, clsa__sa_work *w, size_t bytes,
                              const size_t off[4], int uses_sk, cl_mem views[4], int *kept)
{
    size_t a = clsa__pd_align_elems(ctx, 1);
    *kept = !uses_sk;
    if (!uses_sk && views_fit(w, bytes) && off[1] == pd_round_up(w->lview_bytes, a)) {
        memcpy(views, w->lview, sizeof w->lview);
        return CLSA_OK;
    }
    if (!uses_sk) clsa__pd_drop_long_views(ctx, w);
    for (int i = 0; i < 4; i++) {
        cl_mem from = uses_sk && (i & 1) ? w->sk : w->k;
        clsa_status st = clsa__pd_sub_view(ctx, from, off[i], bytes, &views[i]);
        if (st) {
            for (int j = 0; j < i; j++) clsa__release_mem(ctx, views[j]);
            *kept = 0;
            return st;
        }
    }
    if (!uses_sk) {
        memcpy(w->lview, views, sizeof w->lview);
        w->lview_k = w->k;
        w->lview_bytes = bytes;
    }
    return CLSA_OK;
}

/* Groups longer than R1 by radix sorts over their suffixes, the arrays
 * cut from k (and sk: then *starts_valid = 0, the split finds the old
 * groups again). */
static clsa_status sort_long(clsa_context *ctx, clsa__sa_work *w, const clsa__grp_classes *c,
                             uint64_t h, const size_t off[4], int uses_sk, int *starts_valid)
{
    size_t iw = w->index64 ? 8 : 4, bytes = (size_t)c->large_slots * iw;
    cl_mem views[4] = {NULL, NULL, NULL, NULL};
    int kept = 0;
    clsa_status st = CLSA_OK;
    clsa__set_phase(ctx, CLSA_PHASE_SORT_L);
    CLSA_TRY(long_views(ctx, w, bytes, off, uses_sk, views, &kept));
    CLSA_TRY(clsa__groups_sort_long(ctx, w, c, h, views, pd_table_cap(c->large_slots)));
    if (uses_sk) *starts_valid = 0;
done:
    for (int i = 0; i < 4 && !kept; i++)
        clsa__release_mem(ctx, views[i]);
    return st;
}

/* One doubling step at distance h over the m unsorted suffixes.  Groups
 * up to R1 are sorted in local memory with the keys gathered in the
 * kernel.  Longer ones, while they hold at most half the suffixes, by
 * radix sorts over just their suffixes (the arrays in the work arrays k and
 * sk, so no memory beyond the digit table), else by the segmented sort;
 * when they hold most suffixes (or the segmented sort's scratch would
 * break the memory budget) one radix sort of everything is cheaper.
 * CLSA_TUNE sa_path=long_segsort: no sort of the long groups alone (the
 * segmented sort or the global one, as before it). */
clsa_status clsa__pd_pass(clsa_context *ctx, clsa__sa_work *w, uint64_t h)
{
    size_t iw = w->index64 ? 8 : 4;
    clsa__grp_classes c;
    memset(&c, 0, sizeof c);
    c.nclass = clsa__groups_nclass(ctx, w->index64);
    clsa_status st;
    if (w->lazy) { /* the ranks the pass reads, isa[u + h] */
        clsa__set_phase(ctx, CLSA_PHASE_ISA_UPDATE);
        if ((st = clsa__pd_lazy_fill(ctx, w, w->u, w->m, h, w->marked))) return st;
    }
    clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
    if ((st = clsa__groups_starts(ctx, w)) || (st = clsa__groups_classify(ctx, w, &c))) return st;
    /* segmented sort scratch: at most keys and values twice over */
    uint64_t extra = 4 * iw * c.large_slots + 2 * iw * c.count[c.nclass];
    uint64_t budget = 5 * iw * w->n;
    unsigned path = ctx->tune.sa_path & CLSA_SA_MODE;
    size_t off[4];
    int uses_sk = 0;
    uint64_t long_extra = pd_table_cap(c.large_slots) + (uint64_t)c.count[c.nclass] * (iw + 4);
    int forced_global = path == CLSA_SA_GLOBAL || path == CLSA_SA_GLOBAL_PLAIN;
    int long_radix = c.count[c.nclass] && !(ctx->tune.sa_path & CLSA_SA_LONG_SEGSORT) &&
                     !forced_global &&
                     c.large_slots * 2 <= w->m &&
                     ctx->stats.current_device_bytes + long_extra <= budget &&
                     long_layout(ctx, w, c.large_slots, off, &uses_sk);
    int global = forced_global ||
                 (path != CLSA_SA_CLASSES && !long_radix &&
                  (c.large_slots * 2 > w->m || ctx->stats.current_device_bytes + extra > budget));
    int starts_valid = !global;
    if (global) {
        int group_shift;
        if ((st = sort_global(ctx, w, h, &group_shift))) return st;
        /* the sort used sk and sv as scratch: the layout again, from the
         * sorted keys when they are in order (else groups_split gathers) */
        if (group_shift >= 0) {
            clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
            if ((st = clsa__groups_starts_from_keys(ctx, w, (unsigned)group_shift))) return st;
            starts_valid = 1;
        }
        /* keys by (group, key2): new groups where neighbours differ */
        if (group_shift > 0 && clsa__groups_flag_ok(ctx, w) &&
            (st = clsa__groups_flag_from_keys(ctx, w)))
            return st;
    } else {
        /* The sorts mark new groups in u's top bit, so the split gathers
         * no key2, unless the segmented sort runs (its keys are gathered
         * from u over every slot) or the long groups' sorts use sk (the
         * split then finds the old groups again, from u). */
        w->flagged = clsa__groups_flag_ok(ctx, w) &&
                     (long_radix ? !uses_sk : c.count[c.nclass] == 0);
        clsa__set_phase(ctx, CLSA_PHASE_SORT_S);
        if ((st = clsa__groups_sort_small(ctx, w, &c, h))) return st;
        if (long_radix) st = sort_long(ctx, w, &c, h, off, uses_sk, &starts_valid);
        else if (c.count[c.nclass]) st = sort_large(ctx, w, &c, h);
        if (st) return st;
    }
    clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
    return clsa__groups_split(ctx, w, h, starts_valid);
}
