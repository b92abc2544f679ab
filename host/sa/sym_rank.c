/* Dense symbol ranks: sort a copy, drop repeats, binary-search each symbol.
 * Sorting (value, position) pairs would give the ranks without the
 * searches but needs 16 bytes per symbol through the whole sort and a
 * scatter; the distinct values are usually few, so the searches are short
 * and cache-resident. */
#include "sym_rank.h"

#include <stdlib.h>
#include <string.h>

/* One LSD pass on byte b of v[0..m) into tmp; 0 (nothing moved) when every
 * value has the same byte there. */
static int radix_pass(uint64_t *v, uint64_t *tmp, size_t m, int b)
{
    size_t cnt[257] = {0};
    for (size_t i = 0; i < m; i++) cnt[((v[i] >> (8 * b)) & 0xff) + 1]++;
    for (int d = 0; d < 256; d++)
        if (cnt[d + 1] == m) return 0;
    for (int d = 0; d < 256; d++) cnt[d + 1] += cnt[d];
    for (size_t i = 0; i < m; i++) tmp[cnt[(v[i] >> (8 * b)) & 0xff]++] = v[i];
    return 1;
}

/* The passes over the low `bytes` bytes (the others are 0 in every value). */
static uint64_t *sort_bytes(uint64_t *v, uint64_t *tmp, size_t m, int bytes)
{
    for (int b = 0; b < bytes; b++)
        if (radix_pass(v, tmp, m, b)) {
            uint64_t *t = v;
            v = tmp;
            tmp = t;
        }
    return v;
}

uint64_t *clsa__sort_u64(uint64_t *v, uint64_t *tmp, size_t m) { return sort_bytes(v, tmp, m, 8); }

int clsa__sym_distinct(const void *text, int sym, size_t n, uint64_t **vals, size_t *m)
{
    uint64_t *v = malloc((n ? n : 1) * sizeof *v), *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!v || !tmp) {
        free(v);
        free(tmp);
        return 0;
    }
    for (size_t i = 0; i < n; i++) v[i] = clsa__sym_at(text, sym, i);
    uint64_t *sorted = sort_bytes(v, tmp, n, sym);
    free(sorted == v ? tmp : v);
    v = sorted;
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || v[i] != v[u - 1]) v[u++] = v[i];
    *vals = v;
    *m = u;
    return 1;
}

uint32_t clsa__sym_rank(const uint64_t *vals, size_t m, uint64_t c)
{
    size_t lo = 0, hi = m; /* the first value >= c; c is among them */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (vals[mid] < c) lo = mid + 1;
        else hi = mid;
    }
    return (uint32_t)lo;
}

int clsa__sym_ranks(const void *text, int sym, size_t n, uint32_t *ranks)
{
    uint64_t *vals;
    size_t m;
    if (!clsa__sym_distinct(text, sym, n, &vals, &m)) return 0;
    for (size_t i = 0; i < n; i++) ranks[i] = clsa__sym_rank(vals, m, clsa__sym_at(text, sym, i));
    free(vals);
    return 1;
}
