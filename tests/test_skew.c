/* Skew (DC3), the hybrid, run-length reduction and prefix doubling, each chosen through
 * clsa_options.algorithm, against libdivsufsort (bytes) and the host's
 * integer-alphabet suffix array on the inputs that are hard for prefix
 * doubling and on many small generated texts; auto's pick on a periodic
 * text and on random bytes. */
#include "algo_util.h"
#include "gen.h"

static const char *algo_name[] = {"auto", "doubling", "skew", "hybrid", "runlen"};

/* rusticl on llvmpipe pays several times PoCL's cost a launch: fewer
 * generated cases there. */
static int slow_impl(void)
{
    const char *d = getenv("CLSA_DEVICE");
    return d && strstr(d, "rusticl");
}

/* A low skew_host keeps the recursion on the device at test sizes (under
 * Oclgrind the inputs are tiny); skew's and runlen's 64-bit SAs are built
 * in 64-bit entries on the device (sa64_narrow=0), the hybrid's in 32-bit
 * ones widened on the way down.  runlen runs on any text (runlen_floor=0),
 * its reduced text sorted by skew. */
static clsa_context *context_for(int algorithm, const char *tune)
{
    if (!tune && algorithm == CLSA_ALGORITHM_SKEW)
        tune = tu_small() ? "skew_host=48,sa64_narrow=0" : "skew_host=256,sa64_narrow=0";
    if (!tune && algorithm == CLSA_ALGORITHM_RUNLEN)
        tune = tu_small() ? "skew_host=8,sa64_narrow=0,runlen_floor=0,runlen_inner=2"
                          : "skew_host=64,sa64_narrow=0,runlen_floor=0,runlen_inner=2";
    if (!tune) tune = tu_small() ? "skew_host=48" : "skew_host=256";
    return algo_context(algorithm, tune, NULL);
}

/* One context per algorithm for every case (program builds dominate
 * under Oclgrind). */
static clsa_context *ctxs[5];

static int setup(void **state)
{
    (void)state;
    /* Oclgrind: no doubling (test_sa runs its kernels) */
    for (int a = CLSA_ALGORITHM_DOUBLING + tu_small(); a <= CLSA_ALGORITHM_RUNLEN; a++)
        ctxs[a] = context_for(a, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int a = 0; a < 5; a++) clsa_destroy(ctxs[a]);
    return 0;
}

static void check_kind(clsa_context *c, int algorithm, gen_kind kind, unsigned param, size_t n,
                       int index64)
{
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, kind, param, 7 + n);
    char what[96];
    snprintf(what, sizeof what, "%s on %s:%u", algo_name[algorithm], gen_name(kind), param);
    algo_check(c, t, 1, n, index64, what);
    free(t);
}

/* The hard inputs of docs/SA.md "Limits", 32- and 64-bit. */
static void hard_inputs(void **state)
{
    (void)state;
    static const struct { gen_kind kind; unsigned param; } k[] = {
        {GEN_ALL_EQUAL, 0}, {GEN_PERIODIC, 2}, {GEN_PERIODIC, 3}, {GEN_PERIODIC, 7},
        {GEN_FIBONACCI, 0}, {GEN_THUE_MORSE, 0}, {GEN_MUTATED, 500}, {GEN_RANDOM, 1},
        {GEN_RANDOM, 2}, {GEN_RANDOM, 4}, {GEN_RANDOM, 256}, {GEN_RUNS, 8}};
    size_t n = tu_size(9001, 90);
    for (int a = CLSA_ALGORITHM_SKEW; a <= CLSA_ALGORITHM_RUNLEN; a++) {
        clsa_context *c = ctxs[a];
        for (size_t i = 0; i < sizeof k / sizeof *k; i++)
            for (int index64 = 0; index64 < 2; index64++) {
                /* small inputs: a few each; Oclgrind: one each (every kernel) */
                if (tu_small() && (a == CLSA_ALGORITHM_RUNLEN ? i != 11 || !index64
                                                              : index64 != (int)(i % 2) ||
                                                                    i % 4 != (size_t)a ||
                                                                    (tu_lean() && i != (size_t)a)))
                    continue;
                check_kind(c, a, k[i].kind, k[i].param, n + i, index64);
            }
        clsa_stats s;
        TU_OK(c, clsa_get_stats(c, &s));
        assert_int_equal(s.sa_algorithm, a);
        assert_true(s.skew_levels >= 1 || a == CLSA_ALGORITHM_RUNLEN);
    }
}

/* Symbol j of generated case i: repeats of the last 16 symbols (i % 3
 * == 0), runs of up to 1..40 symbols (i % 5 == 1), else random. */
static uint8_t generated_symbol(const uint8_t *t, size_t j, int i, unsigned sigma, tu_rng *r)
{
    if (i % 3 == 0 && j > 16) return t[j - 1 - tu_below(r, 16)];
    if (i % 5 == 1 && j > 0 && tu_below(r, 1 + (unsigned)i % 40) != 0) return t[j - 1];
    return (uint8_t)tu_below(r, sigma);
}

/* Many short texts of every length class (each residue mod 3, the
 * dummy position, the host base case) over 1..256 symbols, with repeats
 * and runs: 520 an algorithm on PoCL (2,080 in all), 130 on rusticl. */
static void generated(void **state)
{
    (void)state;
    tu_rng r = {11};
    int count = (int)tu_size(slow_impl() ? 130 : 520, 1);
    for (int a = CLSA_ALGORITHM_DOUBLING + tu_small(); a <= CLSA_ALGORITHM_RUNLEN; a++) {
        clsa_context *c = ctxs[a];
        for (int i = 0; i < count; i++) {
            size_t n = 1 + tu_below(&r, tu_small() ? 40 : i % 10 == 0 ? 3000 : 300);
            unsigned sigma = 1 + tu_below(&r, i % 2 ? 4 : 256);
            uint8_t *t = tu_malloc(n);
            for (size_t j = 0; j < n; j++) t[j] = generated_symbol(t, j, i, sigma, &r);
            char what[64];
            snprintf(what, sizeof what, "%s case %d", algo_name[a], i);
            algo_check(c, t, 1, n, i % 4 == 3, what);
            free(t);
        }
    }
}

/* 2- and 4-byte symbols, values over the whole type. */
static void integer_alphabets(void **state)
{
    (void)state;
    tu_rng r = {5};
    size_t n = tu_size(6007, 50);
    uint32_t *t = tu_malloc(n * 4);
    for (int a = CLSA_ALGORITHM_SKEW; a <= (tu_small() ? CLSA_ALGORITHM_SKEW : CLSA_ALGORITHM_HYBRID); a++) {
        clsa_context *c = ctxs[a];
        for (int sym = tu_small() ? 4 : 2; sym <= 4; sym += 2)
            for (int kind = tu_small(); kind < 2; kind++) {
                for (size_t j = 0; j < n; j++) {
                    uint32_t v = kind ? (uint32_t)(j % 5 ? 0xFFFFFFFFu - (j % 3) : 0)
                                      : (uint32_t)tu_next(&r);
                    if (sym == 2) ((uint16_t *)t)[j] = (uint16_t)v;
                    else t[j] = v;
                }
                algo_check(c, t, sym, n, kind, algo_name[a]);
            }
    }
    free(t);
}

/* auto: skew on a periodic text, prefix doubling on random bytes (the
 * measurement made to run at test sizes). */
static void auto_picks(void **state)
{
    (void)state;
    size_t n = tu_size(40000, 300);
    clsa_context *c = context_for(CLSA_ALGORITHM_AUTO, tu_small() ? "skew_min=0,skew_window=8,skew_host=300"
                                                                  : "skew_min=0,skew_window=32");
    uint8_t *t = tu_malloc(n);
    static const gen_kind kinds[] = {GEN_PERIODIC, GEN_FIBONACCI, GEN_RANDOM};
    static const int want[] = {CLSA_ALGORITHM_SKEW, CLSA_ALGORITHM_SKEW, CLSA_ALGORITHM_DOUBLING};
    for (int i = tu_small(); i < 3; i++) {
        gen_fill(t, n, kinds[i], kinds[i] == GEN_RANDOM ? 256 : 3, 3);
        algo_check(c, t, 1, n, 0, gen_name(kinds[i]));
        clsa_stats s;
        TU_OK(c, clsa_get_stats(c, &s));
        if (s.sa_algorithm != want[i])
            fail_msg("auto on %s picked %s (%s)", gen_name(kinds[i]), algo_name[s.sa_algorithm],
                     s.sa_algorithm_why);
    }
    free(t);
    clsa_destroy(c);
}

static void bad_algorithm(void **state)
{
    (void)state;
    clsa_options o;
    clsa_options_init(&o);
    o.algorithm = 5;
    clsa_context *c = NULL;
    assert_int_equal(clsa_create(&o, &c), CLSA_ERR_INVALID_ARG);
    assert_null(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hard_inputs), cmocka_unit_test(generated),
        cmocka_unit_test(integer_alphabets), cmocka_unit_test(auto_picks),
        cmocka_unit_test(bad_algorithm),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
