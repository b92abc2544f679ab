/* Prefix doubling, the group sorts of stage 3 (pd_sort.c). */
#ifndef CLSA_SA_PD_SORT_H
#define CLSA_SA_PD_SORT_H
#include "groups.h"

/* Number of local-memory classes for this device (R1 from ctx->tune.r1,
 * bounded by local memory). */
unsigned clsa__groups_nclass(const clsa_context *ctx, int index64);

/* With clsa__groups_starts done: classifies the groups; the class lists
 * are kept in k (which must hold w->m idx_t + 64 uints). */
clsa_status clsa__groups_classify(clsa_context *ctx, clsa__sa_work *w, clsa__grp_classes *c);

/* w->flagged from the global sort's keys in k, in order by (group, key2). */
clsa_status clsa__groups_flag_from_keys(clsa_context *ctx, clsa__sa_work *w);

/* Sorts every group up to R1 long by key2 at distance h in place in u
 * (keys gathered inside the kernels); marks new groups with w->flagged. */
clsa_status clsa__groups_sort_small(clsa_context *ctx, clsa__sa_work *w,
                                    const clsa__grp_classes *c, uint64_t h);

/* Offsets and lengths (idx_t, c->count[nclass] each) of the groups longer
 * than R1, for the segmented sort. */
clsa_status clsa__groups_large_bounds(clsa_context *ctx, clsa__sa_work *w,
                                      const clsa__grp_classes *c, cl_mem offs, cl_mem lens);

/* Groups longer than R1 sorted by key2 at distance h with radix sorts over
 * their suffixes only (one by group number and key2 together where both
 * fit an index, else by key2 then by group): views = keys, scratch keys,
 * values, scratch values, c->large_slots idx_t each, cut from free work
 * arrays by the caller;
 * table_bytes bounds the radix sort's digit table.  Reads the class lists
 * in k and the starts in sv before anything is written to the views;
 * marks new groups with w->flagged. */
clsa_status clsa__groups_sort_long(clsa_context *ctx, clsa__sa_work *w, const clsa__grp_classes *c,
                                   uint64_t h, const cl_mem views[4], size_t table_bytes);
#endif
