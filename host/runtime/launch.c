/* Kernel arguments and 1-D launches, timed per phase when profiling. */
#include "runtime.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

clsa_status clsa__arg(clsa_context *ctx, cl_kernel k, const char *kname, cl_uint i, size_t size,
                      const void *value)
{
    return clsa__cl(ctx, clSetKernelArg(k, i, size, value), "clSetKernelArg", kname);
}

clsa_status clsa__arg_local(clsa_context *ctx, cl_kernel k, const char *kname, cl_uint i,
                            size_t bytes)
{
    return clsa__cl(ctx, clSetKernelArg(k, i, bytes, NULL), "clSetKernelArg", kname);
}

/* The per-name entry of what (a new one while the table has room). */
static struct clsa_kernel_time *kernel_entry(clsa_context *ctx, const char *what)
{
    for (size_t i = 0; i < ctx->nktime; i++)
        if (!strcmp(ctx->ktime[i].name, what)) return &ctx->ktime[i];
    if (ctx->nktime == CLSA_KERNEL_TIMES) return NULL;
    struct clsa_kernel_time *e = &ctx->ktime[ctx->nktime++];
    snprintf(e->name, sizeof e->name, "%s", what);
    e->ms = 0;
    e->launches = 0;
    return e;
}

/* The queue's commands between the first start and the last end of a
 * drained list, against the time they ran: what is left is the device
 * waiting on the host (blocking reads, launches issued late). */
typedef struct span {
    cl_ulong first, last, busy;
} span;

/* Adds a finished command's time to phase and to its name, and to the
 * span s (may be NULL), and releases the event. */
static void charge(clsa_context *ctx, cl_event ev, int phase, const char *what, span *s)
{
    cl_ulong t0 = 0, t1 = 0;
    if (clWaitForEvents(1, &ev) == CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) ==
            CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) ==
            CL_SUCCESS && t1 >= t0) {
        clsa__charge_ms(ctx, phase, what && *what ? what : "?", (double)(t1 - t0) * 1e-6);
        if (s) {
            if (!s->first || t0 < s->first) s->first = t0;
            if (t1 > s->last) s->last = t1;
            s->busy += t1 - t0;
        }
    }
    clReleaseEvent(ev);
}

void clsa__charge_ms(clsa_context *ctx, int phase, const char *what, double ms)
{
    if (phase < 0 || phase >= CLSA_PHASE_COUNT) return;
    ctx->stats.phase_ms[phase] += ms;
    struct clsa_kernel_time *e = kernel_entry(ctx, what);
    if (e) {
        e->ms += ms;
        e->launches++;
    }
}

double clsa__now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void clsa__profile_drain(clsa_context *ctx)
{
    span s = {0, 0, 0};
    for (size_t i = 0; i < ctx->npending; i++)
        charge(ctx, ctx->pending[i].ev, ctx->pending[i].phase, ctx->pending[i].what, &s);
    /* named apart from every kernel: the device's idle time between them */
    struct clsa_kernel_time *e = ctx->npending ? kernel_entry(ctx, "(idle)") : NULL;
    if (e && s.last > s.first + s.busy) {
        e->ms += (double)(s.last - s.first - s.busy) * 1e-6;
        e->launches++;
    }
    ctx->npending = 0;
}

/* Profiling must not change what it measures: the event is kept and read
 * when the public call ends (clsa__unlock), so kernels queue back to back
 * as they do without --stats.  A full list is read at once (a wait on work
 * already queued every 4096 commands). */
clsa_status clsa__charge_event(clsa_context *ctx, cl_event ev, int phase, const char *what)
{
    if (ctx->npending == ctx->pending_cap) {
        size_t cap = ctx->pending_cap ? ctx->pending_cap * 2 : 256;
        struct clsa_pending_event *grown =
            cap <= 4096 ? realloc(ctx->pending, cap * sizeof *grown) : NULL;
        if (grown) {
            ctx->pending = grown;
            ctx->pending_cap = cap;
        } else {
            clsa__profile_drain(ctx);
        }
    }
    if (ctx->npending == ctx->pending_cap) {
        charge(ctx, ev, phase, what, NULL);
        return CLSA_OK;
    }
    struct clsa_pending_event *p = &ctx->pending[ctx->npending++];
    p->ev = ev;
    p->phase = phase;
    snprintf(p->what, sizeof p->what, "%s", what ? what : "");
    return CLSA_OK;
}

int clsa__set_phase(clsa_context *ctx, int phase)
{
    int old = ctx->phase;
    ctx->phase = phase;
    return old;
}

clsa_status clsa__launch(clsa_context *ctx, cl_kernel k, const char *name, size_t global,
                         size_t local)
{
    if (global == 0) return CLSA_OK;
    global = clsa__round_up(global, local);
    cl_event ev = NULL;
    cl_int err = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, &local, 0, NULL,
                                        ctx->profiling ? &ev : NULL);
    clsa_status st = clsa__cl(ctx, err, "clEnqueueNDRangeKernel", name);
    if (st) return st;
    ctx->stats.kernel_launches++;
    return ev ? clsa__charge_event(ctx, ev, ctx->phase, name) : CLSA_OK;
}

clsa_status clsa__finish(clsa_context *ctx)
{
    return clsa__cl(ctx, clFinish(ctx->queue), "clFinish", NULL);
}
