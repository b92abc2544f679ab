/* Prefix doubling, stages 1 and 2 (prefix_doubling.c): the initial sort
 * of all suffixes by their first h0 symbols and the initial groups.
 *
 * The initial sort packs the first h0 symbols with the bits the text's
 * alphabet needs (h0 = 64 / bits) and runs two stable 32-bit-key radix
 * sorts (low half, then high half gathered through the sorted positions):
 * half the bytes moved of one 64-bit-key sort.  Where a short key of the
 * first symbols sets most suffixes apart (high entropy: random bytes,
 * DNA), one sort by it and a sort of just the suffixes tied on it instead
 * (initial_sort_msd).  Ranks = SA index of the group's first suffix, into
 * ISA; singletons leave the working set u.  Kernels: cl_kernels/sa/pd_init.cl. */
#include "pd_init.h"
#include "pd_split.h"
#include "pd_lazy.h"
#include "prim/radix_sort.h"
#include "prim/scan.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "status.h"
#include "tuning.h"

#include <math.h>
#include <string.h>

/* The program of these kernels. */
static const char *const PROGRAM = "pd_init";
/* Whether 32 / bb symbols (the short key of initial_sort_msd) are
 * expected to leave at most a fifth of the suffixes tied: the order-0
 * entropy H of the byte counts h says about K = 2^(H x symbols) such
 * prefixes are in use, and n <= K / 4 suffixes spread over them at random
 * leave 1 - e^(-n / K) < 22% tied (the sorts of the tied ones then cost
 * less than the second sort of all).  Repeats tie more than that: a
 * sample and then the count of ties decide in the end. */
static int msd_expected(const uint32_t *h, uint64_t n, unsigned bb)
{
    double bits = 0;
    for (int c = 0; c < 256; c++)
        if (h[c]) bits -= (double)h[c] / (double)n * log2((double)h[c] / (double)n);
    return bits * (double)(32 / bb) >= log2((double)n) + 2;
}

clsa_status clsa__pd_alphabet(clsa_context *ctx, cl_mem text, uint64_t n, pd_alphabet *a)
{
    cl_mem hist = NULL;
    uint32_t h[256];
    cl_ulong nn = n;
    size_t wg = ctx->tune.wg;
    size_t groups = clsa__div_up((size_t)n, wg * 64);
    size_t cap = (size_t)(ctx->tune.compute_units ? ctx->tune.compute_units : 1) * 8;
    size_t least = clsa__div_up((size_t)n, wg * CLSA_LOOP_BUDGET); /* strides a work-item */
    if (cap < least) cap = least;
    if (groups > cap) groups = cap;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, sizeof h, &hist));
    CLSA_TRY(clsa__fill_zero(ctx, hist, 0, sizeof h));
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, 0, "pd_histogram", groups * wg, 0, CLSA_KARG(text),
                         CLSA_KARG(nn), CLSA_KARG(hist), CLSA_KLOCAL(256 * 4)));
    /* the codes made on the device, numbered as sigma counts below, ahead
     * of the read: no write of them after it (a blocking copy; the device
     * idles meanwhile) */
    cl_int sep = a->sep_byte;
    CLSA_TRY(clsa__alloc(ctx, 256 * sizeof(cl_ushort), &a->dcodes));
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, 0, "pd_codes", 1, 0, CLSA_KARG(hist), CLSA_KARG(sep),
                         CLSA_KARG(a->dcodes)));
    CLSA_TRY(clsa__read(ctx, hist, 0, h, sizeof h));
    a->sigma = 0;
    if (a->sep_byte >= 0 && h[a->sep_byte]) a->sigma++;
    for (int c = 0; c < 256; c++)
        if (h[c] && c != a->sep_byte) a->sigma++;
    /* codes 1..sigma, 0 = past the end */
    a->b = clsa__bits_of(a->sigma);
    a->h0 = 64 / a->b;
    /* the short key: codes - 1, no room for the end (generalized SAs: none) */
    a->msd_b = a->b * a->h0 > 32 && a->sep_byte < 0 ? clsa__bits_of(a->sigma - 1) : 0;
    a->msd = a->msd_b && msd_expected(h, n, a->msd_b);
done:
    clsa__free(ctx, &hist);
    return st;
}

/* Largest power of two of (8-byte key, position) pairs that one
 * work-group sorts in local memory. */
static size_t small_sort_cap(const clsa_context *ctx, int index64)
{
    size_t lm = (size_t)(ctx->tune.local_mem ? ctx->tune.local_mem : 16384);
    size_t per = 8 + (index64 ? 8 : 4), p = 1;
    while (p * 2 * per + 1024 <= lm && p < 4096) p *= 2;
    return p;
}

/* Symbol j's b-bit field sits at shift b * (h0 - 1 - j): the low 32 key
 * bits need j >= h0 - ceil(32 / b) (this), the high ones j < h0 - 32 / b. */
static cl_uint key_lo_first(const pd_alphabet *a)
{
    cl_uint lo_n = (32 + a->b - 1) / a->b;
    return a->h0 > lo_n ? a->h0 - lo_n : 0;
}

/* A radix sort of the initial sort's: checked (clsa__radix_sort_capped),
 * or with ctl its single passes' fault word left there for the caller
 * (clsa__radix_sort_unchecked, *pending as there). */
static clsa_status init_sort(clsa_context *ctx, const clsa__sa_work *w, cl_mem keys, cl_mem pos,
                             size_t m, unsigned bits, cl_mem sk, cl_mem sv, cl_mem ctl,
                             int *pending)
{
    int vb = w->index64 ? 8 : 4;
    if (!ctl)
        return clsa__radix_sort_capped(ctx, keys, pos, m, 4, vb, 0, bits, sk, sv, pd_table_cap(m));
    return clsa__radix_sort_unchecked(ctx, keys, pos, m, 4, vb, 0, bits, sk, sv, pd_table_cap(m),
                                      ctl, pending);
}

/* The low half of each suffix's packed key into k (u = 0..m-1 unless
 * given: u holds them) and a stable sort of (k, u) by it (ctl, pending:
 * init_sort's). */
static clsa_status sort_lo(clsa_context *ctx, cl_mem text, clsa__sa_work *w, const pd_alphabet *a,
                           cl_mem codes, int given, cl_mem ctl, int *pending)
{
    cl_ulong n = w->n, m = w->m;
    cl_uint sym = a->sym, b = a->b, h0 = a->h0, sep = a->sep_byte >= 0, j0 = key_lo_first(a);
    cl_int giv = given;
    unsigned total = a->b * a->h0;
    clsa_status st =
        CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_key_lo", w->m, 0, CLSA_KARG(text), CLSA_KARG(n),
                    CLSA_KARG(codes), CLSA_KARG(sym), CLSA_KARG(b), CLSA_KARG(h0), CLSA_KARG(j0),
                    CLSA_KARG(sep), CLSA_KARG(w->k), CLSA_KARG(w->u), CLSA_KARG(m), CLSA_KARG(giv));
    return st ? st : init_sort(ctx, w, w->k, w->u, w->m, total < 32 ? total : 32, w->sk, w->sv,
                               ctl, pending);
}

/* The high half of the keys of the m suffixes in pos into keys, sorted
 * (ctl, pending: init_sort's; pd_key_hi reads only the text below n,
 * whatever pos holds after a faulted sort). */
static clsa_status sort_hi(clsa_context *ctx, cl_mem text, const clsa__sa_work *w,
                           const pd_alphabet *a, cl_mem codes, cl_mem keys, cl_mem pos,
                           size_t m, cl_mem sk, cl_mem sv, cl_mem ctl, int *pending)
{
    cl_ulong n = w->n, mm = m;
    cl_uint sym = a->sym, b = a->b, h0 = a->h0, sep = a->sep_byte >= 0, hi_skip = 32 / a->b;
    cl_uint j1 = a->h0 > hi_skip ? a->h0 - hi_skip : 0;
    clsa_status st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_key_hi", m, 0, CLSA_KARG(text),
                                 CLSA_KARG(n), CLSA_KARG(codes), CLSA_KARG(sym), CLSA_KARG(b),
                                 CLSA_KARG(h0), CLSA_KARG(j1), CLSA_KARG(sep), CLSA_KARG(pos),
                                 CLSA_KARG(keys), CLSA_KARG(mm), CLSA_KLOCAL(256 * 2));
    return st ? st : init_sort(ctx, w, keys, pos, m, a->b * a->h0 - 32, sk, sv, ctl, pending);
}

/* The two stable sorts of all m suffixes: low half, then high half where
 * the key has one (u = 0..m-1 unless given: from the order u holds).
 * Where their sorts run every digit anyway (m <= radix_blind) in single
 * passes and u is made here, the two read their fault word once, after
 * both; a fault sorts both again by reduce-then-scan. */
static clsa_status sort_halves(clsa_context *ctx, cl_mem text, clsa__sa_work *w,
                               const pd_alphabet *a, cl_mem codes, int given)
{
    int two = a->b * a->h0 > 32;
    cl_mem ctl = NULL;
    clsa_status st = CLSA_OK;
    if (!given && ctx->tune.onesweep && w->m <= ctx->tune.radix_blind)
        CLSA_TRY(clsa__alloc(ctx, CLSA_RADIX_CTL_BYTES, &ctl));
    for (int round = 0; round < 2; round++) {
        int pending = 0, faulted = 0;
        if (round) ctx->tune.onesweep = 0; /* as radix_sort.c after a fault */
        CLSA_TRY(sort_lo(ctx, text, w, a, codes, given, ctl, &pending));
        if (two)
            CLSA_TRY(sort_hi(ctx, text, w, a, codes, w->k, w->u, (size_t)w->m, w->sk, w->sv, ctl,
                             &pending));
        CLSA_TRY(clsa__radix_sort_faulted(ctx, ctl, pending, &faulted));
        if (!faulted) goto done;
    }
    st = clsa__fail(ctx, CLSA_ERR_OPENCL, "suffix array: the initial sorts faulted twice");
done:
    clsa__free(ctx, &ctl);
    return st;
}

/* u = the suffixes p = i x stride (i < m; given: those u holds) sorted by
 * their short keys (pd_key_msd) in k; then *t = how many tie with a
 * neighbour, their exclusive scan in sk (sv the flags). */
static clsa_status msd_keys(clsa_context *ctx, cl_mem text, const clsa__sa_work *w,
                            const pd_alphabet *a, cl_mem codes, size_t m, uint64_t stride,
                            int given, uint32_t *t)
{
    cl_ulong n = w->n, mm = m, str = stride;
    cl_uint bb = a->msd_b, k = 32 / a->msd_b;
    cl_int giv = given;
    clsa_status st =
        CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_key_msd", m, 0, CLSA_KARG(text), CLSA_KARG(n),
                    CLSA_KARG(codes), CLSA_KARG(bb), CLSA_KARG(k), CLSA_KARG(str), CLSA_KARG(w->u),
                    CLSA_KARG(w->k), CLSA_KARG(mm), CLSA_KLOCAL(256 * 2), CLSA_KARG(giv));
    if (!st) st = clsa__radix_sort_capped(ctx, w->k, w->u, m, 4, w->index64 ? 8 : 4, 0, bb * k,
                                          w->sk, w->sv, pd_table_cap(m));
    if (!st)
        st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_tied_flags", m, 0, CLSA_KARG(w->k),
                         CLSA_KARG(mm), CLSA_KARG(w->sv));
    return st ? st : clsa__scan(ctx, w->sv, w->sk, m, 0, 0, t);
}

/* Suffixes sampled before the short key is trusted (initial_sort_msd;
 * fewer below 16 x as many, where CLSA_TUNE init_msd=3 still samples). */
#define MSD_SAMPLE 65536

/* A short key first (pd_key_msd in pd_init.cl), where clsa__pd_alphabet()
 * expects it to set most suffixes apart and a regular sample agrees (at
 * most one in 16 sampled suffixes tied; repetitive texts tie there): t
 * suffixes tie (one blocking read), and those t are sorted by the whole
 * key in lists at the front of sv (slots, suffixes, keys) with sk as the
 * sorts' scratch.  u ends as the two sorts of all suffixes leave it (ties
 * in their order before), the group heads in sk (*heads = 1).  given: u
 * holds a part's m suffixes (pd_part_*), sorted without the sample.  More
 * than m / 3 tied, or lists that do not fit: the two sorts of all, from
 * the order the short key left (*heads = 0; that sort was the cost of a
 * wrong guess).  *tied: t, at least the suffixes left unsorted (m when
 * not counted). */
static clsa_status initial_sort_msd(clsa_context *ctx, cl_mem text, clsa__sa_work *w,
                                    const pd_alphabet *a, cl_mem codes, int given, int *heads,
                                    uint64_t *tied)
{
    size_t iw = w->index64 ? 8 : 4, m = (size_t)w->m;
    cl_ulong mm = w->m, n = w->n;
    uint32_t t = 0;
    clsa_status st = CLSA_OK;
    *heads = 0;
    *tied = m;
    unsigned mode = ctx->tune.init_msd;
    size_t ns = m / 16 < MSD_SAMPLE ? m / 16 : MSD_SAMPLE;
    if (!given && ((mode == 1 && ns == MSD_SAMPLE) || (mode == 3 && ns > 0))) {
        if ((st = msd_keys(ctx, text, w, a, codes, ns, m / ns, 0, &t))) return st;
        if (t > ns / 16) return sort_halves(ctx, text, w, a, codes, 0);
    }
    if ((st = msd_keys(ctx, text, w, a, codes, m, 1, given, &t))) return st;
    *tied = t;
    size_t al = clsa__pd_align_elems(ctx, iw) * iw, lane = pd_round_up((size_t)t * iw, al);
    if ((uint64_t)t * 3 > m || 2 * lane + (size_t)t * 4 > m * iw)
        return sort_halves(ctx, text, w, a, codes, 1);
    cl_mem v[5] = {NULL};
    cl_uint sym = a->sym, b = a->b, h0 = a->h0, j0 = key_lo_first(a);
    cl_ulong tt = t;
    if (t && ((st = clsa__pd_sub_view(ctx, w->sv, 0, (size_t)t * iw, &v[0])) ||
              (st = clsa__pd_sub_view(ctx, w->sv, lane, (size_t)t * iw, &v[1])) ||
              (st = clsa__pd_sub_view(ctx, w->sv, 2 * lane, (size_t)t * 4, &v[2])) ||
              (st = clsa__pd_sub_view(ctx, w->sk, 0, (size_t)t * 4, &v[3])) ||
              (st = clsa__pd_sub_view(ctx, w->sk, pd_round_up((size_t)t * 4, al), (size_t)t * iw,
                                                 &v[4]))))
        goto done;
    if (t && ((st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_tied_take", m, 0, CLSA_KARG(text),
                                CLSA_KARG(n), CLSA_KARG(codes), CLSA_KARG(sym), CLSA_KARG(b),
                                CLSA_KARG(h0), CLSA_KARG(j0), CLSA_KARG(w->k), CLSA_KARG(w->u),
                                CLSA_KARG(w->sk), CLSA_KARG(mm), CLSA_KARG(v[0]), CLSA_KARG(v[1]),
                                CLSA_KARG(v[2]))) ||
              /* the scan in sk is dead: sk's views are the sorts' scratch */
              (st = clsa__radix_sort_capped(ctx, v[2], v[1], t, 4, (int)iw, 0, 32, v[3], v[4],
                                            pd_table_cap(t))) ||
              (st = sort_hi(ctx, text, w, a, codes, v[2], v[1], t, v[3], v[4], NULL, NULL)) ||
              (st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_tied_put", t, 0, CLSA_KARG(v[0]),
                                CLSA_KARG(v[1]), CLSA_KARG(tt), CLSA_KARG(w->u)))))
        goto done;
    clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
    st =
        CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_heads_msd", m, 0, CLSA_KARG(text), CLSA_KARG(n),
                    CLSA_KARG(codes), CLSA_KARG(b), CLSA_KARG(h0), CLSA_KARG(w->k), CLSA_KARG(w->u),
                    CLSA_KARG(w->sk), CLSA_KLOCAL((ctx->tune.wg + 1) * 8), CLSA_KARG(mm));
    *heads = !st;
done:
    for (int i = 0; i < 5; i++)
        clsa__release_mem(ctx, v[i]);
    return st;
}

/* The SA buffer ends up with all n suffixes sorted by their first h0
 * symbols; k, sk, sv (n idx_t each) are scratch.  Afterwards *sorted_keys
 * says whether k holds the sorted keys (the upper 32 bits where they are
 * longer: pd_heads_sorted reads them), 2: the group heads are in sk;
 * *tied: at most this many suffixes are left unsorted (m unless known). */
static clsa_status initial_sort(clsa_context *ctx, cl_mem text, clsa__sa_work *w,
                                const pd_alphabet *a, cl_mem codes, int given, int *sorted_keys,
                                uint64_t *tied)
{
    *tied = w->m;
    int vb = w->index64 ? 8 : 4;
    cl_ulong n = w->n;
    cl_uint sym = a->sym, b = a->b, h0 = a->h0, sep = a->sep_byte >= 0;
    clsa_status st;
    *sorted_keys = 0;
    if (!given && w->n <= small_sort_cap(ctx, w->index64)) {
        cl_uint P = 2;
        while (P < w->n) P *= 2;
        size_t wg = P / 2 < ctx->tune.wg ? P / 2 : ctx->tune.wg;
        return clsa__sa_run(ctx, "pd_init", w->index64, "pd_sort_small", wg, wg,
                            CLSA_KARGS(CLSA_KARG(text), CLSA_KARG(n), CLSA_KARG(codes),
                                       CLSA_KARG(sym), CLSA_KARG(b), CLSA_KARG(h0),
                                       CLSA_KARG(sep), CLSA_KARG(P), CLSA_KARG(w->u),
                                       CLSA_KLOCAL(P * 8), CLSA_KLOCAL(P * (size_t)vb)));
    }
    unsigned msd = ctx->tune.init_msd;
    if (a->msd_b && (msd == 2 || (msd & 1 && a->msd))) {
        int heads;
        if ((st = initial_sort_msd(ctx, text, w, a, codes, given, &heads, tied))) return st;
        *sorted_keys = heads ? 2 : 1;
        return CLSA_OK;
    }
    if ((st = sort_halves(ctx, text, w, a, codes, given))) return st;
    *sorted_keys = 1;
    return CLSA_OK;
}

/* Direct mode (docs/SA.md): u gets an m-entry buffer of its own, the SA
 * buffer keeps the initial sort's order (every initial singleton is in its
 * final slot) and the splits write the others as they finish, so no
 * inversion at the end.  Taken when the caller wants the SA (direct_ok)
 * and that buffer plus the loop's three (sized as shrink does, sv in
 * full) and the digit table keep within 5 iw bytes per input byte and the
 * device's limit.  held: device bytes once the initial phase's work
 * arrays are gone.  CLSA_TUNE sa_path=no_direct: never (ISA^-1 at the end);
 * + 512: whatever the 5 iw budget (tests). */
static int direct_fits(const clsa_context *ctx, const clsa__sa_work *w, uint64_t held)
{
    uint64_t iw = w->index64 ? 8 : 4, need = 4 * iw * w->m + pd_table_cap(w->m) + 256;
    if (!w->direct_ok || !w->m || (ctx->tune.sa_path & CLSA_SA_NO_DIRECT)) return 0;
    if (held + need > clsa__mem_limit(ctx)) return 0;
    return (ctx->tune.sa_path & CLSA_SA_DIRECT) || held + need <= 5 * iw * w->n;
}

/* After the initial groups: move u into the SA buffer (or, in direct mode,
 * into an m-entry buffer of its own) and shrink the work arrays to the m
 * suffixes still unsorted.  k and sk hold m entries; sv holds m too, unless
 * text + SA + ISA + 3 m + the digit table would pass 5 iw bytes per input
 * byte (20 for the 32-bit SA: inputs that leave nearly every suffix
 * unsorted): then sv holds half of m (plus an alignment, and m / 16 where
 * that fits), and the global sorts run in two parts (sort_global). */
static clsa_status shrink(clsa_context *ctx, pd_buffers *b, clsa__sa_work *w, cl_mem sa)
{
    size_t iw = w->index64 ? 8 : 4;
    clsa_status st;
    clsa__pd_release(ctx, b, w->sk); /* (the SA buffer after a compaction: not released) */
    clsa__pd_release(ctx, b, w->sv);
    w->k = w->sk = w->sv = NULL;
    /* u, when not in the SA buffer, is the initial phase's n-entry array */
    uint64_t held = ctx->stats.current_device_bytes - (w->u != sa ? iw * w->n : 0);
    int direct = direct_fits(ctx, w, held);
    if (w->lazy && (!direct || !w->m || (ctx->tune.isa_lazy == 2 && w->m % 2))) {
        /* the rest of the ranks from the SA buffer's initial order, before u
         * may overwrite it (isa_lazy=2: tests, half the time) */
        if ((st = clsa__pd_lazy_walk(ctx, w, sa, 1))) return st;
        w->lazy = 0;
    }
    if (w->lazy) {
        w->need_shift = clsa__pd_need_shift(ctx, w->n, w->m);
        size_t bytes = clsa__pd_need_bytes(w->n, w->need_shift);
        if ((st = clsa__pd_alloc(ctx, b, bytes, &w->need))) return st;
    }
    if (direct) {
        cl_mem u = NULL;
        if ((st = clsa__pd_alloc(ctx, b, w->m * iw, &u)) ||
            (st = clsa__copy(ctx, w->u, 0, u, 0, w->m * iw)))
            return st;
        clsa__pd_release(ctx, b, w->u);
        w->u = u;
        w->sa = sa;
    } else {
        if (w->u != sa && w->m && (st = clsa__copy(ctx, w->u, 0, sa, 0, w->m * iw))) return st;
        clsa__pd_release(ctx, b, w->u);
        w->u = sa;
    }
    if (w->m == 0) return CLSA_OK;
    size_t al = clsa__pd_align_elems(ctx, iw);
    uint64_t held2 = ctx->stats.current_device_bytes + 2 * iw * (uint64_t)w->m + pd_table_cap(w->m);
    w->sv_len = w->m;
    if ((ctx->tune.sa_path & CLSA_SA_HALF) || held2 + iw * (uint64_t)w->m > 5 * iw * w->n) {
        /* half, and an eighth more where it fits: room for a group
         * boundary to split the sorts at (sort_global) */
        size_t half = w->m - w->m / 2 / al * al + al, more = half + w->m / 16 / al * al;
        w->sv_len = held2 + iw * (uint64_t)more <= 5 * iw * w->n ? more : half;
    }
    if (w->sv_len > w->m) w->sv_len = w->m;
    if ((st = clsa__reserve_check(ctx, (2 * w->m + w->sv_len) * iw + 256,
                                  "suffix array doubling working set")))
        return st;
    /* k also holds the class lists (pd_sort.cl): a few uints more than m/4 */
    if ((st = clsa__pd_alloc(ctx, b, w->m * iw + 256, &w->k)) ||
        (st = clsa__pd_alloc(ctx, b, w->m * iw, &w->sk)) ||
        (st = clsa__pd_alloc(ctx, b, w->sv_len * iw, &w->sv)))
        return st;
    return CLSA_OK;
}

/* Whether the initial ranks go to the unsorted suffixes alone (groups.h
 * lazy): a short-key sort left at most m / 3 suffixes tied (its tied ones
 * sorted apart), and the SA is wanted in direct mode.  Each pass then
 * walks the SA buffer once (coalesced) instead of a random scatter of n
 * ranks.
 * CLSA_TUNE isa_lazy: 0 never, 2 whenever tied, completing isa in shrink
 * half the time (tests). */
static int lazy_wanted(const clsa_context *ctx, const clsa__sa_work *w, uint64_t tied)
{
    unsigned mode = ctx->tune.isa_lazy;
    if (!mode || tied >= w->m) return 0;
    return mode == 2 || (tied * 3 <= w->m && w->direct_ok && !(ctx->tune.sa_path & CLSA_SA_NO_DIRECT));
}

/* Initial sort and groups: afterwards isa holds every suffix's rank, u (in
 * the SA buffer) the m suffixes of unsorted groups, and k, sk, sv are
 * sized for them. */
/* given: a part of the suffixes (clsa__sa_device_part): k, sk, sv are
 * allocated and u (= sa) holds the w->m positions to sort. */
clsa_status clsa__pd_initial_groups(clsa_context *ctx, cl_mem text, cl_mem sa, pd_buffers *b,
                                    clsa__sa_work *w, const pd_alphabet *a, int given)
{
    size_t iw = w->index64 ? 8 : 4, n = (size_t)w->n;
    cl_ulong nn = w->n, mm;
    cl_uint csym = a->sym, cb = a->b, ch0 = a->h0, csep = a->sep_byte >= 0;
    cl_mem codes = text; /* unread when the codes are in the text */
    clsa_status st = CLSA_OK;
    if (a->sym == 1) codes = a->dcodes; /* alphabet made them */
    if (!given) {
        CLSA_TRY(clsa__pd_alloc(ctx, b, n * iw, &w->k));
        CLSA_TRY(clsa__pd_alloc(ctx, b, n * iw, &w->sk));
        CLSA_TRY(clsa__pd_alloc(ctx, b, n * iw, &w->sv));
        w->u = sa;
        w->m = n;
    }
    mm = w->m;
    int sorted_keys;
    uint64_t tied;
    CLSA_TRY(initial_sort(ctx, text, w, a, codes, given, &sorted_keys, &tied));
    clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
    if (sorted_keys == 2) {
        /* initial_sort_msd left the heads in sk */
    } else if (sorted_keys && !csep) {
        /* the sorted keys decide most heads without going back to the text */
        cl_uint j0 = key_lo_first(a);
        cl_int lo_part = a->b * a->h0 > 32;
        CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_heads_sorted", w->m, 0, CLSA_KARG(text),
                             CLSA_KARG(nn), CLSA_KARG(codes), CLSA_KARG(csym), CLSA_KARG(cb),
                             CLSA_KARG(ch0), CLSA_KARG(j0), CLSA_KARG(w->k), CLSA_KARG(w->u),
                             CLSA_KARG(w->sk), CLSA_KLOCAL((ctx->tune.wg + 1) * 4), CLSA_KARG(mm),
                             CLSA_KARG(lo_part)));
    } else {
        CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_init_heads", w->m, 0, CLSA_KARG(text),
                             CLSA_KARG(nn), CLSA_KARG(codes), CLSA_KARG(csym), CLSA_KARG(cb),
                             CLSA_KARG(ch0), CLSA_KARG(csep), CLSA_KARG(w->u), CLSA_KARG(w->sk),
                             CLSA_KLOCAL((ctx->tune.wg + 1) * 8), CLSA_KARG(mm)));
    }
    w->isa = w->k; /* the sort keys are dead */
    w->k = NULL;
    w->lazy = lazy_wanted(ctx, w, tied); /* settle fills isa with "unset" */
    CLSA_TRY(clsa__groups_settle(ctx, w, 0));
    if (codes != text) clsa__pd_release(ctx, b, codes);
    CLSA_TRY(shrink(ctx, b, w, sa));
done:
    return st;
}

/* The same for a text of sym-byte symbols: one radix sort by the first
 * symbol (the radix sort skips the digits no symbol uses) gives each
 * distinct symbol its dense code 1..sigma; the codes, written over the
 * symbols (or into a copy when the text is the caller's), then go through
 * the byte path's packed initial sort: h0 = 64 / bits(sigma) symbols a
 * key instead of one, log2(h0) doubling passes fewer.  Without room for
 * the codes (sigma = 65536 in 16 bits) the groups of the first symbol are
 * the initial groups, h0 = 1. */
clsa_status clsa__pd_initial_groups_int(clsa_context *ctx, cl_mem text, int text_writable,
                                        cl_mem sa, pd_buffers *b, clsa__sa_work *w,
                                        pd_alphabet *a)
{
    size_t iw = w->index64 ? 8 : 4, n = (size_t)w->n;
    int vb = w->index64 ? 8 : 4;
    cl_ulong nn = w->n;
    cl_uint sym = a->sym;
    uint32_t sigma = 0;
    cl_mem codes = text;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__pd_alloc(ctx, b, n * iw, &w->k));
    CLSA_TRY(clsa__pd_alloc(ctx, b, n * iw, &w->sk));
    CLSA_TRY(clsa__pd_alloc(ctx, b, n * iw, &w->sv));
    w->u = sa;
    w->m = n;
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_key_sym", n, 0, CLSA_KARG(text),
                         CLSA_KARG(nn), CLSA_KARG(sym), CLSA_KARG(w->k), CLSA_KARG(w->u)));
    CLSA_TRY(clsa__radix_sort_capped(ctx, w->k, w->u, w->n, 4, vb, 0, 8 * sym, w->sk, w->sv,
                                     pd_table_cap(w->n)));
    clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_sym_heads", n, 0, CLSA_KARG(w->k),
                         CLSA_KARG(nn), CLSA_KARG(w->sk)));
    if (ctx->tune.sa_path & CLSA_SA_ONE_SYMBOL) goto unpacked; /* CLSA_TUNE sa_path=one_symbol: h0 = 1, for comparison */
    CLSA_TRY(clsa__scan(ctx, w->sk, w->k, n, 1, 0, &sigma)); /* k: codes; sk keeps the heads */
    if (sym == 2 && sigma > 0xFFFF) goto unpacked;
    if (!text_writable) CLSA_TRY(clsa__pd_alloc(ctx, b, n * sym, &codes));
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_sym_codes", n, 0, CLSA_KARG(w->k),
                         CLSA_KARG(w->u), CLSA_KARG(nn), CLSA_KARG(sym), CLSA_KARG(codes)));
    clsa__pd_release(ctx, b, w->k);
    clsa__pd_release(ctx, b, w->sk);
    clsa__pd_release(ctx, b, w->sv);
    a->sigma = sigma;
    a->b = clsa__bits_of(sigma);
    a->h0 = 64 / a->b;
    CLSA_TRY(clsa__pd_initial_groups(ctx, codes, sa, b, w, a, 0));
    if (codes != text) clsa__pd_release(ctx, b, codes);
    return CLSA_OK;
unpacked:
    w->isa = w->k; /* the sort keys are dead */
    w->k = NULL;
    CLSA_TRY(clsa__groups_settle(ctx, w, 0));
    CLSA_TRY(shrink(ctx, b, w, sa));
done:
    return st;
}
