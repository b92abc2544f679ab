/* FM-index file format (version 1), all integers little-endian:
 *
 *   0     magic "CLSAFMIX" (a set index, clsa_fm_set_save: "CLSAFMST")
 *   8     u32 format version (1)
 *   12    u32 header size (2112)
 *   16    u64 n (text length)
 *   24    u64 SA sampling rate (1 <= rate <= min(n + 1, 512))
 *   32    u64 primary (row of $, divbwt convention)
 *   40    u64 number of samples
 *   48    u64 number of 32-bit mark words (ceil((n + 1) / 32))
 *   56    u64 bytes of the extra section (0; a set index: its string table)
 *   64    u64 hist[256] (occurrences of each byte in the text)
 *   2112  BWT, n bytes (libdivsufsort divbwt convention), zero-padded to 4
 *         mark words (u32 each), bit r%32 of word r/32 = row r is sampled
 *         samples (u64 each, text positions of the sampled rows in row order)
 *         extra section (a set index: host/index/fm_set.c)
 *   end-8 u64 FNV-1a 64 of every byte before it
 *
 * The checkpoints are not stored: they are rebuilt on the device at load
 * time, which keeps files small (about n + n/4 bytes at the default rate).
 * Every size is checked against the file size before anything is allocated,
 * and the content against the checksum and the histogram before any device
 * work, so a damaged file gives CLSA_ERR_FORMAT and never a huge allocation.
 * The set index is this file with another magic and the extra section, so
 * both kinds go through the same writer, checks and rebuild. */
#ifdef __linux__
#define _GNU_SOURCE /* sync_file_range */
#endif
#include "fm_index.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "status.h"
#include "safe_out.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FM_MAGIC "CLSAFMIX"
#define FM_SET_MAGIC "CLSAFMST"
#define FM_VERSION 1u
#define FM_HEADER 2112u
#define FM_MAX_N ((uint64_t)1 << 40)

typedef struct fm_header {
    uint64_t n, rate, primary, nsamples, nmarks, extra;
    uint64_t hist[256];
} fm_header;

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
#define FNV_INIT 0xcbf29ce484222325ull

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static uint64_t pad4(uint64_t x) { return (x + 3) & ~(uint64_t)3; }

static uint64_t file_size_of(const fm_header *h)
{
    return FM_HEADER + pad4(h->n) + h->nmarks * 4 + h->nsamples * 8 + h->extra + 8;
}

/* ---- writing ---------------------------------------------------------------------- */

typedef struct out_file {
    FILE *f;
    uint64_t h;
    int bad;
} out_file;

static void out_put(out_file *o, const void *p, size_t n)
{
    if (o->bad || n == 0) return;
    o->h = fnv(o->h, p, n);
    if (fwrite(p, 1, n, o->f) != n) o->bad = 1;
}

/* The payload's pieces, written by a thread of their own while the
 * caller's thread sums them: FNV-1a takes a byte at a time, about as long
 * as the disk takes for the bytes (8.8 GB at 6.4 Gbp). */
typedef struct out_piece {
    const void *p;
    size_t n;
} out_piece;

typedef struct out_writer {
    FILE *f;
    const out_piece *pc;
    size_t k;
    int bad;
} out_writer;

#define OUT_STEP ((size_t)256 << 20)

/* Asks the kernel to start writing [off, off + len) to the disk now, so
 * that the final fsync waits for the tail only (Linux; elsewhere nothing). */
static void out_flush_early(FILE *f, uint64_t off, size_t len)
{
#ifdef __linux__
    if (fflush(f) == 0)
        sync_file_range(fileno(f), (off64_t)off, (off64_t)len, SYNC_FILE_RANGE_WRITE);
#else
    (void)f, (void)off, (void)len;
#endif
}

static void *write_pieces(void *arg)
{
    out_writer *w = arg;
    uint64_t off = 0;
    for (size_t i = 0; i < w->k && !w->bad; i++)
        for (size_t at = 0; at < w->pc[i].n && !w->bad; at += OUT_STEP) {
            size_t len = w->pc[i].n - at < OUT_STEP ? w->pc[i].n - at : OUT_STEP;
            if (fwrite((const uint8_t *)w->pc[i].p + at, 1, len, w->f) != len) w->bad = 1;
            else out_flush_early(w->f, off, len);
            off += len;
        }
    return NULL;
}

static void out_pieces(out_file *o, const out_piece *pc, size_t k)
{
    out_writer w = {o->f, pc, k, o->bad};
    pthread_t tid;
    int started = !w.bad && !pthread_create(&tid, NULL, write_pieces, &w);
    for (size_t i = 0; i < k; i++) o->h = fnv(o->h, pc[i].p, pc[i].n);
    if (started) pthread_join(tid, NULL);
    else if (!w.bad) write_pieces(&w);
    o->bad |= w.bad;
}

static void encode_header(uint8_t *b, const char *magic, const fm_header *h)
{
    memset(b, 0, FM_HEADER);
    memcpy(b, magic, 8);
    put_u32(b + 8, FM_VERSION);
    put_u32(b + 12, FM_HEADER);
    clsa__put_u64le(b + 16, h->n);
    clsa__put_u64le(b + 24, h->rate);
    clsa__put_u64le(b + 32, h->primary);
    clsa__put_u64le(b + 40, h->nsamples);
    clsa__put_u64le(b + 48, h->nmarks);
    clsa__put_u64le(b + 56, h->extra);
    for (int c = 0; c < 256; c++) clsa__put_u64le(b + 64 + 8 * c, h->hist[c]);
}

/* Host copies of the payload: bwt (n bytes), marks, samples as u64 LE. */
static clsa_status fetch_payload(clsa_fm *fm, uint8_t *bwt, uint8_t *marks, uint8_t *samples)
{
    clsa_context *ctx = fm->ctx;
    cl_mem dbwt = NULL;
    clsa_status st = CLSA_OK;
    size_t iw = fm->index64 ? 8 : 4;
    CLSA_TRY(clsa__alloc(ctx, (size_t)fm->n, &dbwt));
    CLSA_TRY(clsa__fm_unpack(fm, dbwt));
    CLSA_TRY(clsa__read(ctx, dbwt, 0, bwt, (size_t)fm->n));
    CLSA_TRY(clsa__read(ctx, fm->marks, 0, marks, (size_t)fm->nmarks * 4));
    CLSA_TRY(clsa__read(ctx, fm->samples, 0, samples, (size_t)fm->nsamples * iw));
    for (int64_t i = fm->nmarks - 1; i >= 0; i--) {
        uint32_t v;
        memcpy(&v, marks + i * 4, 4);
        put_u32(marks + i * 4, v);
    }
    /* Widen in place from the back: entry i moves from i*iw to i*8. */
    for (int64_t i = fm->nsamples - 1; i >= 0; i--) {
        uint64_t v = 0;
        if (iw == 8) memcpy(&v, samples + i * 8, 8);
        else {
            uint32_t v32;
            memcpy(&v32, samples + i * 4, 4);
            v = v32;
        }
        clsa__put_u64le(samples + i * 8, v);
    }
done:
    clsa__free(ctx, &dbwt);
    return st;
}

static clsa_status write_file(clsa_context *ctx, const char *path, const uint8_t *header,
                              const uint8_t *bwt, uint64_t n, const uint8_t *marks, size_t mbytes,
                              const uint8_t *samples, size_t sbytes, const uint8_t *extra,
                              size_t ebytes)
{
    clsa__sout so;
    char why[256];
    int ost = clsa__sout_open(&so, path, why, sizeof why);
    if (ost)
        return clsa__fail(ctx, ost == CLSA_SOUT_REFUSED ? CLSA_ERR_INVALID_ARG : CLSA_ERR_IO,
                          "cannot write '%s': %s", path, why);
    int fd = dup(so.fd);
    out_file o = {fd >= 0 ? fdopen(fd, "wb") : NULL, FNV_INIT, 0};
    if (!o.f) {
        if (fd >= 0) close(fd);
        o.bad = 1;
    } else {
        static const uint8_t zeros[4] = {0};
        uint8_t sum[8];
        const out_piece pc[] = {{header, FM_HEADER}, {bwt, (size_t)n},
                                {zeros, (size_t)(pad4(n) - n)}, {marks, mbytes},
                                {samples, sbytes}, {extra, ebytes}};
        out_pieces(&o, pc, sizeof pc / sizeof pc[0]);
        clsa__put_u64le(sum, o.h);
        out_put(&o, sum, 8);
        if (fflush(o.f) != 0) o.bad = 1;
        if (fclose(o.f) != 0) o.bad = 1;
    }
    if (o.bad) {
        int saved = errno;
        clsa__sout_abort(&so);
        return clsa__fail(ctx, CLSA_ERR_IO, "cannot write '%s': %s", path,
                          strerror(saved ? saved : EIO));
    }
    if (clsa__sout_commit(&so, why, sizeof why))
        return clsa__fail(ctx, CLSA_ERR_IO, "cannot write '%s': %s", path, why);
    return CLSA_OK;
}

clsa_status clsa__fm_file_save(clsa_fm *fm, const char *path, int set, const uint8_t *extra,
                               size_t extra_bytes)
{
    if (!fm) return CLSA_ERR_INVALID_ARG;
    clsa_context *ctx = fm->ctx;
    clsa__call_begin(ctx);
    clsa_status st = CLSA_OK;
    uint8_t *header = malloc(FM_HEADER), *bwt = malloc(fm->n ? (size_t)fm->n : 1);
    uint8_t *marks = malloc((size_t)fm->nmarks * 4 + 4);
    uint8_t *samples = malloc((size_t)fm->nsamples * 8 + 8);
    if (!path) {
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "FM-index: path is NULL");
        goto done;
    }
    if (!header || !bwt || !marks || !samples) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "FM-index: out of host memory");
        goto done;
    }
    fm_header h = {(uint64_t)fm->n, (uint64_t)fm->rate, (uint64_t)fm->primary,
                   (uint64_t)fm->nsamples, (uint64_t)fm->nmarks, extra_bytes, {0}};
    memcpy(h.hist, fm->hist, sizeof h.hist);
    encode_header(header, set ? FM_SET_MAGIC : FM_MAGIC, &h);
    CLSA_TRY(fetch_payload(fm, bwt, marks, samples));
    CLSA_TRY(write_file(ctx, path, header, bwt, h.n, marks, (size_t)h.nmarks * 4, samples,
                        (size_t)h.nsamples * 8, extra, extra_bytes));
done:
    free(header);
    free(bwt);
    free(marks);
    free(samples);
    clsa__unlock(ctx);
    return st;
}

/* ---- reading ---------------------------------------------------------------------- */

static const char *kind_name(int set) { return set ? "set FM-index" : "FM-index"; }

clsa_status clsa__fm_file_bad(clsa_context *ctx, const char *path, int set, const char *what)
{
    return clsa__fail(ctx, CLSA_ERR_FORMAT, "'%s' is not a valid clsa %s file: %s", path,
                      kind_name(set), what);
}
#define bad(ctx, path, what) clsa__fm_file_bad(ctx, path, set, what)

static clsa_status parse_header(clsa_context *ctx, const char *path, int set, const uint8_t *b,
                                uint64_t size, fm_header *h)
{
    size_t m = size < 8 ? (size_t)size : 8;
    if (m == 8 && memcmp(b, set ? FM_MAGIC : FM_SET_MAGIC, 8) == 0)
        return bad(ctx, path, set ? "it is the FM-index of one text (load it as one)"
                                  : "it is the FM-index of a set of strings (load it as one)");
    if (memcmp(b, set ? FM_SET_MAGIC : FM_MAGIC, m) != 0)
        return bad(ctx, path, "wrong magic (a foreign file)");
    if (size < 12) return bad(ctx, path, "truncated header");
    uint32_t version = get_u32(b + 8);
    if (version != FM_VERSION)
        return clsa__fail(ctx, CLSA_ERR_FORMAT,
                          "'%s': %s format version %u is not supported (this build reads "
                          "version %u)",
                          path, kind_name(set), version, FM_VERSION);
    if (size < FM_HEADER + 8) return bad(ctx, path, "truncated header");
    if (get_u32(b + 12) != FM_HEADER) return bad(ctx, path, "wrong header size");
    h->n = clsa__get_u64le(b + 16);
    h->rate = clsa__get_u64le(b + 24);
    h->primary = clsa__get_u64le(b + 32);
    h->nsamples = clsa__get_u64le(b + 40);
    h->nmarks = clsa__get_u64le(b + 48);
    h->extra = clsa__get_u64le(b + 56);
    uint64_t sum = 0;
    for (int c = 0; c < 256; c++) {
        h->hist[c] = clsa__get_u64le(b + 64 + 8 * c);
        if (h->hist[c] > h->n) return bad(ctx, path, "symbol count larger than the text");
        sum += h->hist[c];
    }
    if (h->n >= FM_MAX_N) return bad(ctx, path, "text length out of range");
    if (sum != h->n) return bad(ctx, path, "symbol counts do not add up to the text length");
    if (h->rate < 1 || h->rate > h->n + 1 || h->rate > CLSA_FM_MAX_SAMPLE_RATE)
        return bad(ctx, path, "sampling rate out of range");
    if (h->n ? (h->primary < 1 || h->primary > h->n) : h->primary != 0)
        return bad(ctx, path, "primary index out of range");
    if (h->nmarks != (h->n + 1 + 31) / 32) return bad(ctx, path, "wrong number of mark words");
    if (h->nsamples > h->n + 1) return bad(ctx, path, "too many samples");
    if (!set && h->extra != 0) return bad(ctx, path, "reserved field is not zero");
    /* each term is below 2^43 here, but the extra size is the file's word */
    if (h->extra > size || file_size_of(h) != size)
        return clsa__fail(ctx, CLSA_ERR_FORMAT,
                          "'%s' is not a valid clsa %s file: it has %llu bytes, its header "
                          "says %llu (truncated or extended)",
                          path, kind_name(set), (unsigned long long)size,
                          (unsigned long long)file_size_of(h));
    return CLSA_OK;
}

/* Reads the whole file (its size already known to match the header) and
 * checks the checksum and the payload against the header. */
static clsa_status read_payload(clsa_context *ctx, const char *path, int set, FILE *f,
                                uint64_t size, const fm_header *h, uint8_t *buf)
{
    if (fseek(f, 0, SEEK_SET) != 0 || fread(buf, 1, (size_t)size, f) != size)
        return clsa__fail(ctx, CLSA_ERR_IO, "cannot read '%s': %s", path,
                          ferror(f) ? strerror(errno) : "file changed while reading");
    if (fnv(FNV_INIT, buf, (size_t)size - 8) != clsa__get_u64le(buf + size - 8))
        return bad(ctx, path, "checksum mismatch (the file is damaged)");
    const uint8_t *bwt = buf + FM_HEADER;
    uint64_t hist[256] = {0};
    for (uint64_t i = 0; i < h->n; i++) hist[bwt[i]]++;
    if (memcmp(hist, h->hist, sizeof hist) != 0)
        return bad(ctx, path, "BWT does not match the symbol counts");
    const uint8_t *marks = bwt + pad4(h->n), *samples = marks + h->nmarks * 4;
    uint32_t rows_in_last = (uint32_t)((h->n + 1) % 32);
    if (rows_in_last && (get_u32(marks + (h->nmarks - 1) * 4) >> rows_in_last) != 0)
        return bad(ctx, path, "marks beyond the last row");
    for (uint64_t i = 0; i < h->nsamples; i++)
        if (clsa__get_u64le(samples + i * 8) > h->n) return bad(ctx, path, "sample out of range");
    return CLSA_OK;
}

/* Device data from the validated buffer. */
static clsa_status rebuild(clsa_context *ctx, const fm_header *h, uint8_t *buf, clsa_fm **out)
{
    clsa_fm *fm = NULL;
    cl_mem dbwt = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__fm_new(ctx, (int64_t)h->n, (int64_t)h->rate, h->hist, &fm));
    uint8_t *bwt = buf + FM_HEADER, *marks = bwt + pad4(h->n), *samples = marks + h->nmarks * 4;
    size_t iw = fm->index64 ? 8 : 4;
    for (uint64_t i = 0; i < h->nmarks; i++) {
        uint32_t v = get_u32(marks + i * 4);
        memcpy(marks + i * 4, &v, 4);
    }
    for (uint64_t i = 0; i < h->nsamples; i++) { /* narrow in place, front to back */
        uint64_t v = clsa__get_u64le(samples + i * 8);
        if (iw == 8) memcpy(samples + i * 8, &v, 8);
        else {
            uint32_t v32 = (uint32_t)v;
            memcpy(samples + i * 4, &v32, 4);
        }
    }
    CLSA_TRY(clsa__alloc(ctx, (size_t)h->n, &dbwt));
    CLSA_TRY(clsa__write(ctx, dbwt, 0, bwt, (size_t)h->n));
    CLSA_TRY(clsa__fm_build_occ(fm, dbwt, (int64_t)h->primary));
    CLSA_TRY(clsa__alloc(ctx, (size_t)h->nmarks * 4, &fm->marks));
    CLSA_TRY(clsa__write(ctx, fm->marks, 0, marks, (size_t)h->nmarks * 4));
    fm->nsamples = (int64_t)h->nsamples;
    CLSA_TRY(clsa__fm_build_mrank(fm));
    CLSA_TRY(clsa__alloc(ctx, (size_t)h->nsamples * iw, &fm->samples));
    CLSA_TRY(clsa__write(ctx, fm->samples, 0, samples, (size_t)h->nsamples * iw));
    CLSA_TRY(clsa__finish(ctx));
done:
    clsa__free(ctx, &dbwt);
    if (st == CLSA_OK) *out = fm;
    else clsa__fm_release(fm);
    return st;
}

static clsa_status load_locked(clsa_context *ctx, const char *path, const clsa__fm_kind *kind,
                               clsa_fm **out)
{
    int set = kind != NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return clsa__fail(ctx, CLSA_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    uint8_t head[FM_HEADER];
    uint8_t *buf = NULL;
    fm_header h;
    clsa_status st = CLSA_OK;
    struct stat s;
    if (fstat(fileno(f), &s) != 0 || !S_ISREG(s.st_mode)) {
        st = clsa__fail(ctx, CLSA_ERR_IO, "'%s' is not a regular file", path);
        goto done;
    }
    uint64_t size = (uint64_t)s.st_size;
    size_t got = fread(head, 1, size < FM_HEADER ? (size_t)size : FM_HEADER, f);
    if (got != (size < FM_HEADER ? size : FM_HEADER)) {
        st = clsa__fail(ctx, CLSA_ERR_IO, "cannot read '%s'", path);
        goto done;
    }
    CLSA_TRY(parse_header(ctx, path, set, head, size, &h));
    buf = malloc((size_t)size);
    if (!buf) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "out of host memory reading '%s'", path);
        goto done;
    }
    CLSA_TRY(read_payload(ctx, path, set, f, size, &h, buf));
    if (kind)
        CLSA_TRY(kind->check(ctx, path, h.n, h.hist, buf + size - 8 - h.extra, h.extra,
                             kind->user));
    CLSA_TRY(rebuild(ctx, &h, buf, out));
done:
    fclose(f);
    free(buf);
    return st;
}

clsa_status clsa__fm_file_load(clsa_context *ctx, const char *path, const clsa__fm_kind *kind,
                               clsa_fm **out)
{
    if (!out) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "FM-index: out is NULL");
    *out = NULL;
    clsa_status st = clsa__need_device(ctx);
    if (st) return st;
    if (!path) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "FM-index: path is NULL");
    clsa__call_begin(ctx);
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    ctx->stats.last_backend = CLSA_BACKEND_DEVICE;
    st = load_locked(ctx, path, kind, out);
    clsa__set_phase(ctx, phase);
    clsa__unlock(ctx);
    return st;
}
