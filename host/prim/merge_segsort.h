/* Merge-path segmented merge sort of medium segments (launchers of
 * cl_kernels/merge_segsort.cl). */
#ifndef CLSA_PRIM_MERGE_SEGSORT_H
#define CLSA_PRIM_MERGE_SEGSORT_H
#include "segsort_layout.h"

/* Sorts the `count` segments whose ids are list[0..count), each longer
 * than one tile and at most max_len long, in place.  Scratch of about the
 * segments' total size (keys and values) is allocated here. */
clsa_status clsa__merge_segsort(clsa_context *ctx, const clsa__seg_layout *layout, cl_mem keys,
                                cl_mem values, cl_mem offsets, cl_mem lengths, cl_mem list,
                                size_t count, size_t max_len);
#endif
