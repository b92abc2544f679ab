/* sa32 / sa64: host memory in and out (transfers included), buffers already
 * on the device (no transfers), one profiled run for the phase breakdown,
 * libdivsufsort on the same input, and a check of the result. */
#include "bench.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void row_init(bench_row *row, const char *op, const bench_input *in)
{
    memset(row, 0, sizeof *row);
    snprintf(row->op, sizeof row->op, "%s", op);
    if (in) {
        snprintf(row->input, sizeof row->input, "%s", in->name);
        snprintf(row->kind, sizeof row->kind, "%s", in->kind);
        snprintf(row->source, sizeof row->source, "%s", in->source);
        snprintf(row->note, sizeof row->note, "%s", in->note);
        row->n = in->n;
    }
    row->valid = -1;
    row->backend = -1;
    row->t_min = row->t_med = row->t_dev_min = row->t_dev_med = NAN;
    row->mbps = row->mbps_dev = row->peak_per_n = row->peak_per_n_dev = NAN;
    row->ref_s = row->speedup = row->speedup_dev = NAN;
    row->anchor_s = row->anchor_dev_s = row->x_anchor = row->x_anchor_dev = NAN;
    row->profiled_ms = row->elems_per_s = row->gbps = row->copy_gbps = row->copy_s = NAN;
    for (int p = 0; p < CLSA_PHASE_COUNT; p++) row->phase_ms[p] = NAN;
}

void row_note(bench_row *row, const char *fmt, ...)
{
    size_t l = strlen(row->note);
    if (l && l + 2 < sizeof row->note) {
        memcpy(row->note + l, "; ", 3);
        l += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(row->note + l, sizeof row->note - l, fmt, ap);
    va_end(ap);
}

int row_budget_spent(const bench_cfg *cfg, bench_row *row)
{
    if (!(cfg->row_budget_s > 0 && row->t_min > cfg->row_budget_s)) return 0;
    /* One call already used the row's budget: keep the time for the rest. */
    row_note(row, "device-resident run skipped: one call took %.1f s", row->t_min);
    return 1;
}

void row_rates(bench_row *row)
{
    double mb = (double)row->n / 1e6;
    if (row->reps) row->mbps = mb / row->t_min;
    if (row->t_dev_min > 0) row->mbps_dev = mb / row->t_dev_min;
    row->speedup = row->ref_s / row->t_min;
    row->speedup_dev = row->ref_s / row->t_dev_min;
}

void row_fail(bench_row *row, clsa_context *ctx, clsa_status st, const char *what)
{
    if (!st || row->status) return;
    row->status = st;
    const char *msg = ctx ? clsa_last_error(ctx) : "";
    snprintf(row->error, sizeof row->error, "%s: %s%s%s", what, clsa_status_string(st),
             msg && *msg ? ": " : "", msg ? msg : "");
}

void row_stats(bench_row *row, clsa_context *ctx)
{
    clsa_stats s;
    if (clsa_get_stats(ctx, &s) != CLSA_OK) return;
    row->peak_bytes = s.peak_device_bytes;
    row->peak_per_n = row->n ? (double)s.peak_device_bytes / (double)row->n : NAN;
    row->passes = s.doubling_passes + s.skew_levels;
    row->backend = s.last_backend;
    static const char *names[] = {"auto", "doubling", "skew", "hybrid", "runlen"};
    if (s.last_backend == CLSA_BACKEND_DEVICE && s.sa_algorithm >= 0 && s.sa_algorithm < 5 &&
        s.sa_algorithm_why[0] && !row->note[0])
        row_note(row, "%s, %u skew levels, %u doubling passes: %s", names[s.sa_algorithm],
                 s.skew_levels, s.doubling_passes, s.sa_algorithm_why);
}

/* The profiled run's most expensive kernels, "name ms/launches" by time. */
static void row_kernels(bench_row *row, clsa_context *pctx)
{
    struct { char name[40]; double ms; uint64_t launches; } k[96], t;
    size_t nk = 0, len = 0;
    while (nk < 96 && clsa_get_kernel_time(pctx, nk, k[nk].name, sizeof k[nk].name, &k[nk].ms,
                                           &k[nk].launches) == CLSA_OK)
        nk++;
    for (size_t i = 1; i < nk; i++) /* insertion sort, slowest first */
        for (size_t j = i; j > 0 && k[j].ms > k[j - 1].ms; j--) t = k[j], k[j] = k[j - 1], k[j - 1] = t;
    row->kernels[0] = 0;
    for (size_t i = 0; i < nk; i++) {
        int w = snprintf(row->kernels + len, sizeof row->kernels - len, "%s%s %.2f/%llu",
                         i ? " " : "", k[i].name, k[i].ms, (unsigned long long)k[i].launches);
        if (w < 0 || (size_t)w >= sizeof row->kernels - len) break;
        len += (size_t)w;
    }
}

/* Phase breakdown of one run on the profiled context. */
void row_phases(bench_row *row, clsa_context *pctx)
{
    clsa_stats s;
    if (clsa_get_stats(pctx, &s) != CLSA_OK) return;
    row->profiled_ms = 0;
    for (int p = 0; p < CLSA_PHASE_COUNT; p++) {
        row->phase_ms[p] = s.phase_ms[p];
        row->profiled_ms += s.phase_ms[p];
    }
    row->launches = s.kernel_launches;
    if (!row->passes) row->passes = s.doubling_passes + s.skew_levels;
    row_kernels(row, pctx);
}

typedef struct sa_arg {
    bench_env *env;
    clsa_context *ctx;
    const uint8_t *text;
    void *sa;
    cl_mem dtext, dsa;
    int64_t n;
    int index64;
} sa_arg;

static clsa_status reset(void *p)
{
    clsa_reset_stats(((sa_arg *)p)->ctx);
    return CLSA_OK;
}

static clsa_status sa_host(void *p)
{
    sa_arg *a = p;
    return a->index64 ? clsa_sa64(a->ctx, a->text, a->sa, a->n)
                      : clsa_sa32(a->ctx, a->text, a->sa, a->n);
}

static clsa_status sa_dev(void *p)
{
    sa_arg *a = p;
    clsa_status st = a->index64 ? clsa_sa64_mem(a->ctx, a->dtext, a->dsa, a->n)
                                : clsa_sa32_mem(a->ctx, a->dtext, a->dsa, a->n);
    return st ? st : env_finish(a->env);
}

int bench_check_sa(const bench_input *in, const void *sa, int index64, char *why, size_t cap)
{
    int valid = 0;
    clsa_status st = index64 ? clsa_check_sa64(in->text, sa, in->n, &valid, why, cap)
                             : clsa_check_sa32(in->text, sa, in->n, &valid, why, cap);
    return st ? 0 : valid;
}

/* Compiles the kernels (and fills the program cache) outside the timings:
 * one call on a prefix of up to 1 MiB on each context. */
static void warm_up(bench_env *env, const bench_input *in, int index64)
{
    int64_t n = in->n < 1048576 ? in->n : 1048576;
    void *sa = malloc((size_t)n * 8 + 8);
    if (!sa) return;
    sa_arg a = {env, env->ctx, in->text, sa, NULL, NULL, n, index64};
    sa_host(&a);
    a.ctx = env->pctx;
    sa_host(&a);
    free(sa);
}

/* The device-resident result against the host-memory call's (checked
 * itself up to --check-max): the same bytes, or the row is WRONG.  A read
 * and a compare: at every size unless --no-check. */
void row_check_resident(bench_env *env, const bench_cfg *cfg, cl_mem m, const void *host,
                        size_t bytes, bench_row *row)
{
    if (!cfg->check) return;
    clsa_status st;
    if (env_same(env, m, host, bytes, &st)) return;
    row->valid = 0;
    if (st) snprintf(row->error, sizeof row->error, "device-resident result unread: %s",
                     clsa_status_string(st));
    else snprintf(row->error, sizeof row->error,
                  "WRONG device-resident %s: differs from the host-memory call's", row->op);
    bench_progress("  %s %s: device-resident result: %s", row->op, row->input, row->error);
}

/* Device-resident timing: buffers made with plain OpenCL, text written once. */
static void sa_device_resident(bench_env *env, const bench_cfg *cfg, const bench_input *in,
                               int index64, const void *host_sa, bench_row *row)
{
    size_t w = index64 ? 8 : 4;
    clsa_status st;
    sa_arg a = {env, env->ctx, in->text, NULL, NULL, NULL, in->n, index64};
    a.dtext = env_buffer(env, (size_t)in->n, in->text, &st);
    if (a.dtext) a.dsa = env_buffer(env, (size_t)in->n * w, NULL, &st);
    if (!a.dtext || !a.dsa) {
        /* The host-memory figures stand; only the device-resident part is missing. */
        row_note(row, "no device-resident run: %s", clsa_status_string(st));
        goto done;
    }
    int count = 0;
    st = bench_repeat(cfg, reset, sa_dev, &a, &row->t_dev_min, &row->t_dev_med, &count);
    if (st) {
        row_fail(row, env->ctx, st, index64 ? "clsa_sa64_mem" : "clsa_sa32_mem");
        goto done;
    }
    row_check_resident(env, cfg, a.dsa, host_sa, (size_t)in->n * w, row);
    clsa_stats s;
    if (clsa_get_stats(env->ctx, &s) == CLSA_OK)
        row->peak_per_n_dev = (double)s.peak_device_bytes / (double)in->n; /* text and SA in */
done:
    if (a.dtext) clReleaseMemObject(a.dtext);
    if (a.dsa) clReleaseMemObject(a.dsa);
}

/* The memory plan (clsa_sa_plan) of the timed call, for the log. */
static void print_plan(clsa_context *ctx, int64_t n, int index64)
{
    static const char *routes[] = {"host", "device in memory", "device out of core"};
    clsa_sa_plan_info p;
    if (clsa_sa_plan(ctx, n, 1, index64, &p) != CLSA_OK) {
        bench_progress("  plan: %s", clsa_last_error(ctx));
        return;
    }
    bench_progress("  plan: route %s%s, in-memory need %llu B, budget %llu B, chunk %llu items "
                   "(%llu B on the device), host %llu B",
                   routes[p.route >= 0 && p.route <= 2 ? p.route : 0],
                   p.index64_host ? " (64-bit host arrays)" : "",
                   (unsigned long long)p.in_memory_bytes, (unsigned long long)p.budget_bytes,
                   (unsigned long long)p.chunk_items, (unsigned long long)p.device_bytes,
                   (unsigned long long)p.host_bytes);
}

void op_sa(bench_env *env, const bench_cfg *cfg, const bench_input *in, int index64,
           bench_row *row)
{
    const char *fn = index64 ? "clsa_sa64" : "clsa_sa32";
    size_t w = index64 ? 8 : 4;
    row_init(row, index64 ? "sa64" : "sa32", in);
    snprintf(row->ref_name, sizeof row->ref_name, "%s", index64 ? "divsufsort64" : "divsufsort");
    void *sa = malloc((size_t)in->n * w + w);
    if (!sa) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host SA buffer");
        return;
    }
    warm_up(env, in, index64);
    print_plan(env->ctx, in->n, index64);
    sa_arg a = {env, env->ctx, in->text, sa, NULL, NULL, in->n, index64};
    bench_progress("  %s %s: host memory in/out, up to %d reps", row->op, in->name, cfg->reps);
    clsa_status st = bench_repeat(cfg, reset, sa_host, &a, &row->t_min, &row->t_med, &row->reps);
    row_fail(row, env->ctx, st, fn);
    if (row->reps) row_stats(row, env->ctx);
    if (!st && bench_should_check(cfg, in->n)) {
        /* The timed reps' result before the check: the O(n) checker is one
         * thread of random text reads (40-60 ns a symbol at billions), far
         * longer than a device SA there, and a row killed by its timeout
         * while checking would otherwise leave no time at all. */
        bench_progress("  %s %s: %d reps, min %.3f s; checking", row->op, in->name, row->reps,
                       row->t_min);
        double t0 = bench_now();
        char why[200] = "";
        row->valid = bench_check_sa(in, sa, index64, why, sizeof why);
        if (!row->valid) snprintf(row->error, sizeof row->error, "WRONG SA: %s", why);
        bench_progress("  %s %s: check %.1f s: %s", row->op, in->name, bench_now() - t0,
                       row->valid ? "valid" : "WRONG");
    }
    if (!st && !cfg->no_resident && !row_budget_spent(cfg, row) && !bench_past_deadline(cfg)) {
        bench_progress("  %s %s: device-resident buffers", row->op, in->name);
        sa_device_resident(env, cfg, in, index64, sa, row);
    }
    if (!st && cfg->profile && !bench_past_deadline(cfg)) {
        bench_progress("  %s %s: profiled run", row->op, in->name);
        a.ctx = env->pctx;
        /* a first call of this size first: the profile leaves out first
         * uses (allocations, the driver's lazy loading of kernels) */
        clsa_status ps = sa_host(&a);
        clsa_reset_stats(env->pctx);
        if (ps == CLSA_OK) ps = sa_host(&a);
        if (ps == CLSA_OK) row_phases(row, env->pctx);
        else row_fail(row, env->pctx, ps, "profiled run");
    }
    free(sa);
    row->ref_s = ref_time(cfg, row->ref_name, in, NULL);
    if (row->ref_s < 0) row->ref_s = NAN;
    row_rates(row);
}
