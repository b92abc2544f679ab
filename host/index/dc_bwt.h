/* BWT and the FM-index's sampled suffix array without a suffix array in
 * host memory (host/index/dc_bwt.c, docs/SA.md "Genome scale"). */
#ifndef CLSA_INDEX_DC_BWT_H
#define CLSA_INDEX_DC_BWT_H
#include "clsa.h"

/* Samples of the suffix array: *rows gets a device buffer (the caller
 * frees it) of n / rate + 1 words (rate >= 1).  FM-index (by_row 0): word
 * j = the row of suffix j * rate among the n + 1 suffixes in order (row 0:
 * the empty suffix at n).  bwa's .sa (by_row 1): word j < n / rate =
 * SA[(j + 1) rate - 1] (the n rows without the empty suffix). */
typedef struct clsa__dc_samples {
    uint64_t rate;
    cl_mem *rows;
    int by_row;
} clsa__dc_samples;

/* Whether the BWT of a host text takes this route on ctx's device
 * (CLSA_TUNE dc_bwt: 0 never, 1 where the suffix array would leave the
 * device's memory, 2 always); past_alloc: whether it would. */
int clsa__dc_bwt_wanted(const clsa_context *ctx, int past_alloc);

/* Where the BWT goes: n bytes of host memory, or else a device buffer. */
typedef struct clsa__dc_out {
    uint8_t *host;
    cl_mem dev;
} clsa__dc_out;

/* The BWT (divbwt convention) into out and *primary of text (n >= 1
 * host bytes), and smp's rows where smp is not NULL, by buckets of
 * suffixes sorted on the device through a difference-cover sample; host
 * memory beyond the caller's arrays: the bucket table (at most 64 MB).
 * Texts of more than 15 distinct bytes, sizes whose sample or bucket
 * arrays the device cannot hold, and a device that refuses one of them
 * (CLSA_ERR_DEVICE_MEMORY) set *declined: the caller takes another route
 * (out may hold bytes of this one).  ctx locked. */
clsa_status clsa__dc_bwt(clsa_context *ctx, const uint8_t *text, int64_t n,
                         const clsa__dc_out *out, int64_t *primary, const clsa__dc_samples *smp,
                         int *declined);
#endif
