/* clsa's libsais API: the functions of libsais 2.10.4's libsais.h, same
 * names, prototypes and results, built on clsa (a GPU through OpenCL for
 * large inputs, the CPU below the crossover or without a device).  A
 * program switches by including this header in place of libsais's and
 * linking -lclsa_sais in place of -lsais.
 *
 * Common rules (as libsais):
 * - T is the input, n its length; SA/A receive n entries; fs is the extra
 *   space after SA/A (accepted, not needed here); freq, when not NULL,
 *   receives the count of every byte value (256 entries).
 * - Returns 0 (libsais_bwt: the primary index) on success, -1 for a bad
 *   argument, -2 when memory ran out.
 * - The _omp forms take a thread count (>= 0, else -1); the work is
 *   placed by clsa whatever the count.
 * - A context from libsais_create_ctx / libsais_unbwt_create_ctx holds
 *   nothing but its thread count: clsa keeps one context for the process.
 * Suffix order is plain lexicographic order of unsigned symbols, a proper
 * prefix first (no sentinel is needed).  BWT layout: U[0] = T[n-1], then
 * T[SA[j]-1] for every SA[j] != 0 in suffix order; the primary index is 1 +
 * the rank of suffix 0.  I[k] (bwt_aux) is 1 + the rank of suffix k * r,
 * k = 0 .. (n-1)/r, so I[0] is the primary index.  The GSA of strings
 * separated by 0 (T[n-1] = 0, no empty string) orders a separator below
 * every byte and an earlier separator below a later one. */
#ifndef LIBSAIS_H
#define LIBSAIS_H 1

#define LIBSAIS_VERSION_MAJOR 2
#define LIBSAIS_VERSION_MINOR 10
#define LIBSAIS_VERSION_PATCH 4
#define LIBSAIS_VERSION_STRING "2.10.4"

#if defined(__GNUC__)
#define LIBSAIS_API __attribute__((visibility("default")))
#else
#define LIBSAIS_API
#endif

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- contexts --------------------------------------------------------- */
LIBSAIS_API void *libsais_create_ctx(void);
LIBSAIS_API void *libsais_create_ctx_omp(int32_t threads);
LIBSAIS_API void libsais_free_ctx(void *ctx);
LIBSAIS_API void *libsais_unbwt_create_ctx(void);
LIBSAIS_API void *libsais_unbwt_create_ctx_omp(int32_t threads);
LIBSAIS_API void libsais_unbwt_free_ctx(void *ctx);

/* ---- suffix arrays ------------------------------------------------------ */
/* SA[0..n) = suffix array of T[0..n). */
LIBSAIS_API int32_t libsais(const uint8_t *T, int32_t *SA, int32_t n, int32_t fs, int32_t *freq);
/* Generalized suffix array of strings separated by 0 (T[n-1] must be 0). */
LIBSAIS_API int32_t libsais_gsa(const uint8_t *T, int32_t *SA, int32_t n, int32_t fs,
                                int32_t *freq);
/* Integer text, symbols in [0, k); T is left unchanged. */
LIBSAIS_API int32_t libsais_int(int32_t *T, int32_t *SA, int32_t n, int32_t k, int32_t fs);
LIBSAIS_API int32_t libsais_ctx(const void *ctx, const uint8_t *T, int32_t *SA, int32_t n,
                                int32_t fs, int32_t *freq);
LIBSAIS_API int32_t libsais_gsa_ctx(const void *ctx, const uint8_t *T, int32_t *SA, int32_t n,
                                    int32_t fs, int32_t *freq);
LIBSAIS_API int32_t libsais_omp(const uint8_t *T, int32_t *SA, int32_t n, int32_t fs,
                                int32_t *freq, int32_t threads);
LIBSAIS_API int32_t libsais_gsa_omp(const uint8_t *T, int32_t *SA, int32_t n, int32_t fs,
                                    int32_t *freq, int32_t threads);
LIBSAIS_API int32_t libsais_int_omp(int32_t *T, int32_t *SA, int32_t n, int32_t k, int32_t fs,
                                    int32_t threads);

/* ---- Burrows-Wheeler transform ----------------------------------------- */
/* U[0..n) = BWT of T (U may be T), A is n + fs entries of work space;
 * returns the primary index (n for n <= 1). */
LIBSAIS_API int32_t libsais_bwt(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n, int32_t fs,
                                int32_t *freq);
/* The same with I[0..(n-1)/r] (r a power of 2, >= 2) the sampled ranks;
 * returns 0. */
LIBSAIS_API int32_t libsais_bwt_aux(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n,
                                    int32_t fs, int32_t *freq, int32_t r, int32_t *I);
LIBSAIS_API int32_t libsais_bwt_ctx(const void *ctx, const uint8_t *T, uint8_t *U, int32_t *A,
                                    int32_t n, int32_t fs, int32_t *freq);
LIBSAIS_API int32_t libsais_bwt_aux_ctx(const void *ctx, const uint8_t *T, uint8_t *U,
                                        int32_t *A, int32_t n, int32_t fs, int32_t *freq,
                                        int32_t r, int32_t *I);
LIBSAIS_API int32_t libsais_bwt_omp(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n,
                                    int32_t fs, int32_t *freq, int32_t threads);
LIBSAIS_API int32_t libsais_bwt_aux_omp(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n,
                                        int32_t fs, int32_t *freq, int32_t r, int32_t *I,
                                        int32_t threads);

/* ---- inverse BWT ---------------------------------------------------------- */
/* T[0..n) = BWT with primary index i -> U[0..n) (U may be T); A holds n + 1
 * entries; freq, when not NULL, is T's byte counts (as libsais_bwt gave). */
LIBSAIS_API int32_t libsais_unbwt(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n,
                                  const int32_t *freq, int32_t i);
LIBSAIS_API int32_t libsais_unbwt_ctx(const void *ctx, const uint8_t *T, uint8_t *U, int32_t *A,
                                      int32_t n, const int32_t *freq, int32_t i);
/* The same from the sampled ranks of libsais_bwt_aux (r, I). */
LIBSAIS_API int32_t libsais_unbwt_aux(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n,
                                      const int32_t *freq, int32_t r, const int32_t *I);
LIBSAIS_API int32_t libsais_unbwt_aux_ctx(const void *ctx, const uint8_t *T, uint8_t *U,
                                          int32_t *A, int32_t n, const int32_t *freq, int32_t r,
                                          const int32_t *I);
LIBSAIS_API int32_t libsais_unbwt_omp(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n,
                                      const int32_t *freq, int32_t i, int32_t threads);
LIBSAIS_API int32_t libsais_unbwt_aux_omp(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n,
                                          const int32_t *freq, int32_t r, const int32_t *I,
                                          int32_t threads);

/* ---- LCP -------------------------------------------------------------------- */
/* PLCP[p] = longest common prefix of suffix p and the suffix before it in
 * SA (0 for the first); the _gsa form stops at separators; the _int form
 * reads an integer text. */
LIBSAIS_API int32_t libsais_plcp(const uint8_t *T, const int32_t *SA, int32_t *PLCP, int32_t n);
LIBSAIS_API int32_t libsais_plcp_gsa(const uint8_t *T, const int32_t *SA, int32_t *PLCP,
                                     int32_t n);
LIBSAIS_API int32_t libsais_plcp_int(const int32_t *T, const int32_t *SA, int32_t *PLCP,
                                     int32_t n);
/* LCP[j] = PLCP[SA[j]] (LCP may be SA). */
LIBSAIS_API int32_t libsais_lcp(const int32_t *PLCP, const int32_t *SA, int32_t *LCP, int32_t n);
LIBSAIS_API int32_t libsais_plcp_omp(const uint8_t *T, const int32_t *SA, int32_t *PLCP,
                                     int32_t n, int32_t threads);
LIBSAIS_API int32_t libsais_plcp_gsa_omp(const uint8_t *T, const int32_t *SA, int32_t *PLCP,
                                         int32_t n, int32_t threads);
LIBSAIS_API int32_t libsais_plcp_int_omp(const int32_t *T, const int32_t *SA, int32_t *PLCP,
                                         int32_t n, int32_t threads);
LIBSAIS_API int32_t libsais_lcp_omp(const int32_t *PLCP, const int32_t *SA, int32_t *LCP,
                                    int32_t n, int32_t threads);

#ifdef __cplusplus
}
#endif
#endif
