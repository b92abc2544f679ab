/* SA-IS over 16-bit symbols (the common CPU path), and the contexts
 * (sais_cpu.h). */
#include "sais_cpu.h"

#include <stdlib.h>

#include "cpu_sa.h"

int clsa_sais__cpu_u16_32(const uint16_t *T, int32_t *SA, int32_t n)
{
    return clsa_compat_cpu_sa_u16(T, SA, n, 0);
}

int clsa_sais__cpu_u16_64(const uint16_t *T, int64_t *SA, int64_t n)
{
    return clsa_compat_cpu_sa_u16(T, SA, n, 1);
}

/* clsa keeps one context for the process, so a libsais context only needs
 * to exist; the thread count of the _omp forms is not used. */
void *clsa_sais__ctx_new(int32_t threads)
{
    return threads < 0 ? NULL : malloc(sizeof(int32_t));
}
