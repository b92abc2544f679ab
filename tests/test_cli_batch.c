/* clsa sa --batch LIST and clsa bwt --batch LIST through the command line, on the device under test:
 * every output equals libdivsufsort's suffix array of its input (generated,
 * fixed seeds, several kinds and sizes, 32- and 64-bit), equals what a
 * single `clsa sa` writes, and the error rules hold: a malformed list or
 * an output naming an input is exit 2 with nothing written; a failing pair
 * (missing input) writes nothing, the pairs after it still run, exit 3. */
#include <divsufsort.h>

#include "cli_util.h"
#include "gen.h"

#define NIN 6

/* Input k: kind, size and seed vary, so the pairs are not one case repeated. */
static size_t make_input(int k, char *path, size_t cap, uint8_t **text)
{
    static const gen_kind kinds[] = {GEN_RANDOM, GEN_PERIODIC, GEN_FIBONACCI, GEN_MUTATED,
                                     GEN_RANDOM, GEN_ALL_EQUAL};
    static const unsigned params[] = {4, 7, 0, 300, 256, 0};
    size_t n = k == 5 ? 1 : tu_size(30000 + 17000 * (size_t)k, 300 + 50 * (size_t)k);
    *text = tu_malloc(n);
    gen_fill(*text, n, kinds[k], params[k], 100 + (uint64_t)k);
    snprintf(path, cap, "%s/in%d.bin", dir, k);
    write_file(path, *text, n);
    return n;
}

/* The file at path holds divsufsort's SA of t[0..n) at the given width. */
static void equals_reference(const char *path, const uint8_t *t, size_t n, int width)
{
    size_t bytes;
    uint8_t *sa = read_file(path, &bytes);
    assert_int_equal(bytes, n * (size_t)width / 8);
    int32_t *ref = tu_malloc((n ? n : 1) * 4);
    assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
    for (size_t i = 0; i < n; i++) {
        int64_t v = width == 32 ? ((int32_t *)(void *)sa)[i] : ((int64_t *)(void *)sa)[i];
        if (v != ref[i]) fail_msg("%s: SA[%zu] = %lld, want %d", path, i, (long long)v, ref[i]);
    }
    free(sa);
    free(ref);
}

static void batch_equals_reference(void **state)
{
    (void)state;
    char in[NIN][300], list[300];
    uint8_t *t[NIN];
    size_t n[NIN];
    for (int k = 0; k < NIN; k++) n[k] = make_input(k, in[k], sizeof in[k], &t[k]);
    snprintf(list, sizeof list, "%s/list.txt", dir);
    for (int width = 32; width <= 64; width += 32) {
        FILE *f = fopen(list, "w");
        assert_non_null(f);
        fprintf(f, "# generated pairs\n\n");
        for (int k = 0; k < NIN; k++) /* both separators, a CRLF line */
            fprintf(f, k % 2 ? "%s\t%s/out%d.sa\n" : "%s %s/out%d.sa\r\n", in[k], dir, k);
        assert_int_equal(fclose(f), 0);
        assert_int_equal(run("sa --backend device --index %d --batch %s -q", width, list), 0);
        for (int k = 0; k < NIN; k++) {
            char out[300];
            snprintf(out, sizeof out, "%s/out%d.sa", dir, k);
            equals_reference(out, t[k], n[k], width);
        }
    }
    /* the same bytes as one `clsa sa` per input */
    char one[300], out0[300];
    snprintf(one, sizeof one, "%s/one.sa", dir);
    snprintf(out0, sizeof out0, "%s/out0.sa", dir);
    assert_int_equal(run("sa --backend device --index 64 %s %s", in[0], one), 0);
    size_t a, b;
    uint8_t *x = read_file(one, &a), *y = read_file(out0, &b);
    assert_int_equal(a, b);
    assert_memory_equal(x, y, a);
    free(x);
    free(y);
    for (int k = 0; k < NIN; k++) free(t[k]);
}

/* clsa bwt --batch: every output is divbwt's BWT of its input and stdout
 * has one "OUTPUT primary=P" line per pair, in list order, P divbwt's; an
 * empty input gives an empty output and primary=0; a missing input fails
 * alone (no line, no file). */
static void bwt_batch_equals_divbwt(void **state)
{
    (void)state;
    char in[NIN + 1][300], list[300], line[700];
    uint8_t *t[NIN + 1];
    size_t n[NIN + 1];
    for (int k = 0; k < NIN; k++) n[k] = make_input(k, in[k], sizeof in[k], &t[k]);
    n[NIN] = 0;
    t[NIN] = tu_malloc(1);
    snprintf(in[NIN], sizeof in[NIN], "%s/empty.bin", dir);
    write_file(in[NIN], t[NIN], 0);
    snprintf(list, sizeof list, "%s/bwt_list.txt", dir);
    FILE *f = fopen(list, "w");
    assert_non_null(f);
    for (int k = 0; k <= NIN; k++) {
        fprintf(f, "%s %s/b%d.bwt\n", in[k], dir, k);
        if (k == 2) fprintf(f, "%s/missing.bin %s/bm.bwt\n", dir, dir);
    }
    assert_int_equal(fclose(f), 0);
    assert_int_equal(run("bwt --backend device --batch %s -q", list), 3);
    assert_false(exists(in_dir("bm.bwt")));
    size_t len;
    char *out = (char *)read_file(in_dir("stdout"), &len), *at = out;
    for (int k = 0; k <= NIN; k++) {
        uint8_t *want = tu_malloc(n[k] + 1);
        saidx_t p = n[k] ? divbwt(t[k], want, NULL, (saidx_t)n[k]) : 0;
        snprintf(line, sizeof line, "%s/b%d.bwt primary=%d\n", dir, k, (int)p);
        if (strncmp(at, line, strlen(line))) fail_msg("line %d: want %s got %s", k, line, at);
        at += strlen(line);
        size_t got_n;
        char path[300];
        snprintf(path, sizeof path, "%s/b%d.bwt", dir, k);
        uint8_t *got = read_file(path, &got_n);
        assert_int_equal(got_n, n[k]);
        assert_memory_equal(got, want, n[k]);
        free(got);
        free(want);
    }
    assert_int_equal(*at, 0);
    free(out);
    for (int k = 0; k <= NIN; k++) free(t[k]);
}

static void write_list(const char *list, const char *text)
{
    write_file(list, text, strlen(text));
}

/* A missing input fails its pair only; a bad list fails before any work. */
static void batch_errors(void **state)
{
    (void)state;
    uint8_t *t0, *t1;
    char in0[300], in1[300], list[300], text[2048];
    size_t n0 = make_input(0, in0, sizeof in0, &t0);
    size_t n1 = make_input(1, in1, sizeof in1, &t1);
    snprintf(list, sizeof list, "%s/errs.txt", dir);
    unlink(in_dir("e0.sa"));
    unlink(in_dir("e2.sa"));
    snprintf(text, sizeof text, "%s %s\n%s/missing.bin %s\n%s %s\n", in0, in_dir("e0.sa"), dir,
             in_dir("e1.sa"), in1, in_dir("e2.sa"));
    write_list(list, text);
    assert_int_equal(run("sa --backend device --batch %s", list), 3);
    assert_false(exists(in_dir("e1.sa")));
    equals_reference(in_dir("e0.sa"), t0, n0, 32);
    equals_reference(in_dir("e2.sa"), t1, n1, 32); /* after the failure, still run */
    size_t len;
    char *err = (char *)read_file(in_dir("stderr"), &len);
    if (!strstr(err, "missing.bin") || !strstr(err, "1 of 3 inputs failed"))
        fail_msg("stderr: %s", err);
    free(err);

    unlink(in_dir("e0.sa"));
    snprintf(text, sizeof text, "%s %s\n%s %s\n", in0, in_dir("e0.sa"), in1, in0);
    write_list(list, text); /* the second output is the first input */
    assert_int_equal(run("sa --backend device --batch %s", list), 2);
    assert_false(exists(in_dir("e0.sa")));
    snprintf(text, sizeof text, "%s %s\n%s\n", in0, in_dir("e0.sa"), in1);
    write_list(list, text); /* one word */
    assert_int_equal(run("sa --backend device --batch %s", list), 2);
    assert_false(exists(in_dir("e0.sa")));
    assert_int_equal(run("sa --batch %s %s %s", list, in0, in_dir("e0.sa")), 2);
    assert_int_equal(run("sa --batch %s/no-such-list.txt", dir), 3);
    free(t0);
    free(t1);
}

int main(void)
{
    if (cli_dir_create("clsa-cli-batch")) return 1;
    clsa_destroy(tu_context()); /* skips cleanly when the device is missing */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batch_equals_reference),
        cmocka_unit_test(batch_errors),
        cmocka_unit_test(bwt_batch_equals_divbwt),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (cli_dir_remove()) rc = 1;
    return rc;
}
