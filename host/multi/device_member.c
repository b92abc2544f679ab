/* One member of the device engine (host/sa/pd_part.h) over any dist_comm:
 * the threads of clsa_sa32/64_multi (multi_sa.c) or the ranks of an MPI
 * job (mpi_api.c).  Every member holds the whole text and has its own
 * device context. */
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "status.h"
#include "text_pack.h"
#include "device_member.h"
#include "sa/out_of_core.h"
#include "sa/pd_part.h"
#include "sa/sa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A member's device memory among k: the text and the ranks of all n
 * (5 B/n), its SA buffer and the initial sort's two scratch arrays over
 * its own m suffixes (clsa__sa_device_part: 12 B each, 13 with the digit
 * tables' m / 4 and the rest).  m is taken a
 * quarter above an even share, since the splitters come from a sample. */
static uint64_t member_need(uint64_t n, int k)
{
    uint64_t m = n / (uint64_t)k + n / (4 * (uint64_t)k) + 65536;
    return 5 * n + 13 * (m < n ? m : n) + 65536;
}

int clsa__dist_device_fits(clsa_context *ctx, int64_t n, int members)
{
    if (!ctx || !ctx->has_device || ctx->oclgrind || n < 0 || (uint64_t)n > UINT32_MAX ||
        !clsa__use_device(ctx, (uint64_t)n))
        return 0;
    uint64_t need = clsa__sa_in_memory_need((uint64_t)n, 1, 0);
    if (members > 1) {
        uint64_t share = member_need((uint64_t)n, members);
        if (share < need) need = share;
    }
    return need <= clsa__mem_free(ctx);
}

int dist_device_plan(const uint8_t *text, int64_t n, const clsa_context *ctx, int size,
                     uint64_t *split)
{
    int64_t i = 1;
    while (i < n && text[i] == text[0]) i++;
    if (i >= n) return 1; /* one repeated byte: all suffixes but the last 7 share a key */
    unsigned threads = ctx->tune.stage_threads, ws = ctx->tune.part_sample;
    clsa__pd_sample worth = {0}, splits = {0};
    int ret = -1, checked = ctx->tune.part_decline && ws >= 2;
    if (checked && clsa__pd_sample_take(text, (uint64_t)n, ws, threads, &worth)) goto done;
    if (checked && !clsa__pd_part_worth(&worth, ctx->tune.part_decline)) {
        ret = 1;
        goto done;
    }
    const clsa__pd_sample *s = &worth;
    if (!checked || ws != CLSA_PART_SPLIT_SAMPLES) { /* the same positions otherwise */
        if (clsa__pd_sample_take(text, (uint64_t)n, CLSA_PART_SPLIT_SAMPLES, threads, &splits))
            goto done;
        s = &splits;
    }
    ret = clsa__pd_part_splitters(s, size, split) ? -1 : 0;
done:
    clsa__pd_sample_free(&worth);
    clsa__pd_sample_free(&splits);
    return ret;
}

clsa_status dist_device_member(dist_comm *c, clsa_context *ctx, const uint8_t *text, int64_t n,
                               clsa__text_share *packed, const uint64_t *split,
                               dist_slice_reader read, dist_slice_known known, void *arg,
                               dist_member_times *t, char *msg, size_t cap)
{
    dist_member_times own;
    if (!t) t = &own;
    int alone = !split; /* member 0 builds it all, the others nothing (no collective) */
    clsa__pd_part p;
    memset(&p, 0, sizeof p);
    p.comm = c;
    p.split = split;
    p.host_text = text;
    p.msg = msg;
    p.cap = cap;
    p.known = known;
    p.known_arg = arg;
    msg[0] = 0;
    /* alone, the slices are known before the upload */
    if (alone && known) known(arg, 0, c->rank == 0 ? (uint64_t)n : 0);
    cl_mem dtext = NULL, dsa = NULL;
    clsa__call_begin(ctx);
    clsa_status st = CLSA_OK;
    double t0 = clsa__now();
    if (!alone || c->rank == 0) {
        st = clsa__alloc(ctx, (size_t)n, &dtext);
        /* a member's SA buffer holds its slice, made once its size is known */
        if (!st && alone) st = clsa__alloc(ctx, (size_t)n * 4, &dsa);
        if (!st) st = clsa__write_text_shared(ctx, dtext, text, (size_t)n, packed);
    }
    double t1 = clsa__now();
    if (!alone) st = clsa__sa_device_part(ctx, dtext, &dsa, n, &p, st);
    if (!st && p.declined) { /* member 0 builds it all: an SA buffer of n */
        clsa__free(ctx, &dsa);
        if (c->rank == 0) st = clsa__alloc(ctx, (size_t)n * 4, &dsa);
    }
    if (!st && (alone || p.declined)) { /* one device, with the text already there */
        if (c->rank == 0) st = clsa__sa_device(ctx, dtext, dsa, n, 0);
        p.base = 0;
        p.count = c->rank == 0 ? (uint64_t)n : 0;
    }
    /* kernels still queued would be charged to the download */
    if (!st && dsa) st = clsa__finish(ctx);
    double t2 = clsa__now();
    if (!st) st = read(arg, ctx, dsa, p.base, p.count);
    t->upload = t1 - t0;
    t->sort = t2 - t1;
    t->download = clsa__now() - t2;
    t->one = alone || p.declined;
    if (st && !msg[0]) snprintf(msg, cap, "%s", clsa__last_error(ctx));
    clsa__free(ctx, &dtext);
    clsa__free(ctx, &dsa);
    return clsa__call_end(ctx, st);
}

clsa_status dist_read_slice(clsa_context *ctx, cl_mem dsa, void *dst, uint64_t count, int index64)
{
    return index64 ? clsa__read_wide(ctx, dsa, dst, (size_t)count)
                   : clsa__read(ctx, dsa, 0, dst, (size_t)count * 4);
}

static clsa_status keep_slice(void *arg, clsa_context *ctx, cl_mem dsa, uint64_t base,
                              uint64_t count)
{
    dist_host_slice *sl = arg;
    sl->base = base;
    sl->count = count;
    if (!count) return CLSA_OK;
    if (!(sl->v = malloc((size_t)count * 4)))
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "out of host memory for the SA slice "
                          "(%llu entries)", (unsigned long long)count);
    return clsa__read(ctx, dsa, 0, sl->v, (size_t)count * 4);
}

/* The slice where the caller's place puts it, else in a malloc'd array. */
typedef struct placed {
    dist_host_slice *sl;
    int width;
    dist_slice_place place;
    dist_slice_known known;
    void *arg;
    char *msg;
    size_t cap;
} placed;

static clsa_status read_placed(void *arg, clsa_context *ctx, cl_mem dsa, uint64_t base,
                               uint64_t count)
{
    placed *p = arg;
    void *dst = NULL;
    clsa_status st = p->place ? p->place(p->arg, base, count, &dst, p->msg, p->cap) : CLSA_OK;
    if (st || !dst) return st ? st : keep_slice(p->sl, ctx, dsa, base, count);
    p->sl->base = base;
    p->sl->count = count;
    return count ? dist_read_slice(ctx, dsa, dst, count, p->width == 8) : CLSA_OK;
}

static void known_placed(void *arg, uint64_t base, uint64_t count)
{
    placed *p = arg;
    if (p->known) p->known(p->arg, base, count);
}

clsa_status clsa__dist_device_sa(dist_comm *c, clsa_context *ctx, const uint8_t *text, int64_t n,
                           dist_host_slice *out, char *msg, size_t cap)
{
    return clsa__dist_device_sa_to(c, ctx, text, n, 4, NULL, NULL, NULL, out, msg, cap);
}

clsa_status clsa__dist_device_sa_to(dist_comm *c, clsa_context *ctx, const uint8_t *text,
                                    int64_t n, int width, dist_slice_place place,
                                    dist_slice_known known, void *arg, dist_host_slice *out,
                                    char *msg, size_t cap)
{
    double t0 = clsa__now();
    memset(out, 0, sizeof *out);
    /* a single member has no one to trade ranks with: the one-device
     * pipeline (direct SA, bucketed inversion) instead of pd_part's */
    uint64_t *split = c->size > 1 ? malloc(sizeof *split * (size_t)c->size) : NULL;
    int plan = c->size == 1 ? 1 : split ? dist_device_plan(text, n, ctx, c->size, split) : -1;
    int64_t alone = plan == 1;
    clsa_status st = CLSA_OK;
    if (c->allreduce(c, &alone, 1, DIST_MAX)) { /* every member the same way */
        snprintf(msg, cap, "%s", c->msg);
        st = CLSA_ERR_IO;
    } else if (!alone && plan < 0) {
        snprintf(msg, cap, "out of host memory for the splitters");
        st = CLSA_ERR_HOST_MEMORY;
    }
    out->t.plan = clsa__now() - t0;
    if (!(st = dist_agree(c, st, msg, cap)))
        st = dist_device_member(c, ctx, text, n, NULL, alone ? NULL : split, read_placed,
                                known_placed, &(placed){out, width, place, known, arg, msg, cap},
                                &out->t, msg, cap);
    free(split);
    return dist_agree(c, st, msg, cap);
}
