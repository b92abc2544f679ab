/* Work-arounds for the Oclgrind simulator (oclgrind.c). */
#ifndef CLSA_RT_OCLGRIND_H
#define CLSA_RT_OCLGRIND_H

#include "clsa.h"
#include "cl_loader.h"
#include <stddef.h>

/* ---- the Oclgrind simulator (oclgrind.c), only where ctx->oclgrind ------------
 * enter/leave: around every call on the context, inside its lock;
 * released_here: before clsa_destroy releases the context; new_buffer: on
 * every buffer clsa makes, host_buffer on one over the caller's memory;
 * copy and write: see below. */
void clsa__oclgrind_enter(clsa_context *ctx);
void clsa__oclgrind_leave(clsa_context *ctx);
void clsa__oclgrind_released_here(clsa_context *ctx);
cl_int clsa__oclgrind_new_buffer(clsa_context *ctx, cl_mem m);
cl_int clsa__oclgrind_host_buffer(clsa_context *ctx, cl_mem m, size_t bytes);
/* copy: clsa__copy's command; write: clsa__write's of part of dst. */
cl_int clsa__oclgrind_copy(clsa_context *ctx, cl_mem src, size_t soff, cl_mem dst, size_t doff,
                           size_t bytes);
cl_int clsa__oclgrind_write(clsa_context *ctx, cl_mem dst, size_t off, const void *src,
                            size_t bytes);

#endif
