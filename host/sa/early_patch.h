/* The doubling loop's side of a device SA's early download
 * (host/runtime/early_read.c): the slots still unsorted when it starts,
 * and their final values sent down after the loop into the host array. */
#ifndef CLSA_SA_EARLY_PATCH_H
#define CLSA_SA_EARLY_PATCH_H
#include "groups.h"

typedef struct clsa__early_patch {
    cl_mem slots; /* count slots, then (at the end) their count values */
    size_t count;
    int on;       /* the download runs: the slots must be patched */
} clsa__early_patch;

/* Before a doubling pass (or a part's exchange) of a direct-mode loop
 * (w->sa set): where ctx->early.dst names the SA's host array and at most
 * 1 in ctx->tune.early_read slots is unsorted, lists the unsorted slots
 * and starts the download.  Leaves w->marked clear (the next pass gathers
 * its heads). */
clsa_status clsa__early_patch_begin(clsa_context *ctx, clsa__sa_work *w, clsa__early_patch *e);

/* After the loop (the SA buffer final): the listed slots' values into
 * ctx->early.dst once the download is done; ctx->early.taken set. */
clsa_status clsa__early_patch_end(clsa_context *ctx, clsa__sa_work *w, clsa__early_patch *e);

/* Waits for a download still running (a failed loop) and frees e. */
void clsa__early_patch_drop(clsa_context *ctx, clsa__early_patch *e);
#endif
