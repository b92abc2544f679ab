/* Launchers of the local-memory bitonic sorts. */
#include "bitonic_segsort.h"
#include "buffer.h"
#include "launch.h"
#include "program.h"
#include "status.h"

/* The program of these kernels. */
static const char *const PROGRAM = "segsort_prelude+bitonic_segsort";

/* Local memory: the keys of one tile and each element's slot index, with
 * one element of skew per 32 (LI in the kernel). */
#define TILE_LOCALS(l, elems)                                                                \
    CLSA_KLOCAL((elems) * (size_t)(l)->key_bytes), CLSA_KLOCAL((l)->value_bytes ? (elems) * 4 : 4)

clsa_status clsa__bitonic_small(clsa_context *ctx, const clsa__seg_layout *layout, cl_mem keys,
                                cl_mem values, cl_mem offsets, cl_mem lengths, cl_mem list,
                                const uint64_t *info, unsigned nclasses, size_t ngroups)
{
    static const char *name = "bitonic_small";
    if (ngroups == 0) return CLSA_OK;
    char opts[256];
    clsa__segsort_options(ctx, layout, opts, sizeof opts);
    size_t tile = clsa__segsort_tile(ctx, layout), wg = clsa__segsort_wg(ctx, layout);
    size_t elems = tile + tile / 32;
    cl_mem dinfo = NULL;
    cl_mem vals = values ? values : keys, lens = lengths ? lengths : offsets;
    cl_uint nc = nclasses;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)nclasses * 3 * 8, &dinfo));
    CLSA_TRY(clsa__write(ctx, dinfo, 0, info, (size_t)nclasses * 3 * 8));
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, layout->index64, opts, name, ngroups * wg, wg,
                      CLSA_KARG(keys), CLSA_KARG(vals), CLSA_KARG(offsets), CLSA_KARG(lens),
                      CLSA_KARG(list), CLSA_KARG(dinfo), CLSA_KARG(nc),
                      TILE_LOCALS(layout, elems)));
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
    size_t elems = tile + tile / 32;
    cl_mem vals = values ? values : keys, svals = svalues ? svalues : skeys;
    cl_mem lens = lengths ? lengths : offsets;
    return CLSA_RUN(ctx, PROGRAM, layout->index64, opts, name, ntiles * wg, wg, CLSA_KARG(keys),
                    CLSA_KARG(vals), CLSA_KARG(skeys), CLSA_KARG(svals), CLSA_KARG(offsets),
                    CLSA_KARG(lens), CLSA_KARG(list), CLSA_KARG(tile_base), CLSA_KARG(tile_seg),
                    TILE_LOCALS(layout, elems));
}
