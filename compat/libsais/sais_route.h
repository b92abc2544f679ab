/* Where a call of clsa's libsais API runs: the process context of the
 * drop-in libraries (compat/common/compat_ctx.h) when it routes n symbols
 * to the device, else NULL (the CPU path). */
#ifndef CLSA_SAIS_ROUTE_H
#define CLSA_SAIS_ROUTE_H
#include "compat_ctx.h"

static inline clsa_context *clsa_sais__device(int64_t n)
{
    return clsa_compat_use_device(n) ? clsa_compat_context() : NULL;
}
#endif
