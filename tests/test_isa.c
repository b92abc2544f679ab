/* Inverse suffix array on the device under test against the host. */
#include "index_cases.h"
#include "runtime.h"

static clsa_context *ctx;

static void check_case(const idx_case *c, uint64_t seed, int index64)
{
    size_t n = idx_case_n(c), w = index64 ? 8 : 4;
    char name[96];
    idx_case_name(c, n, name, sizeof name);
    uint8_t *text = idx_case_text(c, n, seed);
    void *sa = tu_malloc(n * w), *want = tu_malloc(n * w), *got = tu_malloc(n * w);
    TU_OK(NULL, index64 ? clsa_sa64(NULL, text, sa, (int64_t)n) : clsa_sa32(NULL, text, sa, (int64_t)n));
    for (size_t i = 0; i < n; i++) {
        if (index64) ((int64_t *)want)[((int64_t *)sa)[i]] = (int64_t)i;
        else ((int32_t *)want)[((int32_t *)sa)[i]] = (int32_t)i;
    }
    if (idx_device_sa(n)) {
        TU_OK(ctx, index64 ? clsa_isa64(ctx, text, got, (int64_t)n)
                           : clsa_isa32(ctx, text, got, (int64_t)n));
        if (memcmp(got, want, n * w))
            fail_msg("%s idx%d: isa from text differs", name, index64 ? 64 : 32);
    }
    memset(got, 0xAB, n * w);
    TU_OK(ctx, index64 ? clsa_isa_from_sa64(ctx, sa, got, (int64_t)n)
                       : clsa_isa_from_sa32(ctx, sa, got, (int64_t)n));
    if (memcmp(got, want, n * w)) fail_msg("%s idx%d: isa from sa differs", name, index64 ? 64 : 32);
    free(text);
    free(sa);
    free(want);
    free(got);
}

static void isa_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < IDX_NCASES; i++) {
        check_case(&idx_cases[i], 100 + i, 0);
        if (idx_cases[i].n <= 100000) check_case(&idx_cases[i], 200 + i, 1);
    }
}

/* Device-resident form on buffers the caller owns (made on ctx's OpenCL
 * context, reached through the internal runtime header). */
static void isa_mem(void **state)
{
    (void)state;
    const int32_t sa[] = {3, 0, 4, 1, 2};
    const int32_t want[] = {1, 3, 4, 0, 2};
    int32_t isa[5] = {0};
    cl_int err;
    cl_mem dsa = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof sa,
                                (void *)sa, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem disa = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, sizeof isa, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    TU_OK(ctx, clsa_isa32_mem(ctx, dsa, disa, 5));
    assert_int_equal(clEnqueueReadBuffer(ctx->queue, disa, CL_TRUE, 0, sizeof isa, isa, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_memory_equal(isa, want, sizeof want);
    assert_int_equal(clsa_isa32_mem(ctx, dsa, dsa, 5), CLSA_ERR_INVALID_ARG);
    clReleaseMemObject(dsa);
    clReleaseMemObject(disa);
}

static void host_backend(void **state)
{
    (void)state;
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_HOST;
    clsa_context *h = NULL;
    TU_OK(NULL, clsa_create(&o, &h));
    uint8_t text[] = "mississippi";
    int32_t a[11], b[11];
    TU_OK(h, clsa_isa32(h, text, a, 11));
    TU_OK(NULL, clsa_isa32(NULL, text, b, 11));
    const int32_t want[] = {4, 3, 10, 8, 2, 9, 7, 1, 6, 5, 0};
    assert_memory_equal(a, want, sizeof want);
    assert_memory_equal(b, want, sizeof want);
    clsa_destroy(h);
}

static void bad_args(void **state)
{
    (void)state;
    int32_t x[2];
    assert_int_equal(clsa_isa32(ctx, NULL, x, 2), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_isa32(ctx, (const uint8_t *)"ab", x, -1), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_isa32(ctx, (const uint8_t *)"ab", NULL, 0), CLSA_OK);
    assert_int_equal(clsa_isa32(ctx, (const uint8_t *)"ab", x, (int64_t)INT32_MAX + 1),
                     CLSA_ERR_TOO_LARGE);
    assert_int_equal(clsa_isa32_mem(NULL, NULL, NULL, 1), CLSA_ERR_INVALID_ARG);
}

int main(void)
{
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(isa_cases), cmocka_unit_test(isa_mem),
        cmocka_unit_test(host_backend), cmocka_unit_test(bad_args),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
