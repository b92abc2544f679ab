/* Longest common substring against a dynamic-programming reference, on
 * inputs over every alphabet size including all 256 byte values. */
#include "testutil.h"
#include "gen.h"

static clsa_context *ctx;

/* O(na * nb) reference: the maximum length, then the smallest start in a,
 * then the smallest start in b among pairs of that length. */
static void reference(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, int64_t *len,
                      int64_t *pa, int64_t *pb)
{
    uint32_t *prev = calloc(nb + 1, 4), *cur = calloc(nb + 1, 4);
    assert_non_null(prev);
    assert_non_null(cur);
    int64_t L = 0, ba = 0, bb = 0;
    for (size_t i = 0; i < na; i++) {
        for (size_t j = 0; j < nb; j++) {
            cur[j + 1] = a[i] == b[j] ? prev[j] + 1 : 0;
            int64_t l = cur[j + 1];
            if (l == 0) continue;
            int64_t sa = (int64_t)i - l + 1, sb = (int64_t)j - l + 1;
            if (l > L || (l == L && (sa < ba || (sa == ba && sb < bb)))) {
                L = l;
                ba = sa;
                bb = sb;
            }
        }
        uint32_t *t = prev;
        prev = cur;
        cur = t;
    }
    free(prev);
    free(cur);
    *len = L;
    *pa = L ? ba : 0;
    *pb = L ? bb : 0;
}

static void check(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, const char *what)
{
    int64_t L, pa, pb, wl, wa, wb;
    TU_OK(ctx, clsa_lcs(ctx, a, (int64_t)na, b, (int64_t)nb, &L, &pa, &pb));
    reference(a, na, b, nb, &wl, &wa, &wb);
    if (L != wl || pa != wa || pb != wb)
        fail_msg("%s (na=%zu nb=%zu): got length=%lld a=%lld b=%lld, want %lld %lld %lld", what,
                 na, nb, (long long)L, (long long)pa, (long long)pb, (long long)wl,
                 (long long)wa, (long long)wb);
}

static void lcs_generated(void **state)
{
    (void)state;
    static const struct {
        gen_kind kind;
        unsigned param;
    } kinds[] = {{GEN_RANDOM, 2},   {GEN_RANDOM, 4},    {GEN_RANDOM, 20},
                 {GEN_RANDOM, 256}, {GEN_ALL_EQUAL, 0}, {GEN_PERIODIC, 3},
                 {GEN_FIBONACCI, 0}, {GEN_THUE_MORSE, 0}, {GEN_MUTATED, 64}};
    size_t sizes[][2] = {{1, 1}, {1, 5}, {7, 3}, {40, 40}, {100, 37}, {600, 900}, {1500, 1400}};
    size_t nsizes = tu_small() ? 5 : sizeof sizes / sizeof *sizes;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
        for (size_t s = 0; s < nsizes; s++) {
            /* Oclgrind: a few cases (each runs the whole SA pipeline). */
            if (tu_small() && (k % 3 != 0 || s % 2 != 0)) continue;
            size_t na = sizes[s][0], nb = sizes[s][1];
            uint8_t *a = tu_malloc(na), *b = tu_malloc(nb);
            gen_fill(a, na, kinds[k].kind, kinds[k].param, 500 + k * 13 + s);
            gen_fill(b, nb, kinds[k].kind, kinds[k].param, 900 + k * 17 + s);
            check(a, na, b, nb, gen_name(kinds[k].kind));
            /* b holding a piece of a, so that a long match exists. */
            if (nb > 10 && na > 20) {
                size_t len = na / 2 < nb / 2 ? na / 2 : nb / 2;
                memcpy(b + nb / 3, a + na / 5, len < nb - nb / 3 ? len : nb - nb / 3);
                check(a, na, b, nb, "planted");
            }
            free(a);
            free(b);
        }
}

/* Every byte value in both inputs, matches running into the a/b boundary
 * (the case a separator byte would get wrong). */
static void lcs_all_bytes(void **state)
{
    (void)state;
    /* 260 bytes: every value occurs in both (Oclgrind: keep it small). */
    size_t n = tu_small() ? 260 : 600;
    uint8_t a[600], b[600];
    for (size_t i = 0; i < n; i++) {
        a[i] = (uint8_t)(i * 7);
        b[i] = (uint8_t)(255 - i);
    }
    check(a, n, b, n, "all bytes");
    /* a ends with the start of b: the suffix of a reaches into b in a + b. */
    for (size_t i = 0; i < n / 2; i++) b[i] = (uint8_t)(i * 13 + 1);
    memcpy(a + n - 10, b, 10);
    check(a, n, b, n, "end of a = start of b");
    /* a's last bytes continue into b: a = ...xy, b = xyxy... */
    uint8_t c[8] = {0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF};
    check(c, 3, c + 1, 7, "0x00 0xFF boundary");
    check(c, 8, c, 8, "equal");
    uint8_t z[5] = {0, 0, 0, 0, 0};
    check(z, 2, z, 5, "zeros");
}

static void lcs_empty_and_args(void **state)
{
    (void)state;
    int64_t L = 9, pa = 9, pb = 9;
    uint8_t x = 1;
    TU_OK(ctx, clsa_lcs(ctx, NULL, 0, &x, 1, &L, &pa, &pb));
    assert_int_equal(L, 0);
    assert_int_equal(pa, 0);
    TU_OK(ctx, clsa_lcs(ctx, &x, 1, NULL, 0, &L, &pa, &pb));
    assert_int_equal(L, 0);
    uint8_t y = 2;
    TU_OK(ctx, clsa_lcs(ctx, &x, 1, &y, 1, &L, &pa, &pb));
    assert_int_equal(L, 0);
    assert_int_equal(clsa_lcs(ctx, NULL, 3, &x, 1, &L, &pa, &pb), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_lcs(ctx, &x, 1, &x, 1, NULL, &pa, &pb), CLSA_ERR_INVALID_ARG);
    /* Host path (NULL context) gives the same answer. */
    uint8_t a[6] = {1, 2, 3, 4, 5, 6}, b[4] = {9, 3, 4, 5};
    TU_OK(NULL, clsa_lcs(NULL, a, 6, b, 4, &L, &pa, &pb));
    assert_int_equal(L, 3);
    assert_int_equal(pa, 2);
    assert_int_equal(pb, 1);
}

int main(void)
{
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lcs_all_bytes),
        cmocka_unit_test(lcs_generated),
        cmocka_unit_test(lcs_empty_and_args),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
