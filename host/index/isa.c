/* Inverse suffix array: device scatter, host loop, public entry points. */
#include "isa.h"
#include "cpu/reference.h"
#include "index_run.h"
#include "sa/sa.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "status.h"
#include "text_pack.h"

#include <stdlib.h>

clsa_status clsa__isa_device(clsa_context *ctx, cl_mem sa, cl_mem isa, int64_t n, int index64)
{
    static const char *name = "isa_scatter";
    if (n == 0) return CLSA_OK;
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    cl_ulong nn = (cl_ulong)n;
    clsa_status st = CLSA_RUN(ctx, "isa", index64, NULL, name, (size_t)n, 0, CLSA_KARG(sa),
                              CLSA_KARG(isa), CLSA_KARG(nn));
    clsa__set_phase(ctx, phase);
    return st;
}

static void isa_host(const void *sa, void *isa, int64_t n, int index64)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t s = index64 ? ((const int64_t *)sa)[i] : ((const int32_t *)sa)[i];
        if (s < 0 || s >= n) continue;
        if (index64) ((int64_t *)isa)[s] = i;
        else ((int32_t *)isa)[s] = (int32_t)i;
    }
}

/* sa given (host) or built from text (sa == NULL): isa on the device. */
static clsa_status isa_on_device(clsa_context *ctx, const uint8_t *text, const void *sa,
                                 void *isa, int64_t n, int index64)
{
    size_t bytes = (size_t)n * (index64 ? 8 : 4);
    cl_mem dtext = NULL, dsa = NULL, disa = NULL;
    int is_isa = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, bytes, &dsa));
    if (sa) {
        CLSA_TRY(clsa__write(ctx, dsa, 0, sa, bytes));
    } else {
        CLSA_TRY(clsa__alloc(ctx, (size_t)n, &dtext));
        CLSA_TRY(clsa__write_text(ctx, dtext, text, (size_t)n));
        /* the sorting's final ranks are the answer, where it ends with them */
        CLSA_TRY(clsa__sa_device_ranks(ctx, dtext, dsa, n, index64, &is_isa));
        clsa__free(ctx, &dtext);
    }
    if (is_isa) {
        CLSA_TRY(clsa__read(ctx, dsa, 0, isa, bytes));
        goto done;
    }
    CLSA_TRY(clsa__alloc(ctx, bytes, &disa));
    CLSA_TRY(clsa__isa_device(ctx, dsa, disa, n, index64));
    CLSA_TRY(clsa__read(ctx, disa, 0, isa, bytes));
done:
    clsa__free(ctx, &dtext);
    clsa__free(ctx, &dsa);
    clsa__free(ctx, &disa);
    return st;
}

static clsa_status isa_on_host(clsa_context *ctx, const uint8_t *text, const void *sa, void *isa,
                               int64_t n, int index64)
{
    if (sa) {
        isa_host(sa, isa, n, index64);
        return CLSA_OK;
    }
    void *tmp = malloc((size_t)n * (index64 ? 8 : 4));
    if (!tmp) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "inverse suffix array: out of host memory");
    clsa_status st = clsa__sa_host(ctx, text, tmp, n, index64);
    if (st == CLSA_OK) isa_host(tmp, isa, n, index64);
    free(tmp);
    return st;
}

/* Past the largest allocation: the suffix array by its own route, the
 * inversion on the host. */
static clsa_status isa_past_alloc(clsa_context *ctx, const uint8_t *text, const void *sa,
                                  void *isa, int64_t n, int index64)
{
    void *tmp = NULL;
    clsa_status st = sa ? CLSA_OK : clsa__index_sa(ctx, text, n, index64, &tmp);
    if (st == CLSA_OK) isa_host(sa ? sa : tmp, isa, n, index64);
    free(tmp);
    return st;
}

clsa_status clsa__isa_run(clsa_context *ctx, const uint8_t *text, const void *sa, void *isa,
                          int64_t n, int index64)
{
    clsa_status st = clsa__index_args(ctx, "inverse suffix array", n, index64,
                                      (text || sa) && isa);
    int device;
    if (st || n == 0 || (st = clsa__index_begin(ctx, n, &device))) return st;
    if (device && clsa__index_past_alloc(ctx, n, index64))
        st = isa_past_alloc(ctx, text, sa, isa, n, index64);
    else
        st = device ? isa_on_device(ctx, text, sa, isa, n, index64)
                    : isa_on_host(ctx, text, sa, isa, n, index64);
    return clsa__index_end(ctx, st);
}

clsa_status clsa__isa_mem_run(clsa_context *ctx, cl_mem sa, cl_mem isa, int64_t n, int index64)
{
    clsa_status st = clsa__index_begin_mem(ctx);
    if (st) return st;
    st = clsa__index_args(ctx, "inverse suffix array", n, index64, sa && isa);
    if (st == CLSA_OK && n > 0 && sa == isa)
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "inverse suffix array: sa and isa must differ");
    if (st == CLSA_OK) st = clsa__isa_device(ctx, sa, isa, n, index64);
    return clsa__index_end(ctx, st);
}
