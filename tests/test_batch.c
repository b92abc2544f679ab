/* Batched suffix arrays and BWTs (clsa_sa32_batch ... clsa_bwt_batch_mem)
 * against libdivsufsort text by text (divsufsort, divbwt and its primary
 * index), on generated batches with fixed seeds: thousands of small random
 * batches (0 to hundreds of texts, empty ones included) of random bytes
 * over 2, 4, 26 and 256 values (256: no free separator byte, the 32-bit
 * route), one repeated byte, periodic texts, and a few large batches (up to
 * 10,000 texts, texts up to 1 MB); the integer widths against a naive
 * sort; a memory limit that forces parts and a text built alone; the host
 * backend; progress and cancellation; bad arguments. */
#include "testutil.h"
#include "runtime.h"

#include <divsufsort.h>

static clsa_context *ctx;

/* rusticl on llvmpipe pays several times PoCL's cost a launch: fewer rounds. */
static int slow_impl(void)
{
    const char *d = getenv("CLSA_DEVICE");
    return d && strstr(d, "rusticl");
}

static int rounds_for(int pocl, int rusticl, int oclgrind)
{
    return tu_small() ? oclgrind : slow_impl() ? rusticl : pocl;
}

typedef struct batch {
    int64_t k, total;
    int64_t *len, *off;
    uint8_t *text;
} batch;

/* One text's bytes in one of several shapes. */
static void fill_text(tu_rng *r, uint8_t *t, int64_t n, int shape)
{
    uint8_t period[7];
    int pl = 1 + (int)tu_below(r, 7);
    for (int i = 0; i < pl; i++) period[i] = (uint8_t)('a' + tu_below(r, 3));
    for (int64_t i = 0; i < n; i++) {
        switch (shape) {
        case 0: t[i] = (uint8_t)tu_below(r, 2); break;               /* binary */
        case 1: t[i] = (uint8_t)"ACGT"[tu_below(r, 4)]; break;        /* DNA */
        case 2: t[i] = (uint8_t)('a' + tu_below(r, 26)); break;       /* letters */
        case 3: t[i] = (uint8_t)tu_next(r); break;                    /* any byte */
        case 4: t[i] = 'z'; break;                                    /* all equal */
        default: t[i] = period[i % pl]; break;                        /* periodic */
        }
    }
}

static int64_t draw_len(tu_rng *r, int64_t max)
{
    switch (tu_below(r, 5)) {
    case 0: return 0;
    case 1: return tu_below(r, 4);
    case 2: return tu_below(r, 40);
    default: return (int64_t)tu_below(r, (uint32_t)max + 1);
    }
}

/* k texts; one shape for the batch (shape < 0: one per text). */
static batch make(tu_rng *r, int64_t k, int64_t max_len, int shape)
{
    batch b = {k, 0, tu_malloc((size_t)(k + 1) * 8), tu_malloc((size_t)(k + 1) * 8), NULL};
    b.off[0] = 0;
    for (int64_t i = 0; i < k; i++) {
        b.len[i] = draw_len(r, max_len);
        b.off[i + 1] = b.off[i] + b.len[i];
    }
    b.total = b.off[k];
    b.text = tu_malloc((size_t)b.total);
    for (int64_t i = 0; i < k; i++)
        fill_text(r, b.text + b.off[i], b.len[i], shape >= 0 ? shape : (int)tu_below(r, 6));
    return b;
}

/* Text i made empty (its bytes taken out, the later offsets moved). */
static void empty_text(batch *b, int64_t i)
{
    int64_t n = b->len[i];
    memmove(b->text + b->off[i], b->text + b->off[i + 1], (size_t)(b->total - b->off[i + 1]));
    b->len[i] = 0;
    for (int64_t j = i + 1; j <= b->k; j++) b->off[j] -= n;
    b->total -= n;
}

static void drop(batch *b)
{
    free(b->len);
    free(b->off);
    free(b->text);
}

/* sa32 (and sa64 when not NULL) hold every text's own suffix array. */
static void check_sa(const batch *b, const int32_t *sa32, const int64_t *sa64)
{
    int32_t *ref = tu_malloc((size_t)b->total * 4);
    for (int64_t i = 0; i < b->k; i++) {
        int64_t o = b->off[i], n = b->len[i];
        if (n == 0) continue;
        assert_int_equal(divsufsort(b->text + o, ref, (saidx_t)n), 0);
        for (int64_t j = 0; j < n; j++) {
            if (sa32 && sa32[o + j] != ref[j])
                fail_msg("text %lld of %lld (n=%lld): sa[%lld] = %d, want %d", (long long)i,
                         (long long)b->k, (long long)n, (long long)j, sa32[o + j], ref[j]);
            if (sa64 && sa64[o + j] != ref[j])
                fail_msg("text %lld (n=%lld): sa64[%lld] = %lld, want %d", (long long)i,
                         (long long)n, (long long)j, (long long)sa64[o + j], ref[j]);
        }
    }
    free(ref);
}

static void check_bwt(const batch *b, const uint8_t *bwt, const int64_t *prim)
{
    uint8_t *ref = tu_malloc((size_t)b->total);
    for (int64_t i = 0; i < b->k; i++) {
        int64_t o = b->off[i], n = b->len[i];
        if (n == 0) {
            assert_int_equal(prim[i], 0);
            continue;
        }
        saidx_t p = divbwt(b->text + o, ref, NULL, (saidx_t)n);
        if (prim[i] != p)
            fail_msg("text %lld (n=%lld): primary %lld, want %d", (long long)i, (long long)n,
                     (long long)prim[i], (int)p);
        if (memcmp(ref, bwt + o, (size_t)n))
            fail_msg("text %lld (n=%lld): BWT differs", (long long)i, (long long)n);
    }
    free(ref);
}

/* The SA (32-bit, and 64-bit when wide) and the BWT of b on c. */
static void run_all(clsa_context *c, const batch *b, int wide)
{
    int32_t *sa = tu_malloc((size_t)b->total * 4);
    uint8_t *bwt = tu_malloc((size_t)b->total);
    int64_t *prim = tu_malloc((size_t)b->k * 8);
    TU_OK(c, clsa_sa32_batch(c, b->text, b->len, b->k, sa));
    check_sa(b, sa, NULL);
    if (wide) {
        int64_t *sa64 = tu_malloc((size_t)b->total * 8);
        TU_OK(c, clsa_sa64_batch(c, b->text, b->len, b->k, sa64));
        check_sa(b, NULL, sa64);
        free(sa64);
    }
    TU_OK(c, clsa_bwt_batch(c, b->text, b->len, b->k, bwt, prim));
    check_bwt(b, bwt, prim);
    free(sa);
    free(bwt);
    free(prim);
}

/* Many small batches of every shape, empty texts and batches included:
 * thousands of tiny ones, a hundred of up to 300 texts. */
static void random_batches(void **state)
{
    (void)state;
    tu_rng r = {48};
    int rounds = rounds_for(1200, 150, 8), wide = rounds_for(60, 8, 1);
    for (int t = 0; t < rounds + wide; t++) {
        int64_t k = t < rounds ? tu_below(&r, tu_small() ? 7 : 13) : tu_below(&r, tu_small() ? 40 : 300);
        int shape = tu_below(&r, 2) ? -1 : (int)tu_below(&r, 6);
        batch b = make(&r, k, t < rounds ? (tu_small() ? 16 : 64) : tu_small() ? 8 : 100, shape);
        run_all(ctx, &b, t % 8 == 0);
        drop(&b);
    }
}

/* Larger batches: 10,000 texts, and texts up to 1 MB. */
static void large_batches(void **state)
{
    (void)state;
    if (tu_small()) skip();
    tu_rng r = {4801};
    batch many = make(&r, 10000, 100, -1);
    run_all(ctx, &many, 0);
    drop(&many);
    int shapes[] = {2, 5, 3, 0};
    int64_t max[] = {1000000, 300000, 100000, 100000};
    for (int s = slow_impl() ? 2 : 0; s < 4; s++) {
        batch big = make(&r, 4, max[s], shapes[s]);
        empty_text(&big, 0); /* for the offsets */
        run_all(ctx, &big, s == 0);
        drop(&big);
    }
}

static cl_mem dev_buf(size_t bytes, const void *init)
{
    cl_int e;
    cl_mem m = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0),
                              bytes ? bytes : 1, init && bytes ? (void *)init : NULL, &e);
    assert_int_equal(e, CL_SUCCESS);
    return m;
}

static void dev_read(cl_mem m, void *dst, size_t bytes)
{
    if (bytes)
        assert_int_equal(clEnqueueReadBuffer(ctx->queue, m, CL_TRUE, 0, bytes, dst, 0, NULL, NULL),
                         CL_SUCCESS);
}

/* Device-resident input and output: 32- and 64-bit SAs and the BWT. */
static void mem_buffers(void **state)
{
    (void)state;
    tu_rng r = {4802};
    for (int t = 0; t < rounds_for(30, 6, 1); t++) {
        batch b = make(&r, 1 + tu_below(&r, tu_small() ? 6 : 40), tu_small() ? 16 : 200, t % 7 == 0 ? 3 : -1);
        size_t m = (size_t)b.total;
        int32_t *sa = tu_malloc(m * 4);
        int64_t *sa64 = tu_malloc(m * 8), *prim = tu_malloc((size_t)b.k * 8);
        uint8_t *bwt = tu_malloc(m);
        cl_mem dt = dev_buf(m, b.text), ds = dev_buf(m * 8, NULL), db = dev_buf(m, NULL);
        TU_OK(ctx, clsa_sa32_batch_mem(ctx, dt, b.len, b.k, ds));
        dev_read(ds, sa, m * 4);
        check_sa(&b, sa, NULL);
        TU_OK(ctx, clsa_sa64_batch_mem(ctx, dt, b.len, b.k, ds));
        dev_read(ds, sa64, m * 8);
        check_sa(&b, NULL, sa64);
        TU_OK(ctx, clsa_bwt_batch_mem(ctx, dt, b.len, b.k, db, prim));
        dev_read(db, bwt, m);
        check_bwt(&b, bwt, prim);
        if (m) assert_int_equal(clsa_bwt_batch_mem(ctx, dt, b.len, b.k, dt, prim),
                                CLSA_ERR_INVALID_ARG);
        clReleaseMemObject(dt);
        clReleaseMemObject(ds);
        clReleaseMemObject(db);
        free(sa);
        free(sa64);
        free(bwt);
        free(prim);
        drop(&b);
    }
}

/* ---- integer alphabets, against a naive sort ---- */
static const void *cmp_text;
static int cmp_sym;
static int64_t cmp_n;

static uint64_t sym_at(const void *t, int sym, int64_t i)
{
    return sym == 2 ? ((const uint16_t *)t)[i]
           : sym == 4 ? ((const uint32_t *)t)[i] : ((const uint64_t *)t)[i];
}

static int cmp_suffix(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    for (; a < cmp_n && b < cmp_n; a++, b++) {
        uint64_t ca = sym_at(cmp_text, cmp_sym, a), cb = sym_at(cmp_text, cmp_sym, b);
        if (ca != cb) return ca < cb ? -1 : 1;
    }
    return a == cmp_n ? (b == cmp_n ? 0 : -1) : 1;
}

/* The naive SA of one text and its BWT (divbwt convention) into ref/rbwt. */
static int64_t naive(const void *t, int sym, int64_t n, int64_t *ref, uint8_t *rbwt)
{
    cmp_text = t;
    cmp_sym = sym;
    cmp_n = n;
    for (int64_t i = 0; i < n; i++) ref[i] = i;
    qsort(ref, (size_t)n, 8, cmp_suffix);
    int64_t k = 1, p = 0;
    memcpy(rbwt, (const uint8_t *)t + (n - 1) * sym, (size_t)sym);
    for (int64_t i = 0; i < n; i++) {
        if (ref[i] == 0) p = i + 1;
        else memcpy(rbwt + k++ * sym, (const uint8_t *)t + (ref[i] - 1) * sym, (size_t)sym);
    }
    return p;
}

static uint64_t int_sym(tu_rng *r, int sym, int shape)
{
    uint64_t max = sym == 2 ? 0xffff : sym == 4 ? 0xffffffffu : UINT64_MAX;
    return shape == 0 ? tu_below(r, 3) : shape == 1 ? max - tu_below(r, 2) : tu_next(r) & max;
}

static void int_case(clsa_context *c, tu_rng *r, int sym)
{
    batch b = make(r, tu_below(r, tu_small() ? 6 : 30), tu_small() ? 12 : 80, 4);
    void *t = tu_malloc((size_t)b.total * (size_t)sym), *bwt = tu_malloc((size_t)b.total * 8);
    int shape = (int)tu_below(r, 3);
    for (int64_t i = 0; i < b.total; i++) {
        uint64_t v = int_sym(r, sym, shape);
        memcpy((uint8_t *)t + i * sym, &v, (size_t)sym); /* little-endian host */
    }
    int32_t *sa = tu_malloc((size_t)b.total * 4);
    int64_t *sa64 = tu_malloc((size_t)b.total * 8), *ref = tu_malloc((size_t)b.total * 8);
    int64_t *prim = tu_malloc((size_t)b.k * 8);
    uint8_t *rbwt = tu_malloc((size_t)b.total * 8);
    clsa_status s32 = sym == 2 ? clsa_sa32_batch_u16(c, t, b.len, b.k, sa)
                      : sym == 4 ? clsa_sa32_batch_u32(c, t, b.len, b.k, sa)
                                 : clsa_sa32_batch_u64(c, t, b.len, b.k, sa);
    TU_OK(c, s32);
    TU_OK(c, sym == 2 ? clsa_sa64_batch_u16(c, t, b.len, b.k, sa64)
             : sym == 4 ? clsa_sa64_batch_u32(c, t, b.len, b.k, sa64)
                        : clsa_sa64_batch_u64(c, t, b.len, b.k, sa64));
    TU_OK(c, sym == 2 ? clsa_bwt_batch_u16(c, t, b.len, b.k, bwt, prim)
             : sym == 4 ? clsa_bwt_batch_u32(c, t, b.len, b.k, bwt, prim)
                        : clsa_bwt_batch_u64(c, t, b.len, b.k, bwt, prim));
    for (int64_t i = 0; i < b.k; i++) {
        int64_t o = b.off[i], n = b.len[i];
        if (n == 0) continue;
        int64_t p = naive((uint8_t *)t + o * sym, sym, n, ref, rbwt);
        for (int64_t j = 0; j < n; j++)
            if (sa[o + j] != ref[j] || sa64[o + j] != ref[j])
                fail_msg("u%d text %lld (n=%lld): sa[%lld] = %d / %lld, want %lld", 8 * sym,
                         (long long)i, (long long)n, (long long)j, sa[o + j],
                         (long long)sa64[o + j], (long long)ref[j]);
        assert_int_equal(prim[i], p);
        assert_memory_equal((uint8_t *)bwt + o * sym, rbwt, (size_t)(n * sym));
    }
    free(t);
    free(bwt);
    free(sa);
    free(sa64);
    free(ref);
    free(prim);
    free(rbwt);
    drop(&b);
}

static void integer_widths(void **state)
{
    (void)state;
    tu_rng r = {4803};
    for (int t = 0; t < rounds_for(60, 12, 2); t++) int_case(ctx, &r, t % 3 == 0 ? 2 : t % 3 == 1 ? 4 : 8);
    for (int t = 0; t < 6; t++) int_case(NULL, &r, t % 3 == 0 ? 2 : t % 3 == 1 ? 4 : 8);
}

/* A memory limit far below the batch: many parts, halves, and a text too
 * large for any part built alone (out of core). */
static void memory_parts(void **state)
{
    (void)state;
    if (tu_small()) skip();
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    o.mem_limit = 3u << 20;
    clsa_context *c = NULL;
    TU_OK(NULL, clsa_create(&o, &c));
    tu_rng r = {4804};
    batch b = make(&r, 400, 3000, -1);
    empty_text(&b, 7);
    run_all(c, &b, 1);
    drop(&b);
    batch big = make(&r, 3, 200000, 2);
    run_all(c, &big, 1);
    /* on device buffers a text too large for the limit cannot go out of core */
    int64_t one = 400000;
    cl_int e;
    cl_mem dt = clCreateBuffer(c->cl, CL_MEM_READ_WRITE, (size_t)one, NULL, &e);
    cl_mem ds = clCreateBuffer(c->cl, CL_MEM_READ_WRITE, (size_t)one * 4, NULL, &e);
    assert_int_equal(clsa_sa32_batch_mem(c, dt, &one, 1, ds), CLSA_ERR_DEVICE_MEMORY);
    assert_non_null(strstr(clsa_last_error(c), "memory"));
    clReleaseMemObject(dt);
    clReleaseMemObject(ds);
    drop(&big);
    clsa_destroy(c);
}

/* The host backend (NULL context) text by text. */
static void host_backend(void **state)
{
    (void)state;
    tu_rng r = {4805};
    for (int t = 0; t < 20; t++) {
        batch b = make(&r, tu_below(&r, 50), 300, -1);
        run_all(NULL, &b, t % 2);
        drop(&b);
    }
}

static int progress_calls;
static double progress_last;
static int on_progress(void *user, const char *phase, double f)
{
    (void)phase;
    assert_true(f >= progress_last);
    progress_last = f;
    progress_calls++;
    return user && f > 0.3;
}

/* Progress from 0 to 1 over a batch of several parts; a stop cancels it. */
static void progress_cancel(void **state)
{
    (void)state;
    for (int stop = 0; stop < 2; stop++) {
        clsa_options o;
        clsa_options_init(&o);
        o.backend = CLSA_BACKEND_DEVICE;
        o.mem_limit = tu_small() ? 0 : 2u << 20;
        o.progress = on_progress;
        o.progress_user = stop ? &o : NULL;
        clsa_context *c = NULL;
        TU_OK(NULL, clsa_create(&o, &c));
        tu_rng r = {4806};
        batch b = make(&r, tu_small() ? 6 : 300, tu_small() ? 40 : 2000, 2);
        int32_t *sa = tu_malloc((size_t)b.total * 4);
        progress_calls = 0;
        progress_last = 0;
        clsa_status st = clsa_sa32_batch(c, b.text, b.len, b.k, sa);
        assert_int_equal(st, stop ? CLSA_ERR_CANCELLED : CLSA_OK);
        assert_true(progress_calls >= 2);
        if (!stop) {
            assert_true(progress_last == 1.0);
            check_sa(&b, sa, NULL);
        }
        free(sa);
        drop(&b);
        clsa_destroy(c);
    }
}

static void bad_arguments(void **state)
{
    (void)state;
    int64_t len[3] = {3, -1, 2}, ok[2] = {3, 2}, big[1] = {(int64_t)1 << 31}, prim[2];
    int32_t sa[8];
    uint8_t text[8] = "abcab", bwt[8];
    assert_int_equal(clsa_sa32_batch(ctx, text, len, 3, sa), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_sa32_batch(ctx, text, ok, -1, sa), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_sa32_batch(ctx, text, NULL, 2, sa), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_sa32_batch(ctx, NULL, ok, 2, sa), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_sa32_batch(ctx, text, ok, 2, NULL), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_sa32_batch(ctx, text, big, 1, sa), CLSA_ERR_TOO_LARGE);
    assert_int_equal(clsa_bwt_batch(ctx, text, ok, 2, bwt, NULL), CLSA_ERR_INVALID_ARG);
    TU_OK(ctx, clsa_sa32_batch(ctx, NULL, NULL, 0, NULL));
    TU_OK(ctx, clsa_bwt_batch(ctx, NULL, NULL, 0, NULL, NULL));
    int64_t zeros[2] = {0, 0};
    prim[0] = prim[1] = 9;
    TU_OK(ctx, clsa_bwt_batch(ctx, NULL, zeros, 2, NULL, prim));
    assert_int_equal(prim[0], 0);
    assert_int_equal(prim[1], 0);
}

int main(void)
{
    ctx = tu_context();
    if (getenv("TEST_FILTER")) cmocka_set_test_filter(getenv("TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_batches),
        cmocka_unit_test(large_batches),
        cmocka_unit_test(mem_buffers),
        cmocka_unit_test(integer_widths),
        cmocka_unit_test(memory_parts),
        cmocka_unit_test(host_backend),
        cmocka_unit_test(progress_cancel),
        cmocka_unit_test(bad_arguments),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
