/* Device suffix array by skew (DC3; docs/SA.md "Skew").
 *
 * A level sorts the suffixes of a text of m symbols (codes 1..sigma):
 * 1. the sample (positions i % 3 != 0) by their first three symbols:
 *    stable 32-bit-key radix sorts, least significant symbols first;
 * 2. names = the triples' ranks; where two triples tie, the reduced text
 *    (names of positions 3j + 1, then of 3j + 2) is sorted by the next
 *    level (or prefix doubling, or the host below CLSA_TUNE skew_host),
 *    else the sort is the sample's order;
 * 3. the positions 3j in the order of their suffix 3j + 1 (a compaction
 *    of the sample's order), then stably by their first symbol;
 * 4. merge path of the two orders, comparing through the sample's ranks.
 * Each level's text is the previous level's SA buffer (free until its
 * merge), and its SA the previous level's sample order buffer. */
#include "skew.h"
#include "groups.h"
#include "sa.h"
#include "cpu/reference.h"
#include "prim/radix_sort.h"
#include "prim/scan.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "progress.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

/* Outputs a work-item of the merge writes. */
#define SK_MERGE_TILE 16

typedef struct sk_text {
    cl_mem text;    /* the symbols */
    cl_mem codes;   /* sym 1, 2: symbol -> code 1..sigma; sym 4: NULL (a dummy argument) */
    cl_uint sym;    /* bytes a symbol */
    cl_ulong m;     /* symbols */
    unsigned sigma; /* largest code */
} sk_text;

typedef struct sk_sizes {
    cl_ulong n0, n1, n2, n02;
} sk_sizes;

static sk_sizes sizes_of(uint64_t m)
{
    sk_sizes z = {(m + 2) / 3, (m + 1) / 3, m / 3, 0};
    z.n02 = z.n0 + z.n2;
    return z;
}

static size_t table_cap(uint64_t x) { return (size_t)(x / 4) + 4096; }

static cl_mem codes_arg(const sk_text *t) { return t->codes ? t->codes : t->text; }

/* The sample's order in vals (n02 entries) by its triples: least
 * significant symbols first, as many a sort as fit 32 key bits.  keys
 * and sv: n02 words; scratch: at least n02 words. */
static clsa_status sort_triples(clsa_context *ctx, const sk_text *t, const sk_sizes *z,
                                cl_mem vals, cl_mem keys, cl_mem scratch, cl_mem sv)
{
    cl_uint b = clsa__bits_of(t->sigma), per = 32 / b, wide = 0;
    cl_mem codes = codes_arg(t);
    clsa_status st = CLSA_OK;
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_iota", z->n02, 0, CLSA_KARG(z->n02), CLSA_KARG(vals)));
    for (cl_uint end = 3; end > 0;) {
        cl_uint first = end > per ? end - per : 0, count = end - first;
        CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_key", z->n02, 0, CLSA_KARG(t->text),
                             CLSA_KARG(codes),
                     CLSA_KARG(t->sym), CLSA_KARG(t->m), CLSA_KARG(z->n0), CLSA_KARG(b),
                     CLSA_KARG(first), CLSA_KARG(count), CLSA_KARG(vals), CLSA_KARG(z->n02),
                     CLSA_KARG(wide), CLSA_KARG(keys)));
        CLSA_TRY(clsa__radix_sort_capped(ctx, keys, vals, z->n02, 4, 4, 0, b * count, scratch,
                                         sv, table_cap(z->n02)));
        end = first;
    }
done:
    return st;
}

/* names[x] = the rank of the triple at vals[x] (1..*k). */
static clsa_status name_triples(clsa_context *ctx, const sk_text *t, const sk_sizes *z,
                                cl_mem vals, cl_mem names, uint32_t *k)
{
    cl_mem codes = codes_arg(t);
    clsa_status st = CLSA_OK;
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_heads", z->n02, 0, CLSA_KARG(t->text),
                         CLSA_KARG(codes),
                 CLSA_KARG(t->sym), CLSA_KARG(t->m), CLSA_KARG(z->n0), CLSA_KARG(vals),
                 CLSA_KARG(z->n02), CLSA_KARG(names)));
    CLSA_TRY(clsa__scan(ctx, names, names, z->n02, 1, 0, k));
done:
    return st;
}

static clsa_status level(clsa_context *ctx, const sk_text *t, cl_mem sa, int out64, int depth,
                         int doubling_at);

clsa_status clsa__sa_host_short(clsa_context *ctx, cl_mem r, uint64_t n, cl_mem sa)
{
    uint32_t *h = malloc(2 * n * sizeof *h);
    clsa_status st = h ? CLSA_OK : clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "reduced text: %llu words",
                                              (unsigned long long)(2 * n));
    CLSA_TRY(clsa__read(ctx, r, 0, h, n * 4));
    CLSA_TRY(clsa__sa_host_int(NULL, h, 4, h + n, (int64_t)n, 0)); /* no progress of its own */
    CLSA_TRY(clsa__write(ctx, sa, 0, h + n, n * 4));
done:
    free(h);
    return st;
}

/* The reduced text r (n symbols, codes 1..k) sorted into sa12: on the
 * host when short, by prefix doubling at depth doubling_at, else by the
 * next skew level.  r may be overwritten. */
static clsa_status sort_reduced(clsa_context *ctx, cl_mem r, uint64_t n, uint32_t k, cl_mem sa12,
                                int depth, int doubling_at)
{
    if (depth == doubling_at) return clsa__sa_device_sym(ctx, r, 4, 1, sa12, (int64_t)n, 0);
    if (n >= ctx->tune.skew_host) {
        sk_text c = {r, NULL, 4, n, k};
        return level(ctx, &c, sa12, 0, depth, doubling_at);
    }
    return clsa__sa_host_short(ctx, r, n, sa12);
}

/* Steps 1 and 2: sa12 (n02 words) gets the sample's order; sa (at least
 * m words) is scratch. */
static clsa_status sample_order(clsa_context *ctx, const sk_text *t, const sk_sizes *z,
                                cl_mem sa, cl_mem sa12, int depth, int doubling_at)
{
    cl_mem keys = NULL, sv = NULL;
    uint32_t k = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, z->n02 * 4, &keys));
    CLSA_TRY(clsa__alloc(ctx, z->n02 * 4, &sv));
    CLSA_TRY(sort_triples(ctx, t, z, sa12, keys, sa, sv));
    CLSA_TRY(name_triples(ctx, t, z, sa12, keys, &k));
    clsa__free(ctx, &sv);
    if (k == z->n02) goto done; /* every triple differs: sa12 is the order */
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_names", z->n02, 0, CLSA_KARG(sa12), CLSA_KARG(keys),
                         CLSA_KARG(z->n02),
                 CLSA_KARG(sa)));
    clsa__free(ctx, &keys);
    CLSA_TRY(sort_reduced(ctx, sa, z->n02, k, sa12, depth + 1, doubling_at));
done:
    clsa__free(ctx, &keys);
    clsa__free(ctx, &sv);
    return st;
}

/* Step 3: sa0 (n0 words) gets the positions 3j (as j) in order; sa is
 * scratch. */
static clsa_status mod0_order(clsa_context *ctx, const sk_text *t, const sk_sizes *z,
                              cl_mem sa12, cl_mem sa, cl_mem sa0)
{
    cl_mem keys = NULL, sv = NULL, codes = codes_arg(t);
    clsa_status st = CLSA_OK;
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_mod0_flags", z->n02, 0, CLSA_KARG(sa12),
                         CLSA_KARG(z->n02),
                 CLSA_KARG(z->n0), CLSA_KARG(sa)));
    CLSA_TRY(clsa__scan(ctx, sa, sa, z->n02, 0, 0, NULL));
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_mod0_gather", z->n02, 0, CLSA_KARG(sa12),
                         CLSA_KARG(sa),
                 CLSA_KARG(z->n02), CLSA_KARG(z->n0), CLSA_KARG(sa0)));
    CLSA_TRY(clsa__alloc(ctx, z->n0 * 4, &keys));
    CLSA_TRY(clsa__alloc(ctx, z->n0 * 4, &sv));
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_mod0_keys", z->n0, 0, CLSA_KARG(t->text),
                         CLSA_KARG(codes),
                 CLSA_KARG(t->sym), CLSA_KARG(t->m), CLSA_KARG(sa0), CLSA_KARG(z->n0),
                 CLSA_KARG(keys)));
    CLSA_TRY(clsa__radix_sort_capped(ctx, keys, sa0, z->n0, 4, 4, 0, clsa__bits_of(t->sigma),
                                     sa, sv, table_cap(z->n0)));
done:
    clsa__free(ctx, &keys);
    clsa__free(ctx, &sv);
    return st;
}

/* Step 4: sa (m entries, 64-bit where out64) = the merge of the two orders. */
static clsa_status merge(clsa_context *ctx, const sk_text *t, const sk_sizes *z, cl_mem isa,
                         cl_mem sa12, cl_mem sa0, cl_mem sa, cl_uint out64)
{
    cl_ulong aoff = z->n0 - z->n1, na = z->n02 - aoff;
    cl_uint tile = SK_MERGE_TILE;
    cl_mem codes = codes_arg(t);
    return CLSA_SA_RUN(ctx, "skew", 0, "sk_merge", clsa__div_up((size_t)t->m, tile), 0,
                       CLSA_KARG(t->text),
               CLSA_KARG(codes), CLSA_KARG(t->sym), CLSA_KARG(t->m), CLSA_KARG(z->n0),
               CLSA_KARG(z->n02), CLSA_KARG(isa), CLSA_KARG(sa12), CLSA_KARG(aoff),
               CLSA_KARG(na), CLSA_KARG(sa0), CLSA_KARG(z->n0), CLSA_KARG(tile),
               CLSA_KARG(out64), CLSA_KARG(sa));
}

/* One level: sa (m entries) gets the suffix array of t. */
static clsa_status level(clsa_context *ctx, const sk_text *t, cl_mem sa, int out64, int depth,
                         int doubling_at)
{
    sk_sizes z = sizes_of(t->m);
    cl_mem sa12 = NULL, isa = NULL, sa0 = NULL;
    clsa_status st = CLSA_OK;
    if (depth + 1 > (int)ctx->stats.skew_levels) ctx->stats.skew_levels = (unsigned)depth + 1;
    CLSA_TRY(clsa__alloc(ctx, z.n02 * 4, &sa12));
    CLSA_TRY(sample_order(ctx, t, &z, sa, sa12, depth, doubling_at));
    CLSA_TRY(clsa__alloc(ctx, z.n02 * 4, &isa));
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_isa", z.n02, 0, CLSA_KARG(sa12), CLSA_KARG(z.n02),
                         CLSA_KARG(isa)));
    CLSA_TRY(clsa__alloc(ctx, z.n0 * 4, &sa0));
    CLSA_TRY(mod0_order(ctx, t, &z, sa12, sa, sa0));
    CLSA_TRY(merge(ctx, t, &z, isa, sa12, sa0, sa, (cl_uint)out64));
done:
    clsa__free(ctx, &sa12);
    clsa__free(ctx, &isa);
    clsa__free(ctx, &sa0);
    return st;
}

/* The bit mask of the bytes or ushorts in use (entries / 32 words). */
static clsa_status used_mask(clsa_context *ctx, const sk_text *t, cl_mem used)
{
    size_t wg = ctx->tune.wg,
        cap = (size_t)(ctx->tune.compute_units ? ctx->tune.compute_units : 1) * 8;
    size_t groups = clsa__div_up((size_t)t->m, wg * 64);
    size_t least = clsa__div_up((size_t)t->m, wg * CLSA_LOOP_BUDGET); /* strides a work-item */
    if (cap < least) cap = least;
    if (groups > cap) groups = cap;
    if (t->sym == 2)
        return CLSA_SA_RUN(ctx, "skew", 0, "sk_used_u16", t->m, 0, CLSA_KARG(t->text),
                           CLSA_KARG(t->m), CLSA_KARG(used));
    return CLSA_SA_RUN(ctx, "skew", 0, "sk_used_bytes", groups * wg, 0, CLSA_KARG(t->text),
                       CLSA_KARG(t->m),
               CLSA_KARG(used), CLSA_KLOCAL(8 * 4));
}

/* Codes 1..sigma of the bytes or ushorts in use, in a table of 2^(8 sym). */
static clsa_status table_codes(clsa_context *ctx, sk_text *t)
{
    size_t entries = (size_t)1 << (8 * t->sym);
    uint32_t *h = malloc(entries * 4);
    clsa_status st = h ? CLSA_OK : clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "skew: code table");
    CLSA_TRY(clsa__alloc(ctx, entries * 4, &t->codes));
    CLSA_TRY(clsa__fill_zero(ctx, t->codes, 0, entries / 8));
    CLSA_TRY(used_mask(ctx, t, t->codes));
    CLSA_TRY(clsa__read(ctx, t->codes, 0, h, entries / 8));
    t->sigma = 0;
    for (size_t v = entries; v-- > 0;) h[v] = h[v >> 5] >> (v & 31) & 1; /* bits to flags, down */
    for (size_t v = 0; v < entries; v++) h[v] = h[v] ? ++t->sigma : 0;
    CLSA_TRY(clsa__write(ctx, t->codes, 0, h, entries * 4));
done:
    free(h);
    return st;
}

clsa_status clsa__sa_byte_codes(clsa_context *ctx, cl_mem text, uint64_t n, cl_mem *codes,
                                unsigned *sigma)
{
    sk_text t = {text, NULL, 1, n, 0};
    clsa_status st = table_codes(ctx, &t);
    *codes = t.codes;
    *sigma = t.sigma;
    return st;
}

/* Dense codes 1..sigma of a 4-byte alphabet, written over the text where
 * writable, else into *owned (m words): a sort of (symbol, position),
 * heads, their sum, scattered back.  sa (m words) is scratch. */
static clsa_status sort_codes(clsa_context *ctx, sk_text *t, int writable, cl_mem sa,
                              cl_mem *owned)
{
    size_t bytes = (size_t)t->m * 4;
    cl_mem vals = NULL, sv = NULL, keys = t->text;
    uint32_t k = 0;
    clsa_status st = CLSA_OK;
    if (!writable) CLSA_TRY(clsa__alloc(ctx, bytes, owned));
    if (!writable) CLSA_TRY(clsa__copy(ctx, t->text, 0, *owned, 0, bytes));
    if (!writable) keys = *owned;
    CLSA_TRY(clsa__alloc(ctx, bytes, &vals));
    CLSA_TRY(clsa__alloc(ctx, bytes, &sv));
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_iota", t->m, 0, CLSA_KARG(t->m), CLSA_KARG(vals)));
    CLSA_TRY(clsa__radix_sort_capped(ctx, keys, vals, (size_t)t->m, 4, 4, 0, 32, sa, sv,
                                     table_cap(t->m)));
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_key_heads", t->m, 0, CLSA_KARG(keys),
                         CLSA_KARG(t->m), CLSA_KARG(sv)));
    CLSA_TRY(clsa__scan(ctx, sv, sv, (size_t)t->m, 1, 0, &k));
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_names", t->m, 0, CLSA_KARG(vals), CLSA_KARG(sv),
                         CLSA_KARG(t->m),
                 CLSA_KARG(keys)));
    t->text = keys;
    t->sigma = k;
done:
    clsa__free(ctx, &vals);
    clsa__free(ctx, &sv);
    return st;
}

clsa_status clsa__sa_device_start(clsa_context *ctx, int64_t n, const char *name, int *go)
{
    ctx->stats.doubling_passes = 0;
    ctx->stats.skew_levels = 0;
    *go = n > 0 && (uint64_t)n <= UINT32_MAX;
    if ((uint64_t)n > UINT32_MAX && n > 0)
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE,
                          "device suffix array (%s): %lld symbols; at most 2^32-1 on the "
                          "device; use the host backend", name, (long long)n);
    return *go ? clsa__progress(ctx, name, 0.0) : CLSA_OK;
}

clsa_status clsa__sa_device_skew(clsa_context *ctx, cl_mem text, int sym, int text_writable,
                                 cl_mem sa, int64_t n, int index64, int doubling_at)
{
    sk_text t = {text, NULL, (cl_uint)sym, (cl_ulong)n, 0};
    cl_mem owned = NULL;
    int prev = clsa__set_phase(ctx, CLSA_PHASE_INITIAL_SORT), go = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__sa_device_start(ctx, n, "skew", &go));
    if (!go) goto done;
    if (sym < 4) CLSA_TRY(table_codes(ctx, &t));
    else CLSA_TRY(sort_codes(ctx, &t, text_writable, sa, &owned));
    CLSA_TRY(level(ctx, &t, sa, index64, 0, doubling_at));
    CLSA_TRY(clsa__progress(ctx, "skew", 1.0));
done:
    if (t.codes) clsa__free(ctx, &t.codes);
    clsa__free(ctx, &owned);
    clsa__set_phase(ctx, prev);
    return st;
}
