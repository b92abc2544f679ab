/* Shared pieces of the libFuzzer harnesses: one device context per process
 * (PoCL unless CLSA_DEVICE says otherwise), made once. */
#ifndef CLSA_FUZZ_COMMON_H
#define CLSA_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clsa.h"

static clsa_context *fuzz_ctx;

static clsa_context *fuzz_context(void)
{
    if (fuzz_ctx) return fuzz_ctx;
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    o.device = getenv("CLSA_DEVICE") ? getenv("CLSA_DEVICE") : "pocl";
    char err[512];
    if (clsa_create_ex(&o, &fuzz_ctx, err, sizeof err) != CLSA_OK) {
        fprintf(stderr, "fuzz: no device '%s': %s\n", o.device, err);
        abort();
    }
    return fuzz_ctx;
}

/* A finding: print and abort, so libFuzzer saves the input. */
#define FUZZ_CHECK(cond, ...)                                  \
    do {                                                       \
        if (!(cond)) {                                         \
            fprintf(stderr, "fuzz: check failed: %s: ", #cond); \
            fprintf(stderr, __VA_ARGS__);                      \
            fputc('\n', stderr);                               \
            abort();                                           \
        }                                                      \
    } while (0)

#endif
