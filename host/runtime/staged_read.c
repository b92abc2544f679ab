/* Large reads into pageable host memory through page-locked slots.  A
 * driver reads into pageable memory through staging buffers of its own and
 * copies out of them in the calling thread, so a read runs at one core's
 * memcpy rate (6-17 GB/s on the GPU machine, docs/BENCHMARKS.md) while the
 * bus moves page-locked memory at about 55 GB/s.  Here each of several host
 * threads owns two mapped page-locked slots of the context: it asks for
 * its next piece in one while it copies the last out of the other, and
 * the pieces go round the threads in turn.  The slots are made on the
 * first staged read and kept until clsa_destroy.  Off where the device
 * shares memory with the host (a read is a memcpy there), under
 * profiling (the calls' events stay on one thread) and on Oclgrind. */
#include "runtime.h"

#include <string.h>

typedef struct stage_part {
    cl_command_queue q;
    cl_mem src;
    size_t off, bytes, slot;
    char *dst;
    void *ptr[2];
    unsigned first, step; /* this thread's pieces: first, first + step, ... */
    cl_int err;
} stage_part;

/* Asks for piece k into slot s; *ev its event. */
static cl_int ask(stage_part *p, size_t k, int s, cl_event *ev)
{
    size_t from = k * p->slot, len = p->bytes - from < p->slot ? p->bytes - from : p->slot;
    return clEnqueueReadBuffer(p->q, p->src, CL_FALSE, p->off + from, len, p->ptr[s], 0, NULL, ev);
}

static void *stage_run(void *arg)
{
    stage_part *p = arg;
    size_t pieces = (p->bytes + p->slot - 1) / p->slot;
    cl_event ev[2] = {NULL, NULL};
    size_t k = p->first;
    p->err = k < pieces ? ask(p, k, 0, &ev[0]) : CL_SUCCESS;
    for (int s = 0; k < pieces && p->err == CL_SUCCESS; k += p->step, s ^= 1) {
        if (k + p->step < pieces) p->err = ask(p, k + p->step, s ^ 1, &ev[s ^ 1]);
        cl_int w = clWaitForEvents(1, &ev[s]);
        clReleaseEvent(ev[s]);
        ev[s] = NULL;
        if (p->err == CL_SUCCESS) p->err = w;
        if (p->err != CL_SUCCESS) break;
        size_t from = k * p->slot, len = p->bytes - from < p->slot ? p->bytes - from : p->slot;
        memcpy(p->dst + from, p->ptr[s], len);
    }
    for (int s = 0; s < 2; s++)
        if (ev[s]) { /* the slot is not given back while a read into it runs */
            clWaitForEvents(1, &ev[s]);
            clReleaseEvent(ev[s]);
        }
    return NULL;
}

/* The context's slots for t threads; 0 when page-locked memory was refused. */
static int slots(clsa_context *ctx, unsigned t)
{
    size_t need = 2 * (size_t)t;
    if (ctx->nstage && ctx->stage[0].bytes != ctx->tune.stage_slot) clsa__stage_release(ctx);
    while (ctx->nstage < need) {
        struct clsa_pinned *s = &ctx->stage[ctx->nstage];
        s->bytes = ctx->tune.stage_slot;
        if (!(s->mem = clsa__map_pinned(ctx, s->bytes, &s->ptr))) return 0;
        ctx->nstage++;
    }
    return 1;
}

clsa_status clsa__staged_read(clsa_context *ctx, cl_mem src, size_t off, void *dst, size_t bytes,
                              int *done)
{
    unsigned t = ctx->tune.stage_threads ? ctx->tune.stage_threads : 1;
    *done = 0;
    if (!ctx->tune.stage_min || bytes < ctx->tune.stage_min || !ctx->tune.stage_slot ||
        ctx->profiling || ctx->oclgrind || clsa__is_pinned(ctx, dst, bytes) || !slots(ctx, t))
        return CLSA_OK;
    stage_part part[CLSA_STAGE_THREADS];
    pthread_t tid[CLSA_STAGE_THREADS];
    unsigned started = 0;
    for (unsigned i = 0; i < t; i++)
        part[i] = (stage_part){ctx->queue, src, off, bytes, ctx->tune.stage_slot, dst,
                               {ctx->stage[2 * i].ptr, ctx->stage[2 * i + 1].ptr}, i, t,
                               CL_SUCCESS};
    for (unsigned i = 1; i < t; i++) {
        if (pthread_create(&tid[i - 1], NULL, stage_run, &part[i])) break;
        started++;
    }
    stage_run(&part[0]);
    for (unsigned i = started + 1; i < t; i++) stage_run(&part[i]); /* a thread that did not start */
    for (unsigned i = 0; i < started; i++) pthread_join(tid[i], NULL);
    for (unsigned i = 0; i < t; i++)
        if (part[i].err != CL_SUCCESS) return clsa__cl(ctx, part[i].err, "clEnqueueReadBuffer", NULL);
    *done = 1;
    return CLSA_OK;
}

void clsa__stage_release(clsa_context *ctx)
{
    for (unsigned i = 0; i < ctx->nstage; i++) clsa__unmap_pinned(ctx, &ctx->stage[i]);
    ctx->nstage = 0;
}
