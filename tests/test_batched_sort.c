/* Batched sort of many arrays against a stable CPU sort: equal and varied
 * lengths (some past R1 and R2, so the merge and radix paths run too), u32
 * and f32 keys (signed zeros, negatives, infinities, NaNs), with and
 * without values.  Stability is part of the contract: values are the
 * original positions and must come out in the stable order. */
#include "testutil.h"

#include <math.h>

typedef struct rec { uint32_t k, v; } rec;

static uint32_t order_bits(uint32_t k, int is_float)
{
    if (!is_float) return k;
    return k ^ ((k >> 31) ? 0xFFFFFFFFu : 0x80000000u);
}

static int g_float;
static int cmp_rec(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    uint32_t kx = order_bits(x->k, g_float), ky = order_bits(y->k, g_float);
    if (kx != ky) return kx < ky ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v; /* v = original position: stable */
}

static uint32_t float_key(tu_rng *r)
{
    static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, 1.0f, -1.0f, 1e-38f, -1e-38f};
    float f;
    uint32_t u = tu_below(r, 10);
    if (u < 3) f = special[tu_below(r, 8)];
    else f = (float)((double)(int32_t)tu_next(r) / 65536.0);
    uint32_t b;
    memcpy(&b, &f, 4);
    if (tu_below(r, 200) == 0) b = tu_below(r, 2) ? 0x7FC00001u : 0xFFC00002u; /* NaNs */
    return b;
}

static void check_batch(clsa_context *ctx, const uint64_t *starts, size_t narrays, int is_float,
                        int with_values, int equal, uint64_t seed, int dist)
{
    tu_rng r = {seed};
    size_t n = starts[narrays];
    uint32_t *k = tu_malloc(n * 4), *v = tu_malloc(n * 4);
    rec *ref = tu_malloc(n * sizeof(rec));
    for (size_t i = 0; i < n; i++) {
        uint32_t key;
        if (is_float) key = float_key(&r);
        else if (dist == 1) key = (tu_next(&r) & 1) ? 9u : 5u;             /* two distinct */
        else if (dist == 2) key = (uint32_t)(n - i);                    /* reversed */
        else if (dist == 3) key = (tu_below(&r, 4)) << 30;             /* high bits only */
        else key = (uint32_t)tu_next(&r);
        k[i] = key;
        v[i] = (uint32_t)i;
        ref[i] = (rec){key, (uint32_t)i};
    }
    g_float = is_float;
    for (size_t a = 0; a < narrays; a++)
        qsort(ref + starts[a], starts[a + 1] - starts[a], sizeof(rec), cmp_rec);
    if (equal) {
        size_t len = narrays ? starts[1] : 0;
        TU_OK(ctx, clsa_batched_sort_equal_u32(ctx, k, with_values ? v : NULL, narrays, len));
    } else if (is_float) {
        TU_OK(ctx, clsa_batched_sort_f32(ctx, (float *)(void *)k, with_values ? v : NULL, starts,
                                         narrays));
    } else {
        TU_OK(ctx, clsa_batched_sort_u32(ctx, k, with_values ? v : NULL, starts, narrays));
    }
    for (size_t i = 0; i < n; i++) {
        if (k[i] != ref[i].k)
            fail_msg("narrays=%zu float=%d values=%d dist=%d: key[%zu]=%08x want %08x", narrays,
                     is_float, with_values, dist, i, k[i], ref[i].k);
        if (with_values && v[i] != ref[i].v)
            fail_msg("narrays=%zu float=%d dist=%d: value[%zu]=%u want %u (unstable?)", narrays,
                     is_float, dist, i, v[i], ref[i].v);
    }
    free(k);
    free(v);
    free(ref);
}

static uint64_t *equal_starts(size_t narrays, size_t len)
{
    uint64_t *s = tu_malloc((narrays + 1) * 8);
    for (size_t a = 0; a <= narrays; a++) s[a] = a * len;
    return s;
}

/* rusticl (llvmpipe) runs kernels slowly: fewer arrays there, of the same
 * lengths (each length class still takes its path: bitonic up to R1, the
 * merge past it, the radix sort past R2). */
static int slow_impl(void)
{
    const char *dev = getenv("CLSA_DEVICE");
    return dev && strstr(dev, "rusticl");
}

static void equal_lengths(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context();
    size_t lens[] = {1, 2, 3, 7, 32, 100, 1000, 1024, 1500};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        size_t na = tu_small() ? 3 : lens[i] >= 1000 ? 300 : slow_impl() ? 1000 : 5000;
        if (tu_small() && lens[i] > 100) continue;
        uint64_t *s = equal_starts(na, lens[i]);
        check_batch(ctx, s, na, 0, 1, 1, i, 0);
        check_batch(ctx, s, na, 0, 0, 1, i + 50, 1);
        check_batch(ctx, s, na, 1, 1, 0, i + 100, 0);
        free(s);
    }
    clsa_destroy(ctx);
}

/* Varied lengths including empty arrays and, with small thresholds, arrays
 * that take the merge and radix paths. */
static void varied_lengths(void **state)
{
    (void)state;
    for (int th = 0; th < 2; th++) {
        /* th: small thresholds (R1 = 64, R2 = 4096; 1024 under Oclgrind)
         * so arrays past R1 and R2 are cheap to make. */
        const char *tune = tu_small() ? "r1=64,r2=1024" : "r1=64,r2=4096";
        if (th) setenv("CLSA_TUNE", tune, 1);
        clsa_context *ctx = tu_context();
        unsetenv("CLSA_TUNE");
        for (int dist = 0; dist < 4; dist++)
            for (int fl = 0; fl < 2; fl++) {
                if (fl && dist) continue;
                if (tu_small() && !th) continue;
                tu_rng r = {7 + (uint64_t)dist};
                size_t na = tu_size(slow_impl() ? 1500 : 3000, 12);
                uint64_t *s = tu_malloc((na + 1) * 8);
                s[0] = 0;
                for (size_t a = 0; a < na; a++) {
                    uint32_t u = tu_below(&r, 100);
                    size_t len = u < 10 ? 0 : u < 70 ? tu_below(&r, 64) : u < 99 ? tu_below(&r, 2000)
                                                                              : tu_below(&r, 6000);
                    if (tu_small()) len = tu_below(&r, u < 90 ? 40 : 1500);
                    s[a + 1] = s[a] + len;
                }
                if (tu_small()) {
                    clsa_destroy(ctx);
                    setenv("CLSA_TUNE", tune, 1);
                    ctx = tu_context();
                    unsetenv("CLSA_TUNE");
                }
                check_batch(ctx, s, na, fl, 1, 0, 1000 + dist, dist);
                if (!tu_small()) check_batch(ctx, s, na, fl, 0, 0, 2000 + dist, dist);
                free(s);
            }
        clsa_destroy(ctx);
    }
}

static void edge_cases(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context();
    uint64_t z[2] = {0, 0};
    TU_OK(ctx, clsa_batched_sort_u32(ctx, NULL, NULL, z, 0));
    TU_OK(ctx, clsa_batched_sort_u32(ctx, NULL, NULL, z, 1));
    uint64_t bad[3] = {0, 5, 3};
    uint32_t k[5] = {0};
    assert_int_equal(clsa_batched_sort_u32(ctx, k, NULL, bad, 2), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_batched_sort_u32(ctx, k, NULL, NULL, 2), CLSA_ERR_INVALID_ARG);
    clsa_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edge_cases),
        cmocka_unit_test(equal_lengths),
        cmocka_unit_test(varied_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
