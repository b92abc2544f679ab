/* One device's part of a suffix array sorted on several devices: owners,
 * slices and the rank exchange before each doubling pass (pd_part.h). */
#include "pd_part.h"
#include "pd_lazy.h"
#include "sym_rank.h"
#include "collective.h"
#include "prim/scan.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The program of these kernels. */
static const char *const PROGRAM = "pd_part";
uint64_t clsa__pd_part_key(const uint8_t *text, uint64_t n, uint64_t p)
{
    uint64_t k = 0;
    for (uint64_t j = 0; j < 8; j++) k = k << 8 | (p + j < n ? text[p + j] : 0u);
    return k;
}

/* One part of a sample's gather: windows [from, to). */
typedef struct sample_part {
    const uint8_t *text;
    uint64_t n, s, from, to;
    uint8_t *win;
} sample_part;

static void *sample_gather(void *arg)
{
    const sample_part *g = arg;
    for (uint64_t i = g->from; i < g->to; i++) {
        uint64_t p = i * g->n / g->s, len = g->n - p < CLSA_PART_WIN ? g->n - p : CLSA_PART_WIN;
        uint8_t *w = g->win + i * CLSA_PART_WIN;
        memcpy(w, g->text + p, (size_t)len);
        memset(w + len, 0, (size_t)(CLSA_PART_WIN - len));
    }
    return NULL;
}

int clsa__pd_sample_take(const uint8_t *text, uint64_t n, uint64_t samples, unsigned threads,
                         clsa__pd_sample *out)
{
    uint64_t s = n < samples ? n : samples;
    out->n = n;
    out->s = s;
    out->win = malloc((size_t)(s ? s : 1) * CLSA_PART_WIN);
    if (!out->win) return -1;
    /* each window is a cache miss (and a TLB miss) into the text: a team
     * of threads takes them */
    sample_part part[16];
    unsigned t = threads < 1 ? 1 : threads > 16 ? 16 : threads;
    if ((uint64_t)t * 1024 > s) t = 1;
    for (unsigned i = 0; i < t; i++)
        part[i] = (sample_part){text, n, s, s * i / t, s * (i + 1) / t, out->win};
    clsa__run_team(sample_gather, part, sizeof *part, t);
    return 0;
}

void clsa__pd_sample_free(clsa__pd_sample *smp)
{
    free(smp->win);
    smp->win = NULL;
}

int clsa__pd_part_splitters(const clsa__pd_sample *smp, int size, uint64_t *split)
{
    uint64_t s = smp->s;
    uint64_t *keys = malloc((size_t)(s ? s : 1) * 2 * sizeof *keys);
    if (!keys) return -1;
    for (uint64_t i = 0; i < s; i++) /* a window is 0 past the end, as the key */
        keys[i] = clsa__pd_part_key(smp->win + i * CLSA_PART_WIN, CLSA_PART_WIN, 0);
    const uint64_t *sorted = clsa__sort_u64(keys, keys + s, (size_t)s);
    for (int g = 1; g < size; g++) split[g - 1] = s ? sorted[(uint64_t)g * s / (uint64_t)size] : 0;
    free(keys);
    return 0;
}

int clsa__pd_part_worth(const clsa__pd_sample *smp, unsigned decline)
{
    uint64_t s = smp->s, n = smp->n;
    if (!decline || s < 2) return 1;
    /* the sample's alphabet packed as the device packs the text's (a rarer
     * byte the sample misses only lengthens the keys: fewer duplicates) */
    uint16_t code[256] = {0};
    unsigned sigma = 0;
    for (uint64_t i = 0; i < s; i++) code[smp->win[i * CLSA_PART_WIN]] = 1;
    for (int c = 0; c < 256; c++)
        if (code[c]) code[c] = (uint16_t)++sigma;
    unsigned b = clsa__bits_of(sigma), h0 = 64 / b; /* h0 <= CLSA_PART_WIN */
    uint64_t *keys = malloc((size_t)s * 2 * sizeof *keys);
    if (!keys) return 1; /* the check after the initial sort still decides */
    for (uint64_t i = 0; i < s; i++) {
        uint64_t p = i * n / s, k = 0;
        const uint8_t *w = smp->win + i * CLSA_PART_WIN;
        for (unsigned j = 0; j < h0; j++) k = k << b | (p + j < n ? code[w[j]] : 0u);
        keys[i] = k;
    }
    const uint64_t *sorted = clsa__sort_u64(keys, keys + s, (size_t)s);
    uint64_t shared = 0; /* sampled suffixes whose key another sampled one has */
    for (uint64_t i = 0; i < s; i++)
        shared +=
            (i > 0 && sorted[i - 1] == sorted[i]) || (i + 1 < s && sorted[i + 1] == sorted[i]);
    free(keys);
    /* A suffix whose key g - 1 others share finds one of them in the
     * sample with probability about (g - 1) s / n, so shared / s * n / s
     * estimates the mean of g - 1, which bounds the share of suffixes with
     * g >= 2 from above.  The share in the sample alone is far below the
     * text's where most repeats are rarer than n / s (1 GB of generated
     * words: 0.75% sampled, 46% unsorted at 100 MB; real DNA 0.27% and
     * 9%): declined while the bound passes 1 / decline.  Exact for
     * n <= samples (s = n); random DNA or bytes share no sampled key. */
    return (double)shared * decline * (double)n <= (double)s * (double)s;
}

int clsa__pd_part_owner(const clsa__pd_part *p, uint64_t n, uint64_t pos)
{
    uint64_t k = clsa__pd_part_key(p->host_text, n, pos);
    int o = 0;
    for (int s = 0; s + 1 < p->comm->size; s++) o += p->split[s] <= k;
    return o;
}

/* The local failure's text (the context's message) for the agreement. */
static clsa_status agree(clsa_context *ctx, clsa__pd_part *p, clsa_status st)
{
    if (st && !p->msg[0]) snprintf(p->msg, p->cap, "%s", clsa__last_error(ctx));
    st = dist_agree(p->comm, st, p->msg, p->cap);
    return st;
}

static clsa_status transport(clsa__pd_part *p)
{
    snprintf(p->msg, p->cap, "%s", p->comm->msg);
    return CLSA_ERR_IO;
}

clsa_status clsa__pd_part_own(clsa_context *ctx, clsa__pd_part *p, cl_mem text, uint64_t n,
                              cl_mem *u, cl_mem bits, uint64_t *m)
{
    int size = p->comm->size;
    cl_ulong nn = n;
    cl_uint nsplit = (cl_uint)(size - 1), me = (cl_uint)p->comm->rank;
    size_t wg = ctx->tune.wg, words = (size_t)((n + 31) / 32), nb = (words + wg - 1) / wg;
    /* the write's staging: 8 KB of local memory at most, a fourth of the
     * work-group's suffixes (two members: two rounds a work-group) */
    cl_uint stage = (cl_uint)(wg * 8 < 2048 ? wg * 8 : 2048);
    uint32_t total = 0;
    cl_mem count = NULL;
    clsa_status st;
    *m = 0;
    if ((st = clsa__alloc(ctx, (size_t)nsplit * 8 + 8, &p->dsplit)) ||
        (st = clsa__write(ctx, p->dsplit, 0, p->split, (size_t)nsplit * 8)) ||
        (st = clsa__alloc(ctx, nb * 4, &count)) ||
        (st = CLSA_SA_RUN(ctx, PROGRAM, 0, "pd_part_own", words, 0, CLSA_KARG(text), CLSA_KARG(nn),
                          CLSA_KARG(p->dsplit), CLSA_KARG(nsplit), CLSA_KARG(me), CLSA_KARG(bits),
                          CLSA_KARG(count), CLSA_KLOCAL(wg * 4), CLSA_KLOCAL(wg * 4))) ||
        (st = clsa__scan(ctx, count, count, nb, 0, 0, &total)) ||
        /* the member's SA buffer: its m suffixes, later its slice */
        (st = clsa__alloc(ctx, (size_t)(total ? total : 1) * 4, u)) ||
        (st = CLSA_SA_RUN(ctx, PROGRAM, 0, "pd_part_own_write", words, 0, CLSA_KARG(bits),
                          CLSA_KARG(nn), CLSA_KARG(count), CLSA_KARG(*u), CLSA_KLOCAL(wg * 4),
                          CLSA_KLOCAL(wg * 4), CLSA_KLOCAL(stage * 4), CLSA_KARG(stage))))
        goto done;
    *m = total;
done:
    clsa__free(ctx, &count);
    return st;
}

clsa_status clsa__pd_part_slices(clsa_context *ctx, clsa__pd_part *p, clsa_status st,
                                 uint64_t m)
{
    dist_comm *c = p->comm;
    int64_t *all = malloc(sizeof(int64_t) * (size_t)c->size), mine[1] = {(int64_t)m};
    if (!st && !all)
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "several devices: out of host memory");
    if ((st = agree(ctx, p, st))) goto done;
    if (c->allgather(c, mine, 1, all)) {
        st = transport(p);
        goto done;
    }
    p->base = 0;
    for (int r = 0; r < c->rank; r++) p->base += (uint64_t)all[r];
    p->count = m;
    if (p->known) p->known(p->known_arg, p->base, p->count);
done:
    free(all);
    return st;
}

/* The asked positions of this member (device list req, host copy *hreq,
 * *nreq of them). */
static clsa_status ask(clsa_context *ctx, clsa__pd_part *p, clsa__sa_work *w, cl_mem text,
                       uint64_t h, cl_mem *req, uint32_t **hreq, uint32_t *nreq)
{
    cl_ulong m = w->m, n = w->n, hh = h;
    cl_uint mask = w->n < ((uint64_t)1 << 31) ? 0x7fffffffu : 0xffffffffu;
    cl_uint nsplit = (cl_uint)(p->comm->size - 1), me = (cl_uint)p->comm->rank;
    clsa_status st;
    *nreq = 0;
    if (!w->m) return CLSA_OK;
    /* k (flags, then their scan) and sk (the asking slots) are free
     * between passes */
    if ((st = CLSA_SA_RUN(ctx, PROGRAM, 0, "pd_part_need", (size_t)m, 0, CLSA_KARG(w->u),
                          CLSA_KARG(m), CLSA_KARG(n), CLSA_KARG(hh), CLSA_KARG(mask),
                          CLSA_KARG(text), CLSA_KARG(p->dsplit), CLSA_KARG(nsplit), CLSA_KARG(me),
                          CLSA_KARG(w->k))) ||
        (st = clsa__scan_index(ctx, w->k, w->k, (size_t)m, 0, CLSA_SCAN_FLAGS, nreq, w->sk, 0)))
        return st;
    if (!*nreq) return CLSA_OK;
    cl_ulong cnt = *nreq;
    *hreq = malloc((size_t)cnt * 4);
    if (!*hreq) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "several devices: out of host memory");
    if ((st = clsa__alloc(ctx, (size_t)cnt * 4, req)) ||
        (st = CLSA_SA_RUN(ctx, PROGRAM, 0, "pd_part_requests", (size_t)cnt, 0, CLSA_KARG(w->u),
                          CLSA_KARG(w->sk), CLSA_KARG(cnt), CLSA_KARG(hh), CLSA_KARG(mask),
                          CLSA_KARG(*req))))
        return st;
    return clsa__read(ctx, *req, 0, *hreq, (size_t)cnt * 4);
}

/* The owner's side: answers[r] = rank of position asked[r] (all its own). */
static clsa_status answer(clsa_context *ctx, clsa__pd_part *p, clsa__sa_work *w,
                          const uint32_t *asked, uint32_t *answers, uint64_t cnt)
{
    cl_mem dreq = NULL, dans = NULL;
    cl_ulong c = cnt, count = p->count;
    cl_uint base = (cl_uint)p->base;
    clsa_status st = CLSA_OK;
    if (!cnt) return CLSA_OK;
    if (w->isa_unset && !p->isa_made) { /* the initial sort finished the slice in u */
        CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, 0, "pd_part_isa", (size_t)count, 0, CLSA_KARG(w->u),
                             CLSA_KARG(count), CLSA_KARG(base), CLSA_KARG(w->isa)));
        p->isa_made = 1;
    }
    CLSA_TRY(clsa__alloc(ctx, (size_t)cnt * 4, &dreq));
    CLSA_TRY(clsa__alloc(ctx, (size_t)cnt * 4, &dans));
    CLSA_TRY(clsa__write(ctx, dreq, 0, asked, (size_t)cnt * 4));
    if (w->lazy) CLSA_TRY(clsa__pd_lazy_fill(ctx, w, dreq, cnt, 0, 0)); /* ranks unset there */
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, 0, "pd_part_answer", (size_t)cnt, 0, CLSA_KARG(dreq),
                         CLSA_KARG(c), CLSA_KARG(w->isa), CLSA_KARG(dans)));
    CLSA_TRY(clsa__read(ctx, dans, 0, answers, (size_t)cnt * 4));
done:
    clsa__free(ctx, &dreq);
    clsa__free(ctx, &dans);
    return st;
}

static clsa_status store(clsa_context *ctx, clsa__sa_work *w, cl_mem req, const uint32_t *ans,
                         uint64_t cnt)
{
    cl_mem dans = NULL;
    cl_ulong c = cnt;
    clsa_status st = CLSA_OK;
    if (!cnt) return CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)cnt * 4, &dans));
    CLSA_TRY(clsa__write(ctx, dans, 0, ans, (size_t)cnt * 4));
    CLSA_TRY(CLSA_SA_RUN(ctx, PROGRAM, 0, "pd_part_store", (size_t)cnt, 0, CLSA_KARG(req),
                         CLSA_KARG(dans), CLSA_KARG(c), CLSA_KARG(w->isa)));
done:
    clsa__free(ctx, &dans);
    return st;
}

/* Host buffers of one exchange: the asked positions grouped by owner
 * (order[] maps them back), what others ask of this member, the answers. */
typedef struct part_xfer {
    int64_t *scount, *rcount;
    uint32_t *hreq, *sorted, *asked, *answers, *back, *ans;
    uint32_t *order;
} part_xfer;

static void xfer_free(part_xfer *x)
{
    free(x->scount), free(x->rcount), free(x->hreq), free(x->sorted), free(x->asked);
    free(x->answers), free(x->back), free(x->ans), free(x->order);
}

/* Groups the asked positions by owner (stable): sorted[k] = hreq[order[k]]. */
static int route(const clsa__pd_part *p, uint64_t n, part_xfer *x, uint32_t nreq)
{
    int size = p->comm->size;
    int64_t *at = calloc((size_t)size, sizeof *at);
    uint8_t *own = malloc(nreq ? nreq : 1);
    x->sorted = malloc((size_t)(nreq ? nreq : 1) * 4);
    x->order = malloc((size_t)(nreq ? nreq : 1) * 4);
    int ok = at && own && x->sorted && x->order;
    for (uint32_t r = 0; ok && r < nreq; r++) {
        own[r] = (uint8_t)(size == 2 ? 1 - p->comm->rank : clsa__pd_part_owner(p, n, x->hreq[r]));
        x->scount[own[r]]++;
    }
    for (int d = 1; ok && d < size; d++) at[d] = at[d - 1] + x->scount[d - 1];
    for (uint32_t r = 0; ok && r < nreq; r++) {
        int64_t k = at[own[r]]++;
        x->sorted[k] = x->hreq[r];
        x->order[k] = r;
    }
    free(at);
    free(own);
    return ok;
}

clsa_status clsa__pd_part_exchange(clsa_context *ctx, clsa__pd_part *p, clsa__sa_work *w,
                                   cl_mem text, uint64_t h, clsa_status st, int *more)
{
    dist_comm *c = p->comm;
    part_xfer x;
    memset(&x, 0, sizeof x);
    cl_mem req = NULL;
    uint32_t nreq = 0;
    *more = 0;
    if (!st) st = dist_fault(c, "exchange", p->msg, p->cap);
    if ((st = agree(ctx, p, st))) return st;
    int64_t left[1] = {(int64_t)w->m};
    if (c->allreduce(c, left, 1, DIST_SUM)) return transport(p);
    if (!left[0]) return CLSA_OK;
    if (!p->exchanges++) { /* any member's setting declines for all */
        unsigned decline = ctx->tune.part_decline;
        int64_t no[1] = {decline && (uint64_t)left[0] > w->n / decline};
        if (c->allreduce(c, no, 1, DIST_MAX)) return transport(p);
        if ((p->declined = no[0] != 0)) return CLSA_OK;
    }
    *more = 1;
    x.scount = calloc((size_t)c->size, sizeof *x.scount);
    x.rcount = calloc((size_t)c->size, sizeof *x.rcount);
    if (!x.scount || !x.rcount)
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "several devices: out of host memory");
    if (!st) st = ask(ctx, p, w, text, h, &req, &x.hreq, &nreq);
    if (!st && !route(p, w->n, &x, nreq))
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "several devices: out of host memory");
    if ((st = agree(ctx, p, st))) goto done;
    if (c->alltoall_counts(c, x.scount, x.rcount)) {
        st = transport(p);
        goto done;
    }
    int64_t nasked = 0;
    for (int r = 0; r < c->size; r++) nasked += x.rcount[r];
    x.asked = malloc((size_t)(nasked ? nasked : 1) * 4);
    x.answers = malloc((size_t)(nasked ? nasked : 1) * 4);
    x.back = malloc((size_t)(nreq ? nreq : 1) * 4);
    x.ans = malloc((size_t)(nreq ? nreq : 1) * 4);
    if (!x.asked || !x.answers || !x.back || !x.ans)
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "several devices: out of host memory");
    if ((st = agree(ctx, p, st))) goto done;
    if (c->alltoallv(c, x.sorted, x.scount, x.asked, x.rcount, 4)) {
        st = transport(p);
        goto done;
    }
    st = answer(ctx, p, w, x.asked, x.answers, (uint64_t)nasked);
    if ((st = agree(ctx, p, st))) goto done;
    if (c->alltoallv(c, x.answers, x.rcount, x.back, x.scount, 4)) {
        st = transport(p);
        goto done;
    }
    for (uint32_t k = 0; k < nreq; k++) x.ans[x.order[k]] = x.back[k];
    st = store(ctx, w, req, x.ans, nreq);
    st = agree(ctx, p, st);
done:
    clsa__free(ctx, &req);
    xfer_free(&x);
    return st;
}

clsa_status clsa__pd_part_invert(clsa_context *ctx, clsa__pd_part *p, clsa__sa_work *w,
                                 cl_mem text, cl_mem sa)
{
    cl_ulong n = w->n;
    cl_uint nsplit = (cl_uint)(p->comm->size - 1), me = (cl_uint)p->comm->rank;
    cl_uint base = (cl_uint)p->base;
    /* u (= sa) holds the slice, or direct mode wrote it there */
    if (w->isa_unset || w->sa || !p->count || p->declined) return CLSA_OK;
    return CLSA_SA_RUN(ctx, PROGRAM, 0, "pd_part_invert", (size_t)n, 0, CLSA_KARG(w->isa),
                       CLSA_KARG(text), CLSA_KARG(n), CLSA_KARG(p->dsplit), CLSA_KARG(nsplit),
                       CLSA_KARG(me), CLSA_KARG(base), CLSA_KARG(sa));
}
