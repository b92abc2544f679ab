/* Large host <-> device copies split over several threads, each with its
 * own in-order queue on the context's device.  A driver that stages
 * pageable host memory through pinned buffers of its own does the staging
 * memcpy in the calling thread, so one thread bounds a copy at one core's
 * memcpy rate (6-17 GB/s on the GPU machine, docs/bench/log) however
 * fast the bus is; several threads stage several pieces at once. */
#include "buffer.h"
#include "context.h"
#include "status.h"

#include <pthread.h>

typedef struct copy_part {
    cl_command_queue q;
    cl_mem buf;
    size_t off, bytes, chunk;
    char *host;
    int write;
    cl_int err;
} copy_part;

static void *copy_run(void *arg)
{
    copy_part *p = arg;
    p->err = CL_SUCCESS;
    for (size_t done = 0; done < p->bytes && p->err == CL_SUCCESS; done += p->chunk) {
        size_t b = clsa__piece(done, p->bytes, p->chunk);
        p->err = p->write ? clEnqueueWriteBuffer(p->q, p->buf, CL_TRUE, p->off + done, b,
                                                 p->host + done, 0, NULL, NULL)
                          : clEnqueueReadBuffer(p->q, p->buf, CL_TRUE, p->off + done, b,
                                                p->host + done, 0, NULL, NULL);
    }
    return NULL;
}

static unsigned copy_threads(const clsa_context *ctx, size_t bytes)
{
    unsigned t = ctx->tune.copy_threads;
    if (t > CLSA_COPY_QUEUES + 1) t = CLSA_COPY_QUEUES + 1;
    /* profiled calls keep the one timed queue; Oclgrind one thread */
    if (t < 2 || bytes < ctx->tune.copy_min || ctx->profiling || ctx->oclgrind) return 1;
    return t;
}

clsa_status clsa__copy_threads(clsa_context *ctx, cl_mem buf, size_t off, void *host,
                               size_t bytes, int write, int *done)
{
    unsigned t = copy_threads(ctx, bytes);
    *done = 0;
    if (t < 2) return CLSA_OK;
    cl_int err = CL_SUCCESS;
    for (unsigned i = 0; i + 1 < t && err == CL_SUCCESS; i++)
        if (!ctx->copy_queue[i]) ctx->copy_queue[i] = clCreateCommandQueue(ctx->cl, ctx->device, 0, &err);
    if (err != CL_SUCCESS) return clsa__cl(ctx, err, "clCreateCommandQueue", NULL);
    /* the other queues do not wait for this one's kernels */
    if ((err = clFinish(ctx->queue)) != CL_SUCCESS) return clsa__cl(ctx, err, "clFinish", NULL);
    copy_part part[CLSA_COPY_QUEUES + 1];
    size_t each = (bytes / t + 4095) / 4096 * 4096;
    for (unsigned i = 0; i < t; i++) {
        size_t from = (size_t)i * each < bytes ? (size_t)i * each : bytes;
        size_t to = from + each < bytes ? from + each : bytes;
        part[i] = (copy_part){i ? ctx->copy_queue[i - 1] : ctx->queue, buf, off + from, to - from,
                              CLSA_CHUNK_OF(ctx), (char *)host + from, write, CL_SUCCESS};
    }
    clsa__run_team(copy_run, part, sizeof *part, t);
    for (unsigned i = 0; i < t; i++)
        if (part[i].err != CL_SUCCESS)
            return clsa__cl(ctx, part[i].err, write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer",
                            NULL);
    *done = 1;
    return CLSA_OK;
}

void clsa__run_team(void *(*run)(void *), void *parts, size_t size, unsigned t)
{
    pthread_t tid[16];
    unsigned started = 0;
    for (unsigned i = 1; i < t && started < 16; i++) {
        if (pthread_create(&tid[i - 1], NULL, run, (char *)parts + i * size)) break;
        started++;
    }
    run(parts);
    for (unsigned i = started + 1; i < t; i++) run((char *)parts + i * size); /* not started */
    for (unsigned i = 0; i < started; i++) pthread_join(tid[i], NULL);
}

void clsa__copy_queues_release(clsa_context *ctx)
{
    for (unsigned i = 0; i < CLSA_COPY_QUEUES; i++)
        if (ctx->copy_queue[i]) {
            clReleaseCommandQueue(ctx->copy_queue[i]);
            ctx->copy_queue[i] = NULL;
        }
}
