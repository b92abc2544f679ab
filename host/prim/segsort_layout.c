/* Tile shape and build options of the local-memory segmented sorts for a
 * layout (segsort_layout.h). */
#include "segsort_layout.h"
#include "arith.h"
#include "context.h"
#include "tuning.h"

#include <stdio.h>

size_t clsa__segsort_tile(const clsa_context *ctx, const clsa__seg_layout *l)
{
    /* The merge pass keeps a key and a 4-byte source index per element in
     * local memory, the bitonic sorts a key and a 4-byte slot index (with
     * 1/32 skew against bank conflicts): R1
     * (tune.r1) is clamped to what fits on this device for these keys. */
    size_t lm = ctx->tune.local_mem ? (size_t)ctx->tune.local_mem : 16384;
    size_t fit = clsa__pow2_floor((lm > 256 ? lm - 256 : lm) / ((size_t)l->key_bytes + 4) * 32 / 33);
    size_t t = clsa__pow2_floor(ctx->tune.r1 ? ctx->tune.r1 : 1024);
    if (t > fit) t = fit;
    if (t > 4096) t = 4096;
    return t < 4 ? 4 : t;
}

size_t clsa__segsort_wg(const clsa_context *ctx, const clsa__seg_layout *l)
{
    size_t wg = ctx->tune.wg ? ctx->tune.wg : 64, tile = clsa__segsort_tile(ctx, l);
    if (ctx->tune.max_wg && wg > ctx->tune.max_wg) wg = clsa__pow2_floor(ctx->tune.max_wg);
    return wg > tile / 2 ? tile / 2 : wg;
}

void clsa__segsort_options(const clsa_context *ctx, const clsa__seg_layout *l, char *buf,
                           size_t cap)
{
    snprintf(buf, cap, "-DKEY_BYTES=%d -DVAL_BYTES=%d -DKEY_FLOAT=%d -DSEG_CSR=%d -DTILE=%zu -DWG=%zu",
             l->key_bytes, l->value_bytes, l->key_float, l->csr, clsa__segsort_tile(ctx, l),
             clsa__segsort_wg(ctx, l));
}
