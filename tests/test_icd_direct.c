/* The direct route to one vendor's ICD library (host/runtime/icd_direct.h):
 * it must choose the same device as the loader's full enumeration and give
 * the same suffix arrays (checked against libdivsufsort); a garbage or
 * stale cache file is ignored and rewritten; CLSA_ICD_DIRECT=0 turns it
 * off; a selector matching nothing keeps its clear error.  Under Oclgrind
 * (its runtime preloaded, not the loader) the route must stay unused.
 *
 * The cases run in order in one process: the first one, with the route
 * off, sees the library before any library was opened directly. */
#define _GNU_SOURCE /* dladdr */
#include "testutil.h"

#include <dirent.h>
#include <divsufsort.h>
#include <dlfcn.h>
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

/* ---- a loader from elsewhere, one that rewrites its variables -----------
 * Each case is a child process (this binary again): the library reads the
 * loader's variables and loads OpenCL once per process.  The child loads
 * libOpenCL.so.1 globally first, as an application linked with it would,
 * from a copy in a temporary folder (LD_LIBRARY_PATH), not the system path;
 * with "mangle" it then cuts OCL_ICD_FILENAMES at its first ':' in place,
 * as CUDA's loader does while it loads the drivers (H200 machine).  It
 * prints "direct D allowed A platform\tdevice" and exits 0 when its suffix
 * array equals libdivsufsort's. */
static int child_main(const char *mode, const char *sel)
{
    void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_GLOBAL);
    void *f = h ? dlsym(h, "clGetPlatformIDs") : NULL;
    Dl_info info;
    const char *dir = getenv("CLSA_TEST_LOADER_DIR");
    if (!f || !dladdr(f, &info) || !dir || strncmp(info.dli_fname, dir, strlen(dir))) {
        printf("loader not from the copy: %s\n", f ? info.dli_fname : "none");
        return 3;
    }
    clsa_opencl_available(NULL, 0); /* the library loads OpenCL here */
    char *files = getenv("OCL_ICD_FILENAMES");
    if (!strcmp(mode, "mangle") && files && strchr(files, ':')) *strchr(files, ':') = 0;
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    o.device = sel;
    clsa_context *ctx = NULL;
    if (clsa_create(&o, &ctx) != CLSA_OK) return 4;
    clsa_device_info di;
    clsa_get_device_info(ctx, &di);
    printf("direct %d allowed %d %s\t%s\n", clsa__icd_direct_table(ctx->device) != NULL,
           clsa__cl_direct_allowed(), di.platform, di.name);
    size_t n = tu_size(20000, 400);
    tu_rng r = {7};
    uint8_t *t = tu_malloc(n);
    for (size_t i = 0; i < n; i++) t[i] = (uint8_t)('a' + tu_below(&r, 4));
    int32_t *got = tu_malloc(n * sizeof *got), *want = tu_malloc(n * sizeof *want);
    int bad = clsa_sa32(ctx, t, got, (int64_t)n) != CLSA_OK ||
              divsufsort(t, want, (saidx_t)n) != 0 || memcmp(got, want, n * sizeof *got);
    clsa_destroy(ctx);
    free(t);
    free(got);
    free(want);
    return bad ? 5 : 0;
}

static char self_exe[4096], loader_dir[300];

/* Runs a child; *direct and *allowed from its line; fails on a wrong device
 * or suffix array. */
static void run_child(const char *mode, const char *sel, int *direct, int *allowed)
{
    char cmd[5000], line[1024] = "", dev[600];
    snprintf(cmd, sizeof cmd, "'%s' --child %s '%s'", self_exe, mode, sel);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    if (!fgets(line, sizeof line, p)) line[0] = 0;
    int rc = pclose(p);
    line[strcspn(line, "\n")] = 0;
    if (rc != 0) fail_msg("child %s '%s' failed (%d): %s", mode, sel, rc, line);
    int used = 0;
    if (sscanf(line, "direct %d allowed %d %n", direct, allowed, &used) != 2 || !used)
        fail_msg("child said: %s", line);
    snprintf(dev, sizeof dev, "%s\t%s", loader_info.platform, loader_info.name);
    if (strcmp(line + used, dev)) fail_msg("child chose '%s', the loader '%s'", line + used, dev);
}

/* The libraries of the vendor folder's .icd files, ':'-joined, the first
 * twice (so that there is a ':' to cut, and one library named twice). */
static void icd_list(char *out, size_t cap)
{
    const char *dir = getenv("OCL_ICD_VENDORS");
    dir = dir && *dir ? dir : "/etc/OpenCL/vendors";
    DIR *d = opendir(dir);
    char first[1024] = "";
    out[0] = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        char path[2048], lib[1024];
        if (len < 5 || strcmp(e->d_name + len - 4, ".icd")) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        if (fgets(lib, sizeof lib, f)) {
            lib[strcspn(lib, "\r\n")] = 0;
            if (!*first) snprintf(first, sizeof first, "%s", lib);
            size_t used = strlen(out);
            snprintf(out + used, cap - used, "%s%s", used ? ":" : "", lib);
        }
        fclose(f);
    }
    if (d) closedir(d);
    size_t used = strlen(out);
    snprintf(out + used, cap - used, ":%s", first);
}

/* A copy of the loader this process uses, in a folder of its own. */
static int copy_loader(void)
{
    void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    void *f = h ? dlsym(h, "clGetPlatformIDs") : NULL;
    Dl_info info;
    if (!f || !dladdr(f, &info)) return 0;
    snprintf(loader_dir, sizeof loader_dir, "%s/loader", cache_dir);
    char cmd[5000];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s' '%s/libOpenCL.so.1'", loader_dir,
             info.dli_fname, loader_dir);
    return system(cmd) == 0;
}

/* The process's libOpenCL.so.1 not the system one, and a loader that
 * rewrites OCL_ICD_FILENAMES: the first child's full enumeration must write
 * a cache entry the second child (variables intact) takes the direct route
 * from; the platform selector goes the direct way by name too (the library
 * named twice counts once).  Where the route may not run (Oclgrind's
 * preloaded runtime), every child falls back to the loader's device. */
static void test_foreign_loader(void **state)
{
    (void)state;
    ssize_t len = readlink("/proc/self/exe", self_exe, sizeof self_exe - 1);
    assert_true(len > 0);
    self_exe[len] = 0;
    if (!copy_loader()) {
        print_message("note: no libOpenCL.so.1 to copy; case skipped\n");
        return;
    }
    char list[4096];
    icd_list(list, sizeof list);
    const char *old_path = getenv("LD_LIBRARY_PATH");
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", loader_dir, old_path ? ":" : "", old_path ? old_path : "");
    setenv("LD_LIBRARY_PATH", path, 1);
    setenv("OCL_ICD_FILENAMES", list, 1);
    setenv("CLSA_TEST_LOADER_DIR", loader_dir, 1);
    unlink(cache_file);
    int direct = -1, allowed = -1;
    run_child("mangle", token, &direct, &allowed);
    int named = direct; /* the device's name matched a library's name */
    run_child("keep", token, &direct, &allowed);
    if (allowed && !named) assert_int_equal(direct, 1); /* from the cache file */
    if (!allowed) assert_int_equal(direct, 0);
    run_child("keep", selector(), &direct, &allowed);
    assert_int_equal(direct, allowed);
    if (old_path) setenv("LD_LIBRARY_PATH", old_path, 1);
    else unsetenv("LD_LIBRARY_PATH");
    unsetenv("OCL_ICD_FILENAMES");
    unsetenv("CLSA_TEST_LOADER_DIR");
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--child")) return child_main(argv[2], argv[3]);
    snprintf(cache_dir, sizeof cache_dir, "%s/clsa-icd-test-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(cache_dir)) return 1;
    setenv("CLSA_CACHE_DIR", cache_dir, 1);
    snprintf(cache_file, sizeof cache_file, "%s/icd-direct.txt", cache_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loader_reference), cmocka_unit_test(test_direct_same_as_loader),
        cmocka_unit_test(test_cache_route),      cmocka_unit_test(test_stale_cache),
        cmocka_unit_test(test_switch_off),       cmocka_unit_test(test_no_match),
        cmocka_unit_test(test_foreign_loader),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
    if (system(cmd) != 0) rc = rc ? rc : 1;
    return rc;
}
