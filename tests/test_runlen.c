/* Run-length reduction (clsa_options.algorithm = runlen, docs/SA.md
 * "Run-length reduction") against libdivsufsort (bytes) and the host's
 * integer-alphabet suffix array on texts of runs; the reduction's lemma
 * (run starts sort as the reduced text's suffixes) on the host; the
 * reduced text sorted on the host, by prefix doubling and by skew; the
 * decline to prefix doubling; auto's pick; peak memory; cancellation. */
#include "algo_util.h"
#include "gen.h"

/* Contexts: the reduced text on the host (defaults), by prefix doubling
 * and by skew on the device (skew_host=0); every one runs runlen on any
 * text (runlen_floor=0) but the first. */
static clsa_context *ctxs[3];
static const char *tunes[3] = {NULL, "skew_host=0,runlen_inner=1,runlen_floor=0",
                               "skew_host=0,runlen_inner=2,runlen_floor=0"};

static int setup(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++) ctxs[i] = algo_context(CLSA_ALGORITHM_RUNLEN, tunes[i], NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++) clsa_destroy(ctxs[i]);
    return 0;
}

/* Runs of 1..longest symbols (uniform) over sigma symbols from base, a
 * run's symbol never its neighbour's where sigma > 1. */
static void fill_runs(uint8_t *t, size_t n, unsigned longest, unsigned sigma, unsigned base,
                      tu_rng *r)
{
    unsigned v = 0;
    for (size_t i = 0; i < n;) {
        size_t len = 1 + tu_below(r, longest);
        v = sigma > 1 ? (v + 1 + tu_below(r, sigma - 1)) % sigma : 0;
        for (size_t end = i + len < n ? i + len : n; i < end; i++) t[i] = (uint8_t)(base + v);
    }
}

/* Hard input `shape` of runs into t; its name. */
static const char *fill_shape(uint8_t *t, size_t n, int shape, tu_rng *r)
{
    switch (shape) {
    case 0:
        memset(t, 'x', n);
        return "one byte";
    case 1:
        fill_runs(t, n, 1000, 4, 'a', r);
        return "runs 1..1000 over 4";
    case 2:
        fill_runs(t, n, 1000, 2, 'a', r);
        return "runs 1..1000 over 2";
    case 3:
        for (size_t i = 0; i < n; i++) t[i] = i % 5 == 4 ? 'b' : 'a';
        return "(aaaab)*";
    case 4:
        fill_runs(t, n, 9, 3, 'a', r);
        memset(t + n - n / 7, 'b', n / 7);
        return "runs 1..9 over 3, ending in a long run";
    case 5:
        fill_runs(t, n, 300, 2, 0, r);
        for (size_t i = 0; i < n; i++) t[i] = t[i] ? 255 : 0;
        return "runs of 255 and 0";
    case 6:
        fill_runs(t, n, 40, 3, 0, r);
        for (size_t i = 0; i < n; i++) t[i] = t[i] == 2 ? 255 : t[i];
        return "runs of 0, 1, 255";
    default:
        gen_fill(t, n, GEN_RUNS, 8, 5);
        return "runs:8";
    }
}

/* The hard inputs of runs, both widths, on every context. */
static void hard_inputs(void **state)
{
    (void)state;
    size_t n = tu_sizes(20011, 300, 120);
    uint8_t *t = tu_malloc(n);
    for (int shape = 0; shape < 8; shape++) {
        tu_rng r = {100 + (uint64_t)shape};
        const char *what = fill_shape(t, n, shape, &r);
        for (int i = 0; i < 3; i++)
            for (int index64 = 0; index64 < 2; index64++) {
                if (tu_lean() && (shape % 2 == 0 || i != shape % 3 || index64 != shape / 4))
                    continue; /* Oclgrind: shapes 1, 3, 5, 7 once, each context */
                char msg[96];
                snprintf(msg, sizeof msg, "runlen (context %d) on %s", i, what);
                algo_check(ctxs[i], t, 1, n, index64, msg);
                clsa_stats s;
                TU_OK(ctxs[i], clsa_get_stats(ctxs[i], &s));
                assert_int_equal(s.sa_algorithm, CLSA_ALGORITHM_RUNLEN);
            }
    }
    free(t);
}

/* n = 0, 1, 2, every short text over {0, 255} up to 5 symbols, and some
 * up to 9. */
static void tiny(void **state)
{
    (void)state;
    uint8_t t[16];
    int longest = tu_lean() ? 5 : 9;
    for (int n = 0; n <= longest; n++)
        for (unsigned bits = 0; bits < (1u << n); bits++) {
            if ((tu_small() && n > 2 && bits % 7) || (n > 5 && bits % 11)) continue;
            if (tu_lean() && n > 2 && bits != 22) continue;
            for (int j = 0; j < n; j++) t[j] = bits >> j & 1 ? 255 : 0;
            algo_check(ctxs[(bits + (unsigned)n) % 3], t, 1, (size_t)n, (int)(bits & 1), "tiny");
        }
}

/* 2- and 4-byte symbols: runs of the largest values and of 0, one run
 * longer than 2^15 (the key's two sorts at 2 bytes, as always at 4). */
static void integer_alphabets(void **state)
{
    (void)state;
    size_t n = tu_sizes(40000, 400, 200), longest = tu_sizes(33000, 300, 100);
    uint32_t *t = tu_malloc(n * 4);
    tu_rng r = {9};
    for (int sym = 2; sym <= 4; sym += 2)
        for (int i = 0; i < 3; i++) {
            if (tu_lean() && (sym == 2 || i != 0)) continue;
            for (size_t j = 0; j < n;) {
                size_t len = j == 0 ? longest : 1 + tu_below(&r, 20);
                uint32_t v = tu_below(&r, 3) == 0 ? 0 : 0xFFFFFFFFu - tu_below(&r, 3);
                for (size_t e = j + len < n ? j + len : n; j < e; j++) {
                    if (sym == 2) ((uint16_t *)t)[j] = (uint16_t)v;
                    else t[j] = v;
                }
            }
            algo_check(ctxs[i], t, sym, n, i == 1, "runlen, integer alphabet");
        }
    free(t);
}

static int by_suffix_u32(const uint32_t *r, size_t m, uint32_t a, uint32_t b)
{
    while (a < m && b < m && r[a] == r[b]) a++, b++;
    if (a == m || b == m) return a == m ? -1 : 1;
    return r[a] < r[b] ? -1 : 1;
}

/* The lemma on the host: the reduced text's suffix order (symbols ranked
 * by (c, flag, +-a)) is the order of the run starts in the text's SA. */
static void lemma(void **state)
{
    (void)state;
    tu_rng r = {77};
    for (int round = 0; round < (tu_small() ? 5 : 200); round++) {
        size_t n = 1 + tu_below(&r, 400);
        uint8_t *t = tu_malloc(n);
        fill_runs(t, n, 1 + tu_below(&r, 12), 1 + tu_below(&r, 4), 'a', &r);
        int32_t *sa = tu_malloc(n * 4);
        uint32_t *rk = tu_malloc(n * 4), *starts = tu_malloc((n + 1) * 4), *seen = tu_malloc(n * 4);
        assert_int_equal(clsa_sa32(NULL, t, sa, (int64_t)n), CLSA_OK);
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (i == 0 || t[i] != t[i - 1]) starts[m++] = (uint32_t)i;
        starts[m] = (uint32_t)n;
        for (size_t k = 0; k < m; k++) { /* (c, flag, +-a) as one ordered number */
            uint32_t a = starts[k + 1] - starts[k], up = starts[k + 1] < n && t[starts[k + 1]] > t[starts[k]];
            rk[k] = (uint32_t)t[starts[k]] << 22 | up << 21 | (up ? (1u << 20) - a : a);
        }
        size_t got = 0;
        for (size_t x = 0; x < n; x++)
            if (sa[x] == 0 || t[sa[x]] != t[sa[x] - 1]) {
                size_t k = 0;
                while (starts[k] != (uint32_t)sa[x]) k++;
                seen[got++] = (uint32_t)k;
            }
        assert_int_equal(got, m);
        for (size_t x = 1; x < m; x++)
            if (by_suffix_u32(rk, m, seen[x - 1], seen[x]) >= 0)
                fail_msg("round %d: runs %u and %u out of order", round, seen[x - 1], seen[x]);
        free(t), free(sa), free(rk), free(starts), free(seen);
    }
}

/* A text of short runs goes to prefix doubling (said in the stats) with
 * the default floor, and still comes out right. */
static void declines(void **state)
{
    (void)state;
    size_t n = tu_sizes(5000, 200, 100);
    if (tu_lean()) skip(); /* prefix doubling's kernels: tested elsewhere */
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 256, 3);
    algo_check(ctxs[0], t, 1, n, 0, "runlen declining");
    clsa_stats s;
    TU_OK(ctxs[0], clsa_get_stats(ctxs[0], &s));
    assert_int_equal(s.sa_algorithm, CLSA_ALGORITHM_DOUBLING);
    assert_non_null(strstr(s.sa_algorithm_why, "runlen: mean run"));
    free(t);
}

/* auto: runlen on runs of mean 8, not on Fibonacci (mean run 1.6). */
static void auto_picks(void **state)
{
    (void)state;
    size_t n = tu_sizes(40000, 600, 600);
    clsa_context *c =
        algo_context(CLSA_ALGORITHM_AUTO, "skew_min=0,skew_window=16,skew_host=64", NULL);
    uint8_t *t = tu_malloc(n);
    for (int i = 0; i < 2 - tu_lean(); i++) {
        gen_fill(t, n, i ? GEN_FIBONACCI : GEN_RUNS, 8, 3);
        algo_check(c, t, 1, n, 0, i ? "auto on fibonacci" : "auto on runs:8");
        clsa_stats s;
        TU_OK(c, clsa_get_stats(c, &s));
        if ((s.sa_algorithm == CLSA_ALGORITHM_RUNLEN) != !i)
            fail_msg("auto on %s picked %d (%s)", i ? "fibonacci" : "runs:8", s.sa_algorithm,
                     s.sa_algorithm_why);
    }
    free(t);
    clsa_destroy(c);
}

/* Peak device memory at most 20 bytes a symbol (32-bit) on runs of mean 2
 * (the floor: the most runs runlen takes) and of mean 8. */
static void peak_memory(void **state)
{
    (void)state;
    if (tu_small()) skip();
    size_t n = 1 << 18;
    clsa_context *c = algo_context(CLSA_ALGORITHM_RUNLEN, "skew_host=0,runlen_inner=1", NULL);
    uint8_t *t = tu_malloc(n);
    for (unsigned mean = 2; mean <= 8; mean += 6) {
        gen_fill(t, n, GEN_RUNS, mean, 1);
        algo_check(c, t, 1, n, 0, "runlen, peak");
        clsa_stats s;
        TU_OK(c, clsa_get_stats(c, &s));
        assert_int_equal(s.sa_algorithm, CLSA_ALGORITHM_RUNLEN);
        double per = (double)s.peak_device_bytes / (double)n;
        if (per > 20.0) fail_msg("runs:%u: peak %.2f bytes a symbol", mean, per);
    }
    free(t);
    clsa_destroy(c);
}

static int cancel_at_half(void *user, const char *phase, double fraction)
{
    (void)user;
    return strcmp(phase, "runlen") == 0 && fraction > 0.5;
}

/* The progress callback stops it with CLSA_ERR_CANCELLED; the context
 * still works after. */
static void cancels(void **state)
{
    (void)state;
    size_t n = tu_sizes(3000, 200, 100);
    if (tu_lean()) skip(); /* host logic, and its kernels run above */
    clsa_context *c = algo_context(CLSA_ALGORITHM_RUNLEN, NULL, cancel_at_half);
    uint8_t *t = tu_malloc(n);
    int32_t *sa = tu_malloc(n * 4);
    gen_fill(t, n, GEN_RUNS, 8, 2);
    assert_int_equal(clsa_sa32(c, t, sa, (int64_t)n), CLSA_ERR_CANCELLED);
    clsa_destroy(c);
    algo_check(ctxs[0], t, 1, n, 0, "after a cancelled one");
    free(t);
    free(sa);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hard_inputs), cmocka_unit_test(tiny),
        cmocka_unit_test(integer_alphabets), cmocka_unit_test(lemma),
        cmocka_unit_test(declines), cmocka_unit_test(auto_picks),
        cmocka_unit_test(peak_memory), cmocka_unit_test(cancels),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
