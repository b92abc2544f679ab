/* Lazy initial ranks of the doubling (pd_lazy.c; groups.h lazy). */
#ifndef CLSA_SA_PD_LAZY_H
#define CLSA_SA_PD_LAZY_H
#include "groups.h"

/* Lazy ranks: isa[list[i] + h] (i < count; the top bit of list masked
 * where marks) filled where still unset, from the SA buffer. */
clsa_status clsa__pd_lazy_fill(clsa_context *ctx, clsa__sa_work *w, cl_mem list, uint64_t count,
                               uint64_t h, int marks);
/* One walk over the SA buffer sa filling the unset ranks of the suffixes
 * the need bitmap marks (all: of every suffix). */
clsa_status clsa__pd_lazy_walk(clsa_context *ctx, const clsa__sa_work *w, cl_mem sa, int all);
/* Bytes of the need bitmap at a bit per 2^shift positions. */
size_t clsa__pd_need_bytes(uint64_t n, unsigned shift);
/* Positions a bit of the need bitmap covers, log2, for n suffixes of which
 * m are unsorted. */
unsigned clsa__pd_need_shift(const clsa_context *ctx, uint64_t n, uint64_t m);
#endif
