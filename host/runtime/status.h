/* Errors and the log (status.c): messages that name the OpenCL call and kernel. */
#ifndef CLSA_RT_STATUS_H
#define CLSA_RT_STATUS_H

#include "clsa.h"
#include "cl_loader.h"
#include <stdarg.h>

/* ---- errors (status.c) --------------------------------------------------
 * Each returns the status it was given, so "return clsa__fail(...)". */
clsa_status clsa__fail(clsa_context *ctx, clsa_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* err != CL_SUCCESS: sets "<call> failed: <CL error name>[ (kernel <k>)]"
 * and returns CLSA_ERR_OPENCL (CLSA_ERR_DEVICE_MEMORY for allocation
 * failures).  err == CL_SUCCESS returns CLSA_OK. */
/* The context's last message ("" for NULL): clsa_last_error's answer. */
const char *clsa__last_error(const clsa_context *ctx);
clsa_status clsa__cl(clsa_context *ctx, cl_int err, const char *call, const char *kernel);
const char *clsa__cl_error_name(cl_int err);
void clsa__log(clsa_context *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Shorthand inside functions that have a `clsa_status st` and a `done:`
 * clean-up label. */
#define CLSA_TRY(expr)                 \
    do {                               \
        st = (expr);                   \
        if (st != CLSA_OK) goto done;  \
    } while (0)
#define CLSA_CL(ctx, expr, call, kernel)                          \
    do {                                                          \
        st = clsa__cl((ctx), (expr), (call), (kernel));           \
        if (st != CLSA_OK) goto done;                             \
    } while (0)

#endif
