/* SA-IS instances: bytes and reduced texts, 32- and 64-bit indexes. */
#include "cpu_sa.h"

#include <stdlib.h>

#define SYM int32_t
#define IDX int32_t
#define FN(x) x##_i32
#define REC(x) x##_i32
#include "sais_tmpl.h"
#undef SYM
#undef FN
#undef REC

#define SYM uint8_t
#define FN(x) x##_u8_32
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
#undef SYM
#undef FN
#undef REC

#define SYM uint8_t
#define FN(x) x##_u8_64
#define REC(x) x##_i64
#include "sais_tmpl.h"
#undef SYM
#undef IDX
#undef FN
#undef REC

int clsa_compat_cpu_sa32(const uint8_t *text, int32_t *sa, int32_t n)
{
    if (!text || !sa || n < 0) return -1;
    return sais_u8_32(text, sa, n, 256);
}

int clsa_compat_cpu_sa64(const uint8_t *text, int64_t *sa, int64_t n)
{
    if (!text || !sa || n < 0) return -1;
    return sais_u8_64(text, sa, n, 256);
}

int clsa_compat_cpu_sa_int32(const int32_t *text, int32_t *sa, int32_t n, int32_t k)
{
    return sais_i32(text, sa, n, k);
}

int clsa_compat_cpu_sa_int64(const int64_t *text, int64_t *sa, int64_t n, int64_t k)
{
    return sais_i64(text, sa, n, k);
}
