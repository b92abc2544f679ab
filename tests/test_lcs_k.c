/* Longest common substring of k strings (clsa_lcs_k ... _u64): the device
 * and the host backend against a naive search on generated sets with fixed
 * seeds (every substring of every length, lexicographically smallest of the
 * longest kept, offsets by scanning each string): m = 1, m = k and in
 * between, k = 1, empty strings, no common symbol, planted common
 * substrings, symbols 0 and the maximum of each width.  Larger two-string
 * sets against a dynamic-programming length, larger k-string sets device
 * against host with the reported occurrences checked.  Bad arguments must
 * give CLSA_ERR_INVALID_ARG. */
#include "testutil.h"

static clsa_context *ctx;

typedef struct sset {
    int sym;
    int64_t k, total;
    int64_t *len, *start;
    void *text;
} sset;

static uint64_t max_of(int sym)
{
    return sym == 1 ? 0xffu : sym == 2 ? 0xffffu : sym == 4 ? 0xffffffffu : UINT64_MAX;
}

static uint64_t get(const sset *g, int64_t i)
{
    return g->sym == 1   ? ((const uint8_t *)g->text)[i]
           : g->sym == 2 ? ((const uint16_t *)g->text)[i]
           : g->sym == 4 ? ((const uint32_t *)g->text)[i]
                         : ((const uint64_t *)g->text)[i];
}

static void put(sset *g, int64_t i, uint64_t v)
{
    if (g->sym == 1) ((uint8_t *)g->text)[i] = (uint8_t)v;
    else if (g->sym == 2) ((uint16_t *)g->text)[i] = (uint16_t)v;
    else if (g->sym == 4) ((uint32_t *)g->text)[i] = (uint32_t)v;
    else ((uint64_t *)g->text)[i] = v;
}

/* Symbol j of string s. */
static uint64_t at(const sset *g, int64_t s, int64_t j) { return get(g, g->start[s] + j); }

static uint64_t draw(tu_rng *r, int shape, uint64_t max, const uint64_t *pool)
{
    switch (shape) {
    case 0: return tu_below(r, 2);           /* 0 and 1 */
    case 1: return max - tu_below(r, 3);     /* the largest */
    case 2: return tu_next(r) & max;         /* anything: little in common */
    case 3: return pool[tu_below(r, 4)];     /* four sparse values */
    default: return tu_below(r, 4);          /* DNA-like */
    }
}

/* k strings (k = 0: 1..8), lengths up to max_len (a quarter of them empty
 * when allow_empty), and a random pattern planted in about half of them. */
static sset gen(tu_rng *r, int sym, int shape, int64_t k, int64_t max_len, int allow_empty)
{
    sset g = {0};
    g.sym = sym;
    g.k = k ? k : 1 + tu_below(r, 8);
    g.len = tu_malloc((size_t)g.k * 8);
    g.start = tu_malloc((size_t)g.k * 8 + 8);
    for (int64_t s = 0; s < g.k; s++) {
        g.len[s] = allow_empty && tu_below(r, 4) == 0 ? 0 : tu_below(r, (uint32_t)max_len + 1);
        g.start[s] = g.total;
        g.total += g.len[s];
    }
    g.start[g.k] = g.total;
    g.text = tu_malloc((size_t)g.total * (size_t)sym + 8);
    uint64_t max = max_of(sym), pool[4], pat[16];
    for (int i = 0; i < 4; i++) pool[i] = tu_next(r) & max;
    int64_t plen = 1 + tu_below(r, 12);
    for (int64_t j = 0; j < plen; j++) pat[j] = draw(r, shape, max, pool);
    for (int64_t i = 0; i < g.total; i++) put(&g, i, draw(r, shape, max, pool));
    for (int64_t s = 0; s < g.k; s++)
        if (g.len[s] >= plen && tu_below(r, 2)) {
            int64_t o = tu_below(r, (uint32_t)(g.len[s] - plen + 1));
            for (int64_t j = 0; j < plen; j++) put(&g, g.start[s] + o + j, pat[j]);
        }
    return g;
}

static void free_set(sset *g)
{
    free(g->len);
    free(g->start);
    free(g->text);
}

/* ---- naive reference ----------------------------------------------------------- */

/* The first offset of string s[so..so+L) in string t, or -1. */
static int64_t find_in(const sset *g, int64_t s, int64_t so, int64_t L, int64_t t)
{
    for (int64_t o = 0; o + L <= g->len[t]; o++) {
        int64_t j = 0;
        while (j < L && at(g, t, o + j) == at(g, s, so + j)) j++;
        if (j == L) return o;
    }
    return -1;
}

/* Compares s[so..so+L) with t[to..to+L). */
static int cmp_sub(const sset *g, int64_t s, int64_t so, int64_t t, int64_t to, int64_t L)
{
    for (int64_t j = 0; j < L; j++) {
        uint64_t u = at(g, s, so + j), v = at(g, t, to + j);
        if (u != v) return u < v ? -1 : 1;
    }
    return 0;
}

/* The longest length L shared by m strings, the smallest such substring,
 * and its first offset in each string. */
static int64_t naive(const sset *g, int64_t m, int64_t *offsets)
{
    int64_t maxlen = 0;
    for (int64_t s = 0; s < g->k; s++)
        if (g->len[s] > maxlen) maxlen = g->len[s];
    for (int64_t s = 0; s < g->k; s++) offsets[s] = -1;
    for (int64_t L = maxlen; L >= 1; L--) {
        int64_t bs = -1, bo = 0;
        for (int64_t s = 0; s < g->k; s++)
            for (int64_t o = 0; o + L <= g->len[s]; o++) {
                if (bs >= 0 && cmp_sub(g, s, o, bs, bo, L) >= 0) continue;
                int64_t have = 0;
                for (int64_t t = 0; t < g->k && have < m; t++) have += find_in(g, s, o, L, t) >= 0;
                if (have >= m) {
                    bs = s;
                    bo = o;
                }
            }
        if (bs < 0) continue;
        for (int64_t t = 0; t < g->k; t++) offsets[t] = find_in(g, bs, bo, L, t);
        return L;
    }
    return 0;
}

/* ---- calls under test ------------------------------------------------------------ */

static const char *who(clsa_context *c) { return c ? "device" : "host"; }

static clsa_status call(clsa_context *c, const sset *g, int64_t m, int64_t *len, int64_t *off)
{
    switch (g->sym) {
    case 1: return clsa_lcs_k(c, g->text, g->len, g->k, m, len, off);
    case 2: return clsa_lcs_k_u16(c, g->text, g->len, g->k, m, len, off);
    case 4: return clsa_lcs_k_u32(c, g->text, g->len, g->k, m, len, off);
    default: return clsa_lcs_k_u64(c, g->text, g->len, g->k, m, len, off);
    }
}

static void run(clsa_context *c, const sset *g, int64_t m, int64_t *len, int64_t *off,
                const char *what)
{
    clsa_status st = call(c, g, m, len, off);
    if (st != CLSA_OK)
        fail_msg("%s, %s, m %lld: status %d (%s)", who(c), what, (long long)m, (int)st,
                 c ? clsa_last_error(c) : clsa_status_string(st));
}

static void expect_same(clsa_context *c, const sset *g, int64_t m, int64_t len, const int64_t *off,
                        int64_t want_len, const int64_t *want_off, const char *what)
{
    if (len != want_len)
        fail_msg("%s, %s (k %lld, m %lld): length %lld, expected %lld", who(c), what,
                 (long long)g->k, (long long)m, (long long)len, (long long)want_len);
    for (int64_t s = 0; s < g->k; s++)
        if (off[s] != want_off[s])
            fail_msg("%s, %s (k %lld, m %lld, L %lld): offsets[%lld] = %lld, expected %lld",
                     who(c), what, (long long)g->k, (long long)m, (long long)len, (long long)s,
                     (long long)off[s], (long long)want_off[s]);
}

/* Device (where asked) and host against the naive search for one m. */
static void check(const sset *g, int64_t m, int device, const char *what)
{
    int64_t *want = tu_malloc((size_t)g->k * 8), *got = tu_malloc((size_t)g->k * 8);
    int64_t wl = naive(g, m, want), len;
    clsa_context *cs[2] = {ctx, NULL};
    for (int b = !device; b < 2; b++) {
        memset(got, 0x5a, (size_t)g->k * 8);
        run(cs[b], g, m, &len, got, what);
        expect_same(cs[b], g, m, len, got, wl, want, what);
    }
    free(want);
    free(got);
}

/* ---- cases ------------------------------------------------------------------------- */

static void random_sets(void **state)
{
    (void)state;
    tu_rng r = {20261125};
    int count = (int)tu_sizes(400, 8, 4); /* Oclgrind: each symbol width once */
    for (int i = 0; i < count; i++) {
        int sym = 1 << (i % 4), shape = (i / 4) % 5;
        int64_t k = i % 7 == 0 ? 1 : 0; /* 0: 1..8 strings */
        sset g = gen(&r, sym, shape, k, tu_small() ? 10 : i % 50 == 49 ? 60 : 24, (i / 2) % 2);
        char what[96];
        snprintf(what, sizeof what, "random set %d: shape %d, u%d", i, shape, 8 * sym);
        int64_t ms[3] = {1, g.k, 1 + tu_below(&r, (uint32_t)g.k)};
        for (int j = 0; j < (tu_small() ? 1 : 3); j++) check(&g, ms[(j + i) % 3], 1, what);
        free_set(&g);
    }
}

/* Fixed shapes: no common symbol, all strings empty but one, identical
 * strings, a string that holds all the others. */
static void edge_sets(void **state)
{
    (void)state;
    for (int sym = 1; sym <= 8; sym *= 2)
        for (int c = 0; c < 4; c++) {
            if (tu_small() && (c + sym) % 3) continue;
            sset g = {0};
            g.sym = sym;
            g.k = 4;
            g.len = tu_malloc(4 * 8);
            g.start = tu_malloc(5 * 8);
            static const int64_t lens[4][4] = {{3, 2, 4, 1}, {0, 5, 0, 0}, {4, 4, 4, 4},
                                               {7, 2, 3, 0}};
            for (int s = 0; s < 4; s++) {
                g.start[s] = g.total;
                g.total += g.len[s] = lens[c][s];
            }
            g.start[4] = g.total;
            g.text = tu_malloc((size_t)g.total * 8 + 8);
            uint64_t max = max_of(sym);
            for (int64_t i = 0; i < g.total; i++) {
                uint64_t v = c == 0 ? max - (uint64_t)i     /* all distinct */
                             : c == 2 ? (i % 4 == 3 ? max : (uint64_t)(i % 4))
                             : c == 3 && i >= 7 ? (i < 9 ? (uint64_t)i - 5 : (uint64_t)i - 9)
                                      : (uint64_t)i % 3 * (max / 2);
                put(&g, i, v);
            }
            char what[64];
            snprintf(what, sizeof what, "edge set %d, u%d", c, 8 * sym);
            /* Oclgrind: the device's part (the suffix array) is the same for
             * every m: one m a set there, the host all of them */
            for (int64_t m = 1; m <= g.k; m++)
                check(&g, m, !tu_lean() || m == 1 + (c + sym) % g.k, what);
            free_set(&g);
        }
}

/* Two larger byte strings: the length against an O(na nb) dynamic
 * programme; the reported offsets must hold the substring. */
static void two_strings_dp(void **state)
{
    (void)state;
    tu_rng r = {5150};
    int count = (int)tu_size(6, 1);
    for (int i = 0; i < count; i++) {
        sset g = gen(&r, 1, i % 5, 2, tu_small() ? 200 : 3000, 0);
        int64_t la = g.len[0], lb = g.len[1], want = 0;
        uint32_t *prev = calloc((size_t)lb + 1, 4), *cur = calloc((size_t)lb + 1, 4);
        assert_true(prev && cur);
        for (int64_t x = 0; x < la; x++) {
            for (int64_t y = 0; y < lb; y++) {
                cur[y + 1] = at(&g, 0, x) == at(&g, 1, y) ? prev[y] + 1 : 0;
                if (cur[y + 1] > want) want = cur[y + 1];
            }
            uint32_t *t = prev;
            prev = cur;
            cur = t;
        }
        free(prev);
        free(cur);
        int64_t len, off[2];
        clsa_context *cs[2] = {ctx, NULL};
        for (int b = 0; b < 2; b++) {
            run(cs[b], &g, 2, &len, off, "two strings");
            if (len != want)
                fail_msg("%s, two strings %d: length %lld, DP %lld", who(cs[b]), i,
                         (long long)len, (long long)want);
            if (len && (off[0] < 0 || off[1] < 0 || cmp_sub(&g, 0, off[0], 1, off[1], len)))
                fail_msg("%s, two strings %d: offsets %lld, %lld do not hold it", who(cs[b]), i,
                         (long long)off[0], (long long)off[1]);
        }
        free_set(&g);
    }
}

/* Larger k-string sets: device and host agree, and the string named by the
 * first offset occurs at every reported offset and nowhere earlier in its
 * string, in at least m strings (under Oclgrind strings of up to 100). */
static void large_sets(void **state)
{
    (void)state;
    tu_rng r = {777};
    for (int i = 0; i < 8; i++) {
        int sym = 1 << (i % 4);
        sset g = gen(&r, sym, i % 5, 20 + tu_below(&r, 30), (int64_t)tu_size(800, 100), 1);
        int64_t m = 1 + tu_below(&r, (uint32_t)g.k);
        /* Oclgrind: each symbol width once, set 5 for u16 (its suffix array
         * ends by inversion, the others' in direct mode) */
        if (tu_lean() && !(0x2d >> i & 1)) {
            free_set(&g);
            continue;
        }
        int64_t *od = tu_malloc((size_t)g.k * 8), *oh = tu_malloc((size_t)g.k * 8), ld, lh;
        run(ctx, &g, m, &ld, od, "large set");
        run(NULL, &g, m, &lh, oh, "large set");
        expect_same(ctx, &g, m, ld, od, lh, oh, "large set, device vs host");
        int64_t s0 = -1, have = 0;
        for (int64_t s = 0; s < g.k; s++)
            if (od[s] >= 0 && s0 < 0) s0 = s;
        for (int64_t s = 0; ld && s < g.k; s++) {
            int64_t first = find_in(&g, s0, od[s0], ld, s);
            if (first != od[s])
                fail_msg("large set %d: string %lld first holds it at %lld, reported %lld", i,
                         (long long)s, (long long)first, (long long)od[s]);
            have += first >= 0;
        }
        if (ld && have < m) fail_msg("large set %d: in %lld strings, m = %lld", i, (long long)have, (long long)m);
        free(od);
        free(oh);
        free_set(&g);
    }
}

/* Progress: fractions never fall, a successful call ends at 1, and a
 * callback that says stop gives CLSA_ERR_CANCELLED. */
typedef struct prog {
    double last;
    int calls, stop_at, backwards;
} prog;

static int on_progress(void *user, const char *phase, double f)
{
    (void)phase;
    prog *p = user;
    if (f < p->last) p->backwards = 1;
    p->last = f;
    return ++p->calls == p->stop_at;
}

static void progress(void **state)
{
    (void)state;
    tu_rng r = {99};
    sset g = gen(&r, 1, 4, 6, tu_small() ? 20 : 300, 0);
    for (int stop = 0; stop <= 1; stop++) {
        prog p = {0, 0, stop, 0};
        clsa_options o;
        clsa_options_init(&o);
        o.backend = CLSA_BACKEND_DEVICE;
        o.progress = on_progress;
        o.progress_user = &p;
        clsa_context *c = NULL;
        TU_OK(NULL, clsa_create(&o, &c));
        int64_t len, off[6];
        clsa_status st = clsa_lcs_k(c, g.text, g.len, g.k, 3, &len, off);
        if (stop) {
            assert_int_equal(st, CLSA_ERR_CANCELLED);
        } else {
            TU_OK(c, st);
            assert_true(p.calls > 1 && p.last == 1.0);
        }
        assert_false(p.backwards);
        clsa_destroy(c);
    }
    free_set(&g);
}

static void expect_status(clsa_context *c, clsa_status got, clsa_status want, const char *what)
{
    if (got != want) fail_msg("%s (%s): status %d, expected %d", what, who(c), (int)got, (int)want);
    if (c && want != CLSA_OK && !*clsa_last_error(c)) fail_msg("%s: no message", what);
}

static void bad_arguments(void **state)
{
    (void)state;
    const uint8_t text[4] = {1, 2, 1, 2};
    int64_t len2[2] = {2, 2}, neg[2] = {2, -1}, off[2], L;
    clsa_context *cs[2] = {ctx, NULL};
    for (int b = 0; b < 2; b++) {
        clsa_context *c = cs[b];
        const clsa_status A = CLSA_ERR_INVALID_ARG;
        expect_status(c, clsa_lcs_k(c, text, len2, 2, 0, &L, off), A, "m = 0");
        expect_status(c, clsa_lcs_k(c, text, len2, 2, 3, &L, off), A, "m > k");
        expect_status(c, clsa_lcs_k(c, text, len2, 2, 2, NULL, off), A, "length NULL");
        expect_status(c, clsa_lcs_k(c, text, len2, 2, 2, &L, NULL), A, "offsets NULL");
        expect_status(c, clsa_lcs_k(c, text, neg, 2, 2, &L, off), A, "negative length");
        expect_status(c, clsa_lcs_k(c, NULL, len2, 2, 2, &L, off), A, "text NULL");
        expect_status(c, clsa_lcs_k(c, text, NULL, 2, 2, &L, off), A, "lengths NULL");
        expect_status(c, clsa_lcs_k(c, text, len2, -1, 1, &L, off), A, "k < 0");
        L = 7;
        TU_OK(c, clsa_lcs_k(c, NULL, NULL, 0, 0, &L, NULL));
        assert_int_equal(L, 0);
        TU_OK(c, clsa_lcs_k(c, text, len2, 2, 2, &L, off));
        assert_true(L == 2 && off[0] == 0 && off[1] == 0);
        if (c) { /* the suffix array ran on the device under test */
            clsa_stats stats;
            TU_OK(c, clsa_get_stats(c, &stats));
            assert_int_equal(stats.last_backend, CLSA_BACKEND_DEVICE);
        }
    }
}

int main(void)
{
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_sets),
        cmocka_unit_test(edge_sets),
        cmocka_unit_test(two_strings_dp),
        cmocka_unit_test(large_sets),
        cmocka_unit_test(progress),
        cmocka_unit_test(bad_arguments),
    };
    const char *filter = getenv("CLSA_TEST_FILTER"); /* e.g. "large_*" while debugging */
    if (filter) cmocka_set_test_filter(filter);
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
