/* The public libdivsufsort API of one drop-in library: export.c is built
 * as libdivsufsort.so.3 (DSS_W = 32) and libdivsufsort64.so.3 (DSS_W = 64),
 * each forwarding to libclsa_compat, which holds the shared context. */
#include "dss.h"

#if DSS_W == 64
#include <divsufsort64.h>
#define IDX saidx64_t
#define NAME(x) x##64
#define IMPL(x) clsa_dss64_##x
#define VERSION_FN divsufsort64_version
#else
#include <divsufsort.h>
#define IDX saidx_t
#define NAME(x) x
#define IMPL(x) clsa_dss32_##x
#define VERSION_FN divsufsort_version
#endif

#define API __attribute__((visibility("default")))

API saint_t NAME(divsufsort)(const sauchar_t *T, IDX *SA, IDX n)
{
    return IMPL(divsufsort)(T, SA, n);
}

API IDX NAME(divbwt)(const sauchar_t *T, sauchar_t *U, IDX *A, IDX n)
{
    return IMPL(divbwt)(T, U, A, n);
}

API const char *VERSION_FN(void)
{
    return CLSA_DSS_VERSION;
}

API saint_t NAME(bw_transform)(const sauchar_t *T, sauchar_t *U, IDX *SA, IDX n, IDX *idx)
{
    return IMPL(bw_transform)(T, U, SA, n, idx);
}

API saint_t NAME(inverse_bw_transform)(const sauchar_t *T, sauchar_t *U, IDX *A, IDX n, IDX idx)
{
    return IMPL(inverse_bw_transform)(T, U, A, n, idx);
}

API saint_t NAME(sufcheck)(const sauchar_t *T, const IDX *SA, IDX n, saint_t verbose)
{
    return IMPL(sufcheck)(T, SA, n, verbose);
}

API IDX NAME(sa_search)(const sauchar_t *T, IDX Tsize, const sauchar_t *P, IDX Psize,
                        const IDX *SA, IDX SAsize, IDX *left)
{
    return IMPL(sa_search)(T, Tsize, P, Psize, SA, SAsize, left);
}

API IDX NAME(sa_simplesearch)(const sauchar_t *T, IDX Tsize, const IDX *SA, IDX SAsize,
                              saint_t c, IDX *left)
{
    return IMPL(sa_simplesearch)(T, Tsize, SA, SAsize, c, left);
}
