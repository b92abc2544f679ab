/* sa32-multi / sa64-multi: clsa_sa32_multi / clsa_sa64_multi over the
 * devices CLSA_BENCH_DEVICES names
 * (comma-separated selectors, default "nvidia:0,nvidia:1"), host memory in
 * and out as sa32's first column, best of the reps, checked.  The note
 * gives each member's peak device bytes; the row beside it to compare is
 * sa32 on one of the same devices (docs/bench/log). */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define MULTI_MAX 16

typedef struct multi_arg {
    clsa_context *ctx[MULTI_MAX];
    int k;
    const uint8_t *text;
    void *sa;
    int64_t n;
    int index64;
} multi_arg;

static clsa_status reset_all(void *p)
{
    multi_arg *a = p;
    for (int r = 0; r < a->k; r++) clsa_reset_stats(a->ctx[r]);
    return CLSA_OK;
}

static clsa_status run_multi(void *p)
{
    multi_arg *a = p;
    return a->index64 ? clsa_sa64_multi(a->ctx, a->k, a->text, a->sa, a->n)
                      : clsa_sa32_multi(a->ctx, a->k, a->text, a->sa, a->n);
}

/* One context per selector of the list (profiled: kernel and copy times
 * by phase); 0, or -1 with the row failed. */
static int open_members(multi_arg *a, bench_row *row, int profile)
{
    const char *list = getenv("CLSA_BENCH_DEVICES");
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list && *list ? list : "nvidia:0,nvidia:1");
    for (char *save = NULL, *s = strtok_r(buf, ",", &save); s && a->k < MULTI_MAX;
         s = strtok_r(NULL, ",", &save)) {
        clsa_options o;
        clsa_options_init(&o);
        o.device = s;
        o.backend = CLSA_BACKEND_DEVICE;
        o.profile = profile;
        clsa_status st = clsa_create(&o, &a->ctx[a->k]);
        if (st) {
            row_fail(row, NULL, st, s);
            return -1;
        }
        if (!profile) row_note(row, "%s", s);
        a->k++;
    }
    return 0;
}

/* A member's copies, unpacking and kernels of 1 ms or more by name. */
static void named_times(const clsa_context *ctx, int r, bench_row *row)
{
    char buf[480], name[64];
    size_t len = 0;
    double ms;
    uint64_t n;
    for (size_t i = 0; clsa_get_kernel_time(ctx, i, name, sizeof name, &ms, &n) == CLSA_OK; i++) {
        if (!strstr(name, "staged") && !strstr(name, "unpack") && !strstr(name, "Buffer") &&
            ms < 1.0)
            continue;
        int w = snprintf(buf + len, sizeof buf - len, " %s %.1f/%llu", name, ms,
                         (unsigned long long)n);
        if (w < 0 || (size_t)w >= sizeof buf - len) break;
        len += (size_t)w;
    }
    if (len) row_note(row, "member %d copies and kernels ms:%s", r, buf);
}

/* One run on profiled contexts: each member's kernel and copy time by
 * phase, and the run's wall time; the rest of the wall is the host's share
 * (the rank exchanges, the members waiting for one another). */
static void profiled(multi_arg *a, bench_row *row)
{
    for (int r = 0; r < a->k; r++) clsa_destroy(a->ctx[r]);
    int k = a->k;
    a->k = 0;
    if (open_members(a, row, 1) || a->k != k) return;
    double t0 = bench_now();
    clsa_status st = run_multi(a);
    double wall = bench_now() - t0;
    if (st) return;
    row_note(row, "profiled run %.1f ms", wall * 1e3);
    for (int r = 0; r < a->k; r++) {
        clsa_stats s;
        if (clsa_get_stats(a->ctx[r], &s) != CLSA_OK) continue;
        char buf[400];
        size_t len = 0;
        double total = 0;
        for (int p = 0; p < CLSA_PHASE_COUNT; p++) {
            if (!(s.phase_ms[p] > 0)) continue;
            total += s.phase_ms[p];
            int w = snprintf(buf + len, sizeof buf - len, " %s %.1f", clsa_phase_name(p),
                             s.phase_ms[p]);
            if (w < 0 || (size_t)w >= sizeof buf - len) break;
            len += (size_t)w;
        }
        row_note(row, "member %d ms:%s (total %.1f, %llu launches)", r, len ? buf : " -", total,
                 (unsigned long long)s.kernel_launches);
        named_times(a->ctx[r], r, row);
    }
}

void op_multi(bench_env *env, const bench_cfg *cfg, const bench_input *in, int index64,
              bench_row *row)
{
    (void)env;
    row_init(row, index64 ? "sa64-multi" : "sa32-multi", in);
    multi_arg a;
    memset(&a, 0, sizeof a);
    a.text = in->text;
    a.n = in->n;
    a.index64 = index64;
    a.sa = malloc((size_t)in->n * (index64 ? 8 : 4) + 8);
    if (!a.sa) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host SA buffer");
        return;
    }
    if (open_members(&a, row, 0)) goto done;
    /* kernels compiled and the first large allocations paid outside the timing */
    multi_arg warm = a;
    warm.n = in->n < 1048576 ? in->n : 1048576;
    run_multi(&warm);
    bench_progress("  %s %s: %d devices, up to %d reps", row->op, in->name, a.k, cfg->reps);
    clsa_status st = bench_repeat(cfg, reset_all, run_multi, &a, &row->t_min, &row->t_med,
                                  &row->reps);
    row_fail(row, a.ctx[0], st, index64 ? "clsa_sa64_multi" : "clsa_sa32_multi");
    for (int r = 0; !st && r < a.k; r++) {
        clsa_stats s;
        if (clsa_get_stats(a.ctx[r], &s) != CLSA_OK) continue;
        row_note(row, "member %d peak %.2f GB, %u passes", r, (double)s.peak_device_bytes / 1e9,
                 (unsigned)s.doubling_passes);
        if (!row->peak_bytes || s.peak_device_bytes > row->peak_bytes) {
            row->peak_bytes = s.peak_device_bytes;
            row->peak_per_n = in->n ? (double)s.peak_device_bytes / (double)in->n : 0;
        }
    }
    if (!st && bench_should_check(cfg, in->n)) {
        char why[200] = "";
        row->valid = bench_check_sa(in, a.sa, index64, why, sizeof why);
        if (!row->valid) snprintf(row->error, sizeof row->error, "WRONG SA: %s", why);
    }
    if (!st && cfg->profile && !bench_past_deadline(cfg)) profiled(&a, row);
done:
    for (int r = 0; r < a.k; r++) clsa_destroy(a.ctx[r]);
    free(a.sa);
    row_rates(row);
}
