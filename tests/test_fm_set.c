/* FM-index over a set of strings (clsa_fm_set_*): counts and (string,
 * offset) occurrences against a naive search of each string, on generated
 * sets with fixed seeds: small alphabets (a separator byte is free), sets
 * that use all 256 byte values (no byte is free: occurrences across string
 * ends must be dropped), empty strings, k = 1, patterns taken from the
 * strings, patterns that span the end of one string and the start of the
 * next, random and empty patterns, patterns holding bytes absent from the
 * set; several sampling rates.  Bad arguments must fail cleanly. */
#include "set_util.h"

static clsa_context *ctx;

static void check(const bset *g, int64_t rate, tu_rng *r, size_t np, const char *what)
{
    clsa_fm_set *set = NULL;
    TU_OK(ctx, clsa_fm_set_create(ctx, g->text, g->len, g->k, rate, &set));
    int64_t k, total;
    TU_OK(ctx, clsa_fm_set_info(set, &k, &total, NULL));
    assert_true(k == g->k && total == g->total);
    uint64_t *offsets = tu_malloc((np + 1) * 8), *counts = tu_malloc(np * 8 + 8);
    uint64_t *starts = tu_malloc((np + 1) * 8);
    uint8_t *pats = make_patterns(r, g, np, offsets);
    int64_t *str = NULL, *pos = NULL;
    TU_OK(ctx, clsa_fm_set_count(set, pats, offsets, np, counts));
    TU_OK(ctx, clsa_fm_set_locate(set, pats, offsets, np, 0, starts, &str, &pos));
    int64_t *ws = tu_malloc((size_t)g->total * 8 + 8), *wo = tu_malloc((size_t)g->total * 8 + 8);
    for (size_t p = 0; p < np; p++) {
        uint64_t len = offsets[p + 1] - offsets[p];
        size_t want = naive(g, pats + offsets[p], len, ws, wo);
        if (counts[p] != want || starts[p + 1] - starts[p] != want)
            fail_msg("%s, pattern %zu (%llu bytes): count %llu, located %llu, naive %zu", what,
                     p, (unsigned long long)len, (unsigned long long)counts[p],
                     (unsigned long long)(starts[p + 1] - starts[p]), want);
        for (size_t i = 0; i < want; i++)
            if (str[starts[p] + i] != ws[i] || pos[starts[p] + i] != wo[i])
                fail_msg("%s, pattern %zu: occurrence %zu at (%lld, %lld), naive (%lld, %lld)",
                         what, p, i, (long long)str[starts[p] + i], (long long)pos[starts[p] + i],
                         (long long)ws[i], (long long)wo[i]);
    }
    clsa_fm_positions_free(str);
    clsa_fm_positions_free(pos);
    clsa_fm_set_free(set);
    free(ws);
    free(wo);
    free(offsets);
    free(counts);
    free(starts);
    free(pats);
}

static void random_sets(void **state)
{
    (void)state;
    tu_rng r = {3141};
    int count = (int)tu_size(60, 3);
    int64_t rates[] = {1, 4, 32};
    for (int i = 0; i < count; i++) {
        int shape = i % 3;
        int64_t k = i % 10 == 0 ? 1 : 1 + tu_below(&r, tu_small() ? 5 : 40);
        bset g = gen(&r, shape, k, tu_small() ? 20 : i % 15 == 14 ? 2000 : 60);
        char what[80];
        snprintf(what, sizeof what, "set %d: shape %d, k %lld, total %lld", i, shape,
                 (long long)k, (long long)g.total);
        check(&g, rates[i % 3], &r, tu_small() ? 20 : 150, what);
        free_set(&g);
    }
}

/* No strings, only empty strings: nothing occurs, not even the empty pattern. */
static void empty_sets(void **state)
{
    (void)state;
    int64_t zeros[3] = {0, 0, 0};
    for (int64_t k = 0; k <= 3; k++) {
        clsa_fm_set *set = NULL;
        TU_OK(ctx, clsa_fm_set_create(ctx, NULL, k ? zeros : NULL, k, 0, &set));
        const uint8_t pat[1] = {'A'};
        uint64_t off[3] = {0, 0, 1}, counts[2] = {9, 9}, starts[3];
        int64_t *str = (int64_t *)1, *pos = (int64_t *)1;
        TU_OK(ctx, clsa_fm_set_count(set, pat, off, 2, counts));
        assert_true(counts[0] == 0 && counts[1] == 0);
        TU_OK(ctx, clsa_fm_set_locate(set, pat, off, 2, 0, starts, &str, &pos));
        assert_true(starts[2] == 0 && str == NULL && pos == NULL);
        clsa_fm_set_free(set);
    }
}

static void bad_arguments(void **state)
{
    (void)state;
    const uint8_t text[4] = {1, 2, 3, 4};
    int64_t len2[2] = {2, 2}, neg[2] = {2, -1};
    clsa_fm_set *set = NULL;
    const clsa_status A = CLSA_ERR_INVALID_ARG;
    assert_int_equal(clsa_fm_set_create(ctx, text, len2, 2, 0, NULL), A);
    assert_int_equal(clsa_fm_set_create(ctx, text, neg, 2, 0, &set), A);
    assert_int_equal(clsa_fm_set_create(ctx, NULL, len2, 2, 0, &set), A);
    assert_int_equal(clsa_fm_set_create(ctx, text, NULL, 2, 0, &set), A);
    assert_int_equal(clsa_fm_set_create(ctx, text, len2, -1, 0, &set), A);
    assert_null(set);
    assert_int_equal(clsa_fm_set_create(NULL, text, len2, 2, 0, &set), A); /* needs a device */
    TU_OK(ctx, clsa_fm_set_create(ctx, text, len2, 2, 0, &set));
    uint64_t off[2] = {2, 1}, counts[1], starts[2];
    int64_t *str, *pos;
    assert_int_equal(clsa_fm_set_count(set, text, off, 1, counts), A); /* decreasing */
    assert_int_equal(clsa_fm_set_count(set, text, NULL, 1, counts), A);
    off[0] = 0;
    assert_int_equal(clsa_fm_set_count(set, NULL, off, 1, counts), A);
    assert_int_equal(clsa_fm_set_count(set, text, off, 1, NULL), A);
    assert_int_equal(clsa_fm_set_locate(set, text, off, 1, 0, starts, NULL, &pos), A);
    assert_int_equal(clsa_fm_set_locate(NULL, text, off, 1, 0, starts, &str, &pos), A);
    /* max_total */
    const uint8_t one[1] = {1};
    uint64_t o1[2] = {0, 1};
    TU_OK(ctx, clsa_fm_set_locate(set, one, o1, 1, 0, starts, &str, &pos));
    assert_true(starts[1] == 1 && str[0] == 0 && pos[0] == 0);
    clsa_fm_positions_free(str);
    clsa_fm_positions_free(pos);
    const uint8_t none[1] = {0};
    uint64_t o0[2] = {0, 0};
    assert_int_equal(clsa_fm_set_locate(set, none, o0, 1, 3, starts, &str, &pos),
                     CLSA_ERR_TOO_LARGE); /* the empty pattern: 4 occurrences */
    assert_int_equal(clsa_fm_set_info(NULL, NULL, NULL, NULL), A);
    clsa_fm_set_free(set);
    clsa_fm_set_free(NULL);
}

int main(void)
{
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_sets),
        cmocka_unit_test(empty_sets),
        cmocka_unit_test(bad_arguments),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
