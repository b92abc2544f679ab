/* Device choice, adopting an application's queue, statistics. */
#include "testutil.h"
#include "gen.h"

static void selector_errors(void **state)
{
    (void)state;
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    clsa_context *ctx = (clsa_context *)1;
    char err[256];
    o.device = "no-such-device-anywhere";
    assert_int_equal(clsa_create_ex(&o, &ctx, err, sizeof err), CLSA_ERR_NO_DEVICE);
    assert_null(ctx);
    assert_non_null(strstr(err, "no-such-device-anywhere"));
    o.device = "pocl:x";
    assert_int_equal(clsa_create_ex(&o, &ctx, err, sizeof err), CLSA_ERR_NO_DEVICE);
    assert_non_null(strstr(err, "bad device selector"));
    o.device = NULL;
    o.backend = 7;
    assert_int_equal(clsa_create_ex(&o, &ctx, err, sizeof err), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_create(NULL, NULL), CLSA_ERR_INVALID_ARG);
}

/* The device under test is listed, and the selector finds it again by name. */
static void listing(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context();
    clsa_device_info me;
    TU_OK(ctx, clsa_get_device_info(ctx, &me));
    assert_true(me.global_mem > 0 && me.local_mem > 0 && me.max_work_group > 0);
    size_t count = 0;
    assert_int_equal(clsa_list_devices(NULL, 0, &count), CLSA_OK);
    assert_true(count >= 1);
    clsa_device_info *all = tu_malloc(count * sizeof *all);
    assert_int_equal(clsa_list_devices(all, count, &count), CLSA_OK);
    int found = 0, defaults = 0;
    for (size_t i = 0; i < count; i++) {
        found += !strcmp(all[i].name, me.name) && !strcmp(all[i].platform, me.platform);
        defaults += all[i].is_default;
    }
    assert_true(found >= 1);
    assert_int_equal(defaults, 1);
    free(all);
    clsa_destroy(ctx);
}

/* An application's own queue: clsa uses it and leaves it usable. */
static void adopt_queue(void **state)
{
    (void)state;
    cl_context clctx;
    cl_command_queue q = tu_app_queue(&clctx);
    cl_int err;
    clsa_context *ctx = NULL;
    /* no kept device memory (buffer_pool.c): its regions would shape the
     * two calls' peaks below apart, which compare the plans */
    setenv("CLSA_TUNE", "pool=0", 1);
    assert_int_equal(clsa_create_with_queue(q, NULL, &ctx), CLSA_OK);
    unsetenv("CLSA_TUNE");
    size_t n = 5000;
    cl_mem in = clCreateBuffer(clctx, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    uint32_t *host = tu_malloc(n * 4);
    for (size_t i = 0; i < n; i++) host[i] = (uint32_t)(i % 7);
    assert_int_equal(clEnqueueWriteBuffer(q, in, CL_TRUE, 0, n * 4, host, 0, NULL, NULL), CL_SUCCESS);
    TU_OK(ctx, clsa_scan_u32_mem(ctx, in, in, n, 1));
    assert_int_equal(clEnqueueReadBuffer(q, in, CL_TRUE, 0, n * 4, host, 0, NULL, NULL), CL_SUCCESS);
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++) {
        s += (uint32_t)(i % 7);
        assert_int_equal(host[i], s);
    }
    /* The suffix array in the caller's buffers works within the same
     * budget as the host-pointer call (text and SA counted: the same plan,
     * the same peak, at most 20 bytes per input byte) on a Fibonacci word,
     * which leaves every suffix unsorted for many passes. */
    size_t tn = tu_sizes(60000, 3000, 1000); /* lean: the same one-group passes */
    uint8_t *text = tu_malloc(tn);
    int32_t *sa = tu_malloc(tn * 4), *ref = tu_malloc(tn * 4);
    gen_fill(text, tn, GEN_FIBONACCI, 0, 1);
    cl_mem dtext = clCreateBuffer(clctx, CL_MEM_READ_WRITE, tn, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem dsa = clCreateBuffer(clctx, CL_MEM_READ_WRITE, tn * 4, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueWriteBuffer(q, dtext, CL_TRUE, 0, tn, text, 0, NULL, NULL),
                     CL_SUCCESS);
    clsa_stats mem_stats, host_stats;
    clsa_reset_stats(ctx);
    TU_OK(ctx, clsa_sa32_mem(ctx, dtext, dsa, (int64_t)tn));
    TU_OK(ctx, clsa_get_stats(ctx, &mem_stats));
    assert_int_equal(clEnqueueReadBuffer(q, dsa, CL_TRUE, 0, tn * 4, sa, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clsa_sa32(NULL, text, ref, (int64_t)tn), CLSA_OK);
    assert_memory_equal(sa, ref, tn * 4);
    clsa_reset_stats(ctx);
    TU_OK(ctx, clsa_sa32(ctx, text, sa, (int64_t)tn));
    TU_OK(ctx, clsa_get_stats(ctx, &host_stats));
    assert_memory_equal(sa, ref, tn * 4);
    assert_int_equal(mem_stats.doubling_passes, host_stats.doubling_passes);
    assert_int_equal(mem_stats.peak_device_bytes, host_stats.peak_device_bytes);
    assert_true(mem_stats.peak_device_bytes <= 20 * tn + 16384);
    assert_int_equal(mem_stats.current_device_bytes, host_stats.current_device_bytes);
    clReleaseMemObject(dtext);
    clReleaseMemObject(dsa);
    free(text);
    free(sa);
    free(ref);
    clsa_destroy(ctx);
    /* still ours and usable */
    assert_int_equal(clFinish(q), CL_SUCCESS);
    clReleaseMemObject(in);
    clReleaseCommandQueue(q);
    clReleaseContext(clctx);
    free(host);
    assert_int_equal(clsa_create_with_queue(NULL, NULL, &ctx), CLSA_ERR_INVALID_ARG);
}

/* Peak memory and profiled phase time are counted. */
static void stats(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context_opts(1);
    size_t n = tu_size(100000, 3000);
    uint32_t *v = tu_malloc(n * 4);
    for (size_t i = 0; i < n; i++) v[i] = 1;
    TU_OK(ctx, clsa_scan_u32(ctx, v, v, n, 0));
    clsa_stats s;
    TU_OK(ctx, clsa_get_stats(ctx, &s));
    assert_true(s.peak_device_bytes >= n * 4);
    assert_int_equal(s.current_device_bytes, 0);
    assert_true(s.kernel_launches >= 1);
    assert_true(s.phase_ms[CLSA_PHASE_PRIMITIVE] > 0);
    assert_true(s.phase_ms[CLSA_PHASE_TRANSFER] > 0);
    clsa_reset_stats(ctx);
    TU_OK(ctx, clsa_get_stats(ctx, &s));
    assert_int_equal(s.peak_device_bytes, 0);
    assert_true(s.phase_ms[CLSA_PHASE_PRIMITIVE] == 0);
    assert_string_equal(clsa_phase_name(CLSA_PHASE_SORT_S), "sort_s");
    free(v);
    clsa_destroy(ctx);
}

/* A host-only context refuses device-only work with a clear message. */
static void host_context(void **state)
{
    (void)state;
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_HOST;
    clsa_context *ctx = NULL;
    assert_int_equal(clsa_create(&o, &ctx), CLSA_OK);
    uint32_t x = 1;
    assert_int_equal(clsa_scan_u32(ctx, &x, &x, 1, 0), CLSA_ERR_NO_DEVICE);
    assert_non_null(strstr(clsa_last_error(ctx), "host backend"));
    clsa_device_info info;
    assert_int_equal(clsa_get_device_info(ctx, &info), CLSA_ERR_UNSUPPORTED);
    int32_t sa[3];
    assert_int_equal(clsa_sa32(ctx, (const uint8_t *)"aba", sa, 3), CLSA_OK);
    assert_int_equal(sa[0], 2);
    assert_int_equal(sa[1], 0);
    assert_int_equal(sa[2], 1);
    clsa_destroy(ctx);
    clsa_destroy(NULL);
}

/* Host-pointer calls that wrap the caller's arrays (APUs; forced here with
 * CLSA_TUNE so the CPU implementations run that path): same suffix arrays
 * as libdivsufsort, both widths, and nothing left allocated. */
static void zero_copy_path(void **state)
{
    (void)state;
    setenv("CLSA_TUNE", "zero_copy=1", 1);
    clsa_context *ctx = tu_context();
    unsetenv("CLSA_TUNE");
    size_t n = tu_size(100000, 300);
    uint8_t *t = tu_malloc(n);
    for (size_t i = 0; i < n; i++) t[i] = (uint8_t)("acgt"[(i * 2654435761u >> 13) & 3]);
    int32_t *sa = tu_malloc(n * 4), *ref = tu_malloc(n * 4);
    int64_t *sa64 = tu_malloc(n * 8);
    assert_int_equal(clsa_sa32(NULL, t, ref, (int64_t)n), CLSA_OK);
    TU_OK(ctx, clsa_sa32(ctx, t, sa, (int64_t)n));
    TU_OK(ctx, clsa_sa64(ctx, t, sa64, (int64_t)n));
    for (size_t i = 0; i < n; i++) {
        if (sa[i] != ref[i]) fail_msg("sa32[%zu] = %d, want %d", i, sa[i], ref[i]);
        if (sa64[i] != ref[i]) fail_msg("sa64[%zu] = %lld, want %d", i, (long long)sa64[i], ref[i]);
    }
    clsa_stats s;
    TU_OK(ctx, clsa_get_stats(ctx, &s));
    assert_int_equal(s.current_device_bytes, 0);
    clsa_destroy(ctx);
    free(t);
    free(sa);
    free(ref);
    free(sa64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(selector_errors), cmocka_unit_test(listing),
        cmocka_unit_test(adopt_queue), cmocka_unit_test(stats), cmocka_unit_test(host_context),
        cmocka_unit_test(zero_copy_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
