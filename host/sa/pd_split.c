/* Prefix doubling, the split of stage 3 (groups.h): group starts, new
 * ranks after a pass's sort, singletons dropped from u, and the initial
 * groups (settle).  Ranks are looked up per group through scans of head
 * flags and a scatter of one value per head, so no segmented scan is
 * needed.  Kernels: cl_kernels/sa/pd_split.cl (with scan.cl, groups.cl). */
#include "pd_split.h"
#include "pd_sort.h"
#include "prim/scan.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "status.h"
#include "tuning.h"

#include <string.h>

/* The program of these kernels. */
static const char *const PROGRAM = "scan+groups+pd_split";

/* Group heads carried in the top bit of u from one pass's compaction to the
 * next pass's head scan (see groups.cl, GRP_HEAD): needs a free top bit
 * and scan positions below 2^31; CLSA_TUNE sa_path=heads_gather turns it off. */
static int marks_on(const clsa_context *ctx, const clsa__sa_work *w)
{
    return w->n < ((uint64_t)1 << 31) && !(ctx->tune.sa_path & CLSA_SA_HEADS_GATHER);
}

int clsa__groups_flag_ok(const clsa_context *ctx, const clsa__sa_work *w)
{
    return marks_on(ctx, w) && !(ctx->tune.sa_path & CLSA_SA_SPLIT_GATHER);
}

/* grp_head_ranks over the g groups whose first slots are in heads. */
static clsa_status head_ranks(clsa_context *ctx, clsa__sa_work *w, cl_mem heads, uint32_t g,
                              cl_mem delta)
{
    cl_ulong gg = g;
    cl_int marks = marks_on(ctx, w);
    if (!g) return CLSA_OK;
    return CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_head_ranks", g, 0, CLSA_KARG(heads),
                       CLSA_KARG(gg), CLSA_KARG(delta), CLSA_KARG(marks));
}

/* Inclusive scan of the head flags in scan (in place), with heads[group]
 * = the group's first slot (the scan writes it), then + delta[slot] when
 * delta is given (grp_head_ranks, which needs groups); *groups (optional):
 * the number of heads. */
static clsa_status scan_heads(clsa_context *ctx, clsa__sa_work *w, cl_mem scan, cl_mem delta,
                              cl_mem heads, uint32_t *groups)
{
    uint32_t g = 0; /* read back only when asked for (a blocking read) */
    clsa_status st = clsa__scan_index(ctx, scan, scan, w->m, 1, CLSA_SCAN_FLAGS,
                                      groups ? &g : NULL, heads, w->index64);
    if (groups) *groups = g;
    if (st || !delta) return st;
    return head_ranks(ctx, w, heads, g, delta);
}

/* Local memory for `extra` + one idx_t per work-item (the head kernels
 * gather each slot's keys once and compare them with their neighbours'). */
static clsa__karg local_keys(const clsa_context *ctx, const clsa__sa_work *w, size_t extra)
{
    return (clsa__karg)CLSA_KLOCAL((ctx->tune.wg + extra) * (w->index64 ? 8 : 4));
}

clsa_status clsa__groups_starts(clsa_context *ctx, clsa__sa_work *w)
{
    cl_ulong m = w->m;
    clsa_status st;
    if (w->marked) { /* the heads are marked in u: one scan, no gather of ranks */
        /* Its total (the groups, known) is read where a blocking read costs
         * less than the launches and the read of the slots it saves
         * (starts_read): the read lets the scan take the single pass, whose
         * fault the host must see. */
        uint32_t g = 0;
        w->marked = 0;
        return clsa__scan_index(ctx, w->u, w->sk, w->m, 1, CLSA_SCAN_TOP_BITS,
                                w->m >= ctx->tune.starts_read ? &g : NULL, w->sv, w->index64);
    }
    if ((st =
             CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_old_heads", w->m, 0, CLSA_KARG(w->u),
                         CLSA_KARG(w->isa), CLSA_KARG(m), CLSA_KARG(w->sk), local_keys(ctx, w, 1))))
        return st;
    return scan_heads(ctx, w, w->sk, NULL, w->sv, NULL);
}

clsa_status clsa__groups_starts_from_keys(clsa_context *ctx, clsa__sa_work *w, unsigned shift)
{
    cl_ulong m = w->m;
    cl_uint sh = shift;
    clsa_status st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_key_heads", w->m, 0,
                                 CLSA_KARG(w->k), CLSA_KARG(m), CLSA_KARG(sh), CLSA_KARG(w->sk));
    return st ? st : scan_heads(ctx, w, w->sk, NULL, w->sv, NULL);
}

/* keep (uint flags of m slots, | 2 at group heads with marks) scanned into
 * pos (may be keep itself); u compacted into sk, the two swap; m =
 * suffixes kept; with marks, the kept groups' heads marked in u (then
 * the compaction runs even when every suffix is kept). */
static clsa_status compact_kept(clsa_context *ctx, clsa__sa_work *w, cl_mem keep, cl_mem pos)
{
    cl_ulong m = w->m;
    cl_int marks = marks_on(ctx, w);
    uint32_t kept = 0;
    clsa_status st;
    if ((st = clsa__scan_index(ctx, keep, pos, w->m, 0,
                               marks ? CLSA_SCAN_FLAGS_MARK : CLSA_SCAN_FLAGS, &kept, NULL, 0)))
        return st;
    if (kept == w->m && !marks) return CLSA_OK;
    if ((st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_compact", w->m, 0, CLSA_KARG(w->u),
                          CLSA_KARG(pos), CLSA_KARG(m), CLSA_KARG(kept), CLSA_KARG(w->sk),
                          CLSA_KARG(marks))))
        return st;
    cl_mem t = w->u;
    w->u = w->sk;
    w->sk = t;
    w->m = kept;
    w->marked = marks && kept > 0;
    return CLSA_OK;
}

/* grp_rank_compact's repair (pd_split.cl): the faulted tiles' kept slots,
 * saved in val, moved into place; *kept = the slots kept. */
static clsa_status rank_compact_repair(clsa_context *ctx, clsa__sa_work *w,
                                       const clsa__onepass *op, uint32_t *kept)
{
    static const char *name = "grp_rank_compact_repair";
    uint32_t *sums = malloc(op->nb * 4);
    size_t first = 0;
    cl_mem offs = NULL;
    clsa_status st = CLSA_OK;
    if (!sums) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "suffix array: %zu tile sums", op->nb);
    CLSA_TRY(clsa__onepass_sums(ctx, op, sums, &first));
    if (first == op->nb) { /* the counter said a fault, no tile shows one */
        st = clsa__fail(ctx, CLSA_ERR_OPENCL, "suffix array: single pass fault not found");
        goto done;
    }
    uint32_t total = 0;
    for (size_t t = 0; t < op->nb; t++) { /* sums[] becomes the tiles' offsets */
        uint32_t x = sums[t];
        sums[t] = total;
        total += x;
    }
    *kept = total;
    cl_ulong at = clsa__onepass_sums_at(op);
    cl_uint first32 = (cl_uint)first, tile = (cl_uint)(op->wg * op->items);
    size_t nf = op->nb - first;
    CLSA_TRY(clsa__alloc(ctx, nf * 4, &offs));
    CLSA_TRY(clsa__write(ctx, offs, 0, sums + first, nf * 4));
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, name, nf * op->wg, op->wg, CLSA_KARG(op->state),
                         CLSA_KARG(at), CLSA_KARG(first32), CLSA_KARG(offs), CLSA_KARG(w->k),
                         CLSA_KARG(w->sk), CLSA_KARG(tile)));
done:
    free(sums);
    clsa__free(ctx, &offs);
    return st;
}

/* Whether the split's ranks, keep scan and compaction may run as one single
 * pass (rank_compact, where the single-pass scan then takes them): marks
 * on, 32-bit slots, unless CLSA_TUNE sa_path=rank_apart. */
static int compact_fusable(const clsa_context *ctx, const clsa__sa_work *w)
{
    return marks_on(ctx, w) && !w->index64 && !(ctx->tune.sa_path & CLSA_SA_RANK_APART);
}

/* Whether this split counts the new groups by class for the next pass's
 * classify (the summary, pd_split.cl grp_split_ranks): where the compaction
 * will take the single pass, whose read brings the summary's words from
 * ctx->scan_state along (rank_compact's conditions, and a state that
 * exists already), unless CLSA_TUNE sa_path=read_counts. */
static int summary_wanted(const clsa_context *ctx, const clsa__sa_work *w)
{
    return compact_fusable(ctx, w) && !(ctx->tune.sa_path & CLSA_SA_READ_COUNTS) &&
           ctx->tune.scan_onepass &&
           ctx->scan_state;
}

/* grp_split_ranks over the g new groups (heads in sv, their scan in sk,
 * deltas in k), then grp_long_lengths; the summary into summary's words. */
static clsa_status split_ranks(clsa_context *ctx, clsa__sa_work *w, uint32_t g, cl_mem summary)
{
    cl_uint nc = clsa__groups_nclass(ctx, w->index64);
    size_t r1 = (size_t)CLSA_GRP_TINY << nc, cap = w->m / (r1 + 1) + 1, wg = ctx->tune.wg;
    cl_ulong gg = g, m = w->m, at = CLSA_SCAN_USER_AT;
    cl_int marks = 1;
    cl_mem longs = NULL;
    clsa_status st = CLSA_OK;
    if (!g) return CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, cap * 8, &longs));
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_split_ranks", g, 0, CLSA_KARG(w->sv),
                         CLSA_KARG(w->sk), CLSA_KARG(w->k), CLSA_KARG(gg), CLSA_KARG(m),
                         CLSA_KARG(marks), CLSA_KARG(nc), CLSA_KARG(summary), CLSA_KARG(at),
                         CLSA_KARG(longs), CLSA_KLOCAL((nc + 1) * 4)));
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_long_lengths",
                         (cap < 1024 ? cap : 1024) * wg, wg, CLSA_KARG(w->sk), CLSA_KARG(w->k),
                         CLSA_KARG(m), CLSA_KARG(nc), CLSA_KARG(summary), CLSA_KARG(at),
                         CLSA_KARG(longs)));
done:
    clsa__free(ctx, &longs);
    return st;
}

/* The summary's word that counts the long groups listed (pd_split.cl
 * GRP_SUM_LONGS). */
#define SUMMARY_LONGS (CLSA_SCAN_USER_WORDS - 1)

/* The summary against the groups the compaction kept (w->g of them, w->m
 * slots, each group two slots or more): a device that counted wrong fails
 * the call rather than sort by wrong counts. */
static clsa_status check_summary(clsa_context *ctx, clsa__sa_work *w)
{
    if (!w->classes_known) return CLSA_OK;
    const uint32_t *s = w->summary;
    unsigned nc = clsa__groups_nclass(ctx, w->index64);
    uint64_t groups = 0, r1 = (uint64_t)CLSA_GRP_TINY << nc;
    for (unsigned c = 0; c <= nc; c++) groups += s[c];
    if (groups > w->g || s[nc + 1] > w->m || s[SUMMARY_LONGS] != s[nc] ||
        s[nc + 1] < (r1 + 1) * s[nc] ||
        2 * (uint64_t)w->g > w->m) {
        w->classes_known = 0;
        return clsa__fail(ctx, CLSA_ERR_OPENCL,
                          "suffix array: the split's class counts (%llu groups, %u long in "
                          "%u slots) do not fit the %zu groups in %zu slots kept",
                          (unsigned long long)groups, s[nc], s[nc + 1], w->g, w->m);
    }
    return CLSA_OK;
}

/* grp_rank_split, the scan of its keep flags and the compaction in one
 * single pass (pd_split.cl grp_rank_compact) where the single-pass scan runs,
 * marks are on and slots are 32-bit (CLSA_TUNE sa_path=rank_apart: never);
 * *done = 0: not taken. */
static clsa_status rank_compact(clsa_context *ctx, clsa__sa_work *w, cl_mem sa, int direct,
                                cl_mem summary, int *done)
{
    clsa__onepass op;
    *done = 0;
    if (!compact_fusable(ctx, w)) return CLSA_OK;
    clsa_status st = clsa__onepass_begin(ctx, w->m, 1, &op, done);
    if (st || !*done) return st;
    cl_ulong m = w->m, n = w->n;
    cl_uint b32 = (cl_uint)w->rank_base, items = (cl_uint)op.items;
    cl_int dir = direct;
    size_t tile = op.wg * op.items;
    clsa__karg args[] = {CLSA_KARG(w->u), CLSA_KARG(w->sk), CLSA_KARG(w->sv), CLSA_KARG(w->k),
                         CLSA_KARG(m), CLSA_KARG(n), CLSA_KARG(w->isa), CLSA_KARG(sa),
                         CLSA_KARG(dir), CLSA_KARG(b32), CLSA_KARG(op.state),
                         CLSA_KARG(op.cap), CLSA_KARG(op.epoch), CLSA_KARG(op.fault_at),
                         CLSA_KARG(items), CLSA_KLOCAL(op.tile_bytes), CLSA_KLOCAL(tile * 4),
                         CLSA_KLOCAL(op.wg * 4), CLSA_KLOCAL(op.wg * 4)};
    uint32_t kept = 0;
    int faulted = 0;
    if ((st = clsa__sa_run(ctx, "scan+groups+pd_split", 0, "grp_rank_compact", op.nb * op.wg,
                           op.wg, sizeof args / sizeof args[0], args)) ||
        (st = clsa__onepass_end(ctx, &op, &kept, &faulted)) ||
        (faulted && (st = rank_compact_repair(ctx, w, &op, &kept))))
        return st;
    /* the split's summary came with the read, where it went to this state */
    if (summary && summary == op.state) {
        memcpy(w->summary, op.user, sizeof w->summary);
        w->classes_known = 1;
    }
    cl_mem t = w->u;
    w->u = w->sk;
    w->sk = t;
    w->m = kept;
    w->marked = kept > 0;
    return CLSA_OK;
}

/* Only the heads of groups that stay unsorted are scattered (at most m / 2:
 * sv may be half the size of u); singletons take slot + delta directly.
 * Four kernels and two scans: split flags and values (grp_split_heads),
 * scan, head scatter, ranks + keep flags (grp_rank_split), scan, compaction. */
clsa_status clsa__groups_split(clsa_context *ctx, clsa__sa_work *w, uint64_t h, int starts_valid)
{
    cl_ulong m = w->m, n = w->n, hh = h, g_old = w->g;
    uint32_t g = 0;
    cl_int direct = w->sa != NULL;
    cl_mem sa = direct ? w->sa : w->isa; /* unread without direct */
    clsa_status st;
    if (w->flagged && !starts_valid) /* the old heads' gather would read the flags */
        return clsa__fail(ctx, CLSA_ERR_OPENCL, "suffix array: flagged groups without starts");
    /* Old groups (sk: scan of their heads, sv: first slots) give each
     * slot's delta. */
    if (!starts_valid && !w->flagged && (st = clsa__groups_starts(ctx, w))) return st;
    /* the summary's words and the next classify's counts, zeroed by the
     * split's first kernel (where there is no summary, counts twice) */
    int want = summary_wanted(ctx, w);
    cl_mem sbuf = want ? ctx->scan_state : w->counts;
    cl_ulong sat = want ? CLSA_SCAN_USER_AT : 0;
    if (w->flagged)
        st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_split_bits", w->m, 0, CLSA_KARG(w->u),
                         CLSA_KARG(w->isa), CLSA_KARG(w->sv), CLSA_KARG(m), CLSA_KARG(n),
                         CLSA_KARG(w->sk), CLSA_KARG(w->k), CLSA_KARG(direct), CLSA_KARG(sbuf),
                         CLSA_KARG(sat), CLSA_KARG(w->counts));
    else
        st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_split_heads", w->m, 0, CLSA_KARG(w->u),
                         CLSA_KARG(w->isa), CLSA_KARG(w->sv), CLSA_KARG(g_old), CLSA_KARG(m),
                         CLSA_KARG(n), CLSA_KARG(hh), CLSA_KARG(w->sk), CLSA_KARG(w->k),
                         local_keys(ctx, w, 2), CLSA_KARG(direct), CLSA_KARG(sbuf), CLSA_KARG(sat),
                         CLSA_KARG(w->counts));
    w->flagged = 0;
    w->classes_known = 0;
    w->counts_zero = st == CLSA_OK;
    if (st || (st = scan_heads(ctx, w, w->sk, want ? NULL : w->k, w->sv, &g))) return st;
    /* the scan may have made a new state (zeroed): the summary goes there */
    cl_mem summary = want && g <= ctx->tune.summary_max ? ctx->scan_state : NULL;
    if (want && (st = summary ? split_ranks(ctx, w, g, summary)
                              : head_ranks(ctx, w, w->sv, g, w->k)))
        return st;
    clsa__set_phase(ctx, CLSA_PHASE_ISA_UPDATE);
    cl_int marks = marks_on(ctx, w);
    int fused = 0;
    w->g = g;
    if (g > 0 && (st = rank_compact(ctx, w, sa, direct, summary, &fused))) return st;
    if (!fused &&
        (st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_rank_split", w->m, 0, CLSA_KARG(w->u),
                          CLSA_KARG(w->sk), CLSA_KARG(w->sv), CLSA_KARG(w->k), CLSA_KARG(m),
                          CLSA_KARG(n), CLSA_KARG(w->isa), CLSA_KARG(marks), CLSA_KARG(sa),
                          CLSA_KARG(direct), CLSA_KIDX(w->index64, w->rank_base))))
        return st;
    clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
    if (g == 0) { /* every suffix is final */
        w->m = 0;
        return CLSA_OK;
    }
    if (fused) return check_summary(ctx, w);
    /* keep flags in sk; their scan into k (its values are dead), as the
     * compaction writes u into sk */
    return compact_kept(ctx, w, w->sk, w->k);
}

clsa_status clsa__groups_settle(clsa_context *ctx, clsa__sa_work *w, int has_delta)
{
    cl_ulong m = w->m;
    uint32_t counts[2] = {0, 0}, heads = 0;
    clsa_status st;
    clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
    w->classes_known = 0;
    if ((st = scan_heads(ctx, w, w->sk, has_delta ? w->k : NULL, w->sv, &heads))) return st;
    if (heads == w->m) { /* every suffix is a singleton: u is final, no rank needed */
        w->g = w->m = 0;
        w->isa_unset = 1;
        w->lazy = 0;
        return CLSA_OK;
    }
    cl_ulong n = w->n;
    if (w->lazy && (st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_fill_unset", w->n, 0,
                                     CLSA_KARG(w->isa), CLSA_KARG(n))))
        return st;
    cl_ulong hh = heads;
    if (w->rank_base && (st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_add_base", heads, 0,
                                          CLSA_KARG(w->sv), CLSA_KARG(hh),
                                          CLSA_KIDX(w->index64, w->rank_base))))
        return st;
    clsa__set_phase(ctx, CLSA_PHASE_ISA_UPDATE);
    cl_int lazy = w->lazy;
    if ((st = clsa__fill_zero(ctx, w->counter, 0, sizeof counts)) ||
        (st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_rank_update", w->m, 0, CLSA_KARG(w->u),
                          CLSA_KARG(w->sk), CLSA_KARG(w->sv), CLSA_KARG(m), CLSA_KARG(w->isa),
                          CLSA_KARG(w->counter), CLSA_KLOCAL(2 * 4), CLSA_KARG(lazy))) ||
        (st = clsa__read(ctx, w->counter, 0, counts, sizeof counts)))
        return st;
    clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
    w->g = counts[0];
    if (counts[0] == 0) { /* every suffix is final */
        w->m = 0;
        return CLSA_OK;
    }
    if (counts[1] == 0) return CLSA_OK; /* no singleton: u stays as it is */
    /* keep flags into sv (n slots here); the compaction reads keep back
     * from consecutive positions, so sk (the head scan) is free for u. */
    cl_int marks = marks_on(ctx, w);
    if ((st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "grp_keep", w->m, 0, CLSA_KARG(w->sk),
                          CLSA_KARG(m), CLSA_KARG(w->sv), CLSA_KARG(marks))))
        return st;
    return compact_kept(ctx, w, w->sv, w->sv);
}
