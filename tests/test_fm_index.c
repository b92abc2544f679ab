/* FM-index count/locate against a naive search, save/load round trips, and
 * damaged files (truncated, flipped bytes, foreign, wrong version). */
#include "testutil.h"
#include "gen.h"

#include <unistd.h>

static clsa_context *ctx;

typedef struct batch {
    uint8_t *bytes;
    uint64_t *off;
    size_t np, cap, bcap;
} batch;

static void batch_add(batch *b, const uint8_t *p, size_t m)
{
    if (b->np + 2 > b->cap) {
        b->cap = b->cap ? b->cap * 2 : 64;
        b->off = realloc(b->off, b->cap * 8);
        assert_non_null(b->off);
    }
    if (b->np == 0) b->off[0] = 0;
    size_t used = b->off[b->np];
    if (used + m > b->bcap) {
        b->bcap = (used + m) * 2 + 64;
        b->bytes = realloc(b->bytes, b->bcap);
        assert_non_null(b->bytes);
    }
    if (m) memcpy(b->bytes + used, p, m);
    b->off[++b->np] = used + m;
}

static void batch_free(batch *b)
{
    free(b->bytes);
    free(b->off);
    memset(b, 0, sizeof *b);
}

static uint64_t naive_count(const uint8_t *t, size_t n, const uint8_t *p, size_t m, int64_t *pos)
{
    if (m == 0) {
        if (pos)
            for (size_t i = 0; i < n; i++) pos[i] = (int64_t)i;
        return n;
    }
    uint64_t c = 0;
    for (size_t i = 0; i + m <= n; i++)
        if (t[i] == p[0] && !memcmp(t + i, p, m)) {
            if (pos) pos[c] = (int64_t)i;
            c++;
        }
    return c;
}

/* Patterns: substrings (present), random over the text's bytes and over all
 * 256 values (mostly absent, with 0x00/0xFF), the empty one, the text
 * itself and one byte longer. */
static void make_patterns(batch *b, const uint8_t *t, size_t n, size_t count, tu_rng *r)
{
    uint8_t buf[64];
    batch_add(b, NULL, 0);
    if (n) batch_add(b, t, n);
    uint8_t *longer = tu_malloc(n + 1);
    if (n) memcpy(longer, t, n); /* t is NULL for the empty text */
    longer[n] = n ? t[0] : 0;
    batch_add(b, longer, n + 1);
    free(longer);
    static const uint8_t edge[] = {0x00, 0xFF, 0x00, 0xFF, 0xFF};
    batch_add(b, edge, 1);
    batch_add(b, edge + 1, 1);
    batch_add(b, edge, 4);
    for (size_t k = 0; k < count; k++) {
        size_t m = 1 + tu_below(r, k % 4 == 0 ? 40 : 12);
        unsigned kind = tu_below(r, 3);
        if (kind == 0 && n >= m) {
            size_t at = tu_below(r, (uint32_t)(n - m + 1));
            batch_add(b, t + at, m);
        } else if (kind == 1 && n) {
            for (size_t i = 0; i < m; i++) buf[i] = t[tu_below(r, (uint32_t)n)];
            batch_add(b, buf, m);
        } else {
            for (size_t i = 0; i < m; i++) buf[i] = (uint8_t)tu_next(r);
            batch_add(b, buf, m);
        }
    }
}

/* Checks count for every pattern and locate for the batch (positions
 * limited so that huge outputs stay cheap). */
static void check_queries(clsa_fm *fm, const uint8_t *t, size_t n, const batch *b, int locate)
{
    uint64_t *cnt = tu_malloc(b->np * 8);
    TU_OK(ctx, clsa_fm_count(fm, b->bytes, b->off, b->np, cnt));
    for (size_t p = 0; p < b->np; p++) {
        uint64_t want = naive_count(t, n, b->bytes + b->off[p], b->off[p + 1] - b->off[p], NULL);
        if (cnt[p] != want)
            fail_msg("n=%zu pattern %zu (len %llu): count %llu, want %llu", n, p,
                     (unsigned long long)(b->off[p + 1] - b->off[p]), (unsigned long long)cnt[p],
                     (unsigned long long)want);
    }
    if (locate) {
        uint64_t *starts = tu_malloc((b->np + 1) * 8);
        int64_t *pos = NULL, *want = tu_malloc((n + 1) * 8);
        TU_OK(ctx, clsa_fm_locate(fm, b->bytes, b->off, b->np, 0, starts, &pos));
        for (size_t p = 0; p < b->np; p++) {
            size_t m = b->off[p + 1] - b->off[p];
            uint64_t c = naive_count(t, n, b->bytes + b->off[p], m, want);
            assert_int_equal(starts[p + 1] - starts[p], c);
            for (uint64_t k = 0; k < c; k++)
                if (pos[starts[p] + k] != want[k])
                    fail_msg("n=%zu pattern %zu: position %llu is %lld, want %lld", n, p,
                             (unsigned long long)k, (long long)pos[starts[p] + k],
                             (long long)want[k]);
        }
        clsa_fm_positions_free(pos);
        free(starts);
        free(want);
    }
    free(cnt);
}

static void check_text(const uint8_t *t, size_t n, int64_t rate, uint64_t seed, size_t npat)
{
    tu_rng r = {seed};
    clsa_fm *fm = NULL;
    TU_OK(ctx, clsa_fm_create(ctx, t, (int64_t)n, rate, &fm));
    int64_t got_n = -1;
    TU_OK(ctx, clsa_fm_info(fm, &got_n, NULL));
    assert_int_equal(got_n, n);
    batch b = {0};
    make_patterns(&b, t, n, npat, &r);
    check_queries(fm, t, n, &b, 1);
    batch_free(&b);
    clsa_fm_free(fm);
}

static void fm_generated(void **state)
{
    (void)state;
    static const struct {
        gen_kind kind;
        unsigned param;
    } kinds[] = {{GEN_RANDOM, 2},   {GEN_RANDOM, 4},    {GEN_RANDOM, 20},
                 {GEN_RANDOM, 256}, {GEN_ALL_EQUAL, 0}, {GEN_PERIODIC, 3},
                 {GEN_FIBONACCI, 0}, {GEN_THUE_MORSE, 0}, {GEN_MUTATED, 500}};
    size_t sizes[] = {1, 2, 63, 64, 65, 129, 1000, 30000};
    size_t nsizes = tu_small() ? 6 : sizeof sizes / sizeof *sizes;
    int64_t rates[] = {1, 3, 32, 1000};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
        for (size_t s = 0; s < nsizes; s++) {
            /* small inputs: half the cases; Oclgrind: one size a kind, in turn */
            if (tu_small() && (tu_lean() ? s != k % nsizes : (k + s) % 2)) continue;
            size_t n = tu_small() && sizes[s] > 200 ? 200 : sizes[s];
            uint8_t *t = tu_malloc(n);
            gen_fill(t, n, kinds[k].kind, kinds[k].param, 1000 + k * 31 + s);
            check_text(t, n, rates[(k + s) % 4], 7 * k + s, tu_small() ? 20 : 150);
            free(t);
        }
}

static void fm_empty_text(void **state)
{
    (void)state;
    clsa_fm *fm = NULL;
    TU_OK(ctx, clsa_fm_create(ctx, NULL, 0, 0, &fm));
    batch b = {0};
    tu_rng r = {5};
    make_patterns(&b, NULL, 0, 10, &r);
    check_queries(fm, NULL, 0, &b, 1);
    batch_free(&b);
    clsa_fm_free(fm);
}

/* Larger texts: DNA and bytes, many patterns (under Oclgrind 2,000
 * symbols and fewer patterns, and no byte text: fm_generated has them, and
 * the DNA and mutated ones launch every kernel the three do). */
static void fm_larger(void **state)
{
    (void)state;
    size_t n = tu_size(100000, 2000), npat = tu_sizes(2000, 60, 20);
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 4, 77);
    check_text(t, n, 16, 78, npat);
    gen_fill(t, n, GEN_RANDOM, 256, 79);
    if (!tu_lean()) check_text(t, n, 64, 80, npat);
    gen_fill(t, n, GEN_MUTATED, tu_size(4096, 256), 81);
    check_text(t, n, 32, 82, npat / 4);
    free(t);
}

/* ---- files -------------------------------------------------------------------------- */

static char *tmp_path(const char *name)
{
    const char *dir = getenv("TMPDIR");
    char *p = tu_malloc(4096);
    snprintf(p, 4096, "%s/clsa-test-fm-%d-%s", dir && *dir ? dir : "/tmp", (int)getpid(), name);
    return p;
}

static uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = tu_malloc(*n);
    assert_int_equal(fread(d, 1, *n, f), *n);
    fclose(f);
    return d;
}

static void write_all(const char *path, const uint8_t *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(d, 1, n, f), n);
    fclose(f);
}

static void expect_format_error(const char *path, const char *what)
{
    clsa_fm *fm = (clsa_fm *)1;
    clsa_status st = clsa_fm_load(ctx, path, &fm);
    if (st != CLSA_ERR_FORMAT)
        fail_msg("%s: load gave %d (%s), want CLSA_ERR_FORMAT", what, (int)st,
                 clsa_last_error(ctx));
    assert_null(fm);
    assert_true(strlen(clsa_last_error(ctx)) > 10);
}

static void fm_file_roundtrip(void **state)
{
    (void)state;
    size_t sizes[] = {0, 1, 5, 200, 5000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t n = sizes[s];
        if (tu_small() && n > 300) continue;
        uint8_t *t = tu_malloc(n);
        gen_fill(t, n, s % 2 ? GEN_RANDOM : GEN_MUTATED, s % 2 ? 256 : 50, 300 + s);
        clsa_fm *fm = NULL, *back = NULL;
        TU_OK(ctx, clsa_fm_create(ctx, t, (int64_t)n, 5, &fm));
        char *path = tmp_path("rt");
        TU_OK(ctx, clsa_fm_save(fm, path));
        TU_OK(ctx, clsa_fm_load(ctx, path, &back));
        int64_t n2, rate2;
        TU_OK(ctx, clsa_fm_info(back, &n2, &rate2));
        assert_int_equal(n2, n);
        assert_int_equal(rate2, n + 1 < 5 ? (int64_t)n + 1 : 5); /* clamped to n + 1 */
        batch b = {0};
        tu_rng r = {s};
        make_patterns(&b, t, n, 60, &r);
        check_queries(back, t, n, &b, 1);
        batch_free(&b);
        /* Saving the loaded index gives the same bytes. */
        char *path2 = tmp_path("rt2");
        TU_OK(ctx, clsa_fm_save(back, path2));
        size_t n1, m2;
        uint8_t *d1 = read_all(path, &n1), *d2 = read_all(path2, &m2);
        assert_int_equal(n1, m2);
        assert_memory_equal(d1, d2, n1);
        free(d1);
        free(d2);
        unlink(path);
        unlink(path2);
        free(path);
        free(path2);
        clsa_fm_free(fm);
        clsa_fm_free(back);
        free(t);
    }
}

static void fm_file_damage(void **state)
{
    (void)state;
    size_t n = tu_small() ? 100 : 3000;
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 20, 9);
    clsa_fm *fm = NULL;
    TU_OK(ctx, clsa_fm_create(ctx, t, (int64_t)n, 4, &fm));
    char *path = tmp_path("good"), *bad = tmp_path("bad");
    TU_OK(ctx, clsa_fm_save(fm, path));
    clsa_fm_free(fm);
    size_t size;
    uint8_t *d = read_all(path, &size);
    /* Truncations: every offset in the header, a spread over the rest. */
    size_t step = tu_small() ? 97 : 7;
    for (size_t cut = 0; cut < size; cut += cut < 2200 ? (tu_small() ? 53 : 1) : step) {
        write_all(bad, d, cut);
        expect_format_error(bad, "truncated");
    }
    /* One extra byte. */
    uint8_t *longer = tu_malloc(size + 1);
    memcpy(longer, d, size);
    longer[size] = 0;
    write_all(bad, longer, size + 1);
    expect_format_error(bad, "extended");
    free(longer);
    /* Flipped bytes anywhere. */
    tu_rng r = {99};
    int flips = tu_small() ? 12 : 300;
    for (int k = 0; k < flips; k++) {
        size_t at = k < 64 ? (size_t)k * 37 % size : tu_below(&r, (uint32_t)size);
        uint8_t x = (uint8_t)(1u << tu_below(&r, 8));
        d[at] ^= x;
        write_all(bad, d, size);
        expect_format_error(bad, "flipped byte");
        d[at] ^= x;
    }
    /* Foreign file, wrong version. */
    uint8_t foreign[3000];
    for (size_t i = 0; i < sizeof foreign; i++) foreign[i] = (uint8_t)(i * 7);
    write_all(bad, foreign, sizeof foreign);
    expect_format_error(bad, "foreign");
    d[8] = 2;
    write_all(bad, d, size);
    expect_format_error(bad, "version 2");
    assert_non_null(strstr(clsa_last_error(ctx), "version"));
    d[8] = 1;
    /* The intact file still loads. */
    write_all(bad, d, size);
    TU_OK(ctx, clsa_fm_load(ctx, bad, &fm));
    clsa_fm_free(fm);
    /* Missing file: an I/O error, not a format error. */
    unlink(bad);
    assert_int_equal(clsa_fm_load(ctx, bad, &fm), CLSA_ERR_IO);
    unlink(path);
    free(path);
    free(bad);
    free(d);
    free(t);
}

static void fm_bad_args(void **state)
{
    (void)state;
    clsa_fm *fm = NULL;
    uint8_t t[4] = {1, 2, 3, 4};
    assert_int_equal(clsa_fm_create(ctx, NULL, 4, 0, &fm), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_fm_create(ctx, t, -1, 0, &fm), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_fm_create(ctx, t, 4, -2, &fm), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_fm_create(NULL, t, 4, 0, &fm), CLSA_ERR_INVALID_ARG);
    TU_OK(ctx, clsa_fm_create(ctx, t, 4, 0, &fm));
    uint64_t off[3] = {0, 2, 1}, cnt[2];
    assert_int_equal(clsa_fm_count(fm, t, off, 2, cnt), CLSA_ERR_INVALID_ARG);
    uint64_t starts[3];
    int64_t *pos = NULL;
    uint64_t off2[2] = {0, 0};
    /* The empty pattern has 4 occurrences: over a limit of 3. */
    assert_int_equal(clsa_fm_locate(fm, t, off2, 1, 3, starts, &pos), CLSA_ERR_TOO_LARGE);
    assert_null(pos);
    clsa_fm_free(fm);
    clsa_fm_free(NULL);
}

int main(void)
{
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fm_empty_text),     cmocka_unit_test(fm_generated),
        cmocka_unit_test(fm_larger),         cmocka_unit_test(fm_file_roundtrip),
        cmocka_unit_test(fm_file_damage),    cmocka_unit_test(fm_bad_args),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
