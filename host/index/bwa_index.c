/* clsa_bwa_index: bwa 0.7.17's index files (include/clsa_bwa.h).
 *
 * bwa indexes the text T = forward bases + their reverse complement (codes
 * 0..3), n = 2l symbols, as T + $ with $ below every base: its BWT without
 * the $ and the primary row are exactly clsa_bwt's (divbwt's convention),
 * and .sa holds the suffix array of T + $ at the rows 32 k, k >= 1, that
 * is sa[32 k - 1] of T's own suffix array.
 * .bwt: primary, the cumulative counts L2[1..4] (8 bytes each), then per
 * block of 128 BWT symbols the counts of each code before the block (4 x 8
 * bytes) and the block's symbols, 16 a 32-bit word, the first in the top
 * bits; the counts of the whole BWT last.
 * .sa: primary, L2[1..4], the interval 32, n, then the n / 32 samples. */
#include "bwa_ref.h"
#include "dc_bwt.h"
#include "bwt.h"
#include "index_run.h"
#include "launch.h"
#include "sa/sa.h"
#include "sa/dispatch.h"
#include "buffer.h"
#include "status.h"
#include "text_pack.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SA_RATE 32
#define OCC_BLOCK 128
#define NFILES 5

static const char *const file_ext[NFILES] = {".pac", ".ann", ".amb", ".bwt", ".sa"};

/* What the files need besides the reference: the BWT replaces the codes. */
typedef struct bwa_index {
    bwa_ref ref;
    int64_t n, primary, nsamples;
    uint64_t l2[5];
    int64_t *samples;
} bwa_index;

/* ---- reading ------------------------------------------------------------------ */

/* The FASTA through read; on failure why gets the message. */
static clsa_status read_ref(clsa_context *ctx, clsa_bwa_read_fn read, void *user,
                            const char *name, bwa_ref *r, char *why, size_t cap)
{
    enum { PIECE = 1 << 20 };
    uint8_t *buf = malloc(PIECE);
    snprintf(why, cap, "bwa index: out of host memory");
    if (!buf) return CLSA_ERR_HOST_MEMORY;
    int rc = BWA_REF_OK;
    long long got = 0;
    clsa_status st = clsa__progress(ctx, "read fasta", 0.0);
    /* the total is unknown: the phase is shown, and a cancel heard */
    for (int64_t k = 1; !st && rc == BWA_REF_OK && (got = read(user, buf, PIECE)) > 0; k++) {
        rc = bwa_ref_feed(r, buf, (size_t)got);
        if (k % 16 == 0) st = clsa__progress(ctx, "read fasta", 0.0);
    }
    free(buf);
    if (st) return snprintf(why, cap, "%s", clsa__last_error(ctx)), st;
    if (rc == BWA_REF_OK && got < 0) return snprintf(why, cap, "%s: read error", name), CLSA_ERR_IO;
    if (rc == BWA_REF_OK) rc = bwa_ref_finish(r);
    if (rc == BWA_REF_NOMEM) return CLSA_ERR_HOST_MEMORY;
    if (rc == BWA_REF_MALFORMED) {
        snprintf(why, cap, "%s:%lld: %s", name, (long long)r->line, r->why);
        return CLSA_ERR_FORMAT;
    }
    return CLSA_OK;
}

static unsigned threads(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > 16 ? 16 : (unsigned)cores;
}

typedef struct complete_part {
    bwa_ref *r;
    int64_t lo, hi;
    uint64_t f[4];
} complete_part;

static void *complete_run(void *arg)
{
    complete_part *p = arg;
    bwa_ref_complete(p->r, p->lo, p->hi, p->f);
    return NULL;
}

/* The reverse complement, .pac and L2 (cumulative counts of the codes of
 * forward + reverse complement), by up to 16 threads. */
static void complete_text(bwa_ref *r, uint64_t l2[5])
{
    complete_part part[16];
    unsigned t = threads(), k = 0;
    int64_t per = ((r->l + t - 1) / t + 3) / 4 * 4;
    for (int64_t lo = 0; lo < r->l; lo += per, k++)
        part[k] = (complete_part){r, lo, r->l - lo < per ? r->l : lo + per, {0}};
    clsa__run_team(complete_run, part, sizeof *part, k);
    uint64_t f[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < k; i++)
        for (int c = 0; c < 4; c++) f[c] += part[i].f[c];
    l2[0] = 0;
    for (int c = 0; c < 4; c++) l2[c + 1] = l2[c] + f[c] + f[3 - c];
}

/* ---- suffix array, BWT, samples ------------------------------------------------- */

static clsa_status samples_kernel(clsa_context *ctx, cl_mem sa, int idx64, int64_t ns, cl_mem out)
{
    return CLSA_RUN(ctx, "bwa", idx64, NULL, "bwa_sa_samples", (size_t)ns, 0, CLSA_KARG(sa),
                    CLSA_KU64((cl_ulong)ns), CLSA_KU64(SA_RATE), CLSA_KARG(out));
}

/* From the device suffix array: the BWT into the text's host array, the
 * samples into x->samples. */
static clsa_status bwt_and_samples(clsa_context *ctx, bwa_index *x, int idx64, cl_mem dtext,
                                   cl_mem dsa)
{
    size_t n = (size_t)x->n, ns = (size_t)x->nsamples;
    cl_mem dbwt = NULL, dsamp = NULL;
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, n, &dbwt));
    CLSA_TRY(clsa__bwt_device(ctx, dtext, dsa, x->n, idx64, dbwt, &x->primary));
    if (ns) CLSA_TRY(clsa__alloc(ctx, ns * 8, &dsamp));
    if (ns) CLSA_TRY(samples_kernel(ctx, dsa, idx64, x->nsamples, dsamp));
    CLSA_TRY(clsa__read(ctx, dbwt, 0, x->ref.codes, n));
    if (ns) CLSA_TRY(clsa__read(ctx, dsamp, 0, x->samples, ns * 8));
done:
    clsa__set_phase(ctx, phase);
    clsa__free(ctx, &dbwt);
    clsa__free(ctx, &dsamp);
    return st;
}

/* The in-memory device route: text up, the suffix array built there. */
static clsa_status on_device(clsa_context *ctx, bwa_index *x, int idx64)
{
    size_t n = (size_t)x->n;
    cl_mem dtext = NULL, dsa = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, n, &dtext));
    CLSA_TRY(clsa__write_text(ctx, dtext, x->ref.codes, n));
    CLSA_TRY(clsa__alloc(ctx, n * (idx64 ? 8 : 4), &dsa));
    clsa__progress_slice(ctx, 0.1, 0.8);
    st = clsa__sa_device(ctx, dtext, dsa, x->n, idx64);
    clsa__progress_slice(ctx, 0.0, 1.0);
    CLSA_TRY(st);
    CLSA_TRY(clsa__progress(ctx, "bwt", 0.8));
    st = bwt_and_samples(ctx, x, idx64, dtext, dsa);
done:
    clsa__free(ctx, &dtext);
    clsa__free(ctx, &dsa);
    return st;
}

static int64_t sa_at(const void *sa, int idx64, int64_t i)
{
    return idx64 ? ((const int64_t *)sa)[i] : ((const int32_t *)sa)[i];
}

/* The BWT (divbwt's convention) and the samples from a host suffix array. */
static void from_host_sa(bwa_index *x, const void *sa, int idx64, uint8_t *bwt)
{
    const uint8_t *t = x->ref.codes;
    int64_t n = x->n, k = 1;
    bwt[0] = t[n - 1];
    for (int64_t i = 0; i < n; i++) {
        int64_t s = sa_at(sa, idx64, i);
        if (s == 0) x->primary = i + 1;
        else if (k < n) bwt[k++] = t[s - 1];
    }
    for (int64_t j = 0; j < x->nsamples; j++) x->samples[j] = sa_at(sa, idx64, SA_RATE * (j + 1) - 1);
}

/* The host or out-of-core route: the whole suffix array in host memory. */
static clsa_status on_host(clsa_context *ctx, bwa_index *x, int idx64)
{
    size_t n = (size_t)x->n;
    void *sa = malloc(n * (idx64 ? 8 : 4));
    uint8_t *bwt = malloc(n);
    clsa_status st = CLSA_OK;
    if (!sa || !bwt) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "bwa index: out of host memory for the suffix array");
        goto done;
    }
    clsa__progress_slice(ctx, 0.1, 0.8);
    st = clsa__sa_pick_run(ctx, x->ref.codes, 1, sa, x->n, idx64);
    clsa__progress_slice(ctx, 0.0, 1.0);
    CLSA_TRY(st);
    CLSA_TRY(clsa__progress(ctx, "bwt", 0.8));
    from_host_sa(x, sa, idx64, bwt);
    free(x->ref.codes);
    x->ref.codes = bwt;
    bwt = NULL;
done:
    free(sa);
    free(bwt);
    return st;
}

/* Past the device's memory: the BWT and samples by buckets over a
 * difference-cover sample (host/index/dc_bwt.c), no suffix array in host
 * memory; *declined where the route cannot take the text. */
static clsa_status on_dc(clsa_context *ctx, bwa_index *x, int *declined)
{
    cl_mem rows = NULL;
    clsa__dc_samples smp = {SA_RATE, &rows, 1};
    uint8_t *bwt = malloc((size_t)x->n);
    clsa_status st = CLSA_OK;
    if (!bwt) CLSA_TRY(clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "bwa index: out of host memory"));
    clsa__progress_slice(ctx, 0.1, 0.8);
    st = clsa__dc_bwt(ctx, x->ref.codes, x->n, &(clsa__dc_out){bwt, NULL}, &x->primary, &smp,
                      declined);
    clsa__progress_slice(ctx, 0.0, 1.0);
    if (st || *declined) goto done;
    if (x->nsamples) CLSA_TRY(clsa__read(ctx, rows, 0, x->samples, (size_t)x->nsamples * 8));
    free(x->ref.codes);
    x->ref.codes = bwt;
    bwt = NULL;
done:
    clsa__free(ctx, &rows);
    free(bwt);
    return st;
}

static clsa_status build(clsa_context *ctx, bwa_index *x, int route)
{
    int idx64 = x->n >= INT32_MAX, declined = 1;
    x->samples = malloc((size_t)(x->nsamples ? x->nsamples : 1) * 8);
    if (!x->samples) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "bwa index: out of host memory");
    if (ctx && route != CLSA_ROUTE_HOST && x->n > 0 &&
        clsa__dc_bwt_wanted(ctx, route == CLSA_ROUTE_DEVICE_OOC)) {
        clsa_status st = on_dc(ctx, x, &declined);
        if (st || !declined) return st;
    }
    if (ctx && route == CLSA_ROUTE_DEVICE) {
        clsa_status st = on_device(ctx, x, idx64);
        if (st != CLSA_ERR_DEVICE_MEMORY) return st;
        ctx->message[0] = 0; /* the whole SA did not fit after all: out of core */
    }
    return on_host(ctx, x, idx64);
}

/* ---- the files ------------------------------------------------------------------ */

static int put_u64s(FILE *f, const uint64_t *v, size_t k)
{
    return fwrite(v, 8, k, f) == k ? 0 : -1; /* little-endian hosts, as bwa */
}

static int put_header(FILE *f, const bwa_index *x)
{
    uint64_t p = (uint64_t)x->primary;
    return put_u64s(f, &p, 1) || put_u64s(f, x->l2 + 1, 4) ? -1 : 0;
}

/* One block of up to 128 symbols: its counts before, then its words. */
static size_t pack_block(const uint8_t *s, int64_t m, uint64_t c[4], uint32_t *out)
{
    memcpy(out, c, 32);
    uint64_t c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
    size_t w = 8;
    for (int64_t q = 0; q < m; q += 16) {
        int64_t e = m - q < 16 ? m - q : 16;
        uint32_t v = 0;
        for (int64_t j = 0; j < e; j++) {
            uint8_t x = s[q + j];
            v = v << 2 | x;
            c0 += x == 0, c1 += x == 1, c2 += x == 2, c3 += x == 3;
        }
        out[w++] = v << (2 * (16 - e)); /* a partial word keeps its symbols on top */
    }
    c[0] = c0, c[1] = c1, c[2] = c2, c[3] = c3;
    return w;
}

/* A stretch of whole blocks of one chunk, packed by one thread: first its
 * counts alone (count_only), then, given the counts before it, its words. */
typedef struct pack_part {
    const uint8_t *s;
    int64_t m;
    uint64_t c[4];
    uint32_t *out;
    int count_only;
} pack_part;

static void *pack_run(void *arg)
{
    pack_part *p = arg;
    if (p->count_only) {
        uint64_t c[4] = {0, 0, 0, 0};
        for (int64_t i = 0; i < p->m; i++) c[p->s[i]]++;
        memcpy(p->c, c, sizeof c);
        return NULL;
    }
    size_t w = 0;
    for (int64_t i = 0; i < p->m; i += OCC_BLOCK)
        w += pack_block(p->s + i, p->m - i < OCC_BLOCK ? p->m - i : OCC_BLOCK, p->c, p->out + w);
    return NULL;
}

/* Symbols [0, m) of s into buf (16 words a block of 128, fewer for a last
 * partial block), c the counts before and after; t threads.  Words. */
static size_t pack_chunk(const uint8_t *s, int64_t m, uint64_t c[4], uint32_t *buf, unsigned t)
{
    pack_part part[16];
    int64_t per = ((m + t - 1) / t + OCC_BLOCK - 1) / OCC_BLOCK * OCC_BLOCK;
    unsigned k = 0;
    for (int64_t at = 0; at < m; at += per, k++)
        part[k] = (pack_part){s + at, m - at < per ? m - at : per, {0}, buf + at / OCC_BLOCK * 16, 1};
    clsa__run_team(pack_run, part, sizeof *part, k);
    for (unsigned i = 0; i < k; i++) {
        uint64_t own[4];
        memcpy(own, part[i].c, sizeof own);
        memcpy(part[i].c, c, sizeof own);
        for (int q = 0; q < 4; q++) c[q] += own[q];
        part[i].count_only = 0;
    }
    clsa__run_team(pack_run, part, sizeof *part, k);
    int64_t last = m % OCC_BLOCK;
    return (size_t)(m / OCC_BLOCK) * 16 + (last ? 8 + (size_t)(last + 15) / 16 : 0);
}

static int write_bwt(FILE *f, const bwa_index *x)
{
    enum { CHUNK = 1 << 24 };
    unsigned t = threads();
    uint32_t *buf = malloc(CHUNK / OCC_BLOCK * 16 * 4);
    uint64_t c[4] = {0, 0, 0, 0};
    int bad = !buf || put_header(f, x);
    for (int64_t at = 0; !bad && at < x->n; at += CHUNK) {
        int64_t m = x->n - at < CHUNK ? x->n - at : CHUNK;
        size_t w = pack_chunk(x->ref.codes + at, m, c, buf, t);
        bad = fwrite(buf, 4, w, f) != w;
    }
    bad = bad || put_u64s(f, c, 4);
    free(buf);
    return bad ? -1 : 0;
}

static int write_sa(FILE *f, const bwa_index *x)
{
    uint64_t v[2] = {SA_RATE, (uint64_t)x->n};
    if (put_header(f, x) || put_u64s(f, v, 2)) return -1;
    return put_u64s(f, (const uint64_t *)x->samples, (size_t)x->nsamples);
}

static int write_one(int i, FILE *f, const bwa_index *x)
{
    switch (i) {
    case 0: return bwa_ref_write_pac(&x->ref, f);
    case 1: return bwa_ref_write_ann(&x->ref, f);
    case 2: return bwa_ref_write_amb(&x->ref, f);
    case 3: return write_bwt(f, x);
    default: return write_sa(f, x);
    }
}

typedef struct out_set {
    char *path[NFILES], *tmp[NFILES];
} out_set;

static void outs_free(out_set *o, int unlink_tmp)
{
    for (int i = 0; i < NFILES; i++) {
        if (unlink_tmp && o->tmp[i]) unlink(o->tmp[i]);
        free(o->path[i]);
        free(o->tmp[i]);
    }
}

/* Writes file i to a new temporary beside its path. */
static clsa_status write_tmp(clsa_context *ctx, out_set *o, int i, const char *prefix,
                             const bwa_index *x)
{
    size_t len = strlen(prefix) + 24;
    if (!(o->path[i] = malloc(len)) || !(o->tmp[i] = malloc(len)))
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "bwa index: out of host memory");
    snprintf(o->path[i], len, "%s%s", prefix, file_ext[i]);
    snprintf(o->tmp[i], len, "%s.tmp.XXXXXX", o->path[i]);
    int fd = mkstemp(o->tmp[i]);
    if (fd < 0) {
        free(o->tmp[i]), o->tmp[i] = NULL;
        return clsa__fail(ctx, CLSA_ERR_IO, "cannot create a file beside '%s': %s", o->path[i], strerror(errno));
    }
    FILE *f = fdopen(fd, "wb");
    int bad = !f || write_one(i, f, x) || fflush(f) || (fsync(fileno(f)) && errno != EINVAL);
    int saved = errno;
    if (f ? fclose(f) != 0 : close(fd) != 0) bad = 1;
    mode_t mask = umask(0);
    umask(mask);
    chmod(o->tmp[i], 0666 & ~mask); /* mkstemp makes 0600 */
    return bad ? clsa__fail(ctx, CLSA_ERR_IO, "cannot write '%s': %s", o->path[i], strerror(saved ? saved : EIO))
               : CLSA_OK;
}

/* All five complete first, then renamed; on any failure none is renamed. */
static clsa_status write_files(clsa_context *ctx, const char *prefix, const bwa_index *x)
{
    out_set o;
    memset(&o, 0, sizeof o);
    clsa_status st = CLSA_OK;
    for (int i = 0; i < NFILES && !st; i++) {
        st = write_tmp(ctx, &o, i, prefix, x);
        if (!st) st = clsa__progress(ctx, "write", 0.9 + 0.02 * i);
    }
    for (int i = 0; i < NFILES && !st; i++) {
        if (rename(o.tmp[i], o.path[i]) != 0)
            st = clsa__fail(ctx, CLSA_ERR_IO, "cannot write '%s': %s", o.path[i], strerror(errno));
        else free(o.tmp[i]), o.tmp[i] = NULL;
    }
    outs_free(&o, 1);
    return st;
}

/* ---- the call -------------------------------------------------------------------- */

/* The route the suffix array will take: its plan, which takes the lock
 * itself, asked with the lock let go for that moment. */
static int sa_route_of(clsa_context *ctx, int64_t n, clsa_status *st)
{
    clsa_sa_plan_info plan = {0};
    *st = CLSA_OK;
    if (!ctx) return CLSA_ROUTE_HOST;
    clsa__unlock(ctx);
    clsa_status ps = clsa__sa_plan(ctx, n, 1, n >= INT32_MAX, &plan);
    clsa__lock(ctx);
    if (ps && ps != CLSA_ERR_DEVICE_MEMORY && ps != CLSA_ERR_HOST_MEMORY) *st = ps;
    else ctx->message[0] = 0;
    return plan.route;
}

struct clsa_bwa_ref {
    bwa_index x;
    int used; /* its codes became the BWT */
};

/* Everything after the reading, ctx locked. */
static clsa_status index_locked(clsa_context *ctx, const char *prefix, bwa_index *x)
{
    clsa_status st;
    x->n = 2 * x->ref.l;
    x->nsamples = x->n / SA_RATE;
    complete_text(&x->ref, x->l2);
    int route = sa_route_of(ctx, x->n, &st);
    if (!st) st = clsa__progress(ctx, "suffix array", 0.1);
    if (!st) st = build(ctx, x, route);
    if (!st) st = clsa__progress(ctx, "write", 0.9);
    return st ? st : write_files(ctx, prefix, x);
}

clsa_status clsa_bwa_ref_read(clsa_bwa_read_fn read, void *user, const char *name,
                              clsa_bwa_ref **out, char *err, size_t cap)
{
    char why[300] = "";
    clsa_status st = CLSA_ERR_INVALID_ARG;
    if (out) *out = NULL;
    clsa_bwa_ref *r = read && out ? calloc(1, sizeof *r) : NULL;
    if (!read || !out) snprintf(why, sizeof why, "bwa index: %s is NULL", !read ? "read" : "out");
    else if (!r) st = CLSA_ERR_HOST_MEMORY, snprintf(why, sizeof why, "bwa index: out of host memory");
    if (r) bwa_ref_init(&r->x.ref);
    if (r) st = read_ref(NULL, read, user, name ? name : "<input>", &r->x.ref, why, sizeof why);
    if (st) clsa_bwa_ref_free(r);
    else *out = r;
    if (st && err && cap) snprintf(err, cap, "%s", why);
    return st;
}

void clsa_bwa_ref_free(clsa_bwa_ref *ref)
{
    if (!ref) return;
    bwa_ref_free(&ref->x.ref);
    free(ref->x.samples);
    free(ref);
}

clsa_status clsa_bwa_ref_index(clsa_context *ctx, clsa_bwa_ref *ref, const char *prefix)
{
    if (!ref || !prefix || !prefix[0] || ref->used)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "bwa index: %s",
                          !ref ? "ref is NULL" : ref->used ? "the reference was indexed already"
                                                           : "prefix is NULL or empty");
    ref->used = 1;
    clsa__call_begin(ctx);
    return clsa__call_end(ctx, index_locked(ctx, prefix, &ref->x));
}

clsa_status clsa_bwa_index(clsa_context *ctx, clsa_bwa_read_fn read, void *user, const char *name,
                           const char *prefix)
{
    if (!read || !prefix || !prefix[0])
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "bwa index: %s is NULL or empty",
                          !read ? "read" : "prefix");
    clsa_bwa_ref *r = calloc(1, sizeof *r);
    if (!r) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "bwa index: out of host memory");
    bwa_ref_init(&r->x.ref);
    char why[300];
    clsa__call_begin(ctx);
    clsa_status st = read_ref(ctx, read, user, name ? name : "<input>", &r->x.ref, why, sizeof why);
    if (st && st != CLSA_ERR_CANCELLED) st = clsa__fail(ctx, st, "%s", why);
    r->used = 1;
    if (!st) st = index_locked(ctx, prefix, &r->x);
    clsa_bwa_ref_free(r);
    return clsa__call_end(ctx, st);
}
