/* The host side of the out-of-core suffix array, written once for both
 * index widths: out_of_core.c includes this file twice, with OOC_IDX
 * uint32_t (n < 2^32: 4-byte SA, ISA and group bookkeeping, host memory as
 * before) and uint64_t (any n, or forced by CLSA_TUNE ooc64=1), OOC_W(x)
 * naming each copy's functions.  OOC_WIDE: the device's 32-bit values are
 * chunk-local indexes (0..cap-1) mapped back to positions on the host after
 * the sort; in the narrow copy they are the positions themselves.  Expects
 * ooc_common, ooc_par, prefix_key and friends from out_of_core.c. */
#ifndef OOC_IDX
#error "out_of_core_twin.h is included by out_of_core.c with OOC_IDX set"
#endif

typedef struct OOC_W(grp) {
    OOC_IDX start, len;
} OOC_W(grp);

typedef struct OOC_W(run) {
    ooc_common c;
    OOC_IDX *sa;            /* the SA being refined */
    OOC_IDX *isa;           /* rank + 1 of each suffix's group */
    OOC_W(grp) *cur, *next; /* unsorted groups, ascending start */
    size_t ncur, nnext, cur_cap, next_cap;
    uint64_t *keys, *tkeys; /* a batch's keys and the merge's other half */
    OOC_IDX *pos, *tpos;    /* a batch's positions and the merge's other half
                             * (the 64-bit layout gathers into tpos first) */
    OOC_IDX *goff;          /* batch offset of each of its groups, + the end */
    size_t batch_cap, goff_cap;
    size_t first, last;     /* the batch's groups: cur[first..last) */
    int tagged;
    size_t *heads;          /* per thread: the last run head of its range */
} OOC_W(run);

static uint64_t OOC_W(key_of)(const OOC_W(run) *r, uint64_t i)
{
    if (r->c.h == 0) return prefix_key(&r->c, i);
    uint64_t j = i + r->c.h;
    return j < r->c.n ? (uint64_t)r->isa[j] : 0;
}

static clsa_status OOC_W(grow)(OOC_W(run) *r, size_t need, size_t groups)
{
    if (groups + 1 > r->goff_cap) {
        size_t cap = groups + 1 < 2 * r->goff_cap ? 2 * r->goff_cap : groups + 1;
        void *p = realloc(r->goff, cap * sizeof *r->goff);
        if (!p) return ooc_oom(&r->c);
        r->goff = p;
        r->goff_cap = cap;
    }
    if (need <= r->batch_cap) return CLSA_OK;
    size_t cap = need < 2 * r->batch_cap ? 2 * r->batch_cap : need;
    if (cap > r->c.n) cap = (size_t)r->c.n;
    if (cap < need) cap = need;
    void *p;
    if (!(p = realloc(r->keys, cap * 8))) return ooc_oom(&r->c);
    r->keys = p;
    if (!(p = realloc(r->tkeys, cap * 8))) return ooc_oom(&r->c);
    r->tkeys = p;
    if (!(p = realloc(r->pos, cap * sizeof(OOC_IDX)))) return ooc_oom(&r->c);
    r->pos = p;
    if (!(p = realloc(r->tpos, cap * sizeof(OOC_IDX)))) return ooc_oom(&r->c);
    r->tpos = p;
    r->batch_cap = cap;
    return CLSA_OK;
}

/* Room for more groups in the next list. */
static clsa_status OOC_W(reserve)(OOC_W(run) *r, size_t more)
{
    if (r->next_cap - r->nnext >= more) return CLSA_OK;
    size_t cap = r->next_cap ? 2 * r->next_cap : 64;
    if (cap - r->nnext < more) cap = r->nnext + more;
    OOC_W(grp) *g = realloc(r->next, cap * sizeof *g);
    if (!g) return ooc_oom(&r->c);
    r->next = g;
    r->next_cap = cap;
    return CLSA_OK;
}

static clsa_status OOC_W(push)(OOC_W(run) *r, uint64_t start, uint64_t len)
{
    clsa_status st = OOC_W(reserve)(r, 1);
    if (st) return st;
    r->next[r->nnext].start = (OOC_IDX)start;
    r->next[r->nnext].len = (OOC_IDX)len;
    r->nnext++;
    return CLSA_OK;
}

/* The batch group holding batch item o: the last g with goff[g] <= o. */
static size_t OOC_W(group_at)(const OOC_W(run) *r, size_t o)
{
    size_t lo = 0, hi = r->last - r->first; /* goff[0] = 0 <= o < goff[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if ((size_t)r->goff[mid] <= o) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* Where key_of(i) reads, at random: the text at i (pass 0) or ISA[i + h].
 * The caller prefetches it: a void helper holding only the prefetch would
 * be taken for a pure function by GCC and its calls dropped. */
static const void *OOC_W(key_src)(const OOC_W(run) *r, uint64_t i)
{
    if (r->c.h == 0) return (const uint8_t *)r->c.text + i * (uint64_t)r->c.sym;
    return i + r->c.h < r->c.n ? &r->isa[i + r->c.h] : &r->isa[i];
}

/* Items a gather block takes positions for before it reads their keys. */
#define OOC_BLOCK 64u

/* Where the gather puts positions: in the 64-bit layout the merge's other
 * half, from which the sorted chunk's local indexes map them straight into
 * pos (no copy back); in the 32-bit layout pos, which goes to the device. */
static OOC_IDX *OOC_W(gather_pos)(const OOC_W(run) *r)
{
    return OOC_WIDE ? r->tpos : r->pos;
}

/* Gathers items [lo, hi) of the batch: position from the SA, key with the
 * group's tag above the rank.  Block by block: the positions first, each
 * key's source prefetched, then the keys, so the block's cache misses
 * overlap instead of stalling one item at a time. */
static void OOC_W(gather)(void *arg, size_t lo, size_t hi, unsigned t)
{
    (void)t;
    OOC_W(run) *r = arg;
    OOC_IDX *pos = OOC_W(gather_pos)(r);
    size_t g = OOC_W(group_at)(r, lo);
    for (size_t b = lo; b < hi; b += OOC_BLOCK) {
        size_t e = hi - b < OOC_BLOCK ? hi : b + OOC_BLOCK;
        for (size_t o = b; o < e; o++) {
            while (o >= (size_t)r->goff[g + 1]) g++;
            const OOC_W(grp) *gr = &r->cur[r->first + g];
            OOC_IDX i = r->sa[gr->start + (o - r->goff[g])];
            r->keys[o] = r->tagged ? (uint64_t)g << r->c.rbits : 0;
            pos[o] = i;
            OOC_PREFETCH(OOC_W(key_src)(r, i));
        }
        for (size_t o = b; o < e; o++) r->keys[o] |= OOC_W(key_of)(r, pos[o]);
    }
}

#if OOC_WIDE
typedef struct OOC_W(chunk) {
    OOC_W(run) *r;
    size_t a;
    uint32_t *local;
} OOC_W(chunk);

/* The chunk-local indexes the device sorts along: local[j] = j. */
static void OOC_W(iota)(void *arg, size_t lo, size_t hi, unsigned t)
{
    (void)t;
    OOC_W(chunk) *k = arg;
    for (size_t j = lo; j < hi; j++) k->local[j] = (uint32_t)j;
}

/* Chunk-local indexes back to positions: pos[a + j] = tpos[a + local[j]]. */
static void OOC_W(map_back)(void *arg, size_t lo, size_t hi, unsigned t)
{
    (void)t;
    OOC_W(chunk) *k = arg;
    OOC_IDX *dst = k->r->pos + k->a;
    const OOC_IDX *src = k->r->tpos + k->a;
    for (size_t j = lo; j < hi; j++) dst[j] = src[k->local[j]];
}
#endif

/* Sorts one chunk of the batch, keys[a..a+len), on the device. */
static clsa_status OOC_W(sort_chunk)(OOC_W(run) *r, size_t a, size_t len)
{
#if OOC_WIDE
    /* the device carries 32-bit chunk-local indexes; tkeys is free scratch
     * until the merge (8 bytes an item, 4 needed) */
    uint32_t *local = (uint32_t *)(r->tkeys + a);
    OOC_W(chunk) k = {r, a, local};
    ooc_par(&r->c, len, OOC_W(iota), &k);
    clsa_status st = clsa__ooc_sort_chunk(r->c.ctx, &r->c.dev, r->keys + a, local, len);
    if (st) return st;
    ooc_par(&r->c, len, OOC_W(map_back), &k);
    return CLSA_OK;
#else
    return clsa__ooc_sort_chunk(r->c.ctx, &r->c.dev, r->keys + a, r->pos + a, len);
#endif
}

/* Merges the sorted runs [a, m) and [m, e) of keys/pos into tkeys/tpos. */
static void OOC_W(merge_runs)(OOC_W(run) *r, size_t a, size_t m, size_t e)
{
    size_t i = a, j = m, o = a;
    while (i < m && j < e) {
        int right = r->keys[j] < r->keys[i];
        size_t s = right ? j++ : i++;
        r->tkeys[o] = r->keys[s];
        r->tpos[o++] = r->pos[s];
    }
    for (; i < m; i++, o++) r->tkeys[o] = r->keys[i], r->tpos[o] = r->pos[i];
    for (; j < e; j++, o++) r->tkeys[o] = r->keys[j], r->tpos[o] = r->pos[j];
}

/* Sorts keys/pos[0..m): on the device in chunks of dev.cap, the sorted
 * chunks merged pairwise on the host (the buffers swap each round). */
static clsa_status OOC_W(sort_batch)(OOC_W(run) *r, size_t m)
{
    size_t cap = r->c.dev.cap;
    for (size_t a = 0; a < m; a += cap) {
        clsa_status st = OOC_W(sort_chunk)(r, a, m - a < cap ? m - a : cap);
        if (st) return st;
    }
    for (size_t w = cap; w < m; w *= 2) {
        for (size_t a = 0; a < m; a += 2 * w) {
            size_t mid = a + w < m ? a + w : m, e = a + 2 * w < m ? a + 2 * w : m;
            OOC_W(merge_runs)(r, a, mid, e);
        }
        uint64_t *tk = r->keys;
        r->keys = r->tkeys, r->tkeys = tk;
        OOC_IDX *tp = r->pos;
        r->pos = r->tpos, r->tpos = tp;
    }
    return CLSA_OK;
}

/* A run head: the first item of its group or a key unlike the one before. */
static int OOC_W(is_head)(const OOC_W(run) *r, size_t o, size_t g)
{
    return o == (size_t)r->goff[g] || r->keys[o] != r->keys[o - 1];
}

/* Per thread: the last run head in [lo, hi) (SIZE_MAX: none). */
static void OOC_W(last_head)(void *arg, size_t lo, size_t hi, unsigned t)
{
    OOC_W(run) *r = arg;
    size_t found = SIZE_MAX, g = OOC_W(group_at)(r, hi - 1);
    for (size_t o = hi; o-- > lo;) {
        while (o < (size_t)r->goff[g]) g--;
        if (OOC_W(is_head)(r, o, g)) {
            found = o;
            break;
        }
    }
    r->heads[t] = found;
}

/* Writes items [lo, hi) back: SA entry and ISA = the SA index of the run's
 * head + 1 (the head before lo comes from heads[t], set by the caller). */
static void OOC_W(write_back)(void *arg, size_t lo, size_t hi, unsigned t)
{
    OOC_W(run) *r = arg;
    size_t g = OOC_W(group_at)(r, lo), head = r->heads[t];
    for (size_t o = lo; o < hi; o++) {
        if (hi - o > OOC_AHEAD) OOC_PREFETCH_W(&r->isa[r->pos[o + OOC_AHEAD]]);
        while (o >= (size_t)r->goff[g + 1]) g++;
        if (OOC_W(is_head)(r, o, g)) head = o;
        uint64_t base = (uint64_t)r->cur[r->first + g].start - r->goff[g];
        r->sa[base + o] = r->pos[o];
        r->isa[r->pos[o]] = (OOC_IDX)(base + head + 1);
    }
}

/* The runs of equal keys in the sorted batch, by parts: part t takes the
 * runs whose head lies in its range (its last may end past it), counts its
 * singletons and its runs of two or more, and on the second call (fill)
 * writes the latter to next from slot at[t], so the list comes out in
 * batch order as one thread would push it. */
typedef struct OOC_W(runs) {
    OOC_W(run) *r;
    int fill;
    size_t groups[OOC_MAX_THREADS], singles[OOC_MAX_THREADS], at[OOC_MAX_THREADS];
} OOC_W(runs);

/* The end of the run whose head is h: the next key unlike it or the end of
 * h's group g. */
static size_t OOC_W(run_end)(const OOC_W(run) *r, size_t h, size_t g)
{
    size_t o = h + 1, end = (size_t)r->goff[g + 1];
    while (o < end && r->keys[o] == r->keys[o - 1]) o++;
    return o;
}

static void OOC_W(find_runs)(void *arg, size_t lo, size_t hi, unsigned t)
{
    OOC_W(runs) *u = arg;
    OOC_W(run) *r = u->r;
    size_t g = OOC_W(group_at)(r, lo), groups = 0, singles = 0, o = lo;
    /* a run whose head lies before lo is the part before's */
    if (!OOC_W(is_head)(r, o, g)) o = OOC_W(run_end)(r, o, g);
    while (o < hi) {
        while (o >= (size_t)r->goff[g + 1]) g++;
        size_t h = o;
        o = OOC_W(run_end)(r, h, g);
        if (o - h == 1) {
            singles++;
            continue;
        }
        if (u->fill) {
            OOC_W(grp) *x = &r->next[u->at[t] + groups];
            x->start = (OOC_IDX)((uint64_t)r->cur[r->first + g].start - r->goff[g] + h);
            x->len = (OOC_IDX)(o - h);
        }
        groups++;
    }
    u->groups[t] = groups;
    u->singles[t] = singles;
}

/* The sorted batch back into SA and ISA (threads over items; each range's
 * incoming run head from the ranges before it), then the runs of two or
 * more pushed for the next pass, in order (threads too: counted, room
 * made, written). */
static clsa_status OOC_W(settle)(OOC_W(run) *r, size_t m)
{
    unsigned parts = ooc_parts(&r->c, m);
    ooc_par_n(&r->c, m, parts, OOC_W(last_head), r);
    size_t carry = 0;
    for (unsigned t = 0; t < parts; t++) {
        size_t last = r->heads[t];
        r->heads[t] = carry;
        if (last != SIZE_MAX) carry = last;
    }
    ooc_par_n(&r->c, m, parts, OOC_W(write_back), r);
    OOC_W(runs) u = {.r = r};
    ooc_par_n(&r->c, m, parts, OOC_W(find_runs), &u);
    size_t total = 0;
    for (unsigned t = 0; t < parts; t++) {
        u.at[t] = r->nnext + total;
        total += u.groups[t];
        r->c.settled += u.singles[t];
    }
    clsa_status st = OOC_W(reserve)(r, total);
    if (st) return st;
    u.fill = 1;
    ooc_par_n(&r->c, m, parts, OOC_W(find_runs), &u);
    r->nnext += total;
    return CLSA_OK;
}

/* Groups cur[first..last) as one batch: gathered (past pass 0, the group's
 * index in the batch above the rank when there are several), sorted and
 * settled. */
static clsa_status OOC_W(run_batch)(OOC_W(run) *r, size_t first, size_t last)
{
    size_t m = 0;
    for (size_t g = first; g < last; g++) m += (size_t)r->cur[g].len;
    clsa_status st = OOC_W(grow)(r, m, last - first);
    if (st) return st;
    r->first = first, r->last = last;
    /* pass 0 needs no tag: its groups are buckets of distinct top key bits,
     * in ascending order, so the sorted batch keeps them apart and in place */
    r->tagged = last - first > 1 && r->c.h > 0;
    r->goff[0] = 0;
    for (size_t g = first; g < last; g++) r->goff[g - first + 1] = r->goff[g - first] + r->cur[g].len;
    ooc_par(&r->c, m, OOC_W(gather), r);
    if ((st = OOC_W(sort_batch)(r, m))) return st;
    return OOC_W(settle)(r, m);
}

/* The groups pushed become the groups to sort. */
static void OOC_W(swap_lists)(OOC_W(run) *r)
{
    OOC_W(grp) *t = r->cur;
    r->cur = r->next, r->next = t;
    size_t tc = r->cur_cap;
    r->cur_cap = r->next_cap, r->next_cap = tc;
    r->ncur = r->nnext;
    r->nnext = 0;
}

/* One pass over the unsorted groups: runs of small groups filling a chunk
 * (at most max_groups of them, so that tag bits + rank bits <= 64), a group
 * larger than a chunk alone (sorted in pieces and merged). */
static clsa_status OOC_W(pass)(OOC_W(run) *r)
{
    clsa_status st = CLSA_OK;
    size_t cap = r->c.dev.cap;
    r->nnext = 0;
    size_t first = 0, fill = 0;
    for (size_t g = 0; g <= r->ncur && st == CLSA_OK; g++) {
        size_t len = g < r->ncur ? (size_t)r->cur[g].len : 0;
        if (g < r->ncur && fill + len <= cap && g - first < r->c.max_groups) {
            fill += len;
            continue;
        }
        if (first < g) st = OOC_W(run_batch)(r, first, g);
        first = g;
        fill = len;
        if (st == CLSA_OK && len > cap) {
            st = OOC_W(run_batch)(r, g, g + 1);
            first = g + 1;
            fill = 0;
        }
    }
    OOC_W(swap_lists)(r);
    return st;
}

/* The pass-0 counting sort's per-part tables: count[t * OOC_BUCKETS + b]
 * is part t's items in bucket b, then the next slot they take. */
typedef struct OOC_W(bk) {
    OOC_W(run) *r;
    uint64_t *count;
} OOC_W(bk);

static void OOC_W(bucket_count)(void *arg, size_t lo, size_t hi, unsigned t)
{
    OOC_W(bk) *k = arg;
    uint64_t *count = k->count + (size_t)t * OOC_BUCKETS;
    ooc_roll w = roll_start(&k->r->c, lo);
    for (size_t i = lo; i < hi; i++) {
        count[roll_top(&w)]++;
        roll_next(&k->r->c, &w, i);
    }
}

static void OOC_W(bucket_place)(void *arg, size_t lo, size_t hi, unsigned t)
{
    OOC_W(bk) *k = arg;
    uint64_t *next = k->count + (size_t)t * OOC_BUCKETS;
    ooc_roll w = roll_start(&k->r->c, lo);
    for (size_t i = lo; i < hi; i++) {
        k->r->sa[next[roll_top(&w)]++] = (OOC_IDX)i;
        roll_next(&k->r->c, &w, i);
    }
}

/* Each part's slots in a bucket follow those of the parts before it, so
 * positions stay ascending within a bucket, as one thread placed them;
 * start[b] gets bucket b's first SA index (start[OOC_BUCKETS] = n). */
static void OOC_W(bucket_slots)(uint64_t *count, unsigned parts, uint64_t *start)
{
    uint64_t sum = 0;
    for (size_t b = 0; b < OOC_BUCKETS; b++) {
        start[b] = sum;
        for (unsigned t = 0; t < parts; t++) {
            uint64_t c = count[(size_t)t * OOC_BUCKETS + b];
            count[(size_t)t * OOC_BUCKETS + b] = sum;
            sum += c;
        }
    }
    start[OOC_BUCKETS] = sum;
}

/* Before pass 0: a host counting sort of all suffixes by the top 16 bits
 * of their prefix key (the first symbol or two), so pass 0 sorts buckets,
 * not one group of all n (whose staging and host merge would be 24-32
 * bytes a symbol).  Counting and placing run on the host threads over
 * fixed parts of the text (one thread made this an O(n) serial step at the
 * start of every build).  Singletons are settled here. */
static clsa_status OOC_W(buckets)(OOC_W(run) *r)
{
    size_t n = (size_t)r->c.n;
    unsigned parts = ooc_parts(&r->c, n);
    uint64_t *count = calloc((size_t)parts * OOC_BUCKETS + OOC_BUCKETS + 1, sizeof *count);
    if (!count) return ooc_oom(&r->c);
    uint64_t *start = count + (size_t)parts * OOC_BUCKETS;
    OOC_W(bk) k = {r, count};
    ooc_par_n(&r->c, n, parts, OOC_W(bucket_count), &k);
    OOC_W(bucket_slots)(count, parts, start);
    clsa_status st = CLSA_OK;
    for (size_t b = 0; b < OOC_BUCKETS && st == CLSA_OK; b++) {
        uint64_t s = start[b], len = start[b + 1] - s;
        if (len > 1) st = OOC_W(push)(r, s, len);
    }
    if (st == CLSA_OK) ooc_par_n(&r->c, n, parts, OOC_W(bucket_place), &k);
    for (size_t b = 0; b < OOC_BUCKETS && st == CLSA_OK; b++) {
        uint64_t s = start[b];
        if (start[b + 1] - s == 1) {
            r->isa[r->sa[s]] = (OOC_IDX)(s + 1);
            r->c.settled++;
        }
    }
    free(count);
    return st;
}

static clsa_status OOC_W(doubling)(OOC_W(run) *r)
{
    clsa_status st;
    r->c.h = 0;
    r->c.ctx->stats.doubling_passes = 0;
    if ((st = OOC_W(buckets)(r))) return st;
    OOC_W(swap_lists)(r);
    if ((st = OOC_W(pass)(r)) || (st = ooc_report(&r->c))) return st;
    for (r->c.h = prefix_symbols(&r->c); r->ncur > 0; r->c.h *= 2) {
        /* a pass at h >= n separates every suffix: one more is a defect */
        if (r->c.h / 2 >= r->c.n)
            return clsa__fail(r->c.ctx, CLSA_ERR_OPENCL,
                              "out-of-core suffix array: doubling did not converge (h = %llu)",
                              (unsigned long long)r->c.h);
        r->c.ctx->stats.doubling_passes++;
        if ((st = OOC_W(pass)(r)) || (st = ooc_report(&r->c))) return st;
    }
    return CLSA_OK;
}

/* The SA being refined into the caller's array of the other width. */
typedef struct OOC_W(out) {
    const OOC_IDX *sa;
    void *out;
    int index64;
} OOC_W(out);

static void OOC_W(convert)(void *arg, size_t lo, size_t hi, unsigned t)
{
    (void)t;
    const OOC_W(out) *k = arg;
    if (k->index64)
        for (size_t i = lo; i < hi; i++) ((int64_t *)k->out)[i] = (int64_t)k->sa[i];
    else
        for (size_t i = lo; i < hi; i++) ((int32_t *)k->out)[i] = (int32_t)k->sa[i];
}

/* sa_out (n entries of 4 or 8 bytes) gets the suffix array.  The SA being
 * refined is the caller's array when its entries are OOC_IDX wide, else a
 * host copy converted at the end. */
static clsa_status OOC_W(build)(ooc_common *c, void *sa_out, int index64)
{
    OOC_W(run) r;
    memset(&r, 0, sizeof r);
    r.c = *c;
    size_t n = (size_t)c->n;
    int own = (index64 ? 8 : 4) != sizeof(OOC_IDX);
    clsa_status st = CLSA_OK;
    r.sa = own ? malloc(n * sizeof(OOC_IDX)) : sa_out;
    r.isa = malloc(n * sizeof(OOC_IDX));
    r.heads = malloc(OOC_MAX_THREADS * sizeof *r.heads);
    if (!r.sa || !r.isa || !r.heads) {
        st = clsa__fail(c->ctx, CLSA_ERR_HOST_MEMORY,
                        "out-of-core suffix array: out of host memory (%llu symbols, %u-byte "
                        "host indexes)", (unsigned long long)c->n, (unsigned)sizeof(OOC_IDX));
        goto done;
    }
    ooc_huge(r.isa, n * sizeof(OOC_IDX));
    if ((st = OOC_W(doubling)(&r))) goto done;
    if (own) {
        /* an O(n) pass of its own: on the host threads like the others */
        OOC_W(out) k = {r.sa, sa_out, index64};
        ooc_par(&r.c, n, OOC_W(convert), &k);
    }
done:
    if (own) free(r.sa);
    free(r.isa);
    free(r.heads);
    free(r.cur);
    free(r.next);
    free(r.keys);
    free(r.tkeys);
    free(r.pos);
    free(r.tpos);
    free(r.goff);
    c->settled = r.c.settled;
    return st;
}
