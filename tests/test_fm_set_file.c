/* Saving and loading the FM-index of a set (clsa_fm_set_save / _load): the
 * loaded index answers count and locate as the index that was saved and as
 * a naive search of each string, on generated sets with fixed seeds (with a
 * free separator byte, with all 256 byte values, empty strings, k = 0);
 * damaged files are refused with CLSA_ERR_FORMAT before any device work:
 * every truncation length and every flipped byte of a small file, files
 * extended, files of the other kind, and files whose checksum was
 * recomputed over a damaged string table or absurd sizes. */
#include "set_util.h"

#include <unistd.h>

static clsa_context *ctx;
static char dir[64], path[96], path2[96];

/* count and locate of a against the naive search (and so against b). */
static void same_answers(clsa_fm_set *a, const bset *g, tu_rng *r, size_t np, const char *what)
{
    uint64_t *offsets = tu_malloc((np + 1) * 8), *counts = tu_malloc(np * 8 + 8);
    uint64_t *starts = tu_malloc((np + 1) * 8);
    uint8_t *pats = make_patterns(r, g, np, offsets);
    int64_t *str = NULL, *pos = NULL;
    int64_t *ws = tu_malloc((size_t)g->total * 8 + 8), *wo = tu_malloc((size_t)g->total * 8 + 8);
    TU_OK(ctx, clsa_fm_set_count(a, pats, offsets, np, counts));
    TU_OK(ctx, clsa_fm_set_locate(a, pats, offsets, np, 0, starts, &str, &pos));
    for (size_t p = 0; p < np; p++) {
        size_t want = naive(g, pats + offsets[p], offsets[p + 1] - offsets[p], ws, wo);
        if (counts[p] != want || starts[p + 1] - starts[p] != want)
            fail_msg("%s, pattern %zu: count %llu, located %llu, naive %zu", what, p,
                     (unsigned long long)counts[p],
                     (unsigned long long)(starts[p + 1] - starts[p]), want);
        for (size_t i = 0; i < want; i++)
            if (str[starts[p] + i] != ws[i] || pos[starts[p] + i] != wo[i])
                fail_msg("%s, pattern %zu: occurrence %zu at (%lld, %lld), naive (%lld, %lld)",
                         what, p, i, (long long)str[starts[p] + i],
                         (long long)pos[starts[p] + i], (long long)ws[i], (long long)wo[i]);
    }
    clsa_fm_positions_free(str);
    clsa_fm_positions_free(pos);
    free(ws);
    free(wo);
    free(offsets);
    free(counts);
    free(starts);
    free(pats);
}

static void round_trip(const bset *g, int64_t rate, tu_rng *r, const char *what)
{
    clsa_fm_set *made = NULL, *loaded = NULL;
    TU_OK(ctx, clsa_fm_set_create(ctx, g->text, g->len, g->k, rate, &made));
    TU_OK(ctx, clsa_fm_set_save(made, path));
    TU_OK(ctx, clsa_fm_set_load(ctx, path, &loaded));
    int64_t k1, t1, r1, k2, t2, r2;
    TU_OK(ctx, clsa_fm_set_info(made, &k1, &t1, &r1));
    TU_OK(ctx, clsa_fm_set_info(loaded, &k2, &t2, &r2));
    if (k1 != k2 || t1 != t2 || r1 != r2 || k2 != g->k || t2 != g->total)
        fail_msg("%s: info differs after loading", what);
    tu_rng r2b = *r;
    size_t np = tu_size(120, 15);
    same_answers(made, g, r, np, what);
    same_answers(loaded, g, &r2b, np, what); /* the same patterns */
    clsa_fm_set_free(made);
    clsa_fm_set_free(loaded);
}

static void save_load(void **state)
{
    (void)state;
    tu_rng r = {4242};
    int count = (int)tu_size(24, 3);
    int64_t rates[] = {1, 5, 32};
    for (int i = 0; i < count; i++) {
        int shape = i % 2 ? 2 : 0; /* a free byte, or every byte value */
        int64_t k = i % 6 == 0 ? 1 : 1 + tu_below(&r, tu_small() ? 4 : 30);
        bset g = gen(&r, shape, k, tu_small() ? 20 : 80);
        char what[80];
        snprintf(what, sizeof what, "set %d: shape %d, k %lld, total %lld", i, shape,
                 (long long)k, (long long)g.total);
        round_trip(&g, rates[i % 3], &r, what);
        free_set(&g);
    }
    /* no strings, and only empty ones */
    int64_t zeros[3] = {0, 0, 0};
    for (int64_t k = 0; k <= 2; k++) {
        bset g = {k, 0, zeros, zeros, NULL};
        round_trip(&g, 0, &r, "empty set");
    }
}

/* ---- damaged files ----------------------------------------------------------------- */

static uint8_t *slurp(const char *p, size_t *size)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = tu_malloc(*size);
    assert_int_equal(fread(b, 1, *size, f), *size);
    fclose(f);
    return b;
}

static void spit(const char *p, const uint8_t *b, size_t size)
{
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, size, f), size);
    fclose(f);
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* The checksum of a file whose content was altered on purpose, so that the
 * checks behind it are reached. */
static void reseal(uint8_t *b, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i + 8 < size; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    put64(b + size - 8, h);
}

static void expect_refused(const uint8_t *b, size_t size, const char *what, size_t at)
{
    spit(path2, b, size);
    clsa_fm_set *s = (clsa_fm_set *)1;
    clsa_status st = clsa_fm_set_load(ctx, path2, &s);
    if (st != CLSA_ERR_FORMAT || s != NULL)
        fail_msg("%s (%zu): status %d, handle %p, message '%s'", what, at, (int)st, (void *)s,
                 clsa_last_error(ctx));
}

static void damaged(void **state)
{
    (void)state;
    tu_rng r = {77};
    bset g = gen(&r, 0, 4, 12);
    clsa_fm_set *set = NULL;
    TU_OK(ctx, clsa_fm_set_create(ctx, g.text, g.len, g.k, 4, &set));
    TU_OK(ctx, clsa_fm_set_save(set, path));
    size_t size;
    uint8_t *b = slurp(path, &size), *c = tu_malloc(size + 1);
    for (size_t cut = 0; cut < size; cut++) expect_refused(b, cut, "truncated to", cut);
    memcpy(c, b, size);
    c[size] = 0;
    expect_refused(c, size + 1, "extended by one byte", size);
    for (size_t i = 0; i < size; i++) {
        memcpy(c, b, size);
        c[i] ^= (uint8_t)(1u << (i % 8));
        expect_refused(c, size, "bit flipped at byte", i);
        c[i] = (uint8_t)~b[i];
        expect_refused(c, size, "byte inverted at", i);
    }
    /* resealed: the checks behind the checksum */
    size_t extra = (size_t)get64(b + 56), table = size - 8 - extra;
    assert_int_equal(extra, 16 + 8 * g.k);
    memcpy(c, b, size);
    put64(c + table, (uint64_t)g.k + 1);
    reseal(c, size);
    expect_refused(c, size, "string count off by one", 0);
    memcpy(c, b, size);
    put64(c + table + 16, get64(c + table + 16) + 1);
    reseal(c, size);
    expect_refused(c, size, "a length one too long", 0);
    memcpy(c, b, size);
    put64(c + table + 8, 0); /* joined without a separator, though bytes are free */
    reseal(c, size);
    expect_refused(c, size, "separator dropped", 0);
    memcpy(c, b, size);
    put64(c + table + 8, 300);
    reseal(c, size);
    expect_refused(c, size, "separator out of range", 0);
    for (int bit = 40; bit < 64; bit += 23) { /* absurd extra sizes */
        memcpy(c, b, size);
        put64(c + 56, (uint64_t)1 << bit);
        reseal(c, size);
        expect_refused(c, size, "extra section size 2^", (size_t)bit);
    }
    memcpy(c, b, size);
    put64(c + 40, UINT64_MAX); /* samples */
    reseal(c, size);
    expect_refused(c, size, "sample count", 0);
    memcpy(c, b, size);
    memcpy(c, "CLSAFMIX", 8); /* the single-text magic: the other kind of file */
    reseal(c, size);
    expect_refused(c, size, "single-text magic", 0);
    assert_non_null(strstr(clsa_last_error(ctx), "one text"));
    /* a single-text FM-index file is not a set, nor a set file a single text */
    clsa_fm *fm = NULL;
    TU_OK(ctx, clsa_fm_create(ctx, g.text, g.total, 4, &fm));
    TU_OK(ctx, clsa_fm_save(fm, path2));
    clsa_fm_free(fm);
    clsa_fm_set *s = NULL;
    assert_int_equal(clsa_fm_set_load(ctx, path2, &s), CLSA_ERR_FORMAT);
    assert_int_equal(clsa_fm_load(ctx, path, &fm), CLSA_ERR_FORMAT);
    assert_non_null(strstr(clsa_last_error(ctx), "set of strings"));
    assert_null(fm);
    /* the original still loads */
    TU_OK(ctx, clsa_fm_set_load(ctx, path, &s));
    clsa_fm_set_free(s);
    clsa_fm_set_free(set);
    free(b);
    free(c);
    free_set(&g);
}

static void bad_arguments(void **state)
{
    (void)state;
    clsa_fm_set *s = (clsa_fm_set *)1, *set = NULL;
    assert_int_equal(clsa_fm_set_load(ctx, NULL, &s), CLSA_ERR_INVALID_ARG);
    assert_null(s);
    assert_int_equal(clsa_fm_set_load(ctx, path, NULL), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_fm_set_load(ctx, "/nonexistent/clsa/set.fm", &s), CLSA_ERR_IO);
    clsa_fm *fm = NULL; /* no context: refused as clsa_fm_load refuses it */
    assert_int_equal(clsa_fm_set_load(NULL, path, &s), clsa_fm_load(NULL, path, &fm));
    assert_true(s == NULL && fm == NULL);
    assert_int_equal(clsa_fm_set_save(NULL, path), CLSA_ERR_INVALID_ARG);
    int64_t len[1] = {3};
    TU_OK(ctx, clsa_fm_set_create(ctx, (const uint8_t *)"abc", len, 1, 0, &set));
    assert_int_equal(clsa_fm_set_save(set, NULL), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_fm_set_save(set, "/nonexistent/clsa/set.fm"), CLSA_ERR_IO);
    clsa_fm_set_free(set);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/clsa_fmsetfile_XXXXXX");
    if (!mkdtemp(dir)) return 1;
    snprintf(path, sizeof path, "%s/set.fm", dir);
    snprintf(path2, sizeof path2, "%s/bad.fm", dir);
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(save_load),
        cmocka_unit_test(damaged),
        cmocka_unit_test(bad_arguments),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    unlink(path);
    unlink(path2);
    rmdir(dir);
    return rc;
}
