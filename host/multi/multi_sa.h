/* The suffix array of one text on several contexts of this process
 * (multi_sa.c). */
#ifndef CLSA_MULTI_SA_H
#define CLSA_MULTI_SA_H
#include "clsa.h"

/* clsa_sa32_multi (index64 0) / clsa_sa64_multi (1), arguments and all:
 * every member's message is set on failure. */
clsa_status clsa__sa_multi(clsa_context *const *ctxs, int k, const uint8_t *text, void *sa,
                           int64_t n, int index64);

#endif
