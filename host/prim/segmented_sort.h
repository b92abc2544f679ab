/* Device segmented sort (internal entry points used by the suffix-array
 * pipeline, the batched sort and the public entry points of prim_api.c). */
#ifndef CLSA_PRIM_SEGMENTED_SORT_H
#define CLSA_PRIM_SEGMENTED_SORT_H
#include "clsa.h"
#include "segsort_layout.h"

/* Sorts each segment s = keys[offsets[s] .. offsets[s] + lengths[s]) in
 * place, ascending, with values (may be NULL) at the same positions.
 * keys, values, offsets and lengths are all idx_t (uint, or ulong when
 * index64).  Segments must not overlap; they need not be contiguous or in
 * order; positions outside every segment are not touched.  Segments are
 * classified by length on the device: 0/1 skipped, S (<= R1) bitonic in
 * local memory grouped by log2 size, M (<= R2) merge-path merge sort, L
 * (> R2) radix sort.  Stable (every path is).  Launches are charged to the
 * caller's phase, or, when that is one of the SA sort phases, to
 * SORT_S/SORT_M/SORT_L by class. */
clsa_status clsa__segmented_sort(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                 cl_mem offsets, cl_mem lengths, size_t nsegments, int index64);

/* The general form: any layout.  lengths may be NULL when layout->csr. */
clsa_status clsa__segmented_sort_layout(clsa_context *ctx, const clsa__seg_layout *layout,
                                        cl_mem keys, cl_mem values, cl_mem offsets,
                                        cl_mem lengths, size_t nsegments);

#endif
