/* Generated sets of byte strings in tests (the FM-index over a set, its
 * file) and the naive search they are checked against. */
#ifndef CLSA_TESTS_SET_UTIL_H
#define CLSA_TESTS_SET_UTIL_H
#include "testutil.h"

typedef struct bset {
    int64_t k, total;
    int64_t *len, *start;
    uint8_t *text;
} bset;

/* shape 0: DNA letters (a byte is free), 1: two byte values, 2: every
 * byte value occurs somewhere (no byte is free). */
static inline bset gen(tu_rng *r, int shape, int64_t k, int64_t max_len)
{
    bset g = {0};
    g.k = k;
    g.len = tu_malloc((size_t)k * 8 + 8);
    g.start = tu_malloc((size_t)k * 8 + 8);
    for (int64_t s = 0; s < k; s++) {
        g.len[s] = tu_below(r, 5) == 0 ? 0 : tu_below(r, (uint32_t)max_len + 1);
        g.start[s] = g.total;
        g.total += g.len[s];
    }
    g.start[k] = g.total;
    /* all 256 values: room for them, spread over the strings */
    if (shape == 2 && g.total < 256) {
        g.len[k - 1] += 256 - g.total;
        g.total = 256;
        g.start[k] = 256;
    }
    g.text = tu_malloc((size_t)g.total + 1);
    for (int64_t i = 0; i < g.total; i++)
        g.text[i] = shape == 0   ? (uint8_t)("ACGT"[tu_below(r, 4)])
                    : shape == 1 ? (uint8_t)tu_below(r, 2)
                                 : (uint8_t)tu_below(r, 256);
    if (shape == 2) /* every byte value somewhere */
        for (int c = 0; c < 256; c++) g.text[tu_below(r, (uint32_t)g.total)] = (uint8_t)c;
    return g;
}

static inline void free_set(bset *g)
{
    free(g->len);
    free(g->start);
    free(g->text);
}

/* Patterns: substrings of one string, spans across a string end, random
 * bytes, the empty pattern. */
static inline uint8_t *make_patterns(tu_rng *r, const bset *g, size_t np, uint64_t *offsets)
{
    uint8_t *buf = tu_malloc(np * 24 + 1);
    offsets[0] = 0;
    for (size_t p = 0; p < np; p++) {
        uint64_t o = offsets[p], len = 0;
        int kind = (int)tu_below(r, 8);
        if (kind < 4 && g->total > 0) { /* from the joined text: often across an end */
            int64_t at = tu_below(r, (uint32_t)g->total);
            len = 1 + tu_below(r, kind == 0 ? 12 : 4);
            if ((int64_t)len > g->total - at) len = (uint64_t)(g->total - at);
            memcpy(buf + o, g->text + at, (size_t)len);
        } else if (kind < 7) {
            len = 1 + tu_below(r, 3);
            for (uint64_t j = 0; j < len; j++)
                buf[o + j] = kind == 4 ? (uint8_t)tu_below(r, 256) : (uint8_t)("ACGT\1"[tu_below(r, 5)]);
        }
        offsets[p + 1] = o + len;
    }
    return buf;
}

/* Naive occurrences of pattern p: (string, offset) in order. */
static inline size_t naive(const bset *g, const uint8_t *pat, uint64_t len, int64_t *str, int64_t *off)
{
    size_t c = 0;
    for (int64_t s = 0; s < g->k; s++)
        for (int64_t o = 0; o < g->len[s] && (uint64_t)(g->len[s] - o) >= len; o++)
            if (len == 0 || !memcmp(g->text + g->start[s] + o, pat, (size_t)len)) {
                if (str) {
                    str[c] = s;
                    off[c] = o;
                }
                c++;
            }
    return c;
}

#endif
