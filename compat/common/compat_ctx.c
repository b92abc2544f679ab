/* The process-wide clsa context of the drop-in libraries (compat_ctx.h). */
#include "compat_ctx.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static pthread_once_t ctx_once = PTHREAD_ONCE_INIT;
static int backend = CLSA_BACKEND_AUTO;
static int64_t min_bytes = CLSA_COMPAT_DEFAULT_MIN_BYTES;
static int min_forced;
static clsa_context *shared;
static int on_device;          /* the context exists and routing may use it */
static char why[256];

/* "N" with an optional K, M or G suffix; -1 when unset or malformed. */
static int64_t parse_bytes(const char *s)
{
    if (!s || !*s) return -1;
    char *end;
    double v = strtod(s, &end);
    if (end == s || v < 0) return -1;
    switch (toupper((unsigned char)*end)) {
    case 'K': v *= 1024.0; break;
    case 'M': v *= 1048576.0; break;
    case 'G': v *= 1073741824.0; break;
    default: break;
    }
    return v >= 9.2e18 ? INT64_MAX : (int64_t)v;
}

static void read_env(void)
{
    const char *b = getenv("CLSA_BACKEND");
    if (b && !strcasecmp(b, "host")) backend = CLSA_BACKEND_HOST;
    else if (b && !strcasecmp(b, "device")) backend = CLSA_BACKEND_DEVICE;
    int64_t m = parse_bytes(getenv("CLSA_COMPAT_MIN_BYTES"));
    if (m >= 0) {
        min_bytes = m;
        min_forced = 1;
    }
}

static void release(void)
{
    on_device = 0;
    clsa_destroy(shared);
    shared = NULL;
}

/* Auto keeps CPU OpenCL devices off: the CPU path beats them. */
static int device_wanted(clsa_context *ctx)
{
    clsa_device_info info;
    if (clsa_get_device_info(ctx, &info) != CLSA_OK) return 0;
    return info.is_gpu || backend == CLSA_BACKEND_DEVICE || min_forced;
}

/* Oclgrind aborts when its objects are released from an exit handler
 * (heap corruption in its own teardown): its context is left to the
 * process's end. */
static int exit_release_safe(clsa_context *ctx)
{
    clsa_device_info info;
    return clsa_get_device_info(ctx, &info) != CLSA_OK || !strstr(info.platform, "Oclgrind");
}

static void open_shared(void)
{
    if (clsa_opencl_available(why, sizeof why) != CLSA_OK) return;
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE; /* routing is decided here, not in clsa */
    if (clsa_create_ex(&o, &shared, why, sizeof why) != CLSA_OK) {
        shared = NULL;
        return;
    }
    on_device = device_wanted(shared);
    if (!on_device) { /* nothing will use it: give it back now */
        snprintf(why, sizeof why, "a CPU OpenCL device: the CPU path is faster");
        clsa_destroy(shared);
        shared = NULL;
    } else if (exit_release_safe(shared)) {
        atexit(release); /* in a shared object: also at dlclose */
    }
}

int clsa_compat_use_device(int64_t n_bytes)
{
    pthread_once(&env_once, read_env);
    if (backend == CLSA_BACKEND_HOST || n_bytes < min_bytes) return 0;
    return clsa_compat_context() != NULL;
}

clsa_context *clsa_compat_context(void)
{
    pthread_once(&env_once, read_env);
    if (backend == CLSA_BACKEND_HOST) return NULL;
    pthread_once(&ctx_once, open_shared);
    return on_device ? shared : NULL;
}

const char *clsa_compat_why(void)
{
    return why;
}
