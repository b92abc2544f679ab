/* Every host-pointer operation under a largest allocation smaller than its
 * n-entry arrays (CLSA_TUNE max_alloc, standing for a GPU's
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE, issue 44): the suffix array goes out of
 * core (clsa_sa_plan says why), the BWT, LCP and ISA take that suffix
 * array and finish on the host; every result byte-identical to the host
 * backend's. */
#include "testutil.h"
#include "gen.h"
#include "clsa_index.h"

/* The operation's result on ctx (got) against the host backend's (want). */
#define SAME(ctx, want_call, got_call, bytes)            \
    do {                                                 \
        assert_int_equal(want_call, CLSA_OK);            \
        TU_OK(ctx, got_call);                            \
        assert_memory_equal(got, want, bytes);           \
    } while (0)

static void check_all(clsa_context *ctx, const uint8_t *text, size_t n)
{
    void *got = tu_malloc(n * 8), *want = tu_malloc(n * 8);
    int64_t p_got = -1, p_want = -2, k = (int64_t)n;
    SAME(ctx, clsa_sa32(NULL, text, want, k), clsa_sa32(ctx, text, got, k), n * 4);
    SAME(ctx, clsa_bwt(NULL, text, want, k, &p_want), clsa_bwt(ctx, text, got, k, &p_got), n);
    assert_int_equal(p_got, p_want);
    SAME(ctx, clsa_lcp32(NULL, text, want, k), clsa_lcp32(ctx, text, got, k), n * 4);
    if (!tu_small()) { /* Oclgrind: an out-of-core run takes a minute there */
        SAME(ctx, clsa_sa64(NULL, text, want, k), clsa_sa64(ctx, text, got, k), n * 8);
        SAME(ctx, clsa_lcp64(NULL, text, want, k), clsa_lcp64(ctx, text, got, k), n * 8);
        SAME(ctx, clsa_isa32(NULL, text, want, k), clsa_isa32(ctx, text, got, k), n * 4);
        SAME(ctx, clsa_isa64(NULL, text, want, k), clsa_isa64(ctx, text, got, k), n * 8);
    }
    free(got);
    free(want);
}

static void small_largest_allocation(void **state)
{
    (void)state;
    size_t n = tu_size(30000, 300);
    char tune[64];
    snprintf(tune, sizeof tune, "max_alloc=%zu", n * 2); /* the text fits, no SA does */
    clsa_context *ctx = tu_context_tuned(tune, 0);
    clsa_sa_plan_info plan;
    TU_OK(ctx, clsa_sa_plan(ctx, (int64_t)n, 1, 0, &plan));
    assert_int_equal(plan.route, CLSA_ROUTE_DEVICE_OOC);
    assert_int_equal(plan.why, CLSA_WHY_MAX_ALLOC);
    assert_int_equal(plan.max_alloc_bytes, n * 2);
    uint8_t *text = tu_malloc(n);
    gen_fill(text, n, GEN_RANDOM, 4, 11);
    check_all(ctx, text, n);
    gen_fill(text, n, GEN_MUTATED, 97, 5); /* long repeats: many passes */
    if (!tu_small()) check_all(ctx, text, n);
    free(text);
    clsa_destroy(ctx);
}

/* The same context without the cap plans in memory. */
static void plan_in_memory(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context();
    clsa_sa_plan_info plan;
    TU_OK(ctx, clsa_sa_plan(ctx, 30000, 1, 0, &plan));
    assert_int_equal(plan.route, CLSA_ROUTE_DEVICE);
    assert_int_equal(plan.why, CLSA_WHY_FITS);
    assert_true(plan.max_alloc_bytes > 0);
    clsa_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_largest_allocation),
        cmocka_unit_test(plan_in_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
