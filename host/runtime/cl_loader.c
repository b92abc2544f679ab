/* Loads the OpenCL entry points at run time (see cl_loader.h for where they
 * come from) into a private table, and defines the clsa__cl<Name> functions
 * the library calls through it. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#define CLSA_CL_LOADER_IMPL
#include "cl_loader.h"
#include "icd_direct.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* clCreateCommandQueue */
#endif

/* The ICD loader's code for "no platform": what a machine with a loader but
 * no driver answers, so "no OpenCL at all" looks the same to the callers. */
#define CLSA_CL_NOT_LOADED (-1001) /* CL_PLATFORM_NOT_FOUND_KHR */

#define CLSA_CL_FIELD_CALL(name, params, args, obj) cl_int(CL_API_CALL *name) params;
#define CLSA_CL_FIELD_MAKER(type, name, params, args, obj) type(CL_API_CALL *name) params;
static struct {
    CLSA_CL_CALLS(CLSA_CL_FIELD_CALL)
    CLSA_CL_MAKERS(CLSA_CL_FIELD_MAKER)
} table;

/* The lists must match the OpenCL headers' prototypes exactly. */
#define CLSA_CL_CHECK_CALL(name, params, args, obj)                       \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), __typeof__(table.name)), \
                   #name " in cl_loader.h differs from CL/cl.h");
#define CLSA_CL_CHECK_MAKER(type, name, params, args, obj)                \
    CLSA_CL_CHECK_CALL(name, params, args, obj)
CLSA_CL_CALLS(CLSA_CL_CHECK_CALL)
CLSA_CL_MAKERS(CLSA_CL_CHECK_MAKER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

/* Fills the table from handle h; on a missing entry point says which. */
static int fill(void *h, const char *from)
{
#define CLSA_CL_FILL(name)                                                \
    do {                                                                  \
        void *f = dlsym(h, #name);                                        \
        if (!f) {                                                         \
            snprintf(load_error, sizeof load_error,                       \
                     "%s has no %s (OpenCL 1.2 is needed)", from, #name); \
            return 0;                                                     \
        }                                                                 \
        memcpy(&table.name, &f, sizeof f);                                \
    } while (0);
#define CLSA_CL_FILL_CALL(name, params, args, obj) CLSA_CL_FILL(name)
#define CLSA_CL_FILL_MAKER(type, name, params, args, obj) CLSA_CL_FILL(name)
    CLSA_CL_CALLS(CLSA_CL_FILL_CALL)
    CLSA_CL_MAKERS(CLSA_CL_FILL_MAKER)
    return 1;
}

static void load(void)
{
    clsa__icd_direct_snapshot(); /* before a loader can rewrite its variables */
    const char *path = getenv("CLSA_OPENCL_LIBRARY");
    if (!path || !*path) {
        /* The process's own OpenCL first: what a direct link would bind to
         * (the application's loader, or a preloaded runtime). */
        if (dlsym(RTLD_DEFAULT, "clGetPlatformIDs")) {
            loaded = fill(RTLD_DEFAULT, "the process's OpenCL");
            return;
        }
        path = "libOpenCL.so.1";
    }
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load the OpenCL library (%s)",
                 why ? why : path);
        return;
    }
    loaded = fill(h, path);
    /* A library lacking an entry point stays open: harmless, and closing
     * one that the process shares could unload it under someone else. */
}

static int ready(void)
{
    pthread_once(&once, load);
    return loaded;
}

const char *clsa__cl_load_error(void) { return ready() ? NULL : load_error; }

int clsa__cl_direct_allowed(void)
{
    const char *path = getenv("CLSA_OPENCL_LIBRARY");
    if (path && *path) return 0;
    void *own = dlsym(RTLD_DEFAULT, "clGetPlatformIDs");
    if (!own) return 1;
    /* A program linked with -lOpenCL has the system loader global: the
     * same library the direct route stands in for.  Anything else global
     * (a preloaded runtime) is what a direct link would bind to: keep it. */
    void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_NOLOAD);
    int same = h && dlsym(h, "clGetPlatformIDs") == own;
    if (h) dlclose(h); /* drops only the reference RTLD_NOLOAD took */
    return same;
}

/* A call on an object of a directly opened vendor library goes through the
 * object's dispatch table (icd_direct.c); anything else through the table
 * loaded above.  A maker's new object teaches icd_direct.c its table, in
 * case a vendor keeps one table per kind of object. */
#define CLSA_CL_DEFINE_CALL(name, params, args, obj)                      \
    cl_int clsa__##name params                                            \
    {                                                                     \
        const struct _cl_icd_dispatch *icd_ = clsa__icd_direct_table(obj); \
        if (icd_) return icd_->name args;                                 \
        return ready() ? table.name args : CLSA_CL_NOT_LOADED;            \
    }
#define CLSA_CL_IS_OBJECT(type) _Generic((type)0, void *: 0, default: 1)
#define CLSA_CL_DEFINE_MAKER(type, name, params, args, obj)               \
    type clsa__##name params                                              \
    {                                                                     \
        const struct _cl_icd_dispatch *icd_ = clsa__icd_direct_table(obj); \
        if (icd_) {                                                       \
            type made = icd_->name args;                                  \
            if (CLSA_CL_IS_OBJECT(type)) clsa__icd_direct_learn(made);    \
            return made;                                                  \
        }                                                                 \
        if (ready()) return table.name args;                              \
        if (err) *err = CLSA_CL_NOT_LOADED;                               \
        return NULL;                                                      \
    }
CLSA_CL_CALLS(CLSA_CL_DEFINE_CALL)
CLSA_CL_MAKERS(CLSA_CL_DEFINE_MAKER)
