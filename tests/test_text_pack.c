/* Byte texts of a small alphabet go to the device packed through staged
 * writes (host/runtime/text_pack.c, staged_copy.c), forced here with
 * CLSA_TUNE pack_min=1, stage_min=1 and slots of 16 bytes (64 symbols at 2
 * bits) over 3 threads, so that many pieces go round the threads.  Every
 * call that uploads a text is checked against libdivsufsort (SA, ISA,
 * BWT), Kasai (LCP) or the text itself (inverse BWT), and the route against
 * the kernels that ran: packed where the text has at most 2^pack_bits
 * distinct bytes, as it is otherwise and where a byte the alphabet sample
 * missed stops the packing.  Oclgrind has no staged copies (its calls stay
 * on one thread), so nothing is packed there: the results are still
 * checked. */
#include <divsufsort.h>

#include "runtime.h"

#include "gen.h"
#include "testutil.h"

/* A profiled context (the route is read off the kernels that ran). */
static clsa_context *packing_context(const char *tune) { return tu_context_tuned(tune, 1); }

/* Whether a text of d distinct bytes should go up packed on ctx. */
static int packs(const clsa_context *ctx, unsigned d, unsigned bits)
{
    return !ctx->oclgrind && d <= (1u << bits);
}

static unsigned distinct(const uint8_t *t, size_t n)
{
    unsigned char seen[256] = {0};
    unsigned d = 0;
    for (size_t i = 0; i < n; i++)
        if (!seen[t[i]]) {
            seen[t[i]] = 1;
            d++;
        }
    return d;
}

/* The SA of t through ctx equals divsufsort's; returns whether it went up packed. */
static int sa_matches(clsa_context *ctx, const uint8_t *t, size_t n, int32_t *sa, int32_t *ref)
{
    assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
    memset(sa, 0xA5, n * 4);
    clsa_reset_stats(ctx);
    assert_int_equal(clsa_sa32(ctx, t, sa, (int64_t)n), CLSA_OK);
    assert_memory_equal(sa, ref, n * 4);
    return tu_kernel_ran(ctx, "text_unpack");
}

/* Alphabets of 1 to 17 symbols at lengths around the 1, 2 and 4 bits a
 * byte and the 64-byte pieces: packed exactly when at most 16 distinct. */
static void sa_over_alphabets(void **state)
{
    (void)state;
    clsa_context *ctx =
        packing_context("pack_min=1,pack_bits=4,stage_min=1,stage_slot=16,stage_threads=3");
    /* the default width: at most 4 symbols */
    clsa_context *two = packing_context("pack_min=1,stage_min=1,stage_slot=16,stage_threads=3");
    static const unsigned sigmas[] = {1, 2, 3, 4, 5, 9, 16, 17};
    static const size_t small[] = {1, 2, 3, 7, 8, 9, 63, 64, 65, 129, 1000};
    static const size_t large[] = {4097, 20001};
    size_t ns = sizeof small / sizeof *small, nl = tu_small() ? 0 : sizeof large / sizeof *large;
    size_t most = 20001;
    uint8_t *t = tu_malloc(most);
    int32_t *sa = tu_malloc(most * 4), *ref = tu_malloc(most * 4);
    for (size_t s = 0; s < sizeof sigmas / sizeof *sigmas; s++)
        for (size_t k = 0; k < ns + nl; k++) {
            size_t n = k < ns ? small[k] : large[k - ns];
            if (tu_small() && sigmas[s] % 2 == 0 && n > 64) continue; /* Oclgrind: fewer */
            /* lean (Oclgrind, where nothing is packed): the general path's
             * one-group and several-group sorts, each alphabet once */
            if (tu_lean() && n != (s % 2 ? 65 : 1000) && n > 3) continue;
            gen_fill(t, n, sigmas[s] == 1 ? GEN_ALL_EQUAL : GEN_RANDOM, sigmas[s],
                     (uint64_t)(31 * s + k + 1));
            unsigned d = distinct(t, n);
            int packed = sa_matches(ctx, t, n, sa, ref);
            if (packed != packs(ctx, d, 4))
                fail_msg("sigma %u, n %zu: packed %d with %u distinct bytes", sigmas[s], n, packed,
                         d);
            if (n == 1000 && sa_matches(two, t, n, sa, ref) != packs(two, d, 2))
                fail_msg("2 bits, sigma %u: packed with %u distinct bytes", sigmas[s], d);
        }
    /* pack_min=0: never packed */
    clsa_context *off = packing_context("pack_min=0");
    gen_fill(t, 1000, GEN_RANDOM, 4, 5);
    assert_false(sa_matches(off, t, 1000, sa, ref));
    clsa_destroy(off);
    clsa_destroy(two);
    clsa_destroy(ctx);
    free(t);
    free(sa);
    free(ref);
}

/* A byte that the sample of the alphabet (text_pack.c: the first 64 KiB,
 * 64 blocks of 1 KiB at n / 65 apart, the last 1 KiB) does not see: the
 * packing stops when it meets it, pieces already copied are dropped, and
 * the text goes up as it is.  One unseen 'N' in DNA (2 bits would not
 * hold it), then 17 unseen bytes. */
static void byte_outside_the_sample(void **state)
{
    (void)state;
    if (tu_small()) return; /* past 64 KiB: 3 minutes under Oclgrind, which has no packing */
    clsa_context *ctx =
        packing_context("pack_min=1,pack_bits=4,stage_min=1,stage_slot=1024,stage_threads=3");
    size_t n = 150000, gap = n / 65;
    /* between the sample blocks 61 and 62, past the first 64 KiB */
    size_t at = gap * 61 + 1024 + (gap - 1024) / 2;
    assert_true(at > 65536 && at + 17 < gap * 62);
    uint8_t *t = tu_malloc(n);
    int32_t *sa = tu_malloc(n * 4), *ref = tu_malloc(n * 4);
    gen_fill(t, n, GEN_RANDOM, 4, 11);
    assert_true(sa_matches(ctx, t, n, sa, ref)); /* packed without it */
    t[at] = 'N';
    assert_false(sa_matches(ctx, t, n, sa, ref));
    for (unsigned i = 0; i < 17; i++) t[at + i] = (uint8_t)(200 + i);
    assert_false(sa_matches(ctx, t, n, sa, ref));
    clsa_destroy(ctx);
    free(t);
    free(sa);
    free(ref);
}

/* The other calls that upload a text (ISA, BWT, inverse BWT, LCP) on a
 * DNA-like text with a fifth symbol (4 bits a byte), against the
 * references. */
static void index_calls(void **state)
{
    (void)state;
    clsa_context *ctx =
        packing_context("pack_min=1,pack_bits=4,stage_min=1,stage_slot=64,stage_threads=2");
    int up = packs(ctx, 5, 4);
    size_t n = tu_sizes(30000, 3000, 1200);
    uint8_t *t = tu_malloc(n), *bwt = tu_malloc(n), *ref_bwt = tu_malloc(n), *back = tu_malloc(n);
    int32_t *ref = tu_malloc(n * 4), *got = tu_malloc(n * 4), *want = tu_malloc(n * 4);
    gen_fill(t, n, GEN_RANDOM, 4, 21);
    for (size_t i = 0; i < n; i += 97) t[i] = 'N';
    assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);

    clsa_reset_stats(ctx);
    assert_int_equal(clsa_isa32(ctx, t, got, (int64_t)n), CLSA_OK);
    for (size_t i = 0; i < n; i++) want[ref[i]] = (int32_t)i;
    assert_memory_equal(got, want, n * 4);
    assert_int_equal(tu_kernel_ran(ctx, "text_unpack"), up);

    int64_t primary = 0;
    saidx_t want_primary = divbwt(t, ref_bwt, NULL, (saidx_t)n);
    clsa_reset_stats(ctx);
    assert_int_equal(clsa_bwt(ctx, t, bwt, (int64_t)n, &primary), CLSA_OK);
    assert_int_equal(primary, want_primary);
    assert_memory_equal(bwt, ref_bwt, n);
    assert_int_equal(tu_kernel_ran(ctx, "text_unpack"), up);

    clsa_reset_stats(ctx);
    assert_int_equal(clsa_unbwt(ctx, bwt, back, (int64_t)n, primary), CLSA_OK);
    assert_memory_equal(back, t, n);
    assert_int_equal(tu_kernel_ran(ctx, "text_unpack"), up);

    int32_t *rank = tu_malloc(n * 4);
    tu_kasai32(t, ref, want, rank, n);
    free(rank);
    clsa_reset_stats(ctx);
    assert_int_equal(clsa_lcp32(ctx, t, got, (int64_t)n), CLSA_OK);
    assert_memory_equal(got, want, n * 4);
    assert_int_equal(tu_kernel_ran(ctx, "text_unpack"), up);

    clsa_destroy(ctx);
    free(t);
    free(bwt);
    free(ref_bwt);
    free(back);
    free(ref);
    free(got);
    free(want);
}

/* Two devices (clsa_sa32_multi's device engine, split forced): each
 * member's text goes up packed.  Under Oclgrind the members' kernels may
 * only run on one thread, so the host-side engine runs and nothing is
 * uploaded as a text. */
static void several_devices(void **state)
{
    (void)state;
    const char *tune = "pack_min=1,stage_min=1,stage_slot=16,stage_threads=2,part_decline=0";
    clsa_context *ctxs[2] = {packing_context(tune), packing_context(tune)};
    size_t n = tu_size(20000, 500);
    uint8_t *t = tu_malloc(n);
    int32_t *sa = tu_malloc(n * 4), *ref = tu_malloc(n * 4);
    gen_fill(t, n, GEN_RANDOM, 4, 41);
    assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
    for (int r = 0; r < 2; r++) clsa_reset_stats(ctxs[r]);
    assert_int_equal(clsa_sa32_multi(ctxs, 2, t, sa, (int64_t)n), CLSA_OK);
    assert_memory_equal(sa, ref, n * 4);
    for (int r = 0; r < 2 && !tu_small(); r++) assert_true(tu_kernel_ran(ctxs[r], "text_unpack"));
    for (int r = 0; r < 2; r++) clsa_destroy(ctxs[r]);
    free(t);
    free(sa);
    free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sa_over_alphabets),
        cmocka_unit_test(byte_outside_the_sample),
        cmocka_unit_test(index_calls),
        cmocka_unit_test(several_devices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
