/* The suffix array's routing (dispatch.c): which backend and path a
 * suffix array of a host text takes. */
#ifndef CLSA_SA_DISPATCH_H
#define CLSA_SA_DISPATCH_H
#include "clsa.h"

/* The suffix array of a host text of n symbols (sym = 1, 2 or 4 bytes) on
 * the backend the context's settings pick (device, or the host for NULL,
 * HOST, AUTO below the threshold), as clsa_sa32 ... clsa_sa64_u32 do once
 * their arguments are checked; ctx locked (dispatch.c). */
clsa_status clsa__sa_pick_run(clsa_context *ctx, const void *text, int sym, void *sa, int64_t n,
                              int index64);
/* The same with sep >= 0 (bytes, device only): the generalized suffix
 * array of strings joined by byte sep (clsa__sa_device_gsa).  Where that
 * cannot run (host backend, out of core), *declined is set and nothing
 * is done. */
clsa_status clsa__sa_pick_gsa(clsa_context *ctx, const void *text, int sym, int sep, void *sa,
                              int64_t n, int index64, int *declined);
/* The suffix array of a device text into the caller's device array sa
 * (clsa_sa32_mem/64_mem, ctx locked): in memory on the device, or where its
 * n-entry arrays would pass the largest allocation or n >= 2^32, through
 * host memory by the out-of-core route. */
clsa_status clsa__sa_mem_run(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n, int index64);
/* Why a device suffix array of n symbols takes its route on ctx (which
 * has a device): CLSA_WHY_FITS for in memory, else the clsa_sa_plan_why
 * that sends it out of core.  The index calls follow it (index_run.h). */
int clsa__sa_device_why(clsa_context *ctx, int64_t n, int sym, int index64);
/* The device suffix array of a device text by the algorithm
 * clsa_options.algorithm picks (auto: host/sa/skew_auto.c). */
clsa_status clsa__sa_device_chosen(clsa_context *ctx, cl_mem dtext, int sym, int writable,
                                   cl_mem dsa, int64_t n, int index64);
/* clsa_sa_plan's answer for ctx (locked; NULL: the host), its arguments
 * checked; clsa__sa_plan takes the lock for it (ctx not locked). */
clsa_status clsa__sa_plan_route(clsa_context *ctx, int64_t n, int sym_bytes, int index64,
                                clsa_sa_plan_info *out);
clsa_status clsa__sa_plan(clsa_context *ctx, int64_t n, int sym_bytes, int index64,
                          clsa_sa_plan_info *out);
/* A whole suffix array call on a host text whose arguments are checked
 * (n > 0): the call's frame around clsa__sa_pick_run (clsa_sa32 ...
 * clsa_sa64_u32, and clsa_sa32/64_multi for one context). */
clsa_status clsa__sa_call(clsa_context *ctx, const void *text, int sym, void *sa, int64_t n,
                          int index64);
#endif
