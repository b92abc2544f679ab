/* libsais16.h: the 16-bit family with 32-bit indexes, its contexts and _omp forms. */
#include "libsais16.h"
#include "cpu_sa.h"
#include "sais_cpu.h"
#include "sais_route.h"

#include <stdlib.h>
#include <string.h>

#define SAIS_SYM uint16_t
#define SAIS_ALPHA 65536
#define SAIS_IDX int32_t
#define SAIS_UIDX uint32_t
#define F(x) s16_##x
#define DEV_SA clsa_sa32_u16
#define DEV_SA_INT(c, T, SA, n) clsa_sa32_u32(c, (const uint32_t *)(T), SA, n)
#define DEV_GSA clsa_gsa32_u16
#define DEV_BWT clsa_bwt_u16
#define CPU_SA clsa_sais__cpu_u16_32
#define CPU_INT clsa_compat_cpu_sa_int32
#include "sais_api.inc"

#define NAME(s) libsais16##s
#define NAME2(a, s) NAME2_(a, s)
#define NAME2_(a, s) a##s
#define INT_NAME libsais16_int
#define SAIS_CTX
#include "sais_wrap.inc"
