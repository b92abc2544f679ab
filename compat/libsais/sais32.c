/* libsais.h: the 32-bit family, its contexts and _omp forms. */
#include "libsais.h"
#include "cpu_sa.h"
#include "sais_cpu.h"
#include "sais_route.h"

#include <stdlib.h>
#include <string.h>

#define SAIS_IDX int32_t
#define SAIS_UIDX uint32_t
#define F(x) s32_##x
#define DEV_SA clsa_sa32
#define DEV_SA_INT(c, T, SA, n) clsa_sa32_u32(c, (const uint32_t *)(T), SA, n)
#define DEV_GSA clsa_gsa32
#define CPU_SA8 clsa_compat_cpu_sa32
#define CPU_INT clsa_sais__cpu_int_32
#include "sais_api.inc"

/* A libsais context: clsa needs none of its own (one per process), so it
 * only remembers that it was made.  The _omp thread count is not kept. */
typedef struct sais_ctx {
    int32_t threads;
} sais_ctx;

void *libsais_create_ctx(void)
{
    return libsais_create_ctx_omp(1);
}

void *libsais_create_ctx_omp(int32_t threads)
{
    if (threads < 0) return NULL;
    sais_ctx *c = malloc(sizeof *c);
    if (c) c->threads = threads;
    return c;
}

void libsais_free_ctx(void *ctx)
{
    free(ctx);
}

void *libsais_unbwt_create_ctx(void)
{
    return libsais_create_ctx_omp(1);
}

void *libsais_unbwt_create_ctx_omp(int32_t threads)
{
    return libsais_create_ctx_omp(threads);
}

void libsais_unbwt_free_ctx(void *ctx)
{
    free(ctx);
}

int32_t libsais(const uint8_t *T, int32_t *SA, int32_t n, int32_t fs, int32_t *freq)
{
    return s32_sa_entry(T, SA, n, fs, freq, 1);
}

int32_t libsais_gsa(const uint8_t *T, int32_t *SA, int32_t n, int32_t fs, int32_t *freq)
{
    return s32_gsa_entry(T, SA, n, fs, freq, 1);
}

int32_t libsais_int(int32_t *T, int32_t *SA, int32_t n, int32_t k, int32_t fs)
{
    (void)k;
    return s32_int_entry(T, SA, n, fs, 1);
}

int32_t libsais_ctx(const void *ctx, const uint8_t *T, int32_t *SA, int32_t n, int32_t fs,
                    int32_t *freq)
{
    return ctx ? s32_sa_entry(T, SA, n, fs, freq, 1) : -1;
}

int32_t libsais_gsa_ctx(const void *ctx, const uint8_t *T, int32_t *SA, int32_t n, int32_t fs,
                        int32_t *freq)
{
    return ctx ? s32_gsa_entry(T, SA, n, fs, freq, 1) : -1;
}

int32_t libsais_omp(const uint8_t *T, int32_t *SA, int32_t n, int32_t fs, int32_t *freq,
                    int32_t threads)
{
    return s32_sa_entry(T, SA, n, fs, freq, threads);
}

int32_t libsais_gsa_omp(const uint8_t *T, int32_t *SA, int32_t n, int32_t fs, int32_t *freq,
                        int32_t threads)
{
    return s32_gsa_entry(T, SA, n, fs, freq, threads);
}

int32_t libsais_int_omp(int32_t *T, int32_t *SA, int32_t n, int32_t k, int32_t fs,
                        int32_t threads)
{
    (void)k;
    return s32_int_entry(T, SA, n, fs, threads);
}

int32_t libsais_bwt(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n, int32_t fs,
                    int32_t *freq)
{
    return s32_bwt_entry(T, U, A, n, fs, freq, 1);
}

int32_t libsais_bwt_aux(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n, int32_t fs,
                        int32_t *freq, int32_t r, int32_t *I)
{
    return s32_bwt_aux_entry(T, U, A, n, fs, freq, r, I, 1);
}

int32_t libsais_bwt_ctx(const void *ctx, const uint8_t *T, uint8_t *U, int32_t *A, int32_t n,
                        int32_t fs, int32_t *freq)
{
    return ctx ? s32_bwt_entry(T, U, A, n, fs, freq, 1) : -1;
}

int32_t libsais_bwt_aux_ctx(const void *ctx, const uint8_t *T, uint8_t *U, int32_t *A,
                            int32_t n, int32_t fs, int32_t *freq, int32_t r, int32_t *I)
{
    return ctx ? s32_bwt_aux_entry(T, U, A, n, fs, freq, r, I, 1) : -1;
}

int32_t libsais_bwt_omp(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n, int32_t fs,
                        int32_t *freq, int32_t threads)
{
    return s32_bwt_entry(T, U, A, n, fs, freq, threads);
}

int32_t libsais_bwt_aux_omp(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n, int32_t fs,
                            int32_t *freq, int32_t r, int32_t *I, int32_t threads)
{
    return s32_bwt_aux_entry(T, U, A, n, fs, freq, r, I, threads);
}

/* libsais_unbwt is libsais_unbwt_aux with one sample: r = n, I = &i. */
int32_t libsais_unbwt(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n, const int32_t *freq,
                      int32_t i)
{
    (void)freq;
    return s32_unbwt_entry(T, U, A, n, n, &i, 1, 1);
}

int32_t libsais_unbwt_ctx(const void *ctx, const uint8_t *T, uint8_t *U, int32_t *A, int32_t n,
                          const int32_t *freq, int32_t i)
{
    (void)freq;
    return s32_unbwt_entry(T, U, A, n, n, &i, 1, ctx != NULL);
}

int32_t libsais_unbwt_aux(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n,
                          const int32_t *freq, int32_t r, const int32_t *I)
{
    (void)freq;
    return s32_unbwt_entry(T, U, A, n, r, I, 1, 1);
}

int32_t libsais_unbwt_aux_ctx(const void *ctx, const uint8_t *T, uint8_t *U, int32_t *A,
                              int32_t n, const int32_t *freq, int32_t r, const int32_t *I)
{
    (void)freq;
    return s32_unbwt_entry(T, U, A, n, r, I, 1, ctx != NULL);
}

int32_t libsais_unbwt_omp(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n,
                          const int32_t *freq, int32_t i, int32_t threads)
{
    (void)freq;
    return s32_unbwt_entry(T, U, A, n, n, &i, threads, 1);
}

int32_t libsais_unbwt_aux_omp(const uint8_t *T, uint8_t *U, int32_t *A, int32_t n,
                              const int32_t *freq, int32_t r, const int32_t *I, int32_t threads)
{
    (void)freq;
    return s32_unbwt_entry(T, U, A, n, r, I, threads, 1);
}

int32_t libsais_plcp(const uint8_t *T, const int32_t *SA, int32_t *PLCP, int32_t n)
{
    return s32_plcp_entry(T, 0, SA, PLCP, n, 1);
}

int32_t libsais_plcp_gsa(const uint8_t *T, const int32_t *SA, int32_t *PLCP, int32_t n)
{
    return s32_plcp_entry(T, 1, SA, PLCP, n, 1);
}

int32_t libsais_plcp_int(const int32_t *T, const int32_t *SA, int32_t *PLCP, int32_t n)
{
    return s32_plcp_entry(T, 2, SA, PLCP, n, 1);
}

int32_t libsais_lcp(const int32_t *PLCP, const int32_t *SA, int32_t *LCP, int32_t n)
{
    return s32_lcp_entry(PLCP, SA, LCP, n, 1);
}

int32_t libsais_plcp_omp(const uint8_t *T, const int32_t *SA, int32_t *PLCP, int32_t n,
                         int32_t threads)
{
    return s32_plcp_entry(T, 0, SA, PLCP, n, threads);
}

int32_t libsais_plcp_gsa_omp(const uint8_t *T, const int32_t *SA, int32_t *PLCP, int32_t n,
                             int32_t threads)
{
    return s32_plcp_entry(T, 1, SA, PLCP, n, threads);
}

int32_t libsais_plcp_int_omp(const int32_t *T, const int32_t *SA, int32_t *PLCP, int32_t n,
                             int32_t threads)
{
    return s32_plcp_entry(T, 2, SA, PLCP, n, threads);
}

int32_t libsais_lcp_omp(const int32_t *PLCP, const int32_t *SA, int32_t *LCP, int32_t n,
                        int32_t threads)
{
    return s32_lcp_entry(PLCP, SA, LCP, n, threads);
}
