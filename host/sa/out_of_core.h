/* Out-of-core suffix array (host/sa/out_of_core.c): SA and ranks in host
 * memory, the device sorting chunks sized to the device-memory budget. */
#ifndef CLSA_SA_OUT_OF_CORE_H
#define CLSA_SA_OUT_OF_CORE_H
#include "clsa.h"

/* Device memory the in-memory path (text and SA on the device plus the
 * doubling's working set) is expected to need for n symbols of sym bytes. */
uint64_t clsa__sa_in_memory_need(uint64_t n, int sym, int index64);

/* Smallest budget the out-of-core path works in for n symbols. */
uint64_t clsa__ooc_min_budget(uint64_t n);

/* Chunk capacity (items) the path takes for n symbols with avail bytes of
 * device memory free: 0 below the minimum budget. */
uint64_t clsa__ooc_chunk_cap(const clsa_context *ctx, uint64_t n, uint64_t avail);

/* Device bytes chunks of cap items hold at the peak (the radix sort's
 * digit table may take more of avail, never past it). */
uint64_t clsa__ooc_dev_bytes(uint64_t cap, uint64_t avail);

/* 1 when the path keeps its host arrays in 64 bits: n > UINT32_MAX, or
 * CLSA_TUNE ooc64=1. */
int clsa__ooc_wide(const clsa_context *ctx, uint64_t n);

/* Host bytes the path allocates for n symbols with chunks of cap items:
 * ISA, a host SA where the output's width is not the layout's, one
 * chunk's batch staging.  A group larger than a chunk adds staging for the
 * whole group (periodic texts); the group lists come on top (small unless
 * most groups have two or three suffixes). */
uint64_t clsa__ooc_host_bytes(uint64_t n, uint64_t cap, int wide, int index64);

/* CLSA_ERR_HOST_MEMORY, naming the bytes, when those host bytes pass the
 * machine's physical memory (before anything is allocated). */
clsa_status clsa__ooc_host_check(clsa_context *ctx, uint64_t n, uint64_t cap, int index64);

/* One context's device buffers for chunks of up to cap (key, position)
 * pairs: the unit of work below runs on them.  Several contexts (GPUs)
 * would each open their own and take chunks from one queue. */
typedef struct clsa__ooc_dev {
    cl_mem keys, vals, skeys, svals;
    size_t cap;
    size_t table_bytes; /* what is left of the budget for the radix digit table */
} clsa__ooc_dev;

/* Sizes cap from the free budget (at most n); CLSA_ERR_DEVICE_MEMORY naming
 * the minimum when even the smallest chunk does not fit. */
clsa_status clsa__ooc_dev_open(clsa_context *ctx, uint64_t n, clsa__ooc_dev *d);
void clsa__ooc_dev_close(clsa_context *ctx, clsa__ooc_dev *d);

/* The unit of work: sorts keys[0..m) ascending with vals alongside on the
 * device of ctx (m <= d->cap, so the values stay 32-bit), results back in
 * the host arrays.  The values are the positions for n < 2^32; the 64-bit
 * layout passes chunk-local indexes 0..m-1 and maps them back to positions
 * on the host. */
clsa_status clsa__ooc_sort_chunk(clsa_context *ctx, clsa__ooc_dev *d, uint64_t *keys,
                                 uint32_t *vals, size_t m);

/* sa (n entries, 4 or 8 bytes) gets the suffix array of text (n symbols of
 * sym = 1, 2 or 4 bytes, host memory), any n (host bookkeeping in 64 bits
 * past 2^32 - 1), using at most the context's free device memory. */
clsa_status clsa__sa_out_of_core(clsa_context *ctx, const void *text, int sym, void *sa,
                                 int64_t n, int index64);
#endif
