/* Inverse suffix array on the device (host/index/isa.c). */
#ifndef CLSA_INDEX_ISA_H
#define CLSA_INDEX_ISA_H
#include "clsa.h"

/* isa[sa[i]] = i for i in [0, n); sa and isa are different device buffers
 * of n entries of 4 (index64 = 0) or 8 bytes.  Entries of sa outside
 * [0, n) are skipped (never written out of bounds). */
clsa_status clsa__isa_device(clsa_context *ctx, cl_mem sa, cl_mem isa, int64_t n, int index64);
/* The ISA of text (sa NULL: its suffix array is built) or of the host
 * suffix array sa, into isa (4 or 8 bytes an entry, per index64); the _mem
 * form on device buffers (index_api.c's entry points). */
clsa_status clsa__isa_run(clsa_context *ctx, const uint8_t *text, const void *sa, void *isa,
                          int64_t n, int index64);
clsa_status clsa__isa_mem_run(clsa_context *ctx, cl_mem sa, cl_mem isa, int64_t n, int index64);
#endif
