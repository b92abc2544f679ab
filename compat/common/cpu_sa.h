/* The drop-in libraries' CPU suffix sorter (our own SA-IS; no call into any
 * libdivsufsort, so it cannot reach itself through symbol interposition). */
#ifndef CLSA_COMPAT_CPU_SA_H
#define CLSA_COMPAT_CPU_SA_H

#include <stdint.h>

#include "compat_ctx.h"

/* sa[0..n) = suffix array of text[0..n).  0; -1 bad arguments (NULL, n < 0);
 * -2 out of memory. */
CLSA_COMPAT_API int clsa_compat_cpu_sa32(const uint8_t *text, int32_t *sa, int32_t n);
CLSA_COMPAT_API int clsa_compat_cpu_sa64(const uint8_t *text, int64_t *sa, int64_t n);

/* The same over integer symbols in [0, k) (SA-IS's reduced texts; the
 * libsais API's integer alphabets): 0, or -2 out of memory. */
CLSA_COMPAT_API int clsa_compat_cpu_sa_int32(const int32_t *text, int32_t *sa, int32_t n,
                                             int32_t k);
CLSA_COMPAT_API int clsa_compat_cpu_sa_int64(const int64_t *text, int64_t *sa, int64_t n,
                                             int64_t k);

#endif
