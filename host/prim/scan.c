/* Reduce-then-scan launcher: per-tile sums, a recursive scan of the sums,
 * then a downsweep that scans each tile from its offset. */
#include "scan.h"

typedef struct scan_shape {
    size_t wg, items, tile;
} scan_shape;

static scan_shape shape_of(const clsa_context *ctx)
{
    scan_shape s;
    s.wg = ctx->tune.wg;
    s.items = ctx->tune.scan_items;
    /* tile + two wg-sized scratch arrays must fit in local memory */
    while (s.items > 1 && (s.wg * s.items + 2 * s.wg) * 4 > ctx->tune.local_mem) s.items /= 2;
    while (s.wg > 1 && (s.wg * s.items + 2 * s.wg) * 4 > ctx->tune.local_mem) s.wg /= 2;
    s.tile = s.wg * s.items;
    return s;
}

/* The program's index width: that of the index written, or of the array
 * whose top bits are scanned (CLSA_SCAN_TOP_BITS). */
static int program_width(int mode, cl_mem index, int index64)
{
    return (index || mode == CLSA_SCAN_TOP_BITS) && index64;
}

/* sums[0..nb) = the tiles' sums; pad_zero: also sums[nb] = 0. */
static clsa_status reduce_tiles(clsa_context *ctx, scan_shape sh, cl_mem in, cl_ulong n,
                                int mode, int index64, int pad_zero, cl_mem sums, size_t nb)
{
    static const char *name = "scan_reduce";
    cl_kernel k;
    clsa_status st = clsa__kernel(ctx, "scan", program_width(mode, NULL, index64), NULL, name, &k);
    cl_uint items = (cl_uint)sh.items;
    cl_int flags = mode, pad = pad_zero;
    if (st || (st = CLSA_ARG(ctx, k, name, 0, in)) || (st = CLSA_ARG(ctx, k, name, 1, n)) ||
        (st = CLSA_ARG(ctx, k, name, 2, items)) || (st = CLSA_ARG(ctx, k, name, 3, flags)) ||
        (st = CLSA_ARG(ctx, k, name, 4, pad)) || (st = CLSA_ARG(ctx, k, name, 5, sums)) ||
        (st = clsa__arg_local(ctx, k, name, 6, sh.wg * 4)) ||
        (st = clsa__arg_local(ctx, k, name, 7, sh.wg * 4)))
        return st;
    return clsa__launch(ctx, k, name, nb * sh.wg, sh.wg);
}

/* Where the downsweep writes the start of each run of flags (see
 * scan_downsweep): index NULL for none; idx_t is 64-bit when index64. */
typedef struct scan_index {
    cl_mem index;
    int index64;
} scan_index;

/* total (single tile only, else NULL): receives the tile's sum. */
static clsa_status downsweep(clsa_context *ctx, scan_shape sh, cl_mem in, cl_mem out, cl_ulong n,
                             int mode, int inclusive, cl_mem offsets, cl_mem total,
                             scan_index ix, size_t nb)
{
    static const char *name = "scan_downsweep";
    cl_kernel k;
    clsa_status st =
        clsa__kernel(ctx, "scan", program_width(mode, ix.index, ix.index64), NULL, name, &k);
    cl_uint items = (cl_uint)sh.items;
    cl_int flags = mode, incl = inclusive, has = offsets != NULL, want = total != NULL;
    cl_int want_ix = ix.index != NULL;
    cl_mem off = offsets ? offsets : in; /* any valid buffer when unused */
    cl_mem tot = total ? total : out;    /* not written when unused */
    cl_mem idx = ix.index ? ix.index : out;
    if (st || (st = CLSA_ARG(ctx, k, name, 0, in)) || (st = CLSA_ARG(ctx, k, name, 1, out)) ||
        (st = CLSA_ARG(ctx, k, name, 2, n)) || (st = CLSA_ARG(ctx, k, name, 3, items)) ||
        (st = CLSA_ARG(ctx, k, name, 4, flags)) || (st = CLSA_ARG(ctx, k, name, 5, incl)) ||
        (st = CLSA_ARG(ctx, k, name, 6, off)) || (st = CLSA_ARG(ctx, k, name, 7, has)) ||
        (st = CLSA_ARG(ctx, k, name, 8, want)) || (st = CLSA_ARG(ctx, k, name, 9, tot)) ||
        (st = CLSA_ARG(ctx, k, name, 10, want_ix)) || (st = CLSA_ARG(ctx, k, name, 11, idx)) ||
        (st = clsa__arg_local(ctx, k, name, 12, sh.tile * 4)) ||
        (st = clsa__arg_local(ctx, k, name, 13, sh.wg * 4)) ||
        (st = clsa__arg_local(ctx, k, name, 14, sh.wg * 4)))
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
        clsa__kernel(ctx, "scan", program_width(mode, ix.index, ix.index64), NULL, name, &k);
    cl_uint items = (cl_uint)sh.items;
    cl_int flags = mode, incl = inclusive, want = total != NULL, want_ix = ix.index != NULL;
    cl_mem tot = total ? total : out; /* not written when unused */
    cl_mem idx = ix.index ? ix.index : out;
    if (st || (st = CLSA_ARG(ctx, k, name, 0, in)) || (st = CLSA_ARG(ctx, k, name, 1, out)) ||
        (st = CLSA_ARG(ctx, k, name, 2, n)) || (st = CLSA_ARG(ctx, k, name, 3, items)) ||
        (st = CLSA_ARG(ctx, k, name, 4, flags)) || (st = CLSA_ARG(ctx, k, name, 5, incl)) ||
        (st = CLSA_ARG(ctx, k, name, 6, want)) || (st = CLSA_ARG(ctx, k, name, 7, tot)) ||
        (st = CLSA_ARG(ctx, k, name, 8, want_ix)) || (st = CLSA_ARG(ctx, k, name, 9, idx)) ||
        (st = clsa__arg_local(ctx, k, name, 10, sh.tile * 4)) ||
        (st = clsa__arg_local(ctx, k, name, 11, sh.wg * 4)) ||
        (st = clsa__arg_local(ctx, k, name, 12, sh.wg * 4)))
        return st;
    return clsa__launch(ctx, k, name, sh.wg, sh.wg);
}

static clsa_status scan_with(clsa_context *ctx, cl_mem in, cl_mem out, size_t n, int inclusive,
                             int mode, uint32_t *total, scan_index ix)
{
    if (total) *total = 0;
    if (n == 0) return CLSA_OK;
    scan_shape sh = shape_of(ctx);
    size_t nb = clsa__div_up(n, sh.tile);
    cl_mem sums = NULL, offsets = NULL;
    clsa_status st = CLSA_OK;
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
        CLSA_TRY(downsweep(ctx, sh, in, out, n, mode, inclusive, NULL, sums, ix, 1));
        if (total) CLSA_TRY(clsa__read(ctx, sums, 0, total, 4));
        goto done;
    }
    /* With a total, the tile sums get one more entry, 0, so that the last
     * offset is the total: one read instead of two. */
    size_t ns = nb + (total != NULL);
    scan_index none = {NULL, 0};
    CLSA_TRY(clsa__alloc(ctx, ns * 4, &sums));
    CLSA_TRY(clsa__alloc(ctx, ns * 4, &offsets));
    CLSA_TRY(reduce_tiles(ctx, sh, in, n, mode, ix.index64, total != NULL, sums, nb));
    CLSA_TRY(scan_with(ctx, sums, offsets, ns, 0, 0, NULL, none));
    CLSA_TRY(downsweep(ctx, sh, in, out, n, mode, inclusive, offsets, NULL, ix, nb));
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
