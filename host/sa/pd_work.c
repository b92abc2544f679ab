/* The working set of the prefix-doubling stages (prefix_doubling.c): the
 * buffers the pipeline owns, views into them, and the runner of the
 * stages' kernels. */
#include "pd_work.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "status.h"
#include "tuning.h"

#include <stdio.h>

clsa_status clsa__sa_run(clsa_context *ctx, const char *file, int index64, const char *name,
                         size_t global, size_t local, size_t nargs, const clsa__karg *args)
{
    cl_kernel k;
    char opts[64];
    /* the groups program has scan.cl's single pass (status_load) */
    snprintf(opts, sizeof opts, "-DGRP_TINY=%d -DCLSA_PTX_LOAD=%d", CLSA_GRP_TINY,
             ctx->tune.radix_warp == 1);
    clsa_status st = clsa__kernel(ctx, file, index64, opts, name, &k);
    for (size_t i = 0; st == CLSA_OK && i < nargs; i++)
        st = args[i].ptr ? clsa__arg(ctx, k, name, (cl_uint)i, args[i].size, args[i].ptr)
                         : clsa__arg_local(ctx, k, name, (cl_uint)i, args[i].size);
    if (st) return st;
    return clsa__launch(ctx, k, name, global, local ? local : ctx->tune.wg);
}

/* Elements per sub-buffer alignment of the device (CL_DEVICE_MEM_BASE_ADDR_ALIGN). */
size_t clsa__pd_align_elems(clsa_context *ctx, size_t iw)
{
    cl_uint bits = 0;
    if (clGetDeviceInfo(ctx->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL) !=
            CL_SUCCESS || bits < 8 * iw)
        bits = 4096;
    return bits / 8 / iw;
}

/* View of buf from byte `off` (of a sub-buffer: of its parent, as
 * sub-buffers cannot nest); allocates nothing. */
clsa_status clsa__pd_sub_view(clsa_context *ctx, cl_mem buf, size_t off, size_t bytes, cl_mem *out)
{
    cl_mem parent = NULL;
    size_t base = 0;
    cl_int err = clGetMemObjectInfo(buf, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
    if (err == CL_SUCCESS && parent)
        err = clGetMemObjectInfo(buf, CL_MEM_OFFSET, sizeof base, &base, NULL);
    if (err != CL_SUCCESS) return clsa__cl(ctx, err, "clGetMemObjectInfo", NULL);
    cl_buffer_region r = {base + off, bytes};
    *out = clCreateSubBuffer(parent ? parent : buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    return clsa__cl(ctx, err, "clCreateSubBuffer", NULL);
}

/* Views of k and u from slot `from` to m (released by the caller). */
clsa_status clsa__pd_tail_views(clsa_context *ctx, const clsa__sa_work *w, size_t from, cl_mem *k2,
                                cl_mem *u2)
{
    size_t kb = w->index64 ? 8 : 4, bytes = (w->m - from) * kb;
    clsa_status st = clsa__pd_sub_view(ctx, w->k, from * kb, bytes, k2);
    return st ? st : clsa__pd_sub_view(ctx, w->u, from * kb, bytes, u2);
}

void clsa__pd_release_all(clsa_context *ctx, pd_buffers *b)
{
    for (int i = 0; i < 8; i++) clsa__free(ctx, &b->own[i]);
}

void clsa__pd_release(clsa_context *ctx, pd_buffers *b, cl_mem m)
{
    for (int i = 0; i < 8; i++)
        if (b->own[i] == m) clsa__free(ctx, &b->own[i]);
}

clsa_status clsa__pd_alloc(clsa_context *ctx, pd_buffers *b, size_t bytes, cl_mem *out)
{
    for (int i = 0; i < 8; i++)
        if (!b->own[i]) {
            clsa_status st = clsa__alloc(ctx, bytes, &b->own[i]);
            *out = b->own[i];
            return st;
        }
    return clsa__fail(ctx, CLSA_ERR_UNSUPPORTED, "prefix doubling: too many buffers");
}
