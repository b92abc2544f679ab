/* The small-input suffix array (host/sa/small.c) against libdivsufsort:
 * SA 32/64-bit and the BWT (its ranks route) on generated inputs, with
 * the path forced from 2 bytes on (small_min=2) and also with a tiny
 * window (small_cap), so that tiles, long groups (one work-group's merge
 * sort) and the fallback to the general path all run on small inputs. */
#include "testutil.h"
#include "gen.h"
#include "runtime.h"

static clsa_context *ctx;

static void check_sa(const uint8_t *t, size_t n, int index64, const char *what)
{
    size_t w = index64 ? 8 : 4;
    void *dev = tu_malloc(n * w), *ref = tu_malloc(n * w);
    if (index64) {
        TU_OK(ctx, clsa_sa64(ctx, t, dev, (int64_t)n));
        assert_int_equal(clsa_sa64(NULL, t, ref, (int64_t)n), CLSA_OK);
    } else {
        TU_OK(ctx, clsa_sa32(ctx, t, dev, (int64_t)n));
        assert_int_equal(clsa_sa32(NULL, t, ref, (int64_t)n), CLSA_OK);
    }
    if (memcmp(dev, ref, n * w) != 0) {
        size_t i = 0;
        while (i < n && !memcmp((char *)dev + i * w, (char *)ref + i * w, w)) i++;
        fail_msg("%s (n=%zu, %d-bit): first difference at SA[%zu]", what, n, index64 ? 64 : 32,
                 i);
    }
    free(dev);
    free(ref);
}

/* clsa_bwt and clsa_bwt_mem against the host backend's divbwt. */
static void check_bwt(const uint8_t *t, size_t n, const char *what)
{
    uint8_t *dev = tu_malloc(n), *ref = tu_malloc(n);
    int64_t pd = -1, pr = -2;
    TU_OK(ctx, clsa_bwt(ctx, t, dev, (int64_t)n, &pd));
    assert_int_equal(clsa_bwt(NULL, t, ref, (int64_t)n, &pr), CLSA_OK);
    if (pd != pr || memcmp(dev, ref, n)) fail_msg("%s (n=%zu): BWT differs", what, n);
    cl_int err;
    cl_mem dt =
        clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n, (void *)t, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem db = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, n, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    TU_OK(ctx, clsa_bwt_mem(ctx, dt, db, (int64_t)n, &pd));
    assert_int_equal(clEnqueueReadBuffer(ctx->queue, db, CL_TRUE, 0, n, dev, 0, NULL, NULL),
                     CL_SUCCESS);
    if (pd != pr || memcmp(dev, ref, n))
        fail_msg("%s (n=%zu): BWT (device buffers) differs", what, n);
    clReleaseMemObject(dt);
    clReleaseMemObject(db);
    free(dev);
    free(ref);
}

typedef struct shape {
    const char *name;
    gen_kind kind;
    unsigned param;
} shape;

static const shape shapes[] = {
    {"words", GEN_KIND_COUNT, 0},      {"random:2", GEN_RANDOM, 2},
    {"random:4", GEN_RANDOM, 4},       {"periodic:3", GEN_PERIODIC, 3},
    {"random:256", GEN_RANDOM, 256},   {"fibonacci", GEN_FIBONACCI, 0},
    {"equal", GEN_ALL_EQUAL, 0},       {"thue-morse", GEN_THUE_MORSE, 0},
    {"mutated:500", GEN_MUTATED, 500}, {"random:20", GEN_RANDOM, 20},
    {"periodic:37", GEN_PERIODIC, 37},
};

static void fill(uint8_t *t, size_t n, const shape *s, uint64_t seed)
{
    if (s->kind == GEN_KIND_COUNT) gen_words(t, n, 300, seed);
    else gen_fill(t, n, s->kind, s->param, seed);
}

/* Every shape at lengths from 2 bytes up to max, 32- and 64-bit and BWT. */
static void run_shapes(size_t max, int rounds)
{
    tu_rng r = {20261129};
    size_t step = tu_small() ? 5 : 1; /* Oclgrind: words, fibonacci, periodic:37 */
    for (int k = 0; k < rounds; k++)
        for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i += step) {
            size_t n = 2 + tu_below(&r, (uint32_t)(k % 3 ? max / 8 : max));
            uint8_t *t = tu_malloc(n);
            fill(t, n, &shapes[i], 100 + (uint64_t)k);
            char what[96];
            snprintf(what, sizeof what, "%s seed %d", shapes[i].name, 100 + k);
            check_sa(t, n, (k + (int)i) % 4 == 3, what);
            if ((k + (int)i) % 3 == 0) check_bwt(t, n, what);
            free(t);
        }
}

/* run_shapes on a context made under tune, where the path must run. */
static void run_tuned(const char *tune, size_t max, int rounds)
{
    ctx = tu_context_tuned(tune, 1);
    run_shapes(max, tu_small() ? 1 : rounds);
    assert_true(tu_kernel_ran(ctx, "sm_pass"));
    clsa_destroy(ctx);
}

/* The machine's own window (up to 4096 keys, tiles of 2048). */
static void full_window(void **state)
{
    (void)state;
    run_tuned("small_min=2,small_long=100000", tu_size(60000, 300), 2);
}

/* A window of 16 keys: many tiles, groups longer than a tile sorted by
 * one work-group in chunks and merges, and the fallback (small_long). */
static void tiny_window(void **state)
{
    (void)state;
    run_tuned("small_min=2,small_cap=16,small_long=400,small_check=1", tu_size(4000, 150), 3);
}

/* Word text with the default bounds: the path taken, without falling
 * back to the general one. */
static void default_bounds(void **state)
{
    (void)state;
    if (tu_small()) skip();
    ctx = tu_context_opts(1);
    size_t n = 300000;
    uint8_t *t = tu_malloc(n);
    gen_words(t, n, 0, 7);
    check_sa(t, n, 0, "words");
    assert_true(tu_kernel_ran(ctx, "sm_pass"));
    assert_false(tu_kernel_ran(ctx, "pd_key_lo"));
    free(t);
    clsa_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(full_window),
        cmocka_unit_test(tiny_window),
        cmocka_unit_test(default_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
