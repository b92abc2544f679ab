/* Index operations on a text: bwt, lcp, fm-count.  Referenced weakly: an
 * operation whose functions are not in the library yet is reported as
 * unavailable (and refused by the driver) instead of breaking the build. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#pragma weak clsa_bwt
#pragma weak clsa_bwt_mem
#pragma weak clsa_unbwt
#pragma weak clsa_lcp32
#pragma weak clsa_lcp32_mem
#pragma weak clsa_fm_create
#pragma weak clsa_fm_count
#pragma weak clsa_fm_free

int op_index_available(const char *op)
{
    if (!strcmp(op, "bwt")) return &clsa_bwt && &clsa_bwt_mem && &clsa_unbwt;
    if (!strcmp(op, "lcp")) return &clsa_lcp32 && &clsa_lcp32_mem;
    if (!strcmp(op, "fm-count")) return &clsa_fm_create && &clsa_fm_count && &clsa_fm_free;
    return 0;
}

typedef struct idx_arg {
    bench_env *env;
    clsa_context *ctx;
    const bench_input *in;
    uint8_t *out;          /* bwt bytes or lcp entries */
    int64_t primary;
    cl_mem dtext, dout, dsa;
} idx_arg;

static clsa_status reset(void *p)
{
    clsa_reset_stats(((idx_arg *)p)->ctx);
    return CLSA_OK;
}

static clsa_status bwt_host(void *p)
{
    idx_arg *a = p;
    return clsa_bwt(a->ctx, a->in->text, a->out, a->in->n, &a->primary);
}

static clsa_status bwt_dev(void *p)
{
    idx_arg *a = p;
    clsa_status st = clsa_bwt_mem(a->ctx, a->dtext, a->dout, a->in->n, &a->primary);
    return st ? st : env_finish(a->env);
}

static clsa_status lcp_host(void *p)
{
    idx_arg *a = p;
    return clsa_lcp32(a->ctx, a->in->text, (int32_t *)a->out, a->in->n);
}

static clsa_status lcp_dev(void *p)
{
    idx_arg *a = p;
    clsa_status st = clsa_lcp32_mem(a->ctx, a->dtext, a->dsa, a->dout, a->in->n);
    return st ? st : env_finish(a->env);
}

static clsa_status sa_dev(void *p)
{
    idx_arg *a = p;
    clsa_status st = clsa_sa32_mem(a->ctx, a->dtext, a->dsa, a->in->n);
    return st ? st : env_finish(a->env);
}

static void phases(bench_row *row, clsa_context *pctx)
{
    row->passes = 0; /* the profiled run's own count */
    row_phases(row, pctx);
}


/* Host-memory reps, then a profiled run, on fn. */
static clsa_status host_and_profile(bench_env *env, const bench_cfg *cfg, bench_fn fn,
                                    idx_arg *a, bench_row *row, const char *what)
{
    a->ctx = env->ctx;
    fn(a); /* warm-up: kernels compiled outside the timings */
    bench_progress("  %s %s: host memory in/out, up to %d reps", row->op, a->in->name, cfg->reps);
    clsa_status st = bench_repeat(cfg, reset, fn, a, &row->t_min, &row->t_med, &row->reps);
    row_fail(row, env->ctx, st, what);
    if (row->reps) row_stats(row, env->ctx);
    if (!st && cfg->profile && !bench_past_deadline(cfg)) {
        a->ctx = env->pctx;
        fn(a);
        clsa_reset_stats(env->pctx);
        if (fn(a) == CLSA_OK) phases(row, env->pctx);
        a->ctx = env->ctx;
    }
    return st;
}

/* Without divbwt's reference (--ref-reps 0, or n > 2^31): the BWT checked
 * by inverting it on the device (clsa_unbwt) into the text again. */
static void bwt_check_inverse(bench_env *env, const bench_input *in, const idx_arg *a,
                              uint8_t *back, bench_row *row)
{
    bench_progress("  bwt %s: checking by inversion (clsa_unbwt)", in->name);
    clsa_status st = clsa_unbwt(env->ctx, a->out, back, in->n, a->primary);
    if (st) {
        row_note(row, "not checked: clsa_unbwt: %s", clsa_status_string(st));
        return;
    }
    row->valid = !memcmp(back, in->text, (size_t)in->n);
    if (!row->valid) snprintf(row->error, sizeof row->error, "WRONG BWT: its inverse differs");
    else row_note(row, "checked by inversion (clsa_unbwt)");
}

static void op_bwt(bench_env *env, const bench_cfg *cfg, const bench_input *in, bench_row *row)
{
    idx_arg a = {env, env->ctx, in, malloc((size_t)in->n + 1), 0, NULL, NULL, NULL};
    uint8_t *ref = malloc((size_t)in->n + 1);
    snprintf(row->ref_name, sizeof row->ref_name, "divbwt");
    clsa_status st = CLSA_OK;
    if (!a.out || !ref) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host buffers");
        goto done;
    }
    if (host_and_profile(env, cfg, bwt_host, &a, row, "clsa_bwt")) goto done;
    int64_t rp = -1;
    row->ref_s = ref_bwt(cfg, in, ref, &rp);
    if (row->ref_s < 0) row->ref_s = NAN;
    else if (bench_should_check(cfg, in->n)) {
        row->valid = rp == a.primary && !memcmp(ref, a.out, (size_t)in->n);
        if (!row->valid) snprintf(row->error, sizeof row->error, "WRONG BWT or primary");
    }
    if (row->valid < 0 && bench_should_check(cfg, in->n)) bwt_check_inverse(env, in, &a, ref, row);
    if (bench_past_deadline(cfg)) goto done;
    a.dtext = env_buffer(env, (size_t)in->n, in->text, &st);
    if (a.dtext) a.dout = env_buffer(env, (size_t)in->n, NULL, &st);
    if (st) {
        row_note(row, "no device-resident run (%.0f)", (double)st);
        goto done;
    }
    bench_progress("  bwt %s: device-resident", in->name);
    int count;
    int64_t host_primary = a.primary;
    st = bench_repeat(cfg, reset, bwt_dev, &a, &row->t_dev_min, &row->t_dev_med, &count);
    row_fail(row, env->ctx, st, "clsa_bwt_mem");
    if (!st && a.primary != host_primary && cfg->check) {
        row->valid = 0;
        snprintf(row->error, sizeof row->error, "WRONG device-resident primary index");
    }
    if (!st) row_check_resident(env, cfg, a.dout, a.out, (size_t)in->n, row);
done:
    if (a.dtext) clReleaseMemObject(a.dtext);
    if (a.dout) clReleaseMemObject(a.dout);
    free(a.out);
    free(ref);
}

/* Kasai et al.: lcp from text and sa on the host. */
static int kasai(const bench_input *in, const int32_t *sa, int32_t *lcp)
{
    int64_t n = in->n;
    int32_t *rank = malloc((size_t)n * 4 + 4);
    if (!rank) return -1;
    for (int64_t i = 0; i < n; i++) rank[sa[i]] = (int32_t)i;
    int64_t h = 0;
    for (int64_t i = 0; i < n; i++) {
        if (rank[i] == 0) {
            lcp[0] = 0;
            h = 0;
            continue;
        }
        int64_t j = sa[rank[i] - 1];
        while (i + h < n && j + h < n && in->text[i + h] == in->text[j + h]) h++;
        lcp[rank[i]] = (int32_t)h;
        if (h) h--;
    }
    free(rank);
    return 0;
}

/* Host reference: libdivsufsort's time (cached from the sa32 row when there
 * is one) plus Kasai's, run on clsa's suffix array (checked in the sa32
 * row; libdivsufsort's if clsa fails); the LCP is checked against Kasai's. */
static void lcp_ref(bench_env *env, const bench_cfg *cfg, const bench_input *in,
                    const int32_t *lcp, bench_row *row)
{
    int timed = cfg->ref_reps > 0 &&
                !(cfg->ref_max_bytes > 0 && (double)in->n > cfg->ref_max_bytes);
    /* untimed: Kasai's LCP of clsa's SA, for the check alone */
    if (!timed && !bench_should_check(cfg, in->n)) return;
    int32_t *sa = malloc((size_t)in->n * 4 + 4), *ref = malloc((size_t)in->n * 4 + 4);
    double tsa = sa && ref ? (timed ? ref_time(cfg, "divsufsort", in, NULL) : 0) : -1;
    if (tsa >= 0 && clsa_sa32(env->ctx, in->text, sa, in->n) != CLSA_OK &&
        ref_time(cfg, "divsufsort", in, sa) < 0)
        tsa = -1;
    if (tsa >= 0) {
        double t0 = bench_now();
        if (kasai(in, sa, ref) == 0) {
            double tk = bench_now() - t0;
            if (timed) row->ref_s = tsa + tk;
            row_note(row, "kasai alone %.3f s", tk);
            if (bench_should_check(cfg, in->n)) {
                row->valid = !memcmp(ref, lcp, (size_t)in->n * 4);
                if (!row->valid) snprintf(row->error, sizeof row->error, "WRONG LCP");
            }
        }
    }
    free(sa);
    free(ref);
}

static void op_lcp(bench_env *env, const bench_cfg *cfg, const bench_input *in, bench_row *row)
{
    idx_arg a = {env, env->ctx, in, malloc((size_t)in->n * 4 + 4), 0, NULL, NULL, NULL};
    snprintf(row->ref_name, sizeof row->ref_name, "divsufsort+kasai");
    clsa_status st = CLSA_OK;
    if (!a.out) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host buffers");
        return;
    }
    if (in->n > INT32_MAX) {
        row_fail(row, NULL, CLSA_ERR_TOO_LARGE, "lcp bench is 32-bit only");
        goto done;
    }
    if (host_and_profile(env, cfg, lcp_host, &a, row, "clsa_lcp32")) goto done;
    lcp_ref(env, cfg, in, (const int32_t *)a.out, row);
    if (bench_past_deadline(cfg)) goto done;
    /* Device-resident: LCP from an SA already on the device, beside the SA time. */
    a.dtext = env_buffer(env, (size_t)in->n, in->text, &st);
    if (a.dtext) a.dsa = env_buffer(env, (size_t)in->n * 4, NULL, &st);
    if (a.dsa) a.dout = env_buffer(env, (size_t)in->n * 4, NULL, &st);
    if (st) {
        row_note(row, "no device-resident run (%.0f)", (double)st);
        goto done;
    }
    double sa_min = NAN, sa_med;
    int count;
    bench_cfg one = *cfg;
    one.reps = cfg->reps < 3 ? cfg->reps : 3;
    if ((st = bench_repeat(&one, reset, sa_dev, &a, &sa_min, &sa_med, &count))) {
        row_fail(row, env->ctx, st, "clsa_sa32_mem before lcp");
        goto done;
    }
    bench_progress("  lcp %s: device-resident, from the SA on the device", in->name);
    st = bench_repeat(cfg, reset, lcp_dev, &a, &row->t_dev_min, &row->t_dev_med, &count);
    row_fail(row, env->ctx, st, "clsa_lcp32_mem");
    if (!st) row_check_resident(env, cfg, a.dout, a.out, (size_t)in->n * 4, row);
    if (!st) {
        row_note(row, "t_dev = LCP from SA on device; SA alone %.4f s", sa_min);
        row_note(row, "LCP/SA time %.2f", row->t_dev_min / sa_min);
    }
done:
    if (a.dtext) clReleaseMemObject(a.dtext);
    if (a.dsa) clReleaseMemObject(a.dsa);
    if (a.dout) clReleaseMemObject(a.dout);
    free(a.out);
}

/* ---- fm-count: patterns are substrings of the text (all present) */

typedef struct fm_arg {
    clsa_fm *fm;
    uint8_t *pat;
    uint64_t *off;
    size_t np;
    uint64_t *counts;
} fm_arg;

static clsa_status fm_count(void *p)
{
    fm_arg *f = p;
    return clsa_fm_count(f->fm, f->pat, f->off, f->np, f->counts);
}

static size_t naive_count(const bench_input *in, const uint8_t *p, size_t m)
{
    size_t c = 0;
    for (int64_t i = 0; i + (int64_t)m <= in->n; i++)
        if (in->text[i] == p[0] && !memcmp(in->text + i, p, m)) c++;
    return c;
}

static void op_fm(bench_env *env, const bench_cfg *cfg, const bench_input *in, bench_row *row)
{
    fm_arg f = {0};
    size_t m = cfg->fm_len;
    if ((int64_t)m > in->n) m = (size_t)in->n;
    f.np = m ? cfg->fm_patterns : 0;
    f.pat = malloc(f.np * m + 1);
    f.off = malloc((f.np + 1) * 8);
    f.counts = malloc(f.np * 8 + 8);
    snprintf(row->ref_name, sizeof row->ref_name, "-");
    if (!f.pat || !f.off || !f.counts) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host buffers");
        goto done;
    }
    uint64_t s = cfg->seed * 0x9e3779b97f4a7c15ull + 3;
    for (size_t p = 0; p < f.np; p++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int64_t at = (int64_t)((s >> 11) % (uint64_t)(in->n - (int64_t)m + 1));
        memcpy(f.pat + p * m, in->text + at, m);
        f.off[p] = p * m;
    }
    f.off[f.np] = f.np * m;
    row->n = (int64_t)(f.np * m);
    bench_progress("  fm-count %s: building the index", in->name);
    clsa_reset_stats(env->ctx);
    double t0 = bench_now();
    clsa_status st = clsa_fm_create(env->ctx, in->text, in->n, 0, &f.fm);
    double tb = bench_now() - t0;
    row_fail(row, env->ctx, st, "clsa_fm_create");
    if (st) goto done;
    clsa_stats ss;
    if (clsa_get_stats(env->ctx, &ss) == CLSA_OK) {
        row->peak_bytes = ss.peak_device_bytes; /* of the build, per text byte */
        row->peak_per_n = (double)ss.peak_device_bytes / (double)in->n;
    }
    row_note(row, "build %.3f s", tb);
    row_note(row, "%.3g MB/s of text", (double)in->n / 1e6 / tb);
    row_note(row, "%.0f patterns", (double)f.np);
    row_note(row, "of %.0f bytes", (double)m);
    fm_count(&f); /* warm-up */
    bench_progress("  fm-count %s: %zu patterns of %zu bytes", in->name, f.np, m);
    st = bench_repeat(cfg, NULL, fm_count, &f, &row->t_min, &row->t_med, &row->reps);
    row_fail(row, env->ctx, st, "clsa_fm_count");
    if (!st && bench_should_check(cfg, in->n)) {
        row->valid = 1;
        for (size_t p = 0; p < f.np && row->valid; p++) row->valid = f.counts[p] >= 1;
        for (size_t p = 0; p < f.np && p < 4 && row->valid; p++)
            row->valid = f.counts[p] == naive_count(in, f.pat + p * m, m);
        if (!row->valid) snprintf(row->error, sizeof row->error, "WRONG COUNT");
    }
done:
    if (f.fm) clsa_fm_free(f.fm);
    free(f.pat);
    free(f.off);
    free(f.counts);
}

void op_index(bench_env *env, const bench_cfg *cfg, const char *op, const bench_input *in,
              bench_row *row)
{
    row_init(row, op, in);
    if (!op_index_available(op)) {
        row->status = CLSA_ERR_UNSUPPORTED;
        snprintf(row->error, sizeof row->error, "%s is not in this build of the library", op);
        return;
    }
    if (!strcmp(op, "bwt")) op_bwt(env, cfg, in, row);
    else if (!strcmp(op, "lcp")) op_lcp(env, cfg, in, row);
    else op_fm(env, cfg, in, row);
    double units = (double)row->n / 1e6;
    if (row->reps && row->t_min > 0) row->mbps = units / row->t_min;
    if (row->t_dev_min > 0) row->mbps_dev = units / row->t_dev_min;
    row->speedup = row->ref_s / row->t_min;
    if (strcmp(op, "lcp")) row->speedup_dev = row->ref_s / row->t_dev_min;
}
