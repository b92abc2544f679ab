/* SA-IS over 16-bit symbols, and the contexts (sais_cpu.h). */
#include "sais_cpu.h"

#include <stdlib.h>

#include "cpu_sa.h"

#define SYM uint16_t
#define IDX int32_t
#define FN(x) x##_u16_32
#define REC(x) clsa_compat_cpu_sa_int32
#include "sais_tmpl.h"
#undef IDX
#undef FN
#undef REC

#define IDX int64_t
#define FN(x) x##_u16_64
#define REC(x) clsa_compat_cpu_sa_int64
#include "sais_tmpl.h"

int clsa_sais__cpu_u16_32(const uint16_t *T, int32_t *SA, int32_t n)
{
    return sais_u16_32(T, SA, n, 65536);
}

int clsa_sais__cpu_u16_64(const uint16_t *T, int64_t *SA, int64_t n)
{
    return sais_u16_64(T, SA, n, 65536);
}

/* clsa keeps one context for the process, so a libsais context only needs
 * to exist; the thread count of the _omp forms is not used. */
void *clsa_sais__ctx_new(int32_t threads)
{
    return threads < 0 ? NULL : malloc(sizeof(int32_t));
}
