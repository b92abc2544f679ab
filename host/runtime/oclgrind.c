/* What the Oclgrind simulator needs so that its checks (run_impl.sh:
 * --data-races --uninitialized --check-api) judge our code and not its own
 * limits.  Each is a fault of Oclgrind 21.10 that its sources still have at
 * 26.03 (src/core/KernelInvocation.cpp, src/core/Memory.cpp,
 * src/plugins/Uninitialized.cpp), and each costs nothing on any other
 * platform: ctx->oclgrind is set only when the platform is named "Oclgrind".
 *
 * 1. Kernels run through process-wide state: the next work-group's index is
 *    one static counter, reset by every launch, so two kernels of two
 *    contexts at once lose or repeat work-groups (wrong results, or a crash
 *    inside the simulator).  Calls on its contexts are serialised across the
 *    process, inside the context's own lock (never the other order).
 * 2. The uninitialised-value tracker keeps its scratch pool per host thread,
 *    made when a context is created on that thread and freed when as many
 *    contexts have been released on that thread.  A host write (or copy, or
 *    map) runs on the thread that waits for it, and from a thread without a
 *    pool it crashes.  A call on a thread other than the one that made the
 *    context holds a simulator context of its own for the call's length.
 *    Releasing a context on a thread that did not make it (or the caller's
 *    own, clsa_create_with_queue) counts against that thread's pool, so one
 *    more is made there and never released (one simulator context per such
 *    clsa_destroy; released at thread exit, it would meet the simulator's
 *    C++ thread-locals already gone: a crash).
 * 3. A released buffer's slot goes to the next buffer, and the tracker keeps
 *    the released buffer's shadow there: the new buffer inherits its size and
 *    state, so stores past the old size are lost and read back as never
 *    written (on a context that has run a call before; a new context has no
 *    old shadows).  A host write replaces a slot's shadow by one of the
 *    write's size; one of zero bytes leaves none in force, so the first
 *    kernel that uses the buffer gives it a fresh, all-unwritten shadow of its
 *    size, as for a slot never used.
 * 4. A buffer over the caller's memory (CL_MEM_USE_HOST_PTR, zero copy) holds
 *    the caller's values, but the tracker records nothing for it, so the
 *    first kernel finds it all unwritten.  A map for writing records it as
 *    written, as the OpenCL semantics of such a buffer have it.
 * 5. For the same reason as 3., a host write or copy of part of a buffer leaves a
 *    shadow of the part's size at the buffer's start: later stores past it
 *    are lost, later reads there reported (psi[n] after the radix sort's
 *    final copy of n keys into n + 1).  Copies run as a kernel (copy_u8 /
 *    copy_u32 in buffer.cl: values and their state move one by one) and a
 *    write of part of a buffer goes through a staging buffer of its exact
 *    size, written whole, then such a kernel. */
#include "arith.h"
#include "context.h"
#include "launch.h"
#include "oclgrind.h"
#include "program.h"

static pthread_mutex_t process_lock = PTHREAD_MUTEX_INITIALIZER;

/* A simulator context of our own on this thread: its tracker pool exists
 * while it lives (failure only leaves the simulator's own behaviour). */
static cl_context hold(clsa_context *ctx)
{
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &ctx->device, NULL, NULL, &err);
    return err == CL_SUCCESS ? c : NULL;
}

/* Whether this thread made the context's OpenCL context (unknown for the
 * caller's own: clsa_create_with_queue). */
static int made_here(const clsa_context *ctx)
{
    return ctx->made_cl && pthread_equal(ctx->creator, pthread_self());
}

void clsa__oclgrind_enter(clsa_context *ctx)
{
    pthread_mutex_lock(&process_lock);
    ctx->oclgrind_hold = made_here(ctx) ? NULL : hold(ctx);
}

void clsa__oclgrind_leave(clsa_context *ctx)
{
    if (ctx->oclgrind_hold) clReleaseContext(ctx->oclgrind_hold);
    ctx->oclgrind_hold = NULL;
    pthread_mutex_unlock(&process_lock);
}

void clsa__oclgrind_released_here(clsa_context *ctx)
{
    if (!made_here(ctx)) (void)hold(ctx); /* never released: see 2. */
}

cl_int clsa__oclgrind_new_buffer(clsa_context *ctx, cl_mem m)
{
    static const unsigned char none = 0;
    return clEnqueueWriteBuffer(ctx->queue, m, CL_FALSE, 0, 0, &none, 0, NULL, NULL);
}

/* A copy kernel's launch: not counted in the statistics (it stands for a
 * copy command, which other platforms run). */
cl_int clsa__oclgrind_copy(clsa_context *ctx, cl_mem src, size_t soff, cl_mem dst, size_t doff,
                           size_t bytes)
{
    if (bytes == 0) return CL_SUCCESS;
    int words = soff % 4 == 0 && doff % 4 == 0 && bytes % 4 == 0;
    const char *name = words ? "copy_u32" : "copy_u8";
    size_t unit = words ? 4 : 1;
    cl_kernel k;
    if (clsa__kernel(ctx, "buffer", 0, NULL, name, &k) != CLSA_OK) return CL_INVALID_KERNEL;
    cl_ulong s = soff / unit, d = doff / unit, n = bytes / unit;
    cl_int err;
    if ((err = clSetKernelArg(k, 0, sizeof src, &src)) || (err = clSetKernelArg(k, 1, sizeof s, &s)) ||
        (err = clSetKernelArg(k, 2, sizeof dst, &dst)) || (err = clSetKernelArg(k, 3, sizeof d, &d)) ||
        (err = clSetKernelArg(k, 4, sizeof n, &n)))
        return err;
    size_t local = ctx->tune.wg, global = clsa__round_up((size_t)n, local);
    clsa__log_launch(ctx, k);
    return clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
}

/* clsa__write of part of dst: staged (5.). */
cl_int clsa__oclgrind_write(clsa_context *ctx, cl_mem dst, size_t off, const void *src,
                            size_t bytes)
{
    cl_int err;
    cl_mem stage = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS) return err;
    err = clEnqueueWriteBuffer(ctx->queue, stage, CL_TRUE, 0, bytes, src, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clsa__oclgrind_copy(ctx, stage, 0, dst, off, bytes);
    if (err == CL_SUCCESS) err = clFinish(ctx->queue);
    clReleaseMemObject(stage);
    return err;
}

/* A buffer over the caller's memory: recorded as written (4.). */
cl_int clsa__oclgrind_host_buffer(clsa_context *ctx, cl_mem m, size_t bytes)
{
    cl_int err;
    void *p = clEnqueueMapBuffer(ctx->queue, m, CL_TRUE, CL_MAP_WRITE, 0, bytes, 0, NULL, NULL,
                                 &err);
    if (err != CL_SUCCESS) return err;
    if ((err = clEnqueueUnmapMemObject(ctx->queue, m, p, 0, NULL, NULL)) != CL_SUCCESS) return err;
    return clFinish(ctx->queue);
}
