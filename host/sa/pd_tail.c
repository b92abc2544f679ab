/* The last doubling passes in one work-group (pd_tail.h). */
#include "pd_tail.h"

/* The kernel's slot index field (pd_tail.cl TAIL_IDX_BITS). */
#define TAIL_IDX_BITS 12

static size_t pow2_floor(size_t x)
{
    size_t p = 1;
    while (p * 2 <= x) p *= 2;
    return p;
}

/* Bits below the old rank in a key: the slot index and key2 (<= n). */
static unsigned rank_shift(uint64_t n) { return TAIL_IDX_BITS + clsa__bits_of(n); }

size_t clsa__pd_tail_cap(const clsa_context *ctx, const clsa__sa_work *w)
{
    size_t lm = (size_t)(ctx->tune.local_mem ? ctx->tune.local_mem : 16384);
    size_t want = ctx->tune.tail, counts = ctx->tune.wg * 4 + 256;
    if (!want || w->n < 2 || lm <= counts) return 0;
    if (rank_shift(w->n) + clsa__bits_of(w->n - 1) > 63) return 0;
    size_t cap = pow2_floor((lm - counts) / 8);
    if (cap > ((size_t)1 << TAIL_IDX_BITS)) cap = (size_t)1 << TAIL_IDX_BITS;
    if (cap > want) cap = pow2_floor(want);
    return cap < 2 ? 0 : cap;
}

clsa_status clsa__pd_tail(clsa_context *ctx, clsa__sa_work *w, uint64_t h)
{
    size_t cap = clsa__pd_tail_cap(ctx, w), wg = ctx->tune.wg;
    cl_ulong m = w->m, n = w->n, hh = h, b64;
    cl_uint ccap = (cl_uint)cap, shift = rank_shift(w->n), b32, status[3] = {0, 0, 0};
    cl_int direct = w->sa != NULL;
    cl_mem sa = direct ? w->sa : w->isa; /* unread without direct */
    cl_mem st_buf = w->counts;           /* 36 uints, free after the last pass */
    clsa_status st;
    if (!cap || w->m > cap || w->lazy || w->rank_base)
        return clsa__fail(ctx, CLSA_ERR_OPENCL, "suffix array: %zu suffixes do not fit the tail",
                          w->m);
    clsa__karg args[] = {CLSA_KARG(w->u),  CLSA_KARG(m),     CLSA_KARG(w->isa),
                         CLSA_KARG(sa),    CLSA_KARG(direct),
                         clsa__idx_karg(w->index64, w->rank_base, &b64, &b32),
                         CLSA_KARG(n),     CLSA_KARG(hh),    CLSA_KARG(ccap),
                         CLSA_KARG(shift), CLSA_KARG(w->k),  CLSA_KARG(w->sk),
                         CLSA_KARG(st_buf), CLSA_KLOCAL(cap * 8), CLSA_KLOCAL(wg * 4)};
    if ((st = clsa__sa_run(ctx, "pd_tail", w->index64, "pd_tail", wg, wg,
                           sizeof args / sizeof args[0], args)) ||
        (st = clsa__read(ctx, st_buf, 0, status, sizeof status)))
        return st;
    if (status[0] || status[2])
        return clsa__fail(ctx, CLSA_ERR_OPENCL,
                          "suffix array: the last passes did not converge (%u suffixes left "
                          "after %u passes from h = %llu, n = %llu, code %u): the device "
                          "computed inconsistent ranks",
                          status[0], status[1], (unsigned long long)h, (unsigned long long)n,
                          status[2]);
    ctx->stats.doubling_passes += status[1];
    w->m = 0;
    w->g = 0;
    w->marked = 0;
    return CLSA_OK;
}
