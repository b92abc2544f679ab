/* Large host<->device copies through pinned staging memory.
 *
 * A copy from ordinary (pageable) host memory runs at 6-17 GB/s on the GPU
 * machine, while page-locked memory moves at about 55 GB/s.  So large
 * copies go through two page-locked staging buffers: the DMA of one chunk
 * overlaps the multi-threaded memcpy of the previous chunk between the
 * staging buffer and the caller's memory.  Devices that share memory with
 * the host (APUs, CPU devices) skip all this: a plain copy is already a
 * memcpy there. */
#include "runtime.h"

#include <string.h>
#include <unistd.h>

#define STAGE_BYTES ((size_t)32 << 20)
#define MAX_COPY_THREADS 8

typedef struct copy_part {
    char *dst;
    const char *src;
    size_t bytes;
} copy_part;

static void *copy_worker(void *p)
{
    copy_part *c = p;
    memcpy(c->dst, c->src, c->bytes);
    return NULL;
}

/* memcpy split over threads; falls back to one thread if a thread cannot start. */
static void parallel_copy(void *dst, const void *src, size_t bytes)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int t = cores > MAX_COPY_THREADS ? MAX_COPY_THREADS : (cores < 1 ? 1 : (int)cores);
    if (bytes < ((size_t)1 << 22)) t = 1;
    pthread_t th[MAX_COPY_THREADS];
    copy_part part[MAX_COPY_THREADS];
    int started[MAX_COPY_THREADS] = {0};
    size_t each = (bytes / (size_t)t + 63) & ~(size_t)63;
    for (int i = 0; i < t; i++) {
        size_t off = each * (size_t)i;
        part[i].dst = (char *)dst + off;
        part[i].src = (const char *)src + off;
        part[i].bytes = off >= bytes ? 0 : (bytes - off < each ? bytes - off : each);
        if (i > 0 && part[i].bytes)
            started[i] = pthread_create(&th[i], NULL, copy_worker, &part[i]) == 0;
    }
    copy_worker(&part[0]);
    for (int i = 1; i < t; i++) {
        if (started[i]) pthread_join(th[i], NULL);
        else if (part[i].bytes) copy_worker(&part[i]);
    }
}

/* Two mapped page-locked buffers, made on first use and kept by the context. */
static clsa_status staging(clsa_context *ctx)
{
    if (ctx->stage_ptr[0]) return CLSA_OK;
    for (int i = 0; i < 2; i++) {
        cl_int err;
        ctx->stage_mem[i] = clCreateBuffer(ctx->cl, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE,
                                           STAGE_BYTES, NULL, &err);
        if (err != CL_SUCCESS) return clsa__cl(ctx, err, "clCreateBuffer (staging)", NULL);
        ctx->stage_ptr[i] = clEnqueueMapBuffer(ctx->queue, ctx->stage_mem[i], CL_TRUE,
                                               CL_MAP_READ | CL_MAP_WRITE, 0, STAGE_BYTES, 0,
                                               NULL, NULL, &err);
        if (err != CL_SUCCESS) {
            ctx->stage_ptr[i] = NULL;
            return clsa__cl(ctx, err, "clEnqueueMapBuffer (staging)", NULL);
        }
    }
    return CLSA_OK;
}

void clsa__staging_release(clsa_context *ctx)
{
    for (int i = 0; i < 2; i++) {
        if (ctx->stage_ptr[i])
            clEnqueueUnmapMemObject(ctx->queue, ctx->stage_mem[i], ctx->stage_ptr[i], 0, NULL,
                                    NULL);
        if (ctx->stage_mem[i]) clReleaseMemObject(ctx->stage_mem[i]);
        ctx->stage_ptr[i] = NULL;
        ctx->stage_mem[i] = NULL;
    }
    if (ctx->queue) clFinish(ctx->queue);
}

int clsa__staged_worthwhile(const clsa_context *ctx, size_t bytes)
{
    return ctx->tune.staged_min && bytes >= ctx->tune.staged_min;
}

static size_t chunk_of(size_t bytes, size_t i)
{
    size_t off = i * STAGE_BYTES;
    return bytes - off < STAGE_BYTES ? bytes - off : STAGE_BYTES;
}

clsa_status clsa__staged_read(clsa_context *ctx, cl_mem src, size_t off, void *dst, size_t bytes)
{
    clsa_status st = staging(ctx);
    if (st) return st;
    size_t chunks = clsa__div_up(bytes, STAGE_BYTES);
    cl_event ev[2] = {NULL, NULL};
    cl_int err = clEnqueueReadBuffer(ctx->queue, src, CL_FALSE, off, chunk_of(bytes, 0),
                                     ctx->stage_ptr[0], 0, NULL, &ev[0]);
    if (err != CL_SUCCESS) return clsa__cl(ctx, err, "clEnqueueReadBuffer", NULL);
    for (size_t i = 0; i < chunks; i++) {
        int cur = (int)(i & 1), next = cur ^ 1;
        if (i + 1 < chunks) {
            err = clEnqueueReadBuffer(ctx->queue, src, CL_FALSE, off + (i + 1) * STAGE_BYTES,
                                      chunk_of(bytes, i + 1), ctx->stage_ptr[next], 0, NULL,
                                      &ev[next]);
            if (err != CL_SUCCESS) {
                st = clsa__cl(ctx, err, "clEnqueueReadBuffer", NULL);
                break;
            }
        }
        err = clWaitForEvents(1, &ev[cur]);
        clReleaseEvent(ev[cur]);
        ev[cur] = NULL;
        if (err != CL_SUCCESS) {
            st = clsa__cl(ctx, err, "clWaitForEvents", NULL);
            break;
        }
        parallel_copy((char *)dst + i * STAGE_BYTES, ctx->stage_ptr[cur], chunk_of(bytes, i));
    }
    for (int i = 0; i < 2; i++)
        if (ev[i]) {
            clWaitForEvents(1, &ev[i]);
            clReleaseEvent(ev[i]);
        }
    return st;
}

clsa_status clsa__staged_write(clsa_context *ctx, cl_mem dst, size_t off, const void *src,
                               size_t bytes)
{
    clsa_status st = staging(ctx);
    if (st) return st;
    size_t chunks = clsa__div_up(bytes, STAGE_BYTES);
    cl_event ev[2] = {NULL, NULL};
    for (size_t i = 0; i < chunks && st == CLSA_OK; i++) {
        int cur = (int)(i & 1);
        /* the staging buffer is free again once its previous DMA is done */
        if (ev[cur]) {
            cl_int err = clWaitForEvents(1, &ev[cur]);
            clReleaseEvent(ev[cur]);
            ev[cur] = NULL;
            if (err != CL_SUCCESS) {
                st = clsa__cl(ctx, err, "clWaitForEvents", NULL);
                break;
            }
        }
        parallel_copy(ctx->stage_ptr[cur], (const char *)src + i * STAGE_BYTES,
                      chunk_of(bytes, i));
        cl_int err = clEnqueueWriteBuffer(ctx->queue, dst, CL_FALSE, off + i * STAGE_BYTES,
                                          chunk_of(bytes, i), ctx->stage_ptr[cur], 0, NULL,
                                          &ev[cur]);
        if (err != CL_SUCCESS) st = clsa__cl(ctx, err, "clEnqueueWriteBuffer", NULL);
    }
    for (int i = 0; i < 2; i++)
        if (ev[i]) {
            if (clWaitForEvents(1, &ev[i]) != CL_SUCCESS && st == CLSA_OK)
                st = clsa__fail(ctx, CLSA_ERR_OPENCL, "clWaitForEvents failed (staged write)");
            clReleaseEvent(ev[i]);
        }
    return st;
}
