/* clsa_host_alloc / clsa_host_free: page-locked arrays handed to the
 * host-pointer calls give the same results as malloc'd ones (checked against
 * libdivsufsort), ranges inside them work, bad frees are errors, and what is
 * left is freed by clsa_destroy.  Profiling is on: its events are read when
 * each call ends, and the phases are still charged. */
#include <divsufsort.h>

#include "gen.h"
#include "testutil.h"

static void sa_bwt_in_pinned_memory(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context_opts(1);
    size_t n = tu_size(300000, 500);
    uint8_t *text = NULL, *bwt = NULL;
    int32_t *sa = NULL;
    assert_int_equal(clsa_host_alloc(ctx, n, (void **)&text), CLSA_OK);
    assert_int_equal(clsa_host_alloc(ctx, n * 4, (void **)&sa), CLSA_OK);
    assert_int_equal(clsa_host_alloc(ctx, n, (void **)&bwt), CLSA_OK);
    gen_fill(text, n, GEN_RANDOM, 4, 7);
    int32_t *ref = tu_malloc(n * 4);
    uint8_t *ref_bwt = tu_malloc(n);
    assert_int_equal(divsufsort(text, ref, (saidx_t)n), 0);
    clsa_reset_stats(ctx);
    assert_int_equal(clsa_sa32(ctx, text, sa, (int64_t)n), CLSA_OK);
    assert_memory_equal(sa, ref, n * 4);
    clsa_stats s;
    assert_int_equal(clsa_get_stats(ctx, &s), CLSA_OK);
    assert_true(s.kernel_launches > 0);
    assert_true(s.phase_ms[CLSA_PHASE_TRANSFER] > 0);
    if (tu_small()) { /* Oclgrind: one call is enough to see the memory work */
        clsa_destroy(ctx);
        free(ref);
        free(ref_bwt);
        return;
    }
    /* A page-locked 64-bit SA takes the 64-bit pipeline (not 32-bit entries
     * widened on one thread); a malloc'd one the 32-bit entries, whose peak
     * device memory is lower. */
    int64_t *sa64 = NULL, *plain64 = tu_malloc(n * 8);
    assert_int_equal(clsa_host_alloc(ctx, n * 8, (void **)&sa64), CLSA_OK);
    clsa_reset_stats(ctx);
    assert_int_equal(clsa_sa64(ctx, text, sa64, (int64_t)n), CLSA_OK);
    for (size_t i = 0; i < n; i++) assert_int_equal(sa64[i], ref[i]);
    assert_int_equal(clsa_get_stats(ctx, &s), CLSA_OK);
    uint64_t pinned_peak = s.peak_device_bytes;
    clsa_reset_stats(ctx);
    assert_int_equal(clsa_sa64(ctx, text, plain64, (int64_t)n), CLSA_OK);
    for (size_t i = 0; i < n; i++) assert_int_equal(plain64[i], ref[i]);
    assert_int_equal(clsa_get_stats(ctx, &s), CLSA_OK);
    assert_true(s.peak_device_bytes < pinned_peak);
    assert_int_equal(clsa_host_free(ctx, sa64), CLSA_OK);
    free(plain64);
    /* A range inside the arrays: the suffix array of text[1..n). */
    assert_int_equal(divsufsort(text + 1, ref, (saidx_t)(n - 1)), 0);
    assert_int_equal(clsa_sa32(ctx, text + 1, sa + 1, (int64_t)(n - 1)), CLSA_OK);
    assert_memory_equal(sa + 1, ref, (n - 1) * 4);
    int64_t primary = 0;
    saidx_t want = divbwt(text, ref_bwt, NULL, (saidx_t)n);
    assert_int_equal(clsa_bwt(ctx, text, bwt, (int64_t)n, &primary), CLSA_OK);
    assert_int_equal(primary, want);
    assert_memory_equal(bwt, ref_bwt, n);
    assert_int_equal(clsa_host_free(ctx, text), CLSA_OK);
    assert_int_equal(clsa_host_free(ctx, sa), CLSA_OK);
    /* bwt is left for clsa_destroy (LeakSanitizer and the fault walk see it). */
    clsa_destroy(ctx);
    free(ref);
    free(ref_bwt);
}

static void bad_calls(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context();
    void *p = NULL;
    int x;
    assert_int_equal(clsa_host_alloc(ctx, 0, &p), CLSA_ERR_INVALID_ARG);
    assert_null(p);
    assert_int_equal(clsa_host_alloc(NULL, 16, &p), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_host_alloc(ctx, 16, NULL), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_host_free(ctx, NULL), CLSA_OK);
    assert_int_equal(clsa_host_free(ctx, &x), CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(clsa_last_error(ctx), "clsa_host_alloc"));
    /* Freed twice: the second is an error, nothing else happens. */
    assert_int_equal(clsa_host_alloc(ctx, 64, &p), CLSA_OK);
    memset(p, 0xab, 64);
    assert_int_equal(clsa_host_free(ctx, p), CLSA_OK);
    assert_int_equal(clsa_host_free(ctx, p), CLSA_ERR_INVALID_ARG);
    clsa_destroy(ctx);
    /* A host-only context gives ordinary memory that works the same. */
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_HOST;
    assert_int_equal(clsa_create(&o, &ctx), CLSA_OK);
    uint8_t *t = NULL;
    int32_t *sa = NULL;
    assert_int_equal(clsa_host_alloc(ctx, 6, (void **)&t), CLSA_OK);
    assert_int_equal(clsa_host_alloc(ctx, 24, (void **)&sa), CLSA_OK);
    memcpy(t, "banana", 6);
    assert_int_equal(clsa_sa32(ctx, t, sa, 6), CLSA_OK);
    int32_t want[6];
    assert_int_equal(divsufsort(t, want, 6), 0);
    assert_memory_equal(sa, want, sizeof want);
    assert_int_equal(clsa_host_free(ctx, t), CLSA_OK);
    clsa_destroy(ctx); /* frees sa */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sa_bwt_in_pinned_memory),
        cmocka_unit_test(bad_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
