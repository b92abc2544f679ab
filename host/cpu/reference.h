/* Host implementations: the suffix array of the host backend (par_sa.c,
 * multi-threaded) and the O(n)-time SA checker. */
#ifndef CLSA_CPU_REFERENCE_H
#define CLSA_CPU_REFERENCE_H
#include "clsa.h"

/* sa gets the suffix array of text[0..n) as 32- or 64-bit entries. */
clsa_status clsa__sa_host(clsa_context *ctx, const uint8_t *text, void *sa, int64_t n,
                          int index64);
/* The host sorter over sym-byte symbols (1, 2, 4; unsigned, all < k). */
clsa_status clsa__sa_host_sorter(clsa_context *ctx, const void *text, int sym, int64_t k,
                                 void *sa, int64_t n, int index64);
/* The same for a text of n symbols of sym = 2 or 4 bytes (uint16_t,
 * uint32_t), n < 2^32 (host/cpu/int_sa.c). */
clsa_status clsa__sa_host_int(clsa_context *ctx, const void *text, int sym, void *sa, int64_t n,
                              int index64);
#endif
