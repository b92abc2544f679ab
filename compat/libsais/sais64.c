/* libsais64.h: the 8-bit family with 64-bit indexes and its _omp forms. */
#include "libsais64.h"
#include "cpu_sa.h"
#include "sais_cpu.h"
#include "sais_route.h"

#include <stdlib.h>
#include <string.h>

#define SAIS_SYM uint8_t
#define SAIS_ALPHA 256
#define SAIS_IDX int64_t
#define SAIS_UIDX uint64_t
#define F(x) s64_##x
#define DEV_SA clsa_sa64
#define DEV_SA_INT(c, T, SA, n) clsa_sa64_u64(c, (const uint64_t *)(T), SA, n)
#define DEV_GSA clsa_gsa64
#define DEV_BWT clsa_bwt
#define DEV_UNBWT clsa_unbwt
#define CPU_SA clsa_compat_cpu_sa64
#define CPU_INT clsa_compat_cpu_sa_int64
#include "sais_api.inc"

#define NAME(s) libsais64##s
#define NAME2(a, s) NAME2_(a, s)
#define NAME2_(a, s) a##s
#define INT_NAME libsais64_long
#include "sais_wrap.inc"
