/* Sequential kernel-argument setting for launchers with many arguments
 * (FM-index, LCS, RMQ): the first failure sticks, so a launcher sets all
 * arguments and checks once. */
#ifndef CLSA_INDEX_KERNEL_ARGS_H
#define CLSA_INDEX_KERNEL_ARGS_H
#include "context.h"
#include "launch.h"
#include "program.h"

typedef struct clsa_kargs {
    clsa_context *ctx;
    cl_kernel k;
    const char *name;
    cl_uint i;
    int index64; /* width of idx_t in the program */
    clsa_status st;
} clsa_kargs;

/* Gets kernel `name` of cl_kernels/file.cl and starts its argument list. */
static inline clsa_kargs clsa__kargs(clsa_context *ctx, const char *file, int index64,
                                     const char *extra, const char *name)
{
    clsa_kargs a = {ctx, NULL, name, 0, index64, CLSA_OK};
    a.st = clsa__kernel(ctx, file, index64, extra, name, &a.k);
    return a;
}

static inline void clsa__ka_raw(clsa_kargs *a, size_t size, const void *v)
{
    if (a->st == CLSA_OK) a->st = clsa__arg(a->ctx, a->k, a->name, a->i, size, v);
    a->i++;
}
static inline void clsa__ka_mem(clsa_kargs *a, cl_mem m) { clsa__ka_raw(a, sizeof m, &m); }
static inline void clsa__ka_u32(clsa_kargs *a, cl_uint v) { clsa__ka_raw(a, sizeof v, &v); }
static inline void clsa__ka_u64(clsa_kargs *a, cl_ulong v) { clsa__ka_raw(a, sizeof v, &v); }
/* An idx_t argument: 4 or 8 bytes per the program's width. */
static inline void clsa__ka_idx(clsa_kargs *a, uint64_t v)
{
    if (a->index64) clsa__ka_u64(a, (cl_ulong)v);
    else clsa__ka_u32(a, (cl_uint)v);
}
static inline void clsa__ka_local(clsa_kargs *a, size_t bytes)
{
    if (a->st == CLSA_OK) a->st = clsa__arg_local(a->ctx, a->k, a->name, a->i, bytes);
    a->i++;
}
/* Launches over `global` work-items (rounded up to the tuning's wg). */
static inline clsa_status clsa__ka_launch(clsa_kargs *a, size_t global)
{
    if (a->st != CLSA_OK) return a->st;
    return clsa__launch(a->ctx, a->k, a->name, global, a->ctx->tune.wg);
}
#endif
