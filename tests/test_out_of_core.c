/* Out-of-core suffix arrays (host/sa/out_of_core.c) under small device
 * budgets, against libdivsufsort (divsufsort / divsufsort64) and, for the
 * integer alphabets, the host backend: thousands of generated inputs
 * (random over 1, 2, 4, 256 symbols, periodic, Fibonacci, runs; lengths 0
 * to a few thousand; fixed seeds) with the path forced (CLSA_TUNE ooc=1),
 * the automatic switch when the in-memory need passes the limit, a budget
 * below the minimum (CLSA_ERR_DEVICE_MEMORY naming it; that minimum then
 * works), CLSA_DEVICE_MEM_LIMIT and the option winning over it, and
 * cancellation leaving no device memory; the CLI's --mem.  The 64-bit
 * host layout (what n >= 2^32 takes) forced on small inputs (CLSA_TUNE
 * ooc64=1) with batch caps and host threads; clsa_sa_plan against what the
 * call then does, and its lines in clsa sa --stats. */
#include "cli_util.h"
#include "gen.h"

#include <divsufsort.h>
#include <divsufsort64.h>

/* A device context with mem_limit = limit (0: none) and CLSA_TUNE = tune
 * while it is made (NULL: as the environment has it). */
static clsa_context *open_tuned(size_t limit, const char *tune,
                                int (*progress)(void *, const char *, double), void *user)
{
    const char *keep = getenv("CLSA_TUNE");
    char *saved = keep ? strdup(keep) : NULL;
    if (tune) setenv("CLSA_TUNE", tune, 1);
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    o.mem_limit = limit;
    o.progress = progress;
    o.progress_user = user;
    clsa_context *c = NULL;
    char err[512];
    clsa_status st = clsa_create_ex(&o, &c, err, sizeof err);
    if (saved) setenv("CLSA_TUNE", saved, 1);
    else unsetenv("CLSA_TUNE");
    free(saved);
    if (st != CLSA_OK) {
        const char *req = getenv("CLSA_TEST_REQUIRE");
        int must = req && !strcmp(req, "1");
        fprintf(stderr, "%s: device not available: %s\n", must ? "FAIL" : "SKIP", err);
        exit(must ? 1 : TU_SKIP);
    }
    return c;
}

/* ooc forces the path. */
static clsa_context *open_ctx(size_t limit, int ooc, int (*progress)(void *, const char *, double),
                              void *user)
{
    return open_tuned(limit, ooc ? "ooc=1" : NULL, progress, user);
}

/* Runs of random length (1..64) of random symbols over 3 letters. */
static void fill_runs(uint8_t *t, size_t n, uint64_t seed)
{
    tu_rng r = {seed};
    for (size_t i = 0; i < n;) {
        uint8_t c = (uint8_t)('a' + tu_below(&r, 3));
        size_t len = 1 + tu_below(&r, 64);
        for (size_t j = 0; j < len && i < n; j++) t[i++] = c;
    }
}

/* Case k: kind and length from the seed. */
static void fill_case(uint8_t *t, size_t n, unsigned k, uint64_t seed)
{
    static const unsigned sigmas[] = {1, 2, 4, 256};
    switch (k % 7) {
    case 0: case 1: case 2: case 3: gen_fill(t, n, GEN_RANDOM, sigmas[k % 7], seed); break;
    case 4: gen_fill(t, n, GEN_PERIODIC, 1 + (unsigned)(seed % 13), seed); break;
    case 5: gen_fill(t, n, GEN_FIBONACCI, 0, seed); break;
    default: fill_runs(t, n, seed); break;
    }
}

/* One input through clsa_sa32 or clsa_sa64 on c, compared with libdivsufsort. */
static void check_one(clsa_context *c, const uint8_t *t, size_t n, int wide, const char *what)
{
    if (wide) {
        int64_t *sa = tu_malloc(n * 8), *ref = tu_malloc(n * 8);
        TU_OK(c, clsa_sa64(c, t, sa, (int64_t)n));
        if (n) assert_int_equal(divsufsort64(t, ref, (saidx64_t)n), 0);
        if (memcmp(sa, ref, n * 8)) fail_msg("%s: 64-bit SA differs (n = %zu)", what, n);
        free(sa);
        free(ref);
    } else {
        int32_t *sa = tu_malloc(n * 4), *ref = tu_malloc(n * 4);
        TU_OK(c, clsa_sa32(c, t, sa, (int64_t)n));
        if (n) assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
        if (memcmp(sa, ref, n * 4)) fail_msg("%s: 32-bit SA differs (n = %zu)", what, n);
        free(sa);
        free(ref);
    }
}

/* Thousands of generated inputs per budget, the path forced; peaks stay
 * under each budget and nothing is left on the device. */
static void many_inputs(void **state)
{
    (void)state;
    static const size_t budgets[] = {32u << 10, 48u << 10, 64u << 10, 256u << 10};
    /* rusticl (llvmpipe) launches are slow: fewer cases there */
    const char *dev = getenv("CLSA_DEVICE");
    unsigned cases = (unsigned)tu_size(dev && strstr(dev, "rusticl") ? 150 : 1000, 3), total = 0;
    size_t maxn = tu_size(4000, 300);
    for (size_t b = 0; b < sizeof budgets / sizeof *budgets; b++) {
        clsa_context *c = open_ctx(budgets[b], 1, NULL, NULL);
        tu_rng r = {1000 + b};
        uint8_t *t = tu_malloc(maxn);
        for (unsigned k = 0; k < cases; k++) {
            /* short inputs mostly (the edges: 0, 1, 2 symbols), some long */
            size_t n = k < 3 ? k : tu_below(&r, 4) ? tu_below(&r, 300) : tu_below(&r, (uint32_t)maxn + 1);
            fill_case(t, n, k, tu_next(&r));
            char what[64];
            snprintf(what, sizeof what, "budget %zu case %u", budgets[b], k);
            check_one(c, t, n, (k / 7) % 2, what);
            total++;
        }
        clsa_stats s;
        clsa_get_stats(c, &s);
        assert_true(s.peak_device_bytes <= budgets[b]);
        assert_int_equal(s.current_device_bytes, 0);
        free(t);
        clsa_destroy(c);
    }
    fprintf(stderr, "%u inputs out of core\n", total);
}

/* Integer alphabets out of core, against the host backend (prefix doubling
 * with counting sorts, host/cpu/int_sa.c). */
static void integer_alphabets(void **state)
{
    (void)state;
    clsa_context *c = open_ctx(40u << 10, 1, NULL, NULL);
    size_t n = tu_size(2500, 200);
    uint16_t *t16 = tu_malloc(n * 2);
    uint32_t *t32 = tu_malloc(n * 4);
    int32_t *sa = tu_malloc(n * 4), *ref = tu_malloc(n * 4);
    int64_t *sa64 = tu_malloc(n * 8), *ref64 = tu_malloc(n * 8);
    tu_rng r = {77};
    for (unsigned k = 0; k < 4; k++) {
        if (tu_lean() && k % 3 == 0) continue; /* Oclgrind: full range and 2^32 - 2 */
        uint32_t sigma = k == 0 ? 2 : k == 1 ? 65536 : k == 2 ? 3 : 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t v = sigma ? tu_below(&r, sigma) : (uint32_t)tu_next(&r);
            t16[i] = (uint16_t)v;
            t32[i] = k == 2 ? 0xfffffffeu + v % 2 : v;
        }
        if (!tu_lean() || k == 1) { /* Oclgrind: 16 bits over their full range */
            TU_OK(c, clsa_sa32_u16(c, t16, sa, (int64_t)n));
            TU_OK(NULL, clsa_sa32_u16(NULL, t16, ref, (int64_t)n));
            assert_memory_equal(sa, ref, n * 4);
        }
        if (!tu_lean() || k == 2) { /* and 32 bits at 2^32 - 2 and - 1 */
            TU_OK(c, clsa_sa64_u32(c, t32, sa64, (int64_t)n));
            TU_OK(NULL, clsa_sa64_u32(NULL, t32, ref64, (int64_t)n));
            assert_memory_equal(sa64, ref64, n * 8);
        }
    }
    clsa_destroy(c);
    free(t16);
    free(t32);
    free(sa);
    free(ref);
    free(sa64);
    free(ref64);
}

/* Without forcing: an input whose in-memory need passes the limit is built
 * out of core within it; one that fits takes the in-memory path. */
static void automatic_switch(void **state)
{
    (void)state;
    if (tu_lean()) skip(); /* Oclgrind: plan_matches_call's first pass is this case */
    size_t n = tu_size(20000, 1500), limit = tu_size(64u << 10, 32u << 10);
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 4, 5);
    clsa_context *c = open_ctx(limit, 0, NULL, NULL);
    check_one(c, t, n, 0, "automatic switch");
    clsa_stats s;
    clsa_get_stats(c, &s);
    assert_true(s.peak_device_bytes <= limit);
    assert_true(s.peak_device_bytes > 0);
    clsa_destroy(c);
    free(t);
}

/* A budget below the minimum: CLSA_ERR_DEVICE_MEMORY before any kernel, the
 * message naming the minimum in bytes; a context with that minimum works. */
static void budget_too_small(void **state)
{
    (void)state;
    size_t n = tu_size(5000, 500);
    uint8_t *t = tu_malloc(n);
    int32_t *sa = tu_malloc(n * 4);
    gen_fill(t, n, GEN_RANDOM, 4, 9);
    clsa_context *c = open_ctx(2000, 0, NULL, NULL);
    assert_int_equal(clsa_sa32(c, t, sa, (int64_t)n), CLSA_ERR_DEVICE_MEMORY);
    const char *msg = clsa_last_error(c);
    fprintf(stderr, "2000 bytes: %s\n", msg);
    const char *at = strstr(msg, "at least ");
    assert_non_null(at);
    assert_non_null(strstr(msg, "mem_limit"));
    unsigned long long minimum = strtoull(at + 9, NULL, 10);
    assert_true(minimum > 2000);
    clsa_stats s;
    clsa_get_stats(c, &s);
    assert_int_equal(s.kernel_launches, 0);
    assert_int_equal(s.current_device_bytes, 0);
    clsa_destroy(c);
    c = open_ctx((size_t)minimum, 0, NULL, NULL);
    check_one(c, t, n, 0, "minimum budget");
    clsa_get_stats(c, &s);
    assert_true(s.peak_device_bytes <= minimum);
    clsa_destroy(c);
    c = open_ctx((size_t)minimum - 1, 1, NULL, NULL); /* forced: n is small enough to fit in memory */
    assert_int_equal(clsa_sa32(c, t, sa, (int64_t)n), CLSA_ERR_DEVICE_MEMORY);
    clsa_destroy(c);
    free(t);
    free(sa);
}

/* CLSA_DEVICE_MEM_LIMIT is the same notion (K/M/G suffixes); the option,
 * when set, wins over it. */
static void env_limit(void **state)
{
    (void)state;
    size_t n = tu_size(20000, 1500);
    uint8_t *t = tu_malloc(n);
    int32_t *sa = tu_malloc(n * 4);
    /* Oclgrind: out of core on random DNA (a few rounds; the repeats' dozen
     * run the same kernels), the in-memory build below on the repeats */
    if (tu_lean()) gen_fill(t, n, GEN_RANDOM, 4, 3);
    else gen_fill(t, n, GEN_MUTATED, 100, 3);
    setenv("CLSA_DEVICE_MEM_LIMIT", tu_small() ? "32K" : "64K", 1);
    clsa_context *c = open_ctx(0, 0, NULL, NULL);
    check_one(c, t, n, 1, "CLSA_DEVICE_MEM_LIMIT");
    clsa_stats s;
    clsa_get_stats(c, &s);
    assert_true(s.peak_device_bytes <= (tu_small() ? 32u : 64u) << 10);
    clsa_destroy(c);
    setenv("CLSA_DEVICE_MEM_LIMIT", "1K", 1);
    c = open_ctx(0, 0, NULL, NULL);
    assert_int_equal(clsa_sa32(c, t, sa, (int64_t)n), CLSA_ERR_DEVICE_MEMORY);
    assert_non_null(strstr(clsa_last_error(c), "CLSA_DEVICE_MEM_LIMIT"));
    clsa_destroy(c);
    if (tu_lean()) gen_fill(t, n, GEN_MUTATED, 100, 3);
    c = open_ctx(tu_size(96u << 10, 40u << 10), 0, NULL, NULL); /* the option wins */
    check_one(c, t, n, 0, "option over env");
    clsa_destroy(c);
    unsetenv("CLSA_DEVICE_MEM_LIMIT");
    free(t);
    free(sa);
}

static int stop_at_third(void *user, const char *phase, double fraction)
{
    (void)phase;
    (void)fraction;
    int *calls = user;
    return ++*calls == 3;
}

/* Cancelled between passes: CLSA_ERR_CANCELLED, nothing left on the device,
 * and the context still builds correct arrays. */
static void cancelled(void **state)
{
    (void)state;
    int calls = 0;
    size_t n = tu_size(4000, 400);
    uint8_t *t = tu_malloc(n);
    int32_t *sa = tu_malloc(n * 4);
    /* Oclgrind: random DNA, a few rounds rather than Fibonacci's dozen */
    if (tu_lean()) gen_fill(t, n, GEN_RANDOM, 4, 1);
    else gen_fill(t, n, GEN_FIBONACCI, 0, 1);
    clsa_context *c = open_ctx(48u << 10, 1, stop_at_third, &calls);
    assert_int_equal(clsa_sa32(c, t, sa, (int64_t)n), CLSA_ERR_CANCELLED);
    clsa_stats s;
    clsa_get_stats(c, &s);
    assert_int_equal(s.current_device_bytes, 0);
    calls = -1000;
    check_one(c, t, n, 0, "after cancel");
    clsa_destroy(c);
    free(t);
    free(sa);
}

/* clsa sa --mem SIZE: the same file as without (and as libdivsufsort); a
 * budget below the minimum is a runtime error naming it; a bad SIZE is a
 * usage error of one line. */
static void cli_mem(void **state)
{
    (void)state;
    assert_int_equal(cli_dir_create("clsa-ooc"), 0);
    size_t n = tu_size(20000, 1200), got1, got2;
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 4, 21);
    write_file(in_dir("in"), t, n);
    const char *sa = "sa --backend device -q";
    assert_int_equal(run("%s %s %s", sa, in_dir("in"), in_dir("plain")), 0);
    assert_int_equal(run("%s --mem %s %s %s", sa, tu_small() ? "32K" : "64K", in_dir("in"),
                         in_dir("ooc")), 0);
    uint8_t *plain = read_file(in_dir("plain"), &got1), *ooc = read_file(in_dir("ooc"), &got2);
    assert_int_equal(got1, n * 4);
    assert_int_equal(got2, n * 4);
    assert_memory_equal(plain, ooc, n * 4);
    int32_t *ref = tu_malloc(n * 4);
    assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
    for (size_t i = 0; i < n; i++) /* the file is little-endian int32 */
        assert_int_equal((int32_t)(ooc[4 * i] | ooc[4 * i + 1] << 8 | ooc[4 * i + 2] << 16 |
                                   (uint32_t)ooc[4 * i + 3] << 24), ref[i]);
    assert_int_equal(run("%s --mem=2000 %s %s", sa, in_dir("in"), in_dir("small")), 3);
    size_t elen;
    uint8_t *err = read_file(in_dir("stderr"), &elen);
    assert_non_null(strstr((char *)err, "at least"));
    assert_false(exists(in_dir("small")));
    free(err);
    static const char *bad[] = {"abc", "0", "-5", "12Q", "1.5", "1.5Q", "", "99999999999999999999G"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(run("%s --mem '%s' %s %s", sa, bad[i], in_dir("in"), in_dir("bad")), 2);
        err = read_file(in_dir("stderr"), &elen);
        assert_non_null(strstr((char *)err, "--mem"));
        assert_non_null(strchr((char *)err, '\n'));
        assert_true(strchr((char *)err, '\n') == (char *)err + elen - 1); /* one line */
        free(err);
        assert_false(exists(in_dir("bad")));
    }
    assert_int_equal(run("%s %s %s --mem", sa, in_dir("in"), in_dir("bad")), 2);
    free(t);
    free(ref);
    free(plain);
    free(ooc);
    assert_int_equal(cli_dir_remove(), 0);
}

/* The 64-bit host layout (forced by CLSA_TUNE ooc64=1 at small n: the
 * layout every n >= 2^32 takes) over generated inputs, tiny budgets, both
 * output widths, against libdivsufsort; batches capped at 1, 2 or 5 groups
 * (ooc_groups: the cap the tag bits impose past 2^32) or not; the host
 * loops split over threads even for small batches (ooc_threads). */
static void wide_layout(void **state)
{
    (void)state;
    static const char *tunes[] = {"ooc=1,ooc64=1", "ooc=1,ooc64=1,ooc_groups=1,ooc_threads=3",
                                  "ooc=1,ooc64=1,ooc_groups=2", "ooc=1,ooc64=1,ooc_groups=5,ooc_threads=2",
                                  "ooc=1,ooc_threads=4"};
    static const size_t budgets[] = {32u << 10, 40u << 10, 64u << 10, 48u << 10, 36u << 10};
    /* one group a batch is one device sort a group: fewer inputs there */
    static const unsigned counts[] = {300, 30, 120, 120, 100};
    const char *dev = getenv("CLSA_DEVICE");
    unsigned total = 0, slow = dev && strstr(dev, "rusticl") ? 4 : 1;
    size_t maxn = tu_size(4000, 300);
    uint8_t *t = tu_malloc(maxn);
    for (size_t v = 0; v < sizeof tunes / sizeof *tunes; v++) {
        clsa_context *c = open_tuned(budgets[v], tunes[v], NULL, NULL);
        tu_rng r = {4000 + v};
        unsigned cases = (unsigned)tu_size(counts[v] / slow, 3);
        for (unsigned k = 0; k < cases; k++) {
            size_t n = k < 3 ? k : tu_below(&r, 3) ? tu_below(&r, 400) : tu_below(&r, (uint32_t)maxn + 1);
            fill_case(t, n, k, tu_next(&r));
            char what[96];
            snprintf(what, sizeof what, "%s case %u", tunes[v], k);
            check_one(c, t, n, k % 2, what);
            total++;
        }
        clsa_stats s;
        clsa_get_stats(c, &s);
        assert_true(s.peak_device_bytes <= budgets[v]);
        assert_int_equal(s.current_device_bytes, 0);
        assert_int_equal(s.last_backend, CLSA_BACKEND_DEVICE);
        clsa_destroy(c);
    }
    free(t);
    fprintf(stderr, "%u inputs in the 64-bit layout\n", total);
}

/* 16- and 32-bit symbols in the 64-bit layout, against the host backend. */
static void wide_integer_alphabets(void **state)
{
    (void)state;
    clsa_context *c = open_tuned(36u << 10, "ooc=1,ooc64=1,ooc_groups=3,ooc_threads=2", NULL, NULL);
    size_t n = tu_size(3000, 200);
    uint16_t *t16 = tu_malloc(n * 2);
    uint32_t *t32 = tu_malloc(n * 4);
    int32_t *sa = tu_malloc(n * 4), *ref = tu_malloc(n * 4);
    int64_t *sa64 = tu_malloc(n * 8), *ref64 = tu_malloc(n * 8);
    tu_rng r = {91};
    for (unsigned k = 0; k < 6; k++) {
        if (tu_lean() && k != 1 && k != 2 && k != 5) continue; /* Oclgrind: three kinds */
        uint32_t sigma = k == 0 ? 2 : k == 1 ? 65536 : k == 2 ? 3 : k == 3 ? 1 : k == 4 ? 7 : 0;
        size_t m = k == 5 ? n / 3 : n;
        for (size_t i = 0; i < m; i++) {
            uint32_t v = sigma ? tu_below(&r, sigma) : (uint32_t)tu_next(&r);
            t16[i] = (uint16_t)v;
            t32[i] = k == 2 ? 0xfffffffeu + v % 2 : v;
        }
        if (!tu_lean() || k == 1) { /* Oclgrind: 16 bits over their full range */
            TU_OK(c, clsa_sa64_u16(c, t16, sa64, (int64_t)m));
            TU_OK(NULL, clsa_sa64_u16(NULL, t16, ref64, (int64_t)m));
            assert_memory_equal(sa64, ref64, m * 8);
        }
        if (!tu_lean() || k != 1) { /* 32 bits at the top and over all of it */
            TU_OK(c, clsa_sa32_u32(c, t32, sa, (int64_t)m));
            TU_OK(NULL, clsa_sa32_u32(NULL, t32, ref, (int64_t)m));
            assert_memory_equal(sa, ref, m * 4);
        }
    }
    clsa_stats s;
    clsa_get_stats(c, &s);
    assert_true(s.peak_device_bytes <= 36u << 10);
    clsa_destroy(c);
    free(t16);
    free(t32);
    free(sa);
    free(ref);
    free(sa64);
    free(ref64);
}

/* The plan says what the call then does: the route (last_backend; out of
 * core exactly when the in-memory need passes the budget), the peak
 * within the planned device bytes and the budget; its argument errors are
 * the call's. */
static void plan_matches_call(void **state)
{
    (void)state;
    size_t n = tu_size(20000, 1500), limit = tu_size(64u << 10, 32u << 10);
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 4, 31);
    clsa_sa_plan_info p;
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0: a budget below the in-memory need (out of core); 1: none */
        clsa_context *c = open_ctx(pass ? 0 : limit, 0, NULL, NULL);
        for (int wide = 0; wide < 2; wide++) {
            TU_OK(c, clsa_sa_plan(c, (int64_t)n, 1, wide, &p));
            assert_int_equal(p.route, pass ? CLSA_ROUTE_DEVICE : CLSA_ROUTE_DEVICE_OOC);
            assert_true(pass ? p.in_memory_bytes <= p.budget_bytes
                             : p.in_memory_bytes > p.budget_bytes);
            if (!pass) {
                assert_int_equal(p.budget_bytes, limit);
                assert_true(p.chunk_items > 0 && p.chunk_items <= n);
                assert_true(p.device_bytes <= p.budget_bytes);
                assert_true(p.host_bytes >= 4 * (uint64_t)n);
                assert_int_equal(p.index64_host, 0);
            } else {
                assert_int_equal(p.chunk_items, 0);
                assert_int_equal(p.device_bytes, p.in_memory_bytes);
            }
            if (tu_lean() && wide != pass) continue; /* Oclgrind: one width a route */
            clsa_reset_stats(c);
            check_one(c, t, n, wide, pass ? "planned in memory" : "planned out of core");
            clsa_stats s;
            clsa_get_stats(c, &s);
            assert_int_equal(s.last_backend, CLSA_BACKEND_DEVICE);
            assert_true(s.peak_device_bytes <= p.budget_bytes);
            if (!pass) assert_true(s.peak_device_bytes <= p.device_bytes);
        }
        /* n >= 2^32 on the device: out of core in the 64-bit layout (planned
         * only; a machine with under ~50 GB is told it lacks the host memory) */
        clsa_status st = clsa_sa_plan(c, (int64_t)5 << 30, 1, 1, &p);
        assert_true(st == CLSA_OK || st == CLSA_ERR_HOST_MEMORY);
        assert_int_equal(p.route, CLSA_ROUTE_DEVICE_OOC);
        assert_int_equal(p.index64_host, 1);
        assert_true(p.chunk_items > 0);
        assert_true(p.host_bytes >= 8 * ((uint64_t)5 << 30));
        /* 2^50 symbols: no machine's host memory, the call's error */
        assert_int_equal(clsa_sa_plan(c, (int64_t)1 << 50, 1, 1, &p), CLSA_ERR_HOST_MEMORY);
        assert_non_null(strstr(clsa_last_error(c), "host memory"));
        assert_int_equal(p.route, CLSA_ROUTE_DEVICE_OOC);
        /* the call's argument errors */
        assert_int_equal(clsa_sa_plan(c, (int64_t)1 << 31, 1, 0, &p), CLSA_ERR_TOO_LARGE);
        assert_int_equal(clsa_sa_plan(c, -1, 1, 1, &p), CLSA_ERR_INVALID_ARG);
        assert_int_equal(clsa_sa_plan(c, 10, 3, 1, &p), CLSA_ERR_INVALID_ARG);
        assert_int_equal(clsa_sa_plan(c, 10, 1, 1, NULL), CLSA_ERR_INVALID_ARG);
        clsa_destroy(c);
    }
    /* a budget below the out-of-core minimum: the call's error */
    clsa_context *c = open_ctx(2000, 0, NULL, NULL);
    assert_int_equal(clsa_sa_plan(c, (int64_t)n, 1, 0, &p), CLSA_ERR_DEVICE_MEMORY);
    assert_non_null(strstr(clsa_last_error(c), "at least"));
    clsa_destroy(c);
    /* forced out of core with the 64-bit layout: the plan says so */
    c = open_tuned(limit, "ooc=1,ooc64=1", NULL, NULL);
    TU_OK(c, clsa_sa_plan(c, 100, 2, 0, &p));
    assert_int_equal(p.route, CLSA_ROUTE_DEVICE_OOC);
    assert_int_equal(p.index64_host, 1);
    clsa_destroy(c);
    /* the host backend: no device bytes; 16-bit symbols past 2^32 - 1 are TOO_LARGE there */
    TU_OK(NULL, clsa_sa_plan(NULL, (int64_t)n, 1, 0, &p));
    assert_int_equal(p.route, CLSA_ROUTE_HOST);
    assert_int_equal(p.budget_bytes, 0);
    assert_int_equal(clsa_sa_plan(NULL, (int64_t)5 << 30, 2, 1, &p), CLSA_ERR_TOO_LARGE);
    TU_OK(NULL, clsa_sa_plan(NULL, (int64_t)5 << 30, 1, 1, &p));
    assert_int_equal(p.route, CLSA_ROUTE_HOST);
    free(t);
}

/* clsa sa --stats prints the plan: route, budget, chunk. */
static void cli_plan(void **state)
{
    (void)state;
    assert_int_equal(cli_dir_create("clsa-ooc-plan"), 0);
    size_t n = tu_size(20000, 2000), elen; /* in-memory need > 32K */
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 4, 22);
    write_file(in_dir("in"), t, n);
    assert_int_equal(run("sa --backend device -q --stats --mem 32K %s %s", in_dir("in"),
                         in_dir("out")), 0);
    char *err = (char *)read_file(in_dir("stderr"), &elen);
    fprintf(stderr, "%s", err);
    assert_non_null(strstr(err, "plan: route device, out of core"));
    assert_non_null(strstr(err, "plan: budget 32768 bytes"));
    assert_non_null(strstr(err, "plan: chunk "));
    free(err);
    assert_int_equal(run("sa --backend device -q --stats %s %s", in_dir("in"), in_dir("out")), 0);
    err = (char *)read_file(in_dir("stderr"), &elen);
    assert_non_null(strstr(err, "plan: route device, in memory"));
    free(err);
    free(t);
    assert_int_equal(cli_dir_remove(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(many_inputs),      cmocka_unit_test(integer_alphabets),
        cmocka_unit_test(automatic_switch), cmocka_unit_test(budget_too_small),
        cmocka_unit_test(env_limit),        cmocka_unit_test(cancelled),
        cmocka_unit_test(cli_mem),          cmocka_unit_test(wide_layout),
        cmocka_unit_test(wide_integer_alphabets), cmocka_unit_test(plan_matches_call),
        cmocka_unit_test(cli_plan),
    };
    const char *filter = getenv("CLSA_TEST_FILTER"); /* e.g. "wide_*" while debugging */
    if (filter) cmocka_set_test_filter(filter);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
