/* clsa sorting primitives (part of clsa.h; include clsa.h, not this file).
 *
 * Every primitive has a host-pointer form (data is copied to the device and
 * back) and a cl_mem form (data stays on the device; buffers must belong to
 * ctx's OpenCL context).  All need a device context. */
#ifndef CLSA_PRIM_H
#define CLSA_PRIM_H

/* ---- LSD radix sort ---------------------------------------------------------
 * Stable sort of keys (and their values, which may be NULL for keys only)
 * by the key bits [begin_bit, end_bit); bits outside the range are ignored
 * (and their order kept, stability).  end_bit <= 32 for u32 keys, <= 64 for
 * u64 keys; begin_bit < end_bit (equal: nothing to do). */
CLSA_API clsa_status clsa_radix_sort_u32(clsa_context *ctx, uint32_t *keys, uint32_t *values,
                                         size_t n, unsigned begin_bit, unsigned end_bit);
CLSA_API clsa_status clsa_radix_sort_u64(clsa_context *ctx, uint64_t *keys, uint32_t *values,
                                         size_t n, unsigned begin_bit, unsigned end_bit);
CLSA_API clsa_status clsa_radix_sort_u64_v64(clsa_context *ctx, uint64_t *keys, uint64_t *values,
                                             size_t n, unsigned begin_bit, unsigned end_bit);
/* key_bits: 32 or 64; value_bits: 0 (values NULL), 32 or 64. */
CLSA_API clsa_status clsa_radix_sort_mem(clsa_context *ctx, cl_mem keys, cl_mem values, size_t n,
                                         int key_bits, int value_bits, unsigned begin_bit,
                                         unsigned end_bit);
/* clsa_radix_sort_mem with the caller's scratch buffers: scratch_keys of at
 * least n keys, scratch_values (NULL where value_bits is 0) of at least n
 * values, neither of them keys or values.  Their contents afterwards are
 * undefined.  A call then allocates only its small digit tables: repeated
 * sorts skip allocating (and a GPU mapping) memory the size of the data.
 * NULL scratch buffers: allocated, as clsa_radix_sort_mem. */
CLSA_API clsa_status clsa_radix_sort_mem_scratch(clsa_context *ctx, cl_mem keys, cl_mem values,
                                                 size_t n, int key_bits, int value_bits,
                                                 unsigned begin_bit, unsigned end_bit,
                                                 cl_mem scratch_keys, cl_mem scratch_values);

/* ---- segmented sort ----------------------------------------------------------
 * Sorts, independently, each segment s = keys[offsets[s] .. offsets[s] +
 * lengths[s]) together with values (may be NULL) at the same positions.
 * Segments must not overlap; they need not be contiguous or in order, and
 * positions outside every segment are left alone.  Lengths 0 and 1 are
 * allowed.  Stable: equal keys keep their order within the segment (the
 * bitonic sorts break ties by position, merges take the left run first,
 * the radix sort is LSD).  Segments are dispatched by length: bitonic in
 * local memory (<= R1), merge-path merge sort (<= R2), radix sort
 * (larger); R1/R2 come from the device's tuning record (CLSA_TUNE r1=,
 * r2= override them).  Device memory beyond the arrays: about 4 bytes
 * per segment, plus scratch the size of the medium segments and of the
 * longest large one.  u32: keys, values, offsets and lengths all 32-bit;
 * u64: all 64-bit. */
CLSA_API clsa_status clsa_segmented_sort_u32(clsa_context *ctx, uint32_t *keys, uint32_t *values,
                                             size_t n, const uint32_t *offsets,
                                             const uint32_t *lengths, size_t nsegments);
CLSA_API clsa_status clsa_segmented_sort_u64(clsa_context *ctx, uint64_t *keys, uint64_t *values,
                                             size_t n, const uint64_t *offsets,
                                             const uint64_t *lengths, size_t nsegments);
/* index_bits: 32 or 64 (width of keys, values, offsets and lengths). */
CLSA_API clsa_status clsa_segmented_sort_mem(clsa_context *ctx, cl_mem keys, cl_mem values,
                                             size_t n, cl_mem offsets, cl_mem lengths,
                                             size_t nsegments, int index_bits);

/* ---- batched sort of many independent arrays ------------------------------------
 * Array a is keys[starts[a] .. starts[a+1]) (starts has narrays + 1
 * entries, non-decreasing, starts[narrays] = total length).  Each array is
 * sorted ascending, with its values (may be NULL) alongside.  Stable.
 * Floats sort by IEEE total order of their bits (-0.0 before +0.0; NaNs by
 * sign: negative NaNs first, positive NaNs last).  Arrays of up to R1 keys
 * (2048 on most GPUs) are sorted in local memory, several per work-group;
 * longer ones take the segmented sort's merge and radix paths.  Device
 * memory beyond keys, values and starts: about 4 bytes per array (plus
 * scratch for arrays longer than R1). */
CLSA_API clsa_status clsa_batched_sort_u32(clsa_context *ctx, uint32_t *keys, uint32_t *values,
                                           const uint64_t *starts, size_t narrays);
CLSA_API clsa_status clsa_batched_sort_f32(clsa_context *ctx, float *keys, uint32_t *values,
                                           const uint64_t *starts, size_t narrays);
/* Equal lengths: narrays arrays of `length` keys each, back to back. */
CLSA_API clsa_status clsa_batched_sort_equal_u32(clsa_context *ctx, uint32_t *keys,
                                                 uint32_t *values, size_t narrays, size_t length);
/* key_is_float: 0 for u32 keys, 1 for f32 keys. starts: narrays+1 u64 entries. */
CLSA_API clsa_status clsa_batched_sort_mem(clsa_context *ctx, cl_mem keys, cl_mem values,
                                           cl_mem starts, size_t narrays, int key_is_float);

#endif
