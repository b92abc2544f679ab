/* Segmented sort dispatcher: classifies segments by length on the device
 * (cl_kernels/segmented_sort.cl) and hands each class to its method:
 * S (<= R1 = the local-memory tile) bitonic, M (<= R2) merge path, L radix. */
#include "segmented_sort.h"
#include "bitonic_segsort.h"
#include "merge_segsort.h"
#include "radix_sort.h"
#include "scan.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "status.h"

#include <stdio.h>
#include <stdlib.h>

#define CLASSIFY_ITEMS 4
#define MAX_CLASSES 32

static unsigned log2_of(size_t p)
{
    unsigned k = 0;
    while (((size_t)1 << k) < p) k++;
    return k;
}

/* The program of these kernels. */
static const char *const PROGRAM = "segsort_prelude+segmented_sort";

/* The classified segment ids: list[first[c] .. first[c+1]) is class c. */
typedef struct seg_classes {
    cl_mem list;
    uint32_t first[MAX_CLASSES + 1];
    unsigned n; /* classes: K S classes, then M, then L */
} seg_classes;

static clsa_status classify_launch(clsa_context *ctx, const char *opts, int index64,
                                   const char *name, cl_mem offsets, cl_mem lengths, size_t nseg,
                                   unsigned nc, cl_mem table, cl_mem list, size_t nb)
{
    cl_kernel k;
    cl_ulong n = nseg, r2 = ctx->tune.r2;
    cl_uint ncl = nc, items = CLASSIFY_ITEMS;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__kernel(ctx, PROGRAM, index64, opts, name, &k));
    CLSA_TRY(CLSA_ARGS(ctx, k, name, CLSA_KARG(offsets), CLSA_KARG(lengths), CLSA_KARG(n),
                       CLSA_KARG(r2), CLSA_KARG(ncl), CLSA_KARG(items), CLSA_KARG(table)));
    /* segsort_scatter alone takes the list */
    if (list) CLSA_TRY(CLSA_ARGS_AT(ctx, k, name, 7, CLSA_KARG(list)));
    CLSA_TRY(CLSA_ARGS_AT(ctx, k, name, list ? 8 : 7, CLSA_KLOCAL(nc * 4)));
    CLSA_TRY(clsa__launch(ctx, k, name, nb * ctx->tune.wg, ctx->tune.wg));
done:
    return st;
}

static clsa_status classify(clsa_context *ctx, const clsa__seg_layout *l, const char *opts,
                            cl_mem offsets, cl_mem lengths, size_t nseg, seg_classes *sc)
{
    static const char *sname = "segsort_class_starts";
    unsigned nc = sc->n;
    size_t nb = clsa__div_up(nseg, ctx->tune.wg * CLASSIFY_ITEMS);
    cl_mem counts = NULL, starts = NULL;
    uint32_t total = 0;
    cl_ulong nbl = nb;
    cl_uint ncl = nc;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, nb * nc * 4, &counts));
    CLSA_TRY(classify_launch(ctx, opts, l->index64, "segsort_count", offsets, lengths, nseg, nc,
                             counts, NULL, nb));
    CLSA_TRY(clsa__scan(ctx, counts, counts, nb * nc, 0, 0, &total));
    sc->first[nc] = total;
    if (total == 0) goto done;
    CLSA_TRY(clsa__alloc(ctx, (size_t)total * 4, &sc->list));
    CLSA_TRY(classify_launch(ctx, opts, l->index64, "segsort_scatter", offsets, lengths, nseg, nc,
                             counts, sc->list, nb));
    CLSA_TRY(clsa__alloc(ctx, nc * 4, &starts));
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, l->index64, opts, sname, nc, nc, CLSA_KARG(counts),
                      CLSA_KARG(nbl), CLSA_KARG(ncl), CLSA_KARG(starts)));
    CLSA_TRY(clsa__read(ctx, starts, 0, sc->first, nc * 4));
done:
    clsa__free(ctx, &counts);
    clsa__free(ctx, &starts);
    return st;
}

/* Phases: a caller sorting suffix-array groups (phase SORT_S/M/L) gets
 * each class charged to its own phase; others keep their phase. */
static void class_phase(clsa_context *ctx, int caller, int phase)
{
    if (caller == CLSA_PHASE_SORT_S || caller == CLSA_PHASE_SORT_M || caller == CLSA_PHASE_SORT_L)
        clsa__set_phase(ctx, phase);
}

static clsa_status sort_small(clsa_context *ctx, const clsa__seg_layout *l, cl_mem keys,
                              cl_mem values, cl_mem offsets, cl_mem lengths, const seg_classes *sc,
                              unsigned K)
{
    size_t tile = clsa__segsort_tile(ctx, l);
    uint64_t info[3 * MAX_CLASSES];
    size_t groups = 0;
    for (unsigned c = 0; c < K; c++) {
        uint64_t count = sc->first[c + 1] - sc->first[c];
        info[3 * c] = groups;
        info[3 * c + 1] = sc->first[c];
        info[3 * c + 2] = count;
        groups += clsa__div_up(count, tile >> (c + 1));
    }
    return clsa__bitonic_small(ctx, l, keys, values, offsets, lengths, sc->list, info, K, groups);
}

static clsa_status sort_medium(clsa_context *ctx, const clsa__seg_layout *l, cl_mem keys,
                               cl_mem values, cl_mem offsets, cl_mem lengths,
                               const seg_classes *sc, unsigned c)
{
    size_t count = sc->first[c + 1] - sc->first[c];
    if (count == 0) return CLSA_OK;
    cl_mem mlist = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, count * 4, &mlist));
    CLSA_TRY(clsa__copy(ctx, sc->list, (size_t)sc->first[c] * 4, mlist, 0, count * 4));
    CLSA_TRY(clsa__merge_segsort(ctx, l, keys, values, offsets, lengths, mlist, count,
                                 ctx->tune.r2));
done:
    clsa__free(ctx, &mlist);
    return st;
}

static clsa_status flip(clsa_context *ctx, const char *opts, int index64, cl_mem keys, size_t n,
                        int forward)
{
    static const char *name = "segsort_flip";
    cl_ulong nn = n;
    cl_int fw = forward;
    return CLSA_RUN(ctx, PROGRAM, index64, opts, name, n, 0, CLSA_KARG(keys), CLSA_KARG(nn),
                    CLSA_KARG(fw));
}

/* Where segment s lies: offset and length read back from the device. */
static clsa_status seg_bounds(clsa_context *ctx, const clsa__seg_layout *l, cl_mem offsets,
                              cl_mem lengths, uint32_t s, uint64_t *off, uint64_t *len)
{
    size_t w = l->index64 ? 8 : 4;
    uint64_t v[2] = {0, 0};
    uint32_t u[2] = {0, 0};
    void *dst = l->index64 ? (void *)v : (void *)u;
    clsa_status st = clsa__read(ctx, offsets, (size_t)s * w, dst, l->csr ? 2 * w : w);
    if (st == CLSA_OK && !l->csr) st = clsa__read(ctx, lengths, (size_t)s * w, (char *)dst + w, w);
    if (st) return st;
    *off = l->index64 ? v[0] : u[0];
    *len = l->index64 ? v[1] : u[1];
    if (l->csr) *len -= *off;
    return CLSA_OK;
}

/* L segments: each is copied out, radix sorted, and copied back (a
 * segment's offset is rarely aligned enough for clCreateSubBuffer).  They
 * are longer than R2, so the copies cost little beside the sort. */
static clsa_status sort_large(clsa_context *ctx, const clsa__seg_layout *l, const char *opts,
                              cl_mem keys, cl_mem values, cl_mem offsets, cl_mem lengths,
                              const seg_classes *sc, unsigned c)
{
    size_t count = sc->first[c + 1] - sc->first[c];
    if (count == 0) return CLSA_OK;
    size_t kb = (size_t)l->key_bytes, vb = (size_t)l->value_bytes;
    uint32_t *ids = malloc(count * 4);
    uint64_t *bounds = malloc(count * 16);
    cl_mem tk = NULL, tv = NULL, sk = NULL, sv = NULL;
    uint64_t maxlen = 0;
    clsa_status st = CLSA_OK;
    if (!ids || !bounds) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "segmented sort: %zu large segments", count);
        goto done;
    }
    CLSA_TRY(clsa__read(ctx, sc->list, (size_t)sc->first[c] * 4, ids, count * 4));
    for (size_t i = 0; i < count; i++) {
        CLSA_TRY(seg_bounds(ctx, l, offsets, lengths, ids[i], &bounds[2 * i], &bounds[2 * i + 1]));
        if (bounds[2 * i + 1] > maxlen) maxlen = bounds[2 * i + 1];
    }
    CLSA_TRY(clsa__alloc(ctx, maxlen * kb, &tk));
    CLSA_TRY(clsa__alloc(ctx, maxlen * kb, &sk));
    if (values && vb) {
        CLSA_TRY(clsa__alloc(ctx, maxlen * vb, &tv));
        CLSA_TRY(clsa__alloc(ctx, maxlen * vb, &sv));
    }
    for (size_t i = 0; i < count; i++) {
        size_t off = bounds[2 * i], len = bounds[2 * i + 1];
        CLSA_TRY(clsa__copy(ctx, keys, off * kb, tk, 0, len * kb));
        if (tv) CLSA_TRY(clsa__copy(ctx, values, off * vb, tv, 0, len * vb));
        if (l->key_float) CLSA_TRY(flip(ctx, opts, l->index64, tk, len, 1));
        CLSA_TRY(clsa__radix_sort(ctx, tk, tv, len, (int)kb, tv ? (int)vb : 0, 0,
                                  (unsigned)kb * 8, sk, sv));
        if (l->key_float) CLSA_TRY(flip(ctx, opts, l->index64, tk, len, 0));
        CLSA_TRY(clsa__copy(ctx, tk, 0, keys, off * kb, len * kb));
        if (tv) CLSA_TRY(clsa__copy(ctx, tv, 0, values, off * vb, len * vb));
    }
done:
    free(ids);
    free(bounds);
    clsa__free(ctx, &tk);
    clsa__free(ctx, &tv);
    clsa__free(ctx, &sk);
    clsa__free(ctx, &sv);
    return st;
}

clsa_status clsa__segmented_sort_layout(clsa_context *ctx, const clsa__seg_layout *layout,
                                        cl_mem keys, cl_mem values, cl_mem offsets,
                                        cl_mem lengths, size_t nsegments)
{
    if (nsegments == 0) return CLSA_OK;
    if (nsegments > UINT32_MAX)
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "segmented sort of %zu segments: at most 2^32-1",
                          nsegments);
    if (layout->value_bytes == 0) values = NULL;
    char opts[256];
    clsa__segsort_options(ctx, layout, opts, sizeof opts);
    unsigned K = log2_of(clsa__segsort_tile(ctx, layout));
    seg_classes sc = {NULL, {0}, K + 2};
    cl_mem lens = lengths ? lengths : offsets;
    int caller = ctx->phase;
    clsa_status st = CLSA_OK;
    CLSA_TRY(classify(ctx, layout, opts, offsets, lens, nsegments, &sc));
    if (sc.first[sc.n] == 0) goto done;
    class_phase(ctx, caller, CLSA_PHASE_SORT_S);
    CLSA_TRY(sort_small(ctx, layout, keys, values, offsets, lens, &sc, K));
    class_phase(ctx, caller, CLSA_PHASE_SORT_M);
    CLSA_TRY(sort_medium(ctx, layout, keys, values, offsets, lens, &sc, K));
    class_phase(ctx, caller, CLSA_PHASE_SORT_L);
    CLSA_TRY(sort_large(ctx, layout, opts, keys, values, offsets, lens, &sc, K + 1));
done:
    ctx->phase = caller;
    clsa__free(ctx, &sc.list);
    return st;
}

clsa_status clsa__segmented_sort(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                 cl_mem offsets, cl_mem lengths, size_t nsegments, int index64)
{
    (void)n;
    int w = index64 ? 8 : 4;
    clsa__seg_layout l = {w, values ? w : 0, 0, index64, 0};
    return clsa__segmented_sort_layout(ctx, &l, keys, values, offsets, lengths, nsegments);
}
