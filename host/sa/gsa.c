/* Generalized suffix array of a set of strings, on top of the integer-
 * alphabet suffix array: each separator $_i becomes the 32-bit symbol i and
 * each symbol c becomes c + k, so every $_i is unique and smaller than any
 * symbol.  A comparison of two suffixes then stops at the first separator
 * either meets, and two suffixes that end their strings together are
 * ordered by string index: libsais's gsa order with no byte given up. */
#include "gsa.h"
#include "dispatch.h"
#include "sym_rank.h"
#include "context.h"
#include "status.h"

#include <stdlib.h>
#include <string.h>

clsa_status clsa__gsa_size(clsa_context *ctx, const char *what, const void *text,
                           const int64_t *lengths, int64_t k, const void *out, int64_t *n)
{
    *n = 0;
    if (k < 0) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: negative string count", what);
    if (k > 0 && !lengths)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: lengths is NULL for %lld strings",
                          what, (long long)k);
    int64_t sum = 0;
    for (int64_t i = 0; i < k; i++) {
        if (lengths[i] < 0)
            return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: length of string %lld is negative",
                              what, (long long)i);
        if (lengths[i] > INT64_MAX - k - sum)
            return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: the lengths add up past 2^63",
                              what);
        sum += lengths[i];
    }
    if (sum > 0 && !text) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: text is NULL", what);
    if (sum + k > 0 && !out)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "%s: output array is NULL", what);
    *n = sum + k;
    return CLSA_OK;
}

clsa_status clsa__gsa_text(clsa_context *ctx, const void *text, int sym, const int64_t *lengths,
                           int64_t k, int64_t n, uint32_t **out)
{
    size_t total = (size_t)(n - k);
    uint32_t *vt = malloc((size_t)n * sizeof *vt);
    uint64_t *vals = NULL, maxc = 0;
    for (size_t i = 0; i < total; i++) {
        uint64_t c = clsa__sym_at(text, sym, i);
        if (c > maxc) maxc = c;
    }
    /* ranks need a sorted copy: only when the shift would overflow */
    size_t m = 0;
    int ranked = maxc > (uint64_t)UINT32_MAX - (uint64_t)k;
    if (!vt || (ranked && !clsa__sym_distinct(text, sym, total, &vals, &m))) {
        free(vt);
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "generalized suffix array: out of host "
                                                     "memory for %lld virtual symbols",
                          (long long)n);
    }
    size_t src = 0, dst = 0;
    for (int64_t s = 0; s < k; s++) {
        for (int64_t j = 0; j < lengths[s]; j++, src++) {
            uint64_t c = clsa__sym_at(text, sym, src);
            vt[dst++] = (ranked ? clsa__sym_rank(vals, m, c) : (uint32_t)c) + (uint32_t)k;
        }
        vt[dst++] = (uint32_t)s;
    }
    free(vals);
    *out = vt;
    return CLSA_OK;
}

int64_t *clsa__gsa_starts(const int64_t *lengths, int64_t k)
{
    int64_t *starts = malloc(((size_t)k + 1) * sizeof *starts);
    if (!starts) return NULL;
    starts[0] = 0;
    for (int64_t i = 0; i < k; i++) starts[i + 1] = starts[i] + lengths[i] + 1;
    return starts;
}

int64_t clsa__gsa_string_of(const int64_t *starts, int64_t k, int64_t p)
{
    /* each string owns at least its $, so starts rises strictly and one i fits */
    int64_t lo = 0, hi = k - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (starts[mid] <= p) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

clsa_status clsa__gsa_doc(clsa_context *ctx, const int64_t *lengths, int64_t k, const void *sa,
                          void *doc, int64_t n, int index64)
{
    int64_t *starts = clsa__gsa_starts(lengths, k);
    if (!starts)
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "document array: out of host memory for "
                                                     "%lld strings", (long long)k);
    for (int64_t i = 0; i < n; i++) {
        int64_t p = index64 ? ((const int64_t *)sa)[i] : ((const int32_t *)sa)[i];
        int64_t d = clsa__gsa_string_of(starts, k, p);
        if (index64) ((int64_t *)doc)[i] = d;
        else ((int32_t *)doc)[i] = (int32_t)d;
    }
    free(starts);
    return CLSA_OK;
}

/* A byte value that occurs nowhere in text[0..n), or -1.  The low control
 * bytes are absent from most texts and DNA: memchr (vectorised) rules a
 * candidate in or out at memory speed; after a few present ones, one pass
 * marks every byte. */
static int free_byte(const uint8_t *text, size_t n)
{
    if (n == 0) return 0; /* empty strings only (text may be NULL) */
    for (int c = 0; c < 8; c++)
        if (!memchr(text, c, n)) return c;
    uint8_t seen[256] = {0};
    for (size_t i = 0; i < n; i++) seen[text[i]] = 1;
    for (int c = 0; c < 256; c++)
        if (!seen[c]) return c;
    return -1;
}

/* Byte strings on the device: when some byte value occurs in no string,
 * the virtual text is the strings joined by that byte (n bytes, not 4 n)
 * and the byte path treats it as the separators (clsa__sa_device_gsa).
 * *declined: no free byte, or the host would run or the call go out of
 * core: the caller goes on with the 32-bit virtual text. */
static clsa_status gsa_bytes(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                             int64_t k, int64_t n, void *sa, int index64, int *declined)
{
    size_t total = (size_t)(n - k);
    *declined = 1;
    if (!clsa__use_device(ctx, (uint64_t)n)) return CLSA_OK; /* the host would run it */
    int sep = free_byte(text, total);
    if (sep < 0) return CLSA_OK;
    uint8_t *vt = malloc((size_t)n);
    if (!vt) return CLSA_OK; /* the 32-bit route reports the memory it lacks */
    size_t src = 0, dst = 0;
    for (int64_t s = 0; s < k; s++) {
        if (lengths[s]) memcpy(vt + dst, text + src, (size_t)lengths[s]);
        src += (size_t)lengths[s];
        dst += (size_t)lengths[s];
        vt[dst++] = (uint8_t)sep;
    }
    *declined = 0;
    clsa_status st = clsa__sa_pick_gsa(ctx, vt, 1, sep, sa, n, index64, declined);
    free(vt);
    return st;
}

clsa_status clsa__gsa_run(clsa_context *ctx, const void *text, int sym, const int64_t *lengths,
                          int64_t k, int64_t n, void *sa, void *doc, int index64)
{
    uint32_t *vt = NULL;
    int declined = 1;
    clsa_status st = CLSA_OK;
    if (sym == 1) st = gsa_bytes(ctx, text, lengths, k, n, sa, index64, &declined);
    if (st == CLSA_OK && declined) {
        st = clsa__gsa_text(ctx, text, sym, lengths, k, n, &vt);
        if (st == CLSA_OK) st = clsa__sa_pick_run(ctx, vt, 4, sa, n, index64);
    }
    free(vt);
    if (st == CLSA_OK && doc) st = clsa__gsa_doc(ctx, lengths, k, sa, doc, n, index64);
    return st;
}
