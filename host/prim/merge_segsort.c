/* Merge-path segmented merge sort: tiles that respect segment boundaries,
 * a bitonic block sort of every tile, then log2(max tiles) merge passes in
 * which finished segments exit early (cl_kernels/merge_segsort.cl). */
#include "merge_segsort.h"
#include "bitonic_segsort.h"
#include "scan.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "status.h"

/* The program of these kernels. */
static const char *const PROGRAM = "segsort_prelude+merge_segsort";

typedef struct merge_tiles {
    cl_mem ntiles, tile_base, tile_seg;
    uint32_t total;
} merge_tiles;

/* tile_base = exclusive scan of tiles per segment; tile_seg[g] = owner. */
static clsa_status build_tiles(clsa_context *ctx, const clsa__seg_layout *l, const char *opts,
                               cl_mem offsets, cl_mem lengths, cl_mem list, size_t count,
                               merge_tiles *t)
{
    static const char *cname = "merge_count_tiles", *ename = "merge_expand_tiles";
    cl_ulong n = count;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, count * 4, &t->ntiles));
    CLSA_TRY(clsa__alloc(ctx, count * 4, &t->tile_base));
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, l->index64, opts, cname, count, 0, CLSA_KARG(offsets),
                      CLSA_KARG(lengths), CLSA_KARG(list), CLSA_KARG(n), CLSA_KARG(t->ntiles)));
    CLSA_TRY(clsa__scan(ctx, t->ntiles, t->tile_base, count, 0, 0, &t->total));
    CLSA_TRY(clsa__alloc(ctx, (size_t)t->total * 4, &t->tile_seg));
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, l->index64, opts, ename, count, 0, CLSA_KARG(t->ntiles),
                      CLSA_KARG(t->tile_base), CLSA_KARG(n), CLSA_KARG(t->tile_seg)));
done:
    return st;
}

static clsa_status merge_pass(clsa_context *ctx, const clsa__seg_layout *l, const char *opts,
                              cl_mem keys, cl_mem vals, cl_mem skeys, cl_mem svals,
                              cl_mem offsets, cl_mem lengths, cl_mem list, const merge_tiles *t,
                              unsigned pass)
{
    static const char *name = "merge_pass";
    size_t tile = clsa__segsort_tile(ctx, l), wg = clsa__segsort_wg(ctx, l);
    cl_uint p = pass;
    return CLSA_RUN(ctx, PROGRAM, l->index64, opts, name, (size_t)t->total * wg, wg,
                    CLSA_KARG(keys), CLSA_KARG(vals), CLSA_KARG(skeys), CLSA_KARG(svals),
                    CLSA_KARG(offsets), CLSA_KARG(lengths), CLSA_KARG(list),
                    CLSA_KARG(t->tile_base), CLSA_KARG(t->tile_seg), CLSA_KARG(p),
                    CLSA_KLOCAL(tile * (size_t)l->key_bytes), CLSA_KLOCAL(tile * 4),
                    CLSA_KLOCAL(2 * 8));
}

clsa_status clsa__merge_segsort(clsa_context *ctx, const clsa__seg_layout *layout, cl_mem keys,
                                cl_mem values, cl_mem offsets, cl_mem lengths, cl_mem list,
                                size_t count, size_t max_len)
{
    if (count == 0) return CLSA_OK;
    char opts[256];
    clsa__segsort_options(ctx, layout, opts, sizeof opts);
    size_t tile = clsa__segsort_tile(ctx, layout);
    merge_tiles t = {NULL, NULL, NULL, 0};
    cl_mem skeys = NULL, svals = NULL;
    cl_mem lens = lengths ? lengths : offsets;
    clsa_status st = CLSA_OK;
    CLSA_TRY(build_tiles(ctx, layout, opts, offsets, lens, list, count, &t));
    /* Scratch mirrors the tiles: segment m's area starts at tile_base[m]. */
    size_t elems = (size_t)t.total * tile;
    CLSA_TRY(clsa__alloc(ctx, elems * (size_t)layout->key_bytes, &skeys));
    if (layout->value_bytes)
        CLSA_TRY(clsa__alloc(ctx, elems * (size_t)layout->value_bytes, &svals));
    cl_mem vals = values ? values : keys, sv = svals ? svals : skeys;
    CLSA_TRY(clsa__bitonic_block(ctx, layout, keys, vals, skeys, sv, offsets, lens, list,
                                 t.tile_base, t.tile_seg, t.total));
    unsigned npass = 0;
    while (((size_t)tile << npass) < max_len) npass++;
    for (unsigned p = 0; p < npass; p++)
        CLSA_TRY(merge_pass(ctx, layout, opts, keys, vals, skeys, sv, offsets, lens, list, &t, p));
done:
    clsa__free(ctx, &t.ntiles);
    clsa__free(ctx, &t.tile_base);
    clsa__free(ctx, &t.tile_seg);
    clsa__free(ctx, &skeys);
    clsa__free(ctx, &svals);
    return st;
}
