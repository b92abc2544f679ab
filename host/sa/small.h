/* The small-input suffix array (host/sa/small.c, docs/SA.md "Small inputs"). */
#ifndef CLSA_SA_SMALL_H
#define CLSA_SA_SMALL_H
#include "clsa.h"

/* Whether a byte text of n bytes takes the small-input path on ctx
 * (CLSA_TUNE small_min .. small_max; any sa_path forced keeps the general
 * path). */
int clsa__sa_small_wanted(const clsa_context *ctx, int64_t n);

/* out (n entries of 4 or 8 bytes) gets the suffix array of the byte text
 * (ranks = 0) or its inverse (ranks = 1).  *declined = 1 where this path
 * gives way to the general one (a group of the initial sort longer than
 * small_long, one symbol, a fault of the initial sort, no memory): out
 * holds nothing then and nothing else failed. */
clsa_status clsa__sa_small(clsa_context *ctx, cl_mem text, cl_mem out, int64_t n, int index64,
                           int ranks, int *declined);

#endif
