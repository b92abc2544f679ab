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
    uint32_t total = 0;
    cl_ulong nn = n;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, n * 4, &pos));
    CLSA_TRY(clsa__scan(ctx, flags, pos, n, 0, 1, &total));
    CLSA_TRY(CLSA_RUN(ctx, "compact", 0, NULL, name, n, 0, CLSA_KARG(in), CLSA_KARG(flags),
                      CLSA_KARG(pos), CLSA_KARG(nn), CLSA_KARG(out)));
    if (count) *count = total;
done:
    clsa__free(ctx, &pos);
    return st;
}
