/* clsa's host backend calls libdivsufsort by name.  Inside libclsa_compat
 * those names resolve here, hidden, to our own CPU code: never to the
 * drop-in's exported functions (which would route back to the device) nor
 * to another libdivsufsort in the process. */
#include <stdint.h>

#include "dss.h"

#define HIDDEN __attribute__((visibility("hidden")))

HIDDEN int32_t divsufsort(const uint8_t *t, int32_t *sa, int32_t n);
HIDDEN int32_t divsufsort64(const uint8_t *t, int64_t *sa, int64_t n);
HIDDEN int32_t divbwt(const uint8_t *t, uint8_t *u, int32_t *a, int32_t n);
HIDDEN int64_t divbwt64(const uint8_t *t, uint8_t *u, int64_t *a, int64_t n);
HIDDEN int32_t inverse_bw_transform(const uint8_t *t, uint8_t *u, int32_t *a, int32_t n,
                                    int32_t idx);
HIDDEN int32_t inverse_bw_transform64(const uint8_t *t, uint8_t *u, int64_t *a, int64_t n,
                                      int64_t idx);

int32_t divsufsort(const uint8_t *t, int32_t *sa, int32_t n)
{
    return clsa_dss32_divsufsort_host(t, sa, n);
}

int32_t divsufsort64(const uint8_t *t, int64_t *sa, int64_t n)
{
    return clsa_dss64_divsufsort_host(t, sa, n);
}

int32_t divbwt(const uint8_t *t, uint8_t *u, int32_t *a, int32_t n)
{
    return clsa_dss32_divbwt_host(t, u, a, n);
}

int64_t divbwt64(const uint8_t *t, uint8_t *u, int64_t *a, int64_t n)
{
    return clsa_dss64_divbwt_host(t, u, a, n);
}

int32_t inverse_bw_transform(const uint8_t *t, uint8_t *u, int32_t *a, int32_t n, int32_t idx)
{
    return clsa_dss32_inverse_bw_transform(t, u, a, n, idx);
}

int32_t inverse_bw_transform64(const uint8_t *t, uint8_t *u, int64_t *a, int64_t n, int64_t idx)
{
    return clsa_dss64_inverse_bw_transform(t, u, a, n, idx);
}
