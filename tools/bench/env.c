/* The benchmark's own OpenCL context and queues on the device clsa would
 * pick, so that buffers can be made with plain OpenCL calls and handed to
 * the cl_mem entry points (and clEnqueueCopyBuffer timed beside them). */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

/* Index (in clsa_list_devices order) of the device clsa_create would pick. */
static long default_index(const bench_cfg *cfg, clsa_device_info *infos, size_t cap, size_t *n)
{
    if (cfg->device && setenv("CLSA_DEVICE", cfg->device, 1) != 0) return -1;
    if (clsa_list_devices(infos, cap, n) != CLSA_OK) return -1;
    for (size_t i = 0; i < *n && i < cap; i++)
        if (infos[i].is_default) return (long)i;
    return -1;
}

/* The same walk as the library: platforms in order, all device types. */
static int nth_device(long want, cl_platform_id *plat, cl_device_id *dev)
{
    cl_platform_id plats[MAX_PLATFORMS];
    cl_uint np = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, plats, &np) != CL_SUCCESS) return -1;
    if (np > MAX_PLATFORMS) np = MAX_PLATFORMS;
    long seen = 0;
    for (cl_uint p = 0; p < np; p++) {
        cl_device_id devs[MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd) != CL_SUCCESS)
            continue;
        if (nd > MAX_DEVICES) nd = MAX_DEVICES;
        for (cl_uint d = 0; d < nd; d++, seen++)
            if (seen == want) {
                *plat = plats[p];
                *dev = devs[d];
                return 0;
            }
    }
    return -1;
}

static int adopt(bench_env *env, const bench_cfg *cfg, cl_command_queue q, int profile,
                 clsa_context **out, char *err, size_t cap)
{
    clsa_options opt;
    clsa_options_init(&opt);
    opt.backend = cfg->backend;
    opt.profile = profile;
    (void)env;
    clsa_status st = clsa_create_with_queue(q, &opt, out);
    if (st) snprintf(err, cap, "clsa_create_with_queue: %s", clsa_status_string(st));
    return st ? -1 : 0;
}

int env_open(bench_env *env, const bench_cfg *cfg, char *err, size_t cap)
{
    memset(env, 0, sizeof *env);
    clsa_device_info *infos = calloc(MAX_DEVICES, sizeof *infos);
    size_t n = 0;
    long idx = infos ? default_index(cfg, infos, MAX_DEVICES, &n) : -1;
    if (idx < 0 || nth_device(idx, &env->platform, &env->device) != 0) {
        snprintf(err, cap, "no OpenCL device matches '%s' (%zu devices seen)",
                 cfg->device ? cfg->device : "(default)", n);
        free(infos);
        return -1;
    }
    env->info = infos[idx];
    free(infos);
    cl_int e = CL_SUCCESS;
    env->cl = clCreateContext(NULL, 1, &env->device, NULL, NULL, &e);
    if (e != CL_SUCCESS) {
        snprintf(err, cap, "clCreateContext failed (%d)", (int)e);
        return -1;
    }
    env->queue = clCreateCommandQueue(env->cl, env->device, 0, &e);
    if (e == CL_SUCCESS)
        env->pqueue = clCreateCommandQueue(env->cl, env->device, CL_QUEUE_PROFILING_ENABLE, &e);
    if (e != CL_SUCCESS) {
        snprintf(err, cap, "clCreateCommandQueue failed (%d)", (int)e);
        return -1;
    }
    if (adopt(env, cfg, env->queue, 0, &env->ctx, err, cap)) return -1;
    if (adopt(env, cfg, env->pqueue, 1, &env->pctx, err, cap)) return -1;
    return 0;
}

void env_close(bench_env *env)
{
    clsa_destroy(env->ctx);
    clsa_destroy(env->pctx);
    if (env->queue) clReleaseCommandQueue(env->queue);
    if (env->pqueue) clReleaseCommandQueue(env->pqueue);
    if (env->cl) clReleaseContext(env->cl);
    memset(env, 0, sizeof *env);
}

/* Pieces of every buffer write and read here: NVIDIA's clEnqueueFillBuffer
 * faults (-9999, the context lost) once a fill reaches past 2^31 bytes,
 * so zeroing is a write from a zeroed host block, never a fill. */
#define ENV_PIECE ((size_t)64 << 20)

static clsa_status env_error(cl_int e)
{
    return (e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_RESOURCES ||
            e == CL_INVALID_BUFFER_SIZE)
               ? CLSA_ERR_DEVICE_MEMORY
               : CLSA_ERR_OPENCL;
}

/* bytes of m from init, or zeros where init is NULL, in pieces. */
static cl_int env_write(bench_env *env, cl_mem m, size_t bytes, const void *init)
{
    void *zero = init ? NULL : calloc(1, bytes < ENV_PIECE ? bytes : ENV_PIECE);
    if (!init && !zero) return CL_OUT_OF_HOST_MEMORY;
    cl_int e = CL_SUCCESS;
    for (size_t done = 0; e == CL_SUCCESS && done < bytes; done += ENV_PIECE) {
        size_t part = bytes - done < ENV_PIECE ? bytes - done : ENV_PIECE;
        e = clEnqueueWriteBuffer(env->queue, m, CL_TRUE, done, part,
                                 init ? (const char *)init + done : zero, 0, NULL, NULL);
    }
    free(zero);
    return e;
}

cl_mem env_buffer(bench_env *env, size_t bytes, const void *init, clsa_status *st)
{
    cl_int e = CL_SUCCESS;
    *st = CLSA_OK;
    if (bytes > env->info.max_alloc || bytes > env->info.global_mem) {
        *st = CLSA_ERR_DEVICE_MEMORY;
        return NULL;
    }
    cl_mem m = clCreateBuffer(env->cl, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &e);
    /* written whole (zeros without init) so lazy allocators fail here, not
     * inside a timed call */
    if (e == CL_SUCCESS) e = env_write(env, m, bytes, init);
    if (e == CL_SUCCESS) e = clFinish(env->queue);
    if (e != CL_SUCCESS) {
        *st = env_error(e);
        if (m) clReleaseMemObject(m);
        return NULL;
    }
    return m;
}

int env_same(bench_env *env, cl_mem m, const void *host, size_t bytes, clsa_status *st)
{
    char *buf = malloc(bytes < ENV_PIECE ? (bytes ? bytes : 1) : ENV_PIECE);
    int same = buf != NULL;
    *st = buf ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    for (size_t done = 0; same && done < bytes; done += ENV_PIECE) {
        size_t part = bytes - done < ENV_PIECE ? bytes - done : ENV_PIECE;
        cl_int e = clEnqueueReadBuffer(env->queue, m, CL_TRUE, done, part, buf, 0, NULL, NULL);
        if (e != CL_SUCCESS) *st = env_error(e);
        same = e == CL_SUCCESS && !memcmp(buf, (const char *)host + done, part);
    }
    free(buf);
    return same;
}

clsa_status env_finish(bench_env *env)
{
    return clFinish(env->queue) == CL_SUCCESS ? CLSA_OK : CLSA_ERR_OPENCL;
}

typedef struct copy_arg {
    bench_env *env;
    const cl_mem *src, *dst;
    const size_t *bytes;
    int k;
} copy_arg;

static clsa_status copy_once(void *p)
{
    copy_arg *c = p;
    for (int i = 0; i < c->k; i++)
        if (clEnqueueCopyBuffer(c->env->queue, c->src[i], c->dst[i], 0, 0, c->bytes[i], 0, NULL,
                                NULL) != CL_SUCCESS)
            return CLSA_ERR_OPENCL;
    return env_finish(c->env);
}

clsa_status env_copy(bench_env *env, const cl_mem *src, const cl_mem *dst, const size_t *bytes,
                     int k)
{
    copy_arg c = {env, src, dst, bytes, k};
    return copy_once(&c);
}

double env_copy_seconds(bench_env *env, const cl_mem *src, const cl_mem *dst,
                        const size_t *bytes, int k, int reps, clsa_status *st)
{
    copy_arg c = {env, src, dst, bytes, k};
    double tmin = 0, tmed = 0;
    int count = 0;
    bench_cfg cfg = {0};
    cfg.reps = reps;
    cfg.row_budget_s = 10;
    *st = copy_once(&c); /* warm-up */
    if (*st == CLSA_OK) *st = bench_repeat(&cfg, NULL, copy_once, &c, &tmin, &tmed, &count);
    return *st ? 0 : tmin;
}
