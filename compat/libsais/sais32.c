/* libsais.h: the 8-bit family with 32-bit indexes, its contexts and _omp forms. */
#include "libsais.h"
#include "cpu_sa.h"
#include "sais_cpu.h"
#include "sais_route.h"

#include <stdlib.h>
#include <string.h>

#define SAIS_SYM uint8_t
#define SAIS_ALPHA 256
#define SAIS_IDX int32_t
#define SAIS_UIDX uint32_t
#define F(x) s32_##x
#define DEV_SA clsa_sa32
#define DEV_SA_INT(c, T, SA, n) clsa_sa32_u32(c, (const uint32_t *)(T), SA, n)
#define DEV_GSA clsa_gsa32
#define DEV_BWT clsa_bwt
#define DEV_UNBWT clsa_unbwt
#define CPU_SA clsa_compat_cpu_sa32
#define CPU_INT clsa_compat_cpu_sa_int32
#include "sais_api.inc"

#define NAME(s) libsais##s
#define NAME2(a, s) NAME2_(a, s)
#define NAME2_(a, s) a##s
#define INT_NAME libsais_int
#define SAIS_CTX
#define SAIS_PLCP_INT
#include "sais_wrap.inc"
