/* FM-index over a set of strings (clsa_fm_set_*): one ordinary FM-index
 * over the strings joined, and the string table to turn text positions
 * into (string, offset).
 *
 * The join puts a separator byte after each string when some byte value
 * occurs in none of them (the smallest such byte): no pattern without that
 * byte can match across a separator, so counts come straight from the
 * device's backward search, and a pattern holding it occurs nowhere and is
 * answered on the host without a search.  Only when the strings use all
 * 256 byte values is there no byte to give up; the strings are then joined
 * as they are and an occurrence is kept only if it ends inside the string
 * it starts in, so counting there means locating.  The FM-index's kernels
 * stay as they are; a saved set is an FM-index file (fm_file.c) with its
 * own magic and the string table in the file's extra section. */
#include "fm_index.h"
#include "fm_calls.h"
#include "sa/gsa.h"
#include "context.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

struct clsa_fm_set {
    clsa_fm *fm;
    clsa_context *ctx;
    int64_t k, total;
    int64_t *starts; /* k + 1: where each string begins in the joined text */
    int sep;         /* the separator byte, or -1: joined without one */
};

/* The smallest byte in none of the strings, or -1. */
static int free_byte(const uint8_t *text, int64_t total)
{
    uint8_t seen[256] = {0};
    for (int64_t i = 0; i < total; i++) seen[text[i]] = 1;
    for (int c = 0; c < 256; c++)
        if (!seen[c]) return c;
    return -1;
}

static clsa_status set_new(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                           int64_t k, int64_t total, clsa_fm_set **out, uint8_t **joined,
                           int64_t *n)
{
    clsa_fm_set *s = calloc(1, sizeof *s);
    int sep = free_byte(text, total);
    *n = total + (sep >= 0 ? k : 0);
    int64_t *starts = malloc(((size_t)k + 1) * sizeof *starts);
    uint8_t *j = malloc(*n ? (size_t)*n : 1);
    if (!s || !starts || !j) {
        free(s);
        free(starts);
        free(j);
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "FM-index of a set: out of host memory "
                                                     "for %lld bytes", (long long)*n);
    }
    int64_t src = 0, dst = 0;
    for (int64_t i = 0; i < k; i++) {
        starts[i] = dst;
        if (lengths[i]) memcpy(j + dst, text + src, (size_t)lengths[i]);
        src += lengths[i];
        dst += lengths[i];
        if (sep >= 0) j[dst++] = (uint8_t)sep;
    }
    starts[k] = dst;
    *s = (clsa_fm_set){NULL, ctx, k, total, starts, sep};
    *out = s;
    *joined = j;
    return CLSA_OK;
}

void clsa__fm_set_free(clsa_fm_set *set)
{
    if (!set) return;
    clsa__fm_free(set->fm);
    free(set->starts);
    free(set);
}

clsa_status clsa__fm_set_create(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                                int64_t k, int64_t sample_rate, clsa_fm_set **out)
{
    if (!out) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "FM-index of a set: out is NULL");
    *out = NULL;
    int64_t n;
    clsa_status st = clsa__gsa_size(ctx, "FM-index of a set", text, lengths, k, out, &n);
    if (st) return st;
    st = clsa__need_device(ctx);
    if (st) return st;
    clsa_fm_set *s;
    uint8_t *joined;
    CLSA_TRY(set_new(ctx, text, lengths, k, n - k, &s, &joined, &n));
    st = clsa__fm_create(ctx, joined, n, sample_rate, &s->fm);
    free(joined);
    if (st) clsa__fm_set_free(s);
    else *out = s;
done:
    return st;
}

clsa_status clsa__fm_set_info(const clsa_fm_set *set, int64_t *k, int64_t *total,
                              int64_t *sample_rate)
{
    if (!set) return CLSA_ERR_INVALID_ARG;
    if (k) *k = set->k;
    if (total) *total = set->total;
    return clsa__fm_info(set->fm, NULL, sample_rate);
}

/* ---- queries ------------------------------------------------------------------------- */

static int holds(const uint8_t *p, uint64_t len, int c)
{
    return c >= 0 && len > 0 && memchr(p, c, (size_t)len) != NULL;
}

static clsa_status check_batch(clsa_fm_set *set, const uint8_t *patterns,
                               const uint64_t *offsets, size_t np)
{
    if (!set) return CLSA_ERR_INVALID_ARG;
    clsa_context *ctx = set->ctx;
    if (np == 0) return CLSA_OK;
    if (!offsets) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "FM-index of a set: offsets is NULL");
    for (size_t p = 0; p < np; p++)
        if (offsets[p + 1] < offsets[p])
            return clsa__fail(ctx, CLSA_ERR_INVALID_ARG,
                              "FM-index of a set: offsets decrease at pattern %zu", p);
    if (offsets[np] > offsets[0] && !patterns)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "FM-index of a set: patterns is NULL");
    return CLSA_OK;
}

/* The patterns that can occur (those without the separator), as a batch of
 * their own: keep[q] = the original index of kept pattern q. */
typedef struct batch {
    uint64_t *offsets;
    size_t *keep, n;
} batch;

static clsa_status select_patterns(clsa_fm_set *set, const uint8_t *patterns,
                                   const uint64_t *offsets, size_t np, batch *b)
{
    b->offsets = malloc((np + 1) * sizeof *b->offsets);
    b->keep = malloc((np ? np : 1) * sizeof *b->keep);
    b->n = 0;
    if (!b->offsets || !b->keep)
        return clsa__fail(set->ctx, CLSA_ERR_HOST_MEMORY, "FM-index of a set: out of host memory");
    for (size_t p = 0; p < np; p++)
        if (offsets[p + 1] == offsets[p] ||
            !holds(patterns + offsets[p], offsets[p + 1] - offsets[p], set->sep))
            b->keep[b->n++] = p;
    return CLSA_OK;
}

/* Copies the kept patterns back to back into *buf (malloc'd) with their
 * offsets in b->offsets. */
static clsa_status pack_patterns(clsa_fm_set *set, const uint8_t *patterns,
                                 const uint64_t *offsets, batch *b, uint8_t **buf)
{
    uint64_t bytes = 0;
    for (size_t q = 0; q < b->n; q++) bytes += offsets[b->keep[q] + 1] - offsets[b->keep[q]];
    *buf = malloc(bytes ? (size_t)bytes : 1);
    if (!*buf)
        return clsa__fail(set->ctx, CLSA_ERR_HOST_MEMORY, "FM-index of a set: out of host memory");
    b->offsets[0] = 0;
    for (size_t q = 0; q < b->n; q++) {
        size_t p = b->keep[q];
        uint64_t len = offsets[p + 1] - offsets[p];
        if (len) memcpy(*buf + b->offsets[q], patterns + offsets[p], (size_t)len);
        b->offsets[q + 1] = b->offsets[q] + len;
    }
    return CLSA_OK;
}

static void batch_free(batch *b)
{
    free(b->offsets);
    free(b->keep);
}

/* Keeps, in place, the occurrences pos[from..to) of a pattern of len bytes
 * that lie inside one string (the empty pattern: every offset before the
 * string's end), as offsets into strings[] / pos[] from *w on. */
static void to_strings(const clsa_fm_set *set, int64_t *pos, int64_t *strings, uint64_t from,
                       uint64_t to, uint64_t len, uint64_t *w)
{
    for (uint64_t i = from; i < to; i++) {
        int64_t d = clsa__gsa_string_of(set->starts, set->k, pos[i]);
        int64_t off = pos[i] - set->starts[d];
        int64_t slen = set->starts[d + 1] - set->starts[d] - (set->sep >= 0);
        if (off >= slen || (uint64_t)(slen - off) < len) continue;
        strings[*w] = d;
        pos[(*w)++] = off;
    }
}

/* Locate over the kept batch, then every result mapped to (string, offset)
 * and scattered back to the caller's pattern order. */
static clsa_status locate_kept(clsa_fm_set *set, const uint8_t *packed, const batch *b,
                               const uint64_t *offsets, size_t np, uint64_t max_total,
                               uint64_t *starts, int64_t **strings, int64_t **positions)
{
    uint64_t *ks = malloc((b->n + 1) * sizeof *ks);
    int64_t *pos = NULL, *str = NULL;
    clsa_status st = CLSA_OK;
    if (!ks) return clsa__fail(set->ctx, CLSA_ERR_HOST_MEMORY, "FM-index of a set: out of host memory");
    CLSA_TRY(clsa__fm_locate(set->fm, packed, b->offsets, b->n, max_total, ks, &pos));
    str = malloc((ks[b->n] ? (size_t)ks[b->n] : 1) * sizeof *str);
    if (!str) {
        st = clsa__fail(set->ctx, CLSA_ERR_HOST_MEMORY, "FM-index of a set: out of host memory");
        goto done;
    }
    /* kept patterns are in the caller's order, so the write cursor only
     * moves forward */
    uint64_t w = 0;
    size_t q = 0;
    starts[0] = 0;
    for (size_t p = 0; p < np; p++) {
        if (q < b->n && b->keep[q] == p) {
            to_strings(set, pos, str, ks[q], ks[q + 1], offsets[p + 1] - offsets[p], &w);
            q++;
        }
        starts[p + 1] = w;
    }
    if (w == 0) {
        free(pos);
        free(str);
        pos = str = NULL;
    }
    *positions = pos;
    *strings = str;
    pos = str = NULL;
done:
    free(pos);
    free(str);
    free(ks);
    return st;
}

clsa_status clsa__fm_set_locate(clsa_fm_set *set, const uint8_t *patterns, const uint64_t *offsets,
                                size_t npatterns, uint64_t max_total, uint64_t *starts,
                                int64_t **strings, int64_t **positions)
{
    clsa_status st = check_batch(set, patterns, offsets, npatterns);
    if (st) return st;
    if (!starts || !strings || !positions)
        return clsa__fail(set->ctx, CLSA_ERR_INVALID_ARG,
                          "FM-index of a set: starts, strings or positions is NULL");
    *strings = NULL;
    *positions = NULL;
    starts[0] = 0;
    if (npatterns == 0) return CLSA_OK;
    batch b = {0};
    uint8_t *packed = NULL;
    CLSA_TRY(select_patterns(set, patterns, offsets, npatterns, &b));
    CLSA_TRY(pack_patterns(set, patterns, offsets, &b, &packed));
    CLSA_TRY(locate_kept(set, packed, &b, offsets, npatterns, max_total, starts, strings,
                         positions));
done:
    free(packed);
    batch_free(&b);
    return st;
}

clsa_status clsa__fm_set_count(clsa_fm_set *set, const uint8_t *patterns, const uint64_t *offsets,
                               size_t npatterns, uint64_t *counts)
{
    clsa_status st = check_batch(set, patterns, offsets, npatterns);
    if (st) return st;
    if (npatterns && !counts)
        return clsa__fail(set->ctx, CLSA_ERR_INVALID_ARG, "FM-index of a set: counts is NULL");
    if (npatterns == 0) return CLSA_OK;
    batch b = {0};
    uint8_t *packed = NULL;
    uint64_t *kc = NULL, *starts = NULL;
    int64_t *str = NULL, *pos = NULL;
    CLSA_TRY(select_patterns(set, patterns, offsets, npatterns, &b));
    CLSA_TRY(pack_patterns(set, patterns, offsets, &b, &packed));
    if (set->sep < 0) { /* no separator: only located occurrences can be filtered */
        starts = malloc((npatterns + 1) * sizeof *starts);
        if (!starts) {
            st = clsa__fail(set->ctx, CLSA_ERR_HOST_MEMORY, "FM-index of a set: out of host "
                                                            "memory");
            goto done;
        }
        CLSA_TRY(locate_kept(set, packed, &b, offsets, npatterns, 0, starts, &str, &pos));
        for (size_t p = 0; p < npatterns; p++) counts[p] = starts[p + 1] - starts[p];
        goto done;
    }
    kc = malloc((b.n ? b.n : 1) * sizeof *kc);
    if (!kc) {
        st = clsa__fail(set->ctx, CLSA_ERR_HOST_MEMORY, "FM-index of a set: out of host memory");
        goto done;
    }
    CLSA_TRY(clsa__fm_count(set->fm, packed, b.offsets, b.n, kc));
    memset(counts, 0, npatterns * sizeof *counts);
    for (size_t q = 0; q < b.n; q++) {
        uint64_t len = offsets[b.keep[q] + 1] - offsets[b.keep[q]];
        /* the empty pattern matches every joined position: not the k separators */
        counts[b.keep[q]] = len ? kc[q] : kc[q] - (uint64_t)set->k;
    }
done:
    free(packed);
    free(kc);
    free(starts);
    free(str);
    free(pos);
    batch_free(&b);
    return st;
}

/* ---- files ----------------------------------------------------------------------------
 * The extra section of a set file (little-endian u64s):
 *   k, separator byte + 1 (0: joined without one), lengths[0..k)
 * Checked against the FM-index's text length and byte counts before any
 * device work: the lengths plus the separators must add up to the text,
 * the separator must occur exactly k times, and a join without one is only
 * made when every byte value occurs. */

static clsa_status table_bytes(const clsa_fm_set *set, uint8_t **out, size_t *bytes)
{
    *bytes = 16 + 8 * (size_t)set->k;
    uint8_t *b = malloc(*bytes);
    if (!b)
        return clsa__fail(set->ctx, CLSA_ERR_HOST_MEMORY, "FM-index of a set: out of host "
                                                          "memory for its string table");
    clsa__put_u64le(b, (uint64_t)set->k);
    clsa__put_u64le(b + 8, (uint64_t)(set->sep + 1));
    for (int64_t i = 0; i < set->k; i++)
        clsa__put_u64le(b + 16 + 8 * i,
                        (uint64_t)(set->starts[i + 1] - set->starts[i] - (set->sep >= 0)));
    *out = b;
    return CLSA_OK;
}

clsa_status clsa__fm_set_save(clsa_fm_set *set, const char *path)
{
    if (!set) return CLSA_ERR_INVALID_ARG;
    uint8_t *table = NULL;
    size_t bytes;
    clsa_status st = table_bytes(set, &table, &bytes);
    if (st) return st;
    st = clsa__fm_file_save(set->fm, path, 1, table, bytes);
    free(table);
    return st;
}

typedef struct set_table {
    int64_t k;
    int sep;
    int64_t *starts;
} set_table;

/* starts[0..k] from the lengths, each string's start in the joined text
 * of n bytes; 0 when they do not add up to n. */
static int table_starts(const uint8_t *lens, uint64_t k, int sep, uint64_t n, int64_t *starts)
{
    uint64_t at = 0, gap = sep >= 0;
    for (uint64_t i = 0; i < k; i++) {
        uint64_t len = clsa__get_u64le(lens + 8 * i);
        starts[i] = (int64_t)at;
        if (len > n - at || gap > n - at - len) return 0;
        at += len + gap;
    }
    starts[k] = (int64_t)at;
    return at == n;
}

static clsa_status check_table(clsa_context *ctx, const char *path, uint64_t n,
                               const uint64_t *hist, const uint8_t *extra, uint64_t bytes,
                               void *user)
{
    set_table *t = user;
    if (bytes < 16 || (bytes - 16) % 8 || clsa__get_u64le(extra) != (bytes - 16) / 8)
        return clsa__fm_file_bad(ctx, path, 1, "string table size does not match its count");
    uint64_t k = clsa__get_u64le(extra), sep1 = clsa__get_u64le(extra + 8);
    if (sep1 > 256) return clsa__fm_file_bad(ctx, path, 1, "separator byte out of range");
    int every_byte = 1;
    for (int c = 0; c < 256; c++) every_byte &= hist[c] > 0;
    if (sep1 ? hist[sep1 - 1] != k : !every_byte)
        return clsa__fm_file_bad(ctx, path, 1, "separator does not match the symbol counts");
    /* k <= bytes / 8, and the section lies inside the file */
    t->starts = malloc(((size_t)k + 1) * sizeof *t->starts);
    if (!t->starts)
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "out of host memory reading '%s'", path);
    t->k = (int64_t)k;
    t->sep = (int)sep1 - 1;
    if (!table_starts(extra + 16, k, t->sep, n, t->starts))
        return clsa__fm_file_bad(ctx, path, 1, "string lengths do not add up to the text");
    return CLSA_OK;
}

clsa_status clsa__fm_set_load(clsa_context *ctx, const char *path, clsa_fm_set **out)
{
    if (!out) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "FM-index of a set: out is NULL");
    *out = NULL;
    set_table t = {0, -1, NULL};
    clsa__fm_kind kind = {check_table, &t};
    clsa_fm *fm = NULL;
    clsa_status st = clsa__fm_file_load(ctx, path, &kind, &fm);
    clsa_fm_set *s = st ? NULL : calloc(1, sizeof *s);
    if (st == CLSA_OK && !s)
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "out of host memory reading '%s'", path);
    if (st) {
        clsa__fm_free(fm);
        free(t.starts);
        return st;
    }
    int64_t total = t.starts[t.k] - (t.sep >= 0 ? t.k : 0);
    *s = (clsa_fm_set){fm, ctx, t.k, total, t.starts, t.sep};
    *out = s;
    return CLSA_OK;
}
