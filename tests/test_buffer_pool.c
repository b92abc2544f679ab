/* The context's device memory kept for reuse (host/runtime/buffer_pool.c):
 * a freed buffer serves a later request of its size whole and a smaller one
 * as a region (a freed region keeps its sub-buffer for a request it
 * fits); the regions of one parent never overlap; the peak reported
 * counts the parents whole; parents no call used go as the next call ends,
 * all free ones with clsa_trim; and suffix arrays of changing sizes
 * through the pool stay right (libdivsufsort).  Oclgrind keeps no pool (a
 * reused buffer would hide reads of unwritten memory): there the tests
 * check that nothing is kept, with small suffix arrays (each simulated SA
 * of 30000 takes minutes). */
#include "testutil.h"
#include "runtime.h"
#include "gen.h"
#include <divsufsort.h>

static void write_u32(clsa_context *ctx, cl_mem m, size_t count, uint32_t seed)
{
    uint32_t *v = malloc(count * 4);
    assert_non_null(v);
    for (size_t i = 0; i < count; i++) v[i] = seed + (uint32_t)i * 2654435761u;
    assert_int_equal(clsa__write(ctx, m, 0, v, count * 4), CLSA_OK);
    free(v);
}

static void check_u32(clsa_context *ctx, cl_mem m, size_t count, uint32_t seed)
{
    uint32_t *v = malloc(count * 4);
    assert_non_null(v);
    assert_int_equal(clsa__read(ctx, m, 0, v, count * 4), CLSA_OK);
    for (size_t i = 0; i < count; i++)
        if (v[i] != seed + (uint32_t)i * 2654435761u) fail_msg("word %zu of a region overwritten", i);
    free(v);
}

static void regions(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context();
    size_t big = (size_t)1 << 20, part = big / 4 - 1000;
    cl_mem a = NULL, b = NULL, c = NULL, d = NULL;
    if (ctx->oclgrind) { /* no pool: a freed buffer is released at once */
        clsa__lock(ctx);
        assert_int_equal(clsa__alloc(ctx, big, &a), CLSA_OK);
        clsa__free(ctx, &a);
        assert_int_equal(ctx->npool, 0);
        assert_int_equal(ctx->pool_bytes, 0);
        clsa__unlock(ctx);
        clsa_destroy(ctx);
        return;
    }
    clsa__lock(ctx);
    assert_int_equal(clsa__alloc(ctx, big, &a), CLSA_OK);
    clsa__free(ctx, &a);
    assert_int_equal(ctx->npool, 1);
    /* three regions of the freed parent, no new buffer */
    assert_int_equal(clsa__alloc(ctx, part, &b), CLSA_OK);
    assert_int_equal(clsa__alloc(ctx, part, &c), CLSA_OK);
    assert_int_equal(clsa__alloc(ctx, part, &d), CLSA_OK);
    assert_int_equal(ctx->npool, 1);
    assert_int_equal(ctx->pool[0].nsub, 3);
    write_u32(ctx, b, part / 4, 1);
    write_u32(ctx, c, part / 4, 2);
    write_u32(ctx, d, part / 4, 3);
    check_u32(ctx, b, part / 4, 1);
    check_u32(ctx, c, part / 4, 2);
    check_u32(ctx, d, part / 4, 3);
    assert_int_equal(ctx->stats.current_device_bytes, 3 * part);
    /* no room for a fourth: a new parent, within the most ever held */
    cl_mem e = NULL;
    assert_int_equal(clsa__alloc(ctx, part * 2, &e), CLSA_OK);
    assert_int_equal(ctx->npool, 2);
    clsa__free(ctx, &c);
    clsa__free(ctx, &b);
    clsa__free(ctx, &d);
    clsa__free(ctx, &e);
    assert_int_equal(ctx->stats.current_device_bytes, 0);
    /* the peak counts the parents whole: 1 MiB and the new one */
    assert_true(ctx->stats.peak_device_bytes >= big + part * 2);
    assert_true(ctx->pool_bytes <= ctx->stats.peak_device_bytes);
    /* the same size again: the parent itself */
    assert_int_equal(clsa__alloc(ctx, big, &a), CLSA_OK);
    assert_ptr_equal(a, ctx->pool[0].mem == a ? ctx->pool[0].mem : ctx->pool[1].mem);
    clsa__free(ctx, &a);
    clsa__unlock(ctx);
    /* two calls that use none of them: released */
    clsa__lock(ctx);
    clsa__unlock(ctx);
    clsa__lock(ctx);
    clsa__unlock(ctx);
    assert_int_equal(ctx->npool, 0);
    clsa_destroy(ctx);
}

/* A freed region keeps its sub-buffer (idle): a request a little smaller
 * takes one of them, no new sub-buffer; a region carved across idle ones
 * releases them, and live data stays apart. */
static void idle_regions(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context();
    size_t big = (size_t)1 << 20, q = big / 4;
    cl_mem a = NULL, f = NULL, g = NULL, h = NULL;
    clsa__lock(ctx);
    if (!ctx->oclgrind) {
        assert_int_equal(clsa__alloc(ctx, big, &a), CLSA_OK);
        clsa__free(ctx, &a);
        assert_int_equal(clsa__alloc(ctx, q, &f), CLSA_OK);
        assert_int_equal(clsa__alloc(ctx, q, &g), CLSA_OK);
        cl_mem f_was = f, g_was = g;
        clsa__free(ctx, &f);
        clsa__free(ctx, &g);
        assert_int_equal(ctx->pool[0].nsub, 2);
        assert_int_equal(clsa__alloc(ctx, q - 4096, &f), CLSA_OK);
        assert_true(f == f_was || f == g_was);
        assert_int_equal(ctx->npool, 1);
        assert_int_equal(ctx->pool[0].nsub, 2);
        clsa__free(ctx, &f);
        assert_int_equal(clsa__alloc(ctx, 3 * q, &h), CLSA_OK); /* over both idle ones */
        assert_int_equal(ctx->pool[0].nsub, 1);
        write_u32(ctx, h, 3 * q / 4, 7);
        assert_int_equal(clsa__alloc(ctx, q / 4, &f), CLSA_OK);
        assert_int_equal(ctx->npool, 1);
        assert_int_equal(ctx->pool[0].nsub, 2);
        write_u32(ctx, f, q / 16, 8);
        check_u32(ctx, h, 3 * q / 4, 7);
        check_u32(ctx, f, q / 16, 8);
        clsa__free(ctx, &f);
        clsa__free(ctx, &h);
        assert_int_equal(ctx->stats.current_device_bytes, 0);
    }
    clsa__unlock(ctx);
    clsa_destroy(ctx);
}

static void suffix_arrays_of_changing_sizes(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context();
    /* Oclgrind (no pool; a simulated SA of 30000 takes minutes): small
     * sizes, and nothing kept after each call */
    size_t big[] = {tu_size(300000, 30000), 1000, tu_size(200000, 20000), tu_size(77777, 7777),
                    tu_size(300000, 30000), 5};
    size_t small[] = {2000, 5, 1500, 2000, 3, 1000};
    size_t *sizes = ctx->oclgrind ? small : big;
    size_t most = 0;
    for (size_t k = 0; k < sizeof big / sizeof *big; k++) most = sizes[k] > most ? sizes[k] : most;
    uint8_t *text = malloc(most);
    int32_t *sa = malloc(most * 4), *ref = malloc(most * 4);
    assert_true(text && sa && ref);
    for (size_t k = 0; k < sizeof big / sizeof *big; k++) {
        size_t n = sizes[k];
        gen_fill(text, n, k % 2 ? GEN_RANDOM : GEN_PERIODIC, k % 2 ? 4 : 5 + (int)k, 7 + (int)k);
        if (n > 10) text[n / 2] ^= 1;
        assert_int_equal(clsa_sa32(ctx, text, sa, (int64_t)n), CLSA_OK);
        assert_int_equal(divsufsort(text, ref, (saidx_t)n), 0);
        assert_memory_equal(sa, ref, n * 4);
        assert_int_equal(ctx->stats.current_device_bytes, 0);
        /* what is kept is counted in the peak (all of it, in the first call) */
        if (k == 0) assert_true(ctx->pool_bytes <= ctx->stats.peak_device_bytes);
        if (ctx->oclgrind) assert_int_equal(ctx->npool, 0);
    }
    clsa_trim(ctx);
    assert_int_equal(ctx->npool, 0);
    assert_int_equal(ctx->pool_bytes, 0);
    clsa_trim(NULL);
    free(text);
    free(sa);
    free(ref);
    clsa_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regions), cmocka_unit_test(idle_regions),
        cmocka_unit_test(suffix_arrays_of_changing_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
