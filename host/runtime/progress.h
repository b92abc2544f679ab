/* Progress and cancellation of a public call (progress.c). */
#ifndef CLSA_RT_PROGRESS_H
#define CLSA_RT_PROGRESS_H

#include "clsa.h"

/* ---- progress and cancellation (progress.c) ---------------------------------
 * A public call's progress runs from 0 to 1.  clsa__lock starts it afresh
 * (the whole call = [0, 1]); a step that runs inside a larger call (the
 * suffix array inside the BWT) is given its slice with clsa__progress_slice
 * and reports its own fraction f in [0, 1], reported as lo + f (hi - lo).
 * clsa__progress returns CLSA_ERR_CANCELLED (message set, queue drained so
 * no kernel still uses the caller's memory) when the callback says stop;
 * the caller unwinds through its clean-up label.  Never call it from a
 * point where the device holds half-written caller data the caller still
 * relies on. */
void clsa__progress_begin(clsa_context *ctx);
void clsa__progress_slice(clsa_context *ctx, double lo, double hi);
clsa_status clsa__progress(clsa_context *ctx, const char *phase, double fraction);
/* The successful end of a public call: reports fraction 1 ("done"). */
clsa_status clsa__progress_end(clsa_context *ctx, clsa_status st);

#endif
