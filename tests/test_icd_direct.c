/* The direct route to one vendor's ICD library (host/runtime/icd_direct.h):
 * it must choose the same device as the loader's full enumeration and give
 * the same suffix arrays (checked against libdivsufsort); a garbage or
 * stale cache file is ignored and rewritten; CLSA_ICD_DIRECT=0 turns it
 * off; a selector matching nothing keeps its clear error.  Under Oclgrind
 * (its runtime preloaded, not the loader) the route must stay unused.
 *
 * The cases run in order in one process: the first one, with the route
 * off, sees the library before any library was opened directly. */
#include "testutil.h"

#include <divsufsort.h>
#include <unistd.h>

#include "icd_direct.h"
#include "runtime.h"

static char cache_dir[256];
static char cache_file[300];
static clsa_device_info loader_info; /* what the loader's enumeration chose */
static char token[128];              /* a selector naming only the device */

static const char *selector(void)
{
    const char *s = getenv("CLSA_DEVICE");
    return s && *s ? s : "pocl";
}

static clsa_context *create(const char *sel, clsa_status *st, char *err, size_t cap)
{
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    o.device = sel;
    clsa_context *ctx = NULL;
    *st = clsa_create_ex(&o, &ctx, err, cap);
    return ctx;
}

static clsa_context *create_ok(const char *sel)
{
    char err[512] = "";
    clsa_status st;
    clsa_context *ctx = create(sel, &st, err, sizeof err);
    if (st != CLSA_OK) fail_msg("clsa_create('%s') -> %d: %s", sel, (int)st, err);
    return ctx;
}

/* The SA of a random text, compared with libdivsufsort's. */
static void check_sa(clsa_context *ctx, uint64_t seed)
{
    size_t n = tu_size(20000, 400);
    tu_rng r = {seed};
    uint8_t *t = tu_malloc(n);
    for (size_t i = 0; i < n; i++) t[i] = (uint8_t)('a' + tu_below(&r, 4));
    int32_t *got = tu_malloc(n * sizeof *got), *want = tu_malloc(n * sizeof *want);
    TU_OK(ctx, clsa_sa32(ctx, t, got, (int64_t)n));
    assert_int_equal(divsufsort(t, want, (saidx_t)n), 0);
    assert_memory_equal(got, want, n * sizeof *got);
    free(t);
    free(got);
    free(want);
}

static void same_device(clsa_context *ctx)
{
    clsa_device_info i;
    assert_int_equal(clsa_get_device_info(ctx, &i), CLSA_OK);
    assert_string_equal(i.platform, loader_info.platform);
    assert_string_equal(i.vendor, loader_info.vendor);
    assert_string_equal(i.name, loader_info.name);
    assert_string_equal(i.driver, loader_info.driver);
    assert_true(i.global_mem == loader_info.global_mem);
}

static int direct_possible(void) { return clsa__cl_direct_allowed(); }

static int cache_has(const char *what)
{
    FILE *f = fopen(cache_file, "r");
    if (!f) return 0;
    char line[2048];
    int found = 0;
    while (fgets(line, sizeof line, f)) found |= strstr(line, what) != NULL;
    fclose(f);
    return found;
}

static void write_cache(const char *text)
{
    FILE *f = fopen(cache_file, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The loader's choice, with the route off: the reference for the rest. */
static void test_loader_reference(void **state)
{
    (void)state;
    setenv("CLSA_ICD_DIRECT", "0", 1);
    clsa_icd_route r;
    assert_int_equal(clsa__icd_direct_find(selector(), &r), 0);
    clsa_context *ctx = create_ok(selector());
    assert_int_equal(clsa_get_device_info(ctx, &loader_info), CLSA_OK);
    assert_null(clsa__icd_direct_table(ctx->device)); /* the loader's dispatch */
    check_sa(ctx, 1);
    clsa_destroy(ctx);
    assert_false(cache_has("\t")); /* off means no cache entry either */
    unsetenv("CLSA_ICD_DIRECT");
    /* The first word of the device name, a selector the .icd names cannot
     * decide: only the cache can send it the direct way. */
    size_t len = strcspn(loader_info.name, " :(");
    snprintf(token, sizeof token, "%.*s", (int)len, loader_info.name);
}

/* The implementation's own selector ("pocl", "rusticl"): the same device
 * and results, its objects dispatched through the vendor's table. */
static void test_direct_same_as_loader(void **state)
{
    (void)state;
    clsa_icd_route r;
    int found = clsa__icd_direct_find(selector(), &r);
    if (!direct_possible()) {
        assert_int_equal(found, 0); /* Oclgrind: its preloaded runtime only */
        clsa_context *ctx = create_ok(selector());
        same_device(ctx);
        check_sa(ctx, 2);
        clsa_destroy(ctx);
        return;
    }
    if (!found) {
        clsa_destroy(create_ok(selector())); /* cold: the loader, then remembered */
        found = clsa__icd_direct_find(selector(), &r);
    }
    assert_int_equal(found, 1);
    assert_true(r.count >= 1);
    clsa_context *ctx = create_ok(selector());
    same_device(ctx);
    assert_non_null(clsa__icd_direct_table(ctx->device));
    assert_non_null(clsa__icd_direct_table(ctx->queue));
    check_sa(ctx, 2);
    clsa_destroy(ctx);
}

/* A device-name selector: the full enumeration on the first use writes the
 * cache, the second use takes the direct route from it. */
static void test_cache_route(void **state)
{
    (void)state;
    if (!direct_possible() || strlen(token) < 3) {
        clsa_icd_route r;
        assert_int_equal(clsa__icd_direct_find(token, &r), 0);
        return;
    }
    unlink(cache_file);
    clsa_icd_route r;
    if (clsa__icd_direct_find(token, &r)) {
        assert_false(r.cached);
        print_message("note: '%s' names an .icd file; cache route not exercised\n", token);
        return;
    }
    clsa_context *ctx = create_ok(token);
    same_device(ctx);
    clsa_destroy(ctx);
    assert_true(cache_has(loader_info.name));
    assert_int_equal(clsa__icd_direct_find(token, &r), 1);
    assert_true(r.cached);
    assert_string_equal(r.device, loader_info.name);
    ctx = create_ok(token);
    same_device(ctx);
    assert_non_null(clsa__icd_direct_table(ctx->device));
    check_sa(ctx, 3);
    clsa_destroy(ctx);
}

/* The valid line of the cache file, to build stale variants from. */
static void valid_line(char *line, size_t cap)
{
    FILE *f = fopen(cache_file, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, (int)cap, f));
    fclose(f);
    line[strcspn(line, "\n")] = 0;
}

/* Field k (0-based, tab-separated) of line replaced by value. */
static void replace_field(const char *line, int k, const char *value, char *out, size_t cap)
{
    char copy[2048];
    snprintf(copy, sizeof copy, "%s", line);
    out[0] = 0;
    char *save = NULL;
    int i = 0;
    for (char *f = strtok_r(copy, "\t", &save); f; f = strtok_r(NULL, "\t", &save), i++) {
        size_t used = strlen(out);
        snprintf(out + used, cap - used, "%s%s", i ? "\t" : "", i == k ? value : f);
    }
    size_t used = strlen(out);
    snprintf(out + used, cap - used, "\n");
}

/* After a stale cache, the device is still right and the entry rewritten. */
static void recovers(const char *why)
{
    clsa_context *ctx = create_ok(token);
    same_device(ctx);
    check_sa(ctx, 4);
    clsa_destroy(ctx);
    clsa_icd_route r;
    if (clsa__icd_direct_find(token, &r) != 1 || !r.cached ||
        strcmp(r.device, loader_info.name))
        fail_msg("cache not rewritten after %s", why);
}

static void test_stale_cache(void **state)
{
    (void)state;
    if (!direct_possible() || !cache_has(loader_info.name)) {
        print_message("note: no cache route here; stale cases skipped\n");
        return;
    }
    char line[2048], bad[2400];
    valid_line(line, sizeof line);
    clsa_icd_route r;

    write_cache("\x01garbage\tnot\ta\tcache\nclsa-icd-v1\tzz\t\t\n\n\t\t\t\t\t\t\t\n");
    assert_int_equal(clsa__icd_direct_find(token, &r), 0);
    recovers("garbage");

    replace_field(line, 3, "/nonexistent/libclsa-gone.so", bad, sizeof bad);
    write_cache(bad);
    assert_int_equal(clsa__icd_direct_find(token, &r), 0);
    recovers("a missing library");

    replace_field(line, 5, "no such device", bad, sizeof bad);
    write_cache(bad);
    assert_int_equal(clsa__icd_direct_find(token, &r), 1); /* opens, then ... */
    assert_string_equal(r.device, "no such device");       /* ... is not confirmed */
    recovers("a missing device");

    replace_field(line, 1, "0123456789abcdef", bad, sizeof bad); /* other drivers */
    write_cache(bad);
    assert_int_equal(clsa__icd_direct_find(token, &r), 0);
    recovers("another fingerprint");
}

static void test_switch_off(void **state)
{
    (void)state;
    setenv("CLSA_ICD_DIRECT", "0", 1);
    clsa_icd_route r;
    assert_int_equal(clsa__icd_direct_find(selector(), &r), 0);
    assert_int_equal(clsa__icd_direct_find(token, &r), 0);
    clsa_context *ctx = create_ok(selector());
    same_device(ctx);
    clsa_destroy(ctx);
    unsetenv("CLSA_ICD_DIRECT");
    assert_int_equal(clsa__icd_direct_find("gpu", &r), 0); /* never by type */
    assert_int_equal(clsa__icd_direct_find("cpu", &r), 0);
}

/* A selector matching nothing keeps the loader path's clear error, also
 * when the direct route opened a library first ("<impl>:9"). */
static void test_no_match(void **state)
{
    (void)state;
    char sel[160], err[512];
    const char *sels[2] = {"clsa-no-such-device-xyz", sel};
    snprintf(sel, sizeof sel, "%s:9", selector());
    for (int k = 0; k < 2; k++) {
        clsa_status st;
        err[0] = 0;
        clsa_context *ctx = create(sels[k], &st, err, sizeof err);
        assert_null(ctx);
        assert_int_equal(st, CLSA_ERR_NO_DEVICE);
        if (!strstr(err, "no OpenCL device matches")) fail_msg("'%s': %s", sels[k], err);
    }
}

int main(void)
{
    snprintf(cache_dir, sizeof cache_dir, "%s/clsa-icd-test-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(cache_dir)) return 1;
    setenv("CLSA_CACHE_DIR", cache_dir, 1);
    snprintf(cache_file, sizeof cache_file, "%s/icd-direct.txt", cache_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loader_reference), cmocka_unit_test(test_direct_same_as_loader),
        cmocka_unit_test(test_cache_route),      cmocka_unit_test(test_stale_cache),
        cmocka_unit_test(test_switch_off),       cmocka_unit_test(test_no_match),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
    if (system(cmd) != 0) rc = rc ? rc : 1;
    return rc;
}
