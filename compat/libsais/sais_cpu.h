/* The CPU path of clsa's libsais API beyond bytes: the drop-in libraries'
 * SA-IS (compat/common/sais_tmpl.h, whose byte instances libclsa_compat
 * exports as clsa_compat_cpu_sa32/64) over integer symbols in [0, k) and
 * 16-bit symbols.  Each returns 0, or -2 when memory ran out.  Also the
 * libsais contexts, which hold nothing clsa needs. */
#ifndef CLSA_SAIS_CPU_H
#define CLSA_SAIS_CPU_H
#include <stdint.h>

int clsa_sais__cpu_int_32(const int32_t *T, int32_t *SA, int32_t n, int32_t k);
int clsa_sais__cpu_int_64(const int64_t *T, int64_t *SA, int64_t n, int64_t k);
int clsa_sais__cpu_u16_32(const uint16_t *T, int32_t *SA, int32_t n);
int clsa_sais__cpu_u16_64(const uint16_t *T, int64_t *SA, int64_t n);

/* A context of libsais_create_ctx and its kin: NULL for threads < 0
 * (libsais's answer) or without memory; freed with free(). */
void *clsa_sais__ctx_new(int32_t threads);
#endif
