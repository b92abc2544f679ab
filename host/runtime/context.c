/* Device choice, the context's life cycle (the work behind clsa_create...,
 * clsa_trim and clsa_destroy: host/api_context.c), locking. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include "buffer.h"
#include "context.h"
#include "host_mem.h"
#include "launch.h"
#include "oclgrind.h"
#include "program.h"
#include "progress.h"
#include "status.h"
#include "tuning.h"
#include "parse_num.h"
#include "icd_direct.h"

#include <ctype.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

typedef struct found_device {
    cl_platform_id platform;
    cl_device_id device;
    clsa_device_info info;
} found_device;

static void str_info(cl_device_id d, cl_device_info what, char *buf, size_t cap)
{
    buf[0] = 0;
    if (clGetDeviceInfo(d, what, cap, buf, NULL) != CL_SUCCESS) buf[0] = 0;
    buf[cap - 1] = 0;
}

/* Returns the first failed query's error (CL_SUCCESS if none): a limit that
 * could not be read must not silently become a zero. */
static cl_int describe(cl_platform_id p, cl_device_id d, clsa_device_info *info,
                       const char **failed)
{
    cl_int first = CL_SUCCESS, e;
#define Q(call)                                                                       \
    do {                                                                              \
        e = (call);                                                                   \
        if (e != CL_SUCCESS && first == CL_SUCCESS) {                                 \
            first = e;                                                                \
            if (failed)                                                               \
                *failed = strncmp(#call, "clGetPlatformInfo", 17) ? "clGetDeviceInfo" \
                                                                  : "clGetPlatformInfo"; \
        }                                                                             \
    } while (0)
    memset(info, 0, sizeof *info);
    Q(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof info->platform, info->platform, NULL));
    Q(clGetPlatformInfo(p, CL_PLATFORM_VENDOR, sizeof info->vendor, info->vendor, NULL));
    info->platform[sizeof info->platform - 1] = 0;
    info->vendor[sizeof info->vendor - 1] = 0;
    str_info(d, CL_DEVICE_NAME, info->name, sizeof info->name);
    str_info(d, CL_DRIVER_VERSION, info->driver, sizeof info->driver);
    str_info(d, CL_DEVICE_VERSION, info->version, sizeof info->version);
    cl_device_type type = 0;
    Q(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL));
    info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    cl_bool unified = CL_FALSE;
    Q(clGetDeviceInfo(d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL));
    info->host_unified_memory = unified == CL_TRUE;
    cl_ulong v = 0;
    Q(clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof v, &v, NULL));
    info->global_mem = v;
    v = 0;
    Q(clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof v, &v, NULL));
    info->max_alloc = v;
    v = 0;
    Q(clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof v, &v, NULL));
    info->local_mem = v;
    size_t wg = 1;
    Q(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    info->max_work_group = wg;
    cl_uint cu = 1;
    Q(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
    info->compute_units = cu;
#undef Q
    return first;
}

/* The devices of platforms plats[0..np).  Devices of a directly opened
 * vendor library (icd_direct.h) teach the dispatch their table. */
static size_t enumerate_in(const cl_platform_id *plats, cl_uint np, found_device *out, size_t cap,
                           int direct)
{
    size_t n = 0;
    for (cl_uint p = 0; p < np; p++) {
        cl_device_id devs[MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd) != CL_SUCCESS)
            continue;
        if (nd > MAX_DEVICES) nd = MAX_DEVICES;
        for (cl_uint d = 0; d < nd && n < cap; d++) {
            if (direct) clsa__icd_direct_learn(devs[d]);
            out[n].platform = plats[p];
            out[n].device = devs[d];
            describe(plats[p], devs[d], &out[n].info, NULL);
            n++;
        }
    }
    return n;
}

/* Every device of every platform, through the loader. */
static size_t enumerate(found_device *out, size_t cap)
{
    cl_platform_id plats[MAX_PLATFORMS];
    cl_uint np = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, plats, &np) != CL_SUCCESS) return 0;
    if (np > MAX_PLATFORMS) np = MAX_PLATFORMS;
    return enumerate_in(plats, np, out, cap, 0);
}

int clsa__contains_nocase(const char *hay, const char *needle, size_t nlen)
{
    size_t hlen = strlen(hay);
    for (size_t i = 0; i + nlen <= hlen; i++) {
        size_t j = 0;
        while (j < nlen && tolower((unsigned char)hay[i + j]) == tolower((unsigned char)needle[j]))
            j++;
        if (j == nlen) return 1;
    }
    return 0;
}

/* Default: the GPU with the most global memory, else the first CPU, else the first. */
static long pick_default(const found_device *d, size_t n)
{
    long best = -1;
    for (size_t i = 0; i < n; i++)
        if (d[i].info.is_gpu && (best < 0 || d[i].info.global_mem > d[best].info.global_mem))
            best = (long)i;
    if (best >= 0) return best;
    return n ? 0 : -1;
}

static unsigned long long as_limit(void)
{
    struct rlimit r;
    return getrlimit(RLIMIT_AS, &r) == 0 ? (unsigned long long)r.rlim_cur : 0;
}

/* Whether the process is short of address space (ulimit -v): drivers map
 * hundreds of MB on opening, and an ICD loader skips one that fails as if
 * it were not installed. */
static int address_space_short(void)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return 0;
    size_t probe = (size_t)1 << 30;
    void *p = mmap(NULL, probe, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return 1;
    munmap(p, probe);
    return 0;
}

/* Returns the chosen index, or -1 with a message in err. */
static long pick(const found_device *d, size_t n, const char *sel, char *err, size_t cap)
{
    if (n == 0) {
        const char *why = clsa__cl_load_error();
        if (address_space_short())
            snprintf(err, cap, "out of memory while opening the OpenCL driver (the address "
                               "space is limited to %llu MB: ulimit -v)",
                     (unsigned long long)(as_limit() >> 20));
        else if (why)
            snprintf(err, cap, "no OpenCL: %s; only the host backend can run", why);
        else
            snprintf(err, cap, "no OpenCL device found (is an OpenCL driver installed?)");
        return -1;
    }
    if (!sel || !*sel) return pick_default(d, n);
    if (!strcmp(sel, "gpu") || !strcmp(sel, "cpu")) {
        int gpu = sel[0] == 'g';
        long best = -1;
        for (size_t i = 0; i < n; i++)
            if (d[i].info.is_gpu == gpu &&
                (best < 0 || d[i].info.global_mem > d[best].info.global_mem))
                best = (long)i;
        if (best < 0) snprintf(err, cap, "no %s OpenCL device found", sel);
        return best;
    }
    const char *colon = strrchr(sel, ':');
    size_t len = colon ? (size_t)(colon - sel) : strlen(sel);
    long want = 0;
    if (colon) {
        char *end;
        want = strtol(colon + 1, &end, 10);
        if (*end || want < 0) {
            snprintf(err, cap, "bad device selector '%s' (expected <substring>[:<index>])", sel);
            return -1;
        }
    }
    long seen = 0;
    for (size_t i = 0; i < n; i++) {
        const clsa_device_info *in = &d[i].info;
        if (clsa__contains_nocase(in->platform, sel, len) || clsa__contains_nocase(in->vendor, sel, len) ||
            clsa__contains_nocase(in->name, sel, len)) {
            if (seen == want) return (long)i;
            seen++;
        }
    }
    snprintf(err, cap, "no OpenCL device matches '%s' (%ld match%s; see 'clsa devices')", sel,
             seen, seen == 1 ? "" : "es");
    return -1;
}

/* The device for a selector that names a platform, from that vendor's
 * library alone (icd_direct.h): -1 when the route does not apply or its
 * answer is not certain, and the caller enumerates everything. */
static long pick_direct(found_device *d, size_t *n, const char *sel)
{
    clsa_icd_route r;
    if (!clsa__icd_direct_find(sel, &r)) return -1;
    *n = enumerate_in(r.platforms, r.count, d, MAX_DEVICES, 1);
    if (*n == 0) return -1; /* before pick(), which would load the loader to say why */
    char ignored[8];
    long i = pick(d, *n, sel, ignored, sizeof ignored);
    return i >= 0 && clsa__icd_direct_confirms(&r, sel, &d[i].info) ? i : -1;
}

/* Finding devices is serialised across the process.  The loader starts
 * each driver once under its own lock, but the direct route calls the
 * vendor library's own entry point, and PoCL 3.1 started from two threads
 * at once (the CLI's `clsa sa -d pocl,pocl`, each context made on a thread
 * of its own) crashed reading a device's name: a driver's first start is
 * not safe to race.  Only the search waits; clCreateContext and the queue
 * still run in parallel. */
static pthread_mutex_t choose_lock = PTHREAD_MUTEX_INITIALIZER;

/* The device for sel: the direct route first, else every platform through
 * the loader, whose choice for a platform-naming selector is remembered
 * for the next process.  -1 with a message in err. */
static long choose_locked(found_device *d, size_t *n, const char *sel, char *err, size_t cap)
{
    long i = clsa__icd_direct_wanted(sel) ? pick_direct(d, n, sel) : -1;
    if (i >= 0) return i;
    *n = enumerate(d, MAX_DEVICES);
    i = pick(d, *n, sel, err, cap);
    if (i >= 0) clsa__icd_direct_remember(sel, d[i].platform, &d[i].info);
    return i;
}

static long choose(found_device *d, size_t *n, const char *sel, char *err, size_t cap)
{
    pthread_mutex_lock(&choose_lock);
    long i = choose_locked(d, n, sel, err, cap);
    pthread_mutex_unlock(&choose_lock);
    return i;
}

clsa_status clsa__list_devices(clsa_device_info *out, size_t cap, size_t *count)
{
    found_device *d = calloc(MAX_DEVICES, sizeof *d);
    if (!d) return CLSA_ERR_HOST_MEMORY;
    pthread_mutex_lock(&choose_lock);
    size_t n = enumerate(d, MAX_DEVICES);
    pthread_mutex_unlock(&choose_lock);
    char err[256];
    long def = pick(d, n, getenv("CLSA_DEVICE"), err, sizeof err);
    for (size_t i = 0; i < n && i < cap; i++) {
        out[i] = d[i].info;
        out[i].is_default = (long)i == def;
    }
    *count = n;
    free(d);
    return CLSA_OK;
}

static int resolve_backend(int b, clsa_status *st)
{
    *st = CLSA_OK;
    if (b != CLSA_BACKEND_DEFAULT) {
        if (b < CLSA_BACKEND_AUTO || b > CLSA_BACKEND_HOST) *st = CLSA_ERR_INVALID_ARG;
        return b;
    }
    const char *e = getenv("CLSA_BACKEND");
    if (!e || !*e || !strcmp(e, "auto")) return CLSA_BACKEND_AUTO;
    if (!strcmp(e, "device")) return CLSA_BACKEND_DEVICE;
    if (!strcmp(e, "host")) return CLSA_BACKEND_HOST;
    *st = CLSA_ERR_INVALID_ARG;
    return CLSA_BACKEND_AUTO;
}

/* clsa_options.algorithm, AUTO from env CLSA_ALGORITHM where set; -1 for
 * a value out of range or an unknown name. */
static int resolve_algorithm(const clsa_options *opt)
{
    static const char *names[] = {"auto", "doubling", "skew", "hybrid", "runlen"};
    int a = opt ? opt->algorithm : CLSA_ALGORITHM_AUTO;
    if (a < CLSA_ALGORITHM_AUTO || a > CLSA_ALGORITHM_RUNLEN) return -1;
    const char *e = getenv("CLSA_ALGORITHM");
    if (a != CLSA_ALGORITHM_AUTO || !e || !*e) return a;
    for (int i = 0; i < 5; i++)
        if (!strcmp(e, names[i])) return i;
    return -1;
}

/* CLSA_DEVICE_MEM_LIMIT in bytes (0: not set); -1 with err filled when
 * it is not a size. */
static int env_mem_limit(uint64_t *v, char *err, size_t cap)
{
    const char *s = getenv("CLSA_DEVICE_MEM_LIMIT");
    char why[96];
    *v = 0;
    if (!s || !*s) return 0;
    if (clsa__parse_u64(s, CLSA_NUM_SIZE, 1, UINT64_MAX, v, why, sizeof why) == 0) return 0;
    if (err && cap) snprintf(err, cap, "bad CLSA_DEVICE_MEM_LIMIT '%s': %s", s, why);
    return -1;
}

static void release_cl(clsa_context *ctx);

static clsa_context *new_context(const clsa_options *opt)
{
    clsa_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    pthread_mutex_init(&ctx->lock, NULL);
    ctx->want_profile = opt ? opt->profile : 0;
    ctx->log = opt ? opt->log : NULL;
    ctx->log_user = opt ? opt->log_user : NULL;
    ctx->progress = opt ? opt->progress : NULL;
    ctx->progress_user = opt ? opt->progress_user : NULL;
    ctx->phase = CLSA_PHASE_PRIMITIVE;
    ctx->algorithm = resolve_algorithm(opt);
    /* one notion of the limit: the option wins, the env fills in */
    uint64_t env_limit = 0;
    env_mem_limit(&env_limit, NULL, 0); /* a bad value is refused before (clsa_create_ex) */
    ctx->mem_limit = opt && opt->mem_limit ? (uint64_t)opt->mem_limit : env_limit;
    ctx->mem_limit_name = opt && opt->mem_limit ? "mem_limit" : "CLSA_DEVICE_MEM_LIMIT";
    ctx->threads = opt && opt->threads > 0 ? opt->threads : 0;
    return ctx;
}

/* The warp width NVIDIA devices report through their attribute query
 * extension (cl_nv_device_attribute_query); 0 elsewhere. */
static unsigned nv_warp(cl_device_id d)
{
    size_t len = 0;
    cl_uint w = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &len) != CL_SUCCESS || len == 0)
        return 0;
    char *ext = malloc(len + 1);
    int has = ext && clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, len, ext, NULL) == CL_SUCCESS &&
              (ext[len] = 0, strstr(ext, "cl_nv_device_attribute_query") != NULL);
    free(ext);
    if (!has ||
        clGetDeviceInfo(d, 0x4003 /* CL_DEVICE_WARP_SIZE_NV */, sizeof w, &w, NULL) != CL_SUCCESS)
        return 0;
    return w;
}

static int fill_tuning(clsa_context *ctx, char *err, size_t cap)
{
    clsa_tuning *t = &ctx->tune;
    t->local_mem = ctx->info.local_mem;
    t->max_wg = ctx->info.max_work_group;
    t->compute_units = ctx->info.compute_units;
    t->max_alloc = ctx->info.max_alloc;
    t->global_mem = ctx->info.global_mem;
    t->is_gpu = ctx->info.is_gpu;
    t->host_unified = ctx->info.host_unified_memory;
    t->warp_nv = nv_warp(ctx->device);
    char why[160];
    if (clsa__tuning_init(t, why, sizeof why)) return 1;
    if (err && cap) snprintf(err, cap, "%s", why);
    return 0;
}

static clsa_status finish_device(clsa_context *ctx, cl_platform_id p, cl_device_id d, char *err,
                                 size_t cap)
{
    ctx->platform = p;
    ctx->device = d;
    ctx->has_device = 1;
    const char *call = "clGetDeviceInfo";
    cl_int e = describe(p, d, &ctx->info, &call);
    if (e != CL_SUCCESS) {
        if (err && cap)
            snprintf(err, cap, "%s failed: %s (%d) while reading the limits of '%s'", call,
                     clsa__cl_error_name(e), (int)e, ctx->info.name);
        return CLSA_ERR_OPENCL;
    }
    if (!fill_tuning(ctx, err, cap)) return CLSA_ERR_INVALID_ARG;
    ctx->oclgrind = !strcmp(ctx->info.platform, "Oclgrind");
    return CLSA_OK;
}

static cl_command_queue make_queue(clsa_context *ctx, cl_int *e)
{
    cl_command_queue_properties props = ctx->want_profile ? CL_QUEUE_PROFILING_ENABLE : 0;
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    cl_command_queue q = clCreateCommandQueue(ctx->cl, ctx->device, props, e);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    ctx->profiling = q && ctx->want_profile;
    return q;
}

clsa_status clsa__create_ex(const clsa_options *opt, clsa_context **out, char *err, size_t cap)
{
    char dummy[8];
    if (!err || !cap) {
        err = dummy;
        cap = sizeof dummy;
    }
    err[0] = 0;
    if (!out) {
        snprintf(err, cap, "clsa_create: out is NULL");
        return CLSA_ERR_INVALID_ARG;
    }
    *out = NULL;
    clsa_status st;
    int backend = resolve_backend(opt ? opt->backend : CLSA_BACKEND_DEFAULT, &st);
    if (st) {
        snprintf(err, cap, "bad backend (CLSA_BACKEND must be auto, device or host)");
        return st;
    }
    uint64_t env_limit;
    if (!(opt && opt->mem_limit) && env_mem_limit(&env_limit, err, cap)) return CLSA_ERR_INVALID_ARG;
    if (resolve_algorithm(opt) < 0) {
        snprintf(err, cap, "bad algorithm (0..4; CLSA_ALGORITHM must be auto, doubling, skew, "
                           "hybrid or runlen)");
        return CLSA_ERR_INVALID_ARG;
    }
    clsa_context *ctx = new_context(opt);
    if (!ctx) {
        snprintf(err, cap, "out of host memory");
        return CLSA_ERR_HOST_MEMORY;
    }
    ctx->backend = backend;
    if (backend == CLSA_BACKEND_HOST) {
        *out = ctx;
        return CLSA_OK;
    }
    found_device *d = calloc(MAX_DEVICES, sizeof *d);
    if (!d) {
        clsa__destroy(ctx);
        snprintf(err, cap, "out of host memory");
        return CLSA_ERR_HOST_MEMORY;
    }
    const char *sel = opt && opt->device ? opt->device : getenv("CLSA_DEVICE");
    size_t n = 0;
    long i = choose(d, &n, sel, err, cap);
    if (i < 0) {
        free(d);
        /* AUTO without any device at all still works on the host; a named
         * device that is missing is an error, never a silent substitute. */
        if (n == 0 && backend == CLSA_BACKEND_AUTO && !(sel && *sel)) {
            err[0] = 0;
            *out = ctx;
            return CLSA_OK;
        }
        clsa__destroy(ctx);
        return CLSA_ERR_NO_DEVICE;
    }
    st = finish_device(ctx, d[i].platform, d[i].device, err, cap);
    free(d);
    if (st) {
        clsa__destroy(ctx);
        return st;
    }
    cl_int e;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)ctx->platform,
                                     0};
    ctx->made_cl = 1;
    ctx->creator = pthread_self();
    clsa__lock(ctx); /* on Oclgrind, the process-wide lock (oclgrind.c) */
    ctx->cl = clCreateContext(props, 1, &ctx->device, NULL, NULL, &e);
    if (e == CL_SUCCESS) ctx->queue = make_queue(ctx, &e);
    clsa__unlock(ctx);
    if (e != CL_SUCCESS) {
        snprintf(err, cap, "%s failed: %s (%d) on device '%s'",
                 ctx->cl ? "clCreateCommandQueue" : "clCreateContext", clsa__cl_error_name(e),
                 (int)e, ctx->info.name);
        clsa__destroy(ctx);
        return CLSA_ERR_OPENCL;
    }
    *out = ctx;
    return CLSA_OK;
}

clsa_status clsa__create_with_queue(cl_command_queue queue, const clsa_options *opt,
                                    clsa_context **out)
{
    if (!out) return CLSA_ERR_INVALID_ARG;
    *out = NULL;
    if (!queue || resolve_algorithm(opt) < 0) return CLSA_ERR_INVALID_ARG;
    clsa_context *ctx = new_context(opt);
    if (!ctx) return CLSA_ERR_HOST_MEMORY;
    ctx->backend = CLSA_BACKEND_DEVICE;
    cl_device_id dev;
    cl_context clctx;
    cl_platform_id plat;
    cl_command_queue_properties props = 0;
    if (clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) != CL_SUCCESS ||
        clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof clctx, &clctx, NULL) !=
            CL_SUCCESS ||
        clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL) !=
            CL_SUCCESS ||
        clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL) != CL_SUCCESS) {
        clsa__destroy(ctx);
        return CLSA_ERR_INVALID_ARG;
    }
    if (finish_device(ctx, plat, dev, NULL, 0) != CLSA_OK) {
        clsa__destroy(ctx);
        return CLSA_ERR_OPENCL;
    }
    clRetainContext(clctx);
    clRetainCommandQueue(queue);
    ctx->cl = clctx;
    ctx->queue = queue;
    ctx->profiling = (props & CL_QUEUE_PROFILING_ENABLE) != 0;
    *out = ctx;
    return CLSA_OK;
}

void clsa__trim(clsa_context *ctx)
{
    clsa__lock(ctx);
    clsa__pool_drain(ctx, 1);
    clsa__unlock(ctx);
}

void clsa__destroy(clsa_context *ctx)
{
    clsa__lock(ctx); /* on Oclgrind, the process-wide lock too (oclgrind.c) */
    if (ctx->queue) clFinish(ctx->queue);
    clsa__profile_drain(ctx);
    clsa__free(ctx, &ctx->scan_state);
    clsa__pool_drain(ctx, 2);
    clsa__host_free_all(ctx);
    release_cl(ctx);
    clsa__unlock(ctx);
    free(ctx->pending);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx->live);
    free(ctx);
}

clsa_status clsa__need_device(clsa_context *ctx)
{
    if (!ctx) return CLSA_ERR_INVALID_ARG;
    if (!ctx->has_device)
        return clsa__fail(ctx, CLSA_ERR_NO_DEVICE,
                          ctx->backend == CLSA_BACKEND_HOST
                              ? "this operation needs an OpenCL device, but the context was "
                                "created with the host backend"
                              : "this operation needs an OpenCL device, and none was found");
    if (ctx->lost)
        return clsa__fail(ctx, CLSA_ERR_DEVICE_LOST,
                          "the device faulted in an earlier call and this context's OpenCL "
                          "context is lost: %s",
                          ctx->made_cl ? "free the clsa_host_alloc arrays or make a new clsa "
                                         "context"
                                       : "make the application's OpenCL context, queue and "
                                         "clsa context again");
    return CLSA_OK;
}

int clsa__use_device(clsa_context *ctx, uint64_t n)
{
    if (!ctx || !ctx->has_device || ctx->backend == CLSA_BACKEND_HOST) return 0;
    if (ctx->lost) return ctx->backend == CLSA_BACKEND_DEVICE; /* then need_device says why */
    if (ctx->backend == CLSA_BACKEND_DEVICE) return 1;
    return n >= ctx->tune.host_threshold;
}

void clsa__lock(clsa_context *ctx)
{
    if (!ctx) return;
    pthread_mutex_lock(&ctx->lock);
    if (ctx->oclgrind) clsa__oclgrind_enter(ctx);
    clsa__progress_begin(ctx);
}

static void release_kernels(clsa_context *ctx)
{
    for (int i = 0; i < ctx->nkernels; i++)
        if (ctx->kernels[i].kernel) clReleaseKernel(ctx->kernels[i].kernel);
    ctx->nkernels = 0;
}

static void release_programs(clsa_context *ctx)
{
    for (int i = 0; i < ctx->nprograms; i++) {
        if (ctx->programs[i].program) clReleaseProgram(ctx->programs[i].program);
        free(ctx->programs[i].pending_save);
        free(ctx->programs[i].cached_from);
    }
    memset(ctx->programs, 0, sizeof ctx->programs);
    ctx->nprograms = 0;
}

/* The OpenCL objects of the context: kernels, programs, queues, context. */
static void release_cl(clsa_context *ctx)
{
    release_kernels(ctx);
    clsa__copy_queues_release(ctx);
    clsa__stage_release(ctx);
    release_programs(ctx);
    if (ctx->oclgrind) clsa__oclgrind_released_here(ctx);
    if (ctx->queue) clReleaseCommandQueue(ctx->queue);
    if (ctx->cl) clReleaseContext(ctx->cl);
    ctx->queue = NULL;
    ctx->cl = NULL;
}

/* A new OpenCL context and queue on the same device after a fault, with
 * everything of the lost one released (programs come back from the cache
 * when next used).  Only where clsa made the context, and not while
 * clsa_host_alloc arrays live in the old one: the context stays lost. */
static void recover(clsa_context *ctx)
{
    if (!ctx->made_cl || ctx->npinned || !ctx->cl) return; /* !cl: clsa_destroy */
    clsa__pool_drain(ctx, 2);
    release_cl(ctx);
    cl_int e;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)ctx->platform,
                                     0};
    ctx->cl = clCreateContext(props, 1, &ctx->device, NULL, NULL, &e);
    if (e == CL_SUCCESS) ctx->queue = make_queue(ctx, &e);
    ctx->lost = e != CL_SUCCESS;
    size_t l = strlen(ctx->message);
    if (ctx->lost)
        snprintf(ctx->message + l, sizeof ctx->message - l,
                 "; a new OpenCL context failed too: %s (%d)", clsa__cl_error_name(e), (int)e);
    else
        snprintf(ctx->message + l, sizeof ctx->message - l, "; clsa made a new one");
}

void clsa__unlock(clsa_context *ctx)
{
    if (!ctx) return;
    clsa__profile_drain(ctx);
    clsa__free(ctx, &ctx->scan_state); /* scan.c: its state lives for one call */
    ctx->calls++;
    if (ctx->lost) recover(ctx);
    clsa__pool_drain(ctx, ctx->pool_suspect);
    if (ctx->pool_suspect) ctx->high_water = ctx->stats.current_device_bytes;
    ctx->pool_suspect = 0;
    if (ctx->oclgrind) clsa__oclgrind_leave(ctx);
    pthread_mutex_unlock(&ctx->lock);
}
