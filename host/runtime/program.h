/* Programs and kernels (program.c): embedded sources, building, caching. */
#ifndef CLSA_RT_PROGRAM_H
#define CLSA_RT_PROGRAM_H

#include "clsa.h"
#include "cl_loader.h"
#include <stddef.h>

/* ---- programs and kernels (program.c) -----------------------------------
 * name: base name of a file in a folder of cl_kernels/ ("scan"); the embedded common.cl is
 * prepended.  "prelude+file" ("radix_rank+radix_sort") also prepends the
 * family's shared prelude file after common.cl.  index64: builds with -DCLSA_IDX64=1 (idx_t = ulong, else uint).
 * extra: further build options or NULL.  Kernels are created once per
 * (program, name) and kept in the context. */
clsa_status clsa__kernel(clsa_context *ctx, const char *file, int index64, const char *extra,
                         const char *kernel, cl_kernel *out);
/* Embedded sources (generated kernels.c). */
typedef struct clsa_embedded_source {
    const char *name;
    const unsigned char *data;
    size_t size;
    const char *sha256;
    const char *path; /* under cl_kernels/: "prim/scan.cl" */
} clsa_embedded_source;
const clsa_embedded_source *clsa__find_source(const char *name);
/* Test hook: replace an embedded source by text (NULL restores). */
void clsa__override_source(const char *name, const char *text);

/* The program cache folder (program.c): 0 when caching is off (CLSA_CACHE=0),
 * the folder is unsafe (not private to the user) or the path does not fit. */
int clsa__cache_dir(char *dir, size_t cap);

/* Whether hay contains needle[0..nlen), ignoring ASCII case (selectors). */
int clsa__contains_nocase(const char *hay, const char *needle, size_t nlen);

#endif
