/* clsa-startup: where a short `clsa` process spends its first half second
 * (issue 15).  Times, in one process: loading the OpenCL ICD loader,
 * clGetPlatformIDs (every installed driver initialises here), each
 * platform's device query, clsa_create for the selector, the first
 * suffix array of a tiny text (kernel programs from the on-disk cache),
 * a second one, and clsa_destroy (left to process exit with --no-destroy,
 * to time the whole process from outside both ways).  Output: one "step
 * seconds" line each.  With --no-loader the loader's own view is skipped, so
 * that clsa_create starts from nothing, as in a real process: a selector
 * naming a platform may then open that vendor alone (docs/DESIGN.md, "ICD
 * direct"); the "loader_loaded" line says whether the ICD loader was used.
 * --icd LIBRARY times one vendor library's own start the way the direct
 * route does it (dlopen, clIcdGetPlatformIDsKHR, each platform's devices
 * through its dispatch table), before clsa_create.
 * Usage: clsa-startup [DEVICE-SELECTOR] [--no-destroy] [--no-loader] [--icd LIBRARY] */
#define _GNU_SOURCE
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clsa.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double lap(double *t)
{
    double n = now(), d = n - *t;
    *t = n;
    return d;
}

typedef cl_int (*get_platforms_fn)(cl_uint, cl_platform_id *, cl_uint *);
typedef cl_int (*platform_info_fn)(cl_platform_id, cl_platform_info, size_t, void *, size_t *);
typedef cl_int (*get_devices_fn)(cl_platform_id, cl_device_type, cl_uint, cl_device_id *,
                                 cl_uint *);

/* The loader's own view, before the library touches it. */
static int platforms(double *t)
{
    void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_GLOBAL);
    printf("dlopen_libOpenCL %.4f\n", lap(t));
    if (!h) return 1;
    get_platforms_fn get = (get_platforms_fn)dlsym(h, "clGetPlatformIDs");
    platform_info_fn info = (platform_info_fn)dlsym(h, "clGetPlatformInfo");
    get_devices_fn devs = (get_devices_fn)dlsym(h, "clGetDeviceIDs");
    cl_platform_id p[16];
    cl_uint np = 0;
    if (!get || !info || !devs || get(16, p, &np) != CL_SUCCESS) return 1;
    printf("clGetPlatformIDs %.4f (%u platforms)\n", lap(t), np);
    for (cl_uint i = 0; i < np && i < 16; i++) {
        char name[128] = "";
        cl_uint nd = 0;
        info(p[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        devs(p[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        printf("clGetDeviceIDs[%s] %.4f (%u devices)\n", name, lap(t), nd);
    }
    return 0;
}

/* One vendor library alone, as host/runtime/icd_direct.c opens it. */
static int vendor(const char *lib, double *t)
{
    void *h = dlopen(lib, RTLD_LAZY | RTLD_LOCAL);
    printf("dlopen_vendor %.4f (%s)\n", lap(t), lib);
    void *f = h ? dlsym(h, "clIcdGetPlatformIDsKHR") : NULL;
    void *g = h && !f ? dlsym(h, "clGetExtensionFunctionAddress") : NULL;
    if (g) { /* PoCL exports it only as an extension function */
        void *(*ext)(const char *);
        memcpy(&ext, &g, sizeof g);
        f = ext("clIcdGetPlatformIDsKHR");
    }
    if (!f) return 1;
    get_platforms_fn get;
    memcpy(&get, &f, sizeof f);
    cl_platform_id p[16];
    cl_uint np = 0;
    if (get(16, p, &np) != CL_SUCCESS) return 1;
    printf("clIcdGetPlatformIDsKHR %.4f (%u platforms)\n", lap(t), np);
    for (cl_uint i = 0; i < np && i < 16; i++) {
        const struct _cl_icd_dispatch *d = *(const struct _cl_icd_dispatch *const *)p[i];
        char name[128] = "";
        cl_uint nd = 0;
        d->clGetPlatformInfo(p[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        d->clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
        printf("clGetDeviceIDs[%s] %.4f (%u devices)\n", name, lap(t), nd);
    }
    return 0;
}

int main(int argc, char **argv)
{
    clsa_options o;
    clsa_options_init(&o);
    int destroy = 1, loader_view = 1;
    const char *icd = NULL;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--icd") && a + 1 < argc)
            icd = argv[++a];
        else if (!strcmp(argv[a], "--no-destroy"))
            destroy = 0;
        else if (!strcmp(argv[a], "--no-loader"))
            loader_view = 0;
        else
            o.device = argv[a];
    }
    double t = now(), t_start = t;
    if (icd && vendor(icd, &t)) printf("note: %s is no ICD library\n", icd);
    if (!icd && loader_view && platforms(&t)) printf("note: no OpenCL loader or platforms\n");
    o.backend = CLSA_BACKEND_DEVICE; /* the tiny text too */
    clsa_context *ctx = NULL;
    clsa_status st = clsa_create(&o, &ctx);
    printf("clsa_create %.4f (status %d)\n", lap(&t), (int)st);
    if (st) return 1;
    printf("loader_loaded %s\n",
           dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_NOLOAD) ? "yes" : "no (direct)");
    static const uint8_t text[] = "abracadabra_mississippi_banana_abracadabra_mississippi";
    int32_t sa[sizeof text];
    for (int run = 1; run <= 2; run++) {
        st = clsa_sa32(ctx, text, sa, (int64_t)sizeof text - 1);
        clsa_stats s;
        clsa_get_stats(ctx, &s);
        printf("sa32_tiny_call%d %.4f (status %d, programs loaded %u, built %u)\n", run, lap(&t),
               (int)st, s.programs_loaded, s.programs_built);
    }
    if (destroy) {
        clsa_destroy(ctx);
        printf("clsa_destroy %.4f\n", lap(&t));
    }
    printf("total_in_main %.4f\n", now() - t_start);
    return st != CLSA_OK;
}
