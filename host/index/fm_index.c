/* FM-index on the device: build (SA -> BWT -> codes, checkpoints, samples),
 * batched count and locate (cl_kernels/fm_index.cl). */
#include "fm_index.h"
#include "dc_bwt.h"
#include "fm_calls.h"
#include "index/bwt.h"
#include "index/index_run.h"
#include "prim/scan.h"
#include "sa/sa.h"
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

/* Largest text the index takes: counters and positions are idx_t, and the
 * sample ranks are 32-bit. */
#define FM_MAX_N ((int64_t)1 << 40)

const char *clsa__fm_options(const clsa_fm *fm, char *buf, size_t cap)
{
    snprintf(buf, cap, "-DFM_W=%u -DFM_B=%u", fm->w, fm->b);
    return buf;
}

/* Kernel `name` of fm_index.cl for fm's layout, given the argument list
 * (CLSA_KARGS), over `global` work-items. */
static clsa_status fm_run(clsa_fm *fm, const char *name, size_t global, size_t nargs,
                          const clsa__karg *args)
{
    char opts[64];
    return clsa__run(fm->ctx, "fm_index", fm->index64, clsa__fm_options(fm, opts, sizeof opts),
                     name, global, 0, nargs, args);
}

/* Layout: fewer bits per code for small alphabets (DNA: 2 bits, a record is
 * one 32-byte sector); counters padded so records start 32-byte aligned. */
static void choose_layout(clsa_fm *fm)
{
    unsigned iw = fm->index64 ? 2 : 1;
    fm->w = fm->sigma <= 4 ? 2 : fm->sigma <= 16 ? 4 : 8;
    fm->b = fm->w == 2 ? 64 : 128;
    unsigned slots = fm->w == 8 ? fm->sigma : 1u << fm->w;
    unsigned cw = slots * iw, dw = fm->b * fm->w / 32;
    cw = (unsigned)clsa__round_up(cw + dw, 8) - dw;
    fm->rw = cw + dw;
}

clsa_status clsa__fm_new(clsa_context *ctx, int64_t n, int64_t rate, const uint64_t *hist,
                         clsa_fm **out)
{
    *out = NULL;
    clsa_fm *fm = calloc(1, sizeof *fm);
    if (!fm) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "FM-index: out of host memory");
    fm->ctx = ctx;
    fm->n = n;
    fm->rate = rate;
    fm->index64 = n >= INT32_MAX;
    memcpy(fm->hist, hist, sizeof fm->hist);
    memset(fm->map, 255, sizeof fm->map);
    for (unsigned c = 0; c < 256; c++)
        if (hist[c]) {
            fm->unmap[fm->sigma] = (uint8_t)c;
            fm->map[c] = (uint8_t)fm->sigma++;
        }
    if (fm->sigma == 0) fm->sigma = 1; /* empty text: one unused code */
    choose_layout(fm);
    fm->nrec = (n + 1) / fm->b + 1;
    fm->nmarks = (n + 1 + 31) / 32;
    *out = fm;
    return CLSA_OK;
}

/* Frees fm; the caller holds the context lock. */
void clsa__fm_release(clsa_fm *fm)
{
    if (!fm) return;
    clsa_context *ctx = fm->ctx;
    clsa__free(ctx, &fm->rec);
    clsa__free(ctx, &fm->C);
    clsa__free(ctx, &fm->dmap);
    clsa__free(ctx, &fm->marks);
    clsa__free(ctx, &fm->mrank);
    clsa__free(ctx, &fm->samples);
    free(fm);
}

void clsa__fm_free(clsa_fm *fm)
{
    if (!fm) return;
    clsa_context *ctx = fm->ctx;
    clsa__lock(ctx);
    clsa__fm_release(fm);
    clsa__unlock(ctx);
}

clsa_status clsa__fm_info(const clsa_fm *fm, int64_t *n, int64_t *sample_rate)
{
    if (!fm) return CLSA_ERR_INVALID_ARG;
    if (n) *n = fm->n;
    if (sample_rate) *sample_rate = fm->rate;
    return CLSA_OK;
}

/* ---- build ------------------------------------------------------------------------ */

static clsa_status upload_tables(clsa_fm *fm)
{
    clsa_context *ctx = fm->ctx;
    size_t iw = fm->index64 ? 8 : 4;
    uint8_t Cbuf[257 * 8];
    uint64_t run = 1; /* the $ row sorts first */
    for (unsigned c = 0; c <= fm->sigma; c++) {
        uint64_t v = run;
        if (fm->index64) memcpy(Cbuf + c * 8, &v, 8);
        else {
            uint32_t v32 = (uint32_t)v;
            memcpy(Cbuf + c * 4, &v32, 4);
        }
        if (c < fm->sigma) run += fm->hist[fm->unmap[c]];
    }
    clsa_status st;
    if ((st = clsa__alloc(ctx, 257 * iw, &fm->C)) || (st = clsa__alloc(ctx, 256, &fm->dmap)) ||
        (st = clsa__write(ctx, fm->C, 0, Cbuf, (fm->sigma + 1) * iw)))
        return st;
    return clsa__write(ctx, fm->dmap, 0, fm->map, 256);
}

/* Exclusive scan of the per-block counters over the records, per code. */
static clsa_status scan_counters(clsa_fm *fm)
{
    clsa_context *ctx = fm->ctx;
    uint64_t chunk = 256, nchunks = clsa__div_up((size_t)fm->nrec, chunk);
    size_t iw = fm->index64 ? 8 : 4;
    cl_mem sums = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, nchunks * fm->sigma * iw, &sums));
    static const char *steps[] = {"fm_scan_sums", "fm_scan_chunks", "fm_scan_apply"};
    for (int s = 0; s < 3; s++) {
        if (s == 1)
            CLSA_TRY(fm_run(fm, steps[s], fm->sigma,
                            CLSA_KARGS(CLSA_KARG(sums), CLSA_KU32(fm->sigma),
                                       CLSA_KIDX(fm->index64, nchunks))));
        else
            CLSA_TRY(
                fm_run(fm, steps[s], nchunks * fm->sigma,
                       CLSA_KARGS(CLSA_KARG(fm->rec), CLSA_KU32(fm->rw), CLSA_KU32(fm->sigma),
                                  CLSA_KIDX(fm->index64, fm->nrec), CLSA_KIDX(fm->index64, chunk),
                                  CLSA_KIDX(fm->index64, nchunks), CLSA_KARG(sums))));
    }
done:
    clsa__free(ctx, &sums);
    return st;
}

clsa_status clsa__fm_build_occ(clsa_fm *fm, cl_mem bwt, int64_t primary)
{
    clsa_context *ctx = fm->ctx;
    clsa_status st = CLSA_OK;
    fm->primary = primary;
    CLSA_TRY(upload_tables(fm));
    CLSA_TRY(clsa__alloc(ctx, (size_t)fm->nrec * fm->rw * 4, &fm->rec));
    int64_t nwords = fm->nrec * (fm->b * fm->w / 32);
    CLSA_TRY(
        fm_run(fm, "fm_pack", (size_t)nwords,
               CLSA_KARGS(CLSA_KARG(bwt), CLSA_KIDX(fm->index64, fm->n),
                          CLSA_KIDX(fm->index64, primary), CLSA_KARG(fm->dmap), CLSA_KARG(fm->rec),
                          CLSA_KU32(fm->rw), CLSA_KIDX(fm->index64, nwords))));
    CLSA_TRY(fm_run(fm, "fm_block_counts", (size_t)fm->nrec,
                    CLSA_KARGS(CLSA_KARG(fm->rec), CLSA_KU32(fm->rw), CLSA_KU32(fm->sigma),
                               CLSA_KIDX(fm->index64, fm->nrec), CLSA_KIDX(fm->index64, fm->n),
                               CLSA_KIDX(fm->index64, primary))));
    CLSA_TRY(scan_counters(fm));
done:
    return st;
}

clsa_status clsa__fm_build_mrank(clsa_fm *fm)
{
    clsa_context *ctx = fm->ctx;
    clsa_status st = CLSA_OK;
    cl_mem pops = NULL;
    uint32_t total = 0;
    CLSA_TRY(clsa__alloc(ctx, (size_t)fm->nmarks * 4, &pops));
    CLSA_TRY(clsa__alloc(ctx, (size_t)fm->nmarks * 4, &fm->mrank));
    CLSA_TRY(fm_run(
        fm, "fm_mark_pops", (size_t)fm->nmarks,
        CLSA_KARGS(CLSA_KARG(fm->marks), CLSA_KIDX(fm->index64, fm->nmarks), CLSA_KARG(pops))));
    CLSA_TRY(clsa__scan(ctx, pops, fm->mrank, (size_t)fm->nmarks, 0, 0, &total));
    if (fm->nsamples >= 0 && (int64_t)total != fm->nsamples)
        st = clsa__fail(ctx, CLSA_ERR_FORMAT,
                        "FM-index: %u rows are marked as sampled but %lld samples are stored",
                        total, (long long)fm->nsamples);
    fm->nsamples = total;
done:
    clsa__free(ctx, &pops);
    return st;
}

static clsa_status histogram(clsa_context *ctx, cl_mem text, int64_t n, uint64_t *hist)
{
    memset(hist, 0, 256 * sizeof *hist);
    if (n == 0) return CLSA_OK;
    size_t wg = ctx->tune.wg, groups = clsa__div_up((size_t)n, wg * 64);
    if (groups > 1024) groups = 1024;
    uint64_t chunk = clsa__div_up((size_t)n, groups);
    cl_mem partial = NULL;
    uint32_t *h = malloc(groups * 256 * 4);
    clsa_status st = CLSA_OK;
    if (!h) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "FM-index: out of host memory");
    CLSA_TRY(clsa__alloc(ctx, groups * 256 * 4, &partial));
    /* Same build options as the byte-alphabet layout: no extra program. */
    CLSA_TRY(CLSA_RUN(ctx, "fm_index", n >= INT32_MAX, "-DFM_W=8 -DFM_B=128", "fm_histogram",
                      groups * wg, 0, CLSA_KARG(text), CLSA_KU64((cl_ulong)n), CLSA_KU64(chunk),
                      CLSA_KARG(partial), CLSA_KLOCAL(256 * 4)));
    CLSA_TRY(clsa__read(ctx, partial, 0, h, groups * 256 * 4));
    for (size_t g = 0; g < groups; g++)
        for (int c = 0; c < 256; c++) hist[c] += h[g * 256 + c];
done:
    clsa__free(ctx, &partial);
    free(h);
    return st;
}

static clsa_status build_samples(clsa_fm *fm, cl_mem sa)
{
    clsa_context *ctx = fm->ctx;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)fm->nmarks * 4, &fm->marks));
    CLSA_TRY(fm_run(fm, "fm_marks", (size_t)fm->nmarks,
                    CLSA_KARGS(CLSA_KARG(sa), CLSA_KIDX(fm->index64, fm->n),
                               CLSA_KIDX(fm->index64, fm->rate), CLSA_KARG(fm->marks),
                               CLSA_KIDX(fm->index64, fm->nmarks))));
    fm->nsamples = -1;
    CLSA_TRY(clsa__fm_build_mrank(fm));
    CLSA_TRY(clsa__alloc(ctx, (size_t)fm->nsamples * (fm->index64 ? 8 : 4), &fm->samples));
    CLSA_TRY(fm_run(fm, "fm_samples", (size_t)fm->n + 1,
                    CLSA_KARGS(CLSA_KARG(sa), CLSA_KIDX(fm->index64, fm->n), CLSA_KARG(fm->marks),
                               CLSA_KARG(fm->mrank), CLSA_KARG(fm->samples))));
done:
    return st;
}

/* The sampled rows of a host suffix array: bit r of marks (rows 0..n, row
 * 0 the empty suffix at position n) where the position is a multiple of
 * the rate, the positions of those rows in row order; *m gets how many. */
static void samples_host(const clsa_fm *fm, const void *sa, uint32_t *marks, void *samples,
                         int64_t *m)
{
    int64_t n = fm->n, k = 0;
    memset(marks, 0, (size_t)fm->nmarks * 4);
    for (int64_t r = 0; r <= n; r++) {
        int64_t pos = r == 0 ? n
                      : fm->index64 ? ((const int64_t *)sa)[r - 1] : ((const int32_t *)sa)[r - 1];
        if (pos % fm->rate) continue;
        marks[r / 32] |= 1u << (r % 32);
        if (fm->index64) ((int64_t *)samples)[k++] = pos;
        else ((int32_t *)samples)[k++] = (int32_t)pos;
    }
    *m = k;
}

/* Uploads the sampled rows of a host suffix array (marks, samples, the
 * marks' running counts). */
static clsa_status upload_samples(clsa_fm *fm, const void *sa)
{
    clsa_context *ctx = fm->ctx;
    size_t iw = fm->index64 ? 8 : 4, most = (size_t)(fm->n / fm->rate) + 2;
    uint32_t *marks = malloc((size_t)fm->nmarks * 4);
    void *samples = malloc(most * iw);
    clsa_status st = CLSA_OK;
    if (!marks || !samples) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "FM-index: out of host memory");
        goto done;
    }
    samples_host(fm, sa, marks, samples, &fm->nsamples);
    CLSA_TRY(clsa__alloc(ctx, (size_t)fm->nmarks * 4, &fm->marks));
    CLSA_TRY(clsa__write(ctx, fm->marks, 0, marks, (size_t)fm->nmarks * 4));
    CLSA_TRY(clsa__alloc(ctx, (size_t)fm->nsamples * iw, &fm->samples));
    CLSA_TRY(clsa__write(ctx, fm->samples, 0, samples, (size_t)fm->nsamples * iw));
    CLSA_TRY(clsa__fm_build_mrank(fm));
done:
    free(marks);
    free(samples);
    return st;
}

/* Marks and samples from rows[j] = the row of position j * rate (a device
 * buffer of n / rate + 1 entries). */
static clsa_status samples_of_rows(clsa_fm *fm, cl_mem rows)
{
    clsa_context *ctx = fm->ctx;
    int64_t count = fm->n / fm->rate + 1;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)fm->nmarks * 4, &fm->marks));
    CLSA_TRY(clsa__fill_zero(ctx, fm->marks, 0, (size_t)fm->nmarks * 4));
    CLSA_TRY(fm_run(fm, "fm_marks_rows", (size_t)count,
                    CLSA_KARGS(CLSA_KARG(rows), CLSA_KIDX(fm->index64, count),
                               CLSA_KARG(fm->marks))));
    fm->nsamples = -1;
    CLSA_TRY(clsa__fm_build_mrank(fm));
    CLSA_TRY(clsa__alloc(ctx, (size_t)fm->nsamples * (fm->index64 ? 8 : 4), &fm->samples));
    CLSA_TRY(fm_run(fm, "fm_samples_rows", (size_t)count,
                    CLSA_KARGS(CLSA_KARG(rows), CLSA_KIDX(fm->index64, count),
                               CLSA_KIDX(fm->index64, fm->rate), CLSA_KARG(fm->marks),
                               CLSA_KARG(fm->mrank), CLSA_KARG(fm->samples))));
done:
    return st;
}

/* The BWT and the samples' rows by buckets over a difference-cover sample
 * (host/index/dc_bwt.c): no suffix array in host memory.  *declined: the
 * route could not take the text (nothing done). */
static clsa_status bwt_samples_dc(clsa_fm *fm, const uint8_t *text, cl_mem *bwt, int *declined)
{
    clsa_context *ctx = fm->ctx;
    cl_mem rows = NULL;
    clsa__dc_samples smp = {(uint64_t)fm->rate, &rows, 0};
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)fm->n, bwt));
    clsa__progress_slice(ctx, 0.02, 0.8);
    st = clsa__dc_bwt(ctx, text, fm->n, &(clsa__dc_out){NULL, *bwt}, &fm->primary, &smp,
                      declined);
    clsa__progress_slice(ctx, 0.0, 1.0);
    if (st || *declined) goto done;
    CLSA_TRY(clsa__progress(ctx, "fm samples", 0.85));
    CLSA_TRY(samples_of_rows(fm, rows));
done:
    if (*declined) clsa__free(ctx, bwt);
    clsa__free(ctx, &rows);
    return st;
}

/* Off the device's in-memory route (an n-entry array past the largest
 * allocation, or the suffix array's plan out of core): the suffix array by
 * its own route into host memory, the BWT and the sampled rows from it on
 * the host, uploaded; the device holds n-byte and sample-sized buffers. */
static clsa_status bwt_samples_host(clsa_fm *fm, const uint8_t *text, cl_mem *bwt)
{
    clsa_context *ctx = fm->ctx;
    void *sa = NULL;
    uint8_t *hb = NULL;
    int declined = 1;
    clsa_status st = clsa__dc_bwt_wanted(ctx, 1) ? bwt_samples_dc(fm, text, bwt, &declined)
                                                 : CLSA_OK;
    if (st || !declined) return st;
    clsa__progress_slice(ctx, 0.02, 0.8);
    st = clsa__index_sa(ctx, text, fm->n, fm->index64, &sa);
    clsa__progress_slice(ctx, 0.0, 1.0);
    CLSA_TRY(st);
    CLSA_TRY(clsa__progress(ctx, "bwt", 0.8));
    if (!(hb = malloc((size_t)fm->n))) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "FM-index: out of host memory");
        goto done;
    }
    clsa__bwt_gather_host(text, 1, sa, fm->index64, hb, fm->n, &fm->primary);
    CLSA_TRY(clsa__alloc(ctx, (size_t)fm->n, bwt));
    CLSA_TRY(clsa__write(ctx, *bwt, 0, hb, (size_t)fm->n));
    free(hb);
    hb = NULL;
    CLSA_TRY(clsa__progress(ctx, "fm samples", 0.85));
    CLSA_TRY(upload_samples(fm, sa));
done:
    free(sa);
    free(hb);
    return st;
}

/* The in-memory route: SA, BWT and samples on the device (*bwt allocated
 * once the suffix array's working set is gone). */
static clsa_status bwt_samples_device(clsa_fm *fm, cl_mem *dtext, cl_mem *bwt)
{
    clsa_context *ctx = fm->ctx;
    int64_t n = fm->n;
    cl_mem sa = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)n * (fm->index64 ? 8 : 4), &sa));
    /* shares of the progress: the suffix array is most of the build */
    clsa__progress_slice(ctx, 0.02, 0.8);
    if (n > 0) st = clsa__sa_device(ctx, *dtext, sa, n, fm->index64);
    clsa__progress_slice(ctx, 0.0, 1.0);
    CLSA_TRY(st);
    CLSA_TRY(clsa__progress(ctx, "bwt", 0.8));
    CLSA_TRY(clsa__alloc(ctx, (size_t)n, bwt));
    if (n > 0) CLSA_TRY(clsa__bwt_device(ctx, *dtext, sa, n, fm->index64, *bwt, &fm->primary));
    clsa__free(ctx, dtext);
    CLSA_TRY(clsa__progress(ctx, "fm samples", 0.85));
    CLSA_TRY(build_samples(fm, sa));
done:
    clsa__free(ctx, &sa);
    return st;
}

static clsa_status create_locked(clsa_context *ctx, const uint8_t *text, int64_t n, int64_t rate,
                                 clsa_fm **out)
{
    cl_mem dtext = NULL, bwt = NULL;
    uint64_t hist[256];
    clsa_fm *fm = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__progress(ctx, "fm histogram", 0.0));
    CLSA_TRY(clsa__alloc(ctx, (size_t)n, &dtext));
    CLSA_TRY(clsa__write_text(ctx, dtext, text, (size_t)n));
    CLSA_TRY(histogram(ctx, dtext, n, hist));
    CLSA_TRY(clsa__fm_new(ctx, n, rate, hist, &fm));
    fm->primary = 0;
    if (n > 0 && (clsa__index_past_alloc(ctx, n, fm->index64) || clsa__dc_bwt_wanted(ctx, 0))) {
        clsa__free(ctx, &dtext); /* the route reads the host text */
        CLSA_TRY(bwt_samples_host(fm, text, &bwt));
    } else {
        CLSA_TRY(bwt_samples_device(fm, &dtext, &bwt));
    }
    CLSA_TRY(clsa__progress(ctx, "fm occurrences", 0.9));
    CLSA_TRY(clsa__fm_build_occ(fm, bwt, fm->primary));
    CLSA_TRY(clsa__finish(ctx));
    CLSA_TRY(clsa__progress_end(ctx, CLSA_OK));
done:
    clsa__free(ctx, &dtext);
    clsa__free(ctx, &bwt);
    if (st == CLSA_OK) *out = fm;
    else clsa__fm_release(fm);
    return st;
}

clsa_status clsa__fm_create(clsa_context *ctx, const uint8_t *text, int64_t n, int64_t sample_rate,
                            clsa_fm **out)
{
    if (!out) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "FM-index: out is NULL");
    *out = NULL;
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    if (sample_rate == 0) sample_rate = CLSA_FM_DEFAULT_SAMPLE_RATE;
    if (n < 0 || n >= FM_MAX_N || (n > 0 && !text) || sample_rate < 1)
        return clsa__fail(ctx, n >= FM_MAX_N ? CLSA_ERR_TOO_LARGE : CLSA_ERR_INVALID_ARG,
                          "FM-index: %s",
                          n < 0           ? "negative text length"
                          : n >= FM_MAX_N ? "text longer than 2^40 bytes"
                          : sample_rate < 1 ? "sample rate must be >= 1"
                                            : "text is NULL");
    /* Position 0 is always sampled: a larger rate only lengthens walks.
     * The cap keeps a walk (up to rate steps of about 33 loop iterations)
     * below llvmpipe's 65535 loop iterations per work-item. */
    if (sample_rate > n + 1) sample_rate = n + 1;
    if (sample_rate > CLSA_FM_MAX_SAMPLE_RATE) sample_rate = CLSA_FM_MAX_SAMPLE_RATE;
    if ((n + 1) / sample_rate + 2 > (int64_t)UINT32_MAX)
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE,
                          "FM-index: sample rate %lld gives more than 2^32 samples; use a "
                          "larger rate",
                          (long long)sample_rate);
    clsa__call_begin(ctx);
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    ctx->stats.last_backend = CLSA_BACKEND_DEVICE;
    st = create_locked(ctx, text, n, sample_rate, out);
    clsa__set_phase(ctx, phase);
    clsa__unlock(ctx);
    return st;
}

clsa_status clsa__fm_unpack(clsa_fm *fm, cl_mem bwt)
{
    clsa_context *ctx = fm->ctx;
    clsa_status st = CLSA_OK;
    cl_mem unmap = NULL;
    CLSA_TRY(clsa__alloc(ctx, 256, &unmap));
    CLSA_TRY(clsa__write(ctx, unmap, 0, fm->unmap, 256));
    CLSA_TRY(
        fm_run(fm, "fm_unpack", (size_t)fm->n + 1,
               CLSA_KARGS(CLSA_KARG(fm->rec), CLSA_KU32(fm->rw), CLSA_KIDX(fm->index64, fm->n),
                          CLSA_KIDX(fm->index64, fm->primary), CLSA_KARG(unmap), CLSA_KARG(bwt))));
    CLSA_TRY(clsa__finish(ctx));
done:
    clsa__free(ctx, &unmap);
    return st;
}

/* ---- queries ------------------------------------------------------------------------ */

static clsa_status check_patterns(clsa_fm *fm, const uint8_t *patterns, const uint64_t *offsets,
                                  size_t np)
{
    clsa_context *ctx = fm->ctx;
    if (np == 0) return CLSA_OK;
    if (!offsets) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "FM-index: offsets is NULL");
    for (size_t p = 0; p < np; p++)
        if (offsets[p + 1] < offsets[p])
            return clsa__fail(ctx, CLSA_ERR_INVALID_ARG,
                              "FM-index: offsets decrease at pattern %zu", p);
    if (offsets[np] > offsets[0] && !patterns)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "FM-index: patterns is NULL");
    return CLSA_OK;
}

/* Pattern bytes one fm_count launch searches: Mesa llvmpipe (rusticl)
 * ends every loop of a work-item once 65535 iterations have run in total,
 * and a search step costs about 2 * (data words per record) + 2 of them
 * where the rank loop is not unrolled. */
static uint64_t search_budget(const clsa_fm *fm)
{
    return 30000 / (2 * (fm->b * fm->w / 32) + 2);
}

/* Backward search of the whole batch: dlo (idx_t per pattern) and dcnt
 * (ulong per pattern) are allocated here and filled on the device. */
static clsa_status search(clsa_fm *fm, const uint8_t *patterns, const uint64_t *offsets,
                          size_t np, cl_mem *dlo, cl_mem *dcnt)
{
    clsa_context *ctx = fm->ctx;
    size_t iw = fm->index64 ? 8 : 4;
    uint64_t base = offsets[0], bytes = offsets[np] - base, longest = 0;
    cl_mem dpat = NULL, doff = NULL, dhi = NULL;
    uint64_t *rel = malloc((np + 1) * 8);
    clsa_status st = CLSA_OK;
    if (!rel) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "FM-index: out of host memory");
    for (size_t p = 0; p <= np; p++) rel[p] = offsets[p] - base;
    for (size_t p = 0; p < np; p++)
        if (rel[p + 1] - rel[p] > longest) longest = rel[p + 1] - rel[p];
    CLSA_TRY(clsa__alloc(ctx, (size_t)bytes, &dpat));
    CLSA_TRY(clsa__alloc(ctx, (np + 1) * 8, &doff));
    CLSA_TRY(clsa__alloc(ctx, np * iw, dlo));
    CLSA_TRY(clsa__alloc(ctx, np * iw, &dhi));
    CLSA_TRY(clsa__alloc(ctx, np * 8, dcnt));
    CLSA_TRY(clsa__write(ctx, dpat, 0, patterns ? patterns + base : NULL, (size_t)bytes));
    CLSA_TRY(clsa__write(ctx, doff, 0, rel, (np + 1) * 8));
    uint64_t skip = 0;
    do {
        CLSA_TRY(
            fm_run(fm, "fm_count", np,
                   CLSA_KARGS(CLSA_KARG(fm->rec), CLSA_KU32(fm->rw), CLSA_KARG(fm->C),
                              CLSA_KARG(fm->dmap), CLSA_KU32(fm->sigma),
                              CLSA_KIDX(fm->index64, fm->n), CLSA_KIDX(fm->index64, fm->primary),
                              CLSA_KARG(dpat), CLSA_KARG(doff), CLSA_KU64(np), CLSA_KU64(skip),
                              CLSA_KU64(search_budget(fm)), CLSA_KARG(*dlo), CLSA_KARG(dhi),
                              CLSA_KARG(*dcnt), CLSA_KLOCAL(256), CLSA_KLOCAL(257 * iw))));
        skip += search_budget(fm);
    } while (skip < longest);
done:
    clsa__free(ctx, &dpat);
    clsa__free(ctx, &doff);
    clsa__free(ctx, &dhi);
    free(rel);
    return st;
}

static clsa_status query_begin(clsa_fm *fm)
{
    if (!fm) return CLSA_ERR_INVALID_ARG;
    clsa__lock(fm->ctx);
    fm->ctx->message[0] = 0;
    fm->ctx->stats.last_backend = CLSA_BACKEND_DEVICE;
    return CLSA_OK;
}

clsa_status clsa__fm_count(clsa_fm *fm, const uint8_t *patterns, const uint64_t *offsets,
                           size_t npatterns, uint64_t *counts)
{
    clsa_status st = query_begin(fm);
    if (st) return st;
    clsa_context *ctx = fm->ctx;
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    cl_mem dlo = NULL, dcnt = NULL;
    CLSA_TRY(check_patterns(fm, patterns, offsets, npatterns));
    if (npatterns && !counts) {
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "FM-index: counts is NULL");
        goto done;
    }
    if (npatterns == 0) goto done;
    CLSA_TRY(search(fm, patterns, offsets, npatterns, &dlo, &dcnt));
    CLSA_TRY(clsa__read(ctx, dcnt, 0, counts, npatterns * 8));
done:
    clsa__free(ctx, &dlo);
    clsa__free(ctx, &dcnt);
    clsa__set_phase(ctx, phase);
    clsa__unlock(ctx);
    return st;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static clsa_status locate_rows(clsa_fm *fm, cl_mem dlo, const uint64_t *starts, size_t np,
                               int64_t *pos)
{
    clsa_context *ctx = fm->ctx;
    size_t iw = fm->index64 ? 8 : 4;
    uint64_t total = starts[np];
    cl_mem dstarts = NULL, dout = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (np + 1) * 8, &dstarts));
    CLSA_TRY(clsa__alloc(ctx, (size_t)total * 8, &dout));
    CLSA_TRY(clsa__write(ctx, dstarts, 0, starts, (np + 1) * 8));
    CLSA_TRY(fm_run(fm, "fm_locate", (size_t)total,
                    CLSA_KARGS(CLSA_KARG(fm->rec), CLSA_KU32(fm->rw), CLSA_KARG(fm->C),
                               CLSA_KU32(fm->sigma), CLSA_KIDX(fm->index64, fm->n),
                               CLSA_KIDX(fm->index64, fm->primary),
                               CLSA_KIDX(fm->index64, fm->rate), CLSA_KARG(fm->marks),
                               CLSA_KARG(fm->mrank), CLSA_KARG(fm->samples), CLSA_KARG(dlo),
                               CLSA_KARG(dstarts), CLSA_KU64(np), CLSA_KU64(total), CLSA_KARG(dout),
                               CLSA_KLOCAL(256), CLSA_KLOCAL(257 * iw), CLSA_KARG(fm->dmap))));
    CLSA_TRY(clsa__read(ctx, dout, 0, pos, (size_t)total * 8));
    for (uint64_t k = 0; k < total; k++)
        if ((uint64_t)pos[k] > (uint64_t)fm->n) {
            st = clsa__fail(ctx, CLSA_ERR_FORMAT,
                            "FM-index is inconsistent: an LF walk did not reach a sample "
                            "(corrupt index data)");
            goto done;
        }
    for (size_t p = 0; p < np; p++)
        qsort(pos + starts[p], (size_t)(starts[p + 1] - starts[p]), 8, cmp_i64);
done:
    clsa__free(ctx, &dstarts);
    clsa__free(ctx, &dout);
    return st;
}

clsa_status clsa__fm_locate(clsa_fm *fm, const uint8_t *patterns, const uint64_t *offsets,
                            size_t npatterns, uint64_t max_total, uint64_t *starts,
                            int64_t **positions)
{
    clsa_status st = query_begin(fm);
    if (st) return st;
    clsa_context *ctx = fm->ctx;
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    cl_mem dlo = NULL, dcnt = NULL;
    uint64_t *cnt = NULL;
    int64_t *pos = NULL;
    if (positions) *positions = NULL;
    if (!starts || !positions) {
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "FM-index: starts or positions is NULL");
        goto done;
    }
    starts[0] = 0;
    CLSA_TRY(check_patterns(fm, patterns, offsets, npatterns));
    if (npatterns == 0) goto done;
    cnt = malloc(npatterns * 8);
    if (!cnt) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "FM-index: out of host memory");
        goto done;
    }
    CLSA_TRY(search(fm, patterns, offsets, npatterns, &dlo, &dcnt));
    CLSA_TRY(clsa__read(ctx, dcnt, 0, cnt, npatterns * 8));
    for (size_t p = 0; p < npatterns; p++) starts[p + 1] = starts[p] + cnt[p];
    uint64_t total = starts[npatterns];
    if (max_total && total > max_total) {
        st = clsa__fail(ctx, CLSA_ERR_TOO_LARGE,
                        "FM-index: the patterns have %llu occurrences, more than the limit %llu",
                        (unsigned long long)total, (unsigned long long)max_total);
        goto done;
    }
    if (total == 0) goto done;
    pos = malloc((size_t)total * 8);
    if (!pos) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY,
                        "FM-index: out of host memory for %llu positions",
                        (unsigned long long)total);
        goto done;
    }
    CLSA_TRY(locate_rows(fm, dlo, starts, npatterns, pos));
    *positions = pos;
    pos = NULL;
done:
    clsa__free(ctx, &dlo);
    clsa__free(ctx, &dcnt);
    free(cnt);
    free(pos);
    clsa__set_phase(ctx, phase);
    clsa__unlock(ctx);
    return st;
}
