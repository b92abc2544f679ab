/* SA-IS instances over integer and 16-bit symbols, and the contexts
 * (sais_cpu.h). */
#include "sais_cpu.h"

#include <stdlib.h>

#define SYM int32_t
#define IDX int32_t
#define FN(x) x##_i32
#define REC(x) x##_i32
#include "sais_tmpl.h"
#undef SYM
#undef FN
#define SYM uint16_t
#define FN(x) x##_u16_32
#include "sais_tmpl.h"
#undef SYM
#undef IDX
#undef FN
#undef REC

#define SYM int64_t
#define IDX int64_t
#define FN(x) x##_i64
#define REC(x) x##_i64
#include "sais_tmpl.h"
#undef SYM
#undef FN
#define SYM uint16_t
#define FN(x) x##_u16_64
#include "sais_tmpl.h"

int clsa_sais__cpu_int_32(const int32_t *T, int32_t *SA, int32_t n, int32_t k)
{
    return sais_i32(T, SA, n, k);
}

int clsa_sais__cpu_int_64(const int64_t *T, int64_t *SA, int64_t n, int64_t k)
{
    return sais_i64(T, SA, n, k);
}

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
