/* Public segmented sort entry points: argument checks, locking, phase, and
 * the host <-> device copies of the host-pointer forms. */
#include "segmented_sort.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "status.h"

/* Host forms: every segment must lie inside keys[0..n). */
static clsa_status check_bounds(clsa_context *ctx, const void *offsets, const void *lengths,
                                size_t nseg, size_t n, int index64)
{
    for (size_t s = 0; s < nseg; s++) {
        uint64_t o = index64 ? ((const uint64_t *)offsets)[s] : ((const uint32_t *)offsets)[s];
        uint64_t l = index64 ? ((const uint64_t *)lengths)[s] : ((const uint32_t *)lengths)[s];
        if (o > n || l > n - o)
            return clsa__fail(ctx, CLSA_ERR_INVALID_ARG,
                              "segmented sort: segment %zu [%llu, +%llu) outside the %zu keys", s,
                              (unsigned long long)o, (unsigned long long)l, n);
    }
    return CLSA_OK;
}

static clsa_status upload(clsa_context *ctx, const void *src, size_t bytes, cl_mem *out)
{
    clsa_status st = clsa__alloc(ctx, bytes, out);
    if (st == CLSA_OK) st = clsa__write(ctx, *out, 0, src, bytes);
    return st;
}

/* keys/values/offsets/lengths: device buffers, or host arrays when host. */
static clsa_status sort_any(clsa_context *ctx, void *keys, void *values, size_t n,
                            const void *offsets, const void *lengths, size_t nseg, int index_bits,
                            int host)
{
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    clsa__call_begin(ctx);
    int old_phase = clsa__set_phase(ctx, CLSA_PHASE_PRIMITIVE);
    int index64 = index_bits == 64;
    size_t w = index64 ? 8 : 4;
    cl_mem dk = NULL, dv = NULL, doff = NULL, dlen = NULL;
    if (index_bits != 32 && index_bits != 64)
        CLSA_TRY(clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "segmented sort: index_bits %d (32 or 64)",
                            index_bits));
    if (nseg > 0 && (!offsets || !lengths || (n > 0 && !keys)))
        CLSA_TRY(clsa__fail(ctx, CLSA_ERR_INVALID_ARG,
                            "segmented sort: keys, offsets or lengths are NULL"));
    if (nseg == 0 || n == 0) goto done;
    if (!host) {
        st = clsa__segmented_sort(ctx, (cl_mem)keys, (cl_mem)values, n, (cl_mem)offsets,
                                  (cl_mem)lengths, nseg, index64);
        goto done;
    }
    if (!index64 && n > UINT32_MAX)
        CLSA_TRY(clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "segmented sort: %zu keys with 32-bit indexes", n));
    CLSA_TRY(check_bounds(ctx, offsets, lengths, nseg, n, index64));
    CLSA_TRY(upload(ctx, keys, n * w, &dk));
    if (values) CLSA_TRY(upload(ctx, values, n * w, &dv));
    CLSA_TRY(upload(ctx, offsets, nseg * w, &doff));
    CLSA_TRY(upload(ctx, lengths, nseg * w, &dlen));
    CLSA_TRY(clsa__segmented_sort(ctx, dk, dv, n, doff, dlen, nseg, index64));
    CLSA_TRY(clsa__read(ctx, dk, 0, keys, n * w));
    if (values) CLSA_TRY(clsa__read(ctx, dv, 0, values, n * w));
done:
    clsa__free(ctx, &dk);
    clsa__free(ctx, &dv);
    clsa__free(ctx, &doff);
    clsa__free(ctx, &dlen);
    clsa__set_phase(ctx, old_phase);
    clsa__unlock(ctx);
    return st;
}

clsa_status clsa_segmented_sort_u32(clsa_context *ctx, uint32_t *keys, uint32_t *values, size_t n,
                                    const uint32_t *offsets, const uint32_t *lengths,
                                    size_t nsegments)
{
    return sort_any(ctx, keys, values, n, offsets, lengths, nsegments, 32, 1);
}

clsa_status clsa_segmented_sort_u64(clsa_context *ctx, uint64_t *keys, uint64_t *values, size_t n,
                                    const uint64_t *offsets, const uint64_t *lengths,
                                    size_t nsegments)
{
    return sort_any(ctx, keys, values, n, offsets, lengths, nsegments, 64, 1);
}

clsa_status clsa_segmented_sort_mem(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                    cl_mem offsets, cl_mem lengths, size_t nsegments,
                                    int index_bits)
{
    return sort_any(ctx, keys, values, n, offsets, lengths, nsegments, index_bits, 0);
}
