/* Page-locked host memory (host_mem.c). */
#ifndef CLSA_RT_HOST_MEM_H
#define CLSA_RT_HOST_MEM_H

#include "context.h" /* struct clsa_pinned */
#include <stddef.h>

/* ---- page-locked host memory (host_mem.c) ----------------------------------
 * 1 if [p, p + bytes) lies inside one clsa_host_alloc array of a device. */
int clsa__is_pinned(const clsa_context *ctx, const void *p, size_t bytes);
/* A mapped page-locked buffer of bytes, or NULL; its unmapping and release
 * (waits for the commands that use it; a NULL mem frees a malloc'd ptr). */
cl_mem clsa__map_pinned(clsa_context *ctx, size_t bytes, void **ptr);
void clsa__unmap_pinned(clsa_context *ctx, struct clsa_pinned *p);
/* clsa_host_alloc and clsa_host_free (host/api_context.c) once their
 * arguments are checked: ctx, ptr not NULL, bytes > 0. */
clsa_status clsa__host_alloc(clsa_context *ctx, size_t bytes, void **ptr);
clsa_status clsa__host_free(clsa_context *ctx, void *ptr);
/* Frees every array clsa_host_alloc gave (clsa_destroy). */
void clsa__host_free_all(clsa_context *ctx);

#endif
