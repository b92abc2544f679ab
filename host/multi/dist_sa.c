/* Distributed prefix doubling (docs/DESIGN.md, "Distributed suffix array").
 *
 * Rank r owns positions [lo, hi) and keeps rk[i] for them: the SA index of
 * the first suffix of i's group (suffixes equal on the prefix sorted so
 * far).  A pass sorts the still-active positions by (rk[i], rk[i + h] + 1)
 * (0 past the end: a proper prefix first) with the sample sort, gives each
 * new group the SA index of its first member and sends the ranks back to
 * their owners.  A position whose group has one member is final and drops
 * out.  When none is left, rk is the inverse suffix array, sent to the
 * owners of the SA slots. */
#include "dist_sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dist_state {
    dist_comm *c;
    clsa_context *ctx;
    const uint8_t *window; /* text[lo .. dist_window_hi) */
    int64_t n, lo, hi, m, chunk;
    int64_t first_h; /* symbols in the initial key: the first doubling step */
    int64_t *rk, *rk2; /* rank of i, rank of i + h, for owned i */
    uint8_t *active;
    char *msg;
    size_t cap;
} dist_state;

static int owner(const dist_state *s, int64_t j) { return (int)(j / s->chunk); }

static clsa_status transport(dist_state *s)
{
    snprintf(s->msg, s->cap, "%s", s->c->msg);
    return CLSA_ERR_IO;
}

/* ---- initial keys: k symbols packed, alphabet compacted over all ranks ---- */

static clsa_status initial_tuples(dist_state *s, dist_tup *t)
{
    int64_t seen[256] = {0};
    for (int64_t i = 0; i < s->m; i++) seen[s->window[i]] = 1;
    if (s->c->allreduce(s->c, seen, 256, DIST_MAX)) return transport(s);
    uint64_t code[256];
    unsigned sigma = 0, bits = 1;
    for (int ch = 0; ch < 256; ch++) code[ch] = seen[ch] ? ++sigma : 0;
    while ((1u << bits) <= sigma) bits++; /* 0 is past the end */
    unsigned k = 64 / bits;
    s->first_h = k;
    for (int64_t i = s->lo; i < s->hi; i++) {
        uint64_t key = 0;
        for (unsigned j = 0; j < k; j++) {
            uint64_t sym = i + j < s->n ? code[s->window[i + j - s->lo]] : 0;
            key |= sym << (64 - bits * (j + 1));
        }
        t[i - s->lo] = (dist_tup){key, 0, i};
    }
    return CLSA_OK;
}

/* rk2[i - lo] = rk[i + h]: every owned rank goes to the owner of its
 * position minus h; the ranges are contiguous, so the received blocks are
 * in position order. */
static clsa_status fetch_shifted(dist_state *s, int64_t h)
{
    int P = s->c->size;
    int64_t *scount = calloc((size_t)P, sizeof *scount), *rcount = calloc((size_t)P, sizeof *rcount);
    clsa_status st = scount && rcount ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st) snprintf(s->msg, s->cap, "out of host memory");
    if ((st = dist_agree(s->c, st, s->msg, s->cap))) goto done;
    int64_t from = s->lo > h ? s->lo : h;
    if (from > s->hi) from = s->hi; /* nothing to send; keeps the pointer inside rk */
    for (int64_t j = from; j < s->hi; j++) scount[owner(s, j - h)]++;
    if (s->c->alltoall_counts(s->c, scount, rcount) ||
        s->c->alltoallv(s->c, s->rk + (from - s->lo), scount, s->rk2, rcount, sizeof *s->rk))
        st = transport(s);
done:
    free(scount);
    free(rcount);
    return st;
}

static int64_t active_tuples(const dist_state *s, int64_t h, dist_tup *t)
{
    int64_t na = 0;
    for (int64_t k = 0; k < s->m; k++) {
        if (!s->active[k]) continue;
        int64_t i = s->lo + k;
        uint64_t b = i + h < s->n ? (uint64_t)s->rk2[k] + 1 : 0;
        t[na++] = (dist_tup){(uint64_t)s->rk[k], b, i};
    }
    return na;
}

/* ---- new ranks from the sorted slices --------------------------------------- */

enum { EDGE_WORDS = 5 }; /* count, first a, first b, last a, last b */

static int same_key(const dist_tup *x, uint64_t a, uint64_t b) { return x->a == a && x->b == b; }

/* Per element: the global index of the first element with its a (g1) and
 * with its (a, b) (g2); a group may span several ranks, so the last ones
 * of the ranks before come through an allgather. */
static clsa_status rank_slice(dist_state *s, const dist_tup *t, int64_t nt, int initial,
                              int64_t *pairs)
{
    int P = s->c->size, me = s->c->rank;
    int64_t edge[EDGE_WORDS] = {nt, 0, 0, 0, 0}, *edges = malloc(sizeof(int64_t) * EDGE_WORDS * P);
    int64_t heads[2], *allheads = malloc(sizeof(int64_t) * 2 * P);
    clsa_status st = edges && allheads ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st) snprintf(s->msg, s->cap, "out of host memory");
    if ((st = dist_agree(s->c, st, s->msg, s->cap))) goto done;
    if (nt) {
        edge[1] = (int64_t)t[0].a, edge[2] = (int64_t)t[0].b;
        edge[3] = (int64_t)t[nt - 1].a, edge[4] = (int64_t)t[nt - 1].b;
    }
    if (s->c->allgather(s->c, edge, EDGE_WORDS, edges)) {
        st = transport(s);
        goto done;
    }
    int64_t off = 0, prev = -1, next = -1;
    for (int r = 0; r < me; r++) {
        off += edges[EDGE_WORDS * r];
        if (edges[EDGE_WORDS * r]) prev = r;
    }
    for (int r = P - 1; r > me; r--)
        if (edges[EDGE_WORDS * r]) next = r;
    /* first pass: local group starts, -1 where the group began before */
    int64_t g1 = -1, g2 = -1;
    for (int64_t k = 0; k < nt; k++) {
        int has_prev = k || prev >= 0;
        uint64_t pa = k ? t[k - 1].a : (uint64_t)edges[EDGE_WORDS * (prev < 0 ? 0 : prev) + 3];
        uint64_t pb = k ? t[k - 1].b : (uint64_t)edges[EDGE_WORDS * (prev < 0 ? 0 : prev) + 4];
        if (!has_prev || pa != t[k].a) g1 = off + k;
        if (!has_prev || !same_key(&t[k], pa, pb)) g2 = off + k;
    }
    heads[0] = g1, heads[1] = g2;
    if (s->c->allgather(s->c, heads, 2, allheads)) {
        st = transport(s);
        goto done;
    }
    g1 = g2 = -1;
    for (int r = 0; r < me; r++) {
        if (allheads[2 * r] > g1) g1 = allheads[2 * r];
        if (allheads[2 * r + 1] > g2) g2 = allheads[2 * r + 1];
    }
    for (int64_t k = 0; k < nt; k++) {
        int has_prev = k || prev >= 0;
        uint64_t pa = k ? t[k - 1].a : (uint64_t)edges[EDGE_WORDS * (prev < 0 ? 0 : prev) + 3];
        uint64_t pb = k ? t[k - 1].b : (uint64_t)edges[EDGE_WORDS * (prev < 0 ? 0 : prev) + 4];
        if (!has_prev || pa != t[k].a) g1 = off + k;
        int head = !has_prev || !same_key(&t[k], pa, pb);
        if (head) g2 = off + k;
        int next_head;
        if (k + 1 < nt) next_head = !same_key(&t[k + 1], t[k].a, t[k].b);
        else if (next >= 0)
            next_head = !(edges[EDGE_WORDS * next + 1] == (int64_t)t[k].a &&
                          edges[EDGE_WORDS * next + 2] == (int64_t)t[k].b);
        else next_head = 1;
        int64_t r = initial ? g2 : (int64_t)t[k].a + (g2 - g1);
        pairs[2 * k] = t[k].i;
        pairs[2 * k + 1] = head && next_head ? -(r + 1) : r; /* negative: final */
    }
done:
    free(edges);
    free(allheads);
    return st;
}

/* Sends (position, rank) pairs to the owners of the positions (by_rank: to
 * the owners of SA slot `rank`, the final scatter) and applies them. */
static clsa_status send_home(dist_state *s, int64_t *pairs, int64_t np, int64_t *sa_part)
{
    int P = s->c->size;
    int64_t *scount = calloc((size_t)P, sizeof *scount), *rcount = calloc((size_t)P, sizeof *rcount);
    int64_t *pos = calloc((size_t)P, sizeof *pos), *send = malloc(sizeof(int64_t) * 2 * (np ? np : 1));
    int64_t *recv = NULL;
    clsa_status st = scount && rcount && pos && send ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st) snprintf(s->msg, s->cap, "out of host memory");
    if ((st = dist_agree(s->c, st, s->msg, s->cap))) goto done;
    for (int64_t k = 0; k < np; k++) scount[owner(s, pairs[2 * k + (sa_part ? 1 : 0)])]++;
    for (int d = 1; d < P; d++) pos[d] = pos[d - 1] + scount[d - 1];
    for (int64_t k = 0; k < np; k++) {
        int64_t *dst = send + 2 * pos[owner(s, pairs[2 * k + (sa_part ? 1 : 0)])]++;
        dst[0] = pairs[2 * k], dst[1] = pairs[2 * k + 1];
    }
    if (s->c->alltoall_counts(s->c, scount, rcount)) {
        st = transport(s);
        goto done;
    }
    int64_t total = 0;
    for (int r = 0; r < P; r++) total += rcount[r];
    recv = malloc(sizeof(int64_t) * 2 * (total ? total : 1));
    st = recv ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st) snprintf(s->msg, s->cap, "out of host memory");
    if ((st = dist_agree(s->c, st, s->msg, s->cap))) goto done;
    if (s->c->alltoallv(s->c, send, scount, recv, rcount, 2 * sizeof(int64_t))) {
        st = transport(s);
        goto done;
    }
    for (int64_t k = 0; k < total; k++) {
        int64_t i = recv[2 * k], r = recv[2 * k + 1];
        if (sa_part) {
            sa_part[r - s->lo] = i;
            continue;
        }
        s->rk[i - s->lo] = r < 0 ? -r - 1 : r;
        s->active[i - s->lo] = r >= 0;
    }
done:
    free(scount);
    free(rcount);
    free(pos);
    free(send);
    free(recv);
    return st;
}

/* One pass: sort the active tuples, rank them, send the ranks home; *left
 * gets the number of positions still active on every rank. */
static clsa_status pass(dist_state *s, dist_tup *t, int64_t nt, int initial, int64_t *left)
{
    dist_tup *sorted = NULL;
    int64_t ns = 0, *pairs = NULL;
    clsa_status st = dist_sample_sort(s->c, s->ctx, t, nt, &sorted, &ns, s->msg, s->cap);
    if (st) return st;
    pairs = malloc(sizeof(int64_t) * 2 * (ns ? ns : 1));
    st = pairs ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st) snprintf(s->msg, s->cap, "out of host memory");
    if ((st = dist_agree(s->c, st, s->msg, s->cap))) goto done;
    if ((st = rank_slice(s, sorted, ns, initial, pairs))) goto done;
    free(sorted);
    sorted = NULL;
    if ((st = send_home(s, pairs, ns, NULL))) goto done;
    int64_t cnt[1] = {0};
    for (int64_t k = 0; k < s->m; k++) cnt[0] += s->active[k];
    if (s->c->allreduce(s->c, cnt, 1, DIST_SUM)) st = transport(s);
    *left = cnt[0];
done:
    free(sorted);
    free(pairs);
    return st;
}

static clsa_status phase_fault(dist_state *s, const char *phase)
{
    clsa_status st = dist_fault(s->c, phase, s->msg, s->cap);
    return dist_agree(s->c, st, s->msg, s->cap);
}

static clsa_status run(dist_state *s, int64_t *sa_part)
{
    size_t m1 = (size_t)(s->m ? s->m : 1);
    dist_tup *t = malloc(m1 * sizeof *t);
    s->rk = malloc(m1 * sizeof *s->rk);
    s->rk2 = malloc(m1 * sizeof *s->rk2);
    s->active = malloc(m1);
    clsa_status st = t && s->rk && s->rk2 && s->active ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st)
        snprintf(s->msg, s->cap, "out of host memory for %lld positions", (long long)s->m);
    if ((st = dist_agree(s->c, st, s->msg, s->cap))) goto done;
    memset(s->active, 1, m1);
    int64_t left = 0, h = 0;
    if ((st = phase_fault(s, "initial")) || (st = initial_tuples(s, t)) ||
        (st = pass(s, t, s->m, 1, &left)))
        goto done;
    for (int passes = 0; left > 0; passes++) {
        h = h ? 2 * h : s->first_h;
        if (passes > 70) {
            snprintf(s->msg, s->cap, "internal error: prefix doubling did not converge");
            st = CLSA_ERR_INVALID_ARG;
            goto done;
        }
        if ((st = phase_fault(s, "doubling")) || (st = fetch_shifted(s, h))) goto done;
        int64_t na = active_tuples(s, h, t);
        if ((st = pass(s, t, na, 0, &left))) goto done;
    }
    if ((st = phase_fault(s, "final"))) goto done;
    int64_t *pairs = (int64_t *)(void *)t; /* 24 bytes a tuple hold the 16-byte pairs */
    for (int64_t k = 0; k < s->m; k++) pairs[2 * k] = s->lo + k, pairs[2 * k + 1] = s->rk[k];
    st = send_home(s, pairs, s->m, sa_part);
done:
    free(t);
    free(s->rk);
    free(s->rk2);
    free(s->active);
    return st;
}

int64_t dist_window_hi(int64_t n, int nranks, int r)
{
    int64_t hi = dist_part_lo(n, nranks, r + 1);
    return n - hi > DIST_OVERLAP ? hi + DIST_OVERLAP : n;
}

clsa_status dist_sa(dist_comm *c, clsa_context *ctx, const uint8_t *window, int64_t n,
                    int64_t *sa_part, char *msg, size_t cap)
{
    dist_state s = {0};
    s.c = c;
    s.ctx = ctx;
    s.window = window;
    s.n = n;
    s.lo = dist_part_lo(n, c->size, c->rank);
    s.hi = dist_part_lo(n, c->size, c->rank + 1);
    s.m = s.hi - s.lo;
    s.chunk = n > 0 ? (n + c->size - 1) / c->size : 1;
    s.msg = msg;
    s.cap = cap;
    return run(&s, sa_part);
}
