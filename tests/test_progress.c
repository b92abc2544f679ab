/* Progress reports and cancellation (clsa_options.progress): fractions are
 * non-decreasing in [0, 1] and end at 1; a callback that says stop at the
 * first, a middle or the last report gives CLSA_ERR_CANCELLED with no
 * device memory left, and the same context then still builds correct
 * suffix arrays. */
#include "testutil.h"

/* What the callback saw, and when it should say stop. */
typedef struct recorder {
    int calls;
    int stop_at;     /* report number (0-based) that returns nonzero; -1 never */
    double last;
    int went_back;   /* a fraction below the one before */
    int out_of_range;
    int named;       /* every phase had a non-empty name */
} recorder;

static int record(void *user, const char *phase, double fraction)
{
    recorder *r = user;
    if (fraction < 0.0 || fraction > 1.0) r->out_of_range = 1;
    if (r->calls > 0 && fraction < r->last) r->went_back = 1;
    if (!phase || !*phase) r->named = 0;
    r->last = fraction;
    return r->calls++ == r->stop_at;
}

static void reset(recorder *r, int stop_at)
{
    memset(r, 0, sizeof *r);
    r->stop_at = stop_at;
    r->named = 1;
}

/* A context with the recorder installed, device or host backend. */
static clsa_context *open_ctx(recorder *r, int backend)
{
    clsa_options o;
    clsa_options_init(&o);
    o.backend = backend;
    o.progress = record;
    o.progress_user = r;
    clsa_context *c = NULL;
    char err[512];
    if (clsa_create_ex(&o, &c, err, sizeof err) != CLSA_OK) {
        const char *req = getenv("CLSA_TEST_REQUIRE");
        int must = req && !strcmp(req, "1");
        fprintf(stderr, "%s: device not available: %s\n", must ? "FAIL" : "SKIP", err);
        exit(must ? 1 : TU_SKIP);
    }
    return c;
}

/* Periodic text with a few changes: long equal prefixes, so the device
 * path takes several doubling passes (several reports to stop at). */
static uint8_t *make_text(size_t n)
{
    uint8_t *t = tu_malloc(n);
    tu_rng rng = {14};
    for (size_t i = 0; i < n; i++) t[i] = i < 97 ? (uint8_t)('a' + tu_below(&rng, 4)) : t[i - 97];
    for (size_t i = 0; i < n / 200 + 1; i++) t[tu_below(&rng, (uint32_t)n)] = 'z';
    return t;
}

static size_t text_len(void) { return tu_sizes(50000, 1500, 1000); }

static void no_device_memory_left(clsa_context *c)
{
    clsa_stats s;
    assert_int_equal(clsa_get_stats(c, &s), CLSA_OK);
    if (s.current_device_bytes)
        fail_msg("%llu device bytes left", (unsigned long long)s.current_device_bytes);
}

static void assert_well_formed(const recorder *r)
{
    assert_true(r->calls >= 2);
    assert_false(r->went_back);
    assert_false(r->out_of_range);
    assert_true(r->named);
}

static void sa_matches_host(clsa_context *c, const uint8_t *t, size_t n)
{
    int32_t *sa = tu_malloc(n * 4), *ref = tu_malloc(n * 4);
    assert_int_equal(clsa_sa32(NULL, t, ref, (int64_t)n), CLSA_OK);
    TU_OK(c, clsa_sa32(c, t, sa, (int64_t)n));
    assert_memory_equal(sa, ref, n * 4);
    free(sa);
    free(ref);
}

static void sa_reports_and_cancels(int backend)
{
    size_t n = text_len();
    uint8_t *t = make_text(n);
    int32_t *sa = tu_malloc(n * 4);
    recorder r;
    reset(&r, -1);
    clsa_context *c = open_ctx(&r, backend);
    TU_OK(c, clsa_sa32(c, t, sa, (int64_t)n));
    assert_well_formed(&r);
    assert_true(r.last == 1.0);
    int total = r.calls;
    if (backend == CLSA_BACKEND_DEVICE) {
        clsa_stats s;
        assert_int_equal(clsa_get_stats(c, &s), CLSA_OK);
        /* one report per pass, plus the initial sort, inversion and end */
        assert_true(total >= (int)s.doubling_passes + 3);
    }
    int stops[3] = {0, total / 2, total - 1};
    for (int i = 0; i < 3; i++) {
        reset(&r, stops[i]);
        clsa_status st = clsa_sa32(c, t, sa, (int64_t)n);
        if (st != CLSA_ERR_CANCELLED)
            fail_msg("stop at report %d of %d -> %d (%s): %s", stops[i], total, (int)st,
                     clsa_status_string(st), clsa_last_error(c));
        assert_int_equal(r.calls, stops[i] + 1); /* no report after the stop */
        assert_non_null(strstr(clsa_last_error(c), "cancelled"));
        no_device_memory_left(c);
    }
    reset(&r, -1);
    sa_matches_host(c, t, n); /* the context survives a cancel */
    assert_true(r.last == 1.0);
    no_device_memory_left(c);
    clsa_destroy(c);
    free(sa);
    free(t);
}

static void test_sa_device(void **state)
{
    (void)state;
    sa_reports_and_cancels(CLSA_BACKEND_DEVICE);
}

static void test_sa_host(void **state)
{
    (void)state;
    sa_reports_and_cancels(CLSA_BACKEND_HOST);
}

/* BWT, LCP and the FM-index report one rising sequence per call. */
static void test_index_calls(void **state)
{
    (void)state;
    size_t n = text_len();
    uint8_t *t = make_text(n), *bwt = tu_malloc(n);
    int32_t *lcp = tu_malloc(n * 4);
    int64_t primary;
    recorder r;
    reset(&r, -1);
    clsa_context *c = open_ctx(&r, CLSA_BACKEND_DEVICE);
    TU_OK(c, clsa_bwt(c, t, bwt, (int64_t)n, &primary));
    assert_well_formed(&r);
    assert_true(r.last == 1.0);
    reset(&r, -1);
    TU_OK(c, clsa_lcp32(c, t, lcp, (int64_t)n));
    assert_well_formed(&r);
    assert_true(r.last == 1.0);
    reset(&r, -1);
    clsa_fm *fm = NULL;
    TU_OK(c, clsa_fm_create(c, t, (int64_t)n, 0, &fm));
    assert_well_formed(&r);
    assert_true(r.last == 1.0);
    clsa_fm_free(fm);
    /* a stop in the middle of an FM-index build leaves nothing behind */
    int total = r.calls;
    reset(&r, total / 2);
    fm = NULL;
    assert_int_equal(clsa_fm_create(c, t, (int64_t)n, 0, &fm), CLSA_ERR_CANCELLED);
    assert_null(fm);
    no_device_memory_left(c);
    clsa_destroy(c);
    free(lcp);
    free(bwt);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sa_device),
        cmocka_unit_test(test_sa_host),
        cmocka_unit_test(test_index_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
