/* Device buffers, their accounting and pool, and host<->device copies (buffer.c, buffer_pool.c, copy_threads.c, staged_copy.c). */
#ifndef CLSA_RT_BUFFER_H
#define CLSA_RT_BUFFER_H

#include "clsa.h"
#include "cl_loader.h"
#include <stddef.h>
#include <stdint.h>

/* ---- device buffers (buffer.c) ------------------------------------------
 * All device memory goes through here so the peak is counted and the limit
 * (device global memory, or env CLSA_DEVICE_MEM_LIMIT) is enforced. */
clsa_status clsa__alloc(clsa_context *ctx, size_t bytes, cl_mem *out);
/* Zero copy: a buffer over the caller's memory (CL_MEM_USE_HOST_PTR), counted
 * like any other; clsa__sync_host makes the device's writes visible there. */
clsa_status clsa__alloc_host(clsa_context *ctx, void *host, size_t bytes, cl_mem *out);
clsa_status clsa__sync_host(clsa_context *ctx, cl_mem mem, size_t bytes);
/* Un-counts and drops; NULL is ignored.  Sets *mem to NULL.  Device
 * buffers go to the context's pool, for the next clsa__alloc of their size
 * in this call or the next, instead of clReleaseMemObject (see
 * clsa_context.pool). */
void clsa__free(clsa_context *ctx, cl_mem *mem);
/* clReleaseMemObject (m may be NULL), its host time profiled. */
void clsa__release_mem(clsa_context *ctx, cl_mem m);
/* The pool (buffer_pool.c): take serves c bytes from it (1) or not (0);
 * make_room releases free parents so that c more bytes keep within its
 * bound; adopt makes a new buffer a parent (0: no room in the list);
 * give_back returns one (0: not the pool's).  drain at a public call's
 * end releases the free parents no call used since the one before (all =
 * 1: every free one; 2: every one, clsa_destroy). */
int clsa__pool_take(clsa_context *ctx, size_t c, cl_mem *out);
void clsa__pool_make_room(clsa_context *ctx, size_t c);
int clsa__pool_adopt(clsa_context *ctx, cl_mem m, size_t bytes);
int clsa__pool_give_back(clsa_context *ctx, cl_mem m);
void clsa__pool_drain(clsa_context *ctx, int all);
/* Would `bytes` more fit?  CLSA_ERR_DEVICE_MEMORY with a message if not. */
/* The limit in force (mem_limit, else the device's global memory) and the
 * bytes of it not held now. */
/* Counts (hold) or stops counting bytes of the caller's own device buffers
 * as held: a call working in them keeps the same budget (5 iw bytes per
 * input byte, text and SA included) and reports the same peak as when it
 * allocates them itself. */
void clsa__hold_caller(clsa_context *ctx, uint64_t bytes, int hold);
uint64_t clsa__mem_limit(const clsa_context *ctx);
uint64_t clsa__mem_free(const clsa_context *ctx);
clsa_status clsa__reserve_check(clsa_context *ctx, uint64_t bytes, const char *what);
/* Host<->device copies, copies and fills are issued in pieces of at most
 * 1 GiB: one command over more than 4 GiB left NVIDIA's OpenCL context
 * unusable (CL_OUT_OF_RESOURCES on every later call) on the H200. */
#define CLSA_CHUNK ((size_t)1 << 30)
/* ctx's piece size: CLSA_CHUNK, or CLSA_TUNE chunk=BYTES (whole entries of
 * 8 bytes), which splits small buffers' copies and fills at offsets as large ones are. */
#define CLSA_CHUNK_OF(ctx) ((ctx)->tune.chunk ? (ctx)->tune.chunk / 8 * 8 : CLSA_CHUNK)
static inline size_t clsa__piece(size_t done, size_t bytes, size_t chunk)
{
    return bytes - done < chunk ? bytes - done : chunk;
}
clsa_status clsa__write(clsa_context *ctx, cl_mem dst, size_t off, const void *src, size_t bytes);
clsa_status clsa__read(clsa_context *ctx, cl_mem src, size_t off, void *dst, size_t bytes);
/* *dst: a new host array (free()) with the first bytes of src; the _mem
 * calls' route through host memory where their device arrays would pass
 * the largest allocation. */
clsa_status clsa__read_new(clsa_context *ctx, cl_mem src, size_t bytes, void **dst);
/* dst[i] = the 32-bit entry src[i], i < count, from the front: src may be
 * dst's own upper half (entry i's 4 bytes lie at or after entry i's 8). */
void clsa__widen_u32(int64_t *dst, const void *src, size_t count);
/* dst[0, count) = the 32-bit entries src[0, count), widened to 64 bits. */
clsa_status clsa__read_wide(clsa_context *ctx, cl_mem src, int64_t *dst, size_t count);
/* A small write (up to CLSA_NOWAIT_MAX bytes) that does not wait for the
 * queue: src must stay valid until a later blocking call on the queue
 * (Oclgrind, or larger: clsa__write). */
#define CLSA_NOWAIT_MAX 4096
clsa_status clsa__write_nowait(clsa_context *ctx, cl_mem dst, size_t off, const void *src,
                               size_t bytes);
/* A large copy split over ctx->tune.copy_threads threads and queues
 * (copy_threads.c); *done = 0 when it is not worth it (the caller copies). */
clsa_status clsa__copy_threads(clsa_context *ctx, cl_mem buf, size_t off, void *host,
                               size_t bytes, int write, int *done);
void clsa__copy_queues_release(clsa_context *ctx);
/* run(parts + i * size) for every i < t: part 0 on this thread, the
 * others each on a thread of its own (up to 16 threads; on this one
 * afterwards where a thread cannot start); returns when all are done. */
void clsa__run_team(void *(*run)(void *), void *parts, size_t size, unsigned t);
/* clsa_check_sa32/64's check (host/cpu/check.c) over `parts` stretches of
 * the SA, each on a thread (1..16): 1 valid, else 0 and why. */
int clsa__check_sa_parts(const uint8_t *text, const void *sa, int64_t n, int index64,
                         unsigned parts, char *why, size_t cap);
/* The same on as many threads as n calls for (clsa_check_sa32/64). */
int clsa__check_sa(const uint8_t *text, const void *sa, int64_t n, int index64, char *why,
                   size_t cap);
/* Large copies between pageable memory and the device through the
 * context's page-locked slots, several host threads filling or emptying
 * them while the bus moves the pieces before (staged_copy.c).  Available
 * on a context with a device that does not share memory with the host
 * (or where CLSA_TUNE stage_min forces it), not on Oclgrind; *done = 0
 * when not available (the caller copies otherwise). */
int clsa__staged_ready(clsa_context *ctx);
clsa_status clsa__staged_read(clsa_context *ctx, cl_mem src, size_t off, void *dst, size_t bytes,
                              int *done);
/* The same for count 32-bit entries of src into count 64-bit ones at dst
 * (each thread widens its pieces as it empties its slots). */
clsa_status clsa__staged_read_wide(clsa_context *ctx, cl_mem src, int64_t *dst, size_t count,
                                   int *done);
/* The bytes [from, from + len) of what a staged write writes, put into
 * slot; 0 stops the write (*done = 0: the filler's state says why). */
typedef int (*clsa__stage_fill)(void *arg, size_t from, size_t len, void *slot);
clsa_status clsa__staged_write(clsa_context *ctx, cl_mem dst, size_t off, size_t bytes,
                               clsa__stage_fill fill, void *arg, int *done);
void clsa__stage_release(clsa_context *ctx);

clsa_status clsa__fill_zero(clsa_context *ctx, cl_mem dst, size_t off, size_t bytes);
clsa_status clsa__copy(clsa_context *ctx, cl_mem src, size_t src_off, cl_mem dst, size_t dst_off,
                       size_t bytes);

#endif
