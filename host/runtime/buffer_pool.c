/* The context's device memory kept for reuse.  NVIDIA's clReleaseMemObject
 * waits for the queue to drain and then frees, the device idle all the
 * while, and a new buffer's first use costs more again.  So a freed buffer
 * stays, as a parent: a later request of its size takes it whole, a
 * smaller one a region of it as a sub-buffer (made and released in 1-3 us,
 * no drain).  New parents are made only where no free region fits; the
 * parents' bytes are kept within the most the context ever held at once
 * (or what is held plus the request) and the device's memory by releasing
 * wholly free parents, the largest first (a parent's spare bytes beside its
 * regions may still pass that bound: the peak reported counts them; no
 * pool under a caller's memory limit, buffer.c).  A parent no call used
 * since the one before is released as a call ends.  A freed region keeps
 * its sub-buffer (idle) for a later request it fits without much to spare:
 * a new sub-buffer's first use costs the host more than a launch, and the
 * suffix array's passes ask for the same small arrays
 * each time; a region carved across an idle one releases it first. */
#include "buffer.h"
#include "context.h"

#include <stdlib.h>
#include <string.h>

/* Sub-buffer origins are aligned to this (CL_DEVICE_MEM_BASE_ADDR_ALIGN). */
static size_t align_of(clsa_context *ctx)
{
    if (!ctx->mem_align) {
        cl_uint bits = 0;
        if (clGetDeviceInfo(ctx->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits,
                            NULL) != CL_SUCCESS || bits < 8 * 128)
            bits = 8 * 4096;
        ctx->mem_align = bits / 8;
    }
    return ctx->mem_align;
}

/* items with room for one more beyond count (cap doubled from first where
 * it is full), or NULL with items and *cap as they were. */
static void *room_for_one(void *items, size_t *cap, size_t count, size_t size, size_t first)
{
    if (count < *cap) return items;
    size_t c = *cap ? *cap * 2 : first;
    void *grown = realloc(items, c * size);
    if (grown) *cap = c;
    return grown;
}

static size_t used_of(const struct clsa_pooled *p)
{
    if (p->whole) return p->bytes;
    size_t used = 0;
    for (size_t j = 0; j < p->nsub; j++) used += p->sub[j].idle ? 0 : p->sub[j].len;
    return used;
}

/* Removes p's sub-buffer j (releases it). */
static void drop_sub(clsa_context *ctx, struct clsa_pooled *p, size_t j)
{
    clsa__release_mem(ctx, p->sub[j].mem);
    memmove(p->sub + j, p->sub + j + 1, (p->nsub - j - 1) * sizeof *p->sub);
    p->nsub--;
}

/* Releases p's idle sub-buffers within [off, off + len). */
static void drop_idle(clsa_context *ctx, struct clsa_pooled *p, size_t off, size_t len)
{
    for (size_t j = p->nsub; j-- > 0;)
        if (p->sub[j].idle && p->sub[j].off < off + len && off < p->sub[j].off + p->sub[j].len)
            drop_sub(ctx, p, j);
}

/* The device memory clsa holds: live buffers outside the pool, and the
 * pool's parents whole; the peak reported counts it (a parent in regions
 * holds its spare bytes too). */
static void count_physical(clsa_context *ctx)
{
    uint64_t p = ctx->stats.current_device_bytes - ctx->pool_used + ctx->pool_bytes;
    if (p > ctx->stats.peak_device_bytes) ctx->stats.peak_device_bytes = p;
}

static void release_parent(clsa_context *ctx, size_t i)
{
    struct clsa_pooled *p = &ctx->pool[i];
    ctx->pool_used -= used_of(p);
    for (size_t j = 0; j < p->nsub; j++) clsa__release_mem(ctx, p->sub[j].mem);
    clsa__release_mem(ctx, p->mem);
    free(p->sub);
    ctx->pool_bytes -= p->bytes;
    *p = ctx->pool[--ctx->npool];
}

static int is_free(const struct clsa_pooled *p) { return !p->whole && used_of(p) == 0; }

/* The best-fitting free region of c bytes (idle sub-buffers' regions
 * free): parent *pi, offset *off. */
static int find_region(clsa_context *ctx, size_t c, size_t *pi, size_t *off)
{
    size_t align = align_of(ctx), best = SIZE_MAX;
    for (size_t i = 0; i < ctx->npool; i++) {
        const struct clsa_pooled *p = &ctx->pool[i];
        if (p->whole) continue;
        size_t start = 0;
        for (size_t j = 0; j <= p->nsub; j++) {
            if (j < p->nsub && p->sub[j].idle) continue;
            size_t end = j < p->nsub ? p->sub[j].off : p->bytes;
            size_t o = (start + align - 1) / align * align;
            if (o <= end && end - o >= c && end - o - c < best) {
                best = end - o - c;
                *pi = i, *off = o;
            }
            if (j < p->nsub) start = p->sub[j].off + p->sub[j].len;
        }
    }
    return best != SIZE_MAX;
}

/* An idle sub-buffer of at least c bytes and not much more (up to twice c,
 * or c + 256 KiB for small arrays), the tightest; taken. */
static int reuse_idle(clsa_context *ctx, size_t c, cl_mem *out)
{
    size_t slack = c > ((size_t)256 << 10) ? c : (size_t)256 << 10, best = SIZE_MAX, bi = 0,
           bj = 0;
    for (size_t i = 0; i < ctx->npool; i++)
        for (size_t j = 0; j < ctx->pool[i].nsub; j++) {
            const struct clsa_carved *s = &ctx->pool[i].sub[j];
            if (s->idle && s->len >= c && s->len - c <= slack && s->len - c < best) {
                best = s->len - c;
                bi = i, bj = j;
            }
        }
    if (best == SIZE_MAX) return 0;
    struct clsa_pooled *p = &ctx->pool[bi];
    p->sub[bj].idle = 0;
    p->call = ctx->calls;
    ctx->pool_used += p->sub[bj].len;
    *out = p->sub[bj].mem;
    return 1;
}

static int carve(clsa_context *ctx, size_t c, cl_mem *out)
{
    size_t i, off, at = 0;
    if (!find_region(ctx, c, &i, &off)) return 0;
    struct clsa_pooled *p = &ctx->pool[i];
    drop_idle(ctx, p, off, c);
    struct clsa_carved *sub = room_for_one(p->sub, &p->sub_cap, p->nsub, sizeof *sub, 4);
    if (!sub) return 0;
    p->sub = sub;
    cl_int err;
    cl_buffer_region r = {off, c};
    cl_mem m = clCreateSubBuffer(p->mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    if (err != CL_SUCCESS) return 0;
    while (at < p->nsub && p->sub[at].off < off) at++;
    memmove(p->sub + at + 1, p->sub + at, (p->nsub - at) * sizeof *p->sub);
    p->sub[at].mem = m;
    p->sub[at].off = off;
    p->sub[at].len = c;
    p->sub[at].idle = 0;
    p->nsub++;
    p->call = ctx->calls;
    ctx->pool_used += c;
    *out = m;
    return 1;
}

int clsa__pool_take(clsa_context *ctx, size_t c, cl_mem *out)
{
    /* a free parent of the size first: no sub-buffer, and its size is the
     * likeliest to come again */
    for (size_t i = ctx->npool; i-- > 0;) {
        struct clsa_pooled *p = &ctx->pool[i];
        if (is_free(p) && p->bytes == c) {
            drop_idle(ctx, p, 0, p->bytes);
            p->whole = 1;
            p->call = ctx->calls;
            ctx->pool_used += c;
            *out = p->mem;
            return 1;
        }
    }
    return reuse_idle(ctx, c, out) || carve(ctx, c, out);
}

void clsa__pool_make_room(clsa_context *ctx, size_t c)
{
    uint64_t held = ctx->stats.current_device_bytes, bound = ctx->high_water;
    uint64_t limit = clsa__mem_limit(ctx);
    if (bound < held + c) bound = held + c;
    if (bound > limit) bound = limit;
    for (;;) {
        uint64_t spare = 0; /* kept and not in use */
        size_t big = SIZE_MAX;
        for (size_t i = 0; i < ctx->npool; i++) {
            spare += ctx->pool[i].bytes - used_of(&ctx->pool[i]);
            if (is_free(&ctx->pool[i]) && (big == SIZE_MAX || ctx->pool[i].bytes > ctx->pool[big].bytes))
                big = i;
        }
        if (big == SIZE_MAX || held + c + spare <= bound) return;
        release_parent(ctx, big);
    }
}

int clsa__pool_adopt(clsa_context *ctx, cl_mem m, size_t bytes)
{
    struct clsa_pooled *pool = room_for_one(ctx->pool, &ctx->pool_cap, ctx->npool, sizeof *pool, 32);
    if (!pool) return 0;
    ctx->pool = pool;
    struct clsa_pooled *p = &ctx->pool[ctx->npool++];
    memset(p, 0, sizeof *p);
    p->mem = m;
    p->bytes = bytes;
    p->whole = 1;
    p->call = ctx->calls;
    ctx->pool_bytes += bytes;
    ctx->pool_used += bytes;
    count_physical(ctx);
    return 1;
}

int clsa__pool_give_back(clsa_context *ctx, cl_mem m)
{
    for (size_t i = 0; i < ctx->npool; i++) {
        struct clsa_pooled *p = &ctx->pool[i];
        if (p->mem == m && p->whole) {
            p->whole = 0;
            p->call = ctx->calls;
            ctx->pool_used -= p->bytes;
            return 1;
        }
        for (size_t j = 0; j < p->nsub; j++)
            if (p->sub[j].mem == m && !p->sub[j].idle) {
                p->sub[j].idle = 1;
                ctx->pool_used -= p->sub[j].len;
                p->call = ctx->calls;
                return 1;
            }
    }
    return 0;
}

void clsa__pool_drain(clsa_context *ctx, int all)
{
    for (size_t i = ctx->npool; i-- > 0;)
        if (all == 2 || (is_free(&ctx->pool[i]) && (all || ctx->pool[i].call + 1 < ctx->calls)))
            release_parent(ctx, i);
    if (all && ctx->npool == 0) {
        free(ctx->pool);
        ctx->pool = NULL;
        ctx->pool_cap = 0;
    }
}
