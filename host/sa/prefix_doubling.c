/* TEMPORARY: round trip through the host reference until the device
 * prefix-doubling pipeline lands (issue 4). */
#include "sa.h"
#include "cpu/reference.h"

#include <stdlib.h>

clsa_status clsa__sa_device(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n, int index64)
{
    size_t w = index64 ? 8 : 4;
    uint8_t *t = malloc(n ? (size_t)n : 1);
    void *s = malloc(n ? (size_t)n * w : 1);
    clsa_status st = CLSA_OK;
    if (!t || !s) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "out of host memory");
        goto done;
    }
    CLSA_TRY(clsa__read(ctx, text, 0, t, (size_t)n));
    CLSA_TRY(clsa__sa_host(ctx, t, s, n, index64));
    CLSA_TRY(clsa__write(ctx, sa, 0, s, (size_t)n * w));
done:
    free(t);
    free(s);
    return st;
}
