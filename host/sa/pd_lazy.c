/* Lazy initial ranks (groups.h lazy): after an initial sort that sorted
 * its tied suffixes apart, only the unsorted suffixes' ranks are set; a
 * pass marks the ones it reads in a need bitmap and fills them from the SA
 * buffer (kernels pd_lazy_mark, pd_lazy_fill of pd_lazy.cl). */
#include "pd_lazy.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"

/* The program of these kernels. */
static const char *const PROGRAM = "pd_lazy";
/* Bytes of the need bitmap at a bit per 2^shift positions. */
size_t clsa__pd_need_bytes(uint64_t n, unsigned shift)
{
    return (size_t)((n >> shift) / 32 + 1) * 4;
}

/* One coalesced walk over the SA buffer sa: the unset ranks of the
 * suffixes need marks (all: of every suffix; need unread) get their slots
 * (pd_lazy_fill). */
clsa_status clsa__pd_lazy_walk(clsa_context *ctx, const clsa__sa_work *w, cl_mem sa, int all)
{
    cl_ulong len = w->sa_len;
    cl_uint shift = all ? 0 : w->need_shift;
    cl_int every = all;
    cl_mem need = all ? w->isa : w->need; /* any valid buffer when unread */
    return CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_lazy_fill", w->sa_len, 0, CLSA_KARG(sa),
                       CLSA_KARG(len), CLSA_KARG(need), CLSA_KARG(w->isa), CLSA_KARG(every),
                       CLSA_KIDX(w->index64, w->rank_base), CLSA_KARG(shift));
}

/* isa[q] for every q = list[i] + h (i < count; list's top bit masked where
 * marks) that is still unset, filled from the SA buffer: the positions
 * marked in the need bitmap, then one walk over the buffer (groups.h
 * lazy). */
clsa_status clsa__pd_lazy_fill(clsa_context *ctx, clsa__sa_work *w, cl_mem list, uint64_t count,
                               uint64_t h, int marks)
{
    cl_ulong n = w->n, m = count, hh = h;
    cl_int mk = marks;
    cl_uint shift = w->need_shift;
    clsa_status st;
    if ((st = clsa__fill_zero(ctx, w->need, 0, clsa__pd_need_bytes(w->n, shift))) ||
        (st = CLSA_SA_RUN(ctx, PROGRAM, w->index64, "pd_lazy_mark", count, 0, CLSA_KARG(list),
                          CLSA_KARG(m), CLSA_KARG(n), CLSA_KARG(hh), CLSA_KARG(w->isa),
                          CLSA_KARG(w->need), CLSA_KARG(mk), CLSA_KARG(shift))))
        return st;
    return clsa__pd_lazy_walk(ctx, w, w->sa, 0);
}

/* Bits of the need bitmap beyond which a bit covers several positions, so
 * that it stays in a GPU's L2 (16 MiB). */
#define NEED_BITS_LOG2 27

/* Positions a bit of the need bitmap covers, log2: as few as keep the
 * bitmap within 2^NEED_BITS_LOG2 bits, while the unset ranks a fill may
 * set beyond the wanted ones (at most m of them a block) stay below n / 8.
 * CLSA_TUNE lazy_shift = s + 1: s (tests). */
unsigned clsa__pd_need_shift(const clsa_context *ctx, uint64_t n, uint64_t m)
{
    if (ctx->tune.lazy_shift) return ctx->tune.lazy_shift - 1;
    unsigned s = 0;
    while ((n >> s) > ((uint64_t)1 << NEED_BITS_LOG2) && (m << (s + 1)) <= n / 8) s++;
    return s;
}
