/* Batched sort of many independent arrays: the arrays are segments given in
 * CSR form (starts), sorted by the segmented sort's kernels built for u32
 * (or f32) keys, u32 values and 64-bit positions.  Every path of that sort
 * is stable (ties broken by position in the bitonic sorts, left-first
 * merges, LSD radix), which the batched API promises.  The entry points:
 * prim_api.c. */
#include "batched_sort.h"
#include "segmented_sort.h"
#include "context.h"

clsa_status clsa__batched_sort(clsa_context *ctx, cl_mem keys, cl_mem values, cl_mem starts,
                               size_t narrays, int key_is_float)
{
    clsa__seg_layout l = {4, values ? 4 : 0, key_is_float ? 1 : 0, 1, 1};
    return clsa__segmented_sort_layout(ctx, &l, keys, values, starts, NULL, narrays);
}
