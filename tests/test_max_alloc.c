/* Every host-pointer operation under a largest allocation smaller than its
 * n-entry arrays (CLSA_TUNE max_alloc, standing for a GPU's
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE, issue 44): the suffix array goes out of
 * core (clsa_sa_plan says why), the BWT, LCP and ISA take that suffix
 * array and finish on the host; every result byte-identical to the host
 * backend's.  The generalized suffix array, the FM-index and the FM-index
 * of a set (device only) are compared with the uncapped context's: the
 * same array, the same saved index files.  The device-resident (_mem)
 * forms on buffers larger than the cap go through host memory. */
#include "testutil.h"
#include "gen.h"
#include "clsa_fm.h"
#include "clsa_index.h"
#include "runtime.h"

#include <unistd.h>

/* The operation's result on ctx (got) against the host backend's (want). */
#define SAME(ctx, want_call, got_call, bytes)            \
    do {                                                 \
        assert_int_equal(want_call, CLSA_OK);            \
        TU_OK(ctx, got_call);                            \
        assert_memory_equal(got, want, bytes);           \
    } while (0)

static void check_all(clsa_context *ctx, const uint8_t *text, size_t n)
{
    void *got = tu_malloc(n * 8), *want = tu_malloc(n * 8);
    int64_t p_got = -1, p_want = -2, k = (int64_t)n;
    SAME(ctx, clsa_sa32(NULL, text, want, k), clsa_sa32(ctx, text, got, k), n * 4);
    SAME(ctx, clsa_bwt(NULL, text, want, k, &p_want), clsa_bwt(ctx, text, got, k, &p_got), n);
    assert_int_equal(p_got, p_want);
    SAME(ctx, clsa_lcp32(NULL, text, want, k), clsa_lcp32(ctx, text, got, k), n * 4);
    if (!tu_small()) { /* Oclgrind: an out-of-core run takes a minute there */
        SAME(ctx, clsa_sa64(NULL, text, want, k), clsa_sa64(ctx, text, got, k), n * 8);
        SAME(ctx, clsa_lcp64(NULL, text, want, k), clsa_lcp64(ctx, text, got, k), n * 8);
        SAME(ctx, clsa_isa32(NULL, text, want, k), clsa_isa32(ctx, text, got, k), n * 4);
        SAME(ctx, clsa_isa64(NULL, text, want, k), clsa_isa64(ctx, text, got, k), n * 8);
    }
    free(got);
    free(want);
}

static uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    uint8_t *d = tu_malloc(*n + 1);
    assert_int_equal(fread(d, 1, *n, f), *n);
    fclose(f);
    remove(path);
    return d;
}

/* The files fm (or set) saves on ctx and on ref are the same bytes. */
static void same_files(clsa_fm *a, clsa_fm *b, clsa_fm_set *sa, clsa_fm_set *sb)
{
    char pa[256], pb[256];
    const char *dir = getenv("TMPDIR");
    snprintf(pa, sizeof pa, "%s/clsa-max-alloc-%d-a", dir && *dir ? dir : "/tmp", (int)getpid());
    snprintf(pb, sizeof pb, "%s/clsa-max-alloc-%d-b", dir && *dir ? dir : "/tmp", (int)getpid());
    assert_int_equal(a ? clsa_fm_save(a, pa) : clsa_fm_set_save(sa, pa), CLSA_OK);
    assert_int_equal(b ? clsa_fm_save(b, pb) : clsa_fm_set_save(sb, pb), CLSA_OK);
    size_t na, nb;
    uint8_t *da = read_all(pa, &na), *db = read_all(pb, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(da, db, na);
    free(da);
    free(db);
}

/* The device-only operations on ctx (capped) against ref (uncapped). */
static void check_device_only(clsa_context *ctx, clsa_context *ref, const uint8_t *text, size_t n)
{
    int64_t len[3] = {(int64_t)n / 3, 0, (int64_t)(n - n / 3)}, k = 3;
    size_t m = n + (size_t)k;
    int32_t *got = tu_malloc(m * 4), *want = tu_malloc(m * 4);
    int32_t *dgot = tu_malloc(m * 4), *dwant = tu_malloc(m * 4);
    TU_OK(ref, clsa_gsa32(ref, text, len, k, want, dwant));
    TU_OK(ctx, clsa_gsa32(ctx, text, len, k, got, dgot));
    assert_memory_equal(got, want, m * 4);
    assert_memory_equal(dgot, dwant, m * 4);
    int64_t *lw = tu_malloc(m * 8), *lg = tu_malloc(m * 8), w[3], g[3];
    assert_int_equal(clsa_gsa_lcp32(NULL, text, len, k, want, (int32_t *)lw), CLSA_OK);
    TU_OK(ctx, clsa_gsa_lcp32(ctx, text, len, k, want, (int32_t *)lg));
    assert_memory_equal(lg, lw, m * 4);
    assert_int_equal(clsa_lcs(NULL, text, len[0], text + len[0], len[2], &w[0], &w[1], &w[2]),
                     CLSA_OK);
    TU_OK(ctx, clsa_lcs(ctx, text, len[0], text + len[0], len[2], &g[0], &g[1], &g[2]));
    assert_memory_equal(g, w, sizeof w);
    assert_int_equal(clsa_lcs_k(NULL, text, len, k, 2, &w[0], lw), CLSA_OK);
    TU_OK(ctx, clsa_lcs_k(ctx, text, len, k, 2, &g[0], lg));
    assert_int_equal(g[0], w[0]);
    assert_memory_equal(lg, lw, (size_t)k * 8);
    free(lw), free(lg);
    /* 16-bit symbols: n of them, from pairs of bytes */
    uint16_t *w16 = tu_malloc(n * 2);
    for (size_t i = 0; i < n; i++) w16[i] = (uint16_t)(text[i] | text[(i * 7) % n] << 8);
    int64_t h = (int64_t)n, q1 = -1, q2 = -2;
    assert_int_equal(clsa_sa32_u16(NULL, w16, want, h), CLSA_OK);
    TU_OK(ctx, clsa_sa32_u16(ctx, w16, got, h));
    assert_memory_equal(got, want, (size_t)h * 4);
    assert_int_equal(clsa_bwt_u16(NULL, w16, (uint16_t *)want, h, &q1), CLSA_OK);
    TU_OK(ctx, clsa_bwt_u16(ctx, w16, (uint16_t *)got, h, &q2));
    assert_memory_equal(got, want, (size_t)h * 2);
    assert_int_equal(q1, q2);
    free(w16);
    clsa_context *two[2] = {ctx, ctx};
    assert_int_equal(clsa_sa32(NULL, text, want, (int64_t)n), CLSA_OK);
    TU_OK(ctx, clsa_sa32_multi(two, 2, text, got, (int64_t)n));
    assert_memory_equal(got, want, n * 4);
    int64_t pg[3], pw[3];
    assert_int_equal(clsa_sa32_batch(NULL, text, len, k, want), CLSA_OK);
    TU_OK(ctx, clsa_sa32_batch(ctx, text, len, k, got));
    assert_memory_equal(got, want, n * 4);
    assert_int_equal(clsa_bwt_batch(NULL, text, len, k, (uint8_t *)want, pw), CLSA_OK);
    TU_OK(ctx, clsa_bwt_batch(ctx, text, len, k, (uint8_t *)got, pg));
    assert_memory_equal(got, want, n);
    assert_memory_equal(pg, pw, sizeof pw);
    clsa_fm *fa = NULL, *fb = NULL;
    TU_OK(ctx, clsa_fm_create(ctx, text, (int64_t)n, 8, &fa));
    TU_OK(ref, clsa_fm_create(ref, text, (int64_t)n, 8, &fb));
    same_files(fa, fb, NULL, NULL);
    clsa_fm_free(fa);
    clsa_fm_free(fb);
    clsa_fm_set *sa = NULL, *sb = NULL;
    TU_OK(ctx, clsa_fm_set_create(ctx, text, len, k, 8, &sa));
    TU_OK(ref, clsa_fm_set_create(ref, text, len, k, 8, &sb));
    same_files(NULL, NULL, sa, sb);
    clsa_fm_set_free(sa);
    clsa_fm_set_free(sb);
    free(got), free(want), free(dgot), free(dwant);
}

static cl_mem buffer_of(clsa_context *ctx, const void *host, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0),
                              bytes, (void *)(uintptr_t)host, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

static void read_back(clsa_context *ctx, cl_mem m, void *dst, size_t bytes)
{
    assert_int_equal(clEnqueueReadBuffer(ctx->queue, m, CL_TRUE, 0, bytes, dst, 0, NULL, NULL),
                     CL_SUCCESS);
}

/* The _mem forms against the host backend's arrays (Oclgrind: those that
 * build no suffix array, which the other calls check there). */
static void check_mem_forms(clsa_context *ctx, const uint8_t *text, size_t n)
{
    int64_t k = (int64_t)n, p = -1, pw = -2;
    int32_t *sa = tu_malloc(n * 4), *want = tu_malloc(n * 4), *got = tu_malloc(n * 4);
    uint8_t *bwt = tu_malloc(n), *back = tu_malloc(n);
    assert_int_equal(clsa_sa32(NULL, text, sa, k), CLSA_OK);
    assert_int_equal(clsa_bwt(NULL, text, bwt, k, &pw), CLSA_OK);
    cl_mem dt = buffer_of(ctx, text, n), dsa = buffer_of(ctx, sa, n * 4);
    cl_mem dout = buffer_of(ctx, NULL, n * 4), db = buffer_of(ctx, bwt, n);
    if (!tu_small()) {
        TU_OK(ctx, clsa_sa32_mem(ctx, dt, dout, k));
        read_back(ctx, dout, got, n * 4);
        assert_memory_equal(got, sa, n * 4);
        int64_t one[1] = {k};
        TU_OK(ctx, clsa_sa32_batch_mem(ctx, dt, one, 1, dout));
        read_back(ctx, dout, got, n * 4);
        assert_memory_equal(got, sa, n * 4);
        TU_OK(ctx, clsa_bwt_mem(ctx, dt, db, k, &p));
        assert_int_equal(p, pw);
        read_back(ctx, db, back, n);
        assert_memory_equal(back, bwt, n);
        p = -1;
        TU_OK(ctx, clsa_bwt_batch_mem(ctx, dt, one, 1, db, &p));
        assert_int_equal(p, pw);
        read_back(ctx, db, back, n);
        assert_memory_equal(back, bwt, n);
    }
    TU_OK(ctx, clsa_unbwt(ctx, bwt, back, k, pw));
    assert_memory_equal(back, text, n);
    TU_OK(ctx, clsa_unbwt_mem(ctx, db, dout, k, pw));
    read_back(ctx, dout, back, n);
    assert_memory_equal(back, text, n);
    assert_int_equal(clsa_lcp_from_sa32(NULL, text, sa, want, k), CLSA_OK);
    TU_OK(ctx, clsa_lcp32_mem(ctx, dt, dsa, dout, k));
    read_back(ctx, dout, got, n * 4);
    assert_memory_equal(got, want, n * 4);
    assert_int_equal(clsa_isa_from_sa32(NULL, sa, want, k), CLSA_OK);
    TU_OK(ctx, clsa_isa32_mem(ctx, dsa, dout, k));
    read_back(ctx, dout, got, n * 4);
    assert_memory_equal(got, want, n * 4);
    clReleaseMemObject(dt), clReleaseMemObject(dsa), clReleaseMemObject(dout);
    clReleaseMemObject(db);
    free(sa), free(want), free(got), free(bwt), free(back);
}

static void small_largest_allocation(void **state)
{
    (void)state;
    size_t n = tu_size(30000, 300);
    char tune[64];
    snprintf(tune, sizeof tune, "max_alloc=%zu", n * 2); /* the text fits, no SA does */
    clsa_context *ctx = tu_context_tuned(tune, 0);
    clsa_sa_plan_info plan;
    TU_OK(ctx, clsa_sa_plan(ctx, (int64_t)n, 1, 0, &plan));
    assert_int_equal(plan.route, CLSA_ROUTE_DEVICE_OOC);
    assert_int_equal(plan.why, CLSA_WHY_MAX_ALLOC);
    assert_int_equal(plan.max_alloc_bytes, n * 2);
    uint8_t *text = tu_malloc(n);
    gen_fill(text, n, GEN_RANDOM, 4, 11);
    check_all(ctx, text, n);
    if (!tu_small()) { /* Oclgrind: the uncapped context's builds would take minutes */
        clsa_context *ref = tu_context();
        check_device_only(ctx, ref, text, n);
        clsa_destroy(ref);
    }
    check_mem_forms(ctx, text, n);
    gen_fill(text, n, GEN_MUTATED, 97, 5); /* long repeats: many passes */
    if (!tu_small()) check_all(ctx, text, n);
    free(text);
    clsa_destroy(ctx);
}

/* The same context without the cap plans in memory. */
static void plan_in_memory(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context();
    clsa_sa_plan_info plan;
    TU_OK(ctx, clsa_sa_plan(ctx, 30000, 1, 0, &plan));
    assert_int_equal(plan.route, CLSA_ROUTE_DEVICE);
    assert_int_equal(plan.why, CLSA_WHY_FITS);
    assert_true(plan.max_alloc_bytes > 0);
    clsa_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_largest_allocation),
        cmocka_unit_test(plan_in_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
