/* LSD radix sort: argument checks, tile shape, the choice between the
 * single-pass driver (radix_onesweep.c) and the reduce-then-scan fallback
 * here.  Fallback, per pass: tile histograms (radix_hist), an exclusive
 * scan of the digit-major table (clsa__scan), and the stable scatter
 * (radix_scatter), ping-ponging between the keys and the scratch buffers.
 * The first histogram also reduces OR/AND of all keys, so passes over bits
 * that never vary are skipped. */
#include "radix_sort.h"
#include "radix_run.h"
#include "scan.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "status.h"
#include "tuning.h"

#include <stdio.h>

typedef clsa__radix_run sort_run;

/* perm and the counters are ushorts in local memory. */
#define MAX_TILE 32768
/* The look-back packs a count below 2^30 with its flag (radix_onesweep.cl). */
#define ONESWEEP_MAX_N ((size_t)1 << 30)

/* The next smaller item count tried: the power of two below, then halves. */
static size_t smaller(size_t items)
{
    size_t p = clsa__pow2_floor(items);
    return p < items ? p : items / 2;
}

static clsa_status get_kernels(sort_run *r)
{
    const clsa_tuning *t = &r->ctx->tune;
    /* the local-memory match (3) borrows the tile buffer: 32 bytes a
     * work-item; the emulated ranking has only that one */
    unsigned match = r->warp ? t->radix_match : 0u;
    if (match == 3 && r->items < 8) match = r->warp == 1 ? 1u : 0u;
    if (r->warp == 2 && match != 3) match = 0;
    char opts[256];
    int len = snprintf(opts, sizeof opts,
                       "-DKEY_BYTES=%d -DVAL_BYTES=%d -DRADIX_ITEMS=%zu -DRADIX_SUB=%d "
                       "-DRADIX_REG=%d -DRADIX_WARP=%u -DRADIX_MATCH=%u -DRADIX_VTILE=%u "
                       "-DRADIX_SHFL=%u",
                       r->kb, r->vb, r->items, r->sub,
                       !r->warp && r->items < 256 && t->radix_reg, r->warp, match, r->vtile,
                       r->warp == 1 && t->radix_shfl);
    /* NVIDIA's compiler only (the PTX warp ranking runs there) */
    if (r->warp == 1 && t->radix_regs)
        len += snprintf(opts + len, sizeof opts - (size_t)len, " -cl-nv-maxrregcount=%u",
                        t->radix_regs);
    if (r->onesweep) {
        /* tests: onesweep_fault = pass + 1 faults every single pass sort's
         * pass, + 16 only those of unchecked sorts */
        unsigned fault = t->onesweep_fault;
        fault = fault < 16 || r->ctl ? fault % 16 : 0;
        snprintf(opts + len, sizeof opts - (size_t)len,
                 " -DONESWEEP_FAULT=%u -DLOOKBACK=%u -DWC_IN_VTILE=%d", fault,
                 r->ctx->tune.lookback, clsa__radix_counters_in_vtile(r, r->items));
        return clsa__radix_onesweep_kernels(r, opts);
    }
    clsa_status st = clsa__kernel(r->ctx, "radix_rank+radix_sort", 0, opts, "radix_hist", &r->hist);
    if (st == CLSA_OK)
        st = clsa__kernel(r->ctx, "radix_rank+radix_sort", 0, opts, "radix_scatter", &r->scatter);
    return st;
}



static size_t kernel_max_wg(clsa_context *ctx, cl_kernel k)
{
    size_t m = 0;
    if (clGetKernelWorkGroupInfo(k, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof m, &m, NULL) !=
            CL_SUCCESS || m == 0)
        m = ctx->tune.max_wg;
    return m;
}

/* Tile shape from the tuning record, shrunk (items first, then the
 * work-group) until the scatter's local memory fits, then to what the
 * compiled kernels allow. */
static clsa_status choose_shape_once(sort_run *r)
{
    const clsa_tuning *t = &r->ctx->tune;
    size_t wg = clsa__pow2_floor(t->sort_wg ? t->sort_wg : 1);
    /* any item count: the tile need not be a power of two (NVIDIA's 48 KB
     * take 256 x 20 u32 pairs where the counters share the value tile) */
    size_t items = t->radix_items ? t->radix_items : 1;
    if (items > 32) items = 32;
    if (wg > t->max_wg) wg = clsa__pow2_floor(t->max_wg ? t->max_wg : 1);
    if (wg < CLSA_RADIX_WARP_LANES) r->warp = 0;
    r->vtile = r->warp && r->vb && (t->radix_vtile == 2 || (t->radix_vtile && r->onesweep));
    while (wg * items > MAX_TILE) items > 1 ? (items = smaller(items)) : (wg /= 2);
    uint64_t lm = t->local_mem ? t->local_mem : 16384;
    /* the value tile is the first thing to go, the tuned shape the last */
    while (clsa__radix_scatter_local(r, wg, items) > lm && wg * items > 1) {
        if (r->vtile)
            r->vtile = 0;
        else if (items > 1)
            items = smaller(items);
        else
            wg /= 2;
    }
    if (clsa__radix_scatter_local(r, wg, items) > lm)
        return clsa__fail(r->ctx, CLSA_ERR_UNSUPPORTED,
                          "radix sort: device local memory (%llu bytes) is too small",
                          (unsigned long long)lm);
    r->items = items;
    clsa_status st = get_kernels(r);
    if (st) return st;
    size_t kmax = kernel_max_wg(r->ctx, r->hist), smax = kernel_max_wg(r->ctx, r->scatter);
    if (smax < kmax) kmax = smax;
    if (wg > kmax) wg = clsa__pow2_floor(kmax);
    if (r->warp && wg < CLSA_RADIX_WARP_LANES) return CLSA_ERR_UNSUPPORTED;
    r->wg = wg;
    r->tile = wg * items;
    r->nb = clsa__div_up(r->n, r->tile);
    return CLSA_OK;
}

/* Where the native warp ranking does not build (a driver without PTX inline
 * assembly or match.any) or the kernels allow less than a warp, the split
 * rounds instead; a failed build turns it off for the context. */
static clsa_status choose_shape(sort_run *r)
{
    clsa_status st = choose_shape_once(r);
    if (st == CLSA_OK || !r->warp) return st;
    if (r->warp == 1 && st != CLSA_ERR_UNSUPPORTED) r->ctx->tune.radix_warp = 0;
    r->warp = 0;
    return choose_shape_once(r);
}

static clsa_status run_hist(sort_run *r, cl_mem keys, cl_uint shift, cl_uint dmask, cl_int masks)
{
    static const char *name = "radix_hist";
    clsa_context *ctx = r->ctx;
    cl_kernel k = r->hist;
    cl_ulong n = r->n;
    cl_uint nb = (cl_uint)r->nb;
    clsa_status st = CLSA_ARGS(ctx, k, name, CLSA_KARG(keys), CLSA_KARG(n), CLSA_KARG(shift),
                               CLSA_KARG(dmask), CLSA_KARG(nb), CLSA_KARG(r->table),
                               CLSA_KLOCAL(((size_t)dmask + 1) * 4), CLSA_KARG(masks),
                               CLSA_KARG(r->masks));
    if (st) return st;
    return clsa__launch(ctx, k, name, r->nb * r->wg, r->wg);
}

static clsa_status run_scatter(sort_run *r, cl_mem kin, cl_mem kout, cl_mem vin, cl_mem vout,
                               cl_uint shift, cl_uint dmask)
{
    static const char *name = "radix_scatter";
    clsa_context *ctx = r->ctx;
    cl_kernel k = r->scatter;
    cl_ulong n = r->n;
    cl_uint nb = (cl_uint)r->nb, a = r->vb ? 4 : 2; /* the values' buffers when there */
    clsa_status st;
    if ((st = CLSA_ARGS(ctx, k, name, CLSA_KARG(kin), CLSA_KARG(kout))) ||
        (r->vb && (st = CLSA_ARGS_AT(ctx, k, name, 2, CLSA_KARG(vin), CLSA_KARG(vout)))) ||
        (st = CLSA_ARGS_AT(ctx, k, name, a, CLSA_KARG(n), CLSA_KARG(shift), CLSA_KARG(dmask),
                           CLSA_KARG(nb), CLSA_KARG(r->table))) ||
        (st = clsa__radix_rank_args(r, k, name, a + 5, dmask, &a)))
        return st;
    /* named apart in the profile: which ranking ran */
    return clsa__launch(ctx, k, r->warp ? "radix_scatter_warp" : name, r->nb * r->wg, r->wg);
}

/* ---- pass planning ---------------------------------------------------------- */



/* Runs the first histogram at begin_bit with the OR/AND reduction; returns
 * the key bits in range that vary (0: nothing to sort) and whether that
 * histogram is worth keeping as the first pass's. */
static clsa_status first_hist(sort_run *r, cl_mem keys, unsigned begin_bit, unsigned end_bit,
                              uint64_t *varying, int *keep)
{
    cl_uint init[4] = {0, 0, ~0u, ~0u}, m[4];
    unsigned w = clsa__radix_digit_width(r, begin_bit, end_bit);
    clsa_status st = clsa__write(r->ctx, r->masks, 0, init, sizeof init);
    if (st == CLSA_OK) st = run_hist(r, keys, begin_bit, (1u << w) - 1, 1);
    if (st == CLSA_OK) st = clsa__read(r->ctx, r->masks, 0, m, sizeof m);
    if (st) return st;
    uint64_t or_k = m[0] | (uint64_t)m[1] << 32, and_k = m[2] | (uint64_t)m[3] << 32;
    *varying = (or_k ^ and_k) & clsa__radix_bit_range(begin_bit, end_bit);
    uint64_t first_digit = clsa__radix_bit_range(begin_bit, begin_bit + w);
    *keep = (*varying & first_digit) != 0 &&
            1 + clsa__radix_count_passes(r, *varying, begin_bit + w, end_bit) <=
                clsa__radix_count_passes(r, *varying, begin_bit, end_bit);
    return CLSA_OK;
}

static clsa_status sort_passes(sort_run *r, cl_mem keys, cl_mem values, cl_mem skeys,
                               cl_mem svalues, unsigned begin_bit, unsigned end_bit)
{
    uint64_t varying;
    int have_hist;
    cl_mem kcur = keys, kalt = skeys, vcur = values, valt = svalues, tmp;
    clsa_status st = CLSA_OK;
    if (r->n <= r->ctx->tune.radix_blind) { /* every digit, no read back */
        varying = clsa__radix_bit_range(begin_bit, end_bit);
        have_hist = 0;
    } else if ((st = first_hist(r, keys, begin_bit, end_bit, &varying, &have_hist)) || !varying) {
        return st;
    }
    unsigned s = have_hist ? begin_bit : clsa__radix_next_bit(varying, begin_bit);
    while (s < end_bit) {
        unsigned w = clsa__radix_digit_width(r, s, end_bit);
        cl_uint dmask = (1u << w) - 1;
        if (!have_hist && (st = run_hist(r, kcur, s, dmask, 0))) return st;
        have_hist = 0;
        if ((st = clsa__scan(r->ctx, r->table, r->table, ((size_t)dmask + 1) * r->nb, 0, 0, NULL)) ||
            (st = run_scatter(r, kcur, kalt, vcur, valt, s, dmask)))
            return st;
        tmp = kcur, kcur = kalt, kalt = tmp;
        tmp = vcur, vcur = valt, valt = tmp;
        s = clsa__radix_next_bit(varying, s + w);
    }
    return clsa__radix_copy_back(r, kcur, vcur, keys, values);
}

/* A single pass that faulted (an implementation that cut its look-back
 * short): the rest of the sort by reduce-then-scan, which the context
 * keeps from then on. */
static clsa_status redo_sort(sort_run *r, const clsa__radix_redo *redo, cl_mem keys,
                             cl_mem values, unsigned end_bit, size_t max_table_bytes)
{
    clsa_context *ctx = r->ctx;
    ctx->tune.onesweep = 0;
    clsa_status st = clsa__radix_sort_capped(ctx, redo->keys, redo->values, r->n, r->kb, r->vb,
                                             redo->bit, end_bit, redo->skeys, redo->svalues,
                                             max_table_bytes);
    return st ? st : clsa__radix_copy_back(r, redo->keys, redo->values, keys, values);
}

clsa_status clsa__radix_sort(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                             int key_bytes, int value_bytes, unsigned begin_bit, unsigned end_bit,
                             cl_mem scratch_keys, cl_mem scratch_values)
{
    return clsa__radix_sort_capped(ctx, keys, values, n, key_bytes, value_bytes, begin_bit,
                                   end_bit, scratch_keys, scratch_values, 0);
}

clsa_status clsa__radix_sort_capped(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                    int key_bytes, int value_bytes, unsigned begin_bit,
                                    unsigned end_bit, cl_mem scratch_keys, cl_mem scratch_values,
                                    size_t max_table_bytes)
{
    return clsa__radix_sort_unchecked(ctx, keys, values, n, key_bytes, value_bytes, begin_bit,
                                      end_bit, scratch_keys, scratch_values, max_table_bytes,
                                      NULL, NULL);
}

clsa_status clsa__radix_sort_faulted(clsa_context *ctx, cl_mem ctl, int pending, int *faulted)
{
    cl_uint fault = 0;
    clsa_status st = pending ? clsa__read(ctx, ctl, CLSA_RADIX_FAULT_AT, &fault, sizeof fault)
                             : CLSA_OK;
    *faulted = fault != 0;
    return st;
}

clsa_status clsa__radix_sort_unchecked(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                       int key_bytes, int value_bytes, unsigned begin_bit,
                                       unsigned end_bit, cl_mem scratch_keys,
                                       cl_mem scratch_values, size_t max_table_bytes, cl_mem ctl,
                                       int *pending)
{
    if ((key_bytes != 4 && key_bytes != 8) ||
        (value_bytes != 0 && value_bytes != 4 && value_bytes != 8))
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "radix sort: %d-byte keys, %d-byte values",
                          key_bytes, value_bytes);
    if (end_bit > 8u * (unsigned)key_bytes)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "radix sort: end_bit %u > %d key bits",
                          end_bit, 8 * key_bytes);
    if (n < 2 || begin_bit >= end_bit) return CLSA_OK;
    if (n > UINT32_MAX)
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "radix sort: %zu keys (at most 2^32-1)", n);
    if (!keys || (value_bytes && !values))
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "radix sort: NULL buffer");
    sort_run r = {0};
    r.ctx = ctx;
    r.kb = key_bytes;
    r.vb = value_bytes;
    r.bits = ctx->tune.radix_bits >= 4 && ctx->tune.radix_bits <= 8 ? ctx->tune.radix_bits : 8;
    r.n = n;
    r.sub = ctx->tune.radix_sub >= 1 && ctx->tune.radix_sub <= 8 ? ctx->tune.radix_sub
                                                                 : CLSA_RADIX_SUB_BITS;
    r.onesweep = ctx->tune.onesweep && n < ONESWEEP_MAX_N && n < ctx->tune.onesweep_max;
    r.warp = ctx->tune.radix_warp;
    r.ctl = r.onesweep && ctl ? ctl : NULL;
    r.keep_fault = pending && *pending;
    cl_mem own_k = NULL, own_v = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(choose_shape(&r));
    /* narrower digits (more passes) where small tiles would make the table
     * larger than the caller's memory budget or the largest allocation allow */
    size_t table_cap = max_table_bytes && max_table_bytes < ctx->tune.max_alloc
                           ? max_table_bytes
                           : (size_t)ctx->tune.max_alloc;
    while (r.bits > 4 && ((size_t)4 << r.bits) * r.nb > table_cap) r.bits--;
    unsigned width = end_bit - begin_bit < r.bits ? end_bit - begin_bit : r.bits;
    if (r.onesweep) {
        CLSA_TRY(clsa__radix_onesweep_alloc(&r, begin_bit, end_bit, max_table_bytes));
    } else {
        CLSA_TRY(clsa__alloc(ctx, ((size_t)4 << width) * r.nb, &r.table));
        CLSA_TRY(clsa__alloc(ctx, 4 * CLSA_RADIX_CTL_WORDS, &r.masks));
    }
    if (!scratch_keys) CLSA_TRY(clsa__alloc(ctx, n * (size_t)key_bytes, &own_k));
    if (value_bytes && !scratch_values)
        CLSA_TRY(clsa__alloc(ctx, n * (size_t)value_bytes, &own_v));
    cl_mem sk = scratch_keys ? scratch_keys : own_k, sv = scratch_values ? scratch_values : own_v;
    if (r.onesweep) {
        clsa__radix_redo redo;
        CLSA_TRY(clsa__radix_onesweep_passes(&r, keys, values, sk, sv, begin_bit, end_bit, &redo));
        if (redo.bit < end_bit) CLSA_TRY(redo_sort(&r, &redo, keys, values, end_bit, max_table_bytes));
        if (r.ctl) *pending = 1;
    } else {
        CLSA_TRY(sort_passes(&r, keys, values, sk, sv, begin_bit, end_bit));
    }
done:
    clsa__free(ctx, &r.table);
    if (r.masks != r.ctl) clsa__free(ctx, &r.masks);
    clsa__free(ctx, &own_k);
    clsa__free(ctx, &own_v);
    return st;
}
