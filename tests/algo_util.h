/* The suffix array algorithms' tests (test_skew.c, test_runlen.c): a
 * context of one clsa_options.algorithm, and a device suffix array
 * checked against the host's. */
#ifndef CLSA_TESTS_ALGO_UTIL_H
#define CLSA_TESTS_ALGO_UTIL_H
#include "testutil.h"

/* A device context running `algorithm`, with CLSA_TUNE tune (NULL: the
 * defaults) and the progress callback (NULL: none). */
static inline clsa_context *algo_context(int algorithm, const char *tune,
                                         int (*progress)(void *, const char *, double))
{
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    o.algorithm = algorithm;
    o.progress = progress;
    if (tune) setenv("CLSA_TUNE", tune, 1);
    clsa_context *c = NULL;
    char err[512];
    clsa_status st = clsa_create_ex(&o, &c, err, sizeof err);
    unsetenv("CLSA_TUNE");
    if (st != CLSA_OK) {
        const char *req = getenv("CLSA_TEST_REQUIRE");
        fprintf(stderr, "device not available: %s\n", err);
        exit(req && !strcmp(req, "1") ? 1 : TU_SKIP);
    }
    return c;
}

/* The suffix array of t (n symbols of sym bytes) on c or the host (c NULL). */
static inline clsa_status algo_sa(clsa_context *c, const void *t, int sym, void *sa, size_t n,
                                  int index64)
{
    int64_t nn = (int64_t)n;
    if (sym == 1) return index64 ? clsa_sa64(c, t, sa, nn) : clsa_sa32(c, t, sa, nn);
    if (sym == 2) return index64 ? clsa_sa64_u16(c, t, sa, nn) : clsa_sa32_u16(c, t, sa, nn);
    return index64 ? clsa_sa64_u32(c, t, sa, nn) : clsa_sa32_u32(c, t, sa, nn);
}

/* The device SA of t (sym bytes a symbol) on c against the host's. */
static inline void algo_check(clsa_context *c, const void *t, int sym, size_t n, int index64,
                              const char *what)
{
    size_t w = index64 ? 8 : 4;
    void *dev = tu_malloc(n * w + 8), *ref = tu_malloc(n * w + 8);
    TU_OK(c, algo_sa(c, t, sym, dev, n, index64));
    assert_int_equal(algo_sa(NULL, t, sym, ref, n, index64), CLSA_OK);
    if (memcmp(dev, ref, n * w) != 0) {
        size_t i = 0;
        while (i < n && !memcmp((char *)dev + i * w, (char *)ref + i * w, w)) i++;
        fail_msg("%s (n=%zu, %d-bit, %d-byte symbols): first difference at SA[%zu]", what, n,
                 index64 ? 64 : 32, sym, i);
    }
    free(dev);
    free(ref);
}
#endif
