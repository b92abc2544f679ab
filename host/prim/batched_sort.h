/* Batched sort of many independent arrays (internal entry point). */
#ifndef CLSA_PRIM_BATCHED_SORT_H
#define CLSA_PRIM_BATCHED_SORT_H
#include "clsa.h"

/* Array a = keys[starts[a] .. starts[a+1]) (starts: narrays + 1 ulong),
 * sorted ascending and stably with values (NULL: keys only, else u32).
 * key_is_float: keys are f32, ordered by the total order of their bits.
 * The arrays are the segments of the segmented sort in CSR form: the many
 * short arrays of the GPU-ArraySort workload are sorted in local memory,
 * several per work-group, grouped by log2 length. */
clsa_status clsa__batched_sort(clsa_context *ctx, cl_mem keys, cl_mem values, cl_mem starts,
                               size_t narrays, int key_is_float);
#endif
