/* Reduce-then-scan launcher: per-tile sums, a recursive scan of the sums,
 * then a downsweep that scans each tile from its offset. */
#include "scan.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "status.h"
#include "tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct scan_shape {
    size_t wg, items, tile;
} scan_shape;

/* Local words of a tile of `tile` values (scan.cl TILE_AT: a word of
 * padding every 32). */
static size_t tile_words(size_t tile) { return tile + tile / 32 + 1; }

/* Local bytes of the tile alone. */
static size_t tile_bytes(scan_shape sh) { return tile_words(sh.tile) * 4; }

static scan_shape shape_of(const clsa_context *ctx)
{
    scan_shape s;
    s.wg = ctx->tune.wg;
    s.items = ctx->tune.scan_items;
    /* tile + two wg-sized scratch arrays must fit in local memory */
    while (s.items > 1 && (tile_words(s.wg * s.items) + 2 * s.wg) * 4 > ctx->tune.local_mem)
        s.items /= 2;
    while (s.wg > 1 && (tile_words(s.wg * s.items) + 2 * s.wg) * 4 > ctx->tune.local_mem)
        s.wg /= 2;
    s.tile = s.wg * s.items;
    return s;
}

/* A single tile's shape cut to n: the work-group halved while half of it
 * still covers n at the tuned items, then as many items a work-item as n
 * needs (the kernels take both as arguments), so a short scan does not
 * walk a full tile of padding. */
static scan_shape fitted(scan_shape s, size_t n)
{
    while (s.wg > 32 && s.wg / 2 * s.items >= n) s.wg /= 2;
    s.items = clsa__div_up(n, s.wg);
    s.tile = s.wg * s.items;
    return s;
}

/* The program's index width: that of the index written, or of the array
 * whose top bits are scanned (CLSA_SCAN_TOP_BITS). */
static int program_width(int mode, cl_mem index, int index64)
{
    return (index || mode == CLSA_SCAN_TOP_BITS) && index64;
}

/* A kernel of scan.cl: one program a width for every kernel of it, built
 * with the single pass's device-scope loads where the NVIDIA PTX path is
 * (common.cl status_load). */
static clsa_status scan_kernel(clsa_context *ctx, int index64, const char *name, cl_kernel *k)
{
    char opts[32];
    snprintf(opts, sizeof opts, "-DCLSA_PTX_LOAD=%d", ctx->tune.radix_warp == 1);
    return clsa__kernel(ctx, "scan", index64, opts, name, k);
}

/* sums[0..nb) = the tiles' sums; pad_zero: also sums[nb] = 0. */
static clsa_status reduce_tiles(clsa_context *ctx, scan_shape sh, cl_mem in, cl_ulong n,
                                int mode, int index64, int pad_zero, cl_mem sums, size_t nb)
{
    static const char *name = "scan_reduce";
    cl_kernel k;
    clsa_status st = scan_kernel(ctx, program_width(mode, NULL, index64), name, &k);
    cl_uint items = (cl_uint)sh.items;
    cl_int flags = mode, pad = pad_zero;
    if (st || (st = CLSA_ARGS(ctx, k, name, CLSA_KARG(in), CLSA_KARG(n), CLSA_KARG(items),
                              CLSA_KARG(flags), CLSA_KARG(pad), CLSA_KARG(sums),
                              CLSA_KLOCAL(sh.wg * 4), CLSA_KLOCAL(sh.wg * 4))))
        return st;
    return clsa__launch(ctx, k, name, nb * sh.wg, sh.wg);
}

/* Where the downsweep writes the start of each run of flags (see
 * scan_downsweep): index NULL for none; idx_t is 64-bit when index64. */
typedef struct scan_index {
    cl_mem index;
    int index64;
} scan_index;

/* The tiles a downsweep scans: all (mem NULL), or those whose word at
 * mem[at + tile] is marked (scan_onepass's faulted tiles). */
typedef struct scan_only {
    cl_mem mem;
    cl_ulong at;
} scan_only;

/* The arguments every tile kernel of scan.cl starts with (in, out, n,
 * items, mode, inclusive) and ends with (the tile and the two scratch
 * arrays of local memory, from argument `locals` on). */
static clsa_status tile_args(clsa_context *ctx, cl_kernel k, const char *name, scan_shape sh,
                             cl_mem in, cl_mem out, cl_ulong n, int mode, int inclusive,
                             cl_uint locals)
{
    cl_uint items = (cl_uint)sh.items;
    cl_int flags = mode, incl = inclusive;
    clsa_status st = CLSA_ARGS(ctx, k, name, CLSA_KARG(in), CLSA_KARG(out), CLSA_KARG(n),
                               CLSA_KARG(items), CLSA_KARG(flags), CLSA_KARG(incl));
    if (st) return st;
    return CLSA_ARGS_AT(ctx, k, name, locals, CLSA_KLOCAL(tile_bytes(sh)), CLSA_KLOCAL(sh.wg * 4),
                        CLSA_KLOCAL(sh.wg * 4));
}

/* total (single tile only, else NULL): receives the tile's sum.
 * offsets: the exclusive scan of the tiles' sums, or with SUMS_RAW or'ed
 * into nb the sums themselves (each work-group adds up those before it). */
#define SUMS_RAW ((size_t)1 << (sizeof(size_t) * 8 - 1))
static clsa_status downsweep(clsa_context *ctx, scan_shape sh, cl_mem in, cl_mem out, cl_ulong n,
                             int mode, int inclusive, cl_mem offsets, cl_mem total,
                             scan_index ix, size_t nb, scan_only only)
{
    static const char *name = "scan_downsweep";
    cl_kernel k;
    clsa_status st =
        scan_kernel(ctx, program_width(mode, ix.index, ix.index64), name, &k);
    cl_int has = offsets == NULL ? 0 : nb & SUMS_RAW ? 2 : 1, want = total != NULL,
           want_ix = ix.index != NULL;
    nb &= ~SUMS_RAW;
    cl_mem off = offsets ? offsets : in; /* any valid buffer when unused */
    cl_mem tot = total ? total : out;    /* not written when unused */
    cl_mem idx = ix.index ? ix.index : out;
    cl_mem on = only.mem ? only.mem : out; /* unread without has_only */
    cl_int has_only = only.mem != NULL;
    if (st || (st = tile_args(ctx, k, name, sh, in, out, n, mode, inclusive, 15)) ||
        (st = CLSA_ARGS_AT(ctx, k, name, 6, CLSA_KARG(off), CLSA_KARG(has), CLSA_KARG(want),
                           CLSA_KARG(tot), CLSA_KARG(want_ix), CLSA_KARG(idx), CLSA_KARG(on),
                           CLSA_KARG(only.at), CLSA_KARG(has_only))))
        return st;
    return clsa__launch(ctx, k, name, nb * sh.wg, sh.wg);
}

/* The whole scan by one work-group (scan_serial); total as downsweep's. */
static clsa_status serial(clsa_context *ctx, scan_shape sh, cl_mem in, cl_mem out, cl_ulong n,
                          int mode, int inclusive, cl_mem total, scan_index ix)
{
    static const char *name = "scan_serial";
    cl_kernel k;
    clsa_status st =
        scan_kernel(ctx, program_width(mode, ix.index, ix.index64), name, &k);
    cl_int want = total != NULL, want_ix = ix.index != NULL;
    cl_mem tot = total ? total : out; /* not written when unused */
    cl_mem idx = ix.index ? ix.index : out;
    if (st || (st = tile_args(ctx, k, name, sh, in, out, n, mode, inclusive, 10)) ||
        (st = CLSA_ARGS_AT(ctx, k, name, 6, CLSA_KARG(want), CLSA_KARG(tot), CLSA_KARG(want_ix),
                           CLSA_KARG(idx))))
        return st;
    return clsa__launch(ctx, k, name, sh.wg, sh.wg);
}

static clsa_status scan_with(clsa_context *ctx, cl_mem in, cl_mem out, size_t n, int inclusive,
                             int mode, uint32_t *total, scan_index ix);

/* scan.cl's look-back state layout (SP_*). */
#define SP_HEAD (CLSA_SCAN_USER_AT + CLSA_SCAN_USER_WORDS)
#define SP_FAULTS 2
#define SP_FAULTED 0x80000000u
#define SP_TOTAL 4
#define SP_MAX_N ((size_t)1 << 29)

/* The context's look-back state with room for nb tiles (ctx->scan_state,
 * made zero; a larger one replaces a smaller), the words this scan reaches
 * that the last one did not zeroed.  *ok = 0 where it would not fit the
 * memory limit (the scan then takes reduce-then-scan). */
static clsa_status onepass_state(clsa_context *ctx, size_t nb, int *ok)
{
    *ok = 0;
    if (ctx->scan_state && ctx->scan_cap < nb) clsa__free(ctx, &ctx->scan_state);
    if (!ctx->scan_state) {
        size_t bytes = (SP_HEAD + 2 * nb) * 4;
        if (clsa__mem_free(ctx) < bytes + ((uint64_t)1 << 16)) return CLSA_OK;
        clsa_status st = clsa__alloc(ctx, bytes, &ctx->scan_state);
        if (!st) st = clsa__fill_zero(ctx, ctx->scan_state, 0, bytes);
        if (st) {
            clsa__free(ctx, &ctx->scan_state);
            return st;
        }
        ctx->scan_cap = nb;
        ctx->scan_tiles = ctx->scan_dirty = 0;
    } else if (nb > ctx->scan_tiles && ctx->scan_dirty > ctx->scan_tiles) {
        size_t hi = nb < ctx->scan_dirty ? nb : ctx->scan_dirty;
        clsa_status st = clsa__fill_zero(ctx, ctx->scan_state, (SP_HEAD + ctx->scan_tiles) * 4,
                                         (hi - ctx->scan_tiles) * 4);
        if (st) return st;
    }
    *ok = 1;
    return CLSA_OK;
}

static clsa_status onepass_launch(clsa_context *ctx, scan_shape sh, cl_mem in, cl_mem out,
                                  cl_ulong n, int mode, int inclusive, scan_index ix, size_t nb)
{
    static const char *name = "scan_onepass";
    cl_kernel k;
    clsa_status st = scan_kernel(ctx, program_width(mode, ix.index, ix.index64), name, &k);
    cl_uint cap = (cl_uint)ctx->scan_cap, epoch = ctx->scan_epoch;
    cl_uint fault_at = ctx->tune.scan_fault;
    cl_int want_ix = ix.index != NULL;
    cl_mem idx = ix.index ? ix.index : out;
    if (st || (st = tile_args(ctx, k, name, sh, in, out, n, mode, inclusive, 12)) ||
        (st = CLSA_ARGS_AT(ctx, k, name, 6, CLSA_KARG(ctx->scan_state), CLSA_KARG(cap),
                           CLSA_KARG(epoch), CLSA_KARG(fault_at), CLSA_KARG(want_ix),
                           CLSA_KARG(idx))))
        return st;
    return clsa__launch(ctx, k, name, nb * sh.wg, sh.wg);
}

/* After a single pass that faulted: the tiles' sums scanned, the faulted
 * tiles (their input untouched) scanned again from those offsets. */
static clsa_status onepass_repair(clsa_context *ctx, scan_shape sh, cl_mem in, cl_mem out,
                                  cl_ulong n, int mode, int inclusive, scan_index ix, size_t nb,
                                  uint32_t *total)
{
    static const char *name = "scan_onepass_sums";
    scan_index none = {NULL, 0};
    scan_only faulted = {ctx->scan_state, SP_HEAD + ctx->scan_cap};
    cl_ulong nbl = nb;
    cl_mem sums = NULL;
    cl_kernel k;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, nb * 4, &sums));
    CLSA_TRY(scan_kernel(ctx, 0, name, &k));
    CLSA_TRY(CLSA_ARGS(ctx, k, name, CLSA_KARG(ctx->scan_state), CLSA_KARG(faulted.at),
                       CLSA_KARG(nbl), CLSA_KARG(sums)));
    CLSA_TRY(clsa__launch(ctx, k, name, nb, ctx->tune.wg));
    CLSA_TRY(scan_with(ctx, sums, sums, nb, 0, CLSA_SCAN_VALUES, total, none));
    CLSA_TRY(downsweep(ctx, sh, in, out, n, mode, inclusive, sums, NULL, ix, nb, faulted));
done:
    clsa__free(ctx, &sums);
    return st;
}

clsa_status clsa__onepass_begin(clsa_context *ctx, size_t n, size_t extra, clsa__onepass *op,
                                int *ok)
{
    scan_shape sh = shape_of(ctx);
    *ok = 0;
    op->wg = sh.wg;
    op->items = sh.items;
    op->tile_bytes = tile_bytes(sh);
    op->nb = clsa__div_up(n, sh.tile);
    if (!ctx->tune.scan_onepass || op->nb < 2 || n >= SP_MAX_N ||
        op->tile_bytes + (extra * sh.tile + 2 * sh.wg) * 4 > ctx->tune.local_mem)
        return CLSA_OK;
    clsa_status st = onepass_state(ctx, op->nb, ok);
    op->state = ctx->scan_state;
    op->cap = (cl_uint)ctx->scan_cap;
    op->epoch = ctx->scan_epoch;
    op->fault_at = ctx->tune.scan_fault;
    return st;
}

clsa_status clsa__onepass_end(clsa_context *ctx, clsa__onepass *op, uint32_t *total,
                              int *faulted)
{
    uint32_t ctl[SP_HEAD];
    clsa_status st = clsa__read(ctx, op->state, 0, ctl, sizeof ctl);
    if (st) { /* the state is in an unknown state: the next scan makes a new one */
        clsa__free(ctx, &ctx->scan_state);
        return st;
    }
    ctx->scan_epoch++;
    ctx->scan_tiles = op->nb;
    if (op->nb > ctx->scan_dirty) ctx->scan_dirty = op->nb;
    *total = ctl[SP_TOTAL];
    memcpy(op->user, ctl + CLSA_SCAN_USER_AT, sizeof op->user);
    *faulted = ctl[SP_FAULTS + (op->epoch & 1u)] != 0;
    if (*faulted && !ctx->tune.scan_fault) ctx->tune.scan_onepass = 0;
    return CLSA_OK;
}

size_t clsa__onepass_sums_at(const clsa__onepass *op) { return SP_HEAD + (size_t)op->cap; }

clsa_status clsa__onepass_sums(clsa_context *ctx, const clsa__onepass *op, uint32_t *sums,
                               size_t *first)
{
    clsa_status st = clsa__read(ctx, op->state, clsa__onepass_sums_at(op) * 4, sums, op->nb * 4);
    *first = op->nb;
    for (size_t t = 0; !st && t < op->nb; t++) {
        if ((sums[t] & SP_FAULTED) && *first == op->nb) *first = t;
        sums[t] &= ~SP_FAULTED;
    }
    return st;
}

/* The single pass (scan.cl scan_onepass) and one read of its total and
 * fault counter; a fault is repaired.  *ok = 0: not run (memory), the
 * caller scans by reduce-then-scan. */
static clsa_status onepass(clsa_context *ctx, scan_shape sh, cl_mem in, cl_mem out, size_t n,
                           int mode, int inclusive, uint32_t *total, scan_index ix, int *ok)
{
    clsa__onepass op;
    int faulted = 0;
    clsa_status st = clsa__onepass_begin(ctx, n, 0, &op, ok);
    if (st || !*ok) return st;
    if ((st = onepass_launch(ctx, sh, in, out, n, mode, inclusive, ix, op.nb)) ||
        (st = clsa__onepass_end(ctx, &op, total, &faulted)) || !faulted)
        return st;
    return onepass_repair(ctx, sh, in, out, n, mode, inclusive, ix, op.nb, total);
}

static clsa_status scan_with(clsa_context *ctx, cl_mem in, cl_mem out, size_t n, int inclusive,
                             int mode, uint32_t *total, scan_index ix)
{
    static const scan_only all = {NULL, 0};
    if (total) *total = 0;
    if (n == 0) return CLSA_OK;
    scan_shape sh = shape_of(ctx);
    size_t nb = clsa__div_up(n, sh.tile);
    cl_mem sums = NULL, offsets = NULL;
    clsa_status st = CLSA_OK;
    if (total && mode != CLSA_SCAN_VALUES) {
        int ok = 0;
        if ((st = onepass(ctx, sh, in, out, n, mode, inclusive, total, ix, &ok)) || ok)
            return st;
    }
    if (nb > 1 && n <= ctx->tune.scan_serial) {
        if (total) CLSA_TRY(clsa__alloc(ctx, 4, &sums));
        CLSA_TRY(serial(ctx, sh, in, out, n, mode, inclusive, sums, ix));
        if (total) CLSA_TRY(clsa__read(ctx, sums, 0, total, 4));
        goto done;
    }
    if (nb == 1) {
        /* One tile: the downsweep alone is the whole scan, and hands out
         * the total (it reads the whole tile before writing, so out may be
         * in). */
        if (total) CLSA_TRY(clsa__alloc(ctx, 4, &sums));
        CLSA_TRY(downsweep(ctx, fitted(sh, n), in, out, n, mode, inclusive, NULL, sums, ix, 1,
                           all));
        if (total) CLSA_TRY(clsa__read(ctx, sums, 0, total, 4));
        goto done;
    }
    if (nb <= ctx->tune.scan_sums_raw) {
        /* few tiles: the downsweep adds up the sums before each (a launch
         * fewer); a total is the sum of them all */
        uint32_t *host_sums = total ? malloc(nb * 4) : NULL;
        if (total && !host_sums)
            return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "scan: %zu tile sums", nb);
        if (!(st = clsa__alloc(ctx, nb * 4, &sums)) &&
            !(st = reduce_tiles(ctx, sh, in, n, mode, ix.index64, 0, sums, nb)) &&
            !(st = downsweep(ctx, sh, in, out, n, mode, inclusive, sums, NULL, ix, nb | SUMS_RAW,
                             all)) &&
            total && !(st = clsa__read(ctx, sums, 0, host_sums, nb * 4)))
            for (size_t t = 0; t < nb; t++) *total += host_sums[t];
        free(host_sums);
        clsa__free(ctx, &sums);
        return st;
    }
    /* With a total, the tile sums get one more entry, 0, so that the last
     * offset is the total: one read instead of two. */
    size_t ns = nb + (total != NULL);
    scan_index none = {NULL, 0};
    CLSA_TRY(clsa__alloc(ctx, ns * 4, &sums));
    CLSA_TRY(clsa__alloc(ctx, ns * 4, &offsets));
    CLSA_TRY(reduce_tiles(ctx, sh, in, n, mode, ix.index64, total != NULL, sums, nb));
    CLSA_TRY(scan_with(ctx, sums, offsets, ns, 0, 0, NULL, none));
    CLSA_TRY(downsweep(ctx, sh, in, out, n, mode, inclusive, offsets, NULL, ix, nb, all));
    if (total) CLSA_TRY(clsa__read(ctx, offsets, nb * 4, total, 4));
done:
    clsa__free(ctx, &sums);
    clsa__free(ctx, &offsets);
    return st;
}

clsa_status clsa__scan(clsa_context *ctx, cl_mem in, cl_mem out, size_t n, int inclusive,
                       int as_flags, uint32_t *total)
{
    scan_index none = {NULL, 0};
    return scan_with(ctx, in, out, n, inclusive, as_flags ? CLSA_SCAN_FLAGS : CLSA_SCAN_VALUES,
                     total, none);
}

clsa_status clsa__scan_index(clsa_context *ctx, cl_mem in, cl_mem out, size_t n, int inclusive,
                             int mode, uint32_t *total, cl_mem index, int index64)
{
    scan_index ix = {index, index64};
    return scan_with(ctx, in, out, n, inclusive, mode, total, ix);
}
