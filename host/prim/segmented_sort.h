/* Device segmented sort (internal entry points used by the suffix-array
 * pipeline, the batched sort and the public wrappers). */
#ifndef CLSA_PRIM_SEGMENTED_SORT_H
#define CLSA_PRIM_SEGMENTED_SORT_H
#include "runtime.h"

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

/* What the kernels are built for: the element types and how segments are
 * described.  Shared by the bitonic, merge and dispatch layers. */
typedef struct clsa__seg_layout {
    int key_bytes;    /* 4 or 8 */
    int value_bytes;  /* 0 (no values), 4 or 8 */
    int key_float;    /* keys are IEEE floats (key_bytes 4): total order of their bits */
    int index64;      /* offsets/lengths (or CSR starts) are ulong, else uint */
    int csr;          /* segment s = [offsets[s], offsets[s+1]); lengths unused */
} clsa__seg_layout;

/* The general form: any layout.  lengths may be NULL when layout->csr. */
clsa_status clsa__segmented_sort_layout(clsa_context *ctx, const clsa__seg_layout *layout,
                                        cl_mem keys, cl_mem values, cl_mem offsets,
                                        cl_mem lengths, size_t nsegments);

/* Tile of the local-memory sorts (= R1, the largest S segment) and the
 * work-group size that sorts it, for a layout on ctx's device. */
size_t clsa__segsort_tile(const clsa_context *ctx, const clsa__seg_layout *layout);
size_t clsa__segsort_wg(const clsa_context *ctx, const clsa__seg_layout *layout);
/* Build options of every segmented-sort kernel file for a layout. */
void clsa__segsort_options(const clsa_context *ctx, const clsa__seg_layout *layout, char *buf,
                           size_t cap);

#endif
