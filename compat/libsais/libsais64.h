/* clsa's libsais API, 64-bit family: the functions of libsais 2.10.4's
 * libsais64.h with the same names, prototypes and results (64-bit lengths
 * and indexes, freq of 256 int64_t).  Rules as in libsais.h; libsais64_long
 * takes a text of 64-bit integer symbols in [0, k). */
#ifndef LIBSAIS64_H
#define LIBSAIS64_H 1

#define LIBSAIS64_VERSION_MAJOR 2
#define LIBSAIS64_VERSION_MINOR 10
#define LIBSAIS64_VERSION_PATCH 4
#define LIBSAIS64_VERSION_STRING "2.10.4"

#if defined(__GNUC__)
#define LIBSAIS64_API __attribute__((visibility("default")))
#else
#define LIBSAIS64_API
#endif

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

LIBSAIS64_API int64_t libsais64(const uint8_t *T, int64_t *SA, int64_t n, int64_t fs,
                                int64_t *freq);
LIBSAIS64_API int64_t libsais64_gsa(const uint8_t *T, int64_t *SA, int64_t n, int64_t fs,
                                    int64_t *freq);
LIBSAIS64_API int64_t libsais64_long(int64_t *T, int64_t *SA, int64_t n, int64_t k, int64_t fs);
LIBSAIS64_API int64_t libsais64_omp(const uint8_t *T, int64_t *SA, int64_t n, int64_t fs,
                                    int64_t *freq, int64_t threads);
LIBSAIS64_API int64_t libsais64_gsa_omp(const uint8_t *T, int64_t *SA, int64_t n, int64_t fs,
                                        int64_t *freq, int64_t threads);
LIBSAIS64_API int64_t libsais64_long_omp(int64_t *T, int64_t *SA, int64_t n, int64_t k,
                                         int64_t fs, int64_t threads);

LIBSAIS64_API int64_t libsais64_bwt(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n,
                                    int64_t fs, int64_t *freq);
LIBSAIS64_API int64_t libsais64_bwt_aux(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n,
                                        int64_t fs, int64_t *freq, int64_t r, int64_t *I);
LIBSAIS64_API int64_t libsais64_bwt_omp(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n,
                                        int64_t fs, int64_t *freq, int64_t threads);
LIBSAIS64_API int64_t libsais64_bwt_aux_omp(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n,
                                            int64_t fs, int64_t *freq, int64_t r, int64_t *I,
                                            int64_t threads);

LIBSAIS64_API int64_t libsais64_unbwt(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n,
                                      const int64_t *freq, int64_t i);
LIBSAIS64_API int64_t libsais64_unbwt_aux(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n,
                                          const int64_t *freq, int64_t r, const int64_t *I);
LIBSAIS64_API int64_t libsais64_unbwt_omp(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n,
                                          const int64_t *freq, int64_t i, int64_t threads);
LIBSAIS64_API int64_t libsais64_unbwt_aux_omp(const uint8_t *T, uint8_t *U, int64_t *A,
                                              int64_t n, const int64_t *freq, int64_t r,
                                              const int64_t *I, int64_t threads);

LIBSAIS64_API int64_t libsais64_plcp(const uint8_t *T, const int64_t *SA, int64_t *PLCP,
                                     int64_t n);
LIBSAIS64_API int64_t libsais64_plcp_gsa(const uint8_t *T, const int64_t *SA, int64_t *PLCP,
                                         int64_t n);
LIBSAIS64_API int64_t libsais64_lcp(const int64_t *PLCP, const int64_t *SA, int64_t *LCP,
                                    int64_t n);
LIBSAIS64_API int64_t libsais64_plcp_omp(const uint8_t *T, const int64_t *SA, int64_t *PLCP,
                                         int64_t n, int64_t threads);
LIBSAIS64_API int64_t libsais64_plcp_gsa_omp(const uint8_t *T, const int64_t *SA, int64_t *PLCP,
                                             int64_t n, int64_t threads);
LIBSAIS64_API int64_t libsais64_lcp_omp(const int64_t *PLCP, const int64_t *SA, int64_t *LCP,
                                        int64_t n, int64_t threads);

#ifdef __cplusplus
}
#endif
#endif
