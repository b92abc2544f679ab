/* LCP range-minimum structure against brute force, on the device under test. */
#include "testutil.h"
#include "gen.h"

static clsa_context *ctx;

static void check_rmq(const int64_t *v, size_t n, int use64, uint64_t seed, size_t nq)
{
    tu_rng r = {seed};
    clsa_lcp_rmq *rmq = NULL;
    if (use64) {
        TU_OK(ctx, clsa_lcp_rmq_create64(ctx, v, (int64_t)n, &rmq));
    } else {
        int32_t *v32 = tu_malloc(n * 4);
        for (size_t i = 0; i < n; i++) v32[i] = (int32_t)v[i];
        TU_OK(ctx, clsa_lcp_rmq_create32(ctx, v32, (int64_t)n, &rmq));
        free(v32);
    }
    int64_t *a = tu_malloc(nq * 8), *b = tu_malloc(nq * 8), *out = tu_malloc(nq * 8);
    for (size_t q = 0; q < nq; q++) {
        /* Short, block-crossing and long ranges, and the edges. */
        a[q] = tu_below(&r, (uint32_t)n);
        size_t span = q % 3 == 0 ? tu_below(&r, 40) : tu_below(&r, (uint32_t)n);
        b[q] = a[q] + (int64_t)span < (int64_t)n ? a[q] + (int64_t)span : (int64_t)n - 1;
        if (q == 0) {
            a[q] = 0;
            b[q] = (int64_t)n - 1;
        }
    }
    TU_OK(ctx, clsa_lcp_rmq_min(rmq, a, b, nq, out));
    for (size_t q = 0; q < nq; q++) {
        int64_t m = v[a[q]];
        for (int64_t i = a[q]; i <= b[q]; i++) m = v[i] < m ? v[i] : m;
        if (out[q] != m)
            fail_msg("n=%zu min[%lld, %lld] = %lld, want %lld", n, (long long)a[q],
                     (long long)b[q], (long long)out[q], (long long)m);
    }
    /* lcp form: ranks in either order, equal ranks give -1. */
    for (size_t q = 0; q < nq; q++)
        if (q % 2) {
            int64_t t = a[q];
            a[q] = b[q];
            b[q] = t;
        }
    TU_OK(ctx, clsa_lcp_rmq_lcp(rmq, a, b, nq, out));
    for (size_t q = 0; q < nq; q++) {
        int64_t lo = a[q] < b[q] ? a[q] : b[q], hi = a[q] < b[q] ? b[q] : a[q];
        int64_t m = -1;
        if (lo != hi) {
            m = v[lo + 1];
            for (int64_t i = lo + 1; i <= hi; i++) m = v[i] < m ? v[i] : m;
        }
        if (out[q] != m)
            fail_msg("n=%zu lcp(%lld, %lld) = %lld, want %lld", n, (long long)a[q],
                     (long long)b[q], (long long)out[q], (long long)m);
    }
    free(a);
    free(b);
    free(out);
    clsa_lcp_rmq_free(rmq);
}

static void rmq_random(void **state)
{
    (void)state;
    size_t sizes[] = {1, 2, 31, 32, 33, 64, 65, 1000, 4097, 100000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        if (tu_small() && n > 2000) continue;
        tu_rng r = {s + 1};
        int64_t *v = tu_malloc(n * 8);
        for (size_t i = 0; i < n; i++)
            v[i] = s % 3 == 0 ? tu_below(&r, 4) : s % 3 == 1 ? tu_below(&r, 1000000) : (int64_t)(n - i);
        check_rmq(v, n, (int)(s % 2), 10 + s, tu_small() ? 60 : 3000);
        free(v);
    }
}

/* Real LCP arrays of generated texts (repetitive ones have long plateaus). */
static void rmq_lcp_arrays(void **state)
{
    (void)state;
    size_t n = tu_small() ? 300 : 20000;
    gen_kind kinds[] = {GEN_RANDOM, GEN_ALL_EQUAL, GEN_FIBONACCI, GEN_MUTATED};
    for (size_t k = 0; k < 4; k++) {
        uint8_t *t = tu_malloc(n);
        gen_fill(t, n, kinds[k], kinds[k] == GEN_MUTATED ? 100 : 4, 50 + k);
        int32_t *sa = tu_malloc(n * 4);
        TU_OK(ctx, clsa_sa32(NULL, t, sa, (int64_t)n));
        int64_t *lcp = tu_malloc(n * 8);
        int32_t *rank = tu_malloc(n * 4);
        for (size_t i = 0; i < n; i++) rank[sa[i]] = (int32_t)i;
        int64_t h = 0; /* Kasai */
        lcp[0] = 0;
        for (size_t i = 0; i < n; i++) {
            if (rank[i] > 0) {
                size_t j = (size_t)sa[rank[i] - 1];
                while (i + h < n && j + h < n && t[i + h] == t[j + h]) h++;
                lcp[rank[i]] = h;
                if (h > 0) h--;
            } else {
                h = 0;
            }
        }
        check_rmq(lcp, n, (int)(k % 2), 70 + k, tu_small() ? 50 : 2000);
        free(t);
        free(sa);
        free(lcp);
        free(rank);
    }
}

static void rmq_bad_args(void **state)
{
    (void)state;
    int32_t v[4] = {3, 1, 2, 0};
    clsa_lcp_rmq *rmq = NULL;
    assert_int_equal(clsa_lcp_rmq_create32(ctx, v, 0, &rmq), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_lcp_rmq_create32(ctx, NULL, 4, &rmq), CLSA_ERR_INVALID_ARG);
    int32_t neg[2] = {1, -1};
    assert_int_equal(clsa_lcp_rmq_create32(ctx, neg, 2, &rmq), CLSA_ERR_INVALID_ARG);
    TU_OK(ctx, clsa_lcp_rmq_create32(ctx, v, 4, &rmq));
    int64_t a = 2, b = 1, out;
    assert_int_equal(clsa_lcp_rmq_min(rmq, &a, &b, 1, &out), CLSA_ERR_INVALID_ARG);
    b = 4;
    assert_int_equal(clsa_lcp_rmq_lcp(rmq, &a, &b, 1, &out), CLSA_ERR_INVALID_ARG);
    b = 3;
    TU_OK(ctx, clsa_lcp_rmq_lcp(rmq, &a, &b, 1, &out));
    assert_int_equal(out, 0);
    clsa_lcp_rmq_free(rmq);
    clsa_lcp_rmq_free(NULL);
}

int main(void)
{
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rmq_random),
        cmocka_unit_test(rmq_lcp_arrays),
        cmocka_unit_test(rmq_bad_args),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
