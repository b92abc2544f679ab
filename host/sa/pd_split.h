/* Prefix doubling, the split of stage 3 and the initial groups (pd_split.c). */
#ifndef CLSA_SA_PD_SPLIT_H
#define CLSA_SA_PD_SPLIT_H
#include "groups.h"

/* Layout of the current groups: sk = inclusive scan of the head flags
 * (1 + group number of each slot), sv[0..g) = first slot of each group. */
clsa_status clsa__groups_starts(clsa_context *ctx, clsa__sa_work *w);

/* The same from k after a sort by (group, ...): group = k >> shift. */
clsa_status clsa__groups_starts_from_keys(clsa_context *ctx, clsa__sa_work *w, unsigned shift);

/* Whether this pass's sorts may mark new groups in u's top bit (w->flagged):
 * where the marks free it (n < 2^31), unless CLSA_TUNE sa_path + 4096. */
int clsa__groups_flag_ok(const clsa_context *ctx, const clsa__sa_work *w);

/* After u was sorted by (old rank, key2 at distance h): splits the groups,
 * writes the new ranks into isa (read until then as the old ranks), drops
 * the singletons from u (compacted; u and sk may swap buffers), updates m
 * and g; with w->sa, also sa[rank] = suffix for each new singleton.
 * Uses k and sk (m entries) and sv (m / 2 entries: only the heads of
 * groups that stay unsorted are scattered).  starts_valid: sk and sv
 * still hold clsa__groups_starts' results (the sort did not use them). */
clsa_status clsa__groups_split(clsa_context *ctx, clsa__sa_work *w, uint64_t h, int starts_valid);

/* Initial groups (k, sk, sv of n entries): with head flags in sk (and
 * deltas in k when has_delta, else 0), ranks into isa, singletons dropped
 * from u (compacted; u and sk swap buffers), m and g updated.  When every
 * group is a singleton, only m = g = 0 and isa_unset = 1 (u is final). */
clsa_status clsa__groups_settle(clsa_context *ctx, clsa__sa_work *w, int has_delta);
#endif
