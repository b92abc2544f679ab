/* The libdivsufsort API, both widths (dss_tmpl.h), with the device route:
 * an input the shared context takes (compat_ctx.h) is sorted there; any
 * failure on the device is answered by the CPU path. */
#include "dss.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clsa_index.h"
#include "cpu_sa.h"

static clsa_context *route(int64_t n)
{
    return clsa_compat_use_device(n) ? clsa_compat_context() : NULL;
}

static int device_sa32(const uint8_t *t, int32_t *sa, int32_t n)
{
    clsa_context *ctx = route(n);
    return ctx && clsa_sa32(ctx, t, sa, n) == CLSA_OK;
}

static int device_sa64(const uint8_t *t, int64_t *sa, int64_t n)
{
    clsa_context *ctx = route(n);
    return ctx && clsa_sa64(ctx, t, sa, n) == CLSA_OK;
}

/* BWT and primary index on the device; in place (t == u) from a copy of
 * the text, as clsa_bwt's arrays must not overlap. */
static int device_bwt(const uint8_t *t, uint8_t *u, int64_t n, int64_t *primary)
{
    clsa_context *ctx = route(n);
    if (!ctx) return 0;
    uint8_t *copy = t == u ? malloc((size_t)n) : NULL;
    if (t == u && !copy) return 0;
    if (copy) memcpy(copy, t, (size_t)n);
    int ok = clsa_bwt(ctx, copy ? copy : t, u, n, primary) == CLSA_OK;
    free(copy);
    return ok;
}

static int device_bwt32(const uint8_t *t, uint8_t *u, int32_t n, int32_t *primary)
{
    int64_t p;
    if (!device_bwt(t, u, n, &p)) return 0;
    *primary = (int32_t)p;
    return 1;
}

#define IDX int32_t
#define FMT PRId32
#define FN(x) clsa_dss32_##x
#define SA_CPU clsa_compat_cpu_sa32
#define DEVICE_SA device_sa32
#define DEVICE_BWT device_bwt32
#include "dss_tmpl.h"
#undef IDX
#undef FMT
#undef FN
#undef SA_CPU
#undef DEVICE_SA
#undef DEVICE_BWT

#define IDX int64_t
#define FMT PRId64
#define FN(x) clsa_dss64_##x
#define SA_CPU clsa_compat_cpu_sa64
#define DEVICE_SA device_sa64
#define DEVICE_BWT device_bwt
#include "dss_tmpl.h"
