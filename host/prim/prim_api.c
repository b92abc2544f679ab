/* Public entry points of clsa_prim.h: radix sort (radix_sort.c), segmented
 * sort (segmented_sort.c) and batched sort (batched_sort.c).  Each checks
 * its arguments, locks the context, sets the phase, copies the host-pointer
 * forms to and from the device and calls down. */
#include "batched_sort.h"
#include "radix_sort.h"
#include "segmented_sort.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "status.h"

#include <stdlib.h>

static clsa_status upload(clsa_context *ctx, const void *src, size_t bytes, cl_mem *out)
{
    clsa_status st = clsa__alloc(ctx, bytes, out);
    if (st == CLSA_OK) st = clsa__write(ctx, *out, 0, src, bytes);
    return st;
}

/* ---- radix sort ---------------------------------------------------------------------- */

static clsa_status radix_args(clsa_context *ctx, int has_keys, int has_values, size_t n,
                              int key_bits, int value_bits, unsigned begin_bit, unsigned end_bit)
{
    if (key_bits != 32 && key_bits != 64)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "radix sort: key_bits %d (32 or 64)", key_bits);
    if (value_bits != 0 && value_bits != 32 && value_bits != 64)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "radix sort: value_bits %d (0, 32 or 64)",
                          value_bits);
    if (begin_bit > end_bit || end_bit > (unsigned)key_bits)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG,
                          "radix sort: bit range [%u, %u) outside the %d key bits", begin_bit,
                          end_bit, key_bits);
    if (n > 0 && (!has_keys || (value_bits && !has_values)))
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "radix sort: keys or values are NULL");
    return CLSA_OK;
}

/* A caller's scratch buffer: at least bytes long, and not one of the
 * buffers it is scratch for. */
static clsa_status radix_scratch(clsa_context *ctx, cl_mem s, size_t bytes, cl_mem keys,
                                 cl_mem values, const char *what)
{
    size_t size = 0;
    if (!s) return CLSA_OK;
    if (s == keys || s == values)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "radix sort: %s is a sorted buffer", what);
    cl_int err = clGetMemObjectInfo(s, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err != CL_SUCCESS) return clsa__cl(ctx, err, "clGetMemObjectInfo", what);
    if (size < bytes)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "radix sort: %s holds %zu bytes, %zu needed",
                          what, size, bytes);
    return CLSA_OK;
}

/* keys/values: device buffers (with the caller's scratch, or NULL), or
 * host arrays when host != 0. */
static clsa_status radix_any(clsa_context *ctx, void *keys, void *values, size_t n, int key_bits,
                             int value_bits, unsigned begin_bit, unsigned end_bit, int host,
                             cl_mem skeys, cl_mem svalues)
{
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    clsa__call_begin(ctx);
    int old_phase = clsa__set_phase(ctx, CLSA_PHASE_PRIMITIVE);
    size_t kb = (size_t)key_bits / 8, vb = (size_t)value_bits / 8;
    cl_mem dk = NULL, dv = NULL;
    CLSA_TRY(radix_args(ctx, keys != NULL, values != NULL, n, key_bits, value_bits, begin_bit,
                        end_bit));
    if (n < 2 || begin_bit == end_bit) goto done;
    if (n > SIZE_MAX / 8)
        CLSA_TRY(clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "radix sort: %zu keys", n));
    if (!host) {
        CLSA_TRY(radix_scratch(ctx, skeys, n * kb, (cl_mem)keys, (cl_mem)values,
                               "scratch_keys"));
        CLSA_TRY(radix_scratch(ctx, vb ? svalues : NULL, n * vb, (cl_mem)keys, (cl_mem)values,
                               "scratch_values"));
        if (skeys && svalues && vb && skeys == svalues)
            CLSA_TRY(clsa__fail(ctx, CLSA_ERR_INVALID_ARG,
                                "radix sort: scratch_keys and scratch_values are one buffer"));
        st = clsa__radix_sort(ctx, (cl_mem)keys, (cl_mem)values, n, (int)kb, (int)vb, begin_bit,
                              end_bit, skeys, vb ? svalues : NULL);
        goto done;
    }
    CLSA_TRY(clsa__alloc(ctx, n * kb, &dk));
    if (vb) CLSA_TRY(clsa__alloc(ctx, n * vb, &dv));
    CLSA_TRY(clsa__write(ctx, dk, 0, keys, n * kb));
    if (vb) CLSA_TRY(clsa__write(ctx, dv, 0, values, n * vb));
    CLSA_TRY(clsa__radix_sort(ctx, dk, dv, n, (int)kb, (int)vb, begin_bit, end_bit, NULL, NULL));
    CLSA_TRY(clsa__read(ctx, dk, 0, keys, n * kb));
    if (vb) CLSA_TRY(clsa__read(ctx, dv, 0, values, n * vb));
done:
    clsa__free(ctx, &dk);
    clsa__free(ctx, &dv);
    clsa__set_phase(ctx, old_phase);
    clsa__unlock(ctx);
    return st;
}

clsa_status clsa_radix_sort_u32(clsa_context *ctx, uint32_t *keys, uint32_t *values, size_t n,
                                unsigned begin_bit, unsigned end_bit)
{
    return radix_any(ctx, keys, values, n, 32, values ? 32 : 0, begin_bit, end_bit, 1, NULL, NULL);
}

clsa_status clsa_radix_sort_u64(clsa_context *ctx, uint64_t *keys, uint32_t *values, size_t n,
                                unsigned begin_bit, unsigned end_bit)
{
    return radix_any(ctx, keys, values, n, 64, values ? 32 : 0, begin_bit, end_bit, 1, NULL, NULL);
}

clsa_status clsa_radix_sort_u64_v64(clsa_context *ctx, uint64_t *keys, uint64_t *values,
                                    size_t n, unsigned begin_bit, unsigned end_bit)
{
    return radix_any(ctx, keys, values, n, 64, values ? 64 : 0, begin_bit, end_bit, 1, NULL, NULL);
}

clsa_status clsa_radix_sort_mem(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                int key_bits, int value_bits, unsigned begin_bit, unsigned end_bit)
{
    return radix_any(ctx, keys, values, n, key_bits, value_bits, begin_bit, end_bit, 0, NULL, NULL);
}

clsa_status clsa_radix_sort_mem_scratch(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                        int key_bits, int value_bits, unsigned begin_bit,
                                        unsigned end_bit, cl_mem scratch_keys,
                                        cl_mem scratch_values)
{
    return radix_any(ctx, keys, values, n, key_bits, value_bits, begin_bit, end_bit, 0,
                    scratch_keys, scratch_values);
}

/* ---- segmented sort ------------------------------------------------------------------ */

/* Host forms: every segment must lie inside keys[0..n). */
static clsa_status seg_bounds(clsa_context *ctx, const void *offsets, const void *lengths,
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

/* keys/values/offsets/lengths: device buffers, or host arrays when host. */
static clsa_status seg_any(clsa_context *ctx, void *keys, void *values, size_t n,
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
    CLSA_TRY(seg_bounds(ctx, offsets, lengths, nseg, n, index64));
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
    return seg_any(ctx, keys, values, n, offsets, lengths, nsegments, 32, 1);
}

clsa_status clsa_segmented_sort_u64(clsa_context *ctx, uint64_t *keys, uint64_t *values, size_t n,
                                    const uint64_t *offsets, const uint64_t *lengths,
                                    size_t nsegments)
{
    return seg_any(ctx, keys, values, n, offsets, lengths, nsegments, 64, 1);
}

clsa_status clsa_segmented_sort_mem(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                    cl_mem offsets, cl_mem lengths, size_t nsegments,
                                    int index_bits)
{
    return seg_any(ctx, keys, values, n, offsets, lengths, nsegments, index_bits, 0);
}

/* ---- batched sort ---------------------------------------------------------------------- */

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

/* Host forms: keys[0 .. starts[narrays]) and values alongside. */
static clsa_status batched_host(clsa_context *ctx, void *keys, uint32_t *values,
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
    return batched_host(ctx, keys, values, starts, narrays, 0);
}

clsa_status clsa_batched_sort_f32(clsa_context *ctx, float *keys, uint32_t *values,
                                  const uint64_t *starts, size_t narrays)
{
    return batched_host(ctx, keys, values, starts, narrays, 1);
}

clsa_status clsa_batched_sort_equal_u32(clsa_context *ctx, uint32_t *keys, uint32_t *values,
                                        size_t narrays, size_t length)
{
    if (narrays > (SIZE_MAX / 8) - 1) return clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "batched sort");
    uint64_t *starts = malloc((narrays + 1) * 8);
    if (!starts) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "batched sort: starts");
    for (size_t a = 0; a <= narrays; a++) starts[a] = (uint64_t)a * length;
    clsa_status st = batched_host(ctx, keys, values, starts, narrays, 0);
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
