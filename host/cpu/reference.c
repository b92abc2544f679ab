/* The host backend: libdivsufsort (32- and 64-bit builds of the library). */
#include "reference.h"
#include "progress.h"
#include "status.h"

#include <divsufsort.h>
#include <divsufsort64.h>

clsa_status clsa__sa_host(clsa_context *ctx, const uint8_t *text, void *sa, int64_t n,
                          int index64)
{
    if (n == 0) return CLSA_OK;
    if (n == 1) {
        /* libdivsufsort handles n == 1 too, but keep the edge obvious */
        if (index64) ((int64_t *)sa)[0] = 0;
        else ((int32_t *)sa)[0] = 0;
        return CLSA_OK;
    }
    /* libdivsufsort cannot be interrupted: before and after it are the
     * only points a caller can stop the host backend. */
    clsa_status st = clsa__progress(ctx, "sort (libdivsufsort)", 0.0);
    if (st) return st;
    int rc = index64 ? divsufsort64(text, (saidx64_t *)sa, (saidx64_t)n)
                     : divsufsort(text, (saidx_t *)sa, (saidx_t)n);
    if (rc != 0)
        return clsa__fail(ctx, rc == -2 ? CLSA_ERR_HOST_MEMORY : CLSA_ERR_INVALID_ARG,
                          "libdivsufsort failed (%d)", rc);
    return clsa__progress(ctx, "sort (libdivsufsort)", 1.0);
}
