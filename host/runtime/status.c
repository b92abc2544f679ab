/* The per-context message, OpenCL error names, logging. */
#include "context.h"
#include "status.h"

#include <stdio.h>
#include <string.h>

const char *clsa__last_error(const clsa_context *ctx)
{
    return ctx ? ctx->message : "";
}

clsa_status clsa__fail(clsa_context *ctx, clsa_status st, const char *fmt, ...)
{
    if (ctx) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->message, sizeof ctx->message, fmt, ap);
        va_end(ap);
    }
    return st;
}

const char *clsa__cl_error_name(cl_int e)
{
    switch (e) {
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP) E(CL_IMAGE_FORMAT_MISMATCH)
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE)
    E(CL_DEVICE_PARTITION_FAILED) E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT)
    E(CL_INVALID_QUEUE_PROPERTIES) E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR)
    E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(CL_INVALID_IMAGE_SIZE)
    E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL_DEFINITION)
    E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
    E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_GL_OBJECT)
    E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_MIP_LEVEL) E(CL_INVALID_GLOBAL_WORK_SIZE)
    E(CL_INVALID_PROPERTY) E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS)
    E(CL_INVALID_LINKER_OPTIONS) E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef E
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    }
    return "unknown OpenCL error";
}

/* Codes a kernel's fault comes back as (NVIDIA: -9999, an illegal address,
 * at the next wait, then CL_OUT_OF_RESOURCES from every call). */
static int fault_like(cl_int err)
{
    return err == CL_OUT_OF_RESOURCES || err == CL_INVALID_COMMAND_QUEUE ||
           err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST || (err < -1000 && err != -1001);
}

/* A fault-like error is a lost context when the queue cannot even finish
 * (an allocation that failed leaves the queue working). */
static clsa_status device_lost(clsa_context *ctx, cl_int err, const char *call)
{
    if (!ctx->lost && clFinish(ctx->queue) == CL_SUCCESS) return CLSA_OK;
    ctx->lost = 1;
    return clsa__fail(ctx, CLSA_ERR_DEVICE_LOST,
                      "%s failed: %s (%d): the device faulted in a kernel queued before it "
                      "(the last launched: %s); its OpenCL context is lost%s",
                      call, clsa__cl_error_name(err), (int)err,
                      ctx->last_kernel[0] ? ctx->last_kernel : "none",
                      ctx->made_cl ? "" : ": make the application's OpenCL context, queue "
                                          "and clsa context again");
}

clsa_status clsa__cl(clsa_context *ctx, cl_int err, const char *call, const char *kernel)
{
    if (err == CL_SUCCESS) return CLSA_OK;
    if (ctx && ctx->queue && fault_like(err) && device_lost(ctx, err, call))
        return CLSA_ERR_DEVICE_LOST;
    if (ctx) ctx->pool_suspect = 1; /* the driver's memory may be short: no kept buffers */
    clsa_status st = (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
                      err == CL_INVALID_BUFFER_SIZE)
                         ? CLSA_ERR_DEVICE_MEMORY
                         : (err == CL_OUT_OF_HOST_MEMORY ? CLSA_ERR_HOST_MEMORY : CLSA_ERR_OPENCL);
    if (kernel)
        return clsa__fail(ctx, st, "%s failed: %s (%d) in kernel %s", call,
                          clsa__cl_error_name(err), (int)err, kernel);
    return clsa__fail(ctx, st, "%s failed: %s (%d)", call, clsa__cl_error_name(err), (int)err);
}

void clsa__log(clsa_context *ctx, const char *fmt, ...)
{
    if (!ctx || !ctx->log) return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ctx->log(ctx->log_user, buf);
}
