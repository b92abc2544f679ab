/* Device LSD radix sort (internal entry point used by the suffix-array
 * pipeline, the segmented sort and the public entry points of prim_api.c). */
#ifndef CLSA_PRIM_RADIX_SORT_H
#define CLSA_PRIM_RADIX_SORT_H
#include "clsa.h"

/* Stable key-value sort of keys[0..n) (with values[0..n) alongside) by the
 * key bits [begin_bit, end_bit); the result is in keys/values (in place).
 * key_bytes: 4 or 8.  value_bytes: 0 (values ignored, may be NULL), 4 or 8.
 * begin_bit < end_bit <= 8 * key_bytes (begin_bit >= end_bit: nothing to do).
 * scratch_keys / scratch_values: NULL (allocated here through clsa__alloc
 * and freed before return) or caller buffers of at least n * key_bytes /
 * n * value_bytes bytes, so callers can control peak memory (besides them,
 * a digit table of 2^radix_bits counts per tile, about n / 4 bytes with the
 * default tuning, is allocated for the call).  Passes whose digit is the
 * same for every key are skipped (the first histogram also reduces OR/AND
 * of the keys; one small blocking read per call).  n <= 2^32 - 1 (else
 * CLSA_ERR_TOO_LARGE: the digit offsets are 32-bit).  Launches are charged
 * to the caller's current phase. */
clsa_status clsa__radix_sort(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                             int key_bytes, int value_bytes, unsigned begin_bit, unsigned end_bit,
                             cl_mem scratch_keys, cl_mem scratch_values);
/* Same, with the digit table bounded: digits are narrowed (down to 4 bits,
 * so more passes) until the table fits in max_table_bytes (0: no bound).
 * Devices with small work-groups (llvmpipe) have small tiles, whose 8-bit
 * digit table would be several bytes per key. */
clsa_status clsa__radix_sort_capped(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                    int key_bytes, int value_bytes, unsigned begin_bit,
                                    unsigned end_bit, cl_mem scratch_keys, cl_mem scratch_values,
                                    size_t max_table_bytes);
/* Control words of clsa__radix_sort_unchecked (CLSA_RADIX_CTL_ALL uints)
 * and the fault word among them. */
#define CLSA_RADIX_CTL_BYTES (4 * (4 + 1 + 16 + 32))
#define CLSA_RADIX_FAULT_AT (4 * 4)
/* clsa__radix_sort_capped, where a single-pass sort would read its fault
 * word (a blocking read): it leaves it in ctl (CLSA_RADIX_CTL_BYTES) for
 * the caller to read once after several sorts, at CLSA_RADIX_FAULT_AT.
 * Nor does it read which digits vary (the other blocking read of a large
 * sort): it runs every digit of [begin_bit, end_bit), for keys that vary
 * in all of them.
 * *pending: in, whether an earlier unchecked sort's fault word is in ctl
 * (kept: a fault makes every later single pass write nothing); out, set to
 * 1 where this sort left its check there.  A fault (nonzero) means keys
 * and values hold no valid sort, only values each written from a pass's
 * input or left as they were: the caller sorts again with
 * ctx->tune.onesweep = 0, and reads nothing they index before that. */
clsa_status clsa__radix_sort_unchecked(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                       int key_bytes, int value_bytes, unsigned begin_bit,
                                       unsigned end_bit, cl_mem scratch_keys,
                                       cl_mem scratch_values, size_t max_table_bytes, cl_mem ctl,
                                       int *pending);
/* The check after unchecked sorts: *faulted = whether one of them faulted
 * (the fault word read where pending says one was left in ctl). */
clsa_status clsa__radix_sort_faulted(clsa_context *ctx, cl_mem ctl, int pending, int *faulted);
#endif
