/* Bad input through the API, resource limits, kernel build failures and the
 * program cache's defences, on the device under test.  Each case asserts the
 * exact status, a message that says what went wrong, and that nothing is
 * left allocated on the device. */
#include "testutil.h"
#include "runtime.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Index calls join once the library has them (whole static library linked). */
#pragma weak clsa_unbwt
#pragma weak clsa_bwt
#pragma weak clsa_lcp32
#pragma weak clsa_isa32

static clsa_context *ctx;
static int close_ctx(void **state);

static void no_device_memory_left(clsa_context *c)
{
    clsa_stats s;
    assert_int_equal(clsa_get_stats(c, &s), CLSA_OK);
    if (s.current_device_bytes) fail_msg("%llu device bytes left", (unsigned long long)s.current_device_bytes);
}

static void expect(clsa_context *c, clsa_status got, clsa_status want, const char *words,
                   const char *expr)
{
    if (got != want)
        fail_msg("%s -> %d (%s), want %d: %s", expr, (int)got, clsa_status_string(got), (int)want,
                 clsa_last_error(c));
    if (words && !strstr(clsa_last_error(c), words))
        fail_msg("%s: message '%s' lacks '%s'", expr, clsa_last_error(c), words);
    if (c) no_device_memory_left(c);
}
#define EXPECT(c, expr, status, words) expect((c), (expr), (status), (words), #expr)

/* ---- NULL pointers, n = 0, n = 1, negative and oversized n ----------------- */

static void null_pointers(void **state)
{
    (void)state;
    clsa_context *c = ctx;
    int32_t sa32[4];
    int64_t sa64[4];
    const uint8_t *t = (const uint8_t *)"abca";
    EXPECT(c, clsa_sa32(c, NULL, sa32, 4), CLSA_ERR_INVALID_ARG, "NULL");
    EXPECT(c, clsa_sa32(c, t, NULL, 4), CLSA_ERR_INVALID_ARG, "NULL");
    EXPECT(c, clsa_sa64(c, NULL, sa64, 4), CLSA_ERR_INVALID_ARG, "NULL");
    EXPECT(c, clsa_sa32(c, t, sa32, -1), CLSA_ERR_INVALID_ARG, "negative");
    EXPECT(c, clsa_sa32_mem(c, NULL, NULL, 4), CLSA_ERR_INVALID_ARG, "NULL");
    EXPECT(c, clsa_sa64_mem(c, NULL, NULL, 4), CLSA_ERR_INVALID_ARG, "NULL");
    uint32_t v[4] = {1, 2, 3, 4};
    size_t count;
    EXPECT(c, clsa_scan_u32(c, NULL, v, 4, 0), CLSA_ERR_INVALID_ARG, "NULL");
    EXPECT(c, clsa_scan_u32(c, v, NULL, 4, 1), CLSA_ERR_INVALID_ARG, "NULL");
    EXPECT(c, clsa_scan_u32_mem(c, NULL, NULL, 4, 0), CLSA_ERR_INVALID_ARG, "NULL");
    EXPECT(c, clsa_compact_u32(c, v, NULL, 4, v, &count), CLSA_ERR_INVALID_ARG, "NULL");
    EXPECT(c, clsa_compact_u32_mem(c, NULL, NULL, 4, NULL, &count), CLSA_ERR_INVALID_ARG, "NULL");
    /* No context: calls that need a device say so; info calls refuse. */
    assert_int_equal(clsa_scan_u32(NULL, v, v, 4, 0), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_sa32_mem(NULL, NULL, NULL, 4), CLSA_ERR_INVALID_ARG);
    clsa_stats s;
    clsa_device_info info;
    assert_int_equal(clsa_get_stats(NULL, &s), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_get_stats(ctx, NULL), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_get_device_info(NULL, &info), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_get_device_info(ctx, NULL), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_list_devices(NULL, 3, &count), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_list_devices(&info, 1, NULL), CLSA_ERR_INVALID_ARG);
    assert_string_equal(clsa_last_error(NULL), "");
    clsa_reset_stats(NULL);
    clsa_destroy(NULL);
    clsa_options_init(NULL);
    int valid = 7;
    char why[64];
    assert_int_equal(clsa_check_sa32(NULL, sa32, 4, &valid, why, sizeof why), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_check_sa32(t, NULL, 4, &valid, why, sizeof why), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_check_sa32(t, sa32, 4, NULL, why, sizeof why), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_check_sa64(t, sa64, -3, &valid, why, sizeof why), CLSA_ERR_INVALID_ARG);
    for (int st = 0; st >= -12; st--) assert_non_null(clsa_status_string((clsa_status)st));
}

static void empty_and_single(void **state)
{
    (void)state;
    clsa_context *c = ctx;
    /* n = 0 is valid, nothing is read or written (NULL arrays allowed). */
    EXPECT(c, clsa_sa32(c, NULL, NULL, 0), CLSA_OK, NULL);
    EXPECT(c, clsa_sa64(c, NULL, NULL, 0), CLSA_OK, NULL);
    EXPECT(c, clsa_sa32(NULL, NULL, NULL, 0), CLSA_OK, NULL);
    EXPECT(c, clsa_scan_u32(c, NULL, NULL, 0, 0), CLSA_OK, NULL);
    size_t count = 99;
    EXPECT(c, clsa_compact_u32(c, NULL, NULL, 0, NULL, &count), CLSA_OK, NULL);
    assert_int_equal(count, 0);
    int valid = 0;
    assert_int_equal(clsa_check_sa32((const uint8_t *)"", NULL, 0, &valid, NULL, 0), CLSA_OK);
    assert_true(valid);
    /* n = 1: the only suffix, on the device and on the host. */
    int32_t sa32[2] = {-5, -7};
    int64_t sa64[2] = {-5, -7};
    /* (Not under Oclgrind: the device suffix array takes minutes there and
     * is covered by test_sa on small inputs.) */
    if (!tu_small()) {
        EXPECT(c, clsa_sa32(c, (const uint8_t *)"x", sa32, 1), CLSA_OK, NULL);
        assert_int_equal(sa32[0], 0);
        assert_int_equal(sa32[1], -7); /* nothing written past n */
        EXPECT(c, clsa_sa64(c, (const uint8_t *)"\0", sa64, 1), CLSA_OK, NULL);
        assert_int_equal(sa64[0], 0);
        assert_int_equal(sa64[1], -7);
    }
    assert_int_equal(clsa_sa32(NULL, (const uint8_t *)"x", sa32, 1), CLSA_OK);
    assert_int_equal(sa32[0], 0);
    uint32_t one = 42, out = 0;
    EXPECT(c, clsa_scan_u32(c, &one, &out, 1, 0), CLSA_OK, NULL);
    assert_int_equal(out, 0);
    EXPECT(c, clsa_scan_u32(c, &one, &out, 1, 1), CLSA_OK, NULL);
    assert_int_equal(out, 42);
}

/* The width check is on n alone: nothing is read, so a tiny buffer is fine. */
static void too_large(void **state)
{
    (void)state;
    clsa_context *c = ctx;
    uint8_t tiny[8] = {0};
    int32_t sa[8];
    int64_t big = (int64_t)INT32_MAX + 1;
    EXPECT(c, clsa_sa32(c, tiny, sa, big), CLSA_ERR_TOO_LARGE, "64");
    EXPECT(c, clsa_sa32(c, tiny, sa, INT64_MAX), CLSA_ERR_TOO_LARGE, "64");
    assert_int_equal(clsa_sa32(NULL, tiny, sa, big), CLSA_ERR_TOO_LARGE);
    /* A device buffer handle is never touched either. */
    cl_mem dummy = (cl_mem)(uintptr_t)0x1;
    EXPECT(c, clsa_sa32_mem(c, dummy, dummy, big), CLSA_ERR_TOO_LARGE, "64");
    if (clsa_lcp32) EXPECT(c, clsa_lcp32(c, tiny, sa, big), CLSA_ERR_TOO_LARGE, "64");
    if (clsa_isa32) EXPECT(c, clsa_isa32(c, tiny, sa, big), CLSA_ERR_TOO_LARGE, "64");
    /* 64-bit: far more than any device holds goes out of core, whose host
     * arrays no machine holds either -> out of host memory, reported before
     * any work (no launch, nothing read from the text). */
    clsa_reset_stats(c);
    int64_t sa64[8];
    EXPECT(c, clsa_sa64(c, tiny, sa64, (int64_t)1 << 50), CLSA_ERR_HOST_MEMORY, "host memory");
    clsa_stats s;
    clsa_get_stats(c, &s);
    assert_int_equal(s.kernel_launches, 0);
}

/* Inverse BWT with a primary index outside [1, n]: refused with the range. */
static void bwt_primary(void **state)
{
    (void)state;
    if (!clsa_unbwt || !clsa_bwt) skip();
    clsa_context *c = ctx;
    const uint8_t *t = (const uint8_t *)"mississippi";
    uint8_t bwt[11], back[11];
    int64_t primary = -1;
    EXPECT(c, clsa_bwt(c, t, bwt, 11, &primary), CLSA_OK, NULL);
    assert_true(primary >= 1 && primary <= 11);
    int64_t bad[] = {0, -1, 12, INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        EXPECT(c, clsa_unbwt(c, bwt, back, 11, bad[i]), CLSA_ERR_INVALID_ARG, "primary");
        EXPECT(NULL, clsa_unbwt(NULL, bwt, back, 11, bad[i]), CLSA_ERR_INVALID_ARG, NULL);
    }
    EXPECT(c, clsa_unbwt(c, bwt, back, 11, primary), CLSA_OK, NULL);
    assert_memory_equal(back, t, 11);
    EXPECT(c, clsa_unbwt(c, NULL, NULL, 0, 0), CLSA_OK, NULL);
    EXPECT(c, clsa_unbwt(c, NULL, NULL, 0, 1), CLSA_ERR_INVALID_ARG, NULL);
}

/* ---- device and backend selection --------------------------------------------- */

static void selection(void **state)
{
    (void)state;
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    char err[512];
    clsa_context *c = (clsa_context *)&o;
    o.device = "pocl:99999";
    assert_int_equal(clsa_create_ex(&o, &c, err, sizeof err), CLSA_ERR_NO_DEVICE);
    assert_null(c);
    assert_non_null(strstr(err, "pocl:99999"));
    o.device = "gpu:-1";
    assert_int_equal(clsa_create_ex(&o, &c, err, sizeof err), CLSA_ERR_NO_DEVICE);
    o.device = "";
    o.backend = -2;
    assert_int_equal(clsa_create_ex(&o, &c, err, sizeof err), CLSA_ERR_INVALID_ARG);
    assert_null(c);
    /* Environment: a bad CLSA_BACKEND is an error, not a silent default. */
    const char *old = getenv("CLSA_BACKEND");
    char *keep = old ? strdup(old) : NULL;
    setenv("CLSA_BACKEND", "gpu-please", 1);
    assert_int_equal(clsa_create_ex(NULL, &c, err, sizeof err), CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(err, "CLSA_BACKEND"));
    setenv("CLSA_BACKEND", "host", 1);
    assert_int_equal(clsa_create_ex(NULL, &c, err, sizeof err), CLSA_OK);
    int32_t sa[3];
    assert_int_equal(clsa_sa32(c, (const uint8_t *)"aaa", sa, 3), CLSA_OK);
    assert_int_equal(sa[0], 2);
    assert_int_equal(clsa_sa32_mem(c, NULL, NULL, 3), CLSA_ERR_NO_DEVICE);
    assert_non_null(strstr(clsa_last_error(c), "host backend"));
    clsa_destroy(c);
    if (keep) setenv("CLSA_BACKEND", keep, 1);
    else unsetenv("CLSA_BACKEND");
    free(keep);
    /* A NULL error buffer is allowed. */
    o.device = "no-such-device-at-all";
    o.backend = CLSA_BACKEND_AUTO;
    assert_int_equal(clsa_create_ex(&o, &c, NULL, 0), CLSA_ERR_NO_DEVICE);
}

/* ---- device memory limit --------------------------------------------------------- */

static clsa_context *context_with_limit(const char *limit)
{
    setenv("CLSA_DEVICE_MEM_LIMIT", limit, 1);
    clsa_context *c = tu_context();
    unsetenv("CLSA_DEVICE_MEM_LIMIT");
    return c;
}

/* Below the out-of-core minimum (host/sa/out_of_core.c, about 31 KB):
 * CLSA_ERR_DEVICE_MEMORY before any kernel runs, with a message naming the
 * limit and that minimum; above it (out of core below the in-memory working
 * set, in memory above): the right answer, and the peak stays under the
 * limit. */
static void memory_limit(void **state)
{
    (void)state;
    close_ctx(state); /* only the contexts below are alive */
    size_t n = tu_size(20000, 600);
    uint8_t *text = tu_malloc(n);
    int32_t *sa = tu_malloc(n * 4), *ref = tu_malloc(n * 4);
    tu_rng r = {3};
    for (size_t i = 0; i < n; i++) text[i] = (uint8_t)('a' + tu_below(&r, 3));
    assert_int_equal(clsa_sa32(NULL, text, ref, (int64_t)n), CLSA_OK);
    size_t limits[] = {1024, n, 5 * n - 1, 5 * n + 64, 8 * n, 16 * n, 64 * n, 1u << 30};
    int refused = 0, done = 0;
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
        /* Oclgrind is slow (and 21.10 has crashed in clReleaseProgram on
         * a later context here): the refusals and one success suffice. */
        if (tu_small() && done) break;
        char lim[32];
        snprintf(lim, sizeof lim, "%zu", limits[i]);
        clsa_context *c = context_with_limit(lim);
        clsa_status st = clsa_sa32(c, text, sa, (int64_t)n);
        clsa_stats s;
        clsa_get_stats(c, &s);
        fprintf(stderr, "limit %zu bytes for n = %zu: %s%s%s\n", limits[i], n,
                clsa_status_string(st), st ? ": " : "", st ? clsa_last_error(c) : "");
        assert_int_equal(s.current_device_bytes, 0);
        if (st == CLSA_OK) {
            assert_memory_equal(sa, ref, n * 4);
            assert_true(s.peak_device_bytes <= limits[i]);
            done++;
        } else {
            if (st != CLSA_ERR_DEVICE_MEMORY)
                fail_msg("limit %zu: status %d: %s", limits[i], st, clsa_last_error(c));
            assert_non_null(strstr(clsa_last_error(c), "CLSA_DEVICE_MEM_LIMIT"));
            assert_non_null(strstr(clsa_last_error(c), "at least"));
            if (s.kernel_launches != 0)
                fail_msg("limit %zu: refused after %llu launches (must be before work): %s",
                         limits[i], (unsigned long long)s.kernel_launches, clsa_last_error(c));
            assert_true(done == 0); /* monotone: a larger limit never fails again */
            refused++;
        }
        clsa_destroy(c);
    }
    assert_true(refused >= 2); /* 1 KiB and n bytes are below the out-of-core minimum */
    assert_true(done >= 1);    /* 1 GiB can (and 64n too) */
    free(text);
    free(sa);
    free(ref);
}

/* The limit on a primitive; suffixes K/M/G; a garbage value is ignored
 * (the device's own limit applies). */
static void memory_limit_scan(void **state)
{
    (void)state;
    close_ctx(state);
    uint32_t *sa = tu_malloc(1000 * 4);
    for (int i = 0; i < 1000; i++) sa[i] = 1;
    clsa_context *c = context_with_limit("1K");
    assert_int_equal(clsa_scan_u32(c, sa, sa, 1000, 0), CLSA_ERR_DEVICE_MEMORY);
    assert_non_null(strstr(clsa_last_error(c), "CLSA_DEVICE_MEM_LIMIT"));
    no_device_memory_left(c);
    clsa_stats s;
    clsa_get_stats(c, &s);
    assert_int_equal(s.kernel_launches, 0);
    clsa_destroy(c);
    c = context_with_limit("0.5M");
    assert_int_equal(clsa_scan_u32(c, sa, sa, 1000, 0), CLSA_OK);
    assert_int_equal(sa[999], 999);
    clsa_destroy(c);
    /* a value that is no size is refused, naming the variable (issue 46) */
    char err[256];
    clsa_options o;
    clsa_options_init(&o);
    setenv("CLSA_DEVICE_MEM_LIMIT", "lots", 1);
    assert_int_equal(clsa_create_ex(&o, &c, err, sizeof err), CLSA_ERR_INVALID_ARG);
    unsetenv("CLSA_DEVICE_MEM_LIMIT");
    assert_null(c);
    assert_non_null(strstr(err, "CLSA_DEVICE_MEM_LIMIT 'lots'"));
    free(sa);
}

/* ---- kernel build failure --------------------------------------------------------- */

static void broken_kernel(void **state)
{
    (void)state;
    clsa__override_source("scan", "kernel void broken(global uint *p) { p[0] = undeclared_thing + ; }\n");
    uint32_t v[300];
    for (int i = 0; i < 300; i++) v[i] = 1;
    clsa_status st = clsa_scan_u32(ctx, v, v, 300, 0);
    char *msg = strdup(clsa_last_error(ctx));
    clsa__override_source("scan", NULL);
    if (st != CLSA_ERR_BUILD) fail_msg("status %d: %s", st, msg);
    assert_non_null(strstr(msg, "clBuildProgram"));
    assert_non_null(strstr(msg, "cl_kernels/prim/scan.cl"));
    assert_non_null(strstr(msg, "build log"));
    /* The compiler's own words: it names the undeclared identifier. */
    if (!strstr(msg, "undeclared_thing")) fail_msg("build log lacks the compiler's message: %s", msg);
    free(msg);
    no_device_memory_left(ctx);
    /* Restored source: the same context builds and runs it. */
    TU_OK(ctx, clsa_scan_u32(ctx, v, v, 300, 0));
    assert_int_equal(v[299], 299);
}

/* ---- program cache --------------------------------------------------------------- */

static char cache[256];

static void use_cache_dir(void)
{
    snprintf(cache, sizeof cache, "%s/clsa-cache-test-%ld", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (long)getpid());
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
    assert_int_equal(system(cmd), 0);
    setenv("CLSA_CACHE_DIR", cache, 1);
    unsetenv("CLSA_CACHE");
}

/* Runs scan and compact in a new context; returns its stats. */
static clsa_stats cache_run(void)
{
    clsa_context *c = tu_context();
    uint32_t v[500], f[500], o[500];
    size_t count = 0;
    for (int i = 0; i < 500; i++) {
        v[i] = (uint32_t)i;
        f[i] = (uint32_t)(i % 3 == 0);
    }
    TU_OK(c, clsa_scan_u32(c, v, o, 500, 0));
    assert_int_equal(o[499], 499 * 498 / 2);
    TU_OK(c, clsa_compact_u32(c, v, f, 500, o, &count));
    assert_int_equal(count, 167);
    assert_int_equal(o[166], 498);
    clsa_stats s;
    clsa_get_stats(c, &s);
    clsa_destroy(c);
    return s;
}

/* The cache entries (*.bin) in the folder. */
static int entries(char paths[][512], int cap)
{
    DIR *d = opendir(cache);
    if (!d) return 0;
    int k = 0;
    struct dirent *e;
    while ((e = readdir(d)) && k < cap) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".bin"))
            snprintf(paths[k++], 512, "%s/%s", cache, e->d_name);
    }
    closedir(d);
    return k;
}

static long file_size(const char *p)
{
    struct stat s;
    return stat(p, &s) == 0 ? (long)s.st_size : -1;
}

static void flip_byte(const char *path, long at)
{
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    unsigned char b;
    assert_int_equal(pread(fd, &b, 1, at), 1);
    b ^= 0x5a;
    assert_int_equal(pwrite(fd, &b, 1, at), 1);
    close(fd);
}

/* Expect every program rebuilt (nothing trusted), then loaded again. */
static void expect_rebuilt(const char *what)
{
    clsa_stats s = cache_run();
    if (s.programs_loaded != 0 || s.programs_built < 2)
        fail_msg("%s: loaded %u, built %u (want 0 loaded)", what, s.programs_loaded, s.programs_built);
}

static void expect_loaded(const char *what)
{
    clsa_stats s = cache_run();
    if (s.programs_loaded < 2 || s.programs_built != 0)
        fail_msg("%s: loaded %u, built %u (want all loaded)", what, s.programs_loaded, s.programs_built);
}

static void program_cache(void **state)
{
    (void)state;
    close_ctx(state);
    use_cache_dir();
    clsa_stats s = cache_run();
    assert_true(s.programs_built >= 2);
    assert_int_equal(s.programs_loaded, 0);
    struct stat ds;
    assert_int_equal(stat(cache, &ds), 0);
    assert_int_equal(ds.st_mode & 077, 0); /* created private */
    char p[8][512];
    int k = entries(p, 8);
    if (k < 2) fail_msg("%d cache entries after building scan and compact", k);
    expect_loaded("second context");

    /* A flipped byte in the binary (end of file) or in the header. */
    flip_byte(p[0], file_size(p[0]) - 10);
    flip_byte(p[1], 3);
    clsa_stats t = cache_run();
    assert_true(t.programs_built >= 2); /* both damaged ones rebuilt */
    expect_loaded("after rebuilding corrupt entries");

    /* Truncated entry. */
    assert_int_equal(truncate(p[0], file_size(p[0]) / 2), 0);
    t = cache_run();
    assert_true(t.programs_built >= 1);
    expect_loaded("after rebuilding a truncated entry");

    /* Foreign entry: another program's valid entry under this name (the
     * stored key does not match); and an empty file. */
    char cmd[2600];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s.x' && mv '%s.x' '%s' && : > '%s'", p[1], p[1], p[1], p[0], p[1]);
    assert_int_equal(system(cmd), 0);
    expect_rebuilt("foreign and empty entries");
    expect_loaded("after rebuilding foreign entries");

    /* An entry writable by others is never trusted (and gets replaced by a private one). */
    for (int i = 0; i < k; i++) chmod(p[i], 0666);
    expect_rebuilt("world-writable entries");
    for (int i = 0; i < k; i++) {
        struct stat es;
        assert_int_equal(stat(p[i], &es), 0);
        assert_int_equal(es.st_mode & 022, 0);
    }
    expect_loaded("after replacing world-writable entries");

    /* A symbolic link in place of an entry is not followed. */
    snprintf(cmd, sizeof cmd, "mv '%s' '%s/elsewhere' && ln -s '%s/elsewhere' '%s'", p[0], cache, cache, p[0]);
    assert_int_equal(system(cmd), 0);
    t = cache_run();
    assert_true(t.programs_built >= 1);

    /* Entries owned by someone else (only root can arrange that). */
    if (geteuid() == 0) {
        expect_loaded("before chown");
        for (int i = 0; i < k; i++) assert_int_equal(chown(p[i], 65534, 65534), 0);
        expect_rebuilt("entries owned by another user");
    }

    /* A world-writable cache folder is not used at all: nothing loaded,
     * nothing written. */
    expect_loaded("before opening the folder");
    chmod(cache, 0777);
    snprintf(cmd, sizeof cmd, "rm -f '%s'/*.bin", cache);
    assert_int_equal(system(cmd), 0);
    expect_rebuilt("world-writable folder");
    assert_int_equal(entries(p, 8), 0);
    chmod(cache, 0700);

    /* CLSA_CACHE=0: no cache at all. */
    setenv("CLSA_CACHE", "0", 1);
    expect_rebuilt("CLSA_CACHE=0");
    assert_int_equal(entries(p, 8), 0);
    unsetenv("CLSA_CACHE");
    expect_rebuilt("first run after re-enabling");
    expect_loaded("second run after re-enabling");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
    assert_int_equal(system(cmd), 0);
}

/* A context per case: one alive at a time. */
static int open_ctx(void **state)
{
    (void)state;
    ctx = tu_context();
    return 0;
}

static int close_ctx(void **state)
{
    (void)state;
    clsa_destroy(ctx);
    ctx = NULL;
    return 0;
}

#define CASE(f) cmocka_unit_test_setup_teardown(f, open_ctx, close_ctx)

int main(void)
{
    clsa_destroy(tu_context()); /* skips cleanly when the device is missing */
    const struct CMUnitTest tests[] = {
        CASE(null_pointers), CASE(empty_and_single), CASE(too_large),    CASE(bwt_primary),
        CASE(selection),
        CASE(memory_limit),  CASE(memory_limit_scan), CASE(broken_kernel), CASE(program_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
