/* Generalized suffix arrays (clsa_gsa32 ... clsa_gsa64_u64), their document
 * arrays and LCP arrays (clsa_gsa_lcp32 ...): the device and the host
 * backend against a naive sort of the virtual text's suffixes (a comparator
 * that knows the separators), a naive document array and a naive LCP, on
 * generated sets of strings with fixed seeds: no strings, one string, empty
 * strings, identical strings, strings that are prefixes of others, periodic
 * strings, symbol values 0 and the maximum of each width (64-bit symbols
 * enter the naive order through their ranks among the distinct values,
 * found by qsort: huge sparse values and values equal in their low 32
 * bits).  Larger sets are checked against the definition (a permutation
 * whose neighbours are in order) and one string against libdivsufsort.  Bad arguments must give
 * CLSA_ERR_INVALID_ARG / CLSA_ERR_TOO_LARGE. */
#include "testutil.h"

#include <divsufsort.h>

static clsa_context *ctx;

/* A set of k strings of sym-byte symbols, back to back in text. */
typedef struct gset {
    int sym;
    int64_t k, total, n; /* n: virtual symbols, total + k */
    int64_t *len;
    void *text;
    /* the virtual text: $_i -> i - k (< 0), symbol c -> c; a 64-bit c is
     * replaced by its rank among the set's distinct symbols (naive_ranks) */
    int64_t *vt;
    int64_t *doc_of; /* string of each virtual position */
} gset;

static uint64_t max_of(int sym)
{
    return sym == 1 ? 0xffu : sym == 2 ? 0xffffu : sym == 4 ? 0xffffffffu : UINT64_MAX;
}

static uint64_t get_sym(const gset *g, int64_t i)
{
    return g->sym == 1   ? ((const uint8_t *)g->text)[i]
           : g->sym == 2 ? ((const uint16_t *)g->text)[i]
           : g->sym == 4 ? ((const uint32_t *)g->text)[i]
                         : ((const uint64_t *)g->text)[i];
}

static void put_sym(gset *g, int64_t i, uint64_t v)
{
    if (g->sym == 1) ((uint8_t *)g->text)[i] = (uint8_t)v;
    else if (g->sym == 2) ((uint16_t *)g->text)[i] = (uint16_t)v;
    else if (g->sym == 4) ((uint32_t *)g->text)[i] = (uint32_t)v;
    else ((uint64_t *)g->text)[i] = v;
}

/* Symbols from one of several shapes over the whole range of the width. */
static uint64_t draw(tu_rng *r, int shape, uint64_t max, const uint64_t *pool)
{
    switch (shape) {
    case 0: return tu_below(r, 2);               /* 0 and 1 */
    case 1: return max - tu_below(r, 2);         /* the two largest */
    case 2: return tu_next(r) & max;             /* anything */
    case 3: return pool[tu_below(r, 5)];         /* five sparse values */
    case 4: return tu_below(r, 3) ? 0 : max;     /* 0 and max */
    default: return tu_below(r, 4);              /* DNA-like */
    }
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The set's distinct symbols in order (qsort, then drop repeats), for
 * ranking 64-bit symbols so that the virtual text fits int64. */
static uint64_t *naive_distinct(const gset *g, size_t *m)
{
    uint64_t *v = tu_malloc((size_t)g->total * 8 + 8);
    for (int64_t i = 0; i < g->total; i++) v[i] = get_sym(g, i);
    qsort(v, (size_t)g->total, 8, by_u64);
    size_t u = 0;
    for (int64_t i = 0; i < g->total; i++)
        if (u == 0 || v[i] != v[u - 1]) v[u++] = v[i];
    *m = u;
    return v;
}

static void build_virtual(gset *g)
{
    g->n = g->total + g->k;
    g->vt = tu_malloc((size_t)g->n * 8 + 8);
    g->doc_of = tu_malloc((size_t)g->n * 8 + 8);
    size_t m = 0;
    uint64_t *vals = g->sym == 8 ? naive_distinct(g, &m) : NULL;
    int64_t src = 0, dst = 0;
    for (int64_t s = 0; s < g->k; s++) {
        for (int64_t j = 0; j < g->len[s]; j++) {
            g->doc_of[dst] = s;
            uint64_t c = get_sym(g, src++);
            if (vals) c = (uint64_t *)bsearch(&c, vals, m, 8, by_u64) - vals;
            g->vt[dst++] = (int64_t)c;
        }
        g->doc_of[dst] = s;
        g->vt[dst++] = s - g->k;
    }
    free(vals);
}

/* Set shapes: 0 random lengths (some empty), 1 identical strings, 2 prefixes
 * of one string, 3 periodic strings, 4 one string, 5 only empty strings,
 * 6 no strings, 7 many short strings. */
static gset gen_set(tu_rng *r, int sym, int set_shape, int sym_shape, int64_t max_len)
{
    gset g = {0};
    g.sym = sym;
    uint64_t max = max_of(sym), pool[5];
    for (int i = 0; i < 5; i++) pool[i] = tu_next(r) & max;
    switch (set_shape) {
    case 4: g.k = 1; break;
    case 6: g.k = 0; break;
    case 7: g.k = 10 + tu_below(r, 40); break;
    default: g.k = 1 + tu_below(r, 8); break;
    }
    g.len = tu_malloc((size_t)g.k * 8 + 8);
    int64_t base = 1 + tu_below(r, (uint32_t)max_len);
    for (int64_t s = 0; s < g.k; s++) {
        switch (set_shape) {
        case 1: g.len[s] = base; break;
        case 2: g.len[s] = tu_below(r, (uint32_t)base + 1); break;
        case 5: g.len[s] = 0; break;
        case 7: g.len[s] = tu_below(r, 4); break;
        default: g.len[s] = tu_below(r, 4) ? tu_below(r, (uint32_t)max_len + 1) : 0; break;
        }
        g.total += g.len[s];
    }
    g.text = tu_malloc((size_t)g.total * (size_t)sym + 8);
    /* identical and prefix sets copy one base string; periodic ones repeat a
     * short random period within each string */
    uint64_t *basestr = tu_malloc((size_t)base * 8 + 8);
    size_t period = 1 + tu_below(r, 4);
    for (int64_t j = 0; j < base; j++) basestr[j] = draw(r, sym_shape, max, pool);
    int64_t pos = 0;
    for (int64_t s = 0; s < g.k; s++)
        for (int64_t j = 0; j < g.len[s]; j++, pos++) {
            uint64_t v;
            if (set_shape == 1 || set_shape == 2) v = basestr[j];
            else if (set_shape == 3 && (size_t)j >= period) v = get_sym(&g, pos - (int64_t)period);
            else v = draw(r, sym_shape, max, pool);
            put_sym(&g, pos, v);
        }
    free(basestr);
    build_virtual(&g);
    return g;
}

static void free_set(gset *g)
{
    free(g->len);
    free(g->text);
    free(g->vt);
    free(g->doc_of);
}

/* ---- naive reference ------------------------------------------------------ */

static const gset *g_cur; /* for qsort's comparator */

static int cmp_suffix(const gset *g, int64_t x, int64_t y)
{
    while (x < g->n && y < g->n) {
        int64_t u = g->vt[x++], v = g->vt[y++];
        if (u != v) return u < v ? -1 : 1;
    }
    return x == g->n ? (y == g->n ? 0 : -1) : 1;
}

static int by_suffix(const void *a, const void *b)
{
    return cmp_suffix(g_cur, *(const int64_t *)a, *(const int64_t *)b);
}

static int64_t *naive_sa(const gset *g)
{
    int64_t *sa = tu_malloc((size_t)g->n * 8 + 8);
    for (int64_t i = 0; i < g->n; i++) sa[i] = i;
    g_cur = g;
    qsort(sa, (size_t)g->n, 8, by_suffix);
    return sa;
}

/* Separators match nothing, not even each other. */
static int64_t naive_lcp_at(const gset *g, int64_t x, int64_t y)
{
    int64_t h = 0;
    while (x + h < g->n && y + h < g->n && g->vt[x + h] >= 0 && g->vt[x + h] == g->vt[y + h]) h++;
    return h;
}

/* ---- calls under test -------------------------------------------------------- */

static const char *who(clsa_context *c) { return c ? "device" : "host"; }

/* SA and doc through the public call for (sym, index64), as int64. */
static clsa_status call_gsa(clsa_context *c, const gset *g, int index64, int64_t *sa, int64_t *doc)
{
    size_t n = (size_t)g->n;
    int32_t *s32 = tu_malloc(n * 4 + 4), *d32 = doc ? tu_malloc(n * 4 + 4) : NULL;
    clsa_status st;
    if (index64)
        st = g->sym == 1   ? clsa_gsa64(c, g->text, g->len, g->k, sa, doc)
             : g->sym == 2 ? clsa_gsa64_u16(c, g->text, g->len, g->k, sa, doc)
             : g->sym == 4 ? clsa_gsa64_u32(c, g->text, g->len, g->k, sa, doc)
                           : clsa_gsa64_u64(c, g->text, g->len, g->k, sa, doc);
    else
        st = g->sym == 1   ? clsa_gsa32(c, g->text, g->len, g->k, s32, d32)
             : g->sym == 2 ? clsa_gsa32_u16(c, g->text, g->len, g->k, s32, d32)
             : g->sym == 4 ? clsa_gsa32_u32(c, g->text, g->len, g->k, s32, d32)
                           : clsa_gsa32_u64(c, g->text, g->len, g->k, s32, d32);
    if (!index64)
        for (size_t i = 0; i < n; i++) {
            sa[i] = s32[i];
            if (doc) doc[i] = d32[i];
        }
    free(s32);
    free(d32);
    return st;
}

static clsa_status call_lcp(clsa_context *c, const gset *g, int index64, const int64_t *sa,
                            int64_t *lcp)
{
    size_t n = (size_t)g->n;
    int32_t *s32 = tu_malloc(n * 4 + 4), *l32 = tu_malloc(n * 4 + 4);
    for (size_t i = 0; i < n; i++) s32[i] = (int32_t)sa[i];
    clsa_status st;
    if (index64)
        st = g->sym == 1   ? clsa_gsa_lcp64(c, g->text, g->len, g->k, sa, lcp)
             : g->sym == 2 ? clsa_gsa_lcp64_u16(c, g->text, g->len, g->k, sa, lcp)
             : g->sym == 4 ? clsa_gsa_lcp64_u32(c, g->text, g->len, g->k, sa, lcp)
                           : clsa_gsa_lcp64_u64(c, g->text, g->len, g->k, sa, lcp);
    else
        st = g->sym == 1   ? clsa_gsa_lcp32(c, g->text, g->len, g->k, s32, l32)
             : g->sym == 2 ? clsa_gsa_lcp32_u16(c, g->text, g->len, g->k, s32, l32)
             : g->sym == 4 ? clsa_gsa_lcp32_u32(c, g->text, g->len, g->k, s32, l32)
                           : clsa_gsa_lcp32_u64(c, g->text, g->len, g->k, s32, l32);
    if (!index64)
        for (size_t i = 0; i < n; i++) lcp[i] = l32[i];
    free(s32);
    free(l32);
    return st;
}

static void expect_ok(clsa_context *c, clsa_status st, const char *call, const char *what)
{
    if (st != CLSA_OK)
        fail_msg("%s %s (%s): status %d (%s)", who(c), call, what, (int)st,
                 c ? clsa_last_error(c) : clsa_status_string(st));
}

static void expect_array(const int64_t *got, const int64_t *want, int64_t n, const char *arr,
                         clsa_context *c, const char *what)
{
    for (int64_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s, %s (N=%lld): %s[%lld] = %lld, expected %lld", who(c), what,
                     (long long)n, arr, (long long)i, (long long)got[i], (long long)want[i]);
}

/* One backend, one width: SA (+ doc unless with_doc is 0) and LCP against
 * the reference sa (NULL: against the definition). */
static void check_one(clsa_context *c, const gset *g, int index64, int with_doc,
                      const int64_t *ref, const char *what)
{
    size_t n = (size_t)g->n;
    int64_t *sa = tu_malloc(n * 8 + 8), *doc = with_doc ? tu_malloc(n * 8 + 8) : NULL;
    int64_t *lcp = tu_malloc(n * 8 + 8);
    expect_ok(c, call_gsa(c, g, index64, sa, doc), index64 ? "gsa64" : "gsa32", what);
    if (ref) {
        expect_array(sa, ref, g->n, "SA", c, what);
    } else {
        char *seen = calloc(n + 1, 1);
        assert_non_null(seen);
        for (int64_t i = 0; i < g->n; i++) {
            if (sa[i] < 0 || sa[i] >= g->n || seen[sa[i]])
                fail_msg("%s, %s: SA[%lld] = %lld is not a permutation entry", who(c), what,
                         (long long)i, (long long)sa[i]);
            seen[sa[i]] = 1;
            if (i > 0 && cmp_suffix(g, sa[i - 1], sa[i]) >= 0)
                fail_msg("%s, %s: SA[%lld], SA[%lld] out of order", who(c), what,
                         (long long)i - 1, (long long)i);
        }
        free(seen);
    }
    for (int64_t i = 0; doc && i < g->n; i++)
        if (doc[i] != g->doc_of[sa[i]])
            fail_msg("%s, %s: doc[%lld] = %lld, expected %lld", who(c), what, (long long)i,
                     (long long)doc[i], (long long)g->doc_of[sa[i]]);
    expect_ok(c, call_lcp(c, g, index64, sa, lcp), index64 ? "gsa_lcp64" : "gsa_lcp32", what);
    for (int64_t i = 0; i < g->n; i++) {
        int64_t want = i ? naive_lcp_at(g, sa[i - 1], sa[i]) : 0;
        if (lcp[i] != want)
            fail_msg("%s, %s: LCP[%lld] = %lld, expected %lld", who(c), what, (long long)i,
                     (long long)lcp[i], (long long)want);
    }
    free(sa);
    free(doc);
    free(lcp);
}

/* Device and host on one set, against the naive sort (naive) or the
 * definition. */
static void check_set(const gset *g, int index64, int naive, const char *what)
{
    int64_t *ref = naive ? naive_sa(g) : NULL;
    check_one(ctx, g, index64, 1, ref, what);
    check_one(NULL, g, !index64, g->k % 2, ref, what);
    free(ref);
}

/* ---- cases ---------------------------------------------------------------------- */

static void edge_sets(void **state)
{
    (void)state;
    /* fixed small sets: symbol 0 and max next to separators, empty strings
     * first, last and between, a string that is a prefix of another */
    static const int64_t lens[][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 2, 0, 1},
                                      {2, 2, 2, 2}, {3, 1, 0, 2}, {1, 1, 1, 1}};
    static const uint64_t M = UINT64_MAX, H = 1ull << 32; /* H: 0 in the low 32 bits */
    static const uint64_t vals[][8] = {{0, 0, 0, 0, 0, 0, 0, 0},
                                       {M, M, 0, M, 0, 0, 1, 1},
                                       {0, M, 0, M, 0, M, 0, 1},
                                       {H, 0, H, H + 1, 0, H, 1, M},
                                       {5, 4, 5, 4, 5, 4, 5, 4}};
    int count = 0;
    for (int sym = 1; sym <= 8; sym *= 2)
        for (size_t l = 0; l < sizeof lens / sizeof *lens; l++)
            for (size_t v = 0; v < sizeof vals / sizeof *vals; v++)
                for (int64_t k = 0; k <= 4; k++) {
                    /* small inputs: a twelfth; Oclgrind: a seventy-second (two
                     * sets a width) */
                    if (tu_small() && (count++ % (tu_lean() ? 72 : 12))) continue;
                    gset g = {0};
                    g.sym = sym;
                    g.k = k;
                    g.len = tu_malloc(4 * 8);
                    for (int64_t s = 0; s < k; s++) g.total += g.len[s] = lens[l][s];
                    g.text = tu_malloc(8 * 8);
                    for (int64_t i = 0; i < g.total; i++) put_sym(&g, i, vals[v][i] & max_of(sym));
                    build_virtual(&g);
                    char what[80];
                    snprintf(what, sizeof what, "edge lengths %zu values %zu k %lld u%d", l, v,
                             (long long)k, 8 * sym);
                    check_set(&g, (int)(l + v + (size_t)k) % 2, 1, what);
                    free_set(&g);
                }
}

static void random_sets(void **state)
{
    (void)state;
    tu_rng r = {20260501};
    int count = (int)tu_size(1500, tu_lean() ? 8 : 24);
    for (int i = 0; i < count; i++) {
        int sym = 1 << (i % 4);
        int set_shape = (i / 4) % 8, sym_shape = (i / 32) % 6;
        int64_t max_len = tu_small() ? 12 : i % 100 == 99 ? 300 : 40;
        gset g = gen_set(&r, sym, set_shape, sym_shape, max_len);
        char what[96];
        snprintf(what, sizeof what, "random set %d: shape %d, symbols %d, u%d, k %lld", i,
                 set_shape, sym_shape, 8 * sym, (long long)g.k);
        check_set(&g, (i / 2) % 2, 1, what);
        free_set(&g);
    }
}

/* Larger sets against the definition: the device's doubling loop at sizes
 * the naive sort is too slow for (under Oclgrind a tenth of them; lean mode
 * skips sets 2 and 4: the others launch every kernel the six do). */
static void large_sets(void **state)
{
    (void)state;
    tu_rng r = {4242};
    for (int i = 0; i < 6; i++) {
        if (tu_lean() && (i == 2 || i == 4)) continue;
        int sym = 1 << (i % 4);
        int set_shape = i < 3 ? 7 : i == 3 ? 3 : 0;
        gset g = {0};
        if (set_shape == 7) { /* thousands of short strings of 0 and max */
            g.sym = sym;
            g.k = (int64_t)tu_size(5000, 500);
            g.len = tu_malloc((size_t)g.k * 8);
            for (int64_t s = 0; s < g.k; s++) g.total += g.len[s] = tu_below(&r, 12);
            g.text = tu_malloc((size_t)g.total * 8 + 8);
            for (int64_t j = 0; j < g.total; j++) put_sym(&g, j, tu_below(&r, 3) ? 0 : max_of(sym));
            build_virtual(&g);
        } else {
            g = gen_set(&r, sym, set_shape, i % 2 ? 5 : 1, (int64_t)tu_size(4000, 400));
        }
        char what[64];
        snprintf(what, sizeof what, "large set %d, u%d, k %lld, N %lld", i, 8 * sym,
                 (long long)g.k, (long long)g.n);
        check_set(&g, i % 2, 0, what);
        free_set(&g);
    }
}

/* One byte string: its GSA is $_0 first, then libdivsufsort's SA (a proper
 * prefix sorts first, as s + $_0 orders it). */
static void one_string_vs_divsufsort(void **state)
{
    (void)state;
    tu_rng r = {99};
    int64_t n = (int64_t)tu_size(100000, 100);
    for (int shape = 0; shape < (tu_small() ? 1 : 3); shape++) {
        uint8_t *t = tu_malloc((size_t)n);
        for (int64_t i = 0; i < n; i++)
            t[i] = shape == 0 ? (uint8_t)tu_below(&r, 4)
                   : shape == 1 ? (uint8_t)(i >= 7 ? t[i - 7] : tu_below(&r, 256))
                                : (uint8_t)(tu_below(&r, 2) ? 0 : 0xff);
        saidx_t *ref = tu_malloc((size_t)n * sizeof *ref);
        assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
        int32_t *sa = tu_malloc((size_t)n * 4 + 4), *doc = tu_malloc((size_t)n * 4 + 4);
        clsa_context *cs[2] = {ctx, NULL};
        for (int b = 0; b < 2; b++) {
            TU_OK(ctx, clsa_gsa32(cs[b], t, &n, 1, sa, doc));
            if (sa[0] != n) fail_msg("%s, one string: SA[0] = %d, expected %lld", who(cs[b]), sa[0], (long long)n);
            for (int64_t i = 0; i < n; i++)
                if (sa[i + 1] != ref[i] || doc[i + 1] != 0)
                    fail_msg("%s, one string shape %d: SA[%lld] = %d, divsufsort %d", who(cs[b]),
                             shape, (long long)i + 1, sa[i + 1], (int)ref[i]);
        }
        free(t);
        free(ref);
        free(sa);
        free(doc);
    }
}

/* Byte sets take the device's byte path with a free byte as the
 * separator (zero_copy=0 and 1: copied or wrapped text), and the 32-bit
 * path when all 256 byte values occur; both against the host backend.
 * Direct mode (docs/SA.md) forced on (sa_path=512) and off (128). */
static void byte_routes(void **state)
{
    (void)state;
    static const char *tunes[] = {"zero_copy=0", "zero_copy=1", "sa_path=512", "sa_path=128"};
    tu_rng r = {777};
    int64_t k = tu_small() ? 20 : 3000;
    int64_t *len = tu_malloc((size_t)k * 8);
    int64_t total = 0;
    for (int64_t s = 0; s < k; s++) total += len[s] = (int64_t)tu_below(&r, 17);
    uint8_t *text = tu_malloc((size_t)total + 1);
    int64_t n = total + k;
    int32_t *want = tu_malloc((size_t)n * 4), *got = tu_malloc((size_t)n * 4);
    const char *old = getenv("CLSA_TUNE");
    char *saved = old ? strdup(old) : NULL;
    static const char *what[] = {"four bytes", "all 256 bytes", "bytes 0-199"};
    for (int all = 0; all <= 2; all++) {
        if (tu_lean() && all == 1 && total < 256) continue; /* as all = 2 */
        /* all = 0: bytes 0x00, 0x01, 0x7f and 0x80 only (long ties; a low free
         * byte); all = 1: every byte value (when the set holds 256 bytes or
         * more; lean mode skips it when not); all = 2: the low bytes all present, the
         * free byte found by the full scan */
        unsigned span = all == 1 ? 256 : 200;
        for (int64_t i = 0; i < total; i++)
            text[i] = all ? (uint8_t)(i < span ? i : tu_below(&r, span))
                          : (uint8_t)(0x807f0100u >> (8 * tu_below(&r, 4)));
        TU_OK(NULL, clsa_gsa32(NULL, text, len, k, want, NULL));
        for (int t = 0; t < 4; t++) {
            setenv("CLSA_TUNE", tunes[t], 1);
            clsa_context *c = tu_context();
            TU_OK(c, clsa_gsa32(c, text, len, k, got, NULL));
            for (int64_t i = 0; i < n; i++)
                if (got[i] != want[i])
                    fail_msg("%s, %s: SA[%lld] = %d, host %d", tunes[t], what[all],
                             (long long)i, got[i], want[i]);
            clsa_destroy(c);
        }
    }
    if (saved) setenv("CLSA_TUNE", saved, 1);
    else unsetenv("CLSA_TUNE");
    free(saved);
    free(len);
    free(text);
    free(want);
    free(got);
}

/* ---- bad arguments ---------------------------------------------------------------- */

static void expect_status(clsa_context *c, clsa_status got, clsa_status want, const char *what)
{
    if (got != want)
        fail_msg("%s (%s): status %d, expected %d", what, who(c), (int)got, (int)want);
    if (c && want != CLSA_OK && !*clsa_last_error(c)) fail_msg("%s: no message", what);
}

static void bad_arguments(void **state)
{
    (void)state;
    const uint8_t text[4] = {1, 2, 3, 4};
    int64_t len2[2] = {2, 2}, neg[2] = {2, -1}, over[2] = {INT64_MAX, 1};
    int64_t big32[1] = {INT32_MAX}, big64[1] = {(int64_t)UINT32_MAX};
    int32_t sa[6], doc[6], lcp[6];
    int64_t sa64[6], lcp64[6];
    clsa_context *cs[2] = {ctx, NULL};
    for (int b = 0; b < 2; b++) {
        clsa_context *c = cs[b];
        const clsa_status A = CLSA_ERR_INVALID_ARG;
        expect_status(c, clsa_gsa32(c, text, len2, -1, sa, doc), A, "k < 0");
        expect_status(c, clsa_gsa32(c, text, NULL, 2, sa, doc), A, "lengths NULL");
        expect_status(c, clsa_gsa32(c, text, neg, 2, sa, doc), A, "negative length");
        expect_status(c, clsa_gsa64(c, text, over, 2, sa64, NULL), A, "lengths overflow");
        expect_status(c, clsa_gsa32(c, NULL, len2, 2, sa, doc), A, "text NULL");
        expect_status(c, clsa_gsa32(c, text, len2, 2, NULL, doc), A, "sa NULL");
        expect_status(c, clsa_gsa32_u16(c, NULL, len2, 2, sa, NULL), A, "u16 text NULL");
        expect_status(c, clsa_gsa64_u32(c, NULL, len2, 2, sa64, NULL), A, "u32 text NULL");
        expect_status(c, clsa_gsa32_u64(c, NULL, len2, 2, sa, NULL), A, "u64 text NULL");
        expect_status(c, clsa_gsa_lcp64_u64(c, NULL, len2, 2, sa64, lcp64), A, "u64 LCP text NULL");
        /* too large: checked before the text is read */
        expect_status(c, clsa_gsa32(c, text, big32, 1, sa, NULL), CLSA_ERR_TOO_LARGE, "N = 2^31");
        expect_status(c, clsa_gsa64(c, text, big64, 1, sa64, NULL), CLSA_ERR_TOO_LARGE, "N = 2^32");
        expect_status(c, clsa_gsa_lcp32(c, text, big32, 1, sa, lcp), CLSA_ERR_TOO_LARGE,
                      "LCP N = 2^31");
        /* nothing to do is fine, NULLs included */
        expect_status(c, clsa_gsa32(c, NULL, NULL, 0, NULL, NULL), CLSA_OK, "k = 0");
        int64_t zeros[2] = {0, 0};
        expect_status(c, clsa_gsa_lcp32(c, NULL, NULL, 0, NULL, NULL), CLSA_OK, "LCP k = 0");
        TU_OK(c, clsa_gsa32(c, NULL, zeros, 2, sa, doc));
        assert_true(sa[0] == 0 && sa[1] == 1 && doc[0] == 0 && doc[1] == 1);
        /* LCP: bad sa */
        TU_OK(c, clsa_gsa32(c, text, len2, 2, sa, doc));
        expect_status(c, clsa_gsa_lcp32(c, text, len2, 2, NULL, lcp), A, "LCP sa NULL");
        expect_status(c, clsa_gsa_lcp32(c, text, len2, 2, sa, NULL), A, "LCP lcp NULL");
        expect_status(c, clsa_gsa_lcp32(c, text, neg, 2, sa, lcp), A, "LCP negative length");
        int32_t bad[6];
        memcpy(bad, sa, sizeof bad);
        bad[3] = 6;
        expect_status(c, clsa_gsa_lcp32(c, text, len2, 2, bad, lcp), A, "LCP sa out of range");
        bad[3] = -1;
        expect_status(c, clsa_gsa_lcp32(c, text, len2, 2, bad, lcp), A, "LCP sa negative");
        bad[3] = bad[4];
        expect_status(c, clsa_gsa_lcp32(c, text, len2, 2, bad, lcp), A, "LCP sa duplicate");
        for (int i = 0; i < 6; i++) sa64[i] = 5 - i; /* a permutation, not sorted: no crash */
        TU_OK(c, clsa_gsa_lcp64(c, text, len2, 2, sa64, lcp64));
        /* the context still works */
        TU_OK(c, clsa_gsa32(c, text, len2, 2, sa, doc));
    }
}

int main(void)
{
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edge_sets),
        cmocka_unit_test(random_sets),
        cmocka_unit_test(large_sets),
        cmocka_unit_test(one_string_vs_divsufsort),
        cmocka_unit_test(byte_routes),
        cmocka_unit_test(bad_arguments),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
