/* Copies between pageable memory and the device through the context's
 * page-locked slots (host/runtime/staged_copy.c), forced with CLSA_TUNE
 * stage_min=1 and slots small enough that every copy of a text or a suffix
 * array goes round the threads many times, with a short last piece (and
 * pieces shorter than a slot where a copy would not give every thread
 * one: the arrays of 250 and 1000 entries): the
 * suffix arrays and the BWT against libdivsufsort, the slots made
 * (ctx->nstage) and, on a profiled context, the copies' times checked so
 * the route is known.  Oclgrind keeps the plain copies (its calls stay on
 * one thread): the results are still checked there. */
#include <divsufsort.h>

#include "gen.h"
#include "runtime.h"
#include "testutil.h"

static void suffix_arrays(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context_tuned("stage_min=1,stage_slot=1000,stage_threads=3", 1);
    static const size_t sizes[] = {1, 7, 250, 251, 1000, 4099, 30011};
    size_t most = 30011;
    uint8_t *t = tu_malloc(most);
    int32_t *sa = tu_malloc(most * 4), *ref = tu_malloc(most * 4);
    int64_t *sa64 = tu_malloc(most * 8);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        if (tu_small() && n > 1000) break;
        gen_fill(t, n, k % 2 ? GEN_RANDOM : GEN_MUTATED, k % 2 ? 4 : 50, 7 + k);
        assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
        memset(sa, 0xA5, n * 4);
        assert_int_equal(clsa_sa32(ctx, t, sa, (int64_t)n), CLSA_OK);
        assert_memory_equal(sa, ref, n * 4);
        assert_int_equal(clsa_sa64(ctx, t, sa64, (int64_t)n), CLSA_OK);
        for (size_t i = 0; i < n; i++) assert_int_equal(sa64[i], ref[i]);
    }
    assert_int_equal(ctx->nstage, ctx->oclgrind ? 0 : 6);
    assert_int_equal(tu_kernel_ran(ctx, "staged read"), !ctx->oclgrind);
    assert_int_equal(tu_kernel_ran(ctx, "staged write"), !ctx->oclgrind);
    clsa_destroy(ctx);
    free(t);
    free(sa);
    free(ref);
    free(sa64);
}

/* The BWT (a byte array: pieces of odd length), a widened 64-bit SA, and
 * a change of slot size between contexts' calls. */
static void bwt_bytes(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context_tuned("stage_min=1,stage_slot=333,stage_threads=2", 1);
    size_t n = tu_size(20000, 700);
    uint8_t *t = tu_malloc(n), *bwt = tu_malloc(n), *ref = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 20, 3);
    int64_t primary = 0;
    saidx_t want = divbwt(t, ref, NULL, (saidx_t)n);
    assert_int_equal(clsa_bwt(ctx, t, bwt, (int64_t)n, &primary), CLSA_OK);
    assert_int_equal(primary, want);
    assert_memory_equal(bwt, ref, n);
    /* a 64-bit SA built in 32-bit entries and widened in pieces of whole
     * entries (333-byte slots: 332-byte pieces) */
    int32_t *sa = tu_malloc(n * 4);
    int64_t *sa64 = tu_malloc(n * 8);
    assert_int_equal(divsufsort(t, sa, (saidx_t)n), 0);
    assert_int_equal(clsa_sa64(ctx, t, sa64, (int64_t)n), CLSA_OK);
    for (size_t i = 0; i < n; i++) assert_int_equal(sa64[i], sa[i]);
    free(sa);
    free(sa64);
    clsa_destroy(ctx);
    free(t);
    free(bwt);
    free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(suffix_arrays),
        cmocka_unit_test(bwt_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
