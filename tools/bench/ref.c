/* Host references timed in the same run (libdivsufsort, single-threaded),
 * cached per (reference, input) so several operations on one input share
 * one measurement. */
#include "bench.h"

#include <divsufsort.h>
#include <divsufsort64.h>
#include <stdlib.h>
#include <string.h>

#define REF_CACHE 256

typedef struct ref_entry {
    char what[24];
    char input[200];
    int64_t n;
    double seconds;
} ref_entry;

static ref_entry cache[REF_CACHE];
static int ncache;

/* The last divbwt result, so bwt and cubwt-bwt on one input share one run. */
static struct {
    char input[200];
    int64_t n;
    uint8_t *bwt;
    int64_t primary;
    double seconds;
} last_bwt;

static void ref_forget_bwt(void)
{
    free(last_bwt.bwt);
    memset(&last_bwt, 0, sizeof last_bwt);
}

void ref_forget(void)
{
    ncache = 0;
    ref_forget_bwt();
}

/* Runs reference `what` once; out (may be NULL) receives its result:
 * SA (int32/int64) for divsufsort*, the BWT bytes for divbwt. */
static int ref_once(const char *what, const bench_input *in, void *out, double *seconds)
{
    size_t n = (size_t)in->n;
    int64_t *sa64 = NULL;
    int32_t *sa32 = NULL;
    uint8_t *bwt = NULL;
    int rc = 0;
    if (!strcmp(what, "divsufsort64")) sa64 = out ? out : malloc(n * 8 + 8);
    else if (!strcmp(what, "divbwt")) bwt = out ? out : malloc(n + 1);
    else sa32 = out ? out : malloc(n * 4 + 4);
    if (!sa64 && !sa32 && !bwt) return -1;
    double t0 = bench_now();
    if (sa64) rc = divsufsort64(in->text, sa64, (saidx64_t)n);
    else if (sa32) rc = divsufsort(in->text, sa32, (saidx_t)n);
    else rc = divbwt(in->text, bwt, NULL, (saidx_t)n) < 0;
    *seconds = bench_now() - t0;
    if (!out) {
        free(sa64);
        free(sa32);
        free(bwt);
    }
    return rc ? -1 : 0;
}

double ref_time(const bench_cfg *cfg, const char *what, const bench_input *in, void *out)
{
    if (cfg->ref_reps <= 0) return -1;
    if (cfg->ref_max_bytes > 0 && (double)in->n > cfg->ref_max_bytes) return -1;
    if (!strcmp(what, "divsufsort") && in->n > INT32_MAX) return -1;
    for (int i = 0; i < ncache && !out; i++)
        if (!strcmp(cache[i].what, what) && !strcmp(cache[i].input, in->name) &&
            cache[i].n == in->n)
            return cache[i].seconds;
    if (bench_past_deadline(cfg)) return -1;
    bench_progress("  host reference %s on %s", what, in->name);
    double best = -1;
    for (int r = 0; r < cfg->ref_reps; r++) {
        double t;
        if (ref_once(what, in, r == 0 ? out : NULL, &t)) return -1;
        if (best < 0 || t < best) best = t;
        if (cfg->row_budget_s > 0 && t * (r + 1) > cfg->row_budget_s) break;
    }
    if (ncache < REF_CACHE) {
        ref_entry *e = &cache[ncache++];
        snprintf(e->what, sizeof e->what, "%s", what);
        snprintf(e->input, sizeof e->input, "%s", in->name);
        e->n = in->n;
        e->seconds = best;
    }
    return best;
}

double ref_bwt(const bench_cfg *cfg, const bench_input *in, uint8_t *out, int64_t *primary)
{
    if (!(last_bwt.bwt && last_bwt.n == in->n && !strcmp(last_bwt.input, in->name))) {
        if (cfg->ref_reps <= 0 || in->n > INT32_MAX || bench_past_deadline(cfg) ||
            (cfg->ref_max_bytes > 0 && (double)in->n > cfg->ref_max_bytes))
            return -1;
        ref_forget_bwt();
        uint8_t *bwt = malloc((size_t)in->n + 1);
        if (!bwt) return -1;
        bench_progress("  host reference divbwt on %s", in->name);
        double best = -1;
        saidx_t pidx = -1;
        for (int r = 0; r < cfg->ref_reps; r++) {
            double t0 = bench_now();
            pidx = divbwt(in->text, bwt, NULL, (saidx_t)in->n);
            double t = bench_now() - t0;
            if (pidx < 0) break;
            if (best < 0 || t < best) best = t;
            if (cfg->row_budget_s > 0 && t * (r + 1) > cfg->row_budget_s) break;
        }
        if (pidx < 0) {
            free(bwt);
            return -1;
        }
        snprintf(last_bwt.input, sizeof last_bwt.input, "%s", in->name);
        last_bwt.n = in->n;
        last_bwt.bwt = bwt;
        last_bwt.primary = pidx;
        last_bwt.seconds = best;
    }
    if (out) memcpy(out, last_bwt.bwt, (size_t)in->n);
    if (primary) *primary = last_bwt.primary;
    return last_bwt.seconds;
}
