/* Progress reports and cancellation of long calls (clsa_options.progress).
 *
 * The library's steps report fractions of their own work; the call that
 * runs them maps each step into its slice of the whole call, so a caller
 * sees one non-decreasing fraction from 0 to 1 per public call, whatever
 * path (device, host, SA inside BWT inside FM-index) the call took. */
#include "context.h"
#include "progress.h"
#include "status.h"

/* Reports per call: the doubling loop reports once per pass (at most ~40
 * passes); the cap keeps a caller's display cheap whatever changes later. */
#define PROGRESS_MAX_CALLS 400

void clsa__progress_begin(clsa_context *ctx)
{
    ctx->progress_lo = 0.0;
    ctx->progress_hi = 1.0;
    ctx->progress_last = 0.0;
    ctx->progress_calls = 0;
}

void clsa__progress_slice(clsa_context *ctx, double lo, double hi)
{
    if (!ctx) return;
    ctx->progress_lo = lo;
    ctx->progress_hi = hi;
}

static clsa_status report(clsa_context *ctx, const char *phase, double f)
{
    if (f < ctx->progress_last) f = ctx->progress_last; /* never backwards */
    if (f > 1.0) f = 1.0;
    /* Past the cap, only the final report still goes out. */
    if (ctx->progress_calls >= PROGRESS_MAX_CALLS && f < 1.0) return CLSA_OK;
    ctx->progress_calls++;
    ctx->progress_last = f;
    if (ctx->progress(ctx->progress_user, phase, f) == 0) return CLSA_OK;
    /* Kernels queued before the stop may still read or write the caller's
     * arrays (zero-copy buffers): let them end before the call returns. */
    if (ctx->queue) clFinish(ctx->queue);
    return clsa__fail(ctx, CLSA_ERR_CANCELLED, "cancelled by the progress callback (%s, %.0f%%)",
                      phase, 100.0 * f);
}

clsa_status clsa__progress(clsa_context *ctx, const char *phase, double fraction)
{
    if (!ctx || !ctx->progress) return CLSA_OK;
    if (!(fraction >= 0.0)) fraction = 0.0; /* NaN too */
    if (fraction > 1.0) fraction = 1.0;
    double lo = ctx->progress_lo, hi = ctx->progress_hi;
    return report(ctx, phase, lo + fraction * (hi - lo));
}

clsa_status clsa__progress_end(clsa_context *ctx, clsa_status st)
{
    if (st != CLSA_OK || !ctx || !ctx->progress) return st;
    return report(ctx, "done", 1.0);
}
