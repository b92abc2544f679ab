/* A machine without OpenCL: the library loads libOpenCL at run time
 * (host/runtime/cl_loader.c), and this binary points it at a library that
 * does not exist (env CLSA_OPENCL_LIBRARY, set before the first call).
 * Everything the host backend does must still work and agree with
 * libdivsufsort; everything that needs a device must say clearly why not.
 * The implementation run_impl.sh names does not matter here (none loads). */
#include "testutil.h"
#include "gen.h"

#include <divsufsort.h>

#define MISSING "/nonexistent/clsa-test/libOpenCL.so.1"

static void no_library(void **state)
{
    (void)state;
    char why[512];
    assert_int_equal(clsa_opencl_available(why, sizeof why), CLSA_ERR_NO_DEVICE);
    assert_non_null(strstr(why, MISSING));
    assert_int_equal(clsa_opencl_available(NULL, 0), CLSA_ERR_NO_DEVICE);
    size_t count = 99;
    clsa_device_info info[2];
    assert_int_equal(clsa_list_devices(info, 2, &count), CLSA_OK);
    assert_int_equal(count, 0);
}

/* No selector, AUTO: a host-only context, as on a machine without devices. */
static void host_context(void **state)
{
    (void)state;
    clsa_options o;
    clsa_options_init(&o);
    o.device = "";
    clsa_context *ctx = NULL;
    char err[512];
    assert_int_equal(clsa_create_ex(&o, &ctx, err, sizeof err), CLSA_OK);
    assert_non_null(ctx);
    clsa_device_info info;
    assert_int_equal(clsa_get_device_info(ctx, &info), CLSA_ERR_UNSUPPORTED);

    enum { N = 5000 };
    static uint8_t text[N];
    static int32_t sa[N], ref[N], lcp[N];
    for (int kind = 0; kind < GEN_KIND_COUNT; kind++) {
        gen_fill(text, N, (gen_kind)kind, 4, 7 + (uint64_t)kind);
        assert_int_equal(divsufsort(text, ref, N), 0);
        for (int k = 0; k < 2; k++) {
            memset(sa, 0xff, sizeof sa);
            assert_int_equal(clsa_sa32(k ? ctx : NULL, text, sa, N), CLSA_OK);
            assert_memory_equal(sa, ref, sizeof sa);
        }
        int valid = 0;
        assert_int_equal(clsa_check_sa32(text, sa, N, &valid, NULL, 0), CLSA_OK);
        assert_true(valid);
        assert_int_equal(clsa_lcp32(ctx, text, lcp, N), CLSA_OK);
        for (int i = 1; i < N; i++) { /* lcp of neighbours, naively */
            int32_t a = ref[i - 1], b = ref[i], l = 0;
            while (a + l < N && b + l < N && text[a + l] == text[b + l]) l++;
            assert_int_equal(lcp[i], l);
        }
    }
    /* The FM-index needs a device: a clear error, not a crash. */
    clsa_fm *fm = (clsa_fm *)&fm;
    assert_int_equal(clsa_fm_create(ctx, text, N, 0, &fm), CLSA_ERR_NO_DEVICE);
    assert_null(fm);
    assert_true(strlen(clsa_last_error(ctx)) > 0);
    clsa_destroy(ctx);
}

/* A named device, or the device backend, is an error naming the reason. */
static void device_requests_fail(void **state)
{
    (void)state;
    const char *sel[] = {"pocl", "gpu", NULL};
    for (int i = 0; i < 3; i++) {
        clsa_options o;
        clsa_options_init(&o);
        o.device = sel[i] ? sel[i] : "";
        o.backend = sel[i] ? CLSA_BACKEND_AUTO : CLSA_BACKEND_DEVICE;
        clsa_context *ctx = (clsa_context *)&ctx;
        char err[512] = "";
        assert_int_equal(clsa_create_ex(&o, &ctx, err, sizeof err), CLSA_ERR_NO_DEVICE);
        assert_null(ctx);
        assert_non_null(strstr(err, MISSING));
    }
    /* An application's queue cannot exist without OpenCL; a stray pointer
     * is refused without being touched (the calls fail before any driver). */
    clsa_context *ctx = NULL;
    assert_int_not_equal(clsa_create_with_queue((cl_command_queue)(uintptr_t)8, NULL, &ctx),
                         CLSA_OK);
    assert_null(ctx);
}

int main(void)
{
    setenv("CLSA_OPENCL_LIBRARY", MISSING, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_library),
        cmocka_unit_test(host_context),
        cmocka_unit_test(device_requests_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
