/* Batched suffix arrays and BWTs (include/clsa_batch.h): argument checks,
 * the route (host text by text, or device parts), and the parts' plan:
 * consecutive texts gathered while the part's working set fits the free
 * device memory; a part that still finds the device full is split in two,
 * and a text alone too large for the device is built as clsa_sa32/64
 * builds one (out of core). */
#include "batch.h"
#include "bwt.h"
#include "sa/dispatch.h"
#include "sa/sa.h"
#include "buffer.h"
#include "context.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

/* Virtual symbols of a part: 32-bit entries with the pipeline's margin. */
#define PART_MAX ((uint64_t)INT32_MAX)

static clsa_status batch_args(clsa_context *ctx, clsa__batch *j, int has_in, int has_out)
{
    const char *what = j->bwt ? "BWT batch" : "suffix array batch";
    uint64_t cap = j->sym > 1 ? UINT32_MAX : j->index64 || j->bwt ? UINT64_MAX : INT32_MAX;
    if (j->k < 0) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: negative text count", what);
    if (j->k > 0 && !j->len)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: lengths is NULL", what);
    if ((uint64_t)j->k >= SIZE_MAX / 16)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: too many texts", what);
    uint64_t sum = 0;
    for (int64_t i = 0; i < j->k; i++) {
        if (j->len[i] < 0)
            return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: length of text %lld is negative",
                              what, (long long)i);
        if ((uint64_t)j->len[i] > (uint64_t)INT64_MAX - sum)
            return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: the lengths add up past 2^63",
                              what);
        if ((uint64_t)j->len[i] > cap)
            return clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "%s: text %lld has %lld symbols; at "
                              "most %llu%s", what, (long long)i, (long long)j->len[i],
                              (unsigned long long)cap, j->sym > 1 ? "" : " (use the 64-bit call)");
        sum += (uint64_t)j->len[i];
    }
    if (sum > 0 && (!has_in || !has_out || (j->bwt && !j->primary)))
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: a NULL array or buffer", what);
    if (j->k > 0 && j->bwt && !j->primary)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: primary is NULL", what);
    j->total = sum;
    return CLSA_OK;
}

static clsa_status offsets(clsa_context *ctx, clsa__batch *j)
{
    j->off = malloc(((size_t)j->k + 1) * sizeof *j->off);
    if (!j->off) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "batch: out of host memory");
    j->off[0] = 0;
    for (int64_t i = 0; i < j->k; i++) j->off[i + 1] = j->off[i] + j->len[i];
    if (j->primary) memset(j->primary, 0, (size_t)j->k * sizeof *j->primary);
    return CLSA_OK;
}

static const void *sym_ptr(const void *base, int sym, int64_t at)
{
    return (const uint8_t *)base + (size_t)at * (size_t)sym;
}

/* The BWT of one host text from its suffix array, built on the backend the
 * context picks (out of core where it is too large for the device). */
static clsa_status one_bwt(clsa__batch *j, int64_t i)
{
    int64_t n = j->len[i];
    const void *t = sym_ptr(j->text, j->sym, j->off[i]);
    void *out = (uint8_t *)j->out + (size_t)j->off[i] * (size_t)j->sym;
    int wide = n > INT32_MAX;
    void *sa = malloc((size_t)n * (wide ? 8 : 4));
    if (!sa)
        return clsa__fail(j->ctx, CLSA_ERR_HOST_MEMORY, "BWT batch: out of host memory for "
                                                        "the suffix array of text %lld",
                          (long long)i);
    clsa_status st = clsa__sa_int_run(j->ctx, t, j->sym, sa, n, wide);
    if (st == CLSA_OK) clsa__bwt_gather_host(t, j->sym, sa, wide, out, n, j->primary + i);
    free(sa);
    return st;
}

/* Where a device text's own arrays would pass the largest allocation (or
 * n >= 2^32): its suffix array by clsa_sa32/64's route on a host copy,
 * the SA or BWT written back into the output buffer. */
static clsa_status one_text_mem(clsa__batch *j, int64_t i)
{
    int64_t n = j->len[i];
    int wide = j->bwt ? n > INT32_MAX : j->index64;
    size_t w = wide ? 8 : 4;
    uint8_t *t = malloc((size_t)n), *sa = malloc((size_t)n * w), *b = NULL;
    clsa_status st = CLSA_OK;
    if (!t || !sa || (j->bwt && !(b = malloc((size_t)n)))) {
        st = clsa__fail(j->ctx, CLSA_ERR_HOST_MEMORY, "batch: out of host memory for text %lld",
                        (long long)i);
        goto done;
    }
    CLSA_TRY(clsa__read(j->ctx, j->dtext, (size_t)j->off[i], t, (size_t)n));
    CLSA_TRY(clsa__sa_pick_run(j->ctx, t, 1, sa, n, wide));
    if (!j->bwt) CLSA_TRY(clsa__write(j->ctx, j->dout, (size_t)j->off[i] * w, sa, (size_t)n * w));
    if (!j->bwt) goto done;
    clsa__bwt_gather_host(t, 1, sa, wide, b, n, j->primary + i);
    CLSA_TRY(clsa__write(j->ctx, j->dout, (size_t)j->off[i], b, (size_t)n));
done:
    free(t);
    free(sa);
    free(b);
    return st;
}

static int past_alloc(const clsa__batch *j, int64_t n)
{
    size_t w = (j->bwt ? n > INT32_MAX : j->index64) ? 8 : 4;
    return (uint64_t)n > UINT32_MAX || (uint64_t)n * w > j->ctx->tune.max_alloc;
}

/* Text i alone, on the host or as clsa_sa32/64 builds one. */
static clsa_status one_text(clsa__batch *j, int64_t i)
{
    int64_t n = j->len[i];
    if (n == 0) return CLSA_OK;
    if (!j->text && past_alloc(j, n)) return one_text_mem(j, i);
    if (!j->text)
        return clsa__fail(j->ctx, CLSA_ERR_DEVICE_MEMORY, "%s batch: text %lld (%lld symbols) "
                          "does not fit the device's free memory",
                          j->bwt ? "BWT" : "suffix array", (long long)i, (long long)n);
    if (j->bwt && j->sym == 1 && !clsa__use_device(j->ctx, (uint64_t)n))
        return clsa__bwt_host(j->ctx, sym_ptr(j->text, 1, j->off[i]),
                              (uint8_t *)j->out + j->off[i], n, j->primary + i);
    if (j->bwt) return one_bwt(j, i);
    void *sa = (uint8_t *)j->out + (size_t)j->off[i] * (j->index64 ? 8 : 4);
    return clsa__sa_int_run(j->ctx, sym_ptr(j->text, j->sym, j->off[i]), j->sym, sa, n,
                            j->index64);
}

/* Texts [a, b) one by one (the host route), progress by symbols. */
static clsa_status each_text(clsa__batch *j, int64_t a, int64_t b)
{
    clsa_status st = CLSA_OK;
    for (int64_t i = a; i < b && st == CLSA_OK; i++) {
        double f0 = (double)j->done / (double)j->total;
        j->done += (uint64_t)j->len[i];
        clsa__progress_slice(j->ctx, f0, (double)j->done / (double)j->total);
        st = one_text(j, i);
        clsa__progress_slice(j->ctx, 0.0, 1.0);
    }
    return st;
}

/* The number of texts from a with at least one symbol, counting to 2. */
static int nonempty(const clsa__batch *j, int64_t a, int64_t b, int64_t *which)
{
    int c = 0;
    for (int64_t i = a; i < b && c < 2; i++)
        if (j->len[i]) {
            *which = i;
            c++;
        }
    return c;
}

/* Texts [a, b) on the device: one part, or halves where it finds the
 * device full, or the single text alone.  One text's suffix array from a
 * host input takes the single-text route (no separators to handle). */
static clsa_status run_part(clsa__batch *j, int64_t a, int64_t b)
{
    int64_t one = a;
    int c = nonempty(j, a, b, &one);
    if (c == 0) return CLSA_OK;
    if (c == 1 && j->text && !j->bwt) return each_text(j, one, one + 1);
    uint64_t done = j->done;
    clsa_status st = clsa__batch_part(j, a, b);
    if (st != CLSA_ERR_DEVICE_MEMORY) {
        j->done = done + (uint64_t)(j->off[b] - j->off[a]);
        return st;
    }
    clsa__log(j->ctx, "batch: %lld texts out of device memory (%s); %s", (long long)(b - a),
              clsa__last_error(j->ctx), c == 1 ? "the text alone" : "in halves");
    j->ctx->message[0] = 0;
    if (c == 1) return each_text(j, one, one + 1);
    int64_t mid = a + 1, half = (j->off[a] + j->off[b]) / 2;
    while (mid < b - 1 && j->off[mid] < half) mid++;
    st = run_part(j, a, mid);
    return st ? st : run_part(j, mid, b);
}

/* Whether texts [a, b) fit one part. */
static int fits(const clsa__batch *j, int64_t a, int64_t b, uint64_t budget)
{
    uint64_t m = (uint64_t)(j->off[b] - j->off[a]), k = (uint64_t)(b - a);
    return m + k <= PART_MAX && clsa__batch_need(j, m, k) <= budget;
}

/* The device route: consecutive texts gathered into parts that fit. */
static clsa_status on_device(clsa__batch *j)
{
    clsa_status st = CLSA_OK;
    uint64_t budget = clsa__mem_free(j->ctx);
    for (int64_t a = 0; a < j->k && st == CLSA_OK;) {
        int64_t b = a + 1;
        if (!fits(j, a, b, budget)) { /* out of core, or a try for a device input */
            st = j->text ? each_text(j, a, b) : run_part(j, a, b);
            a = b;
            continue;
        }
        /* doubling then bisection: O(log k) need estimates per part */
        int64_t step = 1;
        while (b < j->k && fits(j, a, b + step < j->k ? b + step : j->k, budget)) {
            b = b + step < j->k ? b + step : j->k;
            step *= 2;
        }
        for (; step > 1 && b < j->k; step /= 2)
            if (b + step / 2 <= j->k && fits(j, a, b + step / 2, budget)) b += step / 2;
        st = run_part(j, a, b);
        a = b;
    }
    return st;
}

static clsa_status batch_run(clsa__batch *j)
{
    clsa_context *ctx = j->ctx;
    clsa_status st = offsets(ctx, j);
    if (st || j->total == 0) return st;
    int device = j->dtext || clsa__use_device(ctx, j->total);
    if (ctx) ctx->stats.last_backend = device ? CLSA_BACKEND_DEVICE : CLSA_BACKEND_HOST;
    if (!device && ctx && ctx->backend == CLSA_BACKEND_DEVICE) return clsa__need_device(ctx);
    return device ? on_device(j) : each_text(j, 0, j->k);
}

static clsa_status batch_host(clsa_context *ctx, const void *text, int sym, const int64_t *len,
                              int64_t k, void *out, int64_t *primary, int index64)
{
    clsa__batch j = {.ctx = ctx, .sym = sym, .index64 = index64, .bwt = primary != NULL,
                     .len = len, .k = k};
    j.text = text;
    j.out = out;
    j.primary = primary;
    clsa_status st = batch_args(ctx, &j, text != NULL, out != NULL);
    if (st || j.total == 0) {
        if (st == CLSA_OK && primary && k > 0) memset(primary, 0, (size_t)k * sizeof *primary);
        return st;
    }
    clsa__call_begin(ctx);
    st = batch_run(&j);
    free(j.off);
    return clsa__call_end(ctx, st);
}

static clsa_status batch_mem(clsa_context *ctx, cl_mem text, const int64_t *len, int64_t k,
                             cl_mem out, int64_t *primary, int index64)
{
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    clsa__batch j = {.ctx = ctx, .sym = 1, .index64 = index64, .bwt = primary != NULL,
                     .len = len, .k = k};
    j.dtext = text;
    j.dout = out;
    j.primary = primary;
    clsa__call_begin(ctx);
    st = batch_args(ctx, &j, text != NULL, out != NULL);
    if (st == CLSA_OK && j.total > 0 && text == out)
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "batch: text and output must be different "
                                                   "buffers");
    if (st == CLSA_OK && primary && k > 0) memset(primary, 0, (size_t)k * sizeof *primary);
    uint64_t caller = j.total * (primary ? 2 : index64 ? 9 : 5);
    clsa__hold_caller(ctx, caller, 1);
    if (st == CLSA_OK) st = batch_run(&j);
    clsa__hold_caller(ctx, caller, 0);
    free(j.off);
    return clsa__call_end(ctx, st);
}

clsa_status clsa_sa32_batch(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                            int64_t k, int32_t *sa)
{
    return batch_host(ctx, text, 1, lengths, k, sa, NULL, 0);
}

clsa_status clsa_sa64_batch(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                            int64_t k, int64_t *sa)
{
    return batch_host(ctx, text, 1, lengths, k, sa, NULL, 1);
}

clsa_status clsa_sa32_batch_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                                int64_t k, int32_t *sa)
{
    return batch_host(ctx, text, 2, lengths, k, sa, NULL, 0);
}

clsa_status clsa_sa64_batch_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                                int64_t k, int64_t *sa)
{
    return batch_host(ctx, text, 2, lengths, k, sa, NULL, 1);
}

clsa_status clsa_sa32_batch_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                                int64_t k, int32_t *sa)
{
    return batch_host(ctx, text, 4, lengths, k, sa, NULL, 0);
}

clsa_status clsa_sa64_batch_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                                int64_t k, int64_t *sa)
{
    return batch_host(ctx, text, 4, lengths, k, sa, NULL, 1);
}

clsa_status clsa_sa32_batch_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                                int64_t k, int32_t *sa)
{
    return batch_host(ctx, text, 8, lengths, k, sa, NULL, 0);
}

clsa_status clsa_sa64_batch_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                                int64_t k, int64_t *sa)
{
    return batch_host(ctx, text, 8, lengths, k, sa, NULL, 1);
}

clsa_status clsa_sa32_batch_mem(clsa_context *ctx, cl_mem text, const int64_t *lengths, int64_t k,
                                cl_mem sa)
{
    return batch_mem(ctx, text, lengths, k, sa, NULL, 0);
}

clsa_status clsa_sa64_batch_mem(clsa_context *ctx, cl_mem text, const int64_t *lengths, int64_t k,
                                cl_mem sa)
{
    return batch_mem(ctx, text, lengths, k, sa, NULL, 1);
}

/* Integer symbols: the batch's suffix arrays into a host array, then the
 * BWTs gathered from it text by text. */
static clsa_status bwt_int_batch(clsa_context *ctx, const void *text, int sym, const int64_t *len,
                                 int64_t k, void *bwt, int64_t *primary)
{
    clsa__batch j = {.ctx = ctx, .sym = sym, .index64 = 1, .len = len, .k = k};
    j.text = text;
    clsa_status st = batch_args(ctx, &j, text != NULL, bwt != NULL);
    if (st == CLSA_OK && (uint64_t)j.total > SIZE_MAX / 8)
        st = clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "BWT batch: too many symbols for memory");
    if (st || (memset(primary, 0, (size_t)k * sizeof *primary), j.total == 0)) return st;
    if (!(j.out = malloc((size_t)j.total * 8)))
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "BWT batch: out of host memory for the "
                                                     "suffix arrays of %llu symbols",
                          (unsigned long long)j.total);
    clsa__call_begin(ctx);
    st = batch_run(&j);
    for (int64_t i = 0; st == CLSA_OK && i < k; i++)
        if (len[i])
            clsa__bwt_gather_host(sym_ptr(text, sym, j.off[i]), sym, (int64_t *)j.out + j.off[i],
                                  1, (uint8_t *)bwt + (size_t)j.off[i] * (size_t)sym, len[i],
                                  primary + i);
    free(j.off);
    free(j.out);
    return clsa__call_end(ctx, st);
}

/* BWT calls take primary as the mark of the BWT: a NULL one is refused. */
static clsa_status bwt_batch(clsa_context *ctx, const void *text, int sym, const int64_t *len,
                             int64_t k, void *bwt, int64_t *primary)
{
    if (!primary && k > 0)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "BWT batch: primary is NULL");
    int64_t none = 0;
    if (sym > 1) return bwt_int_batch(ctx, text, sym, len, k, bwt, primary ? primary : &none);
    return batch_host(ctx, text, sym, len, k, bwt, primary ? primary : &none, 0);
}

clsa_status clsa_bwt_batch(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                           int64_t k, uint8_t *bwt, int64_t *primary)
{
    return bwt_batch(ctx, text, 1, lengths, k, bwt, primary);
}

clsa_status clsa_bwt_batch_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                               int64_t k, uint16_t *bwt, int64_t *primary)
{
    return bwt_batch(ctx, text, 2, lengths, k, bwt, primary);
}

clsa_status clsa_bwt_batch_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                               int64_t k, uint32_t *bwt, int64_t *primary)
{
    return bwt_batch(ctx, text, 4, lengths, k, bwt, primary);
}

clsa_status clsa_bwt_batch_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                               int64_t k, uint64_t *bwt, int64_t *primary)
{
    return bwt_batch(ctx, text, 8, lengths, k, bwt, primary);
}

clsa_status clsa_bwt_batch_mem(clsa_context *ctx, cl_mem text, const int64_t *lengths, int64_t k,
                               cl_mem bwt, int64_t *primary)
{
    if (!primary && k > 0)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "BWT batch: primary is NULL");
    int64_t none = 0;
    return batch_mem(ctx, text, lengths, k, bwt, primary ? primary : &none, 0);
}
