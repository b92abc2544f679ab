/* Large copies between pageable host memory and the device through
 * page-locked slots.  A driver copies pageable memory through staging
 * buffers of its own, filled or emptied in the calling thread, so a copy
 * runs at one core's memcpy rate (6-17 GB/s on the GPU machine,
 * docs/bench/log) while the bus moves page-locked memory at about
 * 55 GB/s.  Here each of several host threads owns two mapped page-locked
 * slots of the context and the pieces of a copy go round the threads in
 * turn: a thread empties (or fills) one slot while the bus moves its other
 * piece.  A staged write's pieces come from a filler, a memcpy or the
 * packing of a text (text_pack.c), which so costs no extra pass.  The slots
 * are made on the first staged copy and kept until clsa_destroy.  Off on
 * Oclgrind (its calls stay on one thread); profiled calls charge the
 * copy's wall time to the transfer phase. */
#include "buffer.h"
#include "context.h"
#include "host_mem.h"
#include "launch.h"
#include "status.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct stage_part {
    cl_command_queue q;
    cl_mem buf;
    size_t off, bytes, slot;     /* slot: the piece size, at most a slot's */
    char *host;                  /* reads: the destination */
    int wide;                    /* reads: 32-bit entries to 64-bit ones at host */
    int stream;                  /* reads: streaming stores (ctx->tune.stage_stream) */
    clsa__stage_fill fill;       /* writes: the source */
    void *fill_arg;
    void *ptr[2];
    unsigned first, step;        /* this thread's pieces: first, first + step, ... */
    atomic_int *stop;            /* a filler said stop, or a call failed */
    cl_int err;
    const char *call;            /* the call that failed */
} stage_part;

static size_t piece_len(const stage_part *p, size_t k)
{
    size_t from = k * p->slot;
    return p->bytes - from < p->slot ? p->bytes - from : p->slot;
}

/* A slot emptied into the caller's memory with streaming stores: an
 * ordinary store first reads the destination's line (a host-memory read a
 * byte copied, beside the slot's read and the DMA's write).  Falls back to
 * memcpy where SSE2 is missing. */
static void copy_stream(char *dst, const char *src, size_t len)
{
#if defined(__SSE2__)
    size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
    if (head > len) head = len;
    memcpy(dst, src, head);
    dst += head, src += head, len -= head;
    for (; len >= 64; dst += 64, src += 64, len -= 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)src),
                b = _mm_loadu_si128((const __m128i *)(const void *)(src + 16)),
                c = _mm_loadu_si128((const __m128i *)(const void *)(src + 32)),
                d = _mm_loadu_si128((const __m128i *)(const void *)(src + 48));
        _mm_stream_si128((__m128i *)(void *)dst, a);
        _mm_stream_si128((__m128i *)(void *)(dst + 16), b);
        _mm_stream_si128((__m128i *)(void *)(dst + 32), c);
        _mm_stream_si128((__m128i *)(void *)(dst + 48), d);
    }
    _mm_sfence(); /* the streamed lines reach memory before the call returns */
#endif
    memcpy(dst, src, len);
}

/* The 32-bit entries of a slot widened into 64-bit ones, streamed. */
static void widen_stream(int64_t *dst, const char *src, size_t count)
{
#if defined(__SSE2__)
    size_t i = ((uintptr_t)dst & 15) && count ? 1 : 0; /* dst is 8-byte aligned */
    clsa__widen_u32(dst, src, i);
    const __m128i zero = _mm_setzero_si128();
    for (; i + 4 <= count; i += 4) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(src + 4 * i));
        _mm_stream_si128((__m128i *)(void *)(dst + i), _mm_unpacklo_epi32(x, zero));
        _mm_stream_si128((__m128i *)(void *)(dst + i + 2), _mm_unpackhi_epi32(x, zero));
    }
    _mm_sfence();
    clsa__widen_u32(dst + i, src + 4 * i, count - i);
#else
    clsa__widen_u32(dst, src, count);
#endif
}

static void failed(stage_part *p, cl_int err, const char *call)
{
    if (err == CL_SUCCESS || p->err != CL_SUCCESS) return;
    p->err = err;
    p->call = call;
    atomic_store(p->stop, 1);
}

static void wait_slot(stage_part *p, cl_event *ev)
{
    if (!*ev) return;
    cl_int w = clWaitForEvents(1, ev);
    clReleaseEvent(*ev);
    *ev = NULL;
    failed(p, w, "clWaitForEvents");
}

/* Asks for piece k into slot s; *ev its event. */
static void ask(stage_part *p, size_t k, int s, cl_event *ev)
{
    failed(p,
           clEnqueueReadBuffer(p->q, p->buf, CL_FALSE, p->off + k * p->slot, piece_len(p, k),
                               p->ptr[s], 0, NULL, ev),
           "clEnqueueReadBuffer");
}

static void *read_run(void *arg)
{
    stage_part *p = arg;
    size_t pieces = (p->bytes + p->slot - 1) / p->slot;
    cl_event ev[2] = {NULL, NULL};
    size_t k = p->first;
    if (k < pieces) ask(p, k, 0, &ev[0]);
    for (int s = 0; k < pieces && p->err == CL_SUCCESS; k += p->step, s ^= 1) {
        if (k + p->step < pieces) ask(p, k + p->step, s ^ 1, &ev[s ^ 1]);
        wait_slot(p, &ev[s]);
        if (p->err != CL_SUCCESS || atomic_load(p->stop)) break;
        int64_t *wide = (int64_t *)(void *)(p->host + 2 * k * p->slot);
        char *to = p->host + k * p->slot;
        if (p->wide && p->stream) widen_stream(wide, p->ptr[s], piece_len(p, k) / 4);
        else if (p->wide) clsa__widen_u32(wide, p->ptr[s], piece_len(p, k) / 4);
        else if (p->stream) copy_stream(to, p->ptr[s], piece_len(p, k));
        else memcpy(to, p->ptr[s], piece_len(p, k));
    }
    for (int s = 0; s < 2; s++) wait_slot(p, &ev[s]); /* no slot back while in use */
    return NULL;
}

static void *write_run(void *arg)
{
    stage_part *p = arg;
    size_t pieces = (p->bytes + p->slot - 1) / p->slot;
    cl_event ev[2] = {NULL, NULL};
    int s = 0;
    for (size_t k = p->first; k < pieces && p->err == CL_SUCCESS; k += p->step, s ^= 1) {
        wait_slot(p, &ev[s]); /* the slot's last piece has left */
        if (p->err != CL_SUCCESS || atomic_load(p->stop)) break;
        if (!p->fill(p->fill_arg, k * p->slot, piece_len(p, k), p->ptr[s])) {
            atomic_store(p->stop, 1);
            break;
        }
        failed(p,
               clEnqueueWriteBuffer(p->q, p->buf, CL_FALSE, p->off + k * p->slot,
                                    piece_len(p, k), p->ptr[s], 0, NULL, &ev[s]),
               "clEnqueueWriteBuffer");
    }
    for (s = 0; s < 2; s++) wait_slot(p, &ev[s]);
    return NULL;
}

static unsigned team_size(const clsa_context *ctx)
{
    unsigned t = ctx->tune.stage_threads;
    return t < 1 ? 1 : t > CLSA_STAGE_THREADS ? CLSA_STAGE_THREADS : t;
}

int clsa__staged_ready(clsa_context *ctx)
{
    if (!ctx->tune.stage_min || !ctx->tune.stage_slot || ctx->oclgrind) return 0;
    size_t need = 2 * (size_t)team_size(ctx);
    if (ctx->nstage && ctx->stage[0].bytes != ctx->tune.stage_slot) clsa__stage_release(ctx);
    while (ctx->nstage < need) {
        struct clsa_pinned *s = &ctx->stage[ctx->nstage];
        s->bytes = ctx->tune.stage_slot;
        if (!(s->mem = clsa__map_pinned(ctx, s->bytes, &s->ptr))) return 0;
        ctx->nstage++;
    }
    return 1;
}

/* Runs the copy over the team: part 0 on this thread.  *done = 1 when every
 * piece moved. */
static clsa_status run_team(clsa_context *ctx, stage_part *proto, void *(*run)(void *),
                            const char *what, int *done)
{
    unsigned t = team_size(ctx);
    stage_part part[CLSA_STAGE_THREADS];
    atomic_int stop;
    atomic_init(&stop, 0);
    double t0 = clsa__now();
    for (unsigned i = 0; i < t; i++) {
        part[i] = *proto;
        part[i].ptr[0] = ctx->stage[2 * i].ptr;
        part[i].ptr[1] = ctx->stage[2 * i + 1].ptr;
        part[i].first = i;
        part[i].step = t;
        part[i].stop = &stop;
        part[i].err = CL_SUCCESS;
        part[i].call = what;
    }
    clsa__run_team(run, part, sizeof *part, t);
    if (ctx->profiling) clsa__charge_ms(ctx, CLSA_PHASE_TRANSFER, what, (clsa__now() - t0) * 1e3);
    for (unsigned i = 0; i < t; i++)
        if (part[i].err != CL_SUCCESS)
            return clsa__cl(ctx, part[i].err, part[i].call, NULL);
    *done = !atomic_load(&stop);
    return CLSA_OK;
}

/* Piece size of a copy: a slot, or less where that would leave threads
 * idle (a 16 MB text of two symbols packs to 2 MB, one slot: one thread
 * would pack it all), but not below an eighth of a slot. */
static size_t piece_of(const clsa_context *ctx, size_t bytes)
{
    size_t t = team_size(ctx), slot = ctx->tune.stage_slot;
    size_t even = ((bytes + t - 1) / t + 63) / 64 * 64;
    if (even < slot / 8) even = slot / 8;
    return even < slot && even ? even : slot;
}

clsa_status clsa__staged_read(clsa_context *ctx, cl_mem src, size_t off, void *dst, size_t bytes,
                              int *done)
{
    *done = 0;
    if (!bytes || !clsa__staged_ready(ctx)) return CLSA_OK;
    stage_part proto = {.q = ctx->queue, .buf = src, .off = off, .bytes = bytes,
                        .slot = piece_of(ctx, bytes), .host = dst,
                        .stream = (int)ctx->tune.stage_stream};
    return run_team(ctx, &proto, read_run, "staged read", done);
}

clsa_status clsa__staged_read_wide(clsa_context *ctx, cl_mem src, int64_t *dst, size_t count,
                                   int *done)
{
    *done = 0;
    /* pieces of whole entries */
    size_t bytes = count * 4, slot = piece_of(ctx, bytes) / 4 * 4;
    if (!bytes || slot < 4 || !clsa__staged_ready(ctx)) return CLSA_OK;
    stage_part proto = {.q = ctx->queue, .buf = src, .off = 0, .bytes = bytes, .slot = slot,
                        .host = (char *)dst, .wide = 1, .stream = (int)ctx->tune.stage_stream};
    return run_team(ctx, &proto, read_run, "staged read", done);
}

clsa_status clsa__staged_write(clsa_context *ctx, cl_mem dst, size_t off, size_t bytes,
                               clsa__stage_fill fill, void *arg, int *done)
{
    *done = 0;
    if (!bytes || !clsa__staged_ready(ctx)) return CLSA_OK;
    stage_part proto = {.q = ctx->queue, .buf = dst, .off = off, .bytes = bytes,
                        .slot = piece_of(ctx, bytes), .fill = fill, .fill_arg = arg};
    return run_team(ctx, &proto, write_run, "staged write", done);
}

void clsa__stage_release(clsa_context *ctx)
{
    for (unsigned i = 0; i < ctx->nstage; i++) clsa__unmap_pinned(ctx, &ctx->stage[i]);
    ctx->nstage = 0;
}
