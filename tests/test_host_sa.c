/* The host's multi-threaded suffix sorter (host/cpu/par_sa.c): the same
 * arrays as libdivsufsort on thousands of generated texts at 1, 2 and 7
 * threads (small scan blocks, so every input is shared out), 32- and
 * 64-bit; integer alphabets against a plain comparison sort; progress,
 * stopping, the thread count through the public API and the cgroup quota
 * parser.  TEST_HOST_SA_ALONE: the sorter alone, without the library (the
 * ThreadSanitizer build of tests/ci_sanitize.sh), on fewer inputs. */
#include "testutil.h"
#include "sym_util.h"
#include "cpu/par_pool.h"
#include "cpu/par_sa.h"

#include <divsufsort.h>
#include <divsufsort64.h>

#include "gen.h"

static const int thread_counts[] = {1, 2, 7};

/* Inputs: byte sweep, integer texts, large texts (and their size). */
#ifdef TEST_HOST_SA_ALONE
#define SWEEP 200
#define INT_CASES 30
#define LARGE_KINDS 3
#define LARGE_N 70000
#else
#define SWEEP 2400
#define INT_CASES 200
#define LARGE_KINDS (GEN_KIND_COUNT + 1)
#define LARGE_N tu_size(300000, 70000)
#endif

/* Runs of random lengths (1..maxrun) of random bytes of sigma symbols. */
static void fill_runs(uint8_t *t, size_t n, unsigned sigma, unsigned maxrun, uint64_t seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i < n;) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t len = 1 + (size_t)(x % maxrun);
        uint8_t c = (uint8_t)((x >> 20) % sigma);
        for (size_t j = 0; j < len && i < n; j++) t[i++] = c;
    }
}

/* Input number `seed` of the byte sweep: every generator, many sizes. */
static void fill_case(uint8_t *t, size_t n, uint64_t seed)
{
    static const unsigned sigmas[] = {1, 2, 3, 4, 16, 95, 256};
    unsigned pick = (unsigned)(seed % (GEN_KIND_COUNT + 1));
    if (pick == GEN_KIND_COUNT) {
        fill_runs(t, n, 1 + (unsigned)(seed % 5), 1 + (unsigned)(seed % 40), seed);
        return;
    }
    unsigned param = pick == GEN_RANDOM ? sigmas[seed / 8 % 7] : 1 + (unsigned)(seed % 13);
    gen_fill(t, n, (gen_kind)pick, param, seed);
}

/* width: 32; 64 (built in 32-bit entries, widened); 65 (the 64-bit
 * instances). */
static void same_as_divsufsort(const uint8_t *t, size_t n, int threads, int grain, int width,
                               int blocks)
{
    int32_t *want = tu_malloc(n * 4 + 4), *got = tu_malloc(n * 4 + 4);
    int64_t *got64 = tu_malloc(n * 8 + 8);
    assert_int_equal(divsufsort(t, want, (saidx_t)n), 0);
    clsa_par_opts o = {threads, NULL, NULL, grain, width == 65, blocks};
    if (width == 32) {
        assert_int_equal(clsa__par_sa_bytes(t, got, (int64_t)n, 0, &o), 0);
        assert_memory_equal(got, want, n * 4);
    } else {
        assert_int_equal(clsa__par_sa_bytes(t, got64, (int64_t)n, 1, &o), 0);
        for (size_t i = 0; i < n; i++) assert_int_equal(got64[i], want[i]);
    }
    free(want);
    free(got);
    free(got64);
}

/* SWEEP texts of 0 to 1200 bytes, blocks of 96 entries shared out. */
static void bytes_sweep(void **state)
{
    (void)state;
    size_t cap = 2100;
    uint8_t *t = tu_malloc(cap);
    for (uint64_t seed = 0; seed < SWEEP; seed++) {
        size_t n = seed < 40 ? seed : (size_t)(seed * 7919 % 1200);
        fill_case(t, n, seed);
        static const int widths[] = {32, 32, 32, 64, 65};
        same_as_divsufsort(t, n, thread_counts[seed % 3], 96, widths[seed / 3 % 5],
                           seed / 15 % 3 == 2);
    }
    free(t);
}

/* Larger texts with the default blocks, each at 1, 2 and 7 threads. */
static void bytes_large(void **state)
{
    (void)state;
    size_t n = LARGE_N;
    uint8_t *t = tu_malloc(n);
    for (uint64_t seed = 0; seed < LARGE_KINDS; seed++) {
        fill_case(t, n, seed * 8 + 3);
        for (int i = 0; i < 3; i++) same_as_divsufsort(t, n, thread_counts[i], 0, 32, 0);
        same_as_divsufsort(t, n, 2, 0, 65, (int)(seed % 2));
    }
    free(t);
}

/* One integer text through each entry point (int32, int64, 16- and 32-bit
 * symbols) at the given threads. */
static void int_case(const int64_t *t, int64_t n, int64_t k, int threads)
{
    int64_t *want = naive_sa(t, 8, (size_t)n), *got64 = tu_malloc((size_t)n * 8 + 8);
    int32_t *t32 = tu_malloc((size_t)n * 4 + 4), *got = tu_malloc((size_t)n * 4 + 4);
    uint16_t *t16 = tu_malloc((size_t)n * 2 + 2);
    for (int64_t i = 0; i < n; i++) t32[i] = (int32_t)t[i], t16[i] = (uint16_t)t[i];
    clsa_par_opts o = {threads, NULL, NULL, 32, 0, (int)(n % 2)};
    assert_int_equal(clsa__par_sa_int32(t32, got, (int32_t)n, (int32_t)k, &o), 0);
    for (int64_t i = 0; i < n; i++) assert_int_equal(got[i], want[i]);
    assert_int_equal(clsa__par_sa_int64(t, got64, n, k, &o), 0);
    assert_memory_equal(got64, want, (size_t)n * 8);
    assert_int_equal(clsa__par_sa_sym(t32, 4, k, got, n, 0, &o), 0);
    for (int64_t i = 0; i < n; i++) assert_int_equal(got[i], want[i]);
    if (k <= 65536) {
        o.wide = 1;
        assert_int_equal(clsa__par_sa_sym(t16, 2, 65536, got64, n, 1, &o), 0);
        assert_memory_equal(got64, want, (size_t)n * 8);
    }
    free(want);
    free(got64);
    free(t32);
    free(got);
    free(t16);
}

static void int_alphabets(void **state)
{
    (void)state;
    int64_t *t = tu_malloc(700 * 8);
    for (uint64_t seed = 0; seed < INT_CASES; seed++) {
        int64_t n = (int64_t)(seed < 10 ? seed : seed * 104729 % 700);
        static const int64_t ks[] = {1, 2, 5, 300, 70000};
        int64_t k = ks[seed % 5];
        uint64_t x = seed + 1;
        for (int64_t i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            /* some periodic stretches, so names repeat and the sort recurses */
            t[i] = i % 50 < 25 ? (int64_t)(x % (uint64_t)k) : t[i % 25];
        }
        int_case(t, n, k, thread_counts[seed % 3]);
    }
    free(t);
}

typedef struct ticks {
    int calls, stop_at;
    double last;
} ticks;

static int on_tick(void *arg, double f)
{
    ticks *k = arg;
    assert_true(f >= k->last && f <= 1.0);
    k->last = f;
    return ++k->calls >= k->stop_at;
}

/* Progress is non-decreasing; a nonzero answer stops the sort (-3). */
static void progress_and_stop(void **state)
{
    (void)state;
    size_t n = 200000;
    uint8_t *t = tu_malloc(n);
    int32_t *sa = tu_malloc(n * 4);
    gen_fill(t, n, GEN_RANDOM, 4, 9);
    ticks k = {0, 1000, 0.0};
    clsa_par_opts o = {2, on_tick, &k, 0, 0, 0};
    assert_int_equal(clsa__par_sa_bytes(t, sa, (int64_t)n, 0, &o), 0);
    assert_true(k.calls >= 2);
    for (int stop = 1; stop <= 2; stop++) {
        k = (ticks){0, stop, 0.0};
        assert_int_equal(clsa__par_sa_bytes(t, sa, (int64_t)n, 0, &o), -3);
        assert_int_equal(k.calls, stop);
    }
    free(t);
    free(sa);
}

#ifndef TEST_HOST_SA_ALONE
/* clsa_options.threads reaches the host backend; results as divsufsort's. */
static void public_api_threads(void **state)
{
    (void)state;
    size_t n = 150000;
    uint8_t *t = tu_malloc(n);
    int32_t *sa = tu_malloc(n * 4), *want = tu_malloc(n * 4);
    gen_fill(t, n, GEN_MUTATED, 1000, 4);
    assert_int_equal(divsufsort(t, want, (saidx_t)n), 0);
    for (int i = 0; i < 3; i++) {
        clsa_options o;
        clsa_options_init(&o);
        o.backend = CLSA_BACKEND_HOST;
        o.threads = thread_counts[i];
        clsa_context *ctx = NULL;
        assert_int_equal(clsa_create_ex(&o, &ctx, NULL, 0), CLSA_OK);
        assert_int_equal(clsa_sa32(ctx, t, sa, (int64_t)n), CLSA_OK);
        assert_memory_equal(sa, want, n * 4);
        clsa_destroy(ctx);
    }
    free(t);
    free(sa);
    free(want);
}
#endif

static void quota_cap(void **state)
{
    (void)state;
    assert_int_equal(clsa__cpu_quota_cap(16, "max 100000\n"), 16);
    assert_int_equal(clsa__cpu_quota_cap(16, "200000 100000\n"), 2);
    assert_int_equal(clsa__cpu_quota_cap(16, "150000 100000"), 2);
    assert_int_equal(clsa__cpu_quota_cap(16, "50000 100000"), 1);
    assert_int_equal(clsa__cpu_quota_cap(4, "800000 100000"), 4);
    assert_int_equal(clsa__cpu_quota_cap(3, ""), 3);
    assert_true(clsa__cpu_threads() >= 1);
}

int main(int argc, char **argv)
{
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bytes_sweep),       cmocka_unit_test(bytes_large),
        cmocka_unit_test(int_alphabets),     cmocka_unit_test(progress_and_stop),
#ifndef TEST_HOST_SA_ALONE
        cmocka_unit_test(public_api_threads),
#endif
        cmocka_unit_test(quota_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
