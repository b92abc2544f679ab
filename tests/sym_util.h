/* Integer-symbol texts in tests (2-, 4- or 8-byte symbols): element access
 * and a naive suffix array (qsort of the suffixes), the reference the
 * integer-alphabet tests compare against. */
#ifndef CLSA_TESTS_SYM_UTIL_H
#define CLSA_TESTS_SYM_UTIL_H
#include "testutil.h"

static inline uint64_t get_at(const void *t, int sym, size_t i)
{
    return sym == 2   ? ((const uint16_t *)t)[i]
           : sym == 4 ? ((const uint32_t *)t)[i]
                      : ((const uint64_t *)t)[i];
}

static inline void put_at(void *t, int sym, size_t i, uint64_t v)
{
    if (sym == 2) ((uint16_t *)t)[i] = (uint16_t)v;
    else if (sym == 4) ((uint32_t *)t)[i] = (uint32_t)v;
    else ((uint64_t *)t)[i] = v;
}

/* The text under comparison (qsort has no user pointer). */
static const void *g_text;
static int g_sym;
static size_t g_n;

static inline int by_suffix(const void *a, const void *b)
{
    size_t x = (size_t)*(const int64_t *)a, y = (size_t)*(const int64_t *)b;
    while (x < g_n && y < g_n) {
        uint64_t u = get_at(g_text, g_sym, x++), v = get_at(g_text, g_sym, y++);
        if (u != v) return u < v ? -1 : 1;
    }
    return x == g_n ? (y == g_n ? 0 : -1) : 1; /* the one that ended first is smaller */
}

/* The suffix array by sorting the suffixes (n + 1 entries allocated). */
static inline int64_t *naive_sa(const void *text, int sym, size_t n)
{
    int64_t *sa = tu_malloc(n * 8 + 8);
    for (size_t i = 0; i < n; i++) sa[i] = (int64_t)i;
    g_text = text;
    g_sym = sym;
    g_n = n;
    qsort(sa, n, 8, by_suffix);
    return sa;
}
#endif
