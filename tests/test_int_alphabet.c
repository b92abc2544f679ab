/* Suffix arrays of 16-, 32- and 64-bit symbol texts (clsa_sa32_u16 ... _u64):
 * the device and the host backend against a naive sort of the suffixes on
 * generated texts with fixed seeds (symbol values 0 and the maximum
 * included; for 64 bits also huge sparse values and values that differ only
 * in their high bytes, which the ranking must keep apart), and device
 * against host on larger ones. */
#include "sym_util.h"

static clsa_context *ctx;

/* SA of the text through the public call for (sym, index64), as int64. */
static int64_t *build(clsa_context *c, const void *text, int sym, size_t n, int index64)
{
    int64_t *out = tu_malloc(n * 8 + 8);
    int32_t *s32 = index64 ? NULL : tu_malloc(n * 4 + 4);
    clsa_status st;
    if (sym == 2)
        st = index64 ? clsa_sa64_u16(c, text, out, (int64_t)n) : clsa_sa32_u16(c, text, s32, (int64_t)n);
    else if (sym == 4)
        st = index64 ? clsa_sa64_u32(c, text, out, (int64_t)n) : clsa_sa32_u32(c, text, s32, (int64_t)n);
    else
        st = index64 ? clsa_sa64_u64(c, text, out, (int64_t)n) : clsa_sa32_u64(c, text, s32, (int64_t)n);
    if (st != CLSA_OK)
        fail_msg("sa%d_u%d of %zu symbols: status %d (%s)", index64 ? 64 : 32, 8 * sym, n, (int)st,
                 c ? clsa_last_error(c) : "host");
    if (!index64)
        for (size_t i = 0; i < n; i++) out[i] = s32[i];
    free(s32);
    return out;
}

static void expect_equal(const int64_t *got, const int64_t *want, size_t n, const char *who,
                         const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s, %s (n=%zu): SA[%zu] = %lld, expected %lld", who, what, n, i,
                     (long long)got[i], (long long)want[i]);
}

/* Device and host against the naive order (naive = 1), or device against
 * host (larger inputs). */
static void check(const void *text, int sym, size_t n, int index64, int naive, const char *what)
{
    int64_t *dev = build(ctx, text, sym, n, index64);
    int64_t *host = build(NULL, text, sym, n, index64);
    if (naive) {
        int64_t *ref = naive_sa(text, sym, n);
        expect_equal(dev, ref, n, "device", what);
        expect_equal(host, ref, n, "host", what);
        free(ref);
    } else {
        expect_equal(dev, host, n, "device vs host", what);
    }
    free(dev);
    free(host);
}

/* Symbols drawn from one of several shapes over the full range of the type. */
static uint64_t draw(tu_rng *r, int shape, uint64_t max, const uint64_t *pool)
{
    switch (shape) {
    case 0: return tu_below(r, 2);                           /* 0 and 1 */
    case 1: return max - tu_below(r, 2);                     /* the two largest */
    case 2: return tu_next(r) & max;                         /* anything */
    case 3: return pool[tu_below(r, 5)];                     /* five sparse values */
    case 4: return tu_below(r, 3) ? 0 : max;                 /* 0 and max */
    default: return tu_below(r, 4);                          /* DNA-like */
    }
}

static void *fill(tu_rng *r, int sym, size_t n, int shape)
{
    uint64_t max = sym == 2 ? 0xffffu : sym == 4 ? 0xffffffffu : UINT64_MAX;
    uint64_t pool[5];
    for (int i = 0; i < 5; i++) pool[i] = tu_next(r) & max;
    if (sym == 8 && tu_below(r, 2)) /* equal low 32 bits: only the high bytes tell them apart */
        for (int i = 1; i < 5; i++) pool[i] = (pool[i] & ~0xffffffffull) | (pool[0] & 0xffffffffu);
    void *t = tu_malloc(n * (size_t)sym + 8);
    int periodic = shape == 6; /* a short random period repeated: many passes */
    size_t period = 1 + tu_below(r, 5);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = periodic && i >= period ? get_at(t, sym, i - period)
                                             : draw(r, periodic ? 2 : shape, max, pool);
        put_at(t, sym, i, v);
    }
    return t;
}

static void edge_cases(void **state)
{
    (void)state;
    static const uint64_t vals[][4] = {
        {0, 0, 0, 0}, {UINT64_MAX, UINT64_MAX, UINT64_MAX, 0}, {0, UINT64_MAX, 0, UINT64_MAX},
        {5, 4, 3, 2}, {1, 0, 1, 0}, {7, 7, 0, 7},
        /* 64 bits only: values that agree in their low 32 bits, 2^63, 2^32 */
        {0x100000000ull, 0, 0x100000000ull, 0xffffffffull},
        {1ull << 63, (1ull << 63) - 1, 1ull << 63, UINT64_MAX}};
    for (int sym = 2; sym <= 8; sym *= 2)
        for (size_t v = 0; v < sizeof vals / sizeof *vals; v++)
            for (size_t n = 0; n <= 4; n++) {
                uint64_t t[4];
                for (size_t i = 0; i < 4; i++) put_at(t, sym, i, vals[v][i]);
                if (tu_small() && (v + n + (size_t)sym) % 7) continue; /* Oclgrind: a seventh */
                char what[64];
                snprintf(what, sizeof what, "edge %zu, u%d", v, 8 * sym);
                check(t, sym, n, (int)(v + n) % 2, 1, what);
            }
}

static void random_texts(void **state)
{
    (void)state;
    tu_rng r = {20261124};
    int count = tu_small() ? 6 : 300;
    for (int k = 0; k < count; k++) {
        int sym = 2 << (k % 3), shape = (k / 3) % 7;
        size_t n = tu_small() ? tu_below(&r, 150) : k % 50 == 49 ? 2000 + tu_below(&r, 4000)
                                                                 : tu_below(&r, 700);
        void *t = fill(&r, sym, n, shape);
        char what[64];
        snprintf(what, sizeof what, "random shape %d, u%d, seed step %d", shape, 8 * sym, k);
        check(t, sym, n, (k / 2) % 2, 1, what);
        free(t);
    }
}

/* 64-bit texts whose values all fit 32 bits, and the same text with each
 * value v replaced by an order-keeping spread v * 2^32 + (v ^ mask) (huge,
 * sparse): all three SAs must equal the 32-bit one. */
static void u64_against_u32(void **state)
{
    (void)state;
    tu_rng r = {6464};
    int count = (int)tu_size(12, 3);
    for (int k = 0; k < count; k++) {
        size_t n = tu_small() ? 200 : 3000 + tu_below(&r, 20000);
        uint32_t *t32 = fill(&r, 4, n, k % 7);
        uint64_t *a = tu_malloc(n * 8 + 8), *b = tu_malloc(n * 8 + 8);
        for (size_t i = 0; i < n; i++) {
            a[i] = t32[i];
            b[i] = ((uint64_t)t32[i] << 32) | (t32[i] >> 1);
        }
        int64_t *want = build(NULL, t32, 4, n, 1);
        char what[64];
        snprintf(what, sizeof what, "u64 vs u32, shape %d", k % 7);
        for (int index64 = 0; index64 <= 1; index64++) {
            if (tu_lean() && index64 != k % 2) continue; /* Oclgrind: one width a shape */
            int64_t *ga = build(ctx, a, 8, n, index64), *gb = build(ctx, b, 8, n, index64);
            int64_t *ha = build(NULL, b, 8, n, index64);
            expect_equal(ga, want, n, "device, values as they are", what);
            expect_equal(gb, want, n, "device, values spread", what);
            expect_equal(ha, want, n, "host, values spread", what);
            free(ga);
            free(gb);
            free(ha);
        }
        free(want);
        free(t32);
        free(a);
        free(b);
    }
}

static void u64_too_large(void **state)
{
    (void)state;
    uint64_t t[1] = {0};
    int64_t sa[1];
    clsa_status st = clsa_sa64_u64(ctx, t, sa, (int64_t)UINT32_MAX + 1);
    if (st != CLSA_ERR_TOO_LARGE) fail_msg("n = 2^32: status %d, expected TOO_LARGE", (int)st);
    st = clsa_sa64_u64(ctx, NULL, sa, 1);
    if (st != CLSA_ERR_INVALID_ARG) fail_msg("text NULL: status %d, expected INVALID_ARG", (int)st);
    TU_OK(ctx, clsa_sa64_u64(ctx, NULL, NULL, 0));
}

/* Larger texts, device against host: the device's radix sort over 16 and
 * 32 bits (and over the ranks of 64-bit symbols) and its doubling loop at
 * sizes the naive sort cannot check (under Oclgrind every shape at 1,500
 * symbols). */
static void large_texts(void **state)
{
    (void)state;
    tu_rng r = {77};
    size_t sizes[] = {tu_sizes(40000, 1500, 500), tu_size(150000, 3000)};
    for (int shape = 0; shape < 7; shape++)
        for (size_t i = 0; i < 2; i++) {
            if (i == 1 && (shape % 2 || tu_small())) continue;
            int sym = 2 << ((shape + (int)i) % 3);
            void *t = fill(&r, sym, sizes[i], shape);
            char what[64];
            snprintf(what, sizeof what, "large shape %d, u%d", shape, 8 * sym);
            check(t, sym, sizes[i], (int)i, 0, what);
            free(t);
        }
}

/* The initial sort's three routes agree with the host: packed codes
 * written over a copy of the text (zero_copy=0, what a GPU takes), into a
 * buffer of their own (zero_copy=1: the caller's text is only read), and
 * the unpacked start from one symbol (sa_path=8); plus a 16-bit text using
 * all 65,536 values, where the codes do not fit 16 bits (unpacked).  Also
 * direct mode forced (sa_path=512) and off on the unpacked start (136). */
static void initial_routes(void **state)
{
    (void)state;
    static const char *tunes[] = {"zero_copy=0", "zero_copy=1", "sa_path=8", "sa_path=512",
                                  "sa_path=136"};
    tu_rng r = {4242};
    size_t n = tu_small() ? 300 : 30000, nall = tu_small() ? 0 : 70000;
    void *texts[3] = {fill(&r, 2, n, 2), fill(&r, 4, n, 5), NULL};
    uint16_t *all = tu_malloc(nall * 2 + 2);
    for (size_t i = 0; i < nall; i++) all[i] = (uint16_t)((i * 40503u) ^ (i >> 16));
    texts[2] = all;
    void *copies[3];
    for (int k = 0; k < 3; k++) {
        size_t bytes = (k == 2 ? nall : n) * (k == 1 ? 4 : 2);
        copies[k] = tu_malloc(bytes + 1);
        memcpy(copies[k], texts[k], bytes);
    }
    const char *old = getenv("CLSA_TUNE");
    char *saved = old ? strdup(old) : NULL;
    for (int t = 0; t < 5; t++) {
        setenv("CLSA_TUNE", tunes[t], 1);
        clsa_context *c = tu_context();
        for (int k = 0; k < 3; k++) {
            size_t len = k == 2 ? nall : n;
            int sym = k == 1 ? 4 : 2;
            int64_t *want = build(NULL, texts[k], sym, len, 1);
            for (int index64 = 0; index64 <= 1; index64++) {
                /* Oclgrind: one width a text, both a route */
                if (tu_lean() && len && index64 != (t + k) % 2) continue;
                int64_t *got = build(c, texts[k], sym, len, index64);
                char what[96];
                snprintf(what, sizeof what, "%s, text %d, %d-bit", tunes[t], k, index64 ? 64 : 32);
                expect_equal(got, want, len, "device", what);
                free(got);
                if (memcmp(texts[k], copies[k], len * (size_t)sym))
                    fail_msg("%s: the caller's text was changed", what);
            }
            free(want);
        }
        clsa_destroy(c);
    }
    if (saved) setenv("CLSA_TUNE", saved, 1);
    else unsetenv("CLSA_TUNE");
    free(saved);
    for (int k = 0; k < 3; k++) {
        free(texts[k]);
        free(copies[k]);
    }
}

int main(void)
{
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edge_cases),
        cmocka_unit_test(random_texts),
        cmocka_unit_test(large_texts),
        cmocka_unit_test(u64_against_u32),
        cmocka_unit_test(u64_too_large),
        cmocka_unit_test(initial_routes),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
