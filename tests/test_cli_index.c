/* clsa bwt / unbwt / lcp through the command line, on the device under test. */
#include <divsufsort.h>

#include "cli_util.h"
#include "gen.h"

/* "primary=<P>" from the last command's stdout. */
static long long printed_primary(void)
{
    size_t n;
    char *out = (char *)read_file(in_dir("stdout"), &n);
    long long p = -1;
    if (sscanf(out, "primary=%lld", &p) != 1) fail_msg("no primary in '%s'", out);
    free(out);
    return p;
}

/* Under Oclgrind the commands run on the host: bwt and lcp would build the
 * suffix array on the device (minutes there).  The kernels themselves are
 * checked under Oclgrind by test_bwt / test_lcp; here the subject is the
 * command line. */
static const char *dev_backend(void) { return tu_small() ? "host" : "device"; }

static void check_round_trip(const uint8_t *t, size_t n, const char *backend)
{
    write_file(in_dir("in.bin"), t, n);
    if (!strcmp(backend, "device")) backend = dev_backend();
    assert_int_equal(run("bwt --backend %s %s %s", backend, in_dir("in.bin"), in_dir("out.bwt")), 0);
    long long p = printed_primary();
    uint8_t *want = tu_malloc(n);
    assert_int_equal(p, divbwt(t, want, NULL, (saidx_t)n));
    size_t got_n;
    uint8_t *got = read_file(in_dir("out.bwt"), &got_n);
    assert_int_equal(got_n, n);
    assert_memory_equal(got, want, n);
    assert_int_equal(run("unbwt --backend %s --primary %lld %s %s", backend, p, in_dir("out.bwt"),
                         in_dir("back.bin")), 0);
    uint8_t *back = read_file(in_dir("back.bin"), &got_n);
    assert_int_equal(got_n, n);
    assert_memory_equal(back, t, n);
    free(want);
    free(got);
    free(back);
}

static void bwt_round_trip(void **state)
{
    (void)state;
    size_t n = tu_size(20000, 300);
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 256, 9);
    check_round_trip(t, n, "device");
    check_round_trip(t, n, "host");
    gen_fill(t, n, GEN_MUTATED, 100, 10);
    check_round_trip(t, n, "device");
    check_round_trip((const uint8_t *)"x", 1, "device");
    check_round_trip((const uint8_t *)"", 0, "device");
    free(t);
}

static void unbwt_errors(void **state)
{
    (void)state;
    write_file(in_dir("b.bwt"), "annbaa", 6);
    const char *bad[] = {"0", "7", "-1", "99999999999"};
    for (int k = 0; k < 4; k++) {
        int rc = run("unbwt --backend device --primary %s %s %s", bad[k], in_dir("b.bwt"),
                     in_dir("never.txt"));
        assert_true(rc == 2 || rc == 3);
        size_t n;
        char *err = (char *)read_file(in_dir("stderr"), &n);
        if (!strstr(err, "primary")) fail_msg("primary %s: message '%s'", bad[k], err);
        free(err);
        assert_false(exists(in_dir("never.txt")));
    }
    assert_int_equal(run("unbwt %s %s", in_dir("b.bwt"), in_dir("never.txt")), 2); /* no --primary */
    assert_int_equal(run("unbwt --primary x %s %s", in_dir("b.bwt"), in_dir("never.txt")), 2);
    assert_int_equal(run("unbwt --primary 4 %s %s", in_dir("missing.bwt"), in_dir("never.txt")), 3);
    assert_int_equal(run("bwt %s %s", in_dir("missing.bin"), in_dir("never.txt")), 3);
    assert_int_equal(run("lcp %s %s", in_dir("missing.bin"), in_dir("never.txt")), 3);
    assert_false(exists(in_dir("never.txt")));
    assert_int_equal(run("bwt --no-such-option a b"), 2);
    assert_int_equal(run("unbwt --no-such-option a b"), 2);
    assert_int_equal(run("lcp --no-such-option a b"), 2);
    assert_int_equal(run("lcp --index 48 a b"), 2);
    assert_int_equal(run("bwt onlyone"), 2);
    assert_int_equal(run("bwt --help"), 0);
    assert_int_equal(run("unbwt --primary 4 --backend %s %s %s", dev_backend(), in_dir("b.bwt"),
                         in_dir("ok.txt")), 0);
    size_t n;
    char *txt = (char *)read_file(in_dir("ok.txt"), &n);
    assert_string_equal(txt, "banana");
    free(txt);
}

static void lcp_files(void **state)
{
    (void)state;
    size_t n = tu_size(20000, 300);
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_FIBONACCI, 0, 1);
    write_file(in_dir("fib.bin"), t, n);
    int32_t *sa = tu_malloc(n * 4), *rank = tu_malloc(n * 4);
    int64_t *want = tu_malloc(n * 8);
    assert_int_equal(divsufsort(t, sa, (saidx_t)n), 0);
    for (size_t i = 0; i < n; i++) rank[sa[i]] = (int32_t)i;
    size_t h = 0;
    want[0] = 0;
    for (size_t j = 0; j < n; j++) { /* Kasai */
        if (rank[j] == 0) continue;
        size_t k = (size_t)sa[rank[j] - 1];
        while (j + h < n && k + h < n && t[j + h] == t[k + h]) h++;
        want[rank[j]] = (int64_t)h;
        if (h) h--;
    }
    for (int width = 32; width <= 64; width += 32) {
        assert_int_equal(run("lcp --backend %s --index %d %s %s", dev_backend(), width,
                             in_dir("fib.bin"), in_dir("fib.lcp")), 0);
        size_t bytes;
        uint8_t *got = read_file(in_dir("fib.lcp"), &bytes);
        assert_int_equal(bytes, n * (size_t)width / 8);
        for (size_t i = 0; i < n; i++) {
            int64_t v = 0;
            for (int b = width / 8 - 1; b >= 0; b--) v = v * 256 + got[i * (size_t)width / 8 + (size_t)b];
            if (v != want[i]) fail_msg("width %d: lcp[%zu]=%lld want %lld", width, i, (long long)v, (long long)want[i]);
        }
        free(got);
    }
    assert_int_equal(run("lcp --backend host %s %s", in_dir("fib.bin"), in_dir("fib2.lcp")), 0);
    free(t);
    free(sa);
    free(rank);
    free(want);
}

static int stderr_has(const char *what)
{
    size_t n;
    char *err = (char *)read_file(in_dir("stderr"), &n);
    int has = strstr(err, what) != NULL;
    if (!has) fprintf(stderr, "no '%s' in:\n%s\n", what, err);
    free(err);
    return has;
}

/* Under a largest allocation below the suffix array (CLSA_TUNE max_alloc):
 * bwt and index --stats name the out-of-core route and why, and write
 * what they write without the cap. */
static void plan_past_alloc(void **state)
{
    (void)state;
    if (tu_small()) skip(); /* out of core on Oclgrind: minutes */
    size_t n = 20000, got_n, want_n;
    uint8_t *t = tu_malloc(n), *want = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 4, 12);
    write_file(in_dir("in.bin"), t, n);
    assert_int_equal(run("index %s %s", in_dir("in.bin"), in_dir("want.fm")), 0);
    const char *old = getenv("CLSA_TUNE");
    char *saved = old ? strdup(old) : NULL, tune[128];
    snprintf(tune, sizeof tune, "%s%shost_threshold=1,max_alloc=%zu", old ? old : "",
             old && *old ? "," : "", 2 * n);
    setenv("CLSA_TUNE", tune, 1);
    int rb = run("bwt --stats %s %s", in_dir("in.bin"), in_dir("out.bwt"));
    long long primary = rb ? -1 : printed_primary();
    int bwt_plan = stderr_has("plan: route device, out of core") &&
                   stderr_has("an n-entry array would pass the largest allocation");
    int ri = run("index --stats %s %s", in_dir("in.bin"), in_dir("got.fm"));
    int index_plan = stderr_has("plan: route device, out of core");
    if (saved) setenv("CLSA_TUNE", saved, 1);
    else unsetenv("CLSA_TUNE");
    free(saved);
    assert_int_equal(rb, 0);
    assert_int_equal(ri, 0);
    assert_true(bwt_plan && index_plan);
    assert_int_equal(primary, divbwt(t, want, NULL, (saidx_t)n));
    uint8_t *got = read_file(in_dir("out.bwt"), &got_n);
    assert_memory_equal(got, want, n);
    free(got);
    got = read_file(in_dir("got.fm"), &got_n);
    uint8_t *fm = read_file(in_dir("want.fm"), &want_n);
    assert_int_equal(got_n, want_n);
    assert_memory_equal(got, fm, got_n);
    free(got), free(fm), free(t), free(want);
}

int main(void)
{
    if (cli_dir_create("clsa-cli-index")) return 1;
    clsa_destroy(tu_context()); /* skips cleanly when the device is missing */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bwt_round_trip), cmocka_unit_test(unbwt_errors),
        cmocka_unit_test(lcp_files), cmocka_unit_test(plan_past_alloc),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (cli_dir_remove()) rc = 1;
    return rc;
}
