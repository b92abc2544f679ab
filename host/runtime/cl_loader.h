/* OpenCL entry points, loaded at run time (cl_loader.c).
 *
 * The library does not link libOpenCL: a program (or a Python import) on a
 * machine without any OpenCL still loads, and gets the host backend.  Every
 * OpenCL call in host/ goes through a private function of the library,
 * clsa__cl<Name>, with hidden visibility: the macros at the end of this
 * file rename the calls, so call sites keep the plain OpenCL names.  No
 * symbol named cl<Name> is defined or exported by clsa, so an application's
 * own OpenCL calls (pyopencl in the same process) never go through clsa.
 *
 * Where the functions come from (first match, on the first call):
 *   env CLSA_OPENCL_LIBRARY   that library only (a path or a soname); a
 *                             missing one means no OpenCL (tests use this)
 *   the process's own         OpenCL symbols already global in the process
 *                             (an application linked with -lOpenCL, or a
 *                             preloaded runtime such as Oclgrind's)
 *   libOpenCL.so.1            the ICD loader
 * Without any, every call fails with CL_PLATFORM_NOT_FOUND_KHR, which the
 * device enumeration reports as "no OpenCL" (clsa__cl_load_error says why).
 *
 * One exception: a call on an object made by a vendor library that
 * icd_direct.c opened itself (a selector naming one platform, without the
 * loader) goes through that object's own dispatch table, as the ICD loader
 * would send it; the loader is then never loaded at all.
 *
 * A new OpenCL call in the library needs a line in CLSA_CL_CALLS or
 * CLSA_CL_MAKERS and a #define below (tests/fault_inject_check.sh fails on
 * a direct call), and a wrapper in tests/fault_inject.c (FI_WRAPPED). */
#ifndef CLSA_CL_LOADER_H
#define CLSA_CL_LOADER_H

#include "clsa.h"

/* Entry points returning cl_int: X(name, parameters, arguments, object).
 * `object` is the argument whose ICD dispatch table the call goes through
 * when that object came from a vendor library loaded directly
 * (icd_direct.h); NULL for a call that only the loader can answer. */
#define CLSA_CL_CALLS(X)                                                                            \
    X(clGetPlatformIDs, (cl_uint a, cl_platform_id *b, cl_uint *c), (a, b, c), NULL)                \
    X(clGetPlatformInfo, (cl_platform_id a, cl_platform_info b, size_t c, void *d, size_t *e),      \
      (a, b, c, d, e), a)                                                                           \
    X(clGetDeviceIDs, (cl_platform_id a, cl_device_type b, cl_uint c, cl_device_id *d,              \
                       cl_uint *e), (a, b, c, d, e), a)                                             \
    X(clGetDeviceInfo, (cl_device_id a, cl_device_info b, size_t c, void *d, size_t *e),            \
      (a, b, c, d, e), a)                                                                           \
    X(clGetContextInfo, (cl_context a, cl_context_info b, size_t c, void *d, size_t *e),            \
      (a, b, c, d, e), a)                                                                           \
    X(clRetainContext, (cl_context a), (a), a)                                                      \
    X(clReleaseContext, (cl_context a), (a), a)                                                     \
    X(clGetCommandQueueInfo, (cl_command_queue a, cl_command_queue_info b, size_t c, void *d,       \
                              size_t *e), (a, b, c, d, e), a)                                       \
    X(clRetainCommandQueue, (cl_command_queue a), (a), a)                                           \
    X(clReleaseCommandQueue, (cl_command_queue a), (a), a)                                          \
    X(clFlush, (cl_command_queue a), (a), a)                                                        \
    X(clFinish, (cl_command_queue a), (a), a)                                                       \
    X(clGetMemObjectInfo, (cl_mem a, cl_mem_info b, size_t c, void *d, size_t *e),                  \
      (a, b, c, d, e), a)                                                                           \
    X(clRetainMemObject, (cl_mem a), (a), a)                                                        \
    X(clReleaseMemObject, (cl_mem a), (a), a)                                                       \
    X(clBuildProgram, (cl_program a, cl_uint b, const cl_device_id *c, const char *d,               \
                       void(CL_CALLBACK * e)(cl_program, void *), void *f), (a, b, c, d, e, f), a)  \
    X(clGetProgramInfo, (cl_program a, cl_program_info b, size_t c, void *d, size_t *e),            \
      (a, b, c, d, e), a)                                                                           \
    X(clGetProgramBuildInfo, (cl_program a, cl_device_id b, cl_program_build_info c, size_t d,      \
                              void *e, size_t *f), (a, b, c, d, e, f), a)                           \
    X(clRetainProgram, (cl_program a), (a), a)                                                      \
    X(clReleaseProgram, (cl_program a), (a), a)                                                     \
    X(clSetKernelArg, (cl_kernel a, cl_uint b, size_t c, const void *d), (a, b, c, d), a)           \
    X(clGetKernelInfo, (cl_kernel a, cl_kernel_info b, size_t c, void *d, size_t *e),               \
      (a, b, c, d, e), a)                                                                           \
    X(clGetKernelWorkGroupInfo, (cl_kernel a, cl_device_id b, cl_kernel_work_group_info c,          \
                                 size_t d, void *e, size_t *f), (a, b, c, d, e, f), a)              \
    X(clRetainKernel, (cl_kernel a), (a), a)                                                        \
    X(clReleaseKernel, (cl_kernel a), (a), a)                                                       \
    X(clWaitForEvents, (cl_uint a, const cl_event *b), (a, b),                                      \
      (a && b ? (const void *)b[0] : NULL))                                                         \
    X(clGetEventInfo, (cl_event a, cl_event_info b, size_t c, void *d, size_t *e),                  \
      (a, b, c, d, e), a)                                                                           \
    X(clGetEventProfilingInfo, (cl_event a, cl_profiling_info b, size_t c, void *d, size_t *e),     \
      (a, b, c, d, e), a)                                                                           \
    X(clRetainEvent, (cl_event a), (a), a)                                                          \
    X(clReleaseEvent, (cl_event a), (a), a)                                                         \
    X(clEnqueueReadBuffer, (cl_command_queue a, cl_mem b, cl_bool c, size_t d, size_t e,            \
                            void *f, cl_uint g, const cl_event *h, cl_event *i),                    \
      (a, b, c, d, e, f, g, h, i), a)                                                               \
    X(clEnqueueWriteBuffer, (cl_command_queue a, cl_mem b, cl_bool c, size_t d, size_t e,           \
                             const void *f, cl_uint g, const cl_event *h, cl_event *i),             \
      (a, b, c, d, e, f, g, h, i), a)                                                               \
    X(clEnqueueCopyBuffer, (cl_command_queue a, cl_mem b, cl_mem c, size_t d, size_t e,             \
                            size_t f, cl_uint g, const cl_event *h, cl_event *i),                   \
      (a, b, c, d, e, f, g, h, i), a)                                                               \
    X(clEnqueueFillBuffer, (cl_command_queue a, cl_mem b, const void *c, size_t d, size_t e,        \
                            size_t f, cl_uint g, const cl_event *h, cl_event *i),                   \
      (a, b, c, d, e, f, g, h, i), a)                                                               \
    X(clEnqueueUnmapMemObject, (cl_command_queue a, cl_mem b, void *c, cl_uint d,                   \
                                const cl_event *e, cl_event *f), (a, b, c, d, e, f), a)             \
    X(clEnqueueNDRangeKernel, (cl_command_queue a, cl_kernel b, cl_uint c, const size_t *d,         \
                               const size_t *e, const size_t *f, cl_uint g, const cl_event *h,      \
                               cl_event *i), (a, b, c, d, e, f, g, h, i), a)                        \
    X(clEnqueueMarkerWithWaitList, (cl_command_queue a, cl_uint b, const cl_event *c,               \
                                    cl_event *d), (a, b, c, d), a)                                  \
    X(clEnqueueBarrierWithWaitList, (cl_command_queue a, cl_uint b, const cl_event *c,              \
                                     cl_event *d), (a, b, c, d), a)

/* Entry points returning an object, with the error in their last argument
 * `err`: X(type, name, parameters, arguments, object). */
#define CLSA_CL_MAKERS(X)                                                                           \
    X(cl_context, clCreateContext, (const cl_context_properties *a, cl_uint b,                      \
      const cl_device_id *c, void(CL_CALLBACK * d)(const char *, const void *, size_t, void *),     \
      void *e, cl_int *err), (a, b, c, d, e, err), (b && c ? (const void *)c[0] : NULL))            \
    X(cl_command_queue, clCreateCommandQueue, (cl_context a, cl_device_id b,                        \
      cl_command_queue_properties c, cl_int *err), (a, b, c, err), a)                               \
    X(cl_mem, clCreateBuffer, (cl_context a, cl_mem_flags b, size_t c, void *d, cl_int *err),       \
      (a, b, c, d, err), a)                                                                         \
    X(cl_mem, clCreateSubBuffer, (cl_mem a, cl_mem_flags b, cl_buffer_create_type c,                \
      const void *d, cl_int *err), (a, b, c, d, err), a)                                            \
    X(cl_program, clCreateProgramWithSource, (cl_context a, cl_uint b, const char **c,              \
      const size_t *d, cl_int *err), (a, b, c, d, err), a)                                          \
    X(cl_program, clCreateProgramWithBinary, (cl_context a, cl_uint b, const cl_device_id *c,       \
      const size_t *d, const unsigned char **e, cl_int *f, cl_int *err),                            \
      (a, b, c, d, e, f, err), a)                                                                   \
    X(cl_kernel, clCreateKernel, (cl_program a, const char *b, cl_int *err), (a, b, err), a)        \
    X(void *, clEnqueueMapBuffer, (cl_command_queue a, cl_mem b, cl_bool c, cl_map_flags d,         \
      size_t e, size_t f, cl_uint g, const cl_event *h, cl_event *i, cl_int *err),                  \
      (a, b, c, d, e, f, g, h, i, err), a)

#define CLSA_CL_DECLARE_CALL(name, params, args, obj) cl_int clsa__##name params;
#define CLSA_CL_DECLARE_MAKER(type, name, params, args, obj) type clsa__##name params;
CLSA_CL_CALLS(CLSA_CL_DECLARE_CALL)
CLSA_CL_MAKERS(CLSA_CL_DECLARE_MAKER)
#undef CLSA_CL_DECLARE_CALL
#undef CLSA_CL_DECLARE_MAKER

/* Why OpenCL could not be loaded, or NULL when it was (loads on first use). */
const char *clsa__cl_load_error(void);

/* Whether a vendor library may be opened without the loader (icd_direct.h):
 * not when CLSA_OPENCL_LIBRARY chooses the library, nor when the process's
 * own OpenCL is something other than the system loader (a preloaded
 * runtime such as Oclgrind's).  Does not load anything. */
int clsa__cl_direct_allowed(void);

#ifndef CLSA_CL_LOADER_IMPL
#define clGetPlatformIDs clsa__clGetPlatformIDs
#define clGetPlatformInfo clsa__clGetPlatformInfo
#define clGetDeviceIDs clsa__clGetDeviceIDs
#define clGetDeviceInfo clsa__clGetDeviceInfo
#define clGetContextInfo clsa__clGetContextInfo
#define clRetainContext clsa__clRetainContext
#define clReleaseContext clsa__clReleaseContext
#define clGetCommandQueueInfo clsa__clGetCommandQueueInfo
#define clRetainCommandQueue clsa__clRetainCommandQueue
#define clReleaseCommandQueue clsa__clReleaseCommandQueue
#define clFlush clsa__clFlush
#define clFinish clsa__clFinish
#define clGetMemObjectInfo clsa__clGetMemObjectInfo
#define clRetainMemObject clsa__clRetainMemObject
#define clReleaseMemObject clsa__clReleaseMemObject
#define clBuildProgram clsa__clBuildProgram
#define clGetProgramInfo clsa__clGetProgramInfo
#define clGetProgramBuildInfo clsa__clGetProgramBuildInfo
#define clRetainProgram clsa__clRetainProgram
#define clReleaseProgram clsa__clReleaseProgram
#define clSetKernelArg clsa__clSetKernelArg
#define clGetKernelInfo clsa__clGetKernelInfo
#define clGetKernelWorkGroupInfo clsa__clGetKernelWorkGroupInfo
#define clRetainKernel clsa__clRetainKernel
#define clReleaseKernel clsa__clReleaseKernel
#define clWaitForEvents clsa__clWaitForEvents
#define clGetEventInfo clsa__clGetEventInfo
#define clGetEventProfilingInfo clsa__clGetEventProfilingInfo
#define clRetainEvent clsa__clRetainEvent
#define clReleaseEvent clsa__clReleaseEvent
#define clEnqueueReadBuffer clsa__clEnqueueReadBuffer
#define clEnqueueWriteBuffer clsa__clEnqueueWriteBuffer
#define clEnqueueCopyBuffer clsa__clEnqueueCopyBuffer
#define clEnqueueFillBuffer clsa__clEnqueueFillBuffer
#define clEnqueueUnmapMemObject clsa__clEnqueueUnmapMemObject
#define clEnqueueNDRangeKernel clsa__clEnqueueNDRangeKernel
#define clEnqueueMarkerWithWaitList clsa__clEnqueueMarkerWithWaitList
#define clEnqueueBarrierWithWaitList clsa__clEnqueueBarrierWithWaitList
#define clCreateContext clsa__clCreateContext
#define clCreateCommandQueue clsa__clCreateCommandQueue
#define clCreateBuffer clsa__clCreateBuffer
#define clCreateSubBuffer clsa__clCreateSubBuffer
#define clCreateProgramWithSource clsa__clCreateProgramWithSource
#define clCreateProgramWithBinary clsa__clCreateProgramWithBinary
#define clCreateKernel clsa__clCreateKernel
#define clEnqueueMapBuffer clsa__clEnqueueMapBuffer
#endif

#endif
