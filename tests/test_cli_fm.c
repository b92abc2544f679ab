/* clsa index / count / locate / lcs through the command line, on the device
 * under test: outputs against a naive search, line conventions, a damaged
 * index (exit 3 with a message), usage errors (exit 2). */
#include "cli_util.h"
#include "gen.h"

static char *read_text(const char *name)
{
    size_t n;
    return (char *)read_file(in_dir(name), &n);
}

/* Expected stdout of count and locate for the patterns, naive search. */
static void expect(const uint8_t *t, size_t n, const uint8_t *pats, const size_t *start,
                   const size_t *len, size_t np, char *counts, char *locs)
{
    char *c = counts, *l = locs;
    for (size_t p = 0; p < np; p++) {
        int first = 1;
        uint64_t k = 0;
        for (size_t i = 0; i + len[p] <= n; i++)
            if (len[p] == 0 ? i < n : !memcmp(t + i, pats + start[p], len[p])) {
                l += sprintf(l, first ? "%zu" : " %zu", i);
                first = 0;
                k++;
            }
        c += sprintf(c, "%llu\n", (unsigned long long)k);
        l += sprintf(l, "\n");
    }
}

static void index_count_locate(void **state)
{
    (void)state;
    size_t n = tu_size(20000, 300);
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 4, 21);
    write_file(in_dir("text"), t, n);
    /* Patterns: present, absent, 0x00/0xFF (never 0x0A), an empty line, and
     * no final newline after the last one. */
    uint8_t pats[4096];
    size_t start[64], len[64], np = 0, used = 0;
    tu_rng r = {3};
    for (int k = 0; k < 40; k++) {
        size_t m = k == 5 ? 0 : 1 + tu_below(&r, 8);
        start[np] = used;
        len[np] = m;
        for (size_t i = 0; i < m; i++) {
            uint8_t b = k % 3 ? t[(tu_below(&r, (uint32_t)(n - 10))) + i] : (uint8_t)tu_next(&r);
            if (k % 3 && i == 0) b = t[start[np] % (n - 10)];
            pats[used + i] = b == '\n' ? 0xFF : b;
        }
        if (k % 3 == 1 && m <= n) memcpy(pats + used, t + (k * 37) % (n - m), m);
        used += m;
        np++;
    }
    uint8_t file[8192];
    size_t fl = 0;
    for (size_t p = 0; p < np; p++) {
        memcpy(file + fl, pats + start[p], len[p]);
        fl += len[p];
        if (p + 1 < np) file[fl++] = '\n';
    }
    write_file(in_dir("pats"), file, fl);
    char args[2048];
    snprintf(args, sizeof args, "index --backend device --sample-rate 7 %s %s", in_dir("text"),
             in_dir("idx"));
    assert_int_equal(run("%s", args), 0);
    char *counts = tu_malloc(np * 24 + 1), *locs = tu_malloc(np * (n * 8 + 2) + 1);
    expect(t, n, pats, start, len, np, counts, locs);
    snprintf(args, sizeof args, "count %s %s", in_dir("idx"), in_dir("pats"));
    assert_int_equal(run("%s", args), 0);
    char *out = read_text("stdout");
    assert_string_equal(out, counts);
    free(out);
    snprintf(args, sizeof args, "locate -d \"$CLSA_DEVICE\" %s %s", in_dir("idx"),
             in_dir("pats"));
    assert_int_equal(run("%s", args), 0);
    out = read_text("stdout");
    assert_string_equal(out, locs);
    free(out);
    /* A trailing newline adds no pattern; an empty file gives no output. */
    file[fl] = '\n';
    write_file(in_dir("pats2"), file, fl + 1);
    snprintf(args, sizeof args, "count %s %s", in_dir("idx"), in_dir("pats2"));
    assert_int_equal(run("%s", args), 0);
    out = read_text("stdout");
    assert_string_equal(out, counts);
    free(out);
    write_file(in_dir("none"), "", 0);
    snprintf(args, sizeof args, "count %s %s", in_dir("idx"), in_dir("none"));
    assert_int_equal(run("%s", args), 0);
    out = read_text("stdout");
    assert_string_equal(out, "");
    free(out);
    free(counts);
    free(locs);
    free(t);
}

static void damaged_index(void **state)
{
    (void)state;
    uint8_t t[500];
    gen_fill(t, sizeof t, GEN_RANDOM, 20, 4);
    write_file(in_dir("t2"), t, sizeof t);
    write_file(in_dir("p2"), "a\n", 2);
    char args[2048];
    snprintf(args, sizeof args, "index %s %s", in_dir("t2"), in_dir("i2"));
    assert_int_equal(run("%s", args), 0);
    FILE *f = fopen(in_dir("i2"), "r+b");
    assert_non_null(f);
    fseek(f, 2300, SEEK_SET); /* inside the BWT */
    int c = fgetc(f);
    fseek(f, 2300, SEEK_SET); /* inside the BWT */
    fputc(c ^ 0x10, f);
    fclose(f);
    snprintf(args, sizeof args, "count %s %s", in_dir("i2"), in_dir("p2"));
    assert_int_equal(run("%s", args), 3);
    char *err = read_text("stderr");
    assert_non_null(strstr(err, "checksum"));
    free(err);
    /* Not an index at all. */
    snprintf(args, sizeof args, "locate %s %s", in_dir("t2"), in_dir("p2"));
    assert_int_equal(run("%s", args), 3);
    err = read_text("stderr");
    assert_non_null(strstr(err, "not a valid clsa FM-index"));
    free(err);
    snprintf(args, sizeof args, "count %s/missing %s", dir, in_dir("p2"));
    assert_int_equal(run("%s", args), 3);
}

static void lcs_and_usage(void **state)
{
    (void)state;
    write_file(in_dir("a"), "xx\x00\xff" "abcdefgh", 12);
    write_file(in_dir("b"), "zzabcdefq\x00\xff", 11);
    char args[2048];
    snprintf(args, sizeof args, "lcs --backend device %s %s", in_dir("a"), in_dir("b"));
    assert_int_equal(run("%s", args), 0);
    char *out = read_text("stdout");
    assert_string_equal(out, "length=6 a=4 b=2\n");
    free(out);
    assert_int_equal(run("count"), 2);
    assert_int_equal(run("lcs onlyone"), 2);
    assert_int_equal(run("index --sample-rate 0 x y"), 2);
    assert_int_equal(run("locate --bogus a b"), 2);
}

int main(void)
{
    if (cli_dir_create("clsa-cli-fm")) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(index_count_locate),
        cmocka_unit_test(damaged_index),
        cmocka_unit_test(lcs_and_usage),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (cli_dir_remove()) rc = rc ? rc : 1;
    return rc;
}
