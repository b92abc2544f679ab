/* clsa's libsais API, 16-bit family: the functions of libsais 2.10.4's
 * libsais16.h with the same names, prototypes and results, for texts of
 * uint16_t symbols (freq: 65536 entries).  Rules as in libsais.h; the GSA's
 * separator is the symbol 0.  Contexts and _omp thread counts as there. */
#ifndef LIBSAIS16_H
#define LIBSAIS16_H 1

#define LIBSAIS16_VERSION_MAJOR 2
#define LIBSAIS16_VERSION_MINOR 10
#define LIBSAIS16_VERSION_PATCH 4
#define LIBSAIS16_VERSION_STRING "2.10.4"

#if defined(__GNUC__)
#define LIBSAIS16_API __attribute__((visibility("default")))
#else
#define LIBSAIS16_API
#endif

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

LIBSAIS16_API void *libsais16_create_ctx(void);
LIBSAIS16_API void *libsais16_create_ctx_omp(int32_t threads);
LIBSAIS16_API void libsais16_free_ctx(void *ctx);
LIBSAIS16_API int32_t libsais16(const uint16_t *T, int32_t *SA, int32_t n, int32_t fs,
                                int32_t *freq);
LIBSAIS16_API int32_t libsais16_gsa(const uint16_t *T, int32_t *SA, int32_t n, int32_t fs,
                                    int32_t *freq);
LIBSAIS16_API int32_t libsais16_int(int32_t *T, int32_t *SA, int32_t n, int32_t k, int32_t fs);
LIBSAIS16_API int32_t libsais16_ctx(const void *ctx, const uint16_t *T, int32_t *SA, int32_t n,
                                    int32_t fs, int32_t *freq);
LIBSAIS16_API int32_t libsais16_gsa_ctx(const void *ctx, const uint16_t *T, int32_t *SA, int32_t n,
                                        int32_t fs, int32_t *freq);
LIBSAIS16_API int32_t libsais16_omp(const uint16_t *T, int32_t *SA, int32_t n, int32_t fs,
                                    int32_t *freq, int32_t threads);
LIBSAIS16_API int32_t libsais16_gsa_omp(const uint16_t *T, int32_t *SA, int32_t n, int32_t fs,
                                        int32_t *freq, int32_t threads);
LIBSAIS16_API int32_t libsais16_int_omp(int32_t *T, int32_t *SA, int32_t n, int32_t k, int32_t fs,
                                        int32_t threads);
LIBSAIS16_API int32_t libsais16_bwt(const uint16_t *T, uint16_t *U, int32_t *A, int32_t n,
                                    int32_t fs, int32_t *freq);
LIBSAIS16_API int32_t libsais16_bwt_aux(const uint16_t *T, uint16_t *U, int32_t *A, int32_t n,
                                        int32_t fs, int32_t *freq, int32_t r, int32_t *I);
LIBSAIS16_API int32_t libsais16_bwt_ctx(const void *ctx, const uint16_t *T, uint16_t *U, int32_t *A,
                                        int32_t n, int32_t fs, int32_t *freq);
LIBSAIS16_API int32_t libsais16_bwt_aux_ctx(const void *ctx, const uint16_t *T, uint16_t *U,
                                            int32_t *A, int32_t n, int32_t fs, int32_t *freq,
                                            int32_t r, int32_t *I);
LIBSAIS16_API int32_t libsais16_bwt_omp(const uint16_t *T, uint16_t *U, int32_t *A, int32_t n,
                                        int32_t fs, int32_t *freq, int32_t threads);
LIBSAIS16_API int32_t libsais16_bwt_aux_omp(const uint16_t *T, uint16_t *U, int32_t *A, int32_t n,
                                            int32_t fs, int32_t *freq, int32_t r, int32_t *I,
                                            int32_t threads);
LIBSAIS16_API void *libsais16_unbwt_create_ctx(void);
LIBSAIS16_API void *libsais16_unbwt_create_ctx_omp(int32_t threads);
LIBSAIS16_API void libsais16_unbwt_free_ctx(void *ctx);
LIBSAIS16_API int32_t libsais16_unbwt(const uint16_t *T, uint16_t *U, int32_t *A, int32_t n,
                                      const int32_t *freq, int32_t i);
LIBSAIS16_API int32_t libsais16_unbwt_ctx(const void *ctx, const uint16_t *T, uint16_t *U,
                                          int32_t *A, int32_t n, const int32_t *freq, int32_t i);
LIBSAIS16_API int32_t libsais16_unbwt_aux(const uint16_t *T, uint16_t *U, int32_t *A, int32_t n,
                                          const int32_t *freq, int32_t r, const int32_t *I);
LIBSAIS16_API int32_t libsais16_unbwt_aux_ctx(const void *ctx, const uint16_t *T, uint16_t *U,
                                              int32_t *A, int32_t n, const int32_t *freq, int32_t r,
                                              const int32_t *I);
LIBSAIS16_API int32_t libsais16_unbwt_omp(const uint16_t *T, uint16_t *U, int32_t *A, int32_t n,
                                          const int32_t *freq, int32_t i, int32_t threads);
LIBSAIS16_API int32_t libsais16_unbwt_aux_omp(const uint16_t *T, uint16_t *U, int32_t *A, int32_t n,
                                              const int32_t *freq, int32_t r, const int32_t *I,
                                              int32_t threads);
LIBSAIS16_API int32_t libsais16_plcp(const uint16_t *T, const int32_t *SA, int32_t *PLCP,
                                     int32_t n);
LIBSAIS16_API int32_t libsais16_plcp_gsa(const uint16_t *T, const int32_t *SA, int32_t *PLCP,
                                         int32_t n);
LIBSAIS16_API int32_t libsais16_lcp(const int32_t *PLCP, const int32_t *SA, int32_t *LCP,
                                    int32_t n);
LIBSAIS16_API int32_t libsais16_plcp_omp(const uint16_t *T, const int32_t *SA, int32_t *PLCP,
                                         int32_t n, int32_t threads);
LIBSAIS16_API int32_t libsais16_plcp_gsa_omp(const uint16_t *T, const int32_t *SA, int32_t *PLCP,
                                             int32_t n, int32_t threads);
LIBSAIS16_API int32_t libsais16_lcp_omp(const int32_t *PLCP, const int32_t *SA, int32_t *LCP,
                                        int32_t n, int32_t threads);

#ifdef __cplusplus
}
#endif
#endif
