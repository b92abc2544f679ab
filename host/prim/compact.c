/* Stream compaction = scan of the flags + one scatter. */
#include "scan.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "status.h"

clsa_status clsa__compact(clsa_context *ctx, cl_mem in, cl_mem flags, size_t n, cl_mem out,
                          size_t *count)
{
    static const char *name = "compact_scatter";
    if (count) *count = 0;
    if (n == 0) return CLSA_OK;
    if (n > UINT32_MAX)
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "compaction of %zu values: at most 2^32-1", n);
    cl_mem pos = NULL;
    cl_kernel k;
    uint32_t total = 0;
    cl_ulong nn = n;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, n * 4, &pos));
    CLSA_TRY(clsa__scan(ctx, flags, pos, n, 0, 1, &total));
    CLSA_TRY(clsa__kernel(ctx, "compact", 0, NULL, name, &k));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 0, in));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 1, flags));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 2, pos));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 3, nn));
    CLSA_TRY(CLSA_ARG(ctx, k, name, 4, out));
    CLSA_TRY(clsa__launch(ctx, k, name, n, ctx->tune.wg));
    if (count) *count = total;
done:
    clsa__free(ctx, &pos);
    return st;
}
