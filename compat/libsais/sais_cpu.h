/* The CPU path of clsa's libsais API for 16-bit texts: the drop-in
 * libraries' SA-IS (compat/common/sais_tmpl.h) over uint16_t symbols, its
 * reduced texts handed to libclsa_compat's integer instances (cpu_sa.h,
 * which also serves bytes and integer texts).  0, or -2 when memory ran
 * out.  Also the libsais contexts, which hold nothing clsa needs. */
#ifndef CLSA_SAIS_CPU_H
#define CLSA_SAIS_CPU_H
#include <stdint.h>

int clsa_sais__cpu_u16_32(const uint16_t *T, int32_t *SA, int32_t n);
int clsa_sais__cpu_u16_64(const uint16_t *T, int64_t *SA, int64_t n);

/* A context of libsais_create_ctx and its kin: NULL for threads < 0
 * (libsais's answer) or without memory; freed with free(). */
void *clsa_sais__ctx_new(int32_t threads);
#endif
