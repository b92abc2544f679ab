/* clsa sa / check through the command line, on the device under test. */
#include <divsufsort.h>

#include "cli_util.h"
#include "gen.h"

static void sa_then_check(void **state)
{
    (void)state;
    size_t n = tu_size(200000, 2000);
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 4, 5);
    char in[300], out[300], args[1024];
    snprintf(in, sizeof in, "%s/in.bin", dir);
    snprintf(out, sizeof out, "%s/out.sa", dir);
    write_file(in, t, n);
    for (int width = 32; width <= 64; width += 32) {
        /* the 64-bit one by skew (--algorithm), which --stats names */
        snprintf(args, sizeof args, "sa --backend device --index %d --stats %s %s %s", width,
                 width == 64 ? "--algorithm skew" : "", in, out);
        assert_int_equal(run("%s", args), 0);
        if (width == 64) {
            size_t len;
            char *err = (char *)read_file(in_dir("stderr"), &len);
            assert_non_null(strstr(err, "stats: algorithm skew, skew levels"));
            free(err);
        }
        size_t bytes;
        uint8_t *sa = read_file(out, &bytes);
        assert_int_equal(bytes, n * (size_t)width / 8);
        int32_t *ref = tu_malloc(n * 4);
        assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
        for (size_t i = 0; i < n; i++) {
            int64_t v = width == 32 ? ((int32_t *)(void *)sa)[i] : ((int64_t *)(void *)sa)[i];
            if (v != ref[i]) fail_msg("width %d: SA[%zu] = %lld, want %d", width, i, (long long)v, ref[i]);
        }
        snprintf(args, sizeof args, "check --index %d %s %s", width, in, out);
        assert_int_equal(run("%s", args), 0);
        /* damage one entry: exit 1 */
        if (width == 32) {
            int32_t *s32 = (int32_t *)(void *)sa;
            int32_t x = s32[1];
            s32[1] = s32[2];
            s32[2] = x;
            write_file(out, sa, bytes);
            snprintf(args, sizeof args, "check %s %s", in, out);
            assert_int_equal(run("%s", args), 1);
            /* wrong width: exit 1 with a reason */
            snprintf(args, sizeof args, "check --index 64 %s %s", in, out);
            assert_int_equal(run("%s", args), 1);
        }
        free(sa);
        free(ref);
    }
    assert_int_equal(run("sa --algorithm dc3 %s %s", in, out), 2);
    free(t);
}

/* --algorithm runlen on a text of runs: the suffix array, and --stats
 * naming it (Oclgrind's lean mode: the kernels run in test_runlen). */
static void runlen_by_name(void **state)
{
    (void)state;
    if (tu_lean()) skip();
    size_t n = tu_size(20000, 500);
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RUNS, 8, 2);
    char in[300], out[300];
    snprintf(in, sizeof in, "%s/runs.bin", dir);
    snprintf(out, sizeof out, "%s/runs.sa", dir);
    write_file(in, t, n);
    assert_int_equal(run("sa --backend device --algorithm runlen --stats %s %s", in, out), 0);
    size_t len, bytes;
    char *err = (char *)read_file(in_dir("stderr"), &len);
    assert_non_null(strstr(err, "stats: algorithm runlen"));
    int32_t *sa = (int32_t *)(void *)read_file(out, &bytes), *ref = tu_malloc(n * 4);
    assert_int_equal(bytes, n * 4);
    assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
    assert_memory_equal(sa, ref, n * 4);
    free(err);
    free(sa);
    free(ref);
    free(t);
}

static void failures_leave_nothing(void **state)
{
    (void)state;
    char args[1024], out[300];
    snprintf(out, sizeof out, "%s/never.sa", dir);
    snprintf(args, sizeof args, "sa %s/missing.bin %s", dir, out);
    assert_int_equal(run("%s", args), 3);
    assert_false(exists(out));
    snprintf(args, sizeof args, "sa --no-such-option a b");
    assert_int_equal(run("%s", args), 2);
    assert_int_equal(run("sa onlyone"), 2);
    assert_int_equal(run("sa --index 48 a b"), 2);
    assert_int_equal(run("frobnicate"), 2);
    assert_int_equal(run("--version"), 0);
    assert_int_equal(run("--help"), 0);
    assert_int_equal(run("sa --help"), 0);
    assert_int_equal(run("devices"), 0);
}

static void empty_input(void **state)
{
    (void)state;
    char args[1024], in[300], out[300];
    snprintf(in, sizeof in, "%s/empty.bin", dir);
    snprintf(out, sizeof out, "%s/empty.sa", dir);
    write_file(in, "", 0);
    snprintf(args, sizeof args, "sa --backend device %s %s", in, out);
    assert_int_equal(run("%s", args), 0);
    size_t n;
    free(read_file(out, &n));
    assert_int_equal(n, 0);
    snprintf(args, sizeof args, "check %s %s", in, out);
    assert_int_equal(run("%s", args), 0);
}

static char *read_stream(const char *name)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t n;
    uint8_t *d = read_file(path, &n);
    char *s = tu_malloc(n + 1);
    memcpy(s, d, n);
    s[n] = 0;
    free(d);
    return s;
}

/* -q/-v on the long commands: -v prints phase times; stderr here is a file,
 * so no progress line (no carriage return, no percentage) either way. */
static void progress_flags(void **state)
{
    (void)state;
    size_t n = tu_size(20000, 1000);
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 4, 7);
    char in[300], out[300];
    snprintf(in, sizeof in, "%s/prog.bin", dir);
    snprintf(out, sizeof out, "%s/prog.sa", dir);
    write_file(in, t, n);
    assert_int_equal(run("sa --backend device %s %s", in, out), 0);
    char *err = read_stream("stderr");
    assert_null(strchr(err, '\r'));
    assert_null(strchr(err, '%'));
    free(err);
    assert_int_equal(run("sa --backend device -q -v %s %s", in, out), 0);
    err = read_stream("stderr");
    assert_null(strchr(err, '\r'));
    assert_non_null(strstr(err, "clsa: phase initial sort"));
    assert_non_null(strstr(err, "clsa: total"));
    free(err);
    assert_int_equal(run("sa --backend host --quiet --verbose %s %s", in, out), 0);
    err = read_stream("stderr");
    assert_non_null(strstr(err, "clsa: phase sort (host)"));
    free(err);
    assert_int_equal(run("sa --backend host --threads 3 %s %s", in, out), 0);
    assert_int_equal(run("sa --backend host --threads 0 %s %s", in, out), 2);
    assert_int_equal(run("check -v %s %s", in, out), 2);  /* check has no progress */
    assert_int_equal(run("sa --quiet=1 %s %s", in, out), 2);
    assert_int_equal(run("--version"), 0);
    char *o = read_stream("stdout");
    assert_non_null(strstr(o, "clsa " CLSA_VERSION_STRING "\n"));
    assert_non_null(strstr(o, "OpenCL: "));
    free(o);
    free(t);
}

int main(void)
{
    if (cli_dir_create("clsa-cli-sa")) return 1;
    clsa_destroy(tu_context()); /* skips cleanly when the device is missing */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sa_then_check), cmocka_unit_test(runlen_by_name),
        cmocka_unit_test(failures_leave_nothing),
        cmocka_unit_test(empty_input), cmocka_unit_test(progress_flags),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (cli_dir_remove()) rc = 1;
    return rc;
}
