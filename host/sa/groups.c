/* Group bookkeeping of the prefix-doubling loop (kernels in groups.cl).
 * Ranks are looked up per group through scans of head flags and a scatter
 * of one value per head, so no segmented scan is needed. */
#include "groups.h"
#include "prim/scan.h"

clsa_status clsa__sa_run(clsa_context *ctx, const char *file, int index64, const char *name,
                         size_t global, size_t nargs, const clsa__karg *args)
{
    cl_kernel k;
    clsa_status st = clsa__kernel(ctx, file, index64, NULL, name, &k);
    for (size_t i = 0; st == CLSA_OK && i < nargs; i++)
        st = args[i].ptr ? clsa__arg(ctx, k, name, (cl_uint)i, args[i].size, args[i].ptr)
                         : clsa__arg_local(ctx, k, name, (cl_uint)i, args[i].size);
    if (st) return st;
    return clsa__launch(ctx, k, name, global, ctx->tune.wg);
}

#define RUN(w, name, global, ...)                                                       \
    clsa__sa_run(ctx, "groups", (w)->index64, name, global,                             \
                 sizeof((clsa__karg[]){__VA_ARGS__}) / sizeof(clsa__karg),               \
                 (clsa__karg[]){__VA_ARGS__})

/* heads[group] = first slot (+ delta) of every group of the inclusive scan. */
static clsa_status head_scatter(clsa_context *ctx, clsa__sa_work *w, cl_mem scan, cl_mem delta,
                                cl_mem heads)
{
    cl_ulong m = w->m;
    cl_int has = delta != NULL;
    cl_mem d = delta ? delta : scan;
    return RUN(w, "grp_head_scatter", w->m, CLSA_KARG(scan), CLSA_KARG(m), CLSA_KARG(d),
               CLSA_KARG(has), CLSA_KARG(heads));
}

clsa_status clsa__groups_split(clsa_context *ctx, clsa__sa_work *w, uint64_t h)
{
    cl_ulong m = w->m, n = w->n, hh = h;
    clsa_status st;
    /* Old groups: their first slots give each slot's delta. */
    if ((st = RUN(w, "grp_old_heads", w->m, CLSA_KARG(w->u), CLSA_KARG(w->isa), CLSA_KARG(m),
                  CLSA_KARG(w->sk))) ||
        (st = clsa__scan(ctx, w->sk, w->sk, w->m, 1, 0, NULL)) ||
        (st = head_scatter(ctx, w, w->sk, NULL, w->sv)) ||
        (st = RUN(w, "grp_delta", w->m, CLSA_KARG(w->u), CLSA_KARG(w->isa), CLSA_KARG(w->sk),
                  CLSA_KARG(w->sv), CLSA_KARG(m), CLSA_KARG(w->k))))
        return st;
    return RUN(w, "grp_new_heads", w->m, CLSA_KARG(w->u), CLSA_KARG(w->isa), CLSA_KARG(m),
               CLSA_KARG(n), CLSA_KARG(hh), CLSA_KARG(w->sk));
}

clsa_status clsa__groups_settle(clsa_context *ctx, clsa__sa_work *w, int has_delta)
{
    cl_ulong m = w->m;
    uint32_t groups = 0, kept = 0;
    clsa_status st;
    clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
    if ((st = clsa__scan(ctx, w->sk, w->sk, w->m, 1, 0, NULL)) ||
        (st = head_scatter(ctx, w, w->sk, has_delta ? w->k : NULL, w->sv)))
        return st;
    clsa__set_phase(ctx, CLSA_PHASE_ISA_UPDATE);
    if ((st = clsa__fill_zero(ctx, w->counter, 0, 4)) ||
        (st = RUN(w, "grp_rank_update", w->m, CLSA_KARG(w->u), CLSA_KARG(w->sk),
                  CLSA_KARG(w->sv), CLSA_KARG(m), CLSA_KARG(w->isa), CLSA_KARG(w->counter),
                  CLSA_KLOCAL(4))) ||
        (st = clsa__read(ctx, w->counter, 0, &groups, 4)))
        return st;
    clsa__set_phase(ctx, CLSA_PHASE_GROUPS);
    if (groups == 0) { /* every suffix is final */
        w->m = w->g = 0;
        return CLSA_OK;
    }
    /* keep flags into sv, scanned in place; the compaction reads keep back
     * from consecutive positions, so sk (the head scan) is free for u. */
    if ((st = RUN(w, "grp_keep", w->m, CLSA_KARG(w->sk), CLSA_KARG(m), CLSA_KARG(w->sv))) ||
        (st = clsa__scan(ctx, w->sv, w->sv, w->m, 0, 0, &kept)) ||
        (st = RUN(w, "grp_compact", w->m, CLSA_KARG(w->u), CLSA_KARG(w->sv), CLSA_KARG(m),
                  CLSA_KARG(kept), CLSA_KARG(w->sk))))
        return st;
    cl_mem t = w->u;
    w->u = w->sk;
    w->sk = t;
    w->m = kept;
    w->g = groups;
    return CLSA_OK;
}
