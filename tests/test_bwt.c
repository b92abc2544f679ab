/* BWT and inverse BWT on the device under test against libdivsufsort's
 * divbwt / inverse_bw_transform, plus round trips. */
#include "index_cases.h"
#include "runtime.h"

#include <divsufsort.h>

static clsa_context *ctx;

static void check_case(const idx_case *c, uint64_t seed)
{
    size_t n = idx_case_n(c);
    char name[96];
    idx_case_name(c, n, name, sizeof name);
    uint8_t *text = idx_case_text(c, n, seed);
    uint8_t *want = tu_malloc(n), *got = tu_malloc(n), *back = tu_malloc(n);
    int64_t wantp = divbwt(text, want, NULL, (saidx_t)n), gotp = -7;
    assert_true(wantp >= 0);
    if (idx_device_sa(n)) {
        TU_OK(ctx, clsa_bwt(ctx, text, got, (int64_t)n, &gotp));
        if (gotp != wantp)
            fail_msg("%s: primary %lld, divbwt %lld", name, (long long)gotp, (long long)wantp);
        if (memcmp(got, want, n)) fail_msg("%s: bwt differs from divbwt", name);
    }
    /* from a given suffix array, both widths */
    int32_t *sa = tu_malloc(n * 4);
    int64_t *sa64 = tu_malloc(n * 8);
    TU_OK(NULL, clsa_sa32(NULL, text, sa, (int64_t)n));
    for (size_t i = 0; i < n; i++) sa64[i] = sa[i];
    memset(got, 0x5A, n);
    TU_OK(ctx, clsa_bwt_from_sa32(ctx, text, sa, got, (int64_t)n, &gotp));
    if (gotp != wantp || memcmp(got, want, n)) fail_msg("%s: bwt_from_sa32 differs", name);
    memset(got, 0x5A, n);
    TU_OK(ctx, clsa_bwt_from_sa64(ctx, text, sa64, got, (int64_t)n, &gotp));
    if (gotp != wantp || memcmp(got, want, n)) fail_msg("%s: bwt_from_sa64 differs", name);
    /* inverse on the device */
    memset(back, 0x5A, n);
    TU_OK(ctx, clsa_unbwt(ctx, want, back, (int64_t)n, wantp));
    if (memcmp(back, text, n)) fail_msg("%s: unbwt does not give the text back", name);
    free(text);
    free(want);
    free(got);
    free(back);
    free(sa);
    free(sa64);
}

/* Lean mode (Oclgrind) skips the cases cut to 300 symbols whose kind one
 * before them had (random texts: over bytes or a smaller alphabet). */
static void bwt_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < IDX_NCASES; i++) {
        const idx_case *c = &idx_cases[i];
        int seen = 0;
        for (size_t j = 0; tu_lean() && j < i; j++)
            seen |= idx_cases[j].n >= 300 && idx_cases[j].kind == c->kind &&
                    (c->kind != GEN_RANDOM || (idx_cases[j].param == 256) == (c->param == 256));
        if (!seen || c->n < 300) check_case(c, 300 + i);
    }
}

/* Inverse of byte strings that are no BWT of anything (psi has several
 * cycles): any bytes, no crash, no out-of-bounds (Oclgrind checks); the
 * device refuses exactly those the host refuses, with the same message
 * (issue 46), and agrees on the text of those it accepts. */
static void unbwt_garbage(void **state)
{
    (void)state;
    tu_rng r = {77};
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_HOST;
    clsa_context *host = NULL;
    TU_OK(NULL, clsa_create(&o, &host));
    for (int k = 0; k < 8; k++) {
        size_t n = 1 + tu_below(&r, tu_small() ? 200 : 5000);
        uint8_t *b = tu_malloc(n), *t = tu_malloc(n), *h = tu_malloc(n);
        for (size_t i = 0; i < n; i++) b[i] = (uint8_t)tu_below(&r, k < 3 ? 2 : 256);
        if (k == 7) b[0] = b[n - 1] = 0; /* n = 1 or a two-cycle: still checked */
        int64_t p = 1 + tu_below(&r, (uint32_t)n);
        clsa_status sd = clsa_unbwt(ctx, b, t, (int64_t)n, p);
        clsa_status sh = clsa_unbwt(host, b, h, (int64_t)n, p);
        assert_int_equal(sd, sh);
        if (sh == CLSA_OK) assert_memory_equal(t, h, n);
        else {
            assert_int_equal(sh, CLSA_ERR_INVALID_ARG);
            assert_non_null(strstr(clsa_last_error(host), "not a valid BWT"));
            assert_string_equal(clsa_last_error(ctx), clsa_last_error(host));
        }
        free(b);
        free(t);
        free(h);
    }
    clsa_destroy(host);
}

static void edges(void **state)
{
    (void)state;
    uint8_t out[4] = {0}, back[4] = {0};
    int64_t p = -1;
    TU_OK(ctx, clsa_bwt(ctx, (const uint8_t *)"", out, 0, &p));
    assert_int_equal(p, 0);
    TU_OK(ctx, clsa_unbwt(ctx, out, back, 0, 0));
    out[0] = 0xff;
    if (idx_device_sa(1)) {
        TU_OK(ctx, clsa_bwt(ctx, (const uint8_t *)"\xff", out, 1, &p));
        assert_int_equal(p, 1);
        assert_int_equal(out[0], 0xff);
        TU_OK(ctx, clsa_bwt(ctx, (const uint8_t *)"banana", (uint8_t[6]){0}, 6, &p));
        assert_int_equal(p, 4);
    }
    TU_OK(ctx, clsa_unbwt(ctx, out, back, 1, 1));
    assert_int_equal(back[0], 0xff);
    /* primary out of range */
    assert_int_equal(clsa_unbwt(ctx, (const uint8_t *)"annbaa", back, 6, 0), CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(clsa_last_error(ctx), "out of range"));
    assert_int_equal(clsa_unbwt(ctx, (const uint8_t *)"annbaa", back, 6, 7), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_unbwt(ctx, (const uint8_t *)"annbaa", back, 6, -3), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_unbwt(ctx, out, back, 0, 1), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_bwt(ctx, (const uint8_t *)"ab", out, 2, NULL), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_bwt(ctx, NULL, out, 2, &p), CLSA_ERR_INVALID_ARG);
}

/* Device-resident forms on buffers of ctx's OpenCL context (clsa_bwt_mem
 * builds the suffix array on the device: not under Oclgrind). */
static void mem_forms(void **state)
{
    (void)state;
    size_t n = tu_size(4000, 200);
    uint8_t *text = tu_malloc(n), *want = tu_malloc(n), *got = tu_malloc(n);
    gen_fill(text, n, GEN_RANDOM, 4, 5);
    int64_t wantp = divbwt(text, want, NULL, (saidx_t)n), p = wantp;
    cl_int err;
    cl_mem dt = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n, text, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem db = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n, want, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem dback = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, n, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    if (idx_device_sa(n)) {
        p = -1;
        TU_OK(ctx, clsa_bwt_mem(ctx, dt, db, (int64_t)n, &p));
        assert_int_equal(p, wantp);
        assert_int_equal(clEnqueueReadBuffer(ctx->queue, db, CL_TRUE, 0, n, got, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_memory_equal(got, want, n);
    }
    TU_OK(ctx, clsa_unbwt_mem(ctx, db, dback, (int64_t)n, p));
    assert_int_equal(clEnqueueReadBuffer(ctx->queue, dback, CL_TRUE, 0, n, got, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(got, text, n);
    /* the input buffer is left as it was */
    assert_int_equal(clEnqueueReadBuffer(ctx->queue, db, CL_TRUE, 0, n, got, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(got, want, n);
    assert_int_equal(clsa_unbwt_mem(ctx, db, dback, (int64_t)n, (int64_t)n + 1), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_bwt_mem(ctx, dt, dt, (int64_t)n, &p), CLSA_ERR_INVALID_ARG);
    clReleaseMemObject(dt);
    clReleaseMemObject(db);
    clReleaseMemObject(dback);
    free(text);
    free(want);
    free(got);
}

/* BWT and ISA from text take the sorting's final ranks where it ends with
 * them (bwt_from_isa, no inversion) and the suffix array where it does not
 * (CLSA_TUNE sa_path=64 always): both against divbwt and divsufsort, and
 * the route checked by the kernels that ran (under Oclgrind the first two
 * kinds: one ends with ranks, one in the initial sort). */
static void from_ranks(void **state)
{
    (void)state;
    static const struct { gen_kind kind; unsigned param; } kinds[] = {
        {GEN_PERIODIC, 7}, {GEN_RANDOM, 4}, {GEN_RANDOM, 256}, {GEN_FIBONACCI, 0},
        {GEN_MUTATED, 300}, {GEN_ALL_EQUAL, 0}, {GEN_THUE_MORSE, 0},
    };
    size_t n = tu_size(20000, 200), nkinds = tu_small() ? 2 : sizeof kinds / sizeof *kinds;
    for (int plain = 0; plain < 2; plain++) {
        if (plain) setenv("CLSA_TUNE", "sa_path=64", 1);
        clsa_context *c = tu_context_opts(1);
        if (plain) unsetenv("CLSA_TUNE");
        for (size_t k = 0; k < nkinds; k++) {
            uint8_t *t = tu_malloc(n), *want = tu_malloc(n), *got = tu_malloc(n);
            int32_t *sa = tu_malloc(n * 4), *isa = tu_malloc(n * 4);
            gen_fill(t, n, kinds[k].kind, kinds[k].param, 40 + k);
            int64_t wantp = divbwt(t, want, NULL, (saidx_t)n), p = -1;
            assert_int_equal(divsufsort(t, sa, (saidx_t)n), 0);
            clsa_reset_stats(c);
            TU_OK(c, clsa_bwt(c, t, got, (int64_t)n, &p));
            if (p != wantp || memcmp(got, want, n))
                fail_msg("%s:%u n=%zu%s: bwt differs from divbwt", gen_name(kinds[k].kind),
                         kinds[k].param, n, plain ? " (sa_path=64)" : "");
            /* a periodic text always ends its doubling with ranks */
            if (kinds[k].kind == GEN_PERIODIC && tu_kernel_ran(c, "bwt_from_isa") == plain)
                fail_msg("periodic%s: bwt_from_isa %s", plain ? " (sa_path=64)" : "",
                         plain ? "ran" : "did not run");
            memset(isa, 0x5A, n * 4);
            TU_OK(c, clsa_isa32(c, t, isa, (int64_t)n));
            for (size_t i = 0; i < n; i++)
                if (isa[sa[i]] != (int32_t)i)
                    fail_msg("%s n=%zu%s: isa[%d] = %d, want %zu", gen_name(kinds[k].kind), n,
                             plain ? " (sa_path=64)" : "", sa[i], isa[sa[i]], i);
            free(t);
            free(want);
            free(got);
            free(sa);
            free(isa);
        }
        clsa_destroy(c);
    }
}

/* Host backend (context forced to host, and no context) gives the same. */
static void host_backend(void **state)
{
    (void)state;
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_HOST;
    clsa_context *h = NULL;
    TU_OK(NULL, clsa_create(&o, &h));
    size_t lens[] = {0, 1, 2, 1000};
    for (size_t k = 0; k < 4; k++) {
        size_t n = lens[k];
        uint8_t *t = tu_malloc(n), *want = tu_malloc(n), *got = tu_malloc(n), *back = tu_malloc(n);
        gen_fill(t, n, GEN_RANDOM, 3, k);
        int64_t wantp = divbwt(t, want, NULL, (saidx_t)n), p = -1;
        for (int use_null = 0; use_null < 2; use_null++) {
            clsa_context *c = use_null ? NULL : h;
            TU_OK(c, clsa_bwt(c, t, got, (int64_t)n, &p));
            assert_int_equal(p, wantp);
            assert_memory_equal(got, want, n);
            memset(back, 0, n);
            TU_OK(c, clsa_unbwt(c, got, back, (int64_t)n, p));
            assert_memory_equal(back, t, n);
        }
        free(t);
        free(want);
        free(got);
        free(back);
    }
    assert_int_equal(clsa_unbwt(h, (const uint8_t *)"ab", (uint8_t[2]){0}, 2, 3), CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(clsa_last_error(h), "1..2"));
    clsa_destroy(h);
}

int main(void)
{
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bwt_cases), cmocka_unit_test(unbwt_garbage), cmocka_unit_test(edges),
        cmocka_unit_test(mem_forms), cmocka_unit_test(host_backend), cmocka_unit_test(from_ranks),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
