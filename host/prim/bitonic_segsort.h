/* Bitonic sort of small segments and of merge-sort tiles in local memory
 * (launchers of cl_kernels/bitonic_segsort.cl). */
#ifndef CLSA_PRIM_BITONIC_SEGSORT_H
#define CLSA_PRIM_BITONIC_SEGSORT_H
#include "segsort_layout.h"

/* Sorts the S segments listed in `list` (uint segment ids, grouped by
 * class c: 2^c < length <= 2^(c+1)).  info[3c .. 3c+2] (host array, nclasses
 * classes): first work-group, first list entry and number of segments of
 * class c; ngroups work-groups in all. */
clsa_status clsa__bitonic_small(clsa_context *ctx, const clsa__seg_layout *layout, cl_mem keys,
                                cl_mem values, cl_mem offsets, cl_mem lengths, cl_mem list,
                                const uint64_t *info, unsigned nclasses, size_t ngroups);

/* Block sort of the merge sort: tile g of medium segment list[tile_seg[g]]
 * (see cl_kernels/bitonic_segsort.cl, bitonic_block). */
clsa_status clsa__bitonic_block(clsa_context *ctx, const clsa__seg_layout *layout, cl_mem keys,
                                cl_mem values, cl_mem skeys, cl_mem svalues, cl_mem offsets,
                                cl_mem lengths, cl_mem list, cl_mem tile_base, cl_mem tile_seg,
                                size_t ntiles);
#endif
