/* Public entry points of clsa.h's context family: devices, the context's
 * life cycle, tuning, statistics, messages and page-locked host memory.
 * Each checks its arguments and calls down (runtime/). */
#include "cl_loader.h"
#include "context.h"
#include "host_mem.h"
#include "status.h"
#include "tuning.h"

#include <stdio.h>
#include <string.h>

/* ---- availability and devices ------------------------------------------------ */

CLSA_API clsa_status clsa_opencl_available(char *why, size_t cap)
{
    const char *e = clsa__cl_load_error();
    if (why && cap) snprintf(why, cap, "%s", e ? e : "");
    return e ? CLSA_ERR_NO_DEVICE : CLSA_OK;
}

clsa_status clsa_list_devices(clsa_device_info *out, size_t cap, size_t *count)
{
    if (!count || (cap && !out)) return CLSA_ERR_INVALID_ARG;
    return clsa__list_devices(out, cap, count);
}

/* ---- the context's life cycle ------------------------------------------------ */

void clsa_options_init(clsa_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->backend = CLSA_BACKEND_DEFAULT;
}

clsa_status clsa_create_ex(const clsa_options *opt, clsa_context **out, char *err, size_t cap)
{
    return clsa__create_ex(opt, out, err, cap);
}

clsa_status clsa_create(const clsa_options *opt, clsa_context **out)
{
    return clsa__create_ex(opt, out, NULL, 0);
}

clsa_status clsa_create_with_queue(cl_command_queue queue, const clsa_options *opt,
                                   clsa_context **out)
{
    return clsa__create_with_queue(queue, opt, out);
}

void clsa_trim(clsa_context *ctx)
{
    if (ctx) clsa__trim(ctx);
}

void clsa_destroy(clsa_context *ctx)
{
    if (ctx) clsa__destroy(ctx);
}

/* ---- description, tuning, statistics ------------------------------------------- */

clsa_status clsa_get_device_info(const clsa_context *ctx, clsa_device_info *info)
{
    if (!ctx || !info) return CLSA_ERR_INVALID_ARG;
    if (!ctx->has_device) return CLSA_ERR_UNSUPPORTED;
    *info = ctx->info;
    return CLSA_OK;
}

clsa_status clsa_set_tuning(clsa_context *ctx, const char *spec)
{
    if (!ctx || !spec) return CLSA_ERR_INVALID_ARG;
    if (!ctx->has_device)
        return clsa__fail(ctx, CLSA_ERR_UNSUPPORTED, "tuning: a host-only context has none");
    clsa__call_begin(ctx);
    clsa_tuning t = ctx->tune;
    char why[160];
    clsa_status st = CLSA_OK;
    if (clsa__tune_apply(&t, spec, why, sizeof why)) ctx->tune = t;
    else st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s", why);
    clsa__unlock(ctx);
    return st;
}

const char *clsa_phase_name(int phase)
{
    static const char *names[CLSA_PHASE_COUNT] = {
        "transfer", "initial_sort", "sort_s", "sort_m", "sort_l",
        "isa_update", "groups", "primitive", "index"};
    return phase >= 0 && phase < CLSA_PHASE_COUNT ? names[phase] : "unknown";
}

clsa_status clsa_get_stats(const clsa_context *ctx, clsa_stats *stats)
{
    if (!ctx || !stats) return CLSA_ERR_INVALID_ARG;
    *stats = ctx->stats;
    return CLSA_OK;
}

void clsa_reset_stats(clsa_context *ctx)
{
    if (!ctx) return;
    uint64_t cur = ctx->stats.current_device_bytes;
    unsigned built = ctx->stats.programs_built, loaded = ctx->stats.programs_loaded;
    memset(&ctx->stats, 0, sizeof ctx->stats);
    ctx->stats.current_device_bytes = cur;
    ctx->stats.peak_device_bytes = cur;
    ctx->stats.programs_built = built;
    ctx->stats.programs_loaded = loaded;
    ctx->nktime = 0;
}

clsa_status clsa_get_kernel_time(const clsa_context *ctx, size_t i, char *name, size_t cap,
                                 double *ms, uint64_t *launches)
{
    if (!ctx || i >= ctx->nktime) return CLSA_ERR_INVALID_ARG;
    const struct clsa_kernel_time *e = &ctx->ktime[i];
    if (name && cap) snprintf(name, cap, "%s", e->name);
    if (ms) *ms = e->ms;
    if (launches) *launches = e->launches;
    return CLSA_OK;
}

const char *clsa_version(void) { return CLSA_VERSION_STRING; }

/* ---- messages ---------------------------------------------------------------- */

const char *clsa_last_error(const clsa_context *ctx)
{
    return clsa__last_error(ctx);
}

const char *clsa_status_string(clsa_status s)
{
    switch (s) {
    case CLSA_OK: return "ok";
    case CLSA_ERR_INVALID_ARG: return "invalid argument";
    case CLSA_ERR_HOST_MEMORY: return "out of host memory";
    case CLSA_ERR_DEVICE_MEMORY: return "out of device memory";
    case CLSA_ERR_TOO_LARGE: return "input too large for the index width";
    case CLSA_ERR_NO_DEVICE: return "no OpenCL device";
    case CLSA_ERR_OPENCL: return "OpenCL error";
    case CLSA_ERR_BUILD: return "kernel build failed";
    case CLSA_ERR_IO: return "input/output error";
    case CLSA_ERR_FORMAT: return "corrupt or unrecognised file";
    case CLSA_ERR_UNSUPPORTED: return "unsupported operation";
    case CLSA_ERR_CANCELLED: return "cancelled";
    case CLSA_ERR_DEVICE_LOST: return "device fault: OpenCL context lost";
    }
    return "unknown status";
}

unsigned clsa_programs_rejected(const clsa_context *ctx) { return ctx ? ctx->programs_rejected : 0; }

/* ---- page-locked host memory ------------------------------------------------------ */

clsa_status clsa_host_alloc(clsa_context *ctx, size_t bytes, void **ptr)
{
    if (ptr) *ptr = NULL;
    if (!ctx || !ptr || bytes == 0)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "clsa_host_alloc: %s",
                          bytes == 0 ? "zero bytes" : "ctx or ptr is NULL");
    return clsa__host_alloc(ctx, bytes, ptr);
}

clsa_status clsa_host_free(clsa_context *ctx, void *ptr)
{
    if (!ptr) return CLSA_OK;
    if (!ctx) return CLSA_ERR_INVALID_ARG;
    return clsa__host_free(ctx, ptr);
}
