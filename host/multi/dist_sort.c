/* Sample sort: every rank draws evenly spaced samples, all ranks pick the
 * same P-1 splitters from the gathered samples, tuples go to the rank of
 * their splitter interval (one alltoallv), and each rank sorts what it got.
 * Splitters compare the whole tuple (position included), so runs of equal
 * keys (all-equal or periodic texts) are split across ranks like any
 * other keys instead of landing on one rank. */
#include "dist_sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SAMPLES_PER_RANK_FACTOR = 16 };

int dist_tup_cmp_full(const dist_tup *x, const dist_tup *y)
{
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    if (x->b != y->b) return x->b < y->b ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

static int cmp_full(const void *p, const void *q) { return dist_tup_cmp_full(p, q); }

static int cmp_key(const void *p, const void *q)
{
    const dist_tup *x = p, *y = q;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    return (x->b > y->b) - (x->b < y->b);
}

static unsigned bits_of(uint64_t v)
{
    unsigned b = 0;
    while (v) {
        b++;
        v >>= 1;
    }
    return b;
}

static int has_device(clsa_context *ctx)
{
    clsa_device_info info;
    return ctx && clsa_get_device_info(ctx, &info) == CLSA_OK;
}

/* LSD over the two words: b first, then a, both stable, carrying a
 * permutation that finally gathers the tuples. */
static clsa_status device_sort(clsa_context *ctx, dist_tup *t, int64_t n, char *msg, size_t cap)
{
    uint64_t *keys = malloc((size_t)n * sizeof *keys), *perm = malloc((size_t)n * sizeof *perm);
    dist_tup *tmp = malloc((size_t)n * sizeof *tmp);
    clsa_status st = CLSA_OK;
    if (!keys || !perm || !tmp) {
        snprintf(msg, cap, "out of host memory for the local sort of %lld tuples", (long long)n);
        st = CLSA_ERR_HOST_MEMORY;
        goto done;
    }
    uint64_t amax = 0, bmax = 0;
    for (int64_t k = 0; k < n; k++) {
        perm[k] = (uint64_t)k;
        keys[k] = t[k].b;
        bmax |= t[k].b;
        amax |= t[k].a;
    }
    if (bmax && (st = clsa_radix_sort_u64_v64(ctx, keys, perm, (size_t)n, 0, bits_of(bmax))))
        goto fail;
    for (int64_t k = 0; k < n; k++) keys[k] = t[perm[k]].a;
    if (amax && (st = clsa_radix_sort_u64_v64(ctx, keys, perm, (size_t)n, 0, bits_of(amax))))
        goto fail;
    for (int64_t k = 0; k < n; k++) tmp[k] = t[perm[k]];
    memcpy(t, tmp, (size_t)n * sizeof *t);
    goto done;
fail:
    snprintf(msg, cap, "local radix sort on the device: %s", clsa_last_error(ctx));
done:
    free(keys);
    free(perm);
    free(tmp);
    return st;
}

clsa_status dist_local_sort(clsa_context *ctx, dist_tup *t, int64_t n, char *msg, size_t cap)
{
    if (n < 2) return CLSA_OK;
    if (has_device(ctx)) return device_sort(ctx, t, n, msg, cap);
    qsort(t, (size_t)n, sizeof *t, cmp_key);
    return CLSA_OK;
}

/* Splitters from S evenly spaced local samples per rank (i = -1 marks an
 * empty slot of a rank with fewer tuples). */
static clsa_status pick_splitters(dist_comm *c, const dist_tup *in, int64_t nin, dist_tup *spl,
                                  char *msg, size_t cap)
{
    int P = c->size, S = SAMPLES_PER_RANK_FACTOR * P;
    size_t words = (size_t)S * 3;
    int64_t *mine = malloc(words * sizeof *mine), *all = malloc(words * (size_t)P * sizeof *all);
    clsa_status st = (mine && all) ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st) snprintf(msg, cap, "out of host memory for %d samples", S * P);
    if ((st = dist_agree(c, st, msg, cap))) goto done;
    for (int s = 0; s < S; s++) {
        int64_t k = nin ? (int64_t)((__int128)s * nin / S) : 0;
        int ok = nin && (s == 0 || k != (int64_t)((__int128)(s - 1) * nin / S));
        mine[3 * s] = ok ? (int64_t)in[k].a : 0;
        mine[3 * s + 1] = ok ? (int64_t)in[k].b : 0;
        mine[3 * s + 2] = ok ? in[k].i : -1;
    }
    if (c->allgather(c, mine, (int)words, all)) {
        snprintf(msg, cap, "%s", c->msg);
        st = CLSA_ERR_IO;
        goto done;
    }
    dist_tup *samp = (dist_tup *)(void *)all;
    int64_t cnt = 0;
    for (int64_t s = 0; s < (int64_t)S * P; s++) {
        dist_tup t = {(uint64_t)all[3 * s], (uint64_t)all[3 * s + 1], all[3 * s + 2]};
        if (t.i >= 0) samp[cnt++] = t;
    }
    qsort(samp, (size_t)cnt, sizeof *samp, cmp_full);
    for (int j = 1; j < P; j++) {
        if (cnt) spl[j - 1] = samp[(int64_t)j * cnt / P];
        else spl[j - 1] = (dist_tup){0, 0, 0};
    }
done:
    free(mine);
    free(all);
    return st;
}

/* Rank of the splitter interval holding t: the number of splitters <= t. */
static int dest_of(const dist_tup *spl, int nspl, const dist_tup *t)
{
    int lo = 0, hi = nspl;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (dist_tup_cmp_full(&spl[mid], t) <= 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static clsa_status exchange(dist_comm *c, const dist_tup *in, int64_t nin, const dist_tup *spl,
                            dist_tup **out, int64_t *nout, char *msg, size_t cap)
{
    int P = c->size;
    int64_t *scount = calloc((size_t)P, sizeof *scount), *rcount = calloc((size_t)P, sizeof *rcount);
    int64_t *pos = calloc((size_t)P, sizeof *pos);
    int *dest = malloc((size_t)(nin ? nin : 1) * sizeof *dest);
    dist_tup *send = malloc((size_t)(nin ? nin : 1) * sizeof *send), *recv = NULL;
    clsa_status st = (scount && rcount && pos && dest && send) ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st) snprintf(msg, cap, "out of host memory for the sample sort's send buffer");
    if ((st = dist_agree(c, st, msg, cap))) goto done;
    for (int64_t k = 0; k < nin; k++) scount[dest[k] = dest_of(spl, P - 1, &in[k])]++;
    for (int d = 1; d < P; d++) pos[d] = pos[d - 1] + scount[d - 1];
    for (int64_t k = 0; k < nin; k++) send[pos[dest[k]]++] = in[k];
    if (c->alltoall_counts(c, scount, rcount)) goto transport;
    int64_t total = 0;
    for (int s = 0; s < P; s++) total += rcount[s];
    recv = malloc((size_t)(total ? total : 1) * sizeof *recv);
    st = recv ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st) snprintf(msg, cap, "out of host memory for %lld received tuples", (long long)total);
    if ((st = dist_agree(c, st, msg, cap))) goto done;
    if (c->alltoallv(c, send, scount, recv, rcount, sizeof *send)) goto transport;
    *out = recv;
    *nout = total;
    recv = NULL;
    goto done;
transport:
    snprintf(msg, cap, "%s", c->msg);
    st = CLSA_ERR_IO;
done:
    free(scount);
    free(rcount);
    free(pos);
    free(dest);
    free(send);
    free(recv);
    return st;
}

clsa_status dist_sample_sort(dist_comm *c, clsa_context *ctx, dist_tup *in, int64_t nin,
                             dist_tup **out, int64_t *nout, char *msg, size_t cap)
{
    *out = NULL;
    *nout = 0;
    dist_tup *spl = malloc((size_t)(c->size > 1 ? c->size - 1 : 1) * sizeof *spl);
    clsa_status st = spl ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st) snprintf(msg, cap, "out of host memory for the splitters");
    if ((st = dist_agree(c, st, msg, cap))) goto done;
    if ((st = pick_splitters(c, in, nin, spl, msg, cap))) goto done;
    if ((st = exchange(c, in, nin, spl, out, nout, msg, cap))) goto done;
    st = dist_local_sort(ctx, *out, *nout, msg, cap);
    if ((st = dist_agree(c, st, msg, cap))) {
        free(*out);
        *out = NULL;
        *nout = 0;
    }
done:
    free(spl);
    return st;
}
