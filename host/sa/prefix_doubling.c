/* Device suffix array by prefix doubling (docs/SA.md).
 *
 * 1. Initial sort of all suffixes by their first h0 symbols, packed with
 *    the bits the text's alphabet needs (h0 = 64 / bits), as two stable
 *    32-bit-key radix sorts (low half, then high half gathered through the
 *    sorted positions): half the bytes moved of one 64-bit-key sort.
 *    Where a short key of the first symbols sets most suffixes apart (high
 *    entropy: random bytes, DNA), one sort by it and a sort of just the
 *    suffixes tied on it instead (initial_sort_msd).
 * 2. Ranks = SA index of the group's first suffix, into ISA; singletons
 *    leave the working set u.
 * 3. While u is not empty: sort u stably by ISA[p + h], then by the group
 *    rank (skipped when one group is left), split groups, new ranks, drop
 *    singletons, h *= 2.
 * 4. SA = ISA^-1 (the SA buffer is work space until then), unless in
 *    direct mode (see shrink) the SA buffer kept the initial order and
 *    each split wrote its new singletons into it.
 * One repeated byte is answered directly. */
#include "sa.h"
#include "groups.h"
#include "pd_lazy.h"
#include "pd_part.h"
#include "prim/radix_sort.h"
#include "prim/scan.h"
#include "prim/segmented_sort.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "progress.h"
#include "status.h"
#include "tuning.h"

#include <math.h>
#include <string.h>

#define RUN(ctx, index64, name, global, ...)                                            \
    clsa__sa_run(ctx, "prefix_doubling", index64, name, global, 0,                    \
                 sizeof((clsa__karg[]){__VA_ARGS__}) / sizeof(clsa__karg),             \
                 (clsa__karg[]){__VA_ARGS__})

typedef struct pd_alphabet {
    unsigned sym;        /* bytes per symbol: 1 (dcodes maps them) or 2, 4 (codes in the text) */
    unsigned sigma;      /* distinct symbols */
    unsigned b, h0;      /* bits per symbol, symbols per key */
    int sep_byte;        /* bytes: the separator byte of a generalized SA (code 1), or -1 */
    cl_mem dcodes;       /* bytes: 256 ushorts, byte -> 1..sigma (pd_codes), or NULL; the
                          * caller frees it */
    unsigned msd_b;      /* bits a symbol of the short key (pd_key_msd); 0: none */
    int msd;             /* the short key is expected to set most suffixes apart */
} pd_alphabet;

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

static clsa_status alphabet(clsa_context *ctx, cl_mem text, uint64_t n, pd_alphabet *a)
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
    CLSA_TRY(RUN(ctx, 0, "pd_histogram", groups * wg, CLSA_KARG(text), CLSA_KARG(nn),
                 CLSA_KARG(hist), CLSA_KLOCAL(256 * 4)));
    /* the codes made on the device, numbered as sigma counts below, ahead
     * of the read: no write of them after it (a blocking copy; the device
     * idles meanwhile) */
    cl_int sep = a->sep_byte;
    CLSA_TRY(clsa__alloc(ctx, 256 * sizeof(cl_ushort), &a->dcodes));
    CLSA_TRY(RUN(ctx, 0, "pd_codes", 1, CLSA_KARG(hist), CLSA_KARG(sep), CLSA_KARG(a->dcodes)));
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

/* Radix digit table budget for a sort of x keys: a quarter byte per key
 * (what 8-bit digits cost with GPU tiles of 4096 keys); devices with small
 * tiles get narrower digits instead of a bigger table. */
static size_t table_cap(uint64_t x) { return (size_t)(x / 4) + 4096; }

/* Symbol j's b-bit field sits at shift b * (h0 - 1 - j): the low 32 key
 * bits need j >= h0 - ceil(32 / b) (this), the high ones j < h0 - 32 / b. */
static cl_uint key_lo_first(const pd_alphabet *a)
{
    cl_uint lo_n = (32 + a->b - 1) / a->b;
    return a->h0 > lo_n ? a->h0 - lo_n : 0;
}

static size_t round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* Elements per sub-buffer alignment of the device (CL_DEVICE_MEM_BASE_ADDR_ALIGN). */
static size_t align_elems(clsa_context *ctx, size_t iw)
{
    cl_uint bits = 0;
    if (clGetDeviceInfo(ctx->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL) !=
            CL_SUCCESS || bits < 8 * iw)
        bits = 4096;
    return bits / 8 / iw;
}

/* View of buf from byte `off` (of a sub-buffer: of its parent, as
 * sub-buffers cannot nest); allocates nothing. */
static clsa_status sub_view(clsa_context *ctx, cl_mem buf, size_t off, size_t bytes, cl_mem *out)
{
    cl_mem parent = NULL;
    size_t base = 0;
    cl_int err = clGetMemObjectInfo(buf, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
    if (err == CL_SUCCESS && parent)
        err = clGetMemObjectInfo(buf, CL_MEM_OFFSET, sizeof base, &base, NULL);
    if (err != CL_SUCCESS) return clsa__cl(ctx, err, "clGetMemObjectInfo", NULL);
    cl_buffer_region r = {base + off, bytes};
    *out = clCreateSubBuffer(parent ? parent : buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    return clsa__cl(ctx, err, "clCreateSubBuffer", NULL);
}

/* Views of k and u from slot `from` to m (released by the caller). */
static clsa_status tail_views(clsa_context *ctx, const clsa__sa_work *w, size_t from, cl_mem *k2,
                              cl_mem *u2)
{
    size_t kb = w->index64 ? 8 : 4, bytes = (w->m - from) * kb;
    clsa_status st = sub_view(ctx, w->k, from * kb, bytes, k2);
    return st ? st : sub_view(ctx, w->u, from * kb, bytes, u2);
}

/* A radix sort of the initial sort's: checked (clsa__radix_sort_capped),
 * or with ctl its single passes' fault word left there for the caller
 * (clsa__radix_sort_unchecked, *pending as there). */
static clsa_status init_sort(clsa_context *ctx, const clsa__sa_work *w, cl_mem keys, cl_mem pos,
                             size_t m, unsigned bits, cl_mem sk, cl_mem sv, cl_mem ctl,
                             int *pending)
{
    int vb = w->index64 ? 8 : 4;
    if (!ctl) return clsa__radix_sort_capped(ctx, keys, pos, m, 4, vb, 0, bits, sk, sv, table_cap(m));
    return clsa__radix_sort_unchecked(ctx, keys, pos, m, 4, vb, 0, bits, sk, sv, table_cap(m),
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
    clsa_status st = RUN(ctx, w->index64, "pd_key_lo", w->m, CLSA_KARG(text), CLSA_KARG(n),
                         CLSA_KARG(codes), CLSA_KARG(sym), CLSA_KARG(b), CLSA_KARG(h0),
                         CLSA_KARG(j0), CLSA_KARG(sep), CLSA_KARG(w->k), CLSA_KARG(w->u),
                         CLSA_KARG(m), CLSA_KARG(giv));
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
    clsa_status st = RUN(ctx, w->index64, "pd_key_hi", m, CLSA_KARG(text), CLSA_KARG(n),
                         CLSA_KARG(codes), CLSA_KARG(sym), CLSA_KARG(b), CLSA_KARG(h0),
                         CLSA_KARG(j1), CLSA_KARG(sep), CLSA_KARG(pos), CLSA_KARG(keys),
                         CLSA_KARG(mm), CLSA_KLOCAL(256 * 2));
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
    clsa_status st = RUN(ctx, w->index64, "pd_key_msd", m, CLSA_KARG(text), CLSA_KARG(n),
                         CLSA_KARG(codes), CLSA_KARG(bb), CLSA_KARG(k), CLSA_KARG(str),
                         CLSA_KARG(w->u), CLSA_KARG(w->k), CLSA_KARG(mm), CLSA_KLOCAL(256 * 2),
                         CLSA_KARG(giv));
    if (!st) st = clsa__radix_sort_capped(ctx, w->k, w->u, m, 4, w->index64 ? 8 : 4, 0, bb * k,
                                          w->sk, w->sv, table_cap(m));
    if (!st) st = RUN(ctx, w->index64, "pd_tied_flags", m, CLSA_KARG(w->k), CLSA_KARG(mm),
                      CLSA_KARG(w->sv));
    return st ? st : clsa__scan(ctx, w->sv, w->sk, m, 0, 0, t);
}

/* Suffixes sampled before the short key is trusted (initial_sort_msd;
 * fewer below 16 x as many, where CLSA_TUNE init_msd=3 still samples). */
#define MSD_SAMPLE 65536

/* A short key first (pd_key_msd in prefix_doubling.cl), where alphabet()
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
    size_t al = align_elems(ctx, iw) * iw, lane = round_up((size_t)t * iw, al);
    if ((uint64_t)t * 3 > m || 2 * lane + (size_t)t * 4 > m * iw)
        return sort_halves(ctx, text, w, a, codes, 1);
    cl_mem v[5] = {NULL};
    cl_uint sym = a->sym, b = a->b, h0 = a->h0, j0 = key_lo_first(a);
    cl_ulong tt = t;
    if (t && ((st = sub_view(ctx, w->sv, 0, (size_t)t * iw, &v[0])) ||
              (st = sub_view(ctx, w->sv, lane, (size_t)t * iw, &v[1])) ||
              (st = sub_view(ctx, w->sv, 2 * lane, (size_t)t * 4, &v[2])) ||
              (st = sub_view(ctx, w->sk, 0, (size_t)t * 4, &v[3])) ||
              (st = sub_view(ctx, w->sk, round_up((size_t)t * 4, al), (size_t)t * iw, &v[4]))))
        goto done;
    if (t && ((st = RUN(ctx, w->index64, "pd_tied_take", m, CLSA_KARG(text), CLSA_KARG(n),
                        CLSA_KARG(codes), CLSA_KARG(sym), CLSA_KARG(b), CLSA_KARG(h0),
                        CLSA_KARG(j0), CLSA_KARG(w->k), CLSA_KARG(w->u), CLSA_KARG(w->sk),
                        CLSA_KARG(mm), CLSA_KARG(v[0]), CLSA_KARG(v[1]), CLSA_KARG(v[2]))) ||
              /* the scan in sk is dead: sk's views are the sorts' scratch */
              (st = clsa__radix_sort_capped(ctx, v[2], v[1], t, 4, (int)iw, 0, 32, v[3], v[4],
                                            table_cap(t))) ||
              (st = sort_hi(ctx, text, w, a, codes, v[2], v[1], t, v[3], v[4], NULL, NULL)) ||
              (st = RUN(ctx, w->index64, "pd_tied_put", t, CLSA_KARG(v[0]), CLSA_KARG(v[1]),
                        CLSA_KARG(tt), CLSA_KARG(w->u)))))
        goto done;
    clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
    st = RUN(ctx, w->index64, "pd_heads_msd", m, CLSA_KARG(text), CLSA_KARG(n), CLSA_KARG(codes),
             CLSA_KARG(b), CLSA_KARG(h0), CLSA_KARG(w->k), CLSA_KARG(w->u), CLSA_KARG(w->sk),
             CLSA_KLOCAL((ctx->tune.wg + 1) * 8), CLSA_KARG(mm));
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
        return clsa__sa_run(ctx, "prefix_doubling", w->index64, "pd_sort_small", wg, wg,
                            11, (clsa__karg[]){CLSA_KARG(text), CLSA_KARG(n), CLSA_KARG(codes),
                                               CLSA_KARG(sym), CLSA_KARG(b), CLSA_KARG(h0),
                                               CLSA_KARG(sep), CLSA_KARG(P),
                                               CLSA_KARG(w->u), CLSA_KLOCAL(P * 8),
                                               CLSA_KLOCAL(P * (size_t)vb)});
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
                                       table_cap(w->m));
    size_t al = align_elems(ctx, (size_t)kb), a = w->m / 2 / al * al, rest = w->m - a;
    cl_mem k2 = NULL, u2 = NULL;
    cl_ulong ca = a, m = w->m;
    clsa_status st = CLSA_OK;
    CLSA_TRY(tail_views(ctx, w, a, &k2, &u2));
    CLSA_TRY(clsa__radix_sort_capped(ctx, w->k, w->u, a, kb, kb, 0, bits, w->sv, w->sk,
                                     table_cap(a)));
    CLSA_TRY(clsa__radix_sort_capped(ctx, k2, u2, rest, kb, kb, 0, bits, w->sv, w->sk,
                                     table_cap(rest)));
    CLSA_TRY(RUN(ctx, w->index64, "pd_merge_halves", w->m, CLSA_KARG(w->k), CLSA_KARG(w->u),
                 CLSA_KARG(ca), CLSA_KARG(m), CLSA_KARG(w->sk)));
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
    size_t kb = w->index64 ? 8 : 4, al = align_elems(ctx, kb);
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
    if ((st = RUN(ctx, w->index64, "pd_key2", w->m, CLSA_KARG(w->u), CLSA_KARG(w->isa),
                  CLSA_KARG(m), CLSA_KARG(n), CLSA_KARG(hh), CLSA_KARG(w->k))) ||
        (st = sort_by_key(ctx, w, shift)) ||
        (st = RUN(ctx, w->index64, "pd_rank_key", w->m, CLSA_KARG(w->u), CLSA_KARG(w->isa),
                  CLSA_KARG(m), CLSA_KARG(w->k), CLSA_KARG(rk), CLSA_KARG(g))))
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
    CLSA_TRY(tail_views(ctx, w, a, &k2, &u2));
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
        (st = RUN(ctx, w->index64, "pd_key_group", w->m, CLSA_KARG(w->u), CLSA_KARG(w->isa),
                  CLSA_KARG(w->sk), CLSA_KARG(m), CLSA_KARG(n), CLSA_KARG(hh), CLSA_KARG(shift),
                  CLSA_KARG(w->k))))
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
              (st = RUN(ctx, w->index64, "pd_group_ranks", (size_t)g, CLSA_KARG(w->u),
                        CLSA_KARG(w->sv), CLSA_KARG(w->isa), CLSA_KARG(g), CLSA_KARG(granks)))))
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
    CLSA_TRY(RUN(ctx, w->index64, "pd_key2", w->m, CLSA_KARG(w->u), CLSA_KARG(w->isa),
                 CLSA_KARG(m), CLSA_KARG(n), CLSA_KARG(hh), CLSA_KARG(w->k)));
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
    size_t iw = w->index64 ? 8 : 4, a = align_elems(ctx, 1), cap = w->m * iw, kcap = 0;
    size_t b = (size_t)slots * iw;
    if (clGetMemObjectInfo(w->k, CL_MEM_SIZE, sizeof kcap, &kcap, NULL) != CL_SUCCESS ||
        kcap < cap)
        kcap = cap;
    /* an earlier pass's views where they still fit (long_views) */
    if (views_fit(w, b) && 3 * round_up(w->lview_bytes, a) + w->lview_bytes <= kcap)
        b = w->lview_bytes;
    for (int i = 0; i < 4; i++) off[i] = i * round_up(b, a);
    *uses_sk = off[3] + b > kcap;
    if (!*uses_sk) return 1;
    off[1] = 0;
    off[2] = off[3] = round_up(b, a);
    return off[2] + b <= cap;
}

static void drop_long_views(clsa_context *ctx, clsa__sa_work *w)
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
 * 10-15 us, docs/bench/log run 32), else new ones, kept for the next
 * pass where all four are in k (which the loop keeps; *kept: not to be
 * released now). */
static clsa_status long_views(clsa_context *ctx, clsa__sa_work *w, size_t bytes,
                              const size_t off[4], int uses_sk, cl_mem views[4], int *kept)
{
    size_t a = align_elems(ctx, 1);
    *kept = !uses_sk;
    if (!uses_sk && views_fit(w, bytes) && off[1] == round_up(w->lview_bytes, a)) {
        memcpy(views, w->lview, sizeof w->lview);
        return CLSA_OK;
    }
    if (!uses_sk) drop_long_views(ctx, w);
    for (int i = 0; i < 4; i++) {
        clsa_status st = sub_view(ctx, uses_sk && (i & 1) ? w->sk : w->k, off[i], bytes, &views[i]);
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
    CLSA_TRY(clsa__groups_sort_long(ctx, w, c, h, views, table_cap(c->large_slots)));
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
static clsa_status doubling_pass(clsa_context *ctx, clsa__sa_work *w, uint64_t h)
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
    uint64_t long_extra = table_cap(c.large_slots) + (uint64_t)c.count[c.nclass] * (iw + 4);
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

/* Buffers the loop owns; sa (the caller's) is borrowed as work space. */
typedef struct pd_buffers {
    cl_mem own[8];
} pd_buffers;

static void release_all(clsa_context *ctx, pd_buffers *b)
{
    for (int i = 0; i < 8; i++) clsa__free(ctx, &b->own[i]);
}

static void release(clsa_context *ctx, pd_buffers *b, cl_mem m)
{
    for (int i = 0; i < 8; i++)
        if (b->own[i] == m) clsa__free(ctx, &b->own[i]);
}

static clsa_status alloc(clsa_context *ctx, pd_buffers *b, size_t bytes, cl_mem *out)
{
    for (int i = 0; i < 8; i++)
        if (!b->own[i]) {
            clsa_status st = clsa__alloc(ctx, bytes, &b->own[i]);
            *out = b->own[i];
            return st;
        }
    return clsa__fail(ctx, CLSA_ERR_UNSUPPORTED, "prefix doubling: too many buffers");
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
    uint64_t iw = w->index64 ? 8 : 4, need = 4 * iw * w->m + table_cap(w->m) + 256;
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
    release(ctx, b, w->sk); /* (the SA buffer after a compaction: not released) */
    release(ctx, b, w->sv);
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
        if ((st = alloc(ctx, b, clsa__pd_need_bytes(w->n, w->need_shift), &w->need))) return st;
    }
    if (direct) {
        cl_mem u = NULL;
        if ((st = alloc(ctx, b, w->m * iw, &u)) || (st = clsa__copy(ctx, w->u, 0, u, 0, w->m * iw)))
            return st;
        release(ctx, b, w->u);
        w->u = u;
        w->sa = sa;
    } else {
        if (w->u != sa && w->m && (st = clsa__copy(ctx, w->u, 0, sa, 0, w->m * iw))) return st;
        release(ctx, b, w->u);
        w->u = sa;
    }
    if (w->m == 0) return CLSA_OK;
    size_t al = align_elems(ctx, iw);
    uint64_t held2 = ctx->stats.current_device_bytes + 2 * iw * (uint64_t)w->m + table_cap(w->m);
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
    /* k also holds the class lists (groups.cl): a few uints more than m/4 */
    if ((st = alloc(ctx, b, w->m * iw + 256, &w->k)) || (st = alloc(ctx, b, w->m * iw, &w->sk)) ||
        (st = alloc(ctx, b, w->sv_len * iw, &w->sv)))
        return st;
    return CLSA_OK;
}

/* Whether the initial ranks go to the unsorted suffixes alone (groups.h
 * lazy): a short-key sort left at most m / 3 suffixes tied (its tied ones
 * sorted apart), and the SA is wanted in direct mode.  Each pass then
 * walks the SA buffer once (coalesced) where the scatter of n ranks was
 * random (H100, bench log run 20: random DNA 100 MB 7.5 -> 1.2 ms).
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
static clsa_status initial_groups(clsa_context *ctx, cl_mem text, cl_mem sa, pd_buffers *b,
                                  clsa__sa_work *w, const pd_alphabet *a, int given)
{
    size_t iw = w->index64 ? 8 : 4, n = (size_t)w->n;
    cl_ulong nn = w->n, mm;
    cl_uint csym = a->sym, cb = a->b, ch0 = a->h0, csep = a->sep_byte >= 0;
    cl_mem codes = text; /* unread when the codes are in the text */
    clsa_status st = CLSA_OK;
    if (a->sym == 1) codes = a->dcodes; /* alphabet made them */
    if (!given) {
        CLSA_TRY(alloc(ctx, b, n * iw, &w->k));
        CLSA_TRY(alloc(ctx, b, n * iw, &w->sk));
        CLSA_TRY(alloc(ctx, b, n * iw, &w->sv));
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
        CLSA_TRY(RUN(ctx, w->index64, "pd_heads_sorted", w->m, CLSA_KARG(text), CLSA_KARG(nn),
                     CLSA_KARG(codes), CLSA_KARG(csym), CLSA_KARG(cb), CLSA_KARG(ch0),
                     CLSA_KARG(j0), CLSA_KARG(w->k), CLSA_KARG(w->u), CLSA_KARG(w->sk),
                     CLSA_KLOCAL((ctx->tune.wg + 1) * 4), CLSA_KARG(mm), CLSA_KARG(lo_part)));
    } else {
        CLSA_TRY(RUN(ctx, w->index64, "pd_init_heads", w->m, CLSA_KARG(text), CLSA_KARG(nn),
                     CLSA_KARG(codes), CLSA_KARG(csym), CLSA_KARG(cb), CLSA_KARG(ch0),
                     CLSA_KARG(csep), CLSA_KARG(w->u), CLSA_KARG(w->sk),
                     CLSA_KLOCAL((ctx->tune.wg + 1) * 8), CLSA_KARG(mm)));
    }
    w->isa = w->k; /* the sort keys are dead */
    w->k = NULL;
    w->lazy = lazy_wanted(ctx, w, tied); /* settle fills isa with "unset" */
    CLSA_TRY(clsa__groups_settle(ctx, w, 0));
    if (codes != text) release(ctx, b, codes);
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
static clsa_status initial_groups_int(clsa_context *ctx, cl_mem text, int text_writable,
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
    CLSA_TRY(alloc(ctx, b, n * iw, &w->k));
    CLSA_TRY(alloc(ctx, b, n * iw, &w->sk));
    CLSA_TRY(alloc(ctx, b, n * iw, &w->sv));
    w->u = sa;
    w->m = n;
    CLSA_TRY(RUN(ctx, w->index64, "pd_key_sym", n, CLSA_KARG(text), CLSA_KARG(nn), CLSA_KARG(sym),
                 CLSA_KARG(w->k), CLSA_KARG(w->u)));
    CLSA_TRY(clsa__radix_sort_capped(ctx, w->k, w->u, w->n, 4, vb, 0, 8 * sym, w->sk, w->sv,
                                     table_cap(w->n)));
    clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
    CLSA_TRY(RUN(ctx, w->index64, "pd_sym_heads", n, CLSA_KARG(w->k), CLSA_KARG(nn),
                 CLSA_KARG(w->sk)));
    if (ctx->tune.sa_path & CLSA_SA_ONE_SYMBOL) goto unpacked; /* CLSA_TUNE sa_path=one_symbol: h0 = 1, for comparison */
    CLSA_TRY(clsa__scan(ctx, w->sk, w->k, n, 1, 0, &sigma)); /* k: codes; sk keeps the heads */
    if (sym == 2 && sigma > 0xFFFF) goto unpacked;
    if (!text_writable) CLSA_TRY(alloc(ctx, b, n * sym, &codes));
    CLSA_TRY(RUN(ctx, w->index64, "pd_sym_codes", n, CLSA_KARG(w->k), CLSA_KARG(w->u),
                 CLSA_KARG(nn), CLSA_KARG(sym), CLSA_KARG(codes)));
    release(ctx, b, w->k);
    release(ctx, b, w->sk);
    release(ctx, b, w->sv);
    a->sigma = sigma;
    a->b = clsa__bits_of(sigma);
    a->h0 = 64 / a->b;
    CLSA_TRY(initial_groups(ctx, codes, sa, b, w, a, 0));
    if (codes != text) release(ctx, b, codes);
    return CLSA_OK;
unpacked:
    w->isa = w->k; /* the sort keys are dead */
    w->k = NULL;
    CLSA_TRY(clsa__groups_settle(ctx, w, 0));
    CLSA_TRY(shrink(ctx, b, w, sa));
done:
    return st;
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

/* Digit bits of the bucketing sort before the inversion's scatter. */
#define INVERT_BUCKET_BITS 8

/* SA = ISA^-1 (isa is destroyed).  A plain scatter writes anywhere in the
 * SA, a sector per 4 bytes once it is larger than the cache; with room
 * for two more arrays within 5 iw bytes per input byte (always, at the
 * end of the loop), one radix pass first groups the (rank, position)
 * pairs by the rank's top bits, so the writes of a stretch of pairs land
 * in one window of 1/256 of the SA (H200, bench log run 10).
 * CLSA_TUNE sa_path=plain_invert: the plain scatter. */
static clsa_status invert(clsa_context *ctx, pd_buffers *b, clsa__sa_work *w, cl_mem sa)
{
    size_t iw = w->index64 ? 8 : 4;
    cl_ulong nn = w->n;
    cl_mem dead[4] = {w->u, w->k, w->sk, w->sv}; /* the loop's work arrays (m = 0) */
    drop_long_views(ctx, w);
    for (int i = 0; i < 4; i++)
        if (dead[i] != w->isa) release(ctx, b, dead[i]);
    w->u = w->k = w->sk = w->sv = NULL;
    unsigned hi = clsa__bits_of(w->n - 1), lo = hi > INVERT_BUCKET_BITS ? hi - INVERT_BUCKET_BITS : 0;
    uint64_t extra = 2 * iw * w->n + table_cap(w->n);
    int bucketed = !(ctx->tune.sa_path & CLSA_SA_PLAIN_INVERT) && hi > INVERT_BUCKET_BITS &&
                   ctx->stats.current_device_bytes + extra <= 5 * iw * w->n &&
                   extra <= clsa__mem_free(ctx);
    if (!bucketed)
        return RUN(ctx, w->index64, "pd_invert", w->n, CLSA_KARG(w->isa), CLSA_KARG(nn),
                   CLSA_KARG(sa));
    cl_mem vals = NULL, scratch = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(alloc(ctx, b, w->n * iw, &vals));
    CLSA_TRY(alloc(ctx, b, w->n * iw, &scratch));
    CLSA_TRY(RUN(ctx, w->index64, "pd_iota", w->n, CLSA_KARG(nn), CLSA_KARG(vals)));
    /* sa is free until the scatter: the sort's value scratch */
    CLSA_TRY(clsa__radix_sort_capped(ctx, w->isa, vals, w->n, (int)iw, (int)iw, lo, hi, scratch,
                                     sa, table_cap(w->n)));
    CLSA_TRY(RUN(ctx, w->index64, "pd_scatter_pairs", w->n, CLSA_KARG(w->isa), CLSA_KARG(vals),
                 CLSA_KARG(nn), CLSA_KARG(sa)));
done:
    release(ctx, b, vals);
    release(ctx, b, scratch);
    return st;
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
    /* Initial phase: three n-entry work arrays (the first becomes ISA); the
     * loop then needs ISA plus three arrays of the unsorted suffixes
     * (checked in shrink, once their number is known). */
    CLSA_TRY(clsa__reserve_check(ctx, 3 * iw * (uint64_t)n + 4096, "suffix array working set"));
    CLSA_TRY(clsa__progress(ctx, "initial sort", 0.0));
    memset(&a, 0, sizeof a);
    a.sym = (unsigned)sym;
    a.sep_byte = sep_byte;
    a.h0 = 1; /* integer alphabets: the first symbol, unless packed (initial_groups_int) */
    if (sym == 1) CLSA_TRY(alphabet(ctx, text, w.n, &a));
    if (sym == 1 && a.sigma == 1 && sep_byte < 0) {
        CLSA_TRY(RUN(ctx, index64, "pd_reverse", w.n, CLSA_KARG(nn), CLSA_KARG(sa)));
        CLSA_TRY(clsa__progress(ctx, "initial sort", 1.0));
        goto done;
    }
    CLSA_TRY(alloc(ctx, &b, 8, &w.counter));
    CLSA_TRY(alloc(ctx, &b, 36 * 4, &w.counts));
    if (sym == 1) CLSA_TRY(initial_groups(ctx, text, sa, &b, &w, &a, 0));
    else CLSA_TRY(initial_groups_int(ctx, text, text_writable, sa, &b, &w, &a));
    CLSA_TRY(report_sorted(ctx, "initial sort", &w));
    for (uint64_t h = a.h0; w.m > 0; h *= 2) {
        if ((st = past_convergence(ctx, h, w.n))) goto done;
        ctx->stats.doubling_passes++;
        CLSA_TRY(doubling_pass(ctx, &w, h));
        CLSA_TRY(report_sorted(ctx, "doubling", &w));
    }
    clsa__set_phase(ctx, CLSA_PHASE_ISA_UPDATE);
    CLSA_TRY(clsa__progress(ctx, "inversion", SORTED_SHARE));
    if (w.isa_unset || w.sa) { /* the initial sort and the splits left the SA in sa */
    } else if (ranks) {
        CLSA_TRY(clsa__copy(ctx, w.isa, 0, sa, 0, (size_t)w.n * iw));
        *ranks = 1;
    } else {
        CLSA_TRY(invert(ctx, &b, &w, sa));
    }
    CLSA_TRY(clsa__progress(ctx, "inversion", 1.0));
done:
    drop_long_views(ctx, &w);
    clsa__free(ctx, &a.dcodes);
    release_all(ctx, &b);
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
    if (!st) st = alphabet(ctx, text, w.n, &a);
    if (!st) st = alloc(ctx, &b, (size_t)n * iw, &w.k); /* the ranks of all n */
    if (!st) st = alloc(ctx, &b, ((size_t)n + 31) / 32 * 4, &w.sk); /* a bit a suffix */
    if (!st) st = alloc(ctx, &b, 8, &w.counter);
    if (!st) st = alloc(ctx, &b, 36 * 4, &w.counts);
    if (!st) st = clsa__pd_part_own(ctx, p, text, w.n, out, w.sk, &m);
    cl_mem sa = *out;
    /* the initial sort's scratch: the member's m suffixes, not all n */
    release(ctx, &b, w.sk);
    w.sk = NULL;
    if (!st) st = clsa__reserve_check(ctx, 2 * iw * m + 256, "suffix array working set");
    if (!st) st = alloc(ctx, &b, (size_t)m * iw, &w.sk);
    if (!st) st = alloc(ctx, &b, (size_t)m * iw, &w.sv);
    st = clsa__pd_part_slices(ctx, p, st, m);
    w.u = sa;
    w.m = (size_t)m;
    w.rank_base = p->base;
    w.sa_len = m;
    w.direct_ok = 1; /* the slice written as its suffixes finish */
    if (!st && m) st = initial_groups(ctx, text, sa, &b, &w, &a, 1);
    for (uint64_t h = a.h0 ? a.h0 : 1;; h *= 2) {
        int more = 0;
        st = clsa__pd_part_exchange(ctx, p, &w, text, h, st, &more);
        if (st || !more) break;
        /* every member sees the same h and n: all stop here */
        if ((st = past_convergence(ctx, h, w.n))) break;
        ctx->stats.doubling_passes++;
        clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
        if (w.m) st = doubling_pass(ctx, &w, h);
    }
    clsa__set_phase(ctx, CLSA_PHASE_ISA_UPDATE);
    drop_long_views(ctx, &w);
    clsa__free(ctx, &a.dcodes);
    if (!st) st = clsa__pd_part_invert(ctx, p, &w, text, sa);
    release_all(ctx, &b);
    clsa__free(ctx, &p->dsplit);
    clsa__set_phase(ctx, prev);
    return st;
}
