/* SA-IS instances over integer symbols (sais_cpu.h). */
#include "sais_cpu.h"

#include <stdlib.h>

#define SYM int32_t
#define IDX int32_t
#define FN(x) x##_i32
#define REC(x) x##_i32
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

int clsa_sais__cpu_int_32(const int32_t *T, int32_t *SA, int32_t n, int32_t k)
{
    return sais_i32(T, SA, n, k);
}

int clsa_sais__cpu_int_64(const int64_t *T, int64_t *SA, int64_t n, int64_t k)
{
    return sais_i64(T, SA, n, k);
}
