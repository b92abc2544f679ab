/* Host implementations: libdivsufsort for the suffix array (the host
 * backend and the tests' reference), and the O(n)-time SA checker. */
#ifndef CLSA_CPU_REFERENCE_H
#define CLSA_CPU_REFERENCE_H
#include "runtime.h"

/* sa gets the suffix array of text[0..n) as 32- or 64-bit entries. */
clsa_status clsa__sa_host(clsa_context *ctx, const uint8_t *text, void *sa, int64_t n,
                          int index64);
#endif
