/* See early_patch.h.  Direct mode writes each slot of the SA buffer once,
 * when its suffix becomes a singleton (groups.cl grp_rank_split), and only
 * slots of groups unsorted at that moment; so the slots the download may
 * read before their final value are exactly those of the groups unsorted
 * when it starts, in u's order: group g's slots are its rank - sa_base
 * onwards. */
#include "early_patch.h"

#include <stdlib.h>
#include <string.h>

#define RUN(ctx, w, name, global, ...)                                                  \
    clsa__sa_run(ctx, "scan+groups", (w)->index64, name, global, 0,                      \
                 sizeof((clsa__karg[]){__VA_ARGS__}) / sizeof(clsa__karg),               \
                 (clsa__karg[]){__VA_ARGS__})

clsa_status clsa__early_patch_begin(clsa_context *ctx, clsa__sa_work *w, clsa__early_patch *e)
{
    unsigned every = ctx->tune.early_read;
    size_t iw = w->index64 ? 8 : 4;
    if (e->on || e->slots || !ctx->early.dst || !w->sa || !every || !w->m ||
        (uint64_t)w->m > w->sa_len / every || !clsa__staged_ready(ctx))
        return CLSA_OK;
    cl_ulong m = w->m, b64;
    cl_uint b32;
    clsa_status st;
    if ((st = clsa__alloc(ctx, 2 * iw * w->m, &e->slots)) || (st = clsa__groups_starts(ctx, w)) ||
        (st = RUN(ctx, w, "grp_slots", w->m, CLSA_KARG(w->u), CLSA_KARG(w->isa), CLSA_KARG(w->sk),
                  CLSA_KARG(w->sv), CLSA_KARG(m),
                  clsa__idx_karg(w->index64, w->rank_base, &b64, &b32), CLSA_KARG(e->slots))))
        return st;
    e->count = w->m;
    return clsa__early_start(ctx, w->sa, w->sa_len * iw, &e->on);
}

clsa_status clsa__early_patch_end(clsa_context *ctx, clsa__sa_work *w, clsa__early_patch *e)
{
    if (!e->on) return CLSA_OK;
    size_t iw = w->index64 ? 8 : 4;
    cl_ulong m = e->count;
    char *got = malloc(2 * iw * e->count), *dst = ctx->early.dst;
    clsa_status st = got ? RUN(ctx, w, "grp_take", e->count, CLSA_KARG(e->slots), CLSA_KARG(m),
                               CLSA_KARG(w->sa))
                         : CLSA_OK;
    clsa_status joined = clsa__early_join(ctx);
    e->on = 0;
    if (!st) st = joined;
    /* without room for the patch the caller reads it all */
    if (st || !got || (st = clsa__read(ctx, e->slots, 0, got, 2 * iw * e->count))) {
        free(got);
        return st;
    }
    const char *vals = got + iw * e->count;
    for (size_t i = 0; i < e->count; i++) {
        uint64_t slot;
        uint32_t s32;
        if (iw == 8) memcpy(&slot, got + 8 * i, 8);
        else memcpy(&s32, got + 4 * i, 4), slot = s32;
        memcpy(dst + iw * slot, vals + iw * i, iw);
    }
    free(got);
    ctx->early.taken = 1;
    return CLSA_OK;
}

void clsa__early_patch_drop(clsa_context *ctx, clsa__early_patch *e)
{
    if (e->on) clsa__early_join(ctx);
    e->on = 0;
    clsa__free(ctx, &e->slots);
}
