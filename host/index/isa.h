/* Inverse suffix array on the device (host/index/isa.c). */
#ifndef CLSA_INDEX_ISA_H
#define CLSA_INDEX_ISA_H
#include "clsa.h"

/* isa[sa[i]] = i for i in [0, n); sa and isa are different device buffers
 * of n entries of 4 (index64 = 0) or 8 bytes.  Entries of sa outside
 * [0, n) are skipped (never written out of bounds). */
clsa_status clsa__isa_device(clsa_context *ctx, cl_mem sa, cl_mem isa, int64_t n, int index64);
#endif
