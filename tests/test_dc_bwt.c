/* The BWT by buckets over a difference-cover sample (host/index/dc_bwt.c,
 * CLSA_TUNE dc_bwt=2 forces it at any size): byte for byte and primary
 * index against the host's libdivsufsort BWT, on texts of few symbols
 * (DNA with N runs and lower case, repeats, runs of one symbol, periodic
 * texts, every length up to 40) under bucket caps that make one bucket,
 * a few, or one bucket a bin; a text of 16 symbols is declined and
 * takes the suffix array's route. */
#include "testutil.h"

typedef enum { DNA, GENOME, RUNS, PERIODIC, REPEATS, WIDE, SIXTEEN } kind;

static void fill(uint8_t *t, size_t n, kind k, uint64_t seed)
{
    tu_rng r = {seed};
    static const char dna[] = "ACGT", mix[] = "ACGTNacgtn";
    for (size_t i = 0; i < n; i++) {
        switch (k) {
        case DNA: t[i] = (uint8_t)dna[tu_below(&r, 4)]; break;
        case GENOME: t[i] = (uint8_t)mix[tu_below(&r, 100) < 8 ? 4 + tu_below(&r, 6) : tu_below(&r, 4)]; break;
        case RUNS: t[i] = (uint8_t)(i % 97 < 80 ? 'N' : dna[tu_below(&r, 4)]); break;
        case PERIODIC: t[i] = (uint8_t)dna[(i % 5) % 4]; break;
        case REPEATS: t[i] = i < n / 3 || tu_below(&r, 50) == 0 ? (uint8_t)dna[tu_below(&r, 4)]
                                                                 : t[i % (n / 3)];
            break;
        case WIDE: t[i] = (uint8_t)('a' + tu_below(&r, 15)); break;
        case SIXTEEN: t[i] = (uint8_t)('a' + tu_below(&r, 16)); break;
        }
    }
}

/* The BWT of t on ctx against the host's. */
static void check(clsa_context *ctx, const uint8_t *t, size_t n)
{
    uint8_t *got = tu_malloc(n + 1), *want = tu_malloc(n + 1);
    int64_t pg = -1, pw = -2;
    assert_int_equal(clsa_bwt(NULL, t, want, (int64_t)n, &pw), CLSA_OK);
    TU_OK(ctx, clsa_bwt(ctx, t, got, (int64_t)n, &pg));
    assert_int_equal(pg, pw);
    assert_memory_equal(got, want, n);
    free(got);
    free(want);
}

static void one(clsa_context *ctx, kind k, size_t n, uint64_t seed)
{
    uint8_t *t = tu_malloc(n + 1);
    fill(t, n, k, seed);
    check(ctx, t, n);
    free(t);
}

/* Every length up to 40 and a few kinds, under caps of 0 (one bucket as
 * the device holds), 7 and 1 (a bin a bucket). */
static void short_texts(void **state)
{
    (void)state;
    static const char *tunes[] = {"dc_bwt=2", "dc_bwt=2,dc_bwt_bucket=7",
                                  "dc_bwt=2,dc_bwt_bucket=1"};
    for (size_t c = 0; c < 3; c++) {
        clsa_context *ctx = tu_context_tuned(tunes[c], 1);
        size_t top = tu_lean() ? 12 : 40;
        for (size_t n = 1; n <= top; n++) one(ctx, (kind)(n % 5), n, 17 * n + c);
        assert_true(tu_kernel_ran(ctx, "dcb_merge"));
        clsa_destroy(ctx);
    }
}

/* Longer texts of each kind: prefix groups merged across classes. */
static void kinds(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context_tuned("dc_bwt=2,dc_bwt_bucket=300", 1);
    size_t n = tu_sizes(20000, 3000, 700);
    for (int k = DNA; k <= WIDE; k++) one(ctx, (kind)k, n, 100 + (uint64_t)k);
    assert_true(tu_kernel_ran(ctx, "dcb_merge"));
    clsa_destroy(ctx);
    if (tu_lean()) return;
    ctx = tu_context_tuned("dc_bwt=2", 0);
    for (int k = DNA; k <= WIDE; k++) one(ctx, (kind)k, tu_size(200000, 20000), 200 + (uint64_t)k);
    clsa_destroy(ctx);
}

/* Sixteen symbols do not fit the 4-bit codes: the suffix array's route. */
static void declined(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context_tuned("dc_bwt=2", 1);
    one(ctx, SIXTEEN, tu_sizes(5000, 1000, 300), 7);
    assert_false(tu_kernel_ran(ctx, "dcb_merge"));
    clsa_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(short_texts),
        cmocka_unit_test(kinds),
        cmocka_unit_test(declined),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
