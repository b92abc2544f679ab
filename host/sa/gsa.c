/* Generalized suffix array of a set of strings, on top of the integer-
 * alphabet suffix array: each separator $_i becomes the 32-bit symbol i and
 * each symbol c becomes c + k, so every $_i is unique and smaller than any
 * symbol.  A comparison of two suffixes then stops at the first separator
 * either meets, and two suffixes that end their strings together are
 * ordered by string index: libsais's gsa order with no byte given up. */
#include "gsa.h"

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

/* Sorts v[0..m) (values below 2^(8 bytes)) by LSD radix through tmp. */
static void radix_u32(uint32_t *v, uint32_t *tmp, size_t m, int bytes)
{
    for (int b = 0; b < bytes; b++) {
        size_t cnt[257] = {0};
        for (size_t i = 0; i < m; i++) cnt[((v[i] >> (8 * b)) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++) cnt[d + 1] += cnt[d];
        for (size_t i = 0; i < m; i++) tmp[cnt[(v[i] >> (8 * b)) & 0xff]++] = v[i];
        memcpy(v, tmp, m * sizeof *v);
    }
}

/* The distinct symbols in order into *vals (malloc'd), their number into *m. */
static int distinct(const void *text, int sym, size_t total, uint32_t **vals, size_t *m)
{
    uint32_t *v = malloc(total * sizeof *v), *tmp = malloc(total * sizeof *tmp);
    if (!v || !tmp) {
        free(v);
        free(tmp);
        return 0;
    }
    for (size_t i = 0; i < total; i++) v[i] = clsa__gsa_sym(text, sym, i);
    radix_u32(v, tmp, total, sym);
    free(tmp);
    size_t u = 0;
    for (size_t i = 0; i < total; i++)
        if (u == 0 || v[i] != v[u - 1]) v[u++] = v[i];
    *vals = v;
    *m = u;
    return 1;
}

static uint32_t rank_of(const uint32_t *vals, size_t m, uint32_t c)
{
    size_t lo = 0, hi = m; /* the first value >= c; c is among them */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (vals[mid] < c) lo = mid + 1;
        else hi = mid;
    }
    return (uint32_t)lo;
}

clsa_status clsa__gsa_text(clsa_context *ctx, const void *text, int sym, const int64_t *lengths,
                           int64_t k, int64_t n, uint32_t **out)
{
    size_t total = (size_t)(n - k);
    uint32_t *vt = malloc((size_t)n * sizeof *vt), *vals = NULL;
    uint32_t maxc = 0;
    for (size_t i = 0; i < total; i++) {
        uint32_t c = clsa__gsa_sym(text, sym, i);
        if (c > maxc) maxc = c;
    }
    /* ranks need a sorted copy: only when the shift would overflow */
    size_t m = 0;
    int ranked = (uint64_t)maxc + (uint64_t)k > UINT32_MAX;
    if (!vt || (ranked && !distinct(text, sym, total, &vals, &m))) {
        free(vt);
        return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "generalized suffix array: out of host "
                                                     "memory for %lld virtual symbols",
                          (long long)n);
    }
    size_t src = 0, dst = 0;
    for (int64_t s = 0; s < k; s++) {
        for (int64_t j = 0; j < lengths[s]; j++, src++) {
            uint32_t c = clsa__gsa_sym(text, sym, src);
            vt[dst++] = (ranked ? rank_of(vals, m, c) : c) + (uint32_t)k;
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
