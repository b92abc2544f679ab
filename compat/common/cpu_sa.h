/* The drop-in libraries' CPU suffix sorter (clsa's multi-threaded SA-IS,
 * host/cpu/par_sa.c; no call into any libdivsufsort, so it cannot reach
 * itself through symbol interposition).  Threads: CLSA_THREADS, else the
 * cores the process may run on. */
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
/* 16-bit symbols (the libsais16 API), 32- or 64-bit entries. */
CLSA_COMPAT_API int clsa_compat_cpu_sa_u16(const uint16_t *text, void *sa, int64_t n,
                                           int index64);

#endif
