/* clsa sa -d LIST / -d all through the command line (tools/cli/devlist.c),
 * on the device under test: the device of this run (CLSA_DEVICE) listed
 * two and three times gives divsufsort's suffix array, byte for byte what
 * a single-device `clsa sa` writes, 32- and 64-bit, on generated inputs
 * (fixed seeds; random, periodic, Fibonacci, n = 0, 1, 2), from -d, from
 * CLSA_DEVICE and with --batch; --stats prints one line per device; -d all
 * builds on every GPU, or (CPU implementations) fails with exit 3 and
 * writes nothing; the selector `all` gives each device (devsel.c) opens
 * that device; bad lists are exit 2 (malformed) or 3 (no such device)
 * naming the entry, and every other command refuses a list with exit 2. */
#include <divsufsort.h>

#include "cli.h"
#include "cli_util.h"
#include "gen.h"

/* The device of this run, as run_impl.sh names it. */
static const char *dev(void)
{
    const char *d = getenv("CLSA_DEVICE");
    return d && *d ? d : "cpu";
}

/* divsufsort's SA of t[0..n) at the given width, as the CLI writes it
 * (little-endian: the test hosts are). */
static uint8_t *reference(const uint8_t *t, size_t n, int width, size_t *bytes)
{
    int32_t *ref = tu_malloc((n ? n : 1) * 4);
    assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
    *bytes = n * (size_t)width / 8;
    uint8_t *out = tu_malloc(*bytes + 1);
    for (size_t i = 0; i < n; i++) {
        if (width == 32) memcpy(out + 4 * i, &ref[i], 4);
        else memcpy(out + 8 * i, &(int64_t){ref[i]}, 8);
    }
    free(ref);
    return out;
}

/* The file holds exactly want[0..bytes). */
static void file_equals(const char *path, const uint8_t *want, size_t bytes, const char *what)
{
    size_t got;
    uint8_t *b = read_file(path, &got);
    if (got != bytes) fail_msg("%s: %s has %zu bytes, want %zu", what, path, got, bytes);
    for (size_t i = 0; i < bytes; i++)
        if (b[i] != want[i]) fail_msg("%s: %s differs at byte %zu", what, path, i);
    free(b);
}

typedef struct input {
    gen_kind kind;
    unsigned param;
    size_t n;
} input;

static size_t write_input(const input *c, uint64_t seed, const char *path, uint8_t **t)
{
    *t = tu_malloc(c->n + 1);
    gen_fill(*t, c->n, c->kind, c->param, seed);
    write_file(path, *t, c->n);
    return c->n;
}

/* One input through `sa -d LIST` and `sa -d DEV`: both equal the reference. */
static void one_case(const input *c, uint64_t seed, const char *list)
{
    char *in = in_dir("multi.bin"), *out = in_dir("multi.sa"), *one = in_dir("one.sa");
    uint8_t *t;
    size_t n = write_input(c, seed, in, &t);
    for (int width = 32; width <= 64; width += 32) {
        size_t bytes;
        uint8_t *want = reference(t, n, width, &bytes);
        char what[200];
        snprintf(what, sizeof what, "%s:%u n=%zu -d '%s' --index %d", gen_name(c->kind), c->param,
                 n, list, width);
        int rc = run("sa -q --backend device --index %d -d '%s' %s %s", width, list, in, out);
        if (rc) fail_msg("%s: exit %d", what, rc);
        file_equals(out, want, bytes, what);
        assert_int_equal(run("sa -q --backend device --index %d -d '%s' %s %s", width, dev(), in, one), 0);
        file_equals(one, want, bytes, "the single-device run");
        free(want);
    }
    free(t);
}

static void same_device_listed(void **state)
{
    (void)state;
    char two[300], three[300];
    snprintf(two, sizeof two, "%s,%s", dev(), dev());
    snprintf(three, sizeof three, " %s:0 ,%s, %s", dev(), dev(), dev()); /* blanks dropped */
    const input small[] = {{GEN_RANDOM, 4, 0}, {GEN_RANDOM, 4, 1}, {GEN_RANDOM, 2, 2}};
    for (size_t i = 0; i < sizeof small / sizeof *small; i++) one_case(&small[i], 40 + i, two);
    if (tu_small()) { /* Oclgrind: one generated input besides */
        one_case(&(input){GEN_RANDOM, 4, 300}, 7, two);
        return;
    }
    const input big[] = {{GEN_RANDOM, 4, 60000}, {GEN_PERIODIC, 7, 20011},
                         {GEN_RANDOM, 256, 9000}, {GEN_FIBONACCI, 0, 30000}};
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) one_case(&big[i], 50 + i, two);
    one_case(&big[0], 60, three);
}

/* CLSA_DEVICE may hold the list; -d wins over it. */
static void list_from_environment(void **state)
{
    (void)state;
    char two[700], saved[300];
    snprintf(saved, sizeof saved, "%s", dev());
    snprintf(two, sizeof two, "%s,%s", saved, saved);
    char *in = in_dir("env.bin"), *out = in_dir("env.sa");
    uint8_t *t;
    size_t n = write_input(&(input){GEN_RANDOM, 3, tu_size(5000, 200)}, 9, in, &t), bytes;
    uint8_t *want = reference(t, n, 32, &bytes);
    setenv("CLSA_DEVICE", two, 1);
    int rc = run("sa -q --backend device --stats %s %s", in, out);
    setenv("CLSA_DEVICE", saved, 1);
    assert_int_equal(rc, 0);
    file_equals(out, want, bytes, "CLSA_DEVICE list");
    uint8_t *err = read_file(in_dir("stderr"), &bytes);
    assert_non_null(strstr((char *)err, "stats: devices 2,"));
    free(err);
    free(want);
    free(t);
}

/* The number of lines of s that start with prefix. */
static int lines_starting(const char *s, const char *prefix)
{
    int k = 0;
    for (const char *p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        k += !strncmp(p, prefix, strlen(prefix));
    return k;
}

/* Under Oclgrind, lists of two: three device members of clsa_sa*_multi
 * crash inside the simulator's uninitialised-value tracker
 * (MemoryPool::alloc from a host write on a member's thread), with the
 * contexts made on one thread or several; test_multi, for the same
 * reason, gives no member but the first a device there. */
static int members(void) { return tu_small() ? 2 : 3; }

static void stats_per_device(void **state)
{
    (void)state;
    char list[700];
    int k = members();
    snprintf(list, sizeof list, "%s,%s", dev(), dev());
    if (k == 3) snprintf(list + strlen(list), sizeof list - strlen(list), ",%s", dev());
    char *in = in_dir("stats.bin"), *out = in_dir("stats.sa");
    uint8_t *t;
    size_t n = write_input(&(input){GEN_RANDOM, 4, tu_size(20000, 200)}, 3, in, &t), bytes;
    assert_int_equal(run("sa -q --backend device --stats --index 64 -d %s %s %s", list, in, out), 0);
    uint8_t *want = reference(t, n, 64, &bytes);
    file_equals(out, want, bytes, "--stats on a list");
    uint8_t *err = read_file(in_dir("stderr"), &bytes);
    char want_line[400];
    snprintf(want_line, sizeof want_line, "stats: devices %d, n ", k);
    assert_int_equal(lines_starting((char *)err, "stats: device "), k);
    assert_int_equal(lines_starting((char *)err, want_line), 1);
    snprintf(want_line, sizeof want_line, "stats: device %d '%s': ", k - 1, dev());
    assert_non_null(strstr((char *)err, want_line));
    free(err);
    free(want);
    free(t);
}

static void batch_on_list(void **state)
{
    (void)state;
    char two[300], list[600];
    snprintf(two, sizeof two, "%s,%s", dev(), dev());
    snprintf(list, sizeof list, "%s", in_dir("list.txt"));
    const input c[] = {{GEN_RANDOM, 5, tu_size(12000, 150)}, {GEN_PERIODIC, 3, 2},
                       {GEN_MUTATED, 50, tu_size(8000, 120)}};
    uint8_t *t[3];
    size_t n[3];
    FILE *f = fopen(list, "w");
    assert_non_null(f);
    for (int k = 0; k < 3; k++) {
        char name[32];
        snprintf(name, sizeof name, "b%d.bin", k);
        n[k] = write_input(&c[k], 70 + (uint64_t)k, in_dir(name), &t[k]);
        fprintf(f, "%s %s/b%d.sa\n", in_dir(name), dir, k);
    }
    assert_int_equal(fclose(f), 0);
    assert_int_equal(run("sa -q --backend device --index 64 -d %s --batch %s", two, list), 0);
    for (int k = 0; k < 3; k++) {
        char name[32];
        size_t bytes;
        snprintf(name, sizeof name, "b%d.sa", k);
        uint8_t *want = reference(t[k], n[k], 64, &bytes);
        file_equals(in_dir(name), want, bytes, "--batch on a list");
        free(want);
        free(t[k]);
    }
}

static int gpu_count(clsa_device_info **d, size_t *count)
{
    assert_int_equal(clsa_list_devices(NULL, 0, count), CLSA_OK);
    *d = tu_malloc((*count ? *count : 1) * sizeof **d);
    assert_int_equal(clsa_list_devices(*d, *count, count), CLSA_OK);
    int gpus = 0;
    for (size_t i = 0; i < *count; i++) gpus += (*d)[i].is_gpu;
    return gpus;
}

/* -d all: every GPU, or (none here) exit 3 naming the reason, nothing written. */
static void all_gpus(void **state)
{
    (void)state;
    clsa_device_info *d;
    size_t count;
    int gpus = gpu_count(&d, &count);
    char *in = in_dir("all.bin"), *out = in_dir("all.sa");
    uint8_t *t;
    size_t n = write_input(&(input){GEN_RANDOM, 4, tu_size(30000, 200)}, 21, in, &t), bytes;
    unlink(out);
    int rc = run("sa -q --backend device --stats -d all %s %s", in, out);
    uint8_t *err = read_file(in_dir("stderr"), &bytes);
    if (gpus == 0) {
        assert_int_equal(rc, 3);
        assert_non_null(strstr((char *)err, "-d all: no GPU device found"));
        assert_false(exists(out));
    } else {
        assert_int_equal(rc, 0);
        uint8_t *want = reference(t, n, 32, &bytes);
        file_equals(out, want, bytes, "-d all");
        free(want);
        assert_int_equal(lines_starting((char *)err, "stats: device "), gpus);
    }
    free(err);
    free(t);
    free(d);
}

/* The selector -d all gives device i opens device i: checked on every
 * device listed (CPUs too), the only way to test it without a GPU. */
static void selectors_name_their_device(void **state)
{
    (void)state;
    clsa_device_info *d;
    size_t count;
    gpu_count(&d, &count);
    assert_true(count > 0);
    for (size_t i = 0; i < count; i++) {
        char sel[CLI_SELECTOR_MAX], err[512];
        cli_device_selector(d, i, sel, sizeof sel);
        clsa_options o;
        clsa_options_init(&o);
        o.device = sel;
        o.backend = CLSA_BACKEND_DEVICE;
        clsa_context *ctx = NULL;
        if (clsa_create_ex(&o, &ctx, err, sizeof err)) fail_msg("'%s': %s", sel, err);
        clsa_device_info got;
        assert_int_equal(clsa_get_device_info(ctx, &got), CLSA_OK);
        if (strcmp(got.platform, d[i].platform) || strcmp(got.name, d[i].name))
            fail_msg("'%s' opened %s | %s, want device %zu: %s | %s", sel, got.platform, got.name,
                     i, d[i].platform, d[i].name);
        clsa_destroy(ctx);
    }
    /* The index counts earlier matches: a device before, matching its name. */
    clsa_device_info two[2];
    memset(two, 0, sizeof two);
    snprintf(two[0].platform, sizeof two[0].platform, "Alpha");
    snprintf(two[0].name, sizeof two[0].name, "has beta inside");
    snprintf(two[1].platform, sizeof two[1].platform, "BETA");
    char sel[CLI_SELECTOR_MAX];
    cli_device_selector(two, 1, sel, sizeof sel);
    assert_string_equal(sel, "BETA:1");
    cli_device_selector(two, 0, sel, sizeof sel);
    assert_string_equal(sel, "Alpha:0");
    free(d);
}

/* exit code, then a piece of the one error line. */
static void refused(int want_rc, const char *want_err, const char *fmt, const char *arg)
{
    char *out = in_dir("never.sa"), *in = in_dir("bad.bin");
    write_file(in, "banana", 6);
    unlink(out);
    int rc = run(fmt, arg, in, out);
    size_t bytes;
    uint8_t *err = read_file(in_dir("stderr"), &bytes);
    if (rc != want_rc || !strstr((char *)err, want_err))
        fail_msg("'%s' with '%s': exit %d, stderr '%s'; want exit %d and '%s'", fmt, arg, rc,
                 (char *)err, want_rc, want_err);
    free(err);
    assert_false(exists(out));
}

static void bad_lists(void **state)
{
    (void)state;
    char a[300], b[300], c[300], e[300], f[300], g[300], h[300];
    const char *d = dev();
    snprintf(a, sizeof a, "%s,", d);
    snprintf(b, sizeof b, ",%s", d);
    snprintf(c, sizeof c, "%s,,%s", d, d);
    snprintf(e, sizeof e, "all,%s", d);
    snprintf(f, sizeof f, "%s:x,%s", d, d);
    snprintf(g, sizeof g, "%s,no-such-device-xyz", d);
    snprintf(h, sizeof h, "%s, ,%s", d, d);
    const char *sa = "sa -q -d '%s' %s %s";
    refused(2, "entry 2 is empty", sa, a);
    refused(2, "entry 1 is empty", sa, b);
    refused(2, "entry 2 is empty", sa, c);
    refused(2, "entry 2 is empty", sa, h);
    refused(2, "'all' stands alone", sa, e);
    refused(2, "names no device", sa, f);
    refused(2, "entry 1 is empty", sa, ",");
    refused(3, "device 2 of 2 ('no-such-device-xyz')", sa, g);
    /* --batch with a list: the same error, before any pair runs. */
    char *list = in_dir("bad-list.txt");
    FILE *l = fopen(list, "w");
    assert_non_null(l);
    fprintf(l, "%s %s\n", in_dir("bad.bin"), in_dir("never.sa"));
    assert_int_equal(fclose(l), 0);
    snprintf(a, sizeof a, "sa -q --batch %s -d '%%s'", list); /* in, out unused */
    refused(3, "device 2 of 2 ('no-such-device-xyz')", a, g);
}

/* Every command but `clsa sa` of a byte input: exit 2, the command named. */
static void other_commands_refuse(void **state)
{
    (void)state;
    char two[300];
    snprintf(two, sizeof two, "%s,%s", dev(), dev());
    static const char *const cmds[][2] = {
        {"bwt -d '%s' %s %s", "clsa bwt: several devices"},
        {"lcp -d '%s' %s %s", "clsa lcp: several devices"},
        {"index -d '%s' %s %s", "clsa index: several devices"},
        {"check -d '%s' %s %s", "clsa check: several devices"},
        {"unbwt --primary 1 -d '%s' %s %s", "clsa unbwt: several devices"},
        {"lcs -d '%s' %s %s", "clsa lcs: several devices"},
        {"count -d '%s' %s %s", "clsa count: several devices"},
        {"locate -d '%s' %s %s", "clsa locate: several devices"},
        {"sa --fasta -d '%s' %s %s", "clsa sa --fasta: several devices"},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        refused(2, cmds[i][1], cmds[i][0], two);
        refused(2, "only `clsa sa`", cmds[i][0], "all");
    }
    /* A list in CLSA_DEVICE is refused the same way. */
    char saved[300];
    snprintf(saved, sizeof saved, "%s", dev());
    setenv("CLSA_DEVICE", two, 1);
    refused(2, "from CLSA_DEVICE): only `clsa sa` takes a list", "bwt %s%s %s", "");
    setenv("CLSA_DEVICE", saved, 1);
}

int main(void)
{
    if (cli_dir_create("clsa-cli-multi")) return 1;
    clsa_destroy(tu_context()); /* skips cleanly when the device is missing */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_device_listed),     cmocka_unit_test(list_from_environment),
        cmocka_unit_test(stats_per_device),       cmocka_unit_test(batch_on_list),
        cmocka_unit_test(all_gpus),               cmocka_unit_test(selectors_name_their_device),
        cmocka_unit_test(bad_lists),              cmocka_unit_test(other_commands_refuse),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (cli_dir_remove()) rc = 1;
    return rc;
}
