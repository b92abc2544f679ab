/* Single-pass LSD radix sort driver (launchers of cl_kernels/radix_onesweep.cl):
 * one radix_prepare for the control words, the plan, the digit totals and
 * the look-back tables, one radix_hist_all over the keys for the
 * digits of every pass (and the OR/AND of the keys: one small blocking
 * read), then one radix_onesweep launch per pass whose digit varies, then
 * one blocking read of the fault word (or none: the caller's control
 * words, clsa__radix_sort_unchecked).  Chosen by radix_sort.c when the
 * tuning record's onesweep flag is set and n < 2^30; a pass that faulted is
 * left to radix_sort.c to redo. */
#include "radix_run.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "status.h"

#include <string.h>

/* Histogram work-groups per compute unit: enough to hide memory latency,
 * few enough that the global atomics of the per-group tables stay cheap. */
#define HIST_GROUPS_PER_CU 8

/* Look-back tables of every pass zeroed at once by radix_prepare (one
 * command instead of one a pass: small sorts are bound by the commands
 * issued) where they fit the caller's cap, or this many bytes whatever the
 * cap, and no more than ALL_TABLES_MAX; else one table zeroed before each
 * pass.  A large sort's tables are large (2^28 pairs: 64 MB a pass): one of
 * them, zeroed again before each pass, costs the same time and a quarter
 * of the memory. */
#define ALL_TABLES_MIN ((size_t)1 << 20)
#define ALL_TABLES_MAX ((size_t)16 << 20)

clsa_status clsa__radix_onesweep_alloc(clsa__radix_run *r, unsigned begin_bit, unsigned end_bit,
                                       size_t cap)
{
    size_t slot = ((size_t)1 << r->bits) * r->nb;
    size_t passes = (end_bit - begin_bit + r->bits - 1) / r->bits;
    size_t limit = cap ? (cap > ALL_TABLES_MIN ? cap : ALL_TABLES_MIN) : r->n * (size_t)r->kb;
    r->slot_words = slot;
    unsigned mode = r->ctx->tune.onesweep_tables;
    if (limit > ALL_TABLES_MAX) limit = ALL_TABLES_MAX;
    int all = mode == 2 || (mode == 0 && passes * slot * 4 <= limit);
    r->table_slots = passes > 1 && all ? (unsigned)passes : 1;
    clsa_status st = clsa__alloc(r->ctx, 4 * (CLSA_RADIX_COUNT_WORDS + r->table_slots * slot),
                                 &r->table);
    if (st || r->ctl) {
        r->masks = r->ctl;
        return st;
    }
    return clsa__alloc(r->ctx, 4 * CLSA_RADIX_CTL_ALL, &r->masks);
}

typedef struct plan {
    cl_uint word[2 * CLSA_RADIX_MAX_PASSES]; /* shift, dmask per pass */
    unsigned count;
} plan;

static void add_pass(const clsa__radix_run *r, plan *p, unsigned shift, unsigned end_bit)
{
    unsigned w = clsa__radix_digit_width(r, shift, end_bit);
    p->word[2 * p->count] = shift;
    p->word[2 * p->count + 1] = (1u << w) - 1;
    p->count++;
}

/* Passes at begin_bit, begin_bit + bits, ... (varying = all bits), or each
 * at the lowest varying bit not yet covered. */
static void make_plan(const clsa__radix_run *r, plan *p, uint64_t varying, unsigned begin_bit,
                      unsigned end_bit)
{
    p->count = 0;
    for (unsigned s = clsa__radix_next_bit(varying, begin_bit); s < end_bit;
         s = clsa__radix_next_bit(varying, s + clsa__radix_digit_width(r, s, end_bit)))
        add_pass(r, p, s, end_bit);
}

clsa_status clsa__radix_onesweep_kernels(clsa__radix_run *r, const char *opts)
{
    static const char *file = "radix_rank+radix_onesweep";
    clsa_status st = clsa__kernel(r->ctx, file, 0, opts, "radix_hist_all", &r->hist);
    if (st == CLSA_OK) st = clsa__kernel(r->ctx, file, 0, opts, "radix_onesweep", &r->scatter);
    if (st == CLSA_OK) st = clsa__kernel(r->ctx, file, 0, opts, "radix_prepare", &r->prepare);
    return st;
}

/* radix_prepare: the control words from `from` on (the plan p) and the
 * table's first `zeros` words zeroed, in one launch. */
static clsa_status prepare(clsa__radix_run *r, cl_uint from, const plan *p, size_t zeros)
{
    static const char *name = "radix_prepare";
    clsa_context *ctx = r->ctx;
    cl_kernel k = r->prepare;
    cl_uint16 lo, hi;
    memcpy(lo.s, p->word, sizeof lo.s);
    memcpy(hi.s, p->word + 16, sizeof hi.s);
    cl_int keep = r->ctl && r->keep_fault;
    cl_ulong z = zeros;
    size_t items = zeros > CLSA_RADIX_CTL_ALL ? zeros : CLSA_RADIX_CTL_ALL;
    clsa_status st = CLSA_ARGS(ctx, k, name, CLSA_KARG(r->masks), CLSA_KARG(from),
                               CLSA_KARG(keep), CLSA_KARG(lo), CLSA_KARG(hi),
                               CLSA_KARG(r->table), CLSA_KARG(z));
    if (st) return st;
    return clsa__launch(ctx, k, name, clsa__div_up(items, r->wg) * r->wg, r->wg);
}

/* The digit totals of the plan's passes into the table's first words
 * (zero before). */
static clsa_status hist_all(clsa__radix_run *r, cl_mem keys, cl_uint npasses, cl_int want_masks)
{
    static const char *name = "radix_hist_all";
    clsa_context *ctx = r->ctx;
    cl_kernel k = r->hist;
    cl_ulong n = r->n;
    cl_uint plan_at = CLSA_RADIX_CTL_PLAN;
    size_t cu = ctx->tune.compute_units ? ctx->tune.compute_units : 1;
    /* a work-item's loop iterations: its tiles times the keys it loads and
     * counts per pass */
    size_t per_tile = r->items * (1 + (size_t)npasses), tiles = CLSA_LOOP_BUDGET / per_tile;
    size_t groups = cu * HIST_GROUPS_PER_CU, least = clsa__div_up(r->nb, tiles ? tiles : 1);
    if (groups < least) groups = least;
    if (groups > r->nb) groups = r->nb;
    clsa_status st = CLSA_ARGS(ctx, k, name, CLSA_KARG(keys), CLSA_KARG(n), CLSA_KARG(npasses),
                               CLSA_KARG(r->masks), CLSA_KARG(plan_at), CLSA_KARG(r->table),
                               CLSA_KLOCAL((size_t)npasses * 256 * 4), CLSA_KARG(want_masks),
                               CLSA_KARG(r->masks));
    if (st) return st;
    return clsa__launch(ctx, k, name, groups * r->wg, r->wg);
}

/* The pass's look-back table: its own, or the first one (zeroed here but
 * for the first pass that runs, whose zeros the first fill wrote). */
static clsa_status status_table(clsa__radix_run *r, cl_uint pass, int first, cl_ulong *at)
{
    int own = r->table_slots > 1 && pass < r->table_slots;
    *at = CLSA_RADIX_COUNT_WORDS + (own ? pass : 0) * r->slot_words;
    if (own || first) return CLSA_OK;
    return clsa__fill_zero(r->ctx, r->table, (size_t)*at * 4, r->slot_words * 4);
}

static clsa_status one_pass(clsa__radix_run *r, cl_mem kin, cl_mem kout, cl_mem vin, cl_mem vout,
                            cl_uint shift, cl_uint dmask, cl_uint pass, int first)
{
    static const char *name = "radix_onesweep";
    clsa_context *ctx = r->ctx;
    cl_kernel k = r->scatter;
    cl_ulong n = r->n, at;
    cl_uint a = r->vb ? 4 : 2; /* the values' buffers follow the keys' when there */
    size_t digits = ((size_t)dmask + 1) * 4;
    clsa_status st;
    if ((st = status_table(r, pass, first, &at)) ||
        (st = CLSA_ARGS(ctx, k, name, CLSA_KARG(kin), CLSA_KARG(kout))) ||
        (r->vb && (st = CLSA_ARGS_AT(ctx, k, name, 2, CLSA_KARG(vin), CLSA_KARG(vout)))) ||
        (st = CLSA_ARGS_AT(ctx, k, name, a, CLSA_KARG(n), CLSA_KARG(shift), CLSA_KARG(dmask),
                           CLSA_KARG(pass), CLSA_KARG(r->table), CLSA_KARG(r->table),
                           CLSA_KARG(at), CLSA_KARG(r->masks))) ||
        (st = clsa__radix_rank_args(r, k, name, a + 8, dmask, &a)) ||
        (st = CLSA_ARGS_AT(ctx, k, name, a, CLSA_KLOCAL(digits), CLSA_KLOCAL(digits))))
        return st;
    /* named apart in the profile: which ranking ran */
    return clsa__launch(ctx, k, r->warp ? "radix_onesweep_warp" : name, r->nb * r->wg, r->wg);
}

/* The histograms of the plan at begin_bit with the key masks (up to
 * tune.radix_blind keys: of every digit, no masks read back); replanned
 * (a second histogram) when aligning passes to the varying bits saves a
 * pass, else the passes whose digit is constant are dropped. */
static clsa_status histograms(clsa__radix_run *r, cl_mem keys, unsigned begin_bit,
                              unsigned end_bit, plan *p, int *run)
{
    cl_uint m[4];
    make_plan(r, p, ~0ull, begin_bit, end_bit);
    clsa_status st;
    /* small, or the caller's control words (its keys vary in every digit):
     * every digit, no read back */
    int blind = r->n <= r->ctx->tune.radix_blind || r->ctl;
    size_t zeros = CLSA_RADIX_COUNT_WORDS + r->slot_words * r->table_slots;
    if ((st = prepare(r, 0, p, zeros)) || (st = hist_all(r, keys, p->count, !blind))) return st;
    for (unsigned i = 0; i < p->count; i++) run[i] = 1;
    if (blind) return CLSA_OK;
    if ((st = clsa__read(r->ctx, r->masks, 0, m, sizeof m))) return st;
    uint64_t varying = (m[0] ^ m[2]) | (uint64_t)(m[1] ^ m[3]) << 32;
    varying &= clsa__radix_bit_range(begin_bit, end_bit);
    unsigned kept = 0;
    for (unsigned i = 0; i < p->count; i++) {
        uint64_t digit = (uint64_t)p->word[2 * i + 1] << p->word[2 * i];
        run[i] = (varying & digit) != 0;
        kept += (unsigned)run[i];
    }
    if (!varying || clsa__radix_count_passes(r, varying, begin_bit, end_bit) >= kept) return CLSA_OK;
    make_plan(r, p, varying, begin_bit, end_bit);
    for (unsigned i = 0; i < p->count; i++) run[i] = 1;
    if ((st = prepare(r, CLSA_RADIX_CTL_PLAN, p, CLSA_RADIX_COUNT_WORDS))) return st;
    return hist_all(r, keys, p->count, 0);
}

clsa_status clsa__radix_onesweep_passes(clsa__radix_run *r, cl_mem keys, cl_mem values,
                                        cl_mem skeys, cl_mem svalues, unsigned begin_bit,
                                        unsigned end_bit, clsa__radix_redo *redo)
{
    clsa_context *ctx = r->ctx;
    cl_mem kcur = keys, kalt = skeys, vcur = values, valt = svalues, tmp;
    cl_mem before[CLSA_RADIX_MAX_PASSES][4];
    plan p;
    int run[CLSA_RADIX_MAX_PASSES], first = 1;
    cl_uint fault = 0;
    clsa_status st = CLSA_OK;
    redo->bit = end_bit;
    CLSA_TRY(histograms(r, keys, begin_bit, end_bit, &p, run));
    for (unsigned i = 0; i < p.count; i++) {
        before[i][0] = kcur, before[i][1] = vcur, before[i][2] = kalt, before[i][3] = valt;
        if (!run[i]) continue;
        CLSA_TRY(one_pass(r, kcur, kalt, vcur, valt, p.word[2 * i], p.word[2 * i + 1], i, first));
        first = 0;
        tmp = kcur, kcur = kalt, kalt = tmp;
        tmp = vcur, vcur = valt, valt = tmp;
    }
    /* with the caller's control words, the caller reads the fault word */
    if (!r->ctl)
        CLSA_TRY(clsa__read(ctx, r->masks, CLSA_RADIX_CTL_FAULT * 4, &fault, sizeof fault));
    if (fault > 0 && fault <= p.count) {
        /* the failed pass's input is intact and the later passes did
         * nothing: the caller sorts that buffer from the pass's digit on */
        redo->bit = p.word[2 * (fault - 1)];
        redo->keys = before[fault - 1][0], redo->values = before[fault - 1][1];
        redo->skeys = before[fault - 1][2], redo->svalues = before[fault - 1][3];
        goto done;
    }
    st = clsa__radix_copy_back(r, kcur, vcur, keys, values);
done:
    return st;
}
