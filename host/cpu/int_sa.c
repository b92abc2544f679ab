/* Suffix array of a text of 16- or 32-bit symbols on the host backend:
 * the multi-threaded sorter (par_sa.c) where the alphabet is small enough
 * for its buckets (16-bit symbols; 32-bit ones below n / 2 + 2^16), else
 * prefix doubling with two counting sorts per step, O(n log n) time,
 * about 16 bytes of work space per symbol.  Symbols are any values of
 * their type; order is plain numeric order, a proper prefix first. */
#include "reference.h"
#include "progress.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

static uint32_t symbol(const void *text, int sym, uint64_t i)
{
    return sym == 2 ? ((const uint16_t *)text)[i] : ((const uint32_t *)text)[i];
}

typedef struct sym_pos {
    uint32_t v, p;
} sym_pos;

static int by_symbol(const void *a, const void *b)
{
    const sym_pos *x = a, *y = b;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return x->p < y->p ? -1 : x->p > y->p;
}

/* The doubling key of p: rank of the suffix h further, + 1; 0 past the end. */
static uint32_t key2(const uint32_t *rank, uint32_t n, uint64_t h, uint32_t p)
{
    return p + h < n ? rank[p + h] + 1 : 0;
}

/* sa sorted by the first symbol; rank = the SA index of each suffix's group
 * head.  Returns the number of groups, or 0 without memory. */
static uint32_t first_symbol(const void *text, int sym, uint32_t n, uint32_t *sa, uint32_t *rank)
{
    sym_pos *e = malloc((size_t)n * sizeof *e);
    if (!e) return 0;
    for (uint32_t i = 0; i < n; i++) e[i] = (sym_pos){symbol(text, sym, i), i};
    qsort(e, n, sizeof *e, by_symbol);
    uint32_t groups = 0;
    for (uint32_t i = 0; i < n; i++) {
        sa[i] = e[i].p;
        int head = i == 0 || e[i].v != e[i - 1].v;
        groups += head;
        rank[sa[i]] = head ? i : rank[sa[i - 1]];
    }
    free(e);
    return groups;
}

/* One doubling step: sa sorted by (rank, key2) through tmp (LSD: key2
 * first, then stably by rank); new ranks into tmp.  Returns the groups. */
static uint32_t double_step(uint32_t n, uint64_t h, uint32_t *sa, uint32_t *rank, uint32_t *tmp,
                            uint32_t *cnt)
{
    memset(cnt, 0, ((size_t)n + 1) * sizeof *cnt);
    for (uint32_t p = 0; p < n; p++) cnt[key2(rank, n, h, p)]++;
    for (uint32_t k = 0, s = 0; k <= n; k++) {
        uint32_t c = cnt[k];
        cnt[k] = s;
        s += c;
    }
    for (uint32_t p = 0; p < n; p++) tmp[cnt[key2(rank, n, h, p)]++] = p;
    memset(cnt, 0, ((size_t)n + 1) * sizeof *cnt);
    for (uint32_t p = 0; p < n; p++) cnt[rank[p]]++;
    for (uint32_t k = 0, s = 0; k < n; k++) {
        uint32_t c = cnt[k];
        cnt[k] = s;
        s += c;
    }
    for (uint32_t i = 0; i < n; i++) sa[cnt[rank[tmp[i]]]++] = tmp[i];
    uint32_t groups = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = sa[i], q = i ? sa[i - 1] : 0;
        int head = i == 0 || rank[p] != rank[q] || key2(rank, n, h, p) != key2(rank, n, h, q);
        groups += head;
        tmp[p] = head ? i : tmp[q];
    }
    return groups;
}

/* The alphabet size the sorter takes for this text, or 0: too large. */
static int64_t sorter_k(const void *text, int sym, int64_t n)
{
    if (sym == 2) return 65536;
    uint32_t top = 0;
    for (int64_t i = 0; i < n; i++)
        if (((const uint32_t *)text)[i] > top) top = ((const uint32_t *)text)[i];
    return (int64_t)top < n / 2 + 65536 ? (int64_t)top + 1 : 0;
}

clsa_status clsa__sa_host_int(clsa_context *ctx, const void *text, int sym, void *sa, int64_t n,
                              int index64)
{
    if (n == 0) return CLSA_OK;
    int64_t k = (uint64_t)n <= UINT32_MAX ? sorter_k(text, sym, n) : 0;
    if (k) return clsa__sa_host_sorter(ctx, text, sym, k, sa, n, index64);
    if ((uint64_t)n > UINT32_MAX)
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE,
                          "integer-alphabet suffix array on the host: %lld symbols; at most "
                          "2^32-1", (long long)n);
    uint32_t m = (uint32_t)n;
    uint32_t *out = index64 ? malloc((size_t)m * 4) : sa;
    uint32_t *rank = malloc((size_t)m * 4), *tmp = malloc((size_t)m * 4);
    uint32_t *cnt = malloc(((size_t)m + 1) * 4);
    clsa_status st = clsa__progress(ctx, "sort (host, integer alphabet)", 0.0);
    uint32_t groups = 0;
    if (st == CLSA_OK && (!out || !rank || !tmp || !cnt || !(groups = first_symbol(text, sym, m, out, rank))))
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "integer-alphabet suffix array: out of host "
                                                   "memory for %u symbols", m);
    for (uint64_t h = 1; st == CLSA_OK && groups < m; h *= 2) {
        groups = double_step(m, h, out, rank, tmp, cnt);
        uint32_t *t = rank;
        rank = tmp;
        tmp = t;
    }
    if (st == CLSA_OK && index64)
        for (uint32_t i = 0; i < m; i++) ((int64_t *)sa)[i] = out[i];
    if (index64) free(out);
    free(rank);
    free(tmp);
    free(cnt);
    return st ? st : clsa__progress(ctx, "sort (host, integer alphabet)", 1.0);
}
