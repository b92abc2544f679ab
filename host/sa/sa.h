/* Device suffix array construction (host/sa/prefix_doubling.c). */
#ifndef CLSA_SA_H
#define CLSA_SA_H
#include "runtime.h"

/* sa (n entries of 4 or 8 bytes) gets the suffix array of text (n bytes),
 * both device buffers on ctx.  Checks device memory before starting. */
clsa_status clsa__sa_device(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n, int index64);
#endif
