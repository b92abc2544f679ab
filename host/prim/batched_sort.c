/* Batched sort of many independent arrays: the arrays are segments given in
 * CSR form (starts), sorted by the segmented sort's kernels built for u32
 * (or f32) keys, u32 values and 64-bit positions.  Every path of that sort
 * is stable (ties broken by position in the bitonic sorts, left-first
 * merges, LSD radix), which the batched API promises. */
#include "batched_sort.h"
#include "segmented_sort.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "status.h"

#include <stdlib.h>

clsa_status clsa__batched_sort(clsa_context *ctx, cl_mem keys, cl_mem values, cl_mem starts,
                               size_t narrays, int key_is_float)
{
    clsa__seg_layout l = {4, values ? 4 : 0, key_is_float ? 1 : 0, 1, 1};
    return clsa__segmented_sort_layout(ctx, &l, keys, values, starts, NULL, narrays);
}

static clsa_status check_starts(clsa_context *ctx, const uint64_t *starts, size_t narrays)
{
    for (size_t a = 0; a < narrays; a++)
        if (starts[a + 1] < starts[a])
            return clsa__fail(ctx, CLSA_ERR_INVALID_ARG,
                              "batched sort: starts[%zu] = %llu > starts[%zu] = %llu", a,
                              (unsigned long long)starts[a], a + 1,
                              (unsigned long long)starts[a + 1]);
    return CLSA_OK;
}

static clsa_status upload(clsa_context *ctx, const void *src, size_t bytes, cl_mem *out)
{
    clsa_status st = clsa__alloc(ctx, bytes, out);
    if (st == CLSA_OK) st = clsa__write(ctx, *out, 0, src, bytes);
    return st;
}

/* Host forms: keys[0 .. starts[narrays]) and values alongside. */
static clsa_status sort_host(clsa_context *ctx, void *keys, uint32_t *values,
                             const uint64_t *starts, size_t narrays, int key_is_float)
{
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    clsa__call_begin(ctx);
    int old_phase = clsa__set_phase(ctx, CLSA_PHASE_PRIMITIVE);
    cl_mem dk = NULL, dv = NULL, ds = NULL;
    if (narrays > 0 && !starts)
        CLSA_TRY(clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "batched sort: starts is NULL"));
    if (narrays == 0) goto done;
    CLSA_TRY(check_starts(ctx, starts, narrays));
    size_t n = (size_t)starts[narrays];
    if (n == 0) goto done;
    if (!keys) CLSA_TRY(clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "batched sort: keys is NULL"));
    CLSA_TRY(upload(ctx, keys, n * 4, &dk));
    if (values) CLSA_TRY(upload(ctx, values, n * 4, &dv));
    CLSA_TRY(upload(ctx, starts, (narrays + 1) * 8, &ds));
    CLSA_TRY(clsa__batched_sort(ctx, dk, dv, ds, narrays, key_is_float));
    CLSA_TRY(clsa__read(ctx, dk, 0, keys, n * 4));
    if (values) CLSA_TRY(clsa__read(ctx, dv, 0, values, n * 4));
done:
    clsa__free(ctx, &dk);
    clsa__free(ctx, &dv);
    clsa__free(ctx, &ds);
    clsa__set_phase(ctx, old_phase);
    clsa__unlock(ctx);
    return st;
}

clsa_status clsa_batched_sort_u32(clsa_context *ctx, uint32_t *keys, uint32_t *values,
                                  const uint64_t *starts, size_t narrays)
{
    return sort_host(ctx, keys, values, starts, narrays, 0);
}

clsa_status clsa_batched_sort_f32(clsa_context *ctx, float *keys, uint32_t *values,
                                  const uint64_t *starts, size_t narrays)
{
    return sort_host(ctx, keys, values, starts, narrays, 1);
}

clsa_status clsa_batched_sort_equal_u32(clsa_context *ctx, uint32_t *keys, uint32_t *values,
                                        size_t narrays, size_t length)
{
    if (narrays > (SIZE_MAX / 8) - 1) return clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "batched sort");
    uint64_t *starts = malloc((narrays + 1) * 8);
    if (!starts) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "batched sort: starts");
    for (size_t a = 0; a <= narrays; a++) starts[a] = (uint64_t)a * length;
    clsa_status st = sort_host(ctx, keys, values, starts, narrays, 0);
    free(starts);
    return st;
}

clsa_status clsa_batched_sort_mem(clsa_context *ctx, cl_mem keys, cl_mem values, cl_mem starts,
                                  size_t narrays, int key_is_float)
{
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    clsa__call_begin(ctx);
    int old_phase = clsa__set_phase(ctx, CLSA_PHASE_PRIMITIVE);
    if (narrays > 0 && (!keys || !starts))
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "batched sort: keys or starts is NULL");
    else st = clsa__batched_sort(ctx, keys, values, starts, narrays, key_is_float);
    clsa__set_phase(ctx, old_phase);
    clsa__unlock(ctx);
    return st;
}
