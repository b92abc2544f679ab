/* CLSA_TUNE through the key table (host/runtime/tuning_keys.c): values
 * bounded as each key's row says, sa_path's flag names, and an error that
 * names an unknown key or a value that is not a number. */
#include "testutil.h"
#include "runtime.h"

/* A record with every field set, so that an override shows. */
static clsa_tuning base(void)
{
    clsa_tuning t;
    memset(&t, 0, sizeof t);
    t.max_wg = 1024;
    t.local_mem = 49152;
    char why[8];
    assert_true(clsa__tuning_init(&t, why, sizeof why) || getenv("CLSA_TUNE"));
    return t;
}

static void apply(clsa_tuning *t, const char *spec)
{
    char why[160];
    if (!clsa__tune_apply(t, spec, why, sizeof why)) fail_msg("%s: %s", spec, why);
}

static void bounds(void **state)
{
    (void)state;
    clsa_tuning t = base();
    apply(&t, "wg=300,sort_wg=64,radix_bits=100,radix_sub=0,lookback=99,onesweep=5");
    assert_int_equal(t.wg, 256);
    assert_int_equal(t.sort_wg, 64);
    assert_int_equal(t.radix_bits, 8);
    assert_int_equal(t.radix_sub, CLSA_RADIX_SUB_BITS); /* 0 leaves the default */
    assert_int_equal(t.lookback, 32);
    assert_int_equal(t.onesweep, 1);
    apply(&t, "onesweep=0,radix_bits=2,stage_threads=1000,ooc=1,host_threshold=123");
    assert_int_equal(t.onesweep, 0);
    assert_int_equal(t.radix_bits, 4);
    assert_int_equal(t.stage_threads, CLSA_STAGE_THREADS);
    assert_int_equal(t.out_of_core, 1);
    assert_int_equal(t.host_threshold, 123);
    size_t count = 0;
    const clsa_tune_key *k = clsa__tune_keys(&count);
    assert_true(count >= 51);
    for (size_t i = 0; i < count; i++) assert_true(k[i].meaning[0] && k[i].lo <= k[i].hi);
}

static void sa_path_names(void **state)
{
    (void)state;
    clsa_tuning t = base();
    apply(&t, "sa_path=classes+half");
    assert_int_equal(t.sa_path, CLSA_SA_CLASSES | CLSA_SA_HALF);
    apply(&t, "sa_path=2055");
    assert_int_equal(t.sa_path, 2055);
    apply(&t, "sa_path=global_plain+halves+half");
    assert_int_equal(t.sa_path, 2055);
    apply(&t, "sa_path=no_direct+8");
    assert_int_equal(t.sa_path, 136);
}

/* A bad spec fails, naming what is wrong, and a context is not made. */
static void refused(void **state)
{
    (void)state;
    clsa_tuning t = base();
    char why[160];
    assert_false(clsa__tune_apply(&t, "wg=64,no_such_key=1", why, sizeof why));
    assert_non_null(strstr(why, "no_such_key"));
    assert_false(clsa__tune_apply(&t, "r1=12k", why, sizeof why));
    assert_non_null(strstr(why, "r1"));
    assert_false(clsa__tune_apply(&t, "sa_path=classes+sideways", why, sizeof why));
    assert_false(clsa__tune_apply(&t, "pool", why, sizeof why));
    const char *old = getenv("CLSA_TUNE");
    char *saved = old ? strdup(old) : NULL;
    setenv("CLSA_TUNE", "radix_bits=8,tial=1", 1);
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    o.device = getenv("CLSA_DEVICE");
    clsa_context *ctx = NULL;
    char err[256] = "";
    clsa_status st = clsa_create_ex(&o, &ctx, err, sizeof err);
    if (saved) setenv("CLSA_TUNE", saved, 1);
    else unsetenv("CLSA_TUNE");
    free(saved);
    if (st == CLSA_ERR_NO_DEVICE) skip();
    assert_int_equal(st, CLSA_ERR_INVALID_ARG);
    assert_null(ctx);
    assert_non_null(strstr(err, "tial"));
}

/* clsa_set_tuning: the same checks on a context's own record, and a
 * suffix array on a forced path still equal to the host's. */
static void set_tuning(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context();
    assert_int_equal(clsa_set_tuning(ctx, "sa_path=classes+half,no_such_key=1"),
                     CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(clsa_last_error(ctx), "no_such_key"));
    TU_OK(ctx, clsa_set_tuning(ctx, "sa_path=classes+half,r1=32"));
    int64_t n = tu_small() ? 3000 : 40000;
    uint8_t *text = tu_malloc((size_t)n);
    uint64_t x = 12345;
    for (int64_t i = 0; i < n; i++) text[i] = "acgt"[(x = x * 6364136223846793005ull + 1) >> 62];
    int32_t *sa = tu_malloc((size_t)n * 4), *ref = tu_malloc((size_t)n * 4);
    TU_OK(ctx, clsa_sa32(ctx, text, sa, n));
    assert_int_equal(clsa_sa32(NULL, text, ref, n), CLSA_OK);
    assert_memory_equal(sa, ref, (size_t)n * 4);
    free(text);
    free(sa);
    free(ref);
    clsa_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(bounds), cmocka_unit_test(sa_path_names),
                                       cmocka_unit_test(refused), cmocka_unit_test(set_tuning)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
