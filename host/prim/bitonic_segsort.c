/* Launchers of the local-memory bitonic sorts. */
#include "bitonic_segsort.h"
#include "buffer.h"
#include "launch.h"
#include "program.h"
#include "status.h"

/* Local memory: the keys of one tile and each element's slot index, with
 * one element of skew per 32 (LI in the kernel). */
static clsa_status local_args(clsa_context *ctx, cl_kernel k, const char *name, cl_uint first,
                              const clsa__seg_layout *l, size_t tile)
{
    size_t elems = tile + tile / 32;
    clsa_status st = clsa__arg_local(ctx, k, name, first, elems * (size_t)l->key_bytes);
    if (st) return st;
    return clsa__arg_local(ctx, k, name, first + 1, l->value_bytes ? elems * 4 : 4);
}

clsa_status clsa__bitonic_small(clsa_context *ctx, const clsa__seg_layout *layout, cl_mem keys,
                                cl_mem values, cl_mem offsets, cl_mem lengths, cl_mem list,
                                const uint64_t *info, unsigned nclasses, size_t ngroups)
{
    static const char *name = "bitonic_small";
    if (ngroups == 0) return CLSA_OK;
    char opts[256];
    clsa__segsort_options(ctx, layout, opts, sizeof opts);
    size_t tile = clsa__segsort_tile(ctx, layout), wg = clsa__segsort_wg(ctx, layout);
    cl_mem dinfo = NULL;
    cl_kernel k;
    cl_mem vals = values ? values : keys, lens = lengths ? lengths : offsets;
    cl_uint nc = nclasses;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)nclasses * 3 * 8, &dinfo));
    CLSA_TRY(clsa__write(ctx, dinfo, 0, info, (size_t)nclasses * 3 * 8));
    CLSA_TRY(clsa__kernel(ctx, "segsort_prelude+bitonic_segsort", layout->index64, opts, name, &k));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 0, keys));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 1, vals));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 2, offsets));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 3, lens));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 4, list));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 5, dinfo));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 6, nc));
    CLSA_TRY(local_args(ctx, k, name, 7, layout, tile));
    CLSA_TRY(clsa__launch(ctx, k, name, ngroups * wg, wg));
done:
    clsa__free(ctx, &dinfo);
    return st;
}

clsa_status clsa__bitonic_block(clsa_context *ctx, const clsa__seg_layout *layout, cl_mem keys,
                                cl_mem values, cl_mem skeys, cl_mem svalues, cl_mem offsets,
                                cl_mem lengths, cl_mem list, cl_mem tile_base, cl_mem tile_seg,
                                size_t ntiles)
{
    static const char *name = "bitonic_block";
    if (ntiles == 0) return CLSA_OK;
    char opts[256];
    clsa__segsort_options(ctx, layout, opts, sizeof opts);
    size_t tile = clsa__segsort_tile(ctx, layout), wg = clsa__segsort_wg(ctx, layout);
    cl_kernel k;
    cl_mem vals = values ? values : keys, svals = svalues ? svalues : skeys;
    cl_mem lens = lengths ? lengths : offsets;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__kernel(ctx, "segsort_prelude+bitonic_segsort", layout->index64, opts, name, &k));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 0, keys));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 1, vals));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 2, skeys));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 3, svals));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 4, offsets));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 5, lens));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 6, list));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 7, tile_base));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 8, tile_seg));
    CLSA_TRY(local_args(ctx, k, name, 9, layout, tile));
    CLSA_TRY(clsa__launch(ctx, k, name, ntiles * wg, wg));
done:
    return st;
}
