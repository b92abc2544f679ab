/* The last doubling passes in one launch (host/sa/pd_tail.c,
 * cl_kernels/pd_tail.cl): where few suffixes are left unsorted, every pass
 * left runs in one work-group, its launches and reads replaced by one of
 * each. */
#ifndef CLSA_SA_PD_TAIL_H
#define CLSA_SA_PD_TAIL_H
#include "groups.h"

/* The most unsorted suffixes the tail takes on this device (0: never):
 * CLSA_TUNE tail (default 4096), bounded by local memory and by the key's
 * bits (a rank, key2 and a slot index in 64 bits: n < 2^25 or so). */
size_t clsa__pd_tail_cap(const clsa_context *ctx, const clsa__sa_work *w);

/* Every pass left from distance h, with w->m <= clsa__pd_tail_cap and
 * complete ranks in isa (not lazy): afterwards w->m = 0, isa holds the
 * final ranks, and in direct mode (w->sa) the SA buffer the suffix array.
 * Adds the passes run to ctx->stats.doubling_passes; a device whose ranks
 * do not converge fails the call. */
clsa_status clsa__pd_tail(clsa_context *ctx, clsa__sa_work *w, uint64_t h);
#endif
