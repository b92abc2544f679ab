/* The CPU path of clsa's libsais API for integer texts (symbols in
 * [0, k)): the drop-in libraries' SA-IS (compat/common/sais_tmpl.h), whose
 * byte instances libclsa_compat exports as clsa_compat_cpu_sa32/64.
 * 0, or -2 when memory ran out. */
#ifndef CLSA_SAIS_CPU_H
#define CLSA_SAIS_CPU_H
#include <stdint.h>

int clsa_sais__cpu_int_32(const int32_t *T, int32_t *SA, int32_t n, int32_t k);
int clsa_sais__cpu_int_64(const int64_t *T, int64_t *SA, int64_t n, int64_t k);
#endif
