/* The libdivsufsort API inside libclsa_compat, both widths, under clsa_dss32_
 * and clsa_dss64_ names: the drop-in libraries (export.c) forward to them.
 * The _host twins never route to the device: they answer clsa's own host
 * backend (aliases made by the link: compat/CMakeLists.txt). */
#ifndef CLSA_COMPAT_DSS_H
#define CLSA_COMPAT_DSS_H

#include <stdint.h>

#include "compat_ctx.h"

#define DSS_DECLARE(W, IDX)                                                                  \
    CLSA_COMPAT_API int32_t clsa_dss##W##_divsufsort(const uint8_t *t, IDX *sa, IDX n);      \
    CLSA_COMPAT_API int32_t clsa_dss##W##_divsufsort_host(const uint8_t *t, IDX *sa, IDX n); \
    CLSA_COMPAT_API IDX clsa_dss##W##_divbwt(const uint8_t *t, uint8_t *u, IDX *a, IDX n);   \
    CLSA_COMPAT_API IDX clsa_dss##W##_divbwt_host(const uint8_t *t, uint8_t *u, IDX *a, IDX n); \
    CLSA_COMPAT_API int32_t clsa_dss##W##_bw_transform(const uint8_t *t, uint8_t *u, IDX *sa, \
                                                       IDX n, IDX *idx);                     \
    CLSA_COMPAT_API int32_t clsa_dss##W##_inverse_bw_transform(const uint8_t *t, uint8_t *u, \
                                                               IDX *a, IDX n, IDX idx);      \
    CLSA_COMPAT_API int32_t clsa_dss##W##_sufcheck(const uint8_t *t, const IDX *sa, IDX n,   \
                                                   int32_t verbose);                         \
    CLSA_COMPAT_API IDX clsa_dss##W##_sa_search(const uint8_t *t, IDX tn, const uint8_t *p,  \
                                                IDX pn, const IDX *sa, IDX sn, IDX *idx);    \
    CLSA_COMPAT_API IDX clsa_dss##W##_sa_simplesearch(const uint8_t *t, IDX tn, const IDX *sa, \
                                                      IDX sn, int32_t c, IDX *idx);

DSS_DECLARE(32, int32_t)
DSS_DECLARE(64, int64_t)

/* What divsufsort_version() answers: the release whose behaviour this is. */
#define CLSA_DSS_VERSION "2.0.1"

#endif
