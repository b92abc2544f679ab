/* Public radix sort entry points: argument checks, locking, phase, and the
 * host <-> device copies of the host-pointer forms. */
#include "radix_sort.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "status.h"

static clsa_status check_args(clsa_context *ctx, int has_keys, int has_values, size_t n,
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
static clsa_status check_scratch(clsa_context *ctx, cl_mem s, size_t bytes, cl_mem keys,
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
static clsa_status sort_any(clsa_context *ctx, void *keys, void *values, size_t n, int key_bits,
                            int value_bits, unsigned begin_bit, unsigned end_bit, int host,
                            cl_mem skeys, cl_mem svalues)
{
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    clsa__call_begin(ctx);
    int old_phase = clsa__set_phase(ctx, CLSA_PHASE_PRIMITIVE);
    size_t kb = (size_t)key_bits / 8, vb = (size_t)value_bits / 8;
    cl_mem dk = NULL, dv = NULL;
    CLSA_TRY(check_args(ctx, keys != NULL, values != NULL, n, key_bits, value_bits, begin_bit,
                        end_bit));
    if (n < 2 || begin_bit == end_bit) goto done;
    if (n > SIZE_MAX / 8)
        CLSA_TRY(clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "radix sort: %zu keys", n));
    if (!host) {
        CLSA_TRY(check_scratch(ctx, skeys, n * kb, (cl_mem)keys, (cl_mem)values,
                               "scratch_keys"));
        CLSA_TRY(check_scratch(ctx, vb ? svalues : NULL, n * vb, (cl_mem)keys, (cl_mem)values,
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
    return sort_any(ctx, keys, values, n, 32, values ? 32 : 0, begin_bit, end_bit, 1, NULL, NULL);
}

clsa_status clsa_radix_sort_u64(clsa_context *ctx, uint64_t *keys, uint32_t *values, size_t n,
                                unsigned begin_bit, unsigned end_bit)
{
    return sort_any(ctx, keys, values, n, 64, values ? 32 : 0, begin_bit, end_bit, 1, NULL, NULL);
}

clsa_status clsa_radix_sort_u64_v64(clsa_context *ctx, uint64_t *keys, uint64_t *values,
                                    size_t n, unsigned begin_bit, unsigned end_bit)
{
    return sort_any(ctx, keys, values, n, 64, values ? 64 : 0, begin_bit, end_bit, 1, NULL, NULL);
}

clsa_status clsa_radix_sort_mem(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                int key_bits, int value_bits, unsigned begin_bit, unsigned end_bit)
{
    return sort_any(ctx, keys, values, n, key_bits, value_bits, begin_bit, end_bit, 0, NULL, NULL);
}

clsa_status clsa_radix_sort_mem_scratch(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                        int key_bits, int value_bits, unsigned begin_bit,
                                        unsigned end_bit, cl_mem scratch_keys,
                                        cl_mem scratch_values)
{
    return sort_any(ctx, keys, values, n, key_bits, value_bits, begin_bit, end_bit, 0,
                    scratch_keys, scratch_values);
}
