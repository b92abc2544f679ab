/* libsais16x64.h: the 16-bit family with 64-bit indexes and its _omp forms. */
#include "libsais16x64.h"
#include "cpu_sa.h"
#include "sais_cpu.h"
#include "sais_route.h"

#include <stdlib.h>
#include <string.h>

#define SAIS_SYM uint16_t
#define SAIS_ALPHA 65536
#define SAIS_IDX int64_t
#define SAIS_UIDX uint64_t
#define F(x) s16x64_##x
#define DEV_SA clsa_sa64_u16
#define DEV_SA_INT(c, T, SA, n) clsa_sa64_u64(c, (const uint64_t *)(T), SA, n)
#define DEV_GSA clsa_gsa64_u16
#define DEV_BWT clsa_bwt_u16
#define CPU_SA clsa_sais__cpu_u16_64
#define CPU_INT clsa_compat_cpu_sa_int64
#include "sais_api.inc"

#define NAME(s) libsais16x64##s
#define NAME2(a, s) NAME2_(a, s)
#define NAME2_(a, s) a##s
#define INT_NAME libsais16x64_long
#include "sais_wrap.inc"
