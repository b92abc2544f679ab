/* BWT of 16-, 32- and 64-bit symbol texts (clsa_bwt_u16 ... _u64) on the
 * device and the host backend against a naive construction (qsort of the
 * suffixes, then the divbwt gather) on generated texts with fixed seeds:
 * n = 0, 1, 2, all-equal, random over small and full ranges (0 and the
 * type's maximum included), periodic.  Every result goes back through
 * clsa_unbwt_u16 ... _u64, also in place; garbage inputs must not crash. */
#include "sym_util.h"

static clsa_context *ctx;

/* Naive BWT in the divbwt convention: returns the primary index. */
static int64_t naive_bwt(const void *text, int sym, size_t n, void *bwt)
{
    if (n == 0) return 0;
    int64_t *sa = naive_sa(text, sym, n);
    int64_t primary = -1;
    size_t k = 1;
    put_at(bwt, sym, 0, get_at(text, sym, n - 1));
    for (size_t i = 0; i < n; i++) {
        if (sa[i] == 0) primary = (int64_t)i + 1;
        else put_at(bwt, sym, k++, get_at(text, sym, (size_t)sa[i] - 1));
    }
    free(sa);
    return primary;
}

static clsa_status call_bwt(clsa_context *c, const void *t, int sym, void *b, size_t n,
                            int64_t *p)
{
    return sym == 2   ? clsa_bwt_u16(c, t, b, (int64_t)n, p)
           : sym == 4 ? clsa_bwt_u32(c, t, b, (int64_t)n, p)
                      : clsa_bwt_u64(c, t, b, (int64_t)n, p);
}

static clsa_status call_unbwt(clsa_context *c, const void *b, int sym, void *t, size_t n,
                              int64_t p)
{
    return sym == 2   ? clsa_unbwt_u16(c, b, t, (int64_t)n, p)
           : sym == 4 ? clsa_unbwt_u32(c, b, t, (int64_t)n, p)
                      : clsa_unbwt_u64(c, b, t, (int64_t)n, p);
}

static uint64_t type_max(int sym)
{
    return sym == 2 ? UINT16_MAX : sym == 4 ? UINT32_MAX : UINT64_MAX;
}

enum { ALL_EQUAL, SMALL_RANGE, EXTREMES, FULL_RANGE, PERIODIC, NKINDS };
static const char *kind_name[NKINDS] = {"all-equal", "small range", "0/max", "full range",
                                        "periodic"};

/* A text of the given kind; the symbol values always include 0 or the
 * type's maximum (those are the ones a sentinel would collide with). */
static void *make_text(int kind, int sym, size_t n, tu_rng *r)
{
    void *t = tu_malloc(n * (size_t)sym);
    uint64_t max = type_max(sym), period = 1 + tu_below(r, 7);
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        switch (kind) {
        case ALL_EQUAL: v = max; break;
        case SMALL_RANGE: v = tu_below(r, 3) == 0 ? 0 : max - tu_below(r, 3); break;
        case EXTREMES: v = tu_below(r, 2) ? max : 0; break;
        case FULL_RANGE: v = tu_next(r) & max; break;
        default: v = (i % period) == 0 ? max : (i % period) * 0x0101010101010101ull & max; break;
        }
        put_at(t, sym, i, v);
    }
    return t;
}

static void check_one(clsa_context *c, const void *text, int sym, size_t n, const char *what)
{
    size_t bytes = n * (size_t)sym;
    void *want = tu_malloc(bytes), *got = tu_malloc(bytes), *back = tu_malloc(bytes);
    int64_t wantp = naive_bwt(text, sym, n, want), gotp = -7;
    memset(got, 0x5A, bytes);
    TU_OK(c, call_bwt(c, text, sym, got, n, &gotp));
    const char *who = c ? "device" : "host";
    clsa_stats stats;
    if (c && n && (clsa_get_stats(c, &stats) || stats.last_backend != CLSA_BACKEND_DEVICE))
        fail_msg("bwt_u%d, %s n=%zu: did not run on the device", 8 * sym, what, n);
    if (gotp != wantp)
        fail_msg("bwt_u%d %s, %s n=%zu: primary %lld, naive %lld", 8 * sym, who, what, n,
                 (long long)gotp, (long long)wantp);
    if (n && memcmp(got, want, bytes))
        fail_msg("bwt_u%d %s, %s n=%zu: BWT differs from the naive one", 8 * sym, who, what, n);
    memset(back, 0x5A, bytes);
    TU_OK(c, call_unbwt(c, got, sym, back, n, gotp));
    if (n && memcmp(back, text, bytes))
        fail_msg("unbwt_u%d %s, %s n=%zu: not the text", 8 * sym, who, what, n);
    TU_OK(c, call_unbwt(c, got, sym, got, n, gotp)); /* in place */
    if (n && memcmp(got, text, bytes))
        fail_msg("unbwt_u%d in place %s, %s n=%zu: not the text", 8 * sym, who, what, n);
    free(want);
    free(got);
    free(back);
}

static void differential(void **state)
{
    (void)state;
    static const int syms[3] = {2, 4, 8};
    size_t big = tu_size(3000, 150);
    const size_t sizes[] = {0, 1, 2, 3, 17, big};
    tu_rng r = {2024};
    for (int s = 0; s < 3; s++)
        for (int kind = 0; kind < NKINDS; kind++)
            for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
                /* Oclgrind: every width and size, the kinds in turn: one a size
                 * below the largest, two at it (every kind over the widths) */
                if (tu_lean() && (sizes[z] < big ? (size_t)kind != (s + z) % NKINDS
                                                 : kind != 2 * s % NKINDS && kind != (2 * s + 1) % NKINDS))
                    continue;
                void *text = make_text(kind, syms[s], sizes[z], &r);
                check_one(ctx, text, syms[s], sizes[z], kind_name[kind]);
                check_one(NULL, text, syms[s], sizes[z], kind_name[kind]);
                free(text);
            }
}

/* Inverses of arrays that are no BWT of anything (several LF cycles):
 * any symbols back, no crash (sanitizer and Oclgrind runs check bounds). */
static void unbwt_garbage(void **state)
{
    (void)state;
    tu_rng r = {99};
    for (int k = 0; k < 12; k++) {
        int sym = k % 3 == 0 ? 2 : k % 3 == 1 ? 4 : 8;
        size_t n = 1 + tu_below(&r, 500);
        void *b = tu_malloc(n * (size_t)sym), *t = tu_malloc(n * (size_t)sym);
        for (size_t i = 0; i < n; i++) put_at(b, sym, i, tu_below(&r, k < 6 ? 2 : 1000));
        int64_t p = 1 + tu_below(&r, (uint32_t)n);
        TU_OK(NULL, call_unbwt(NULL, b, sym, t, n, p));
        free(b);
        free(t);
    }
}

static void bad_arguments(void **state)
{
    (void)state;
    uint32_t a[2] = {1, 2}, b[2];
    int64_t p = 5;
    assert_int_equal(clsa_bwt_u32(ctx, a, b, 2, NULL), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_bwt_u32(ctx, NULL, b, 2, &p), CLSA_ERR_INVALID_ARG);
    assert_int_equal(p, 0);
    assert_int_equal(clsa_bwt_u32(ctx, a, b, -1, &p), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_bwt_u16(ctx, (uint16_t *)a, (uint16_t *)b, (int64_t)1 << 32, &p),
                     CLSA_ERR_TOO_LARGE);
    TU_OK(ctx, clsa_bwt_u64(ctx, NULL, NULL, 0, &p));
    assert_int_equal(p, 0);
    assert_int_equal(clsa_unbwt_u32(ctx, a, b, 2, 0), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_unbwt_u32(ctx, a, b, 2, 3), CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(clsa_last_error(ctx), "1..2"));
    assert_int_equal(clsa_unbwt_u32(ctx, a, b, 0, 1), CLSA_ERR_INVALID_ARG);
    TU_OK(ctx, clsa_unbwt_u32(ctx, NULL, NULL, 0, 0));
    assert_int_equal(clsa_unbwt_u64(NULL, NULL, (uint64_t *)b, 1, 1), CLSA_ERR_INVALID_ARG);
}

int main(void)
{
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(differential),
        cmocka_unit_test(unbwt_garbage),
        cmocka_unit_test(bad_arguments),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
