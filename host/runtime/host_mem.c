/* Page-locked host memory for callers (clsa_host_alloc): a buffer made with
 * CL_MEM_ALLOC_HOST_PTR and mapped once, for its whole life.  Copies between
 * such a mapped pointer and device buffers run at the page-locked rate (the
 * pattern NVIDIA's OpenCL guide gives for pinned transfers), with no page
 * faults on untouched pages in the middle of the copy.  The library keeps
 * ptr -> cl_mem so that the host-pointer calls can recognise the memory
 * (clsa__is_pinned) and so that clsa_destroy frees what is left. */
#include "context.h"
#include "host_mem.h"
#include "status.h"

#include <stdlib.h>

/* A mapped page-locked buffer of bytes, or NULL (then plain memory serves). */
cl_mem clsa__map_pinned(clsa_context *ctx, size_t bytes, void **ptr)
{
    *ptr = NULL;
    if (!ctx->has_device || bytes > ctx->tune.max_alloc) return NULL;
    cl_int err;
    cl_mem m = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL,
                              &err);
    if (err != CL_SUCCESS) return NULL;
    *ptr = clEnqueueMapBuffer(ctx->queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                              NULL, NULL, &err);
    if (err != CL_SUCCESS || !*ptr) {
        *ptr = NULL;
        clReleaseMemObject(m);
        return NULL;
    }
    return m;
}

void clsa__unmap_pinned(clsa_context *ctx, struct clsa_pinned *p)
{
    if (!p->mem) {
        free(p->ptr);
        return;
    }
    /* Commands still reading or writing the memory finish first. */
    clEnqueueUnmapMemObject(ctx->queue, p->mem, p->ptr, 0, NULL, NULL);
    clFinish(ctx->queue);
    clReleaseMemObject(p->mem);
}

clsa_status clsa__host_alloc(clsa_context *ctx, size_t bytes, void **ptr)
{
    clsa__call_begin(ctx);
    clsa_status st = CLSA_OK;
    if (ctx->npinned == ctx->pinned_cap) {
        size_t cap = ctx->pinned_cap ? ctx->pinned_cap * 2 : 8;
        struct clsa_pinned *grown = realloc(ctx->pinned, cap * sizeof *grown);
        if (!grown) {
            st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "clsa_host_alloc: out of host memory");
            goto done;
        }
        ctx->pinned = grown;
        ctx->pinned_cap = cap;
    }
    void *p;
    cl_mem m = clsa__map_pinned(ctx, bytes, &p);
    if (!m && !(p = malloc(bytes))) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "clsa_host_alloc: no %zu bytes of host memory",
                        bytes);
        goto done;
    }
    ctx->pinned[ctx->npinned].ptr = p;
    ctx->pinned[ctx->npinned].bytes = bytes;
    ctx->pinned[ctx->npinned].mem = m;
    ctx->npinned++;
    *ptr = p;
done:
    clsa__unlock(ctx);
    return st;
}

clsa_status clsa__host_free(clsa_context *ctx, void *ptr)
{
    clsa__lock(ctx);
    clsa_status st = CLSA_ERR_INVALID_ARG;
    for (size_t i = 0; i < ctx->npinned; i++)
        if (ctx->pinned[i].ptr == ptr) {
            clsa__unmap_pinned(ctx, &ctx->pinned[i]);
            ctx->pinned[i] = ctx->pinned[--ctx->npinned];
            st = CLSA_OK;
            break;
        }
    if (st) clsa__fail(ctx, st, "clsa_host_free: %p did not come from clsa_host_alloc", ptr);
    clsa__unlock(ctx);
    return st;
}

int clsa__is_pinned(const clsa_context *ctx, const void *p, size_t bytes)
{
    const char *c = p;
    for (size_t i = 0; ctx && i < ctx->npinned; i++) {
        const char *base = ctx->pinned[i].ptr;
        if (ctx->pinned[i].mem && c >= base && bytes <= ctx->pinned[i].bytes &&
            (size_t)(c - base) <= ctx->pinned[i].bytes - bytes)
            return 1;
    }
    return 0;
}

void clsa__host_free_all(clsa_context *ctx)
{
    for (size_t i = 0; i < ctx->npinned; i++) clsa__unmap_pinned(ctx, &ctx->pinned[i]);
    free(ctx->pinned);
    ctx->pinned = NULL;
    ctx->npinned = ctx->pinned_cap = 0;
}
