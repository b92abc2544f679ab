/* The drop-in libraries' CPU path: clsa's multi-threaded host sorter
 * (host/cpu/par_sa.c), threads from CLSA_THREADS or the cores. */
#include "cpu_sa.h"
#include "../../host/cpu/par_sa.h"

int clsa_compat_cpu_sa32(const uint8_t *text, int32_t *sa, int32_t n)
{
    return clsa__par_sa_bytes(text, sa, n, 0, NULL);
}

int clsa_compat_cpu_sa64(const uint8_t *text, int64_t *sa, int64_t n)
{
    return clsa__par_sa_bytes(text, sa, n, 1, NULL);
}

int clsa_compat_cpu_sa_int32(const int32_t *text, int32_t *sa, int32_t n, int32_t k)
{
    return clsa__par_sa_int32(text, sa, n, k, NULL);
}

int clsa_compat_cpu_sa_int64(const int64_t *text, int64_t *sa, int64_t n, int64_t k)
{
    return clsa__par_sa_int64(text, sa, n, k, NULL);
}

int clsa_compat_cpu_sa_u16(const uint16_t *text, void *sa, int64_t n, int index64)
{
    return clsa__par_sa_sym(text, 2, 65536, sa, n, index64, NULL);
}
