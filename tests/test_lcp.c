/* LCP array on the device under test against Kasai on the host. */
#include "index_cases.h"
#include "runtime.h"

#include <time.h>

static clsa_context *ctx;

/* Plain Kasai over 64-bit values: the reference. */
static void kasai(const uint8_t *t, const int64_t *sa, int64_t *lcp, size_t n)
{
    int64_t *rank = tu_malloc(n * 8);
    for (size_t i = 0; i < n; i++) rank[sa[i]] = (int64_t)i;
    size_t h = 0;
    if (n) lcp[0] = 0;
    for (size_t j = 0; j < n; j++) {
        if (rank[j] == 0) {
            h = 0;
            continue;
        }
        size_t k = (size_t)sa[rank[j] - 1];
        while (j + h < n && k + h < n && t[j + h] == t[k + h]) h++;
        lcp[rank[j]] = (int64_t)h;
        if (h) h--;
    }
    free(rank);
}

static void check_case(const idx_case *c, uint64_t seed, int index64)
{
    size_t n = idx_case_n(c), w = index64 ? 8 : 4;
    char name[96];
    idx_case_name(c, n, name, sizeof name);
    uint8_t *text = idx_case_text(c, n, seed);
    int64_t *sa = tu_malloc(n * 8), *want = tu_malloc(n * 8);
    void *sa_w = tu_malloc(n * w), *got = tu_malloc(n * w);
    TU_OK(NULL, clsa_sa64(NULL, text, sa, (int64_t)n));
    kasai(text, sa, want, n);
    for (size_t i = 0; i < n; i++) {
        if (index64) ((int64_t *)sa_w)[i] = sa[i];
        else ((int32_t *)sa_w)[i] = (int32_t)sa[i];
    }
    for (int from_sa = !idx_device_sa(n); from_sa < 2; from_sa++) {
        memset(got, 0xA5, n * w);
        if (from_sa)
            TU_OK(ctx, index64 ? clsa_lcp_from_sa64(ctx, text, sa_w, got, (int64_t)n)
                               : clsa_lcp_from_sa32(ctx, text, sa_w, got, (int64_t)n));
        else
            TU_OK(ctx, index64 ? clsa_lcp64(ctx, text, got, (int64_t)n)
                               : clsa_lcp32(ctx, text, got, (int64_t)n));
        for (size_t i = 0; i < n; i++) {
            int64_t g = index64 ? ((int64_t *)got)[i] : ((int32_t *)got)[i];
            if (g != want[i])
                fail_msg("%s idx%d from_sa=%d: lcp[%zu]=%lld, Kasai %lld", name, index64 ? 64 : 32,
                         from_sa, i, (long long)g, (long long)want[i]);
        }
    }
    free(text);
    free(sa);
    free(want);
    free(sa_w);
    free(got);
}

static void lcp_cases32(void **state)
{
    (void)state;
    for (size_t i = 0; i < IDX_NCASES; i++) check_case(&idx_cases[i], 400 + i, 0);
}

static void lcp_cases64(void **state)
{
    (void)state;
    for (size_t i = 0; i < IDX_NCASES; i++)
        if (idx_cases[i].n <= 300000) check_case(&idx_cases[i], 500 + i, 1);
}

/* All-equal text: one irreducible value of n-1; comparing adjacent
 * suffixes from scratch would be quadratic.  Must stay quick. */
static void all_equal_is_fast(void **state)
{
    (void)state;
    size_t lens[] = {100000, 1000000};
    for (int k = 0; k < 2; k++) {
        size_t n = tu_small() ? 2000 : lens[k];
        uint8_t *t = tu_malloc(n);
        int32_t *lcp = tu_malloc(n * 4), *sa = tu_malloc(n * 4);
        memset(t, 0, n);
        for (size_t i = 0; i < n; i++) sa[i] = (int32_t)(n - 1 - i);
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        TU_OK(ctx, clsa_lcp_from_sa32(ctx, t, sa, lcp, (int64_t)n));
        clock_gettime(CLOCK_MONOTONIC, &b);
        double s = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
        for (size_t i = 0; i < n; i++) assert_int_equal(lcp[i], (int32_t)i);
        fprintf(stderr, "all-equal n=%zu: %.3f s\n", n, s);
        if (!tu_small()) assert_true(s < 10.0);
        free(t);
        free(lcp);
        free(sa);
    }
}

/* In-place device form: lcp written over the suffix array buffer. */
static void mem_in_place(void **state)
{
    (void)state;
    size_t n = tu_size(30000, 200);
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_MUTATED, 97, 3);
    int64_t *sa = tu_malloc(n * 8), *want = tu_malloc(n * 8), *got = tu_malloc(n * 8);
    TU_OK(NULL, clsa_sa64(NULL, t, sa, (int64_t)n));
    kasai(t, sa, want, n);
    cl_int err;
    cl_mem dt = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n, t, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem dsa = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 8, sa, &err);
    assert_int_equal(err, CL_SUCCESS);
    TU_OK(ctx, clsa_lcp64_mem(ctx, dt, dsa, dsa, (int64_t)n));
    assert_int_equal(clEnqueueReadBuffer(ctx->queue, dsa, CL_TRUE, 0, n * 8, got, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_memory_equal(got, want, n * 8);
    clReleaseMemObject(dt);
    clReleaseMemObject(dsa);
    free(t);
    free(sa);
    free(want);
    free(got);
}

static void host_backend(void **state)
{
    (void)state;
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_HOST;
    clsa_context *h = NULL;
    TU_OK(NULL, clsa_create(&o, &h));
    const uint8_t *t = (const uint8_t *)"mississippi";
    /* sa: 10 7 4 1 0 9 8 6 3 5 2 */
    const int32_t want[] = {0, 1, 1, 4, 0, 0, 1, 0, 2, 1, 3};
    int32_t got[11];
    int64_t got64[11];
    TU_OK(h, clsa_lcp32(h, t, got, 11));
    assert_memory_equal(got, want, sizeof want);
    TU_OK(NULL, clsa_lcp64(NULL, t, got64, 11));
    for (int i = 0; i < 11; i++) assert_int_equal(got64[i], want[i]);
    clsa_destroy(h);
}

static void bad_args(void **state)
{
    (void)state;
    int32_t x[2];
    assert_int_equal(clsa_lcp32(ctx, NULL, x, 2), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_lcp_from_sa32(ctx, (const uint8_t *)"ab", NULL, x, 2), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_lcp32(ctx, (const uint8_t *)"ab", x, (int64_t)INT32_MAX + 1),
                     CLSA_ERR_TOO_LARGE);
    assert_int_equal(clsa_lcp32(ctx, (const uint8_t *)"", NULL, 0), CLSA_OK);
}

int main(void)
{
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lcp_cases32),  cmocka_unit_test(lcp_cases64),
        cmocka_unit_test(all_equal_is_fast), cmocka_unit_test(mem_in_place),
        cmocka_unit_test(host_backend), cmocka_unit_test(bad_args),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
