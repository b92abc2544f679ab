/* libsais64.h: the 64-bit family and its _omp forms. */
#include "libsais64.h"
#include "cpu_sa.h"
#include "sais_cpu.h"
#include "sais_route.h"

#include <stdlib.h>
#include <string.h>

#define SAIS_IDX int64_t
#define SAIS_UIDX uint64_t
#define F(x) s64_##x
#define DEV_SA clsa_sa64
#define DEV_SA_INT(c, T, SA, n) clsa_sa64_u64(c, (const uint64_t *)(T), SA, n)
#define DEV_GSA clsa_gsa64
#define CPU_SA8 clsa_compat_cpu_sa64
#define CPU_INT clsa_sais__cpu_int_64
#include "sais_api.inc"

int64_t libsais64(const uint8_t *T, int64_t *SA, int64_t n, int64_t fs, int64_t *freq)
{
    return s64_sa_entry(T, SA, n, fs, freq, 1);
}

int64_t libsais64_gsa(const uint8_t *T, int64_t *SA, int64_t n, int64_t fs, int64_t *freq)
{
    return s64_gsa_entry(T, SA, n, fs, freq, 1);
}

int64_t libsais64_long(int64_t *T, int64_t *SA, int64_t n, int64_t k, int64_t fs)
{
    (void)k;
    return s64_int_entry(T, SA, n, fs, 1);
}

int64_t libsais64_omp(const uint8_t *T, int64_t *SA, int64_t n, int64_t fs, int64_t *freq,
                      int64_t threads)
{
    return s64_sa_entry(T, SA, n, fs, freq, threads);
}

int64_t libsais64_gsa_omp(const uint8_t *T, int64_t *SA, int64_t n, int64_t fs, int64_t *freq,
                          int64_t threads)
{
    return s64_gsa_entry(T, SA, n, fs, freq, threads);
}

int64_t libsais64_long_omp(int64_t *T, int64_t *SA, int64_t n, int64_t k, int64_t fs,
                           int64_t threads)
{
    (void)k;
    return s64_int_entry(T, SA, n, fs, threads);
}

int64_t libsais64_bwt(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n, int64_t fs,
                      int64_t *freq)
{
    return s64_bwt_entry(T, U, A, n, fs, freq, 1);
}

int64_t libsais64_bwt_aux(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n, int64_t fs,
                          int64_t *freq, int64_t r, int64_t *I)
{
    return s64_bwt_aux_entry(T, U, A, n, fs, freq, r, I, 1);
}

int64_t libsais64_bwt_omp(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n, int64_t fs,
                          int64_t *freq, int64_t threads)
{
    return s64_bwt_entry(T, U, A, n, fs, freq, threads);
}

int64_t libsais64_bwt_aux_omp(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n, int64_t fs,
                              int64_t *freq, int64_t r, int64_t *I, int64_t threads)
{
    return s64_bwt_aux_entry(T, U, A, n, fs, freq, r, I, threads);
}

int64_t libsais64_unbwt(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n,
                        const int64_t *freq, int64_t i)
{
    (void)freq;
    return s64_unbwt_entry(T, U, A, n, n, &i, 1, 1);
}

int64_t libsais64_unbwt_aux(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n,
                            const int64_t *freq, int64_t r, const int64_t *I)
{
    (void)freq;
    return s64_unbwt_entry(T, U, A, n, r, I, 1, 1);
}

int64_t libsais64_unbwt_omp(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n,
                            const int64_t *freq, int64_t i, int64_t threads)
{
    (void)freq;
    return s64_unbwt_entry(T, U, A, n, n, &i, threads, 1);
}

int64_t libsais64_unbwt_aux_omp(const uint8_t *T, uint8_t *U, int64_t *A, int64_t n,
                                const int64_t *freq, int64_t r, const int64_t *I,
                                int64_t threads)
{
    (void)freq;
    return s64_unbwt_entry(T, U, A, n, r, I, threads, 1);
}

int64_t libsais64_plcp(const uint8_t *T, const int64_t *SA, int64_t *PLCP, int64_t n)
{
    return s64_plcp_entry(T, 0, SA, PLCP, n, 1);
}

int64_t libsais64_plcp_gsa(const uint8_t *T, const int64_t *SA, int64_t *PLCP, int64_t n)
{
    return s64_plcp_entry(T, 1, SA, PLCP, n, 1);
}

int64_t libsais64_lcp(const int64_t *PLCP, const int64_t *SA, int64_t *LCP, int64_t n)
{
    return s64_lcp_entry(PLCP, SA, LCP, n, 1);
}

int64_t libsais64_plcp_omp(const uint8_t *T, const int64_t *SA, int64_t *PLCP, int64_t n,
                           int64_t threads)
{
    return s64_plcp_entry(T, 0, SA, PLCP, n, threads);
}

int64_t libsais64_plcp_gsa_omp(const uint8_t *T, const int64_t *SA, int64_t *PLCP, int64_t n,
                               int64_t threads)
{
    return s64_plcp_entry(T, 1, SA, PLCP, n, threads);
}

int64_t libsais64_lcp_omp(const int64_t *PLCP, const int64_t *SA, int64_t *LCP, int64_t n,
                          int64_t threads)
{
    return s64_lcp_entry(PLCP, SA, LCP, n, threads);
}
