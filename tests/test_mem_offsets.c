/* The cl_mem (device-resident) entry points with the caller's buffers as
 * sub-buffers at an offset into larger ones, under CLSA_TUNE chunk=4096:
 * every copy, read, write and fill the library makes is split into pieces
 * at offsets, as those of buffers past 2^31 bytes are at the default 1 GiB
 * pieces (issue 51).  sa32, sa64, bwt and lcp must give the host backend's
 * bytes and leave the parent's bytes around the sub-buffers untouched. */
#include "testutil.h"
#include "gen.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define GUARD 0xA5

/* One caller array: a sub-buffer of `bytes` at `origin` in a parent whose
 * other bytes hold GUARD. */
typedef struct view {
    cl_mem parent, sub;
    size_t origin, bytes;
} view;

typedef struct app {
    cl_context cl;
    cl_command_queue q;
    size_t origin; /* a multiple of the device's sub-buffer alignment */
} app;

static void app_open(app *a)
{
    a->q = tu_app_queue(&a->cl);
    cl_device_id dev;
    assert_int_equal(clGetCommandQueueInfo(a->q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL),
                     CL_SUCCESS);
    cl_uint bits = 0;
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL),
                     CL_SUCCESS);
    size_t align = bits >= 8 ? bits / 8 : 1;
    a->origin = (3 * 4096 + 8 + align - 1) / align * align; /* past 3 pieces of 4096 */
}

static view view_make(app *a, size_t bytes, const void *init)
{
    view v = {NULL, NULL, a->origin, bytes};
    size_t total = a->origin + bytes + 4096;
    cl_int err;
    v.parent = clCreateBuffer(a->cl, CL_MEM_READ_WRITE, total, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    uint8_t *fill = tu_malloc(total);
    memset(fill, GUARD, total);
    if (init) memcpy(fill + v.origin, init, bytes);
    assert_int_equal(clEnqueueWriteBuffer(a->q, v.parent, CL_TRUE, 0, total, fill, 0, NULL, NULL),
                     CL_SUCCESS);
    free(fill);
    cl_buffer_region r = {v.origin, bytes};
    v.sub = clCreateSubBuffer(v.parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    assert_int_equal(err, CL_SUCCESS);
    return v;
}

/* The sub-buffer's bytes equal want; the guard bytes around it are intact. */
static void view_check(app *a, const view *v, const void *want, const char *what)
{
    size_t total = v->origin + v->bytes + 4096;
    uint8_t *got = tu_malloc(total);
    assert_int_equal(clEnqueueReadBuffer(a->q, v->parent, CL_TRUE, 0, total, got, 0, NULL, NULL),
                     CL_SUCCESS);
    for (size_t i = 0; i < total; i++)
        if ((i < v->origin || i >= v->origin + v->bytes) && got[i] != GUARD)
            fail_msg("%s: byte %zu outside the caller's sub-buffer [%zu, %zu) overwritten", what,
                     i, v->origin, v->origin + v->bytes);
    if (memcmp(got + v->origin, want, v->bytes)) fail_msg("%s: differs from the host result", what);
    free(got);
}

static void view_free(view *v)
{
    clReleaseMemObject(v->sub);
    clReleaseMemObject(v->parent);
}

/* sa32, sa64, bwt, lcp32 on caller sub-buffers against the host backend. */
static void run_all(const char *tune, gen_kind kind, unsigned param, size_t n)
{
    app a;
    app_open(&a);
    clsa_context *ctx = NULL;
    setenv("CLSA_TUNE", tune, 1);
    assert_int_equal(clsa_create_with_queue(a.q, NULL, &ctx), CLSA_OK);
    unsetenv("CLSA_TUNE");
    uint8_t *text = tu_malloc(n), *bwt = tu_malloc(n);
    int32_t *sa32 = tu_malloc(n * 4), *lcp = tu_malloc(n * 4), *rank = tu_malloc(n * 4);
    int64_t *sa64 = tu_malloc(n * 8), primary = -1, got_primary = -2;
    gen_fill(text, n, kind, param, 7);
    assert_int_equal(clsa_sa32(NULL, text, sa32, (int64_t)n), CLSA_OK);
    assert_int_equal(clsa_sa64(NULL, text, sa64, (int64_t)n), CLSA_OK);
    assert_int_equal(clsa_bwt(NULL, text, bwt, (int64_t)n, &primary), CLSA_OK);
    tu_kasai32(text, sa32, lcp, rank, n);
    view t = view_make(&a, n, text), s4 = view_make(&a, n * 4, NULL);
    view s8 = view_make(&a, n * 8, NULL), b = view_make(&a, n, NULL), l = view_make(&a, n * 4, NULL);
    TU_OK(ctx, clsa_sa32_mem(ctx, t.sub, s4.sub, (int64_t)n));
    view_check(&a, &s4, sa32, "sa32");
    TU_OK(ctx, clsa_sa64_mem(ctx, t.sub, s8.sub, (int64_t)n));
    view_check(&a, &s8, sa64, "sa64");
    TU_OK(ctx, clsa_bwt_mem(ctx, t.sub, b.sub, (int64_t)n, &got_primary));
    view_check(&a, &b, bwt, "bwt");
    assert_int_equal(got_primary, primary);
    TU_OK(ctx, clsa_lcp32_mem(ctx, t.sub, s4.sub, l.sub, (int64_t)n));
    view_check(&a, &l, lcp, "lcp");
    view_check(&a, &t, text, "text");
    view *all[] = {&t, &s4, &s8, &b, &l};
    for (size_t i = 0; i < 5; i++) view_free(all[i]);
    clsa_destroy(ctx);
    assert_int_equal(clFinish(a.q), CL_SUCCESS);
    clReleaseCommandQueue(a.q);
    clReleaseContext(a.cl);
    free(text), free(bwt), free(sa32), free(lcp), free(rank), free(sa64);
}

static void dna_pieces(void **state)
{
    (void)state;
    run_all(tu_small() ? "chunk=512" : "chunk=4096", GEN_RANDOM, 4, tu_size(40000, 500));
}

/* Many doubling passes (copies between passes), the 2^31-suffix layout
 * of the group marks forced too (sa_path=16). */
static void fibonacci_pieces(void **state)
{
    (void)state;
    if (tu_small()) return; /* Oclgrind: the case above is enough, and slow */
    run_all("chunk=4096,sa_path=16", GEN_FIBONACCI, 0, 30000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dna_pieces),
        cmocka_unit_test(fibonacci_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
