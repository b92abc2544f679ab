/* Host implementations: libdivsufsort for the suffix array (the host
 * backend and the tests' reference), and the O(n)-time SA checker. */
#ifndef CLSA_CPU_REFERENCE_H
#define CLSA_CPU_REFERENCE_H
#include "clsa.h"

/* sa gets the suffix array of text[0..n) as 32- or 64-bit entries. */
clsa_status clsa__sa_host(clsa_context *ctx, const uint8_t *text, void *sa, int64_t n,
                          int index64);
/* The same for a text of n symbols of sym = 2 or 4 bytes (uint16_t,
 * uint32_t), n < 2^32 (host/cpu/int_sa.c). */
clsa_status clsa__sa_host_int(clsa_context *ctx, const void *text, int sym, void *sa, int64_t n,
                              int index64);
#endif
