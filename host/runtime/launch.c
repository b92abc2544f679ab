/* Kernel arguments and 1-D launches, timed per phase when profiling. */
#include "arith.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

clsa_status clsa__args(clsa_context *ctx, cl_kernel k, const char *kname, cl_uint first,
                       size_t nargs, const clsa__karg *args)
{
    clsa_status st = CLSA_OK;
    for (size_t i = 0; st == CLSA_OK && i < nargs; i++)
        st = clsa__cl(ctx, clSetKernelArg(k, first + (cl_uint)i, args[i].size, args[i].ptr),
                      "clSetKernelArg", kname);
    return st;
}

clsa_status clsa__run(clsa_context *ctx, const char *file, int index64, const char *opts,
                      const char *name, size_t global, size_t local, size_t nargs,
                      const clsa__karg *args)
{
    cl_kernel k;
    clsa_status st = clsa__kernel(ctx, file, index64, opts, name, &k);
    if (!st) st = clsa__args(ctx, k, name, 0, nargs, args);
    if (st) return st;
    return clsa__launch(ctx, k, name, global, local ? local : ctx->tune.wg);
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

/* When a command was queued by the host and ran on the device (zeros
 * where its times are not there). */
typedef struct cmd_times {
    cl_ulong queued, start, end;
} cmd_times;

/* Adds a finished command's time to phase and to its name, releases the
 * event, and says when it was queued and ran. */
static cmd_times charge(clsa_context *ctx, cl_event ev, int phase, const char *what)
{
    cmd_times t = {0, 0, 0};
    if (clWaitForEvents(1, &ev) == CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t.start, &t.start,
                                NULL) == CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t.end, &t.end, NULL) ==
            CL_SUCCESS &&
        t.end >= t.start) {
        clsa__charge_ms(ctx, phase, what && *what ? what : "?", (double)(t.end - t.start) * 1e-6);
        if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, sizeof t.queued, &t.queued,
                                    NULL) != CL_SUCCESS)
            t.queued = 0;
    } else {
        t.start = t.end = 0;
    }
    clReleaseEvent(ev);
    return t;
}

void clsa__charge_host(clsa_context *ctx, const char *name, double ms)
{
    struct clsa_kernel_time *e = kernel_entry(ctx, name);
    if (e) {
        e->ms += ms;
        e->launches++;
    }
}

static void add_ms(clsa_context *ctx, const char *name, cl_ulong ns)
{
    clsa__charge_host(ctx, name, (double)ns * 1e-6);
}

/* The device's idle time between two commands, from the end of the one
 * before (last) to the start of the next (t): to "(idle)", and with
 * tune.idle_by to "(BEFORE>AFTER)" (the names cut short) and to
 * "(idle:host)", the part before the host queued the next command, or
 * "(idle:launch)", the rest. */
static void charge_idle(clsa_context *ctx, const char *before, const char *after, cl_ulong last,
                        cmd_times t)
{
    char name[CLSA_KERNEL_NAME_CAP];
    cl_ulong gap = t.start - last;
    struct clsa_kernel_time *e = kernel_entry(ctx, "(idle)");
    if (e) e->ms += (double)gap * 1e-6;
    if (!ctx->tune.idle_by) return;
    snprintf(name, sizeof name, "(%.17s>%.17s)", before, after);
    add_ms(ctx, name, gap);
    cl_ulong host = t.queued > last ? t.queued - last : 0;
    if (host > gap) host = gap;
    if (host) add_ms(ctx, "(idle:host)", host);
    if (gap > host) add_ms(ctx, "(idle:launch)", gap - host);
}

void clsa__charge_ms(clsa_context *ctx, int phase, const char *what, double ms)
{
    if (phase < 0 || phase >= CLSA_PHASE_COUNT) return;
    ctx->stats.phase_ms[phase] += ms;
    clsa__charge_host(ctx, what, ms);
}

double clsa__now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void clsa__profile_drain(clsa_context *ctx)
{
    cl_ulong last = 0;
    struct clsa_kernel_time *e = ctx->npending ? kernel_entry(ctx, "(idle)") : NULL;
    if (e) e->launches++; /* a list drained: one call, or 4096 commands */
    for (size_t i = 0; i < ctx->npending; i++) {
        struct clsa_pending_event *p = &ctx->pending[i];
        cmd_times t = charge(ctx, p->ev, p->phase, p->what);
        /* the main queue runs its commands in order */
        if (last && t.start > last) charge_idle(ctx, p[-1].what, p->what, last, t);
        if (t.end > last) last = t.end;
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
        charge(ctx, ev, phase, what);
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

/* CLSA_TEST_LAUNCH_LOG=FILE (the test suite's kernel coverage check,
 * tests/kernel_coverage.py): the first launch of each kernel of a context
 * appends "PROGRAM|OPTIONS|KERNEL" to FILE. */
void clsa__log_launch(clsa_context *ctx, cl_kernel k)
{
    const char *path = getenv("CLSA_TEST_LAUNCH_LOG");
    if (!path || !*path) return;
    for (int i = 0; i < ctx->nkernels; i++) {
        clsa_kernel_slot *s = &ctx->kernels[i];
        if (s->kernel != k || s->logged) continue;
        s->logged = 1;
        FILE *f = fopen(path, "a");
        if (!f) return;
        fprintf(f, "%s|%s|%s\n", ctx->programs[s->program].name, ctx->programs[s->program].options,
                s->name);
        fclose(f);
        return;
    }
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
    snprintf(ctx->last_kernel, sizeof ctx->last_kernel, "%s", name);
    clsa__log_launch(ctx, k);
    if (ctx->tune.flush && (st = clsa__cl(ctx, clFlush(ctx->queue), "clFlush", name))) return st;
    ctx->stats.kernel_launches++;
    return ev ? clsa__charge_event(ctx, ev, ctx->phase, name) : CLSA_OK;
}

clsa_status clsa__finish(clsa_context *ctx)
{
    return clsa__cl(ctx, clFinish(ctx->queue), "clFinish", NULL);
}
