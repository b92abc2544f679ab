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
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "out_of_core.h"
#include "prim/radix_sort.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "progress.h"
#include "status.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* Chunk items at most: bounds the host staging of a batch (24-32 bytes an
 * item) whatever the device budget; 2^28 items is 7 GB of device chunk,
 * far past the size where a device sort is efficient. */
#define OOC_MAX_CHUNK ((uint64_t)1 << 28)

uint64_t clsa__ooc_chunk_cap(const clsa_context *ctx, uint64_t n, uint64_t avail)
{
    if (avail < clsa__ooc_min_budget(n)) return 0;
    uint64_t cap = (avail - OOC_FIXED_BYTES) / OOC_ITEM_BYTES;
    if (cap > n) cap = n < 2 ? 2 : n;
    if (cap > ctx->tune.max_alloc / 8) cap = ctx->tune.max_alloc / 8;
    if (cap > OOC_MAX_CHUNK) cap = OOC_MAX_CHUNK;
    return cap;
}

uint64_t clsa__ooc_dev_bytes(uint64_t cap, uint64_t avail)
{
    uint64_t b = OOC_FIXED_BYTES + OOC_ITEM_BYTES * cap;
    return b < avail ? b : avail;
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
    uint64_t cap = clsa__ooc_chunk_cap(ctx, n, avail);
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

/* Buckets of the host counting sort before pass 0: the top 16 key bits. */
#define OOC_BUCKETS 65536u
#define OOC_MAX_THREADS 16u
/* Items per thread below which a host loop stays on one thread. */
#define OOC_PAR_MIN ((size_t)1 << 20)
/* What both index widths share: the text, the pass and the batching rule. */
typedef struct ooc_common {
    clsa_context *ctx;
    clsa__ooc_dev dev;
    const void *text;
    int sym;
    uint64_t n;
    uint64_t h;          /* 0: the initial pass (packed prefix keys) */
    unsigned rbits;      /* bits of a rank (0..n): a batch tag goes above them */
    size_t max_groups;   /* groups per batch: 2^(64 - rbits), or ooc_groups */
    unsigned threads;    /* host threads for the gather and write-back loops */
    size_t par_min;      /* items per thread before a loop is split */
    uint64_t settled;    /* suffixes in singleton groups */
    /* Pass 0's symbol codes: bytes get dense codes 1..sigma of `bits` bits
     * (the bytes the text holds, so DNA packs 21 symbols a key, not 7);
     * wider symbols take symbol + 1 in 8 sym + 1 bits.  0 is past the end. */
    uint16_t code[256]; /* up to 256: sigma = 256 takes 9 bits */
    /* The codes of two bytes at once, the first above (index: first byte
     * | second << 8): pass 0 packs 64 / bits symbols a key, and halving
     * the table reads and shifts per key shortens its gather.  NULL for
     * wider symbols. */
    uint32_t *code2;
    unsigned bits;
} ooc_common;

static clsa_status ooc_oom(ooc_common *c)
{
    return clsa__fail(c->ctx, CLSA_ERR_HOST_MEMORY, "out-of-core suffix array: out of host memory");
}

static uint32_t symbol(const ooc_common *c, uint64_t i)
{
    if (c->sym == 1) return ((const uint8_t *)c->text)[i];
    if (c->sym == 2) return ((const uint16_t *)c->text)[i];
    return ((const uint32_t *)c->text)[i];
}

static unsigned prefix_symbols(const ooc_common *c) { return 64u / c->bits; }

/* The codes of a byte text: one pass for the bytes present. */
static clsa_status byte_codes(ooc_common *c)
{
    uint64_t seen[256] = {0};
    const uint8_t *t = c->text;
    for (uint64_t i = 0; i < c->n; i++) seen[t[i]] = 1;
    unsigned sigma = 0;
    for (int b = 0; b < 256; b++) c->code[b] = seen[b] ? (uint16_t)++sigma : 0;
    c->bits = clsa__bits_of(sigma); /* codes 1..sigma; sigma >= 1 as n >= 1 */
    c->code2 = malloc(65536 * sizeof *c->code2);
    if (!c->code2) return ooc_oom(c);
    for (unsigned p = 0; p < 65536; p++)
        c->code2[p] = (uint32_t)c->code[p & 255] << c->bits | c->code[p >> 8];
    return CLSA_OK;
}

static uint64_t code_of(const ooc_common *c, uint64_t i)
{
    if (i >= c->n) return 0;
    return c->sym == 1 ? c->code[((const uint8_t *)c->text)[i]] : (uint64_t)symbol(c, i) + 1;
}

/* The first k symbols' codes, big-endian, 0 past the end.  Pass 0 calls
 * this once per suffix, so the usual case (all k symbols inside the text)
 * takes a loop with no bounds test or width switch per symbol. */
static uint64_t prefix_bits(const ooc_common *c, uint64_t i, unsigned k)
{
    uint64_t key = 0;
    if (i + k > c->n) {
        for (unsigned j = 0; j < k; j++) key |= code_of(c, i + j) << (64 - c->bits * (j + 1));
        return key;
    }
    if (c->sym == 1) {
        const uint8_t *t = (const uint8_t *)c->text + i;
        unsigned j = 0;
        for (; j + 2 <= k; j += 2)
            key = key << (2 * c->bits) | c->code2[t[j] | (unsigned)t[j + 1] << 8];
        if (j < k) key = key << c->bits | c->code[t[j]];
    } else {
        for (unsigned j = 0; j < k; j++) key = key << c->bits | ((uint64_t)symbol(c, i + j) + 1);
    }
    return key << (64 - c->bits * k); /* bits * k <= 64 */
}

/* A hint to start loading what a later iteration reads at random (the
 * gathers' text and ISA reads, the write-back's ISA writes): a miss costs
 * far more than the loop's work per item, and the hardware prefetcher
 * cannot guess these addresses. */
#if defined(__GNUC__) || defined(__clang__)
#define OOC_PREFETCH(p) __builtin_prefetch((p), 0, 1)
#define OOC_PREFETCH_W(p) __builtin_prefetch((p), 1, 1)
#else
#define OOC_PREFETCH(p) ((void)(p))
#define OOC_PREFETCH_W(p) ((void)(p))
#endif
/* Items the loops run ahead of their prefetches: enough misses in flight
 * to cover memory latency, few enough that the lines are still cached. */
#define OOC_AHEAD 16u

/* Pass 0's key: as many symbols as fit 64 bits. */
static uint64_t prefix_key(const ooc_common *c, uint64_t i)
{
    return prefix_bits(c, i, prefix_symbols(c));
}

/* The top 16 bits of prefix_key at consecutive positions, from the symbols
 * they cover only: a window of those symbols' codes, right-aligned, one
 * code in and one out a step (the counting sort before pass 0 reads every
 * position twice; packing the window afresh each time cost k reads). */
typedef struct ooc_roll {
    uint64_t v, mask;
    unsigned k, drop; /* symbols in the window; bits below the top 16 */
} ooc_roll;

static ooc_roll roll_start(const ooc_common *c, uint64_t i)
{
    ooc_roll w;
    w.k = (16 + c->bits - 1) / c->bits;
    unsigned width = c->bits * w.k; /* 16..33 */
    w.mask = ((uint64_t)1 << width) - 1;
    w.drop = width - 16;
    w.v = prefix_bits(c, i, w.k) >> (64 - width);
    return w;
}

static size_t roll_top(const ooc_roll *w) { return (size_t)(w->v >> w->drop); }

/* From position i to i + 1. */
static void roll_next(const ooc_common *c, ooc_roll *w, uint64_t i)
{
    w->v = (w->v << c->bits | code_of(c, i + w->k)) & w->mask;
}

static clsa_status ooc_report(ooc_common *c)
{
    return clsa__progress(c->ctx, c->h ? "doubling" : "initial sort",
                          0.95 * (double)c->settled / (double)c->n);
}

/* Asks for transparent huge pages over a host array read and written at
 * random (the ISA): with 4 KiB pages nearly every gather read and
 * write-back store also misses the TLB.  Only a hint, on the whole 2 MiB
 * pages inside the block, before they are touched; where the kernel lacks
 * it or refuses, nothing changes. */
static void ooc_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t e = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (e > a) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p, (void)bytes;
#endif
}

/* ---- host threads: fn(arg, lo, hi, t) over [0, m) in contiguous parts ------ */

typedef void (*ooc_fn)(void *arg, size_t lo, size_t hi, unsigned t);

typedef struct ooc_job {
    ooc_fn fn;
    void *arg;
    size_t lo, hi;
    unsigned t;
} ooc_job;

static void *ooc_job_run(void *p)
{
    ooc_job *j = p;
    j->fn(j->arg, j->lo, j->hi, j->t);
    return NULL;
}

/* How many parts a loop over m items takes: one per par_min items, at most
 * threads.  The parts are fixed by m alone, so results do not depend on
 * scheduling (each part writes its own items). */
static unsigned ooc_parts(const ooc_common *c, size_t m)
{
    size_t p = m / (c->par_min ? c->par_min : 1);
    if (p > c->threads) p = c->threads;
    return p < 1 ? 1u : (unsigned)p;
}

/* Runs the parts on threads (part 0 on the caller's); a thread that cannot
 * start runs its part on the caller's thread instead. */
static void ooc_par_n(const ooc_common *c, size_t m, unsigned parts, ooc_fn fn, void *arg)
{
    (void)c;
    ooc_job jobs[OOC_MAX_THREADS];
    pthread_t th[OOC_MAX_THREADS];
    int started[OOC_MAX_THREADS] = {0};
    for (unsigned t = 0; t < parts; t++)
        jobs[t] = (ooc_job){fn, arg, m / parts * t, t + 1 == parts ? m : m / parts * (t + 1), t};
    for (unsigned t = 1; t < parts; t++)
        started[t] = pthread_create(&th[t], NULL, ooc_job_run, &jobs[t]) == 0;
    ooc_job_run(&jobs[0]);
    for (unsigned t = 1; t < parts; t++) {
        if (started[t]) pthread_join(th[t], NULL);
        else ooc_job_run(&jobs[t]);
    }
}

static void ooc_par(const ooc_common *c, size_t m, ooc_fn fn, void *arg)
{
    ooc_par_n(c, m, ooc_parts(c, m), fn, arg);
}

/* ---- the two index widths ---------------------------------------------------- */

#define OOC_IDX uint32_t
#define OOC_WIDE 0
#define OOC_W(x) ooc32_##x
#include "out_of_core_twin.h"
#undef OOC_IDX
#undef OOC_WIDE
#undef OOC_W

#define OOC_IDX uint64_t
#define OOC_WIDE 1
#define OOC_W(x) ooc64_##x
#include "out_of_core_twin.h"
#undef OOC_IDX
#undef OOC_WIDE
#undef OOC_W

int clsa__ooc_wide(const clsa_context *ctx, uint64_t n)
{
    return n > UINT32_MAX || ctx->tune.ooc64;
}

uint64_t clsa__ooc_host_bytes(uint64_t n, uint64_t cap, int wide, int index64)
{
    uint64_t w = wide ? 8 : 4, batch = cap < n ? cap : n;
    /* ISA, a host SA when the output is not of the layout's width, the
     * batch staging (keys twice, positions twice), the pass-0 counts (the
     * bucket starts and a table per host thread), the byte-pair codes */
    uint64_t own = (index64 ? 8u : 4u) != w ? w * n : 0;
    return w * n + own + (16 + 2 * w) * batch + 8u * (OOC_BUCKETS * (OOC_MAX_THREADS + 1u) + 1) +
           4u * 65536;
}

clsa_status clsa__ooc_host_check(clsa_context *ctx, uint64_t n, uint64_t cap, int index64)
{
    int wide = clsa__ooc_wide(ctx, n);
    uint64_t need = clsa__ooc_host_bytes(n, cap, wide, index64);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t phys = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
    if (need <= phys) return CLSA_OK;
    return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY,
                      "out-of-core suffix array: %llu symbols need about %llu bytes of host "
                      "memory besides the text and the suffix array (%d-byte host arrays); "
                      "the machine has %llu", (unsigned long long)n,
                      (unsigned long long)need, wide ? 8 : 4, (unsigned long long)phys);
}

static unsigned host_threads(const clsa_context *ctx)
{
    long p = ctx->tune.ooc_threads ? (long)ctx->tune.ooc_threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (p < 1) p = 1;
    return p > (long)OOC_MAX_THREADS ? OOC_MAX_THREADS : (unsigned)p;
}

clsa_status clsa__sa_out_of_core(clsa_context *ctx, const void *text, int sym, void *sa,
                                 int64_t n, int index64)
{
    if (n <= 0) return CLSA_OK;
    ooc_common c;
    memset(&c, 0, sizeof c);
    c.ctx = ctx;
    c.text = text;
    c.sym = sym;
    c.n = (uint64_t)n;
    c.bits = 8u * (unsigned)sym + 1u;
    c.rbits = clsa__bits_of(c.n);
    /* ranks are 0..n: tags of the remaining 64 - rbits bits (rbits <= 63) */
    c.max_groups = c.rbits <= 32 ? SIZE_MAX : (size_t)1 << (64 - c.rbits);
    if (ctx->tune.ooc_groups && ctx->tune.ooc_groups < c.max_groups)
        c.max_groups = (size_t)ctx->tune.ooc_groups;
    c.threads = host_threads(ctx);
    c.par_min = ctx->tune.ooc_threads ? 1 : OOC_PAR_MIN;
    int wide = clsa__ooc_wide(ctx, c.n);
    int prev = clsa__set_phase(ctx, CLSA_PHASE_SORT_L);
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__ooc_dev_open(ctx, c.n, &c.dev));
    /* an n no host could hold fails here, before a giant allocation */
    CLSA_TRY(clsa__ooc_host_check(ctx, c.n, c.dev.cap, index64));
    if (sym == 1) CLSA_TRY(byte_codes(&c)); /* reads the text: only once n is known to be real */
    CLSA_TRY(clsa__progress(ctx, "initial sort", 0.0));
    CLSA_TRY(wide ? ooc64_build(&c, sa, index64) : ooc32_build(&c, sa, index64));
    CLSA_TRY(clsa__progress(ctx, "doubling", 1.0));
done:
    free(c.code2);
    clsa__ooc_dev_close(ctx, &c.dev);
    clsa__set_phase(ctx, prev);
    return st;
}
