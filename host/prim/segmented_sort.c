/* Segmented sort dispatcher (work in progress: classification and the
 * S/M/L paths land in the next commits). */
#include "segmented_sort.h"

clsa_status clsa__segmented_sort_layout(clsa_context *ctx, const clsa__seg_layout *layout,
                                        cl_mem keys, cl_mem values, cl_mem offsets,
                                        cl_mem lengths, size_t nsegments)
{
    (void)layout; (void)keys; (void)values; (void)offsets; (void)lengths;
    if (nsegments == 0) return CLSA_OK;
    return clsa__fail(ctx, CLSA_ERR_UNSUPPORTED, "segmented sort: not implemented yet");
}

clsa_status clsa__segmented_sort(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                 cl_mem offsets, cl_mem lengths, size_t nsegments, int index64)
{
    (void)n;
    clsa__seg_layout l = {index64 ? 8 : 4, values ? (index64 ? 8 : 4) : 0, 0, index64, 0};
    return clsa__segmented_sort_layout(ctx, &l, keys, values, offsets, lengths, nsegments);
}
