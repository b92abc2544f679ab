/* Link-time OpenCL fault injector (see fault_inject.h).  Every __wrap_f
 * counts the call, fails it if it is the armed one, else calls __real_f
 * (the driver's f through the ICD loader) and tracks the objects it makes.
 *
 * The list of wrapped names must match FI_WRAPPED in tests/CMakeLists.txt;
 * tests/fault_inject_check.sh fails when the library calls an OpenCL entry
 * point that is not in it. */
#include "fault_inject.h"

#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#endif

static unsigned long calls, armed;
static const char *failed_name;
static int failed_code;
/* fi_device_fault: the armed call fails with fault_first, then every call
 * with fault_after while poisoned (until a new context). */
static int fault_first, fault_after, poisoned;
static long live[FI_KIND_COUNT];
static int tracing = -1;

#define FI_MAX_NAMES 64
static const char *names[FI_MAX_NAMES];
static unsigned long name_count[FI_MAX_NAMES];
static unsigned nnames;

/* Name and call-stack signature of every call since fi_reset. */
static const char **log_names;
static void **log_frames; /* FI_MAX_DEPTH per call */
static unsigned long log_cap;

void fi_reset(void)
{
    calls = 0;
    armed = 0;
    fault_first = fault_after = poisoned = 0;
    failed_name = NULL;
    failed_code = 0;
    for (unsigned i = 0; i < nnames; i++) name_count[i] = 0;
    nnames = 0;
}

const char *fi_name_at(unsigned long i)
{
    return i >= 1 && i <= calls && i <= log_cap ? log_names[i - 1] : NULL;
}

/* Hash of the return addresses of the `depth` innermost frames from the
 * wrapper on: the same call reached through the same path (a loop's later
 * iterations) gets the same value, another caller a different one. */
uint64_t fi_site_at(unsigned long i, int depth)
{
    if (i < 1 || i > calls || i > log_cap) return 0;
    if (depth > FI_MAX_DEPTH) depth = FI_MAX_DEPTH;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int k = 0; k < depth; k++) {
        h ^= (uint64_t)(uintptr_t)log_frames[(i - 1) * FI_MAX_DEPTH + k];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Records the innermost frames above hit(): the wrapper, then the library. */
static __attribute__((noinline)) void record_frames(void **out)
{
    void *frames[FI_MAX_DEPTH + 2];
    int n = backtrace(frames, FI_MAX_DEPTH + 2);
    for (int k = 0; k < FI_MAX_DEPTH; k++) out[k] = k + 2 < n ? frames[k + 2] : NULL;
}

void fi_arm(unsigned long n)
{
    armed = n ? calls + n : 0;
    failed_name = NULL;
    failed_code = 0;
    fault_first = fault_after = poisoned = 0;
}

void fi_device_fault(unsigned long n, int first, int after)
{
    fi_arm(n);
    fault_first = first;
    fault_after = after;
}

/* Calls about platforms and devices, which a lost context leaves working. */
static int device_level(const char *name)
{
    return !strcmp(name, "clGetPlatformIDs") || !strcmp(name, "clGetPlatformInfo") ||
           !strcmp(name, "clGetDeviceIDs") || !strcmp(name, "clGetDeviceInfo");
}

unsigned long fi_calls(void) { return calls; }
const char *fi_failed_call(void) { return failed_name; }
int fi_failed_code(void) { return failed_code; }
long fi_live(fi_kind k) { return k < FI_KIND_COUNT ? live[k] : 0; }
void fi_trace(int on) { tracing = on; }

const char *fi_kind_name(fi_kind k)
{
    static const char *n[FI_KIND_COUNT] = {"cl_mem", "cl_program", "cl_kernel",
                                            "cl_event", "cl_command_queue", "cl_context"};
    return k < FI_KIND_COUNT ? n[k] : "?";
}

unsigned long fi_count_of(const char *name)
{
    for (unsigned i = 0; i < nnames; i++)
        if (!strcmp(names[i], name)) return name_count[i];
    return 0;
}

const char *const *fi_called(unsigned *count)
{
    *count = nnames;
    return names;
}

static void note(const char *name)
{
    for (unsigned i = 0; i < nnames; i++)
        if (names[i] == name || !strcmp(names[i], name)) {
            name_count[i]++;
            return;
        }
    if (nnames < FI_MAX_NAMES) {
        names[nnames] = name;
        name_count[nnames++] = 1;
    }
}

/* Counts a failable call; returns the error to inject, or CL_SUCCESS. */
static __attribute__((noinline)) cl_int hit(const char *name, cl_int code)
{
    if (tracing < 0) {
        const char *e = getenv("FI_TRACE");
        tracing = e && *e == '1';
    }
    calls++;
    note(name);
    if (calls > log_cap) {
        unsigned long cap = log_cap ? log_cap * 2 : 4096;
        const char **grown = realloc(log_names, cap * sizeof *grown);
        void **grown_frames =
            grown ? realloc(log_frames, cap * FI_MAX_DEPTH * sizeof *grown_frames) : NULL;
        if (grown) log_names = grown;
        if (grown_frames) {
            log_frames = grown_frames;
            log_cap = cap;
        }
    }
    if (calls <= log_cap) {
        log_names[calls - 1] = name;
        record_frames(log_frames + (calls - 1) * FI_MAX_DEPTH);
    }
    if (poisoned && !strcmp(name, "clCreateContext")) poisoned = 0; /* a new context */
    if (poisoned && !device_level(name)) {
        if (tracing) fprintf(stderr, "fi: #%lu %s  <-- lost context\n", calls, name);
        return fault_after;
    }
    int fail = armed && calls == armed;
    if (tracing) fprintf(stderr, "fi: #%lu %s%s\n", calls, name, fail ? "  <-- FAIL" : "");
    if (!fail) return CL_SUCCESS;
    failed_name = name;
    failed_code = fault_first ? fault_first : code;
    poisoned = fault_first != 0;
    return failed_code;
}

/* Release/retain: counted in the balance, never failed. */
static void track(fi_kind k, long delta) { live[k] += delta; }

/* ---- platforms, devices, contexts, queues -------------------------------- */

cl_int __real_clGetPlatformIDs(cl_uint, cl_platform_id *, cl_uint *);
cl_int __wrap_clGetPlatformIDs(cl_uint n, cl_platform_id *p, cl_uint *np)
{
    cl_int e = hit("clGetPlatformIDs", -1001 /* CL_PLATFORM_NOT_FOUND_KHR */);
    return e ? e : __real_clGetPlatformIDs(n, p, np);
}

cl_int __real_clGetPlatformInfo(cl_platform_id, cl_platform_info, size_t, void *, size_t *);
cl_int __wrap_clGetPlatformInfo(cl_platform_id p, cl_platform_info w, size_t s, void *v,
                                size_t *r)
{
    cl_int e = hit("clGetPlatformInfo", CL_OUT_OF_HOST_MEMORY);
    return e ? e : __real_clGetPlatformInfo(p, w, s, v, r);
}

cl_int __real_clGetDeviceIDs(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *);
cl_int __wrap_clGetDeviceIDs(cl_platform_id p, cl_device_type t, cl_uint n, cl_device_id *d,
                             cl_uint *nd)
{
    cl_int e = hit("clGetDeviceIDs", CL_DEVICE_NOT_FOUND);
    return e ? e : __real_clGetDeviceIDs(p, t, n, d, nd);
}

cl_int __real_clGetDeviceInfo(cl_device_id, cl_device_info, size_t, void *, size_t *);
cl_int __wrap_clGetDeviceInfo(cl_device_id d, cl_device_info w, size_t s, void *v, size_t *r)
{
    cl_int e = hit("clGetDeviceInfo", CL_OUT_OF_HOST_MEMORY);
    return e ? e : __real_clGetDeviceInfo(d, w, s, v, r);
}

typedef void(CL_CALLBACK *fi_ctx_notify)(const char *, const void *, size_t, void *);
cl_context __real_clCreateContext(const cl_context_properties *, cl_uint, const cl_device_id *,
                                  fi_ctx_notify, void *, cl_int *);
cl_context __wrap_clCreateContext(const cl_context_properties *props, cl_uint n,
                                  const cl_device_id *d, fi_ctx_notify cb, void *user,
                                  cl_int *err)
{
    cl_int e = hit("clCreateContext", CL_DEVICE_NOT_AVAILABLE);
    if (e) {
        if (err) *err = e;
        return NULL;
    }
    cl_context c = __real_clCreateContext(props, n, d, cb, user, err);
    if (c) track(FI_CONTEXT, 1);
    return c;
}

cl_int __real_clGetContextInfo(cl_context, cl_context_info, size_t, void *, size_t *);
cl_int __wrap_clGetContextInfo(cl_context c, cl_context_info w, size_t s, void *v, size_t *r)
{
    cl_int e = hit("clGetContextInfo", CL_OUT_OF_HOST_MEMORY);
    return e ? e : __real_clGetContextInfo(c, w, s, v, r);
}

cl_int __real_clRetainContext(cl_context);
cl_int __wrap_clRetainContext(cl_context c)
{
    cl_int e = __real_clRetainContext(c);
    if (!e) track(FI_CONTEXT, 1);
    return e;
}

cl_int __real_clReleaseContext(cl_context);
cl_int __wrap_clReleaseContext(cl_context c)
{
    cl_int e = __real_clReleaseContext(c);
    if (!e) track(FI_CONTEXT, -1);
    return e;
}

cl_command_queue __real_clCreateCommandQueue(cl_context, cl_device_id,
                                             cl_command_queue_properties, cl_int *);
cl_command_queue __wrap_clCreateCommandQueue(cl_context c, cl_device_id d,
                                             cl_command_queue_properties p, cl_int *err)
{
    cl_int e = hit("clCreateCommandQueue", CL_OUT_OF_RESOURCES);
    if (e) {
        if (err) *err = e;
        return NULL;
    }
    cl_command_queue q = __real_clCreateCommandQueue(c, d, p, err);
    if (q) track(FI_QUEUE, 1);
    return q;
}

cl_int __real_clGetCommandQueueInfo(cl_command_queue, cl_command_queue_info, size_t, void *,
                                    size_t *);
cl_int __wrap_clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info w, size_t s,
                                    void *v, size_t *r)
{
    cl_int e = hit("clGetCommandQueueInfo", CL_OUT_OF_HOST_MEMORY);
    return e ? e : __real_clGetCommandQueueInfo(q, w, s, v, r);
}

cl_int __real_clRetainCommandQueue(cl_command_queue);
cl_int __wrap_clRetainCommandQueue(cl_command_queue q)
{
    cl_int e = __real_clRetainCommandQueue(q);
    if (!e) track(FI_QUEUE, 1);
    return e;
}

cl_int __real_clReleaseCommandQueue(cl_command_queue);
cl_int __wrap_clReleaseCommandQueue(cl_command_queue q)
{
    cl_int e = __real_clReleaseCommandQueue(q);
    if (!e) track(FI_QUEUE, -1);
    return e;
}

cl_int __real_clFlush(cl_command_queue);
cl_int __wrap_clFlush(cl_command_queue q)
{
    cl_int e = hit("clFlush", CL_OUT_OF_RESOURCES);
    return e ? e : __real_clFlush(q);
}

cl_int __real_clFinish(cl_command_queue);
cl_int __wrap_clFinish(cl_command_queue q)
{
    cl_int e = hit("clFinish", CL_OUT_OF_RESOURCES);
    return e ? e : __real_clFinish(q);
}

/* ---- memory objects ------------------------------------------------------ */

cl_mem __real_clCreateBuffer(cl_context, cl_mem_flags, size_t, void *, cl_int *);
cl_mem __wrap_clCreateBuffer(cl_context c, cl_mem_flags f, size_t s, void *h, cl_int *err)
{
    cl_int e = hit("clCreateBuffer", CL_MEM_OBJECT_ALLOCATION_FAILURE);
    if (e) {
        if (err) *err = e;
        return NULL;
    }
    cl_mem m = __real_clCreateBuffer(c, f, s, h, err);
    if (m) track(FI_MEM, 1);
    return m;
}

cl_mem __real_clCreateSubBuffer(cl_mem, cl_mem_flags, cl_buffer_create_type, const void *,
                                cl_int *);
cl_mem __wrap_clCreateSubBuffer(cl_mem b, cl_mem_flags f, cl_buffer_create_type t,
                                const void *info, cl_int *err)
{
    cl_int e = hit("clCreateSubBuffer", CL_OUT_OF_RESOURCES);
    if (e) {
        if (err) *err = e;
        return NULL;
    }
    cl_mem m = __real_clCreateSubBuffer(b, f, t, info, err);
    if (m) track(FI_MEM, 1);
    return m;
}

cl_int __real_clGetMemObjectInfo(cl_mem, cl_mem_info, size_t, void *, size_t *);
cl_int __wrap_clGetMemObjectInfo(cl_mem m, cl_mem_info w, size_t s, void *v, size_t *r)
{
    cl_int e = hit("clGetMemObjectInfo", CL_OUT_OF_HOST_MEMORY);
    return e ? e : __real_clGetMemObjectInfo(m, w, s, v, r);
}

cl_int __real_clRetainMemObject(cl_mem);
cl_int __wrap_clRetainMemObject(cl_mem m)
{
    cl_int e = __real_clRetainMemObject(m);
    if (!e) track(FI_MEM, 1);
    return e;
}

cl_int __real_clReleaseMemObject(cl_mem);
cl_int __wrap_clReleaseMemObject(cl_mem m)
{
    cl_int e = __real_clReleaseMemObject(m);
    if (!e) track(FI_MEM, -1);
    return e;
}

/* ---- programs and kernels ------------------------------------------------- */

cl_program __real_clCreateProgramWithSource(cl_context, cl_uint, const char **, const size_t *,
                                            cl_int *);
cl_program __wrap_clCreateProgramWithSource(cl_context c, cl_uint n, const char **s,
                                            const size_t *l, cl_int *err)
{
    cl_int e = hit("clCreateProgramWithSource", CL_OUT_OF_HOST_MEMORY);
    if (e) {
        if (err) *err = e;
        return NULL;
    }
    cl_program p = __real_clCreateProgramWithSource(c, n, s, l, err);
    if (p) track(FI_PROGRAM, 1);
    return p;
}

cl_program __real_clCreateProgramWithBinary(cl_context, cl_uint, const cl_device_id *,
                                            const size_t *, const unsigned char **, cl_int *,
                                            cl_int *);
cl_program __wrap_clCreateProgramWithBinary(cl_context c, cl_uint n, const cl_device_id *d,
                                            const size_t *l, const unsigned char **b,
                                            cl_int *bs, cl_int *err)
{
    cl_int e = hit("clCreateProgramWithBinary", CL_INVALID_BINARY);
    if (e) {
        if (bs)
            for (cl_uint i = 0; i < n; i++) bs[i] = CL_INVALID_BINARY;
        if (err) *err = e;
        return NULL;
    }
    cl_program p = __real_clCreateProgramWithBinary(c, n, d, l, b, bs, err);
    if (p) track(FI_PROGRAM, 1);
    return p;
}

typedef void(CL_CALLBACK *fi_prog_notify)(cl_program, void *);
cl_int __real_clBuildProgram(cl_program, cl_uint, const cl_device_id *, const char *,
                             fi_prog_notify, void *);
cl_int __wrap_clBuildProgram(cl_program p, cl_uint n, const cl_device_id *d, const char *o,
                             fi_prog_notify cb, void *user)
{
    cl_int e = hit("clBuildProgram", CL_BUILD_PROGRAM_FAILURE);
    return e ? e : __real_clBuildProgram(p, n, d, o, cb, user);
}

cl_int __real_clGetProgramInfo(cl_program, cl_program_info, size_t, void *, size_t *);
cl_int __wrap_clGetProgramInfo(cl_program p, cl_program_info w, size_t s, void *v, size_t *r)
{
    cl_int e = hit("clGetProgramInfo", CL_OUT_OF_HOST_MEMORY);
    return e ? e : __real_clGetProgramInfo(p, w, s, v, r);
}

cl_int __real_clGetProgramBuildInfo(cl_program, cl_device_id, cl_program_build_info, size_t,
                                    void *, size_t *);
cl_int __wrap_clGetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info w,
                                    size_t s, void *v, size_t *r)
{
    cl_int e = hit("clGetProgramBuildInfo", CL_OUT_OF_HOST_MEMORY);
    return e ? e : __real_clGetProgramBuildInfo(p, d, w, s, v, r);
}

cl_int __real_clRetainProgram(cl_program);
cl_int __wrap_clRetainProgram(cl_program p)
{
    cl_int e = __real_clRetainProgram(p);
    if (!e) track(FI_PROGRAM, 1);
    return e;
}

cl_int __real_clReleaseProgram(cl_program);
cl_int __wrap_clReleaseProgram(cl_program p)
{
    cl_int e = __real_clReleaseProgram(p);
    if (!e) track(FI_PROGRAM, -1);
    return e;
}

cl_kernel __real_clCreateKernel(cl_program, const char *, cl_int *);
cl_kernel __wrap_clCreateKernel(cl_program p, const char *name, cl_int *err)
{
    cl_int e = hit("clCreateKernel", CL_OUT_OF_RESOURCES);
    if (e) {
        if (err) *err = e;
        return NULL;
    }
    cl_kernel k = __real_clCreateKernel(p, name, err);
    if (k) track(FI_KERNEL, 1);
    return k;
}

cl_int __real_clSetKernelArg(cl_kernel, cl_uint, size_t, const void *);
cl_int __wrap_clSetKernelArg(cl_kernel k, cl_uint i, size_t s, const void *v)
{
    cl_int e = hit("clSetKernelArg", CL_OUT_OF_RESOURCES);
    return e ? e : __real_clSetKernelArg(k, i, s, v);
}

cl_int __real_clGetKernelInfo(cl_kernel, cl_kernel_info, size_t, void *, size_t *);
cl_int __wrap_clGetKernelInfo(cl_kernel k, cl_kernel_info w, size_t s, void *v, size_t *r)
{
    cl_int e = hit("clGetKernelInfo", CL_OUT_OF_HOST_MEMORY);
    return e ? e : __real_clGetKernelInfo(k, w, s, v, r);
}

cl_int __real_clGetKernelWorkGroupInfo(cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t,
                                       void *, size_t *);
cl_int __wrap_clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_work_group_info w,
                                       size_t s, void *v, size_t *r)
{
    cl_int e = hit("clGetKernelWorkGroupInfo", CL_OUT_OF_HOST_MEMORY);
    return e ? e : __real_clGetKernelWorkGroupInfo(k, d, w, s, v, r);
}

cl_int __real_clRetainKernel(cl_kernel);
cl_int __wrap_clRetainKernel(cl_kernel k)
{
    cl_int e = __real_clRetainKernel(k);
    if (!e) track(FI_KERNEL, 1);
    return e;
}

cl_int __real_clReleaseKernel(cl_kernel);
cl_int __wrap_clReleaseKernel(cl_kernel k)
{
    cl_int e = __real_clReleaseKernel(k);
    if (!e) track(FI_KERNEL, -1);
    return e;
}

/* ---- events ----------------------------------------------------------------- */

/* An enqueue that succeeded and was asked for an event made one. */
static cl_int made_event(cl_int e, cl_event *ev)
{
    if (e == CL_SUCCESS && ev && *ev) track(FI_EVENT, 1);
    return e;
}

cl_int __real_clWaitForEvents(cl_uint, const cl_event *);
cl_int __wrap_clWaitForEvents(cl_uint n, const cl_event *ev)
{
    cl_int e = hit("clWaitForEvents", CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    return e ? e : __real_clWaitForEvents(n, ev);
}

cl_int __real_clGetEventInfo(cl_event, cl_event_info, size_t, void *, size_t *);
cl_int __wrap_clGetEventInfo(cl_event ev, cl_event_info w, size_t s, void *v, size_t *r)
{
    cl_int e = hit("clGetEventInfo", CL_OUT_OF_HOST_MEMORY);
    return e ? e : __real_clGetEventInfo(ev, w, s, v, r);
}

cl_int __real_clGetEventProfilingInfo(cl_event, cl_profiling_info, size_t, void *, size_t *);
cl_int __wrap_clGetEventProfilingInfo(cl_event ev, cl_profiling_info w, size_t s, void *v,
                                      size_t *r)
{
    cl_int e = hit("clGetEventProfilingInfo", CL_PROFILING_INFO_NOT_AVAILABLE);
    return e ? e : __real_clGetEventProfilingInfo(ev, w, s, v, r);
}

cl_int __real_clRetainEvent(cl_event);
cl_int __wrap_clRetainEvent(cl_event ev)
{
    cl_int e = __real_clRetainEvent(ev);
    if (!e) track(FI_EVENT, 1);
    return e;
}

cl_int __real_clReleaseEvent(cl_event);
cl_int __wrap_clReleaseEvent(cl_event ev)
{
    cl_int e = __real_clReleaseEvent(ev);
    if (!e) track(FI_EVENT, -1);
    return e;
}

/* ---- enqueues ------------------------------------------------------------------ */

cl_int __real_clEnqueueReadBuffer(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *,
                                  cl_uint, const cl_event *, cl_event *);
cl_int __wrap_clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s,
                                  void *p, cl_uint nw, const cl_event *w, cl_event *ev)
{
    cl_int e = hit("clEnqueueReadBuffer", CL_MEM_OBJECT_ALLOCATION_FAILURE);
    return e ? e : made_event(__real_clEnqueueReadBuffer(q, m, b, o, s, p, nw, w, ev), ev);
}

cl_int __real_clEnqueueWriteBuffer(cl_command_queue, cl_mem, cl_bool, size_t, size_t,
                                   const void *, cl_uint, const cl_event *, cl_event *);
cl_int __wrap_clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s,
                                   const void *p, cl_uint nw, const cl_event *w, cl_event *ev)
{
    cl_int e = hit("clEnqueueWriteBuffer", CL_MEM_OBJECT_ALLOCATION_FAILURE);
    return e ? e : made_event(__real_clEnqueueWriteBuffer(q, m, b, o, s, p, nw, w, ev), ev);
}

cl_int __real_clEnqueueCopyBuffer(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t,
                                  cl_uint, const cl_event *, cl_event *);
cl_int __wrap_clEnqueueCopyBuffer(cl_command_queue q, cl_mem a, cl_mem b, size_t oa, size_t ob,
                                  size_t s, cl_uint nw, const cl_event *w, cl_event *ev)
{
    cl_int e = hit("clEnqueueCopyBuffer", CL_OUT_OF_RESOURCES);
    return e ? e : made_event(__real_clEnqueueCopyBuffer(q, a, b, oa, ob, s, nw, w, ev), ev);
}

cl_int __real_clEnqueueFillBuffer(cl_command_queue, cl_mem, const void *, size_t, size_t, size_t,
                                  cl_uint, const cl_event *, cl_event *);
cl_int __wrap_clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pat, size_t ps,
                                  size_t o, size_t s, cl_uint nw, const cl_event *w,
                                  cl_event *ev)
{
    cl_int e = hit("clEnqueueFillBuffer", CL_OUT_OF_RESOURCES);
    return e ? e : made_event(__real_clEnqueueFillBuffer(q, m, pat, ps, o, s, nw, w, ev), ev);
}

void *__real_clEnqueueMapBuffer(cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t,
                                cl_uint, const cl_event *, cl_event *, cl_int *);
void *__wrap_clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool b, cl_map_flags f, size_t o,
                                size_t s, cl_uint nw, const cl_event *w, cl_event *ev,
                                cl_int *err)
{
    cl_int e = hit("clEnqueueMapBuffer", CL_MAP_FAILURE);
    if (e) {
        if (err) *err = e;
        return NULL;
    }
    cl_int e2 = CL_SUCCESS;
    void *p = __real_clEnqueueMapBuffer(q, m, b, f, o, s, nw, w, ev, &e2);
    if (err) *err = e2;
    made_event(e2, ev);
    return p;
}

cl_int __real_clEnqueueUnmapMemObject(cl_command_queue, cl_mem, void *, cl_uint, const cl_event *,
                                      cl_event *);
cl_int __wrap_clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *p, cl_uint nw,
                                      const cl_event *w, cl_event *ev)
{
    cl_int e = hit("clEnqueueUnmapMemObject", CL_OUT_OF_RESOURCES);
    return e ? e : made_event(__real_clEnqueueUnmapMemObject(q, m, p, nw, w, ev), ev);
}

cl_int __real_clEnqueueNDRangeKernel(cl_command_queue, cl_kernel, cl_uint, const size_t *,
                                     const size_t *, const size_t *, cl_uint, const cl_event *,
                                     cl_event *);
cl_int __wrap_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
                                     const size_t *off, const size_t *g, const size_t *l,
                                     cl_uint nw, const cl_event *w, cl_event *ev)
{
    cl_int e = hit("clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES);
    return e ? e : made_event(__real_clEnqueueNDRangeKernel(q, k, dim, off, g, l, nw, w, ev), ev);
}

cl_int __real_clEnqueueMarkerWithWaitList(cl_command_queue, cl_uint, const cl_event *,
                                          cl_event *);
cl_int __wrap_clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint nw, const cl_event *w,
                                          cl_event *ev)
{
    cl_int e = hit("clEnqueueMarkerWithWaitList", CL_OUT_OF_RESOURCES);
    return e ? e : made_event(__real_clEnqueueMarkerWithWaitList(q, nw, w, ev), ev);
}

cl_int __real_clEnqueueBarrierWithWaitList(cl_command_queue, cl_uint, const cl_event *,
                                           cl_event *);
cl_int __wrap_clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint nw, const cl_event *w,
                                           cl_event *ev)
{
    cl_int e = hit("clEnqueueBarrierWithWaitList", CL_OUT_OF_RESOURCES);
    return e ? e : made_event(__real_clEnqueueBarrierWithWaitList(q, nw, w, ev), ev);
}
