/* clsa's libsais API, 16-bit symbols with 64-bit indexes: the functions of
 * libsais 2.10.4's libsais16x64.h with the same names, prototypes and
 * results.  Rules as in libsais.h and libsais16.h. */
#ifndef LIBSAIS16X64_H
#define LIBSAIS16X64_H 1

#define LIBSAIS16X64_VERSION_MAJOR 2
#define LIBSAIS16X64_VERSION_MINOR 10
#define LIBSAIS16X64_VERSION_PATCH 4
#define LIBSAIS16X64_VERSION_STRING "2.10.4"

#if defined(__GNUC__)
#define LIBSAIS16X64_API __attribute__((visibility("default")))
#else
#define LIBSAIS16X64_API
#endif

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

LIBSAIS16X64_API int64_t libsais16x64(const uint16_t *T, int64_t *SA, int64_t n, int64_t fs,
                                      int64_t *freq);
LIBSAIS16X64_API int64_t libsais16x64_gsa(const uint16_t *T, int64_t *SA, int64_t n, int64_t fs,
                                          int64_t *freq);
LIBSAIS16X64_API int64_t libsais16x64_long(int64_t *T, int64_t *SA, int64_t n, int64_t k,
                                           int64_t fs);
LIBSAIS16X64_API int64_t libsais16x64_omp(const uint16_t *T, int64_t *SA, int64_t n, int64_t fs,
                                          int64_t *freq, int64_t threads);
LIBSAIS16X64_API int64_t libsais16x64_gsa_omp(const uint16_t *T, int64_t *SA, int64_t n, int64_t fs,
                                              int64_t *freq, int64_t threads);
LIBSAIS16X64_API int64_t libsais16x64_long_omp(int64_t *T, int64_t *SA, int64_t n, int64_t k,
                                               int64_t fs, int64_t threads);
LIBSAIS16X64_API int64_t libsais16x64_bwt(const uint16_t *T, uint16_t *U, int64_t *A, int64_t n,
                                          int64_t fs, int64_t *freq);
LIBSAIS16X64_API int64_t libsais16x64_bwt_aux(const uint16_t *T, uint16_t *U, int64_t *A, int64_t n,
                                              int64_t fs, int64_t *freq, int64_t r, int64_t *I);
LIBSAIS16X64_API int64_t libsais16x64_bwt_omp(const uint16_t *T, uint16_t *U, int64_t *A, int64_t n,
                                              int64_t fs, int64_t *freq, int64_t threads);
LIBSAIS16X64_API int64_t libsais16x64_bwt_aux_omp(const uint16_t *T, uint16_t *U, int64_t *A,
                                                  int64_t n, int64_t fs, int64_t *freq, int64_t r,
                                                  int64_t *I, int64_t threads);
LIBSAIS16X64_API int64_t libsais16x64_unbwt(const uint16_t *T, uint16_t *U, int64_t *A, int64_t n,
                                            const int64_t *freq, int64_t i);
LIBSAIS16X64_API int64_t libsais16x64_unbwt_aux(const uint16_t *T, uint16_t *U, int64_t *A,
                                                int64_t n, const int64_t *freq, int64_t r,
                                                const int64_t *I);
LIBSAIS16X64_API int64_t libsais16x64_unbwt_omp(const uint16_t *T, uint16_t *U, int64_t *A,
                                                int64_t n, const int64_t *freq, int64_t i,
                                                int64_t threads);
LIBSAIS16X64_API int64_t libsais16x64_unbwt_aux_omp(const uint16_t *T, uint16_t *U, int64_t *A,
                                                    int64_t n, const int64_t *freq, int64_t r,
                                                    const int64_t *I, int64_t threads);
LIBSAIS16X64_API int64_t libsais16x64_plcp(const uint16_t *T, const int64_t *SA, int64_t *PLCP,
                                           int64_t n);
LIBSAIS16X64_API int64_t libsais16x64_plcp_gsa(const uint16_t *T, const int64_t *SA, int64_t *PLCP,
                                               int64_t n);
LIBSAIS16X64_API int64_t libsais16x64_lcp(const int64_t *PLCP, const int64_t *SA, int64_t *LCP,
                                          int64_t n);
LIBSAIS16X64_API int64_t libsais16x64_plcp_omp(const uint16_t *T, const int64_t *SA, int64_t *PLCP,
                                               int64_t n, int64_t threads);
LIBSAIS16X64_API int64_t libsais16x64_plcp_gsa_omp(const uint16_t *T, const int64_t *SA,
                                                   int64_t *PLCP, int64_t n, int64_t threads);
LIBSAIS16X64_API int64_t libsais16x64_lcp_omp(const int64_t *PLCP, const int64_t *SA, int64_t *LCP,
                                              int64_t n, int64_t threads);

#ifdef __cplusplus
}
#endif
#endif
