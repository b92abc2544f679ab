/* A device SA's download while its last doubling passes run.  Once few
 * suffixes are unsorted, nearly every slot of the SA buffer is final; the
 * whole buffer then goes down on a queue of its own, through the staged
 * slots on threads of its own, while the main queue runs the passes (the
 * bus and the copy engine are idle then).  The slots still open at the
 * start are patched at the end (host/sa/prefix_doubling.c).  Reading a
 * buffer whose other bytes kernels are writing leaves those bytes
 * undefined, and only those: the patch replaces them.  Off on Oclgrind
 * (its calls stay on one thread) and where the staged slots are off. */
#include "runtime.h"

static void *download(void *arg)
{
    clsa_context *ctx = arg;
    clsa__early *e = &ctx->early;
    /* the kernels that wrote the final slots first (the main queue was
     * flushed after the marker) */
    e->call = "clWaitForEvents";
    e->err = clWaitForEvents(1, &e->marker);
    if (e->err == CL_SUCCESS)
        e->err = clsa__staged_read_quiet(ctx, e->queue, e->src, 0, e->dst, e->bytes, &e->call);
    if (e->err == CL_SUCCESS) {
        e->call = "clFinish";
        e->err = clFinish(e->queue);
    }
    return NULL;
}

clsa_status clsa__early_start(clsa_context *ctx, cl_mem src, size_t bytes, int *started)
{
    clsa__early *e = &ctx->early;
    *started = 0;
    if (e->running || !e->dst || ctx->oclgrind || !clsa__staged_ready(ctx)) return CLSA_OK;
    cl_int err = CL_SUCCESS;
    if (!e->queue && !(e->queue = clCreateCommandQueue(ctx->cl, ctx->device, 0, &err)))
        return CLSA_OK; /* read at the end instead */
    if ((err = clEnqueueMarkerWithWaitList(ctx->queue, 0, NULL, &e->marker)) != CL_SUCCESS)
        return clsa__cl(ctx, err, "clEnqueueMarkerWithWaitList", NULL);
    if ((err = clFlush(ctx->queue)) != CL_SUCCESS) {
        clReleaseEvent(e->marker);
        return clsa__cl(ctx, err, "clFlush", NULL);
    }
    e->src = src;
    e->bytes = bytes;
    e->err = CL_SUCCESS;
    e->running = 1; /* before the thread: the slots are its own from now */
    if (pthread_create(&e->thread, NULL, download, ctx)) {
        e->running = 0;
        clReleaseEvent(e->marker);
        return CLSA_OK;
    }
    *started = 1;
    return CLSA_OK;
}

clsa_status clsa__early_join(clsa_context *ctx)
{
    clsa__early *e = &ctx->early;
    if (!e->running) return CLSA_OK;
    double t0 = clsa__now();
    pthread_join(e->thread, NULL);
    clReleaseEvent(e->marker);
    e->running = 0;
    if (ctx->profiling)
        clsa__charge_ms(ctx, CLSA_PHASE_TRANSFER, "early read (waited)", (clsa__now() - t0) * 1e3);
    return e->err != CL_SUCCESS ? clsa__cl(ctx, e->err, e->call, NULL) : CLSA_OK;
}

void clsa__early_release(clsa_context *ctx)
{
    clsa__early_join(ctx);
    if (ctx->early.queue) clReleaseCommandQueue(ctx->early.queue);
    ctx->early.queue = NULL;
}
