/* BWT without a suffix array in host memory (docs/SA.md "Genome scale";
 * kernels cl_kernels/index/dc_bwt.cl):
 * 1. the sample (positions q <= n, q % 7 in {0, 1, 3}: 3/7 n, below 2^32
 *    up to 10^10) named by its 7 symbols, the reduced text sorted by the
 *    device's own suffix array, its ranks R kept on the device;
 * 2. the suffixes in buckets by their first P symbols (a histogram of
 *    bins, consecutive bins up to the bucket cap), each gathered, sorted
 *    by (first L >= 7 symbols, class, rank of the next sample position)
 *    in two radix sorts, and merged within each prefix group through the
 *    sample (dcb_merge), its BWT bytes and sampled rows read down.
 * Device memory: text + 4/7 words a byte for R, and about 34 bytes a
 * suffix of the largest bucket. */
#include "dc_bwt.h"
#include "sa/dispatch.h"
#include "sa/out_of_core.h"
#include "sa/skew.h"
#include "prim/radix_sort.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "progress.h"
#include "status.h"
#include "text_pack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DCB_V 7
#define DCB_ITEM_BYTES 34u          /* pos, key and both scratches, out, table */
#define DCB_RESERVE ((uint64_t)64 << 20)
#define DCB_MIN_CAP ((uint64_t)1 << 16)
#define DCB_MAX_CAP ((uint64_t)1 << 30) /* a bucket's sorts run near full speed long before */
#define DCB_NONE ((cl_ulong)-1)

typedef struct dcb {
    cl_ulong n, m, c0, c1; /* sample: c0 positions of class 0, then c1 of class 1 */
    cl_uint b, L, P;       /* bits a code, symbols of the sort key, of a bin */
    cl_mem text, codes, rank;
} dcb;

typedef struct dcb_bucket {
    cl_uint lo, hi; /* bins [lo, hi) */
    uint64_t size;
} dcb_bucket;

typedef struct dcb_work {
    cl_mem pos, key, skey, sval, out, samples, count, prim;
    uint64_t base;
    int seen; /* the row of suffix 0 came down */
} dcb_work;

int clsa__dc_bwt_wanted(const clsa_context *ctx, int past_alloc)
{
    return ctx->tune.dc_bwt == 2 || (ctx->tune.dc_bwt == 1 && past_alloc);
}

static uint64_t class_count(uint64_t n, unsigned d) { return n >= d ? (n - d) / DCB_V + 1 : 0; }

static void dcb_sizes(dcb *d, uint64_t n)
{
    d->n = n;
    d->c0 = class_count(n, 0);
    d->c1 = class_count(n, 1);
    d->m = d->c0 + d->c1 + class_count(n, 3);
}

/* Whether the device holds the sample's sort and a bucket of DCB_MIN_CAP
 * beside the text and its ranks, each array within the largest allocation. */
static int dcb_fits(clsa_context *ctx, const dcb *d)
{
    uint64_t ma = ctx->tune.max_alloc, avail = clsa__mem_free(ctx);
    if (d->m > UINT32_MAX || d->n > ma || 4 * d->m > ma) return 0;
    uint64_t sample = d->n + DCB_RESERVE + clsa__sa_in_memory_need(d->m, 4, 0);
    uint64_t bucket = d->n + DCB_RESERVE + 4 * d->m + DCB_ITEM_BYTES * DCB_MIN_CAP;
    return avail >= sample && avail >= bucket;
}

/* Work-items of a grid-stride launch over n items. */
static size_t dcb_grid(const clsa_context *ctx, uint64_t n)
{
    size_t wg = ctx->tune.wg, cu = ctx->tune.compute_units ? ctx->tune.compute_units : 1;
    uint64_t groups = clsa__div_up((size_t)n, wg), cap = (uint64_t)cu * 64;
    uint64_t least = clsa__div_up((size_t)n, wg * CLSA_LOOP_BUDGET);
    if (cap < least) cap = least;
    return (size_t)(groups < cap ? groups : cap) * wg;
}

#define DCB_RUN(ctx, name, items, ...)                                                        \
    CLSA_RUN(ctx, "dc_bwt", 0, NULL, name, dcb_grid(ctx, items), 0, __VA_ARGS__)

/* The text on the device and its codes; *declined past 15 symbols. */
static clsa_status dcb_upload(clsa_context *ctx, dcb *d, const uint8_t *text, int *declined)
{
    unsigned sigma = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)d->n, &d->text));
    CLSA_TRY(clsa__write_text(ctx, d->text, text, (size_t)d->n));
    CLSA_TRY(clsa__sa_byte_codes(ctx, d->text, d->n, &d->codes, &sigma));
    d->b = clsa__bits_of(sigma);
    *declined = d->b > 4;
    d->L = 61 / d->b;
    unsigned bin_bits = clsa__bits_of(d->n) - 1;
    if (bin_bits > 24) bin_bits = 24;
    d->P = bin_bits / d->b ? bin_bits / d->b : 1;
done:
    return st;
}

/* R: the sample's ranks, from the suffix array of its names. */
static clsa_status dcb_sample(clsa_context *ctx, dcb *d)
{
    cl_mem names = NULL, sa = NULL;
    size_t bytes = (size_t)d->m * 4;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, bytes, &names));
    CLSA_TRY(DCB_RUN(ctx, "dcb_names", d->m, CLSA_KARG(d->text), CLSA_KARG(d->codes),
                     CLSA_KARG(d->n), CLSA_KARG(d->b), CLSA_KARG(d->c0), CLSA_KARG(d->c1),
                     CLSA_KARG(d->m), CLSA_KARG(names)));
    CLSA_TRY(clsa__alloc(ctx, bytes, &sa));
    clsa__progress_slice(ctx, 0.0, 0.4);
    st = clsa__sa_device_chosen(ctx, names, 4, 1, sa, (int64_t)d->m, 0);
    clsa__progress_slice(ctx, 0.0, 1.0);
    if (st) goto done;
    clsa__free(ctx, &names);
    CLSA_TRY(clsa__alloc(ctx, bytes, &d->rank));
    CLSA_TRY(DCB_RUN(ctx, "dcb_invert", d->m, CLSA_KARG(sa), CLSA_KARG(d->m),
                     CLSA_KARG(d->rank)));
done:
    clsa__free(ctx, &names);
    clsa__free(ctx, &sa);
    return st;
}

/* *hist (host, 2^(b P) counts) of the suffixes by their first P symbols. */
static clsa_status dcb_histogram(clsa_context *ctx, const dcb *d, uint32_t **hist)
{
    size_t bins = (size_t)1 << (d->b * d->P);
    cl_mem dh = NULL;
    clsa_status st = CLSA_OK;
    *hist = malloc(bins * 4);
    if (!*hist) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "BWT by buckets: bin table");
    CLSA_TRY(clsa__alloc(ctx, bins * 4, &dh));
    CLSA_TRY(clsa__fill_zero(ctx, dh, 0, bins * 4));
    CLSA_TRY(DCB_RUN(ctx, "dcb_hist", clsa__div_up(d->n, 64), CLSA_KARG(d->text),
                     CLSA_KARG(d->codes), CLSA_KARG(d->n), CLSA_KARG(d->b), CLSA_KARG(d->P),
                     CLSA_KARG(dh)));
    CLSA_TRY(clsa__read(ctx, dh, 0, *hist, bins * 4));
done:
    clsa__free(ctx, &dh);
    return st;
}

/* Buckets of consecutive bins, each up to cap suffixes where its bins
 * allow (a bin past cap is a bucket of its own); *count of them, *largest
 * the largest.  Returns NULL (no host memory) or the list. */
static dcb_bucket *dcb_plan(const uint32_t *hist, size_t bins, uint64_t cap, size_t *count,
                            uint64_t *largest, uint64_t *total)
{
    dcb_bucket *list = malloc(sizeof *list * (bins + 1));
    size_t k = 0;
    *largest = *total = 0;
    for (size_t i = 0; list && i < bins;) {
        dcb_bucket b = {(cl_uint)i, (cl_uint)i, 0};
        while (b.hi < bins && (b.hi == b.lo || b.size + hist[b.hi] <= cap)) b.size += hist[b.hi++];
        i = b.hi;
        *total += b.size;
        if (!b.size) continue;
        if (b.size > *largest) *largest = b.size;
        list[k++] = b;
    }
    *count = k;
    return list;
}

/* The bucket cap: CLSA_TUNE dc_bwt_bucket, else what the device holds
 * beside the text and R, within the largest allocation, at most 2^30. */
static uint64_t dcb_cap(clsa_context *ctx)
{
    if (ctx->tune.dc_bwt_bucket) return ctx->tune.dc_bwt_bucket;
    uint64_t avail = clsa__mem_free(ctx), cap = 0;
    avail -= avail / 16; /* the driver's own share: an H200 refused a bucket of all but 1% */
    if (avail > DCB_RESERVE) cap = (avail - DCB_RESERVE) / DCB_ITEM_BYTES;
    if (cap > ctx->tune.max_alloc / 8) cap = ctx->tune.max_alloc / 8;
    return cap < DCB_MAX_CAP ? cap : DCB_MAX_CAP;
}

/* Buffers for buckets of up to largest suffixes, and samples entries. */
static clsa_status dcb_work_open(clsa_context *ctx, dcb_work *w, uint64_t largest,
                                 uint64_t samples)
{
    size_t c = (size_t)largest;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, c * 8, &w->pos));
    CLSA_TRY(clsa__alloc(ctx, c * 8, &w->key));
    CLSA_TRY(clsa__alloc(ctx, c * 8, &w->skey));
    CLSA_TRY(clsa__alloc(ctx, c * 8, &w->sval));
    CLSA_TRY(clsa__alloc(ctx, c, &w->out));
    CLSA_TRY(clsa__alloc(ctx, (size_t)samples * 8, &w->samples));
    CLSA_TRY(clsa__alloc(ctx, 4, &w->count));
    CLSA_TRY(clsa__alloc(ctx, 8, &w->prim));
done:
    return st;
}

static void dcb_work_close(clsa_context *ctx, dcb_work *w)
{
    cl_mem *all[] = {&w->pos, &w->key, &w->skey, &w->sval, &w->out, &w->samples, &w->count,
                     &w->prim};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) clsa__free(ctx, all[i]);
}

/* w->pos gets the bucket's positions (any order), checked against its size. */
static clsa_status dcb_gather(clsa_context *ctx, const dcb *d, dcb_work *w, const dcb_bucket *bk)
{
    cl_uint got = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__fill_zero(ctx, w->count, 0, 4));
    CLSA_TRY(DCB_RUN(ctx, "dcb_gather", d->n, CLSA_KARG(d->text), CLSA_KARG(d->codes),
                     CLSA_KARG(d->n), CLSA_KARG(d->b), CLSA_KARG(d->P), CLSA_KARG(bk->lo),
                     CLSA_KARG(bk->hi), CLSA_KARG(w->pos), CLSA_KARG(w->count),
                     CLSA_KLOCAL(2 * sizeof(cl_uint))));
    CLSA_TRY(clsa__read(ctx, w->count, 0, &got, 4));
    if (got != bk->size)
        st = clsa__fail(ctx, CLSA_ERR_OPENCL, "BWT by buckets: bucket of bins [%u, %u) gathered "
                        "%u suffixes, its bins count %llu", bk->lo, bk->hi, got,
                        (unsigned long long)bk->size);
done:
    return st;
}

/* The bucket in order of (prefix, class, sample rank): a stable sort by
 * the rank, then by prefix and class. */
static clsa_status dcb_sort(clsa_context *ctx, const dcb *d, dcb_work *w, cl_ulong mb)
{
    cl_uint rbits = clsa__bits_of(d->m), kbits = 3 + d->L * d->b;
    size_t table = (size_t)(mb / 4) + 4096;
    clsa_status st = CLSA_OK;
    CLSA_TRY(DCB_RUN(ctx, "dcb_key_rank", mb, CLSA_KARG(w->pos), CLSA_KARG(mb), CLSA_KARG(d->n),
                     CLSA_KARG(d->c0), CLSA_KARG(d->c1), CLSA_KARG(d->rank), CLSA_KARG(w->key)));
    CLSA_TRY(clsa__radix_sort_capped(ctx, w->key, w->pos, (size_t)mb, 4, 8, 0, rbits, w->skey,
                                     w->sval, table));
    CLSA_TRY(DCB_RUN(ctx, "dcb_key_prefix", mb, CLSA_KARG(d->text), CLSA_KARG(d->codes),
                     CLSA_KARG(d->n), CLSA_KARG(d->b), CLSA_KARG(d->L), CLSA_KARG(w->pos),
                     CLSA_KARG(mb), CLSA_KARG(w->key)));
    CLSA_TRY(clsa__radix_sort_capped(ctx, w->key, w->pos, (size_t)mb, 8, 8, 0, kbits, w->skey,
                                     w->sval, table));
done:
    return st;
}

/* The bucket's rows: its BWT bytes into w->out, its samples, and *q = the
 * row of suffix 0 in it (DCB_NONE where not). */
static clsa_status dcb_merge(clsa_context *ctx, const dcb *d, dcb_work *w, cl_ulong mb,
                             const clsa__dc_samples *smp, cl_ulong *q)
{
    cl_ulong rate = smp ? smp->rate : 0;
    cl_uint by_row = smp ? (cl_uint)smp->by_row : 0;
    cl_ulong none = DCB_NONE, base = w->base, magic = 0;
    cl_uint shift = 0;
    clsa_status st = CLSA_OK;
    if (rate > 1) { /* p / rate = mul_hi(p, magic) >> shift for p < 2^63 */
        shift = clsa__bits_of(rate - 1) - 1;
        unsigned __int128 top = (unsigned __int128)1 << (64 + shift);
        magic = (cl_ulong)((top + rate - 1) / rate);
    }
    CLSA_TRY(clsa__write(ctx, w->prim, 0, &none, 8));
    CLSA_TRY(DCB_RUN(ctx, "dcb_merge", mb, CLSA_KARG(w->key), CLSA_KARG(w->pos), CLSA_KARG(mb),
                     CLSA_KARG(d->text), CLSA_KARG(d->rank), CLSA_KARG(d->c0), CLSA_KARG(d->c1),
                     CLSA_KARG(base), CLSA_KARG(rate), CLSA_KARG(magic), CLSA_KARG(shift),
                     CLSA_KARG(by_row), CLSA_KARG(w->samples), CLSA_KARG(w->out),
                     CLSA_KARG(w->prim)));
    CLSA_TRY(clsa__read(ctx, w->prim, 0, q, 8));
done:
    return st;
}

/* bytes of the bucket's BWT from slot from to place at of the output. */
static clsa_status dcb_put(clsa_context *ctx, const dcb_work *w, const clsa__dc_out *out,
                           uint64_t from, uint64_t at, uint64_t bytes)
{
    if (!bytes) return CLSA_OK;
    if (out->host) return clsa__read(ctx, w->out, (size_t)from, out->host + at, (size_t)bytes);
    return clsa__copy(ctx, w->out, (size_t)from, out->dev, (size_t)at, (size_t)bytes);
}

/* The bucket's BWT bytes to their places: rows before the row of suffix 0
 * one place on (bwt[0] = text[n - 1]), that row skipped. */
static clsa_status dcb_place(clsa_context *ctx, const dcb *d, dcb_work *w, uint64_t mb,
                             cl_ulong q, const clsa__dc_out *out, int64_t *primary)
{
    uint64_t base = w->base;
    clsa_status st = CLSA_OK;
    if (q == DCB_NONE && !w->seen) {
        if (base + mb >= d->n)
            return clsa__fail(ctx, CLSA_ERR_OPENCL, "BWT by buckets: no row for suffix 0");
        return dcb_put(ctx, w, out, 0, base + 1, mb);
    }
    if (q == DCB_NONE) return dcb_put(ctx, w, out, 0, base, mb);
    if (q >= mb || w->seen)
        return clsa__fail(ctx, CLSA_ERR_OPENCL, "BWT by buckets: row of suffix 0 out of range");
    w->seen = 1;
    *primary = (int64_t)(base + q + 1);
    CLSA_TRY(dcb_put(ctx, w, out, 0, base + 1, q));
    CLSA_TRY(dcb_put(ctx, w, out, q + 1, base + q + 1, mb - q - 1));
done:
    return st;
}

/* The samples' rows to the caller, row 0 (the empty suffix) for position n. */
static clsa_status dcb_samples_out(clsa_context *ctx, const dcb *d, dcb_work *w,
                                   const clsa__dc_samples *smp)
{
    uint64_t whole = d->n / smp->rate;
    clsa_status st = CLSA_OK;
    if (!smp->by_row && whole * smp->rate == d->n)
        CLSA_TRY(clsa__fill_zero(ctx, w->samples, whole * 8, 8));
    *smp->rows = w->samples;
    w->samples = NULL;
done:
    return st;
}

static clsa_status dcb_buckets(clsa_context *ctx, const dcb *d, const dcb_bucket *list,
                               size_t count, dcb_work *w, const clsa__dc_out *out,
                               int64_t *primary, const clsa__dc_samples *smp)
{
    cl_ulong q = 0;
    clsa_status st = CLSA_OK;
    for (size_t i = 0; i < count; i++) {
        cl_ulong mb = list[i].size;
        CLSA_TRY(dcb_gather(ctx, d, w, &list[i]));
        CLSA_TRY(dcb_sort(ctx, d, w, mb));
        CLSA_TRY(dcb_merge(ctx, d, w, mb, smp, &q));
        CLSA_TRY(dcb_place(ctx, d, w, mb, q, out, primary));
        w->base += mb;
        CLSA_TRY(clsa__progress(ctx, "bwt buckets", 0.4 + 0.6 * (double)w->base / (double)d->n));
    }
done:
    return st;
}

/* --stats' algorithm line: the route, then why the sample's sort took its
 * algorithm. */
static void dcb_note(clsa_context *ctx, size_t count, uint64_t largest)
{
    char *why = ctx->stats.sa_algorithm_why, was[sizeof ctx->stats.sa_algorithm_why];
    memcpy(was, why, sizeof was);
    if (snprintf(why, sizeof was, "BWT by %zu buckets of at most %llu over a DC7 sample; its "
                 "sort: %s", count, (unsigned long long)largest, was) < 0)
        why[0] = 0; /* the return value used: truncation is expected */
}

/* Buckets planned from the histogram and sorted one by one. */
static clsa_status dcb_all(clsa_context *ctx, const dcb *d, const clsa__dc_out *out,
                           int64_t *primary, const clsa__dc_samples *smp, int *declined)
{
    uint32_t *hist = NULL;
    dcb_bucket *list = NULL;
    dcb_work w = {0};
    size_t count = 0;
    uint64_t largest = 0, total = 0, cap = dcb_cap(ctx);
    clsa_status st = CLSA_OK;
    CLSA_TRY(dcb_histogram(ctx, d, &hist));
    list = dcb_plan(hist, (size_t)1 << (d->b * d->P), cap, &count, &largest, &total);
    if (!list) CLSA_TRY(clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "BWT by buckets: bucket list"));
    if (total != d->n)
        CLSA_TRY(clsa__fail(ctx, CLSA_ERR_OPENCL, "BWT by buckets: bins count %llu suffixes "
                            "of %llu", (unsigned long long)total, (unsigned long long)d->n));
    uint64_t samples = smp ? d->n / smp->rate + 1 : 1;
    *declined = largest > UINT32_MAX || largest * 8 > ctx->tune.max_alloc ||
                samples * 8 > ctx->tune.max_alloc ||
                largest * DCB_ITEM_BYTES + samples * 8 + DCB_RESERVE > clsa__mem_free(ctx);
    if (*declined) goto done;
    CLSA_TRY(clsa__progress(ctx, "bwt buckets", 0.4));
    CLSA_TRY(dcb_work_open(ctx, &w, largest, samples));
    CLSA_TRY(dcb_buckets(ctx, d, list, count, &w, out, primary, smp));
    if (smp) CLSA_TRY(dcb_samples_out(ctx, d, &w, smp));
    dcb_note(ctx, count, largest);
done:
    dcb_work_close(ctx, &w);
    free(hist);
    free(list);
    return st;
}

/* out[0] = text[n - 1] (divbwt's first byte). */
static clsa_status dcb_first(clsa_context *ctx, const uint8_t *text, int64_t n,
                             const clsa__dc_out *out)
{
    if (out->host) out->host[0] = text[n - 1];
    return out->host ? CLSA_OK : clsa__write(ctx, out->dev, 0, text + n - 1, 1);
}

clsa_status clsa__dc_bwt(clsa_context *ctx, const uint8_t *text, int64_t n,
                         const clsa__dc_out *out, int64_t *primary, const clsa__dc_samples *smp,
                         int *declined)
{
    dcb d = {0};
    clsa_status st = CLSA_OK;
    *primary = 0;
    dcb_sizes(&d, (uint64_t)n);
    *declined = !dcb_fits(ctx, &d);
    if (*declined || n < 1) return CLSA_OK;
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    CLSA_TRY(clsa__progress(ctx, "bwt upload", 0.0));
    CLSA_TRY(dcb_upload(ctx, &d, text, declined));
    if (*declined) goto done;
    CLSA_TRY(clsa__progress(ctx, "bwt sample", 0.01));
    CLSA_TRY(dcb_sample(ctx, &d));
    CLSA_TRY(clsa__progress(ctx, "bwt histogram", 0.4));
    CLSA_TRY(dcb_all(ctx, &d, out, primary, smp, declined));
    if (!*declined) CLSA_TRY(dcb_first(ctx, text, n, out));
done:
    clsa__free(ctx, &d.text);
    clsa__free(ctx, &d.codes);
    clsa__free(ctx, &d.rank);
    clsa__set_phase(ctx, phase);
    if (st == CLSA_ERR_DEVICE_MEMORY) { /* a driver refused what the plan allowed */
        ctx->message[0] = 0;
        *declined = 1;
        st = CLSA_OK;
    }
    return st;
}
