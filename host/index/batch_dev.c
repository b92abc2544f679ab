/* One part of a batch on the device (cl_kernels/index/batch.cl): the texts joined
 * by separators into one virtual text, its generalized suffix array (the
 * byte route with a separator byte no text holds, else 32-bit symbols),
 * then a stable sort of its entries by text, which leaves each text's
 * suffixes in their own order (a suffix that reaches its text's end meets
 * its separator, below every symbol: a proper prefix first) and gives
 * exactly the k suffix arrays back to back.  The BWT is gathered from them
 * on the device. */
#include "batch.h"
#include "sa/gsa.h"
#include "launch.h"
#include "sa/out_of_core.h"
#include "prim/radix_sort.h"
#include "sa/sa.h"

#include <stdlib.h>

typedef struct part {
    int64_t a, k;        /* first text, number of texts */
    uint64_t m, n;       /* symbols, virtual symbols (m + k) */
    cl_mem vstart;       /* k + 1 virtual starts (ulong) */
    cl_mem bucket;       /* nb + 1 texts of every 2^shift positions */
    cl_uint shift, nb;
    cl_mem raw;          /* the texts' symbols, from roff */
    cl_ulong roff;
    int own_raw;         /* raw is ours (host input), not the caller's */
    cl_mem keys, vals;   /* text and position of each suffix, sorted by text */
} part;

uint64_t clsa__batch_need(const clsa__batch *j, uint64_t m, uint64_t k)
{
    uint64_t n = m + k, sa = clsa__sa_in_memory_need(n, j->sym == 1 ? 1 : 4, 0);
    uint64_t sort = 4 * n + 16 * m + m / 4 + (j->bwt ? m : 0);
    uint64_t gather = j->bwt ? 10 * m : 0;
    uint64_t peak = sa > sort ? sa : sort;
    if (gather > peak) peak = gather;
    return peak + (j->sym == 1 ? m : 0) + 16 * (k + 1) + n / 4;
}

/* vstart and the bucket table of the part's virtual text. */
static clsa_status layout(clsa__batch *j, part *p)
{
    clsa_context *ctx = j->ctx;
    cl_ulong *vs = malloc(((size_t)p->k + 1) * sizeof *vs);
    if (!vs) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "batch: out of host memory");
    for (int64_t i = 0; i <= p->k; i++)
        vs[i] = (cl_ulong)(j->off[p->a + i] - j->off[p->a] + i);
    unsigned s = clsa__bits_of(p->n / (uint64_t)p->k);
    p->shift = s < 2 ? 2 : s > 16 ? 16 : s;
    p->nb = (cl_uint)(((p->n - 1) >> p->shift) + 1);
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, ((size_t)p->k + 1) * 8, &p->vstart));
    CLSA_TRY(clsa__write(ctx, p->vstart, 0, vs, ((size_t)p->k + 1) * 8));
    CLSA_TRY(clsa__alloc(ctx, ((size_t)p->nb + 1) * 4, &p->bucket));
    st = CLSA_RUN(ctx, "batch", 0, NULL, "batch_buckets", (size_t)p->nb + 1, 0,
                  CLSA_KARG(p->vstart), CLSA_KU32((cl_uint)p->k), CLSA_KU64(p->n),
                  CLSA_KU32(p->shift), CLSA_KU32(p->nb), CLSA_KARG(p->bucket));
done:
    free(vs);
    return st;
}

/* The separator byte: the first byte value no text of the part holds, or -1. */
static clsa_status free_byte(clsa_context *ctx, part *p, int *sep)
{
    cl_mem hist = NULL;
    cl_uint h[256];
    clsa_status st = CLSA_OK;
    *sep = -1;
    CLSA_TRY(clsa__alloc(ctx, sizeof h, &hist));
    CLSA_TRY(clsa__fill_zero(ctx, hist, 0, sizeof h));
    size_t cap = (size_t)ctx->tune.wg * 1024;
    CLSA_TRY(CLSA_RUN(ctx, "batch", 0, NULL, "batch_histogram", p->m < cap ? (size_t)p->m : cap, 0,
                      CLSA_KARG(p->raw), CLSA_KU64(p->roff), CLSA_KU64(p->m), CLSA_KARG(hist),
                      CLSA_KLOCAL(sizeof h)));
    CLSA_TRY(clsa__read(ctx, hist, 0, h, sizeof h));
    for (int c = 0; c < 256 && *sep < 0; c++)
        if (!h[c]) *sep = c;
done:
    clsa__free(ctx, &hist);
    return st;
}

/* The virtual text of a byte part into *vt: bytes joined by sep, or, with
 * no free byte (sep < 0), 32-bit symbols. */
static clsa_status join(clsa_context *ctx, part *p, int sep, cl_mem *vt)
{
    size_t w = sep >= 0 ? 1 : 4;
    clsa_status st = clsa__alloc(ctx, (size_t)p->n * w, vt);
    if (st) return st;
    return CLSA_RUN(
        ctx, "batch", 0, NULL, "batch_join", (size_t)p->n, 0, CLSA_KARG(p->raw), CLSA_KU64(p->roff),
        CLSA_KARG(p->vstart), CLSA_KARG(p->bucket), CLSA_KU32(p->shift), CLSA_KU64(p->n),
        CLSA_KU32(sep >= 0 ? (cl_uint)sep : (cl_uint)p->k), CLSA_KU32(sep < 0), CLSA_KARG(*vt));
}

/* Integer symbols: the 32-bit virtual text made on the host (gsa.c). */
static clsa_status join_host(clsa__batch *j, part *p, cl_mem *vt)
{
    uint32_t *h = NULL;
    const uint8_t *t = (const uint8_t *)j->text + (size_t)j->off[p->a] * (size_t)j->sym;
    clsa_status st = clsa__gsa_text(j->ctx, t, j->sym, j->len + p->a, p->k, (int64_t)p->n, &h);
    if (st) return st;
    CLSA_TRY(clsa__alloc(j->ctx, (size_t)p->n * 4, vt));
    CLSA_TRY(clsa__write(j->ctx, *vt, 0, h, (size_t)p->n * 4));
done:
    free(h);
    return st;
}

/* The generalized suffix array of the part into gsa (n 32-bit entries). */
static clsa_status part_gsa(clsa__batch *j, part *p, cl_mem gsa)
{
    clsa_context *ctx = j->ctx;
    cl_mem vt = NULL;
    int sep = -1;
    clsa_status st = CLSA_OK;
    if (j->sym == 1) {
        CLSA_TRY(free_byte(ctx, p, &sep));
        CLSA_TRY(join(ctx, p, sep, &vt));
        if (p->own_raw && !j->bwt) clsa__free(ctx, &p->raw);
    } else {
        CLSA_TRY(join_host(j, p, &vt));
    }
    if (sep >= 0) st = clsa__sa_device_gsa(ctx, vt, sep, gsa, (int64_t)p->n, 0);
    else st = clsa__sa_device_sym(ctx, vt, 4, 1, gsa, (int64_t)p->n, 0);
done:
    clsa__free(ctx, &vt);
    return st;
}

/* keys/vals: the (text, position) of every non-separator entry, sorted by
 * text (stable: each text's suffixes stay in suffix order). */
static clsa_status partition(clsa_context *ctx, part *p, cl_mem gsa)
{
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)p->m * 4, &p->keys));
    CLSA_TRY(clsa__alloc(ctx, (size_t)p->m * 4, &p->vals));
    CLSA_TRY(CLSA_RUN(ctx, "batch", 0, NULL, "batch_keys", (size_t)p->m, 0, CLSA_KARG(gsa),
                      CLSA_KARG(p->vstart), CLSA_KARG(p->bucket), CLSA_KU32(p->shift),
                      CLSA_KU32((cl_uint)p->k), CLSA_KU64(p->m), CLSA_KARG(p->keys),
                      CLSA_KARG(p->vals)));
    unsigned bits = clsa__bits_of((uint64_t)p->k - 1);
    if (bits)
        CLSA_TRY(clsa__radix_sort(ctx, p->keys, p->vals, (size_t)p->m, 4, 4, 0, bits, NULL,
                                  NULL));
done:
    return st;
}

/* The part's suffix arrays (vals) into the call's output at its offset. */
static clsa_status put_sa(clsa__batch *j, part *p)
{
    clsa_context *ctx = j->ctx;
    size_t at = (size_t)j->off[p->a], m = (size_t)p->m;
    if (j->out && j->index64) return clsa__read_wide(ctx, p->vals, (int64_t *)j->out + at, m);
    if (j->out) return clsa__read(ctx, p->vals, 0, (int32_t *)j->out + at, m * 4);
    if (!j->index64) return clsa__copy(ctx, p->vals, 0, j->dout, at * 4, m * 4);
    return CLSA_RUN(ctx, "batch", 0, NULL, "batch_widen", m, 0, CLSA_KARG(p->vals), CLSA_KU64(m),
                    CLSA_KARG(j->dout), CLSA_KU64(at));
}

static clsa_status launch_primary(clsa_context *ctx, part *p, cl_mem prim)
{
    return CLSA_RUN(ctx, "batch", 0, NULL, "batch_bwt_primary", (size_t)p->m, 0, CLSA_KARG(p->vals),
                    CLSA_KARG(p->keys), CLSA_KARG(p->vstart), CLSA_KU64(p->m), CLSA_KARG(prim));
}

static clsa_status launch_gather(clsa_context *ctx, part *p, cl_mem prim, cl_mem out,
                                 cl_ulong at)
{
    return CLSA_RUN(ctx, "batch", 0, NULL, "batch_bwt_gather", (size_t)p->m, 0, CLSA_KARG(p->raw),
                    CLSA_KU64(p->roff), CLSA_KARG(p->vals), CLSA_KARG(p->keys),
                    CLSA_KARG(p->vstart), CLSA_KARG(prim), CLSA_KU64(p->m), CLSA_KARG(out),
                    CLSA_KU64(at));
}

/* The part's BWTs and primary indexes into the call's outputs. */
static clsa_status put_bwt(clsa__batch *j, part *p)
{
    clsa_context *ctx = j->ctx;
    size_t at = (size_t)j->off[p->a], pb = (size_t)p->k * 8;
    cl_mem prim = NULL, out = j->dout;
    clsa_status st = CLSA_OK;
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    CLSA_TRY(clsa__alloc(ctx, pb, &prim));
    CLSA_TRY(clsa__fill_zero(ctx, prim, 0, pb));
    CLSA_TRY(launch_primary(ctx, p, prim));
    if (j->out) CLSA_TRY(clsa__alloc(ctx, (size_t)p->m, &out));
    CLSA_TRY(launch_gather(ctx, p, prim, out, j->out ? 0 : at));
    if (j->out) CLSA_TRY(clsa__read(ctx, out, 0, (uint8_t *)j->out + at, (size_t)p->m));
    CLSA_TRY(clsa__read(ctx, prim, 0, j->primary + p->a, pb)); /* little-endian host and device */
done:
    if (out != j->dout) clsa__free(ctx, &out);
    clsa__free(ctx, &prim);
    clsa__set_phase(ctx, phase);
    return st;
}

/* The part's texts on the device: the caller's buffer, or a copy of the
 * host input. */
static clsa_status part_raw(clsa__batch *j, part *p)
{
    if (j->dtext) {
        p->raw = j->dtext;
        p->roff = (cl_ulong)j->off[p->a];
        return CLSA_OK;
    }
    if (j->sym != 1) return CLSA_OK; /* integer symbols: joined on the host */
    p->own_raw = 1;
    const uint8_t *t = (const uint8_t *)j->text + j->off[p->a];
    clsa_status st = clsa__alloc(j->ctx, (size_t)p->m, &p->raw);
    return st ? st : clsa__write_text(j->ctx, p->raw, t, (size_t)p->m);
}

static void part_free(clsa_context *ctx, part *p)
{
    if (p->own_raw) clsa__free(ctx, &p->raw);
    clsa__free(ctx, &p->vstart);
    clsa__free(ctx, &p->bucket);
    clsa__free(ctx, &p->keys);
    clsa__free(ctx, &p->vals);
}

clsa_status clsa__batch_part(clsa__batch *j, int64_t a, int64_t b)
{
    clsa_context *ctx = j->ctx;
    part p = {0};
    p.a = a;
    p.k = b - a;
    p.m = (uint64_t)(j->off[b] - j->off[a]);
    p.n = p.m + (uint64_t)p.k;
    cl_mem gsa = NULL;
    double f0 = (double)j->done / (double)j->total;
    double f1 = (double)(j->done + p.m) / (double)j->total;
    clsa_status st = CLSA_OK;
    CLSA_TRY(part_raw(j, &p));
    CLSA_TRY(layout(j, &p));
    CLSA_TRY(clsa__alloc(ctx, (size_t)p.n * 4, &gsa));
    clsa__progress_slice(ctx, f0, f0 + 0.85 * (f1 - f0));
    st = part_gsa(j, &p, gsa);
    clsa__progress_slice(ctx, 0.0, 1.0);
    if (st) goto done;
    CLSA_TRY(partition(ctx, &p, gsa));
    clsa__free(ctx, &gsa);
    CLSA_TRY(j->bwt ? put_bwt(j, &p) : put_sa(j, &p));
    CLSA_TRY(clsa__progress(ctx, j->bwt ? "bwt batch" : "suffix array batch", f1));
done:
    clsa__progress_slice(ctx, 0.0, 1.0);
    clsa__free(ctx, &gsa);
    part_free(ctx, &p);
    return st;
}
