/* The O(n) suffix array checker: accepts libdivsufsort's arrays, rejects
 * every kind of damage. */
#include "testutil.h"
#include "runtime.h"

#include <divsufsort.h>
#include <divsufsort64.h>

#include "gen.h"

static int check32(const uint8_t *t, const int32_t *sa, int64_t n)
{
    int valid = -1;
    char why[200];
    assert_int_equal(clsa_check_sa32(t, sa, n, &valid, why, sizeof why), CLSA_OK);
    if (!valid) assert_true(strlen(why) > 0);
    return valid;
}

/* The check split over `parts` threads gives the one-thread answer and
 * reason (the sequential walk's first failure). */
static void same_in_parts(const uint8_t *t, const void *sa, int64_t n, int index64)
{
    char one[200], many[200];
    int want = clsa__check_sa_parts(t, sa, n, index64, 1, one, sizeof one);
    for (unsigned parts = 2; parts <= 7; parts += parts < 4 ? 1 : 3) {
        assert_int_equal(clsa__check_sa_parts(t, sa, n, index64, parts, many, sizeof many), want);
        assert_string_equal(many, one);
    }
}

static void accepts_correct(void **state)
{
    (void)state;
    size_t lens[] = {1, 2, 3, 10, 100, 1000, 65536};
    unsigned sigmas[] = {1, 2, 4, 20, 95, 256};
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++)
        for (size_t s = 0; s < 6; s++)
            for (int kind = 0; kind < GEN_KIND_COUNT; kind++) {
                size_t n = lens[l];
                uint8_t *t = tu_malloc(n);
                int32_t *sa = tu_malloc(n * 4);
                int64_t *sa64 = tu_malloc(n * 8);
                gen_fill(t, n, (gen_kind)kind, kind == GEN_RANDOM ? sigmas[s] : 3, l * 7 + s);
                assert_int_equal(divsufsort(t, sa, (saidx_t)n), 0);
                assert_true(check32(t, sa, (int64_t)n));
                same_in_parts(t, sa, (int64_t)n, 0);
                for (size_t i = 0; i < n; i++) sa64[i] = sa[i];
                int valid = 0;
                assert_int_equal(clsa_check_sa64(t, sa64, (int64_t)n, &valid, NULL, 0), CLSA_OK);
                assert_true(valid);
                free(t);
                free(sa);
                free(sa64);
            }
}

/* Every single-swap, duplicate and out-of-range damage is caught. */
static void rejects_broken(void **state)
{
    (void)state;
    tu_rng r = {42};
    for (int round = 0; round < 300; round++) {
        size_t n = 2 + tu_below(&r, 300);
        uint8_t *t = tu_malloc(n);
        int32_t *sa = tu_malloc(n * 4);
        gen_fill(t, n, GEN_RANDOM, 1 + tu_below(&r, 4), (uint64_t)round);
        assert_int_equal(divsufsort(t, sa, (saidx_t)n), 0);
        size_t i = tu_below(&r, (uint32_t)n), j = tu_below(&r, (uint32_t)n);
        if (i == j) j = (i + 1) % n;
        switch (round % 4) {
        case 0: { int32_t x = sa[i]; sa[i] = sa[j]; sa[j] = x; break; }
        case 1: sa[i] = sa[j]; break;
        case 2: sa[i] = (int32_t)n + (int32_t)tu_below(&r, 5); break;
        case 3: sa[i] = -1 - (int32_t)tu_below(&r, 5); break;
        }
        assert_false(check32(t, sa, (int64_t)n));
        same_in_parts(t, sa, (int64_t)n, 0);
        int64_t *sa64 = tu_malloc(n * 8);
        for (size_t k = 0; k < n; k++) sa64[k] = sa[k];
        same_in_parts(t, sa64, (int64_t)n, 1);
        free(sa64);
        free(t);
        free(sa);
    }
}

/* An array large enough for the public call to split (2^20 entries a
 * thread): accepted, then each damage rejected with the one-thread reason. */
static void large_in_parts(void **state)
{
    (void)state;
    size_t n = 3000017;
    uint8_t *t = tu_malloc(n);
    int32_t *sa = tu_malloc(n * 4);
    gen_fill(t, n, GEN_RANDOM, 4, 77);
    assert_int_equal(divsufsort(t, sa, (saidx_t)n), 0);
    assert_true(check32(t, sa, (int64_t)n));
    size_t at[3] = {n - 5, n / 2 + 3, 1048577};
    for (int k = 0; k < 3; k++) {
        int32_t x = sa[at[k]];
        sa[at[k]] = sa[at[k] - 700];
        sa[at[k] - 700] = x;
        char one[200], why[200];
        int valid = 1;
        assert_int_equal(clsa_check_sa32(t, sa, (int64_t)n, &valid, why, sizeof why), CLSA_OK);
        assert_false(valid);
        assert_int_equal(clsa__check_sa_parts(t, sa, (int64_t)n, 0, 1, one, sizeof one), 0);
        assert_string_equal(why, one);
        sa[at[k] - 700] = sa[at[k]];
        sa[at[k]] = x;
    }
    free(t);
    free(sa);
}

/* Identity of a whole-array rotation, reversal: all wrong for non-trivial text. */
static void rejects_permutations(void **state)
{
    (void)state;
    const uint8_t *t = (const uint8_t *)"mississippi";
    int32_t sa[11];
    for (int i = 0; i < 11; i++) sa[i] = i;
    assert_false(check32(t, sa, 11));
    for (int i = 0; i < 11; i++) sa[i] = 10 - i;
    assert_false(check32(t, sa, 11));
    int32_t good[11] = {10, 7, 4, 1, 0, 9, 8, 6, 3, 5, 2};
    assert_true(check32(t, good, 11));
}

static void edge_cases(void **state)
{
    (void)state;
    int valid = 0;
    assert_int_equal(clsa_check_sa32(NULL, NULL, 0, &valid, NULL, 0), CLSA_OK);
    assert_true(valid);
    int32_t one = 0;
    assert_int_equal(clsa_check_sa32((const uint8_t *)"x", &one, 1, &valid, NULL, 0), CLSA_OK);
    assert_true(valid);
    assert_int_equal(clsa_check_sa32(NULL, &one, 1, &valid, NULL, 0), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_check_sa32((const uint8_t *)"x", &one, 1, NULL, NULL, 0),
                     CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_check_sa32((const uint8_t *)"x", &one, -1, &valid, NULL, 0),
                     CLSA_ERR_INVALID_ARG);
}

/* The host backend (ctx NULL) agrees with the checker on every generator. */
static void host_backend(void **state)
{
    (void)state;
    for (int kind = 0; kind < GEN_KIND_COUNT; kind++) {
        size_t n = 5000;
        uint8_t *t = tu_malloc(n);
        int32_t *sa = tu_malloc(n * 4);
        int64_t *sa64 = tu_malloc(n * 8);
        gen_fill(t, n, (gen_kind)kind, 4, 9);
        assert_int_equal(clsa_sa32(NULL, t, sa, (int64_t)n), CLSA_OK);
        assert_true(check32(t, sa, (int64_t)n));
        assert_int_equal(clsa_sa64(NULL, t, sa64, (int64_t)n), CLSA_OK);
        for (size_t i = 0; i < n; i++) assert_int_equal(sa64[i], sa[i]);
        free(t);
        free(sa);
        free(sa64);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepts_correct), cmocka_unit_test(rejects_broken),
        cmocka_unit_test(large_in_parts),
        cmocka_unit_test(rejects_permutations), cmocka_unit_test(edge_cases),
        cmocka_unit_test(host_backend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
