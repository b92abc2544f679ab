/* Out-of-core suffix array: prefix doubling with Larsson-Sadakane ranks,
 * the SA and the ranks (ISA) in host memory, the device sorting chunks of
 * (key, position) pairs whose size follows the device-memory budget.
 *
 * Pass 0 sorts every suffix by its first h0 = 64 / (8 sym + 1) symbols,
 * packed with code 0 past the end (so a proper prefix sorts first).  Pass h
 * sorts each unsorted group by ISA[i + h] (0 past the end).  A group's rank
 * is its first SA index + 1; ranks are updated as groups split, within the
 * pass too: a refined rank still lies inside its old group's range, so keys
 * read after an update order suffixes as the old ones did, only finer
 * (Larsson and Sadakane's argument).  Chunks: whole groups packed up to the
 * chunk size, keyed (group in chunk << 32 | rank); a group larger than a
 * chunk is sorted in chunk-sized pieces on the device and the pieces merged
 * on the host.  Nothing is kept on the device between chunks.  Design and
 * costs: docs/DESIGN.md, "Out-of-core suffix array". */
#include "out_of_core.h"
#include "prim/radix_sort.h"

#include <stdlib.h>
#include <string.h>

/* Device bytes per chunk item: key 8 + position 4, the radix sort's scratch
 * for both (8 + 4), 2 for its digit table. */
#define OOC_ITEM_BYTES 26u
/* Per sort call, whatever the chunk: the single-pass radix sort's counts
 * (16 passes x 256 x 4), its plan and masks, the smallest digit table and
 * the table scan's partial sums. */
#define OOC_FIXED_BYTES (16384u + 8192u)
/* The smallest chunk worth running: below it the host merge does the work. */
#define OOC_MIN_ITEMS 256u

uint64_t clsa__sa_in_memory_need(uint64_t n, int sym, int index64)
{
    /* text + SA, then ISA plus three arrays of the unsorted suffixes and the
     * sorts' scratch: measured peaks are 17-20 bytes per byte (test_sa) */
    uint64_t iw = index64 ? 8 : 4;
    return n * (uint64_t)sym + n * iw + 3 * iw * n + n * 4 + 4096;
}

uint64_t clsa__ooc_min_budget(uint64_t n)
{
    uint64_t items = n < OOC_MIN_ITEMS ? (n < 2 ? 2 : n) : OOC_MIN_ITEMS;
    return OOC_FIXED_BYTES + OOC_ITEM_BYTES * items;
}

clsa_status clsa__ooc_dev_open(clsa_context *ctx, uint64_t n, clsa__ooc_dev *d)
{
    memset(d, 0, sizeof *d);
    uint64_t avail = clsa__mem_free(ctx), need = clsa__ooc_min_budget(n);
    if (avail < need)
        return clsa__fail(ctx, CLSA_ERR_DEVICE_MEMORY,
                          "out-of-core suffix array: needs at least %llu bytes of device "
                          "memory, %llu available (limit %llu%s%s)",
                          (unsigned long long)need, (unsigned long long)avail,
                          (unsigned long long)clsa__mem_limit(ctx), ctx->mem_limit ? ", " : "",
                          ctx->mem_limit ? ctx->mem_limit_name : "");
    uint64_t cap = (avail - OOC_FIXED_BYTES) / OOC_ITEM_BYTES;
    if (cap > n) cap = n < 2 ? 2 : n;
    if (cap > ctx->tune.max_alloc / 8) cap = ctx->tune.max_alloc / 8;
    if (cap > UINT32_MAX) cap = UINT32_MAX;
    d->cap = (size_t)cap;
    d->table_bytes = (size_t)(avail - 24 * cap - 16384 - 4096);
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, d->cap * 8, &d->keys));
    CLSA_TRY(clsa__alloc(ctx, d->cap * 4, &d->vals));
    CLSA_TRY(clsa__alloc(ctx, d->cap * 8, &d->skeys));
    CLSA_TRY(clsa__alloc(ctx, d->cap * 4, &d->svals));
done:
    if (st) clsa__ooc_dev_close(ctx, d);
    return st;
}

void clsa__ooc_dev_close(clsa_context *ctx, clsa__ooc_dev *d)
{
    clsa__free(ctx, &d->keys);
    clsa__free(ctx, &d->vals);
    clsa__free(ctx, &d->skeys);
    clsa__free(ctx, &d->svals);
}

clsa_status clsa__ooc_sort_chunk(clsa_context *ctx, clsa__ooc_dev *d, uint64_t *keys,
                                 uint32_t *vals, size_t m)
{
    if (m < 2) return CLSA_OK;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__write(ctx, d->keys, 0, keys, m * 8));
    CLSA_TRY(clsa__write(ctx, d->vals, 0, vals, m * 4));
    CLSA_TRY(clsa__radix_sort_capped(ctx, d->keys, d->vals, m, 8, 4, 0, 64, d->skeys, d->svals,
                                     d->table_bytes));
    CLSA_TRY(clsa__read(ctx, d->keys, 0, keys, m * 8));
    CLSA_TRY(clsa__read(ctx, d->vals, 0, vals, m * 4));
done:
    return st;
}

/* ---- the host side ------------------------------------------------------ */

typedef struct ooc_group {
    uint32_t start, len;
} ooc_group;

typedef struct ooc_run {
    clsa_context *ctx;
    clsa__ooc_dev dev;
    const void *text;
    int sym;
    uint64_t n;
    uint64_t h;           /* 0: the initial pass (packed prefix keys) */
    uint32_t *sa;         /* the SA being refined */
    uint32_t *isa;        /* rank + 1 of each suffix's group */
    ooc_group *cur, *next;
    size_t ncur, nnext, cur_cap, next_cap;
    uint64_t *keys, *tkeys; /* a batch's keys and the merge's other half */
    uint32_t *vals, *tvals;
    size_t batch_cap;
    uint64_t settled;     /* suffixes in singleton groups */
} ooc_run;

static uint32_t symbol(const ooc_run *r, uint64_t i)
{
    if (r->sym == 1) return ((const uint8_t *)r->text)[i];
    if (r->sym == 2) return ((const uint16_t *)r->text)[i];
    return ((const uint32_t *)r->text)[i];
}

static unsigned prefix_symbols(int sym) { return 64u / (8u * (unsigned)sym + 1u); }

/* The first h0 symbols as (symbol + 1) codes, big-endian, 0 past the end. */
static uint64_t prefix_key(const ooc_run *r, uint64_t i)
{
    unsigned b = 8u * (unsigned)r->sym + 1u, h0 = prefix_symbols(r->sym);
    uint64_t key = 0;
    for (unsigned j = 0; j < h0; j++) {
        uint64_t code = i + j < r->n ? (uint64_t)symbol(r, i + j) + 1 : 0;
        key |= code << (64 - b * (j + 1));
    }
    return key;
}

static uint64_t key_of(const ooc_run *r, uint32_t i)
{
    if (r->h == 0) return prefix_key(r, i);
    uint64_t j = (uint64_t)i + r->h;
    return j < r->n ? r->isa[j] : 0;
}

static clsa_status grow(ooc_run *r, size_t need)
{
    if (need <= r->batch_cap) return CLSA_OK;
    size_t cap = need < 2 * r->batch_cap ? 2 * r->batch_cap : need;
    if (cap > r->n) cap = (size_t)r->n;
    if (cap < need) cap = need;
    void *p;
    if (!(p = realloc(r->keys, cap * 8))) goto oom;
    r->keys = p;
    if (!(p = realloc(r->tkeys, cap * 8))) goto oom;
    r->tkeys = p;
    if (!(p = realloc(r->vals, cap * 4))) goto oom;
    r->vals = p;
    if (!(p = realloc(r->tvals, cap * 4))) goto oom;
    r->tvals = p;
    r->batch_cap = cap;
    return CLSA_OK;
oom:
    return clsa__fail(r->ctx, CLSA_ERR_HOST_MEMORY, "out-of-core suffix array: out of host memory");
}

static clsa_status push(ooc_run *r, uint32_t start, uint32_t len)
{
    if (r->nnext == r->next_cap) {
        size_t cap = r->next_cap ? 2 * r->next_cap : 64;
        ooc_group *g = realloc(r->next, cap * sizeof *g);
        if (!g)
            return clsa__fail(r->ctx, CLSA_ERR_HOST_MEMORY,
                              "out-of-core suffix array: out of host memory");
        r->next = g;
        r->next_cap = cap;
    }
    r->next[r->nnext].start = start;
    r->next[r->nnext].len = len;
    r->nnext++;
    return CLSA_OK;
}

/* Merges the sorted runs [a, m) and [m, e) of keys/vals into tkeys/tvals. */
static void merge_runs(ooc_run *r, size_t a, size_t m, size_t e)
{
    size_t i = a, j = m, o = a;
    while (i < m && j < e) {
        int right = r->keys[j] < r->keys[i];
        size_t s = right ? j++ : i++;
        r->tkeys[o] = r->keys[s];
        r->tvals[o++] = r->vals[s];
    }
    for (; i < m; i++, o++) r->tkeys[o] = r->keys[i], r->tvals[o] = r->vals[i];
    for (; j < e; j++, o++) r->tkeys[o] = r->keys[j], r->tvals[o] = r->vals[j];
}

/* Sorts keys/vals[0..m): on the device in chunks of dev.cap, the sorted
 * chunks merged pairwise on the host (the buffers swap each round). */
static clsa_status sort_batch(ooc_run *r, size_t m)
{
    size_t cap = r->dev.cap;
    clsa_status st = CLSA_OK;
    for (size_t a = 0; a < m; a += cap) {
        size_t len = m - a < cap ? m - a : cap;
        st = clsa__ooc_sort_chunk(r->ctx, &r->dev, r->keys + a, r->vals + a, len);
        if (st) return st;
    }
    for (size_t w = cap; w < m; w *= 2) {
        for (size_t a = 0; a < m; a += 2 * w) {
            size_t mid = a + w < m ? a + w : m, e = a + 2 * w < m ? a + 2 * w : m;
            merge_runs(r, a, mid, e);
        }
        uint64_t *tk = r->keys;
        r->keys = r->tkeys, r->tkeys = tk;
        uint32_t *tv = r->vals;
        r->vals = r->tvals, r->tvals = tv;
    }
    return st;
}

/* Writes a sorted group back (its positions from vals[off..]) and splits it
 * where the key changes: new ranks, unsorted parts into the next list. */
static clsa_status settle(ooc_run *r, const ooc_group *g, size_t off)
{
    uint32_t *sa = r->sa + g->start;
    const uint64_t *k = r->keys + off;
    memcpy(sa, r->vals + off, (size_t)g->len * 4);
    size_t a = 0;
    for (size_t j = 1; j <= g->len; j++) {
        if (j < g->len && k[j] == k[a]) continue;
        uint32_t rank = g->start + (uint32_t)a + 1;
        for (size_t t = a; t < j; t++) r->isa[sa[t]] = rank;
        if (j - a > 1) {
            clsa_status st = push(r, g->start + (uint32_t)a, (uint32_t)(j - a));
            if (st) return st;
        } else {
            r->settled++;
        }
        a = j;
    }
    return CLSA_OK;
}

/* Groups cur[first..last) into one batch: keys gathered (with the group's
 * index in the batch above the rank when there are several), sorted, and
 * each group settled. */
static clsa_status run_batch(ooc_run *r, size_t first, size_t last)
{
    size_t m = 0;
    for (size_t g = first; g < last; g++) m += r->cur[g].len;
    clsa_status st = grow(r, m);
    if (st) return st;
    int tagged = last - first > 1;
    size_t o = 0;
    for (size_t g = first; g < last; g++) {
        const ooc_group *gr = &r->cur[g];
        uint64_t tag = tagged ? (uint64_t)(g - first) << 32 : 0;
        for (uint32_t j = 0; j < gr->len; j++, o++) {
            uint32_t i = r->sa[gr->start + j];
            r->keys[o] = tag | key_of(r, i);
            r->vals[o] = i;
        }
    }
    if ((st = sort_batch(r, m))) return st;
    o = 0;
    for (size_t g = first; g < last && st == CLSA_OK; g++) {
        st = settle(r, &r->cur[g], o);
        o += r->cur[g].len;
    }
    return st;
}

/* The groups pushed become the groups to sort. */
static void swap_lists(ooc_run *r)
{
    ooc_group *t = r->cur;
    r->cur = r->next, r->next = t;
    size_t tc = r->cur_cap;
    r->cur_cap = r->next_cap, r->next_cap = tc;
    r->ncur = r->nnext;
    r->nnext = 0;
}

/* One pass over the unsorted groups: runs of small groups filling a chunk,
 * a group larger than a chunk alone (sorted in pieces and merged). */
static clsa_status pass(ooc_run *r)
{
    clsa_status st = CLSA_OK;
    r->nnext = 0;
    size_t first = 0, fill = 0;
    for (size_t g = 0; g <= r->ncur && st == CLSA_OK; g++) {
        size_t len = g < r->ncur ? r->cur[g].len : 0;
        if (g < r->ncur && fill + len <= r->dev.cap) {
            fill += len;
            continue;
        }
        if (first < g) st = run_batch(r, first, g);
        first = g;
        fill = len;
        if (st == CLSA_OK && len > r->dev.cap) {
            st = run_batch(r, g, g + 1);
            first = g + 1;
            fill = 0;
        }
    }
    swap_lists(r);
    return st;
}

static clsa_status report(ooc_run *r)
{
    return clsa__progress(r->ctx, r->h ? "doubling" : "initial sort",
                          0.95 * (double)r->settled / (double)r->n);
}

static clsa_status doubling(ooc_run *r)
{
    clsa_status st;
    uint64_t h0 = prefix_symbols(r->sym);
    r->h = 0;
    r->ctx->stats.doubling_passes = 0;
    for (uint32_t i = 0; i < r->n; i++) r->sa[i] = i;
    /* pass 0: one group of every suffix, keyed by its packed prefix */
    if ((st = push(r, 0, (uint32_t)r->n))) return st;
    swap_lists(r);
    if ((st = pass(r)) || (st = report(r))) return st;
    for (r->h = h0; r->ncur > 0; r->h *= 2) {
        /* a pass at h >= n separates every suffix: one more is a defect */
        if (r->h / 2 >= r->n)
            return clsa__fail(r->ctx, CLSA_ERR_OPENCL,
                              "out-of-core suffix array: doubling did not converge (h = %llu)",
                              (unsigned long long)r->h);
        r->ctx->stats.doubling_passes++;
        if ((st = pass(r)) || (st = report(r))) return st;
    }
    return CLSA_OK;
}

static void release(ooc_run *r)
{
    clsa__ooc_dev_close(r->ctx, &r->dev);
    free(r->isa);
    free(r->cur);
    free(r->next);
    free(r->keys);
    free(r->tkeys);
    free(r->vals);
    free(r->tvals);
}

clsa_status clsa__sa_out_of_core(clsa_context *ctx, const void *text, int sym, void *sa,
                                 int64_t n, int index64)
{
    ooc_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.text = text;
    r.sym = sym;
    r.n = (uint64_t)n;
    clsa_status st = CLSA_OK;
    if (n <= 0) return CLSA_OK;
    if ((uint64_t)n > UINT32_MAX)
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE,
                          "out-of-core suffix array: %lld symbols; the device path handles "
                          "fewer than 2^32; use the host backend", (long long)n);
    int prev = clsa__set_phase(ctx, CLSA_PHASE_SORT_L);
    CLSA_TRY(clsa__ooc_dev_open(ctx, r.n, &r.dev));
    CLSA_TRY(clsa__progress(ctx, "initial sort", 0.0));
    /* the 32-bit output holds the SA being refined; the 64-bit one gets it at the end */
    r.sa = index64 ? malloc((size_t)n * 4) : sa;
    r.isa = malloc((size_t)n * 4);
    if (!r.sa || !r.isa)
        CLSA_TRY(clsa__fail(ctx, CLSA_ERR_HOST_MEMORY,
                            "out-of-core suffix array: out of host memory (%lld symbols)",
                            (long long)n));
    CLSA_TRY(doubling(&r));
    if (index64)
        for (uint64_t i = r.n; i-- > 0;) ((int64_t *)sa)[i] = r.sa[i];
    CLSA_TRY(clsa__progress(ctx, "doubling", 1.0));
done:
    if (index64) free(r.sa);
    release(&r);
    clsa__set_phase(ctx, prev);
    return st;
}
