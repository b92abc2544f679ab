/* The CUDA anchors of clsa-bench behind the C interface of anchors.h:
 * libcubwt 1.0.0 (libcubwt_sa), libcubwt 1.6.3 (libcubwt_bwt) and
 * cub::DeviceRadixSort::SortPairs.  Built only with -DCLSA_BENCH_CUDA=ON;
 * the libcubwt sources are unpacked and patched in the build folder
 * (anchors.cmake), their exported names prefixed cubwt100_ / cubwt163_. */
#include "anchors.h"

#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
int64_t cubwt100_allocate_device_storage(void **storage, int64_t max_length);
int64_t cubwt100_free_device_storage(void *storage);
int64_t cubwt100_sa(void *storage, const uint8_t *T, uint32_t *SA, int64_t n);
int64_t cubwt163_allocate_device_storage(void **storage, int64_t max_length);
int64_t cubwt163_free_device_storage(void *storage);
int64_t cubwt163_bwt(void *storage, const uint8_t *T, uint8_t *L, int64_t n);
}

struct anchor {
    anchor_kind kind;
    int64_t n;
    int device;
    void *storage;                 /* libcubwt */
    uint32_t *keys[2], *vals[2];   /* CUB: double buffers */
    uint32_t *pkeys, *pvals;       /* CUB: pristine device copy of the input */
    void *temp;                    /* CUB: temporary storage */
    size_t temp_bytes;
    int selector;                  /* CUB: which buffer holds the last result */
    uint8_t *mtext;                /* libcubwt on device: managed input */
    void *mout;                    /* ... and output (SA or BWT) */
    int64_t primary;               /* BWT primary index of the last device run */
    uint64_t bytes, dev_bytes;
    double create_s;
    char describe[256];
    char error[512];
};

static double now_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

static clsa_status fail(anchor *a, clsa_status st, const char *what, const char *detail)
{
    snprintf(a->error, sizeof a->error, "%s: %s", what, detail);
    return st;
}

/* CUDA errors: memory ones are CLSA_ERR_DEVICE_MEMORY, the rest CLSA_ERR_OPENCL
 * (the status set is OpenCL's; the message says CUDA). */
static clsa_status cu(anchor *a, cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return CLSA_OK;
    cudaGetLastError(); /* clear a sticky-free error so later calls are not blamed */
    char d[300];
    snprintf(d, sizeof d, "CUDA %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
    clsa_status st = e == cudaErrorMemoryAllocation ? CLSA_ERR_DEVICE_MEMORY
                     : e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver
                         ? CLSA_ERR_NO_DEVICE
                         : CLSA_ERR_OPENCL;
    return fail(a, st, what, d);
}

/* libcubwt's return codes (libcubwt.cuh). */
static clsa_status cubwt(anchor *a, int64_t rc, const char *what)
{
    if (rc >= 0) return CLSA_OK;
    switch (rc) {
    case -1: return fail(a, CLSA_ERR_INVALID_ARG, what, "LIBCUBWT_BAD_PARAMETER");
    case -2: return fail(a, CLSA_ERR_HOST_MEMORY, what, "LIBCUBWT_NOT_ENOUGH_MEMORY");
    case -9: return fail(a, CLSA_ERR_DEVICE_MEMORY, what, "LIBCUBWT_GPU_NOT_ENOUGH_MEMORY");
    case -8: return fail(a, CLSA_ERR_UNSUPPORTED, what, "LIBCUBWT_GPU_NOT_SUPPORTED");
    default: return fail(a, CLSA_ERR_OPENCL, what, "LIBCUBWT_GPU_ERROR");
    }
}

static uint64_t free_bytes()
{
    size_t f = 0, t = 0;
    cudaMemGetInfo(&f, &t);
    return f;
}

extern "C" int anchors_built(void)
{
    return 1;
}

extern "C" const char *anchor_error(const anchor *a)
{
    return a ? a->error : "no memory for the anchor";
}

extern "C" const char *anchor_describe(const anchor *a)
{
    return a ? a->describe : "";
}

extern "C" uint64_t anchor_bytes(const anchor *a)
{
    return a->bytes;
}

extern "C" uint64_t anchor_dev_bytes(const anchor *a)
{
    return a->dev_bytes;
}

extern "C" double anchor_create_seconds(const anchor *a)
{
    return a->create_s;
}

static clsa_status radix_alloc(anchor *a)
{
    size_t n = (size_t)a->n;
    clsa_status st = CLSA_OK;
    for (int i = 0; i < 2 && !st; i++) {
        st = cu(a, cudaMalloc(&a->keys[i], n * 4 + 4), "cudaMalloc keys");
        if (!st) st = cu(a, cudaMalloc(&a->vals[i], n * 4 + 4), "cudaMalloc values");
    }
    if (st) return st;
    cub::DoubleBuffer<uint32_t> k(a->keys[0], a->keys[1]), v(a->vals[0], a->vals[1]);
    st = cu(a, cub::DeviceRadixSort::SortPairs(nullptr, a->temp_bytes, k, v, (int)a->n, 0, 32),
              "SortPairs (size query)");
    if (!st) st = cu(a, cudaMalloc(&a->temp, a->temp_bytes + 1), "cudaMalloc temp storage");
    return st;
}

extern "C" clsa_status anchor_create(anchor **out, anchor_kind kind, int64_t n)
{
    anchor *a = (anchor *)calloc(1, sizeof *a);
    *out = a;
    if (!a) return CLSA_ERR_HOST_MEMORY;
    a->kind = kind;
    a->n = n;
    if (n < 16 || n >= (int64_t)UINT32_MAX - (1 << 20) || (kind == ANCHOR_RADIX && n > INT32_MAX))
        return fail(a, CLSA_ERR_INVALID_ARG, "size", "libcubwt takes 16 <= n < 2^32, CUB here n < 2^31");
    clsa_status st = cu(a, cudaSetDevice(0), "cudaSetDevice");
    if (!st) st = cu(a, cudaFree(nullptr), "CUDA context"); /* created outside the timings */
    if (st) return st;
    cudaDeviceProp p;
    int rt = 0;
    cudaGetDevice(&a->device);
    cudaGetDeviceProperties(&p, a->device);
    cudaRuntimeGetVersion(&rt);
    snprintf(a->describe, sizeof a->describe, "%s (CUDA %d.%d, %.100s)",
             kind == ANCHOR_SA ? "libcubwt 1.0.0 libcubwt_sa"
             : kind == ANCHOR_BWT ? "libcubwt 1.6.3 libcubwt_bwt"
                                  : "CUB DeviceRadixSort::SortPairs (DoubleBuffer)",
             rt / 1000, rt % 1000 / 10, p.name);
    uint64_t before = free_bytes();
    double t0 = now_s();
    if (kind == ANCHOR_SA)
        st = cubwt(a, cubwt100_allocate_device_storage(&a->storage, n), "libcubwt_allocate_device_storage");
    else if (kind == ANCHOR_BWT)
        st = cubwt(a, cubwt163_allocate_device_storage(&a->storage, n), "libcubwt_allocate_device_storage");
    else st = radix_alloc(a);
    a->create_s = now_s() - t0;
    uint64_t after = free_bytes();
    a->bytes = before > after ? before - after : 0;
    return st;
}

extern "C" void anchor_free(anchor *a)
{
    if (!a) return;
    if (a->storage && a->kind == ANCHOR_SA) cubwt100_free_device_storage(a->storage);
    if (a->storage && a->kind == ANCHOR_BWT) cubwt163_free_device_storage(a->storage);
    for (int i = 0; i < 2; i++) {
        cudaFree(a->keys[i]);
        cudaFree(a->vals[i]);
    }
    cudaFree(a->pkeys);
    cudaFree(a->pvals);
    cudaFree(a->temp);
    cudaFree(a->mtext);
    cudaFree(a->mout);
    free(a);
}

extern "C" clsa_status anchor_sa_host(anchor *a, const uint8_t *text, uint32_t *sa, int64_t n)
{
    return cubwt(a, cubwt100_sa(a->storage, text, sa, n), "libcubwt_sa");
}

extern "C" clsa_status anchor_bwt_host(anchor *a, const uint8_t *text, uint8_t *bwt, int64_t n,
                                       int64_t *primary)
{
    int64_t rc = cubwt163_bwt(a->storage, text, bwt, n);
    *primary = rc;
    return cubwt(a, rc, "libcubwt_bwt");
}

/* Sorts keys[0]/vals[0] of the first n pairs; the result is in keys/vals[selector]. */
static clsa_status radix_sort(anchor *a, int64_t n)
{
    cub::DoubleBuffer<uint32_t> k(a->keys[0], a->keys[1]), v(a->vals[0], a->vals[1]);
    clsa_status st = cu(a, cub::DeviceRadixSort::SortPairs(a->temp, a->temp_bytes, k, v, (int)n, 0, 32),
                          "SortPairs");
    if (!st) st = cu(a, cudaDeviceSynchronize(), "SortPairs (synchronize)");
    a->selector = k.selector;
    if (!st && k.selector != v.selector) st = fail(a, CLSA_ERR_OPENCL, "SortPairs", "keys and values ended in different buffers");
    return st;
}

extern "C" clsa_status anchor_radix_host(anchor *a, uint32_t *keys, uint32_t *values, int64_t n)
{
    size_t b = (size_t)n * 4;
    clsa_status st = cu(a, cudaMemcpy(a->keys[0], keys, b, cudaMemcpyHostToDevice), "keys in");
    if (!st) st = cu(a, cudaMemcpy(a->vals[0], values, b, cudaMemcpyHostToDevice), "values in");
    if (!st) st = radix_sort(a, n);
    if (!st) st = cu(a, cudaMemcpy(keys, a->keys[a->selector], b, cudaMemcpyDeviceToHost), "keys out");
    if (!st) st = cu(a, cudaMemcpy(values, a->vals[a->selector], b, cudaMemcpyDeviceToHost), "values out");
    return st;
}

static clsa_status prefetch(anchor *a, const void *p, size_t bytes)
{
#if CUDART_VERSION >= 13000
    cudaMemLocation loc = {};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = a->device;
    return cu(a, cudaMemPrefetchAsync(p, bytes, loc, 0, 0), "cudaMemPrefetchAsync");
#else
    return cu(a, cudaMemPrefetchAsync(p, bytes, a->device, 0), "cudaMemPrefetchAsync");
#endif
}

extern "C" clsa_status anchor_dev_load(anchor *a, const void *in, const void *in2)
{
    size_t n = (size_t)a->n;
    uint64_t before = free_bytes();
    clsa_status st = CLSA_OK;
    if (a->kind == ANCHOR_RADIX) {
        st = cu(a, cudaMalloc(&a->pkeys, n * 4 + 4), "cudaMalloc pristine keys");
        if (!st) st = cu(a, cudaMalloc(&a->pvals, n * 4 + 4), "cudaMalloc pristine values");
        if (!st) st = cu(a, cudaMemcpy(a->pkeys, in, n * 4, cudaMemcpyHostToDevice), "keys in");
        if (!st) st = cu(a, cudaMemcpy(a->pvals, in2, n * 4, cudaMemcpyHostToDevice), "values in");
    } else {
        int concurrent = 0;
        cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, a->device);
        if (!concurrent)
            return fail(a, CLSA_ERR_UNSUPPORTED, "on device",
                        "no concurrent managed access on this device: libcubwt reads the text "
                        "through the host pointer, so it cannot take device memory");
        size_t out = a->kind == ANCHOR_SA ? n * 4 : n;
        st = cu(a, cudaMallocManaged(&a->mtext, n + 16), "cudaMallocManaged text");
        if (!st) st = cu(a, cudaMallocManaged(&a->mout, out + 16), "cudaMallocManaged output");
        if (!st) memcpy(a->mtext, in, n);
    }
    if (!st) st = anchor_dev_prepare(a);
    uint64_t after = free_bytes();
    a->dev_bytes = before > after ? before - after : 0;
    return st;
}

extern "C" clsa_status anchor_dev_prepare(anchor *a)
{
    size_t n = (size_t)a->n;
    clsa_status st;
    if (a->kind == ANCHOR_RADIX) {
        st = cu(a, cudaMemcpy(a->keys[0], a->pkeys, n * 4, cudaMemcpyDeviceToDevice), "restore keys");
        if (!st) st = cu(a, cudaMemcpy(a->vals[0], a->pvals, n * 4, cudaMemcpyDeviceToDevice), "restore values");
    } else {
        st = prefetch(a, a->mtext, n);
        if (!st) st = prefetch(a, a->mout, a->kind == ANCHOR_SA ? n * 4 : n);
    }
    if (!st) st = cu(a, cudaDeviceSynchronize(), "prepare (synchronize)");
    return st;
}

extern "C" clsa_status anchor_dev_run(anchor *a)
{
    switch (a->kind) {
    case ANCHOR_SA: return anchor_sa_host(a, a->mtext, (uint32_t *)a->mout, a->n);
    case ANCHOR_BWT: return anchor_bwt_host(a, a->mtext, (uint8_t *)a->mout, a->n, &a->primary);
    default: return radix_sort(a, a->n);
    }
}

extern "C" clsa_status anchor_dev_result(anchor *a, void *out, void *out2, int64_t *primary)
{
    size_t n = (size_t)a->n;
    clsa_status st = cu(a, cudaDeviceSynchronize(), "result (synchronize)");
    if (st) return st;
    if (a->kind == ANCHOR_RADIX) {
        st = cu(a, cudaMemcpy(out, a->keys[a->selector], n * 4, cudaMemcpyDeviceToHost), "keys out");
        if (!st) st = cu(a, cudaMemcpy(out2, a->vals[a->selector], n * 4, cudaMemcpyDeviceToHost), "values out");
        return st;
    }
    memcpy(out, a->mout, a->kind == ANCHOR_SA ? n * 4 : n);
    if (primary) *primary = a->primary;
    return CLSA_OK;
}

extern "C" double anchor_copy_seconds(anchor *a, uint64_t bytes, int reps)
{
    void *src = nullptr, *dst = nullptr;
    double best = -1;
    if (cudaMalloc(&src, bytes) == cudaSuccess && cudaMalloc(&dst, bytes) == cudaSuccess) {
        for (int r = 0; r < reps; r++) {
            double t0 = now_s();
            if (cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice) != cudaSuccess ||
                cudaDeviceSynchronize() != cudaSuccess)
                break;
            double t = now_s() - t0;
            if (best < 0 || t < best) best = t;
        }
    }
    cudaGetLastError();
    cudaFree(src);
    cudaFree(dst);
    (void)a;
    return best;
}
