/* Device memory: every allocation is counted, so the peak is known and a
 * limit (device global memory or CLSA_DEVICE_MEM_LIMIT) is enforced before
 * any work starts rather than failing halfway. */
#include "buffer.h"
#include "context.h"
#include "host_mem.h"
#include "launch.h"
#include "oclgrind.h"
#include "program.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

static uint64_t limit_of(const clsa_context *ctx)
{
    return ctx->mem_limit ? ctx->mem_limit : ctx->tune.global_mem;
}

uint64_t clsa__mem_limit(const clsa_context *ctx) { return limit_of(ctx); }

uint64_t clsa__mem_free(const clsa_context *ctx)
{
    uint64_t limit = limit_of(ctx), used = ctx->stats.current_device_bytes;
    return used < limit ? limit - used : 0;
}

clsa_status clsa__reserve_check(clsa_context *ctx, uint64_t bytes, const char *what)
{
    uint64_t limit = limit_of(ctx);
    if (ctx->stats.current_device_bytes + bytes > limit)
        return clsa__fail(ctx, CLSA_ERR_DEVICE_MEMORY,
                          "%s needs %llu bytes of device memory, %llu available (limit %llu%s%s)",
                          what, (unsigned long long)bytes,
                          (unsigned long long)(limit - ctx->stats.current_device_bytes),
                          (unsigned long long)limit,
                          ctx->mem_limit ? ", " : "", ctx->mem_limit ? ctx->mem_limit_name : "");
    return CLSA_OK;
}

/* Pooling is off under Oclgrind: a reused buffer holds the last call's
 * values, which would hide a read of memory nobody wrote.  Off under a
 * memory limit of the caller's too: there the held bytes must stay within
 * it, and a parent's spare bytes beside its regions (buffer_pool.c) would
 * count on top of them. */
static int pooling(const clsa_context *ctx)
{
    return ctx->tune.pool && !ctx->oclgrind && !ctx->mem_limit;
}

static void count_held(clsa_context *ctx, size_t bytes)
{
    ctx->stats.current_device_bytes += bytes;
    if (ctx->stats.current_device_bytes > ctx->stats.peak_device_bytes)
        ctx->stats.peak_device_bytes = ctx->stats.current_device_bytes;
    if (ctx->stats.current_device_bytes > ctx->high_water)
        ctx->high_water = ctx->stats.current_device_bytes;
}

void clsa__hold_caller(clsa_context *ctx, uint64_t bytes, int hold)
{
    if (hold) count_held(ctx, (size_t)bytes);
    else ctx->stats.current_device_bytes -= bytes <= ctx->stats.current_device_bytes
                                                ? bytes
                                                : ctx->stats.current_device_bytes;
}

static clsa_status track(clsa_context *ctx, cl_mem m, size_t bytes, int poolable)
{
    if (ctx->nlive == ctx->live_cap) {
        size_t cap = ctx->live_cap ? ctx->live_cap * 2 : 64;
        struct clsa_live_buffer *grown = realloc(ctx->live, cap * sizeof *grown);
        if (!grown) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "out of host memory");
        ctx->live = grown;
        ctx->live_cap = cap;
    }
    ctx->live[ctx->nlive].mem = m;
    ctx->live[ctx->nlive].bytes = bytes;
    ctx->live[ctx->nlive].poolable = poolable;
    ctx->nlive++;
    count_held(ctx, bytes);
    return CLSA_OK;
}

/* While profiling, host time spent making and releasing device memory
 * goes to the kernel table as "(host:NAME)": NVIDIA's release waits for
 * the queue to drain. */
static void host_time(clsa_context *ctx, const char *name, double t0)
{
    if (ctx->profiling) clsa__charge_host(ctx, name, (clsa__now() - t0) * 1e3);
}

void clsa__release_mem(clsa_context *ctx, cl_mem m)
{
    if (!m) return;
    double t0 = ctx->profiling ? clsa__now() : 0;
    clReleaseMemObject(m);
    host_time(ctx, "(host:release)", t0);
}

/* flags/host: CL_MEM_READ_WRITE and NULL for device memory, or
 * CL_MEM_USE_HOST_PTR and the caller's memory (zero copy). */
static clsa_status create(clsa_context *ctx, size_t bytes, cl_mem_flags flags, void *host,
                          cl_mem *out)
{
    *out = NULL;
    if (bytes == 0) bytes = 4; /* zero-size buffers are invalid in OpenCL */
    if (bytes > ctx->tune.max_alloc)
        return clsa__fail(ctx, CLSA_ERR_DEVICE_MEMORY,
                          "buffer of %llu bytes exceeds the device's largest allocation (%llu)",
                          (unsigned long long)bytes, (unsigned long long)ctx->tune.max_alloc);
    clsa_status st = clsa__reserve_check(ctx, bytes, "buffer");
    if (st) return st;
    cl_int err;
    double t0 = ctx->profiling ? clsa__now() : 0;
    cl_mem m = clCreateBuffer(ctx->cl, flags, bytes, host, &err);
    host_time(ctx, "(host:create)", t0);
    if (err != CL_SUCCESS) return clsa__cl(ctx, err, "clCreateBuffer", NULL);
    if (ctx->oclgrind && (err = host ? clsa__oclgrind_host_buffer(ctx, m, bytes)
                                     : clsa__oclgrind_new_buffer(ctx, m)) != CL_SUCCESS) {
        clReleaseMemObject(m);
        return clsa__cl(ctx, err, "clEnqueueWriteBuffer", NULL);
    }
    if ((st = track(ctx, m, bytes, 0))) {
        clReleaseMemObject(m);
        return st;
    }
    *out = m;
    return CLSA_OK;
}

clsa_status clsa__alloc(clsa_context *ctx, size_t bytes, cl_mem *out)
{
    size_t c = bytes ? bytes : 4; /* as create() makes it */
    if (!pooling(ctx)) return create(ctx, bytes, CL_MEM_READ_WRITE, NULL, out);
    clsa_status st = clsa__reserve_check(ctx, c, "buffer");
    if (st) return st;
    cl_mem m;
    if (clsa__pool_take(ctx, c, &m)) {
        if ((st = track(ctx, m, c, 1))) clsa__pool_give_back(ctx, m);
        else *out = m;
        return st;
    }
    clsa__pool_make_room(ctx, c);
    if ((st = create(ctx, bytes, CL_MEM_READ_WRITE, NULL, out))) return st;
    /* a parent of the pool from now on; else freed as any buffer */
    for (size_t i = ctx->nlive; i-- > 0;)
        if (ctx->live[i].mem == *out) {
            ctx->live[i].poolable = clsa__pool_adopt(ctx, *out, c);
            break;
        }
    return CLSA_OK;
}

clsa_status clsa__alloc_host(clsa_context *ctx, void *host, size_t bytes, cl_mem *out)
{
    if (bytes == 0) return create(ctx, bytes, CL_MEM_READ_WRITE, NULL, out);
    return create(ctx, bytes, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host, out);
}

clsa_status clsa__sync_host(clsa_context *ctx, cl_mem mem, size_t bytes)
{
    if (bytes == 0) return CLSA_OK;
    cl_int err;
    void *p = clEnqueueMapBuffer(ctx->queue, mem, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, NULL,
                                 &err);
    clsa_status st = clsa__cl(ctx, err, "clEnqueueMapBuffer", NULL);
    if (st) return st;
    st = clsa__cl(ctx, clEnqueueUnmapMemObject(ctx->queue, mem, p, 0, NULL, NULL),
                  "clEnqueueUnmapMemObject", NULL);
    if (st) return st;
    return clsa__finish(ctx);
}

void clsa__free(clsa_context *ctx, cl_mem *mem)
{
    if (!mem || !*mem) return;
    size_t size = 0;
    int poolable = 0;
    for (size_t i = ctx->nlive; i-- > 0;)
        if (ctx->live[i].mem == *mem) {
            size = ctx->live[i].bytes;
            poolable = ctx->live[i].poolable;
            ctx->live[i] = ctx->live[--ctx->nlive];
            break;
        }
    if (size <= ctx->stats.current_device_bytes) ctx->stats.current_device_bytes -= size;
    if (!(poolable && clsa__pool_give_back(ctx, *mem))) clsa__release_mem(ctx, *mem);
    *mem = NULL;
}

/* Copies are timed as TRANSFER when profiling is on. */
static clsa_status timed(clsa_context *ctx, cl_int err, cl_event ev, const char *call)
{
    clsa_status st = clsa__cl(ctx, err, call, NULL);
    if (!ev) return st;
    if (st != CLSA_OK) {
        clReleaseEvent(ev);
        return st;
    }
    return clsa__charge_event(ctx, ev, CLSA_PHASE_TRANSFER, call);
}

/* Whether [off, off + bytes) is less than all of buf. */
static int partial(cl_mem buf, size_t off, size_t bytes)
{
    size_t size = 0;
    return off != 0 ||
           (clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof size, &size, NULL) == CL_SUCCESS &&
            bytes < size);
}

/* Whether a copy of host memory goes through the staged slots: large, and
 * not already page-locked (clsa_host_alloc's arrays copy at bus speed). */
static int staged(const clsa_context *ctx, const void *host, size_t bytes)
{
    return ctx->tune.stage_min && bytes >= ctx->tune.stage_min &&
           !clsa__is_pinned(ctx, host, bytes);
}

/* A staged write's filler for a plain copy (staged_copy.c). */
static int copy_fill(void *arg, size_t from, size_t len, void *slot)
{
    memcpy(slot, (const char *)arg + from, len);
    return 1;
}

clsa_status clsa__write(clsa_context *ctx, cl_mem dst, size_t off, const void *src, size_t bytes)
{
    clsa_status st = CLSA_OK;
    if (ctx->oclgrind && bytes && partial(dst, off, bytes))
        return clsa__cl(ctx, clsa__oclgrind_write(ctx, dst, off, src, bytes),
                        "clEnqueueWriteBuffer", NULL);
    int split = 0;
    if (staged(ctx, src, bytes) &&
        ((st = clsa__staged_write(ctx, dst, off, bytes, copy_fill, (void *)(uintptr_t)src,
                                  &split)) ||
         split))
        return st;
    if ((st = clsa__copy_threads(ctx, dst, off, (void *)(uintptr_t)src, bytes, 1, &split)) || split)
        return st;
    size_t chunk = CLSA_CHUNK_OF(ctx);
    for (size_t done = 0; done < bytes && st == CLSA_OK; done += chunk) {
        cl_event ev = NULL;
        cl_int err = clEnqueueWriteBuffer(ctx->queue, dst, CL_TRUE, off + done,
                                          clsa__piece(done, bytes, chunk), (const char *)src + done, 0,
                                          NULL, ctx->profiling ? &ev : NULL);
        st = timed(ctx, err, ev, "clEnqueueWriteBuffer");
    }
    return st;
}

clsa_status clsa__write_nowait(clsa_context *ctx, cl_mem dst, size_t off, const void *src,
                               size_t bytes)
{
    if (ctx->oclgrind || bytes > CLSA_NOWAIT_MAX) return clsa__write(ctx, dst, off, src, bytes);
    cl_event ev = NULL;
    cl_int err = clEnqueueWriteBuffer(ctx->queue, dst, CL_FALSE, off, bytes, src, 0, NULL,
                                      ctx->profiling ? &ev : NULL);
    return timed(ctx, err, ev, "clEnqueueWriteBuffer");
}

clsa_status clsa__read(clsa_context *ctx, cl_mem src, size_t off, void *dst, size_t bytes)
{
    int split = 0;
    clsa_status st = staged(ctx, dst, bytes) ? clsa__staged_read(ctx, src, off, dst, bytes, &split)
                                             : CLSA_OK;
    if (!st && !split) st = clsa__copy_threads(ctx, src, off, dst, bytes, 0, &split);
    if (st || split) return st;
    size_t chunk = CLSA_CHUNK_OF(ctx);
    for (size_t done = 0; done < bytes && st == CLSA_OK; done += chunk) {
        cl_event ev = NULL;
        cl_int err = clEnqueueReadBuffer(ctx->queue, src, CL_TRUE, off + done,
                                         clsa__piece(done, bytes, chunk), (char *)dst + done, 0, NULL,
                                         ctx->profiling ? &ev : NULL);
        st = timed(ctx, err, ev, "clEnqueueReadBuffer");
    }
    return st;
}

void clsa__widen_u32(int64_t *dst, const void *src, size_t count)
{
    const char *from = src;
    for (size_t i = 0; i < count; i++) {
        uint32_t v;
        memcpy(&v, from + 4 * i, 4);
        dst[i] = v;
    }
}

clsa_status clsa__read_wide(clsa_context *ctx, cl_mem src, int64_t *dst, size_t count)
{
    int done = 0;
    /* the bus moves count * 4 bytes; the caller's array is count * 8 */
    int stage = staged(ctx, dst, count * 4) && !clsa__is_pinned(ctx, dst, count * 8);
    clsa_status st = stage ? clsa__staged_read_wide(ctx, src, dst, count, &done) : CLSA_OK;
    if (st || done || !count) return st;
    /* widened in place: the 32-bit entries read into the upper half and
     * spread from the front (entry i's 4 bytes lie at or after entry i's 8) */
    uint32_t *narrow = (uint32_t *)(void *)(dst + count / 2);
    if ((st = clsa__read(ctx, src, 0, narrow, count * 4))) return st;
    clsa__widen_u32(dst, narrow, count);
    return CLSA_OK;
}

clsa_status clsa__copy(clsa_context *ctx, cl_mem src, size_t src_off, cl_mem dst, size_t dst_off,
                       size_t bytes)
{
    clsa_status st = CLSA_OK;
    if (ctx->oclgrind)
        return clsa__cl(ctx, clsa__oclgrind_copy(ctx, src, src_off, dst, dst_off, bytes),
                        "clEnqueueCopyBuffer", NULL);
    size_t chunk = CLSA_CHUNK_OF(ctx);
    for (size_t done = 0; done < bytes && st == CLSA_OK; done += chunk)
        st = clsa__cl(ctx,
                      clEnqueueCopyBuffer(ctx->queue, src, dst, src_off + done, dst_off + done,
                                          clsa__piece(done, bytes, chunk), 0, NULL, NULL),
                      "clEnqueueCopyBuffer", NULL);
    return st;
}

clsa_status clsa__fill_zero(clsa_context *ctx, cl_mem dst, size_t off, size_t bytes)
{
    if (bytes == 0) return CLSA_OK;
    int words = off % 4 == 0 && bytes % 4 == 0;
    const char *name = words ? "fill_zero_u32" : "fill_zero_u8";
    size_t unit = words ? 4 : 1;
    cl_kernel k;
    clsa_status st = clsa__kernel(ctx, "buffer", 0, NULL, name, &k);
    int phase = ctx->phase;
    size_t chunk = CLSA_CHUNK_OF(ctx);
    for (size_t done = 0; done < bytes && st == CLSA_OK; done += chunk) {
        cl_ulong first = (off + done) / unit, count = clsa__piece(done, bytes, chunk) / unit;
        if ((st = CLSA_ARGS(ctx, k, name, CLSA_KARG(dst), CLSA_KARG(first), CLSA_KARG(count))))
            break;
        st = clsa__launch(ctx, k, name, (size_t)count, ctx->tune.wg);
    }
    ctx->phase = phase;
    return st;
}

clsa_status clsa__read_new(clsa_context *ctx, cl_mem src, size_t bytes, void **dst)
{
    *dst = malloc(bytes ? bytes : 1);
    if (!*dst)
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "out of host memory for a copy of %zu bytes",
                          bytes);
    return clsa__read(ctx, src, 0, *dst, bytes);
}
