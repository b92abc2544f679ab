/* Sorting primitives: radix (key-value pairs), segmented sort (a suffix-
 * array-like group mix), batched sort (many equal arrays).  Each is timed on
 * buffers already on the device (restored from a pristine copy before every
 * repetition, untimed) and through the host-pointer call (transfers
 * included), next to clEnqueueCopyBuffer of the same bytes in the same run.
 *
 * The API functions are referenced weakly: a primitive that is declared but
 * not yet built into the library gives an "unsupported" row. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#pragma weak clsa_radix_sort_mem
#pragma weak clsa_compact_u32_mem
#pragma weak clsa_compact_u32
#pragma weak clsa_radix_sort_mem_scratch
#pragma weak clsa_radix_sort_u32
#pragma weak clsa_segmented_sort_mem
#pragma weak clsa_segmented_sort_u32
#pragma weak clsa_batched_sort_mem
#pragma weak clsa_batched_sort_equal_u32

#define MAXBUF 3

typedef struct prim_job {
    bench_env *env;
    const bench_cfg *cfg;
    clsa_context *ctx;     /* the context the next call runs on */
    int nbuf;              /* device buffers restored before each run */
    cl_mem pristine[MAXBUF], work[MAXBUF];
    size_t bytes[MAXBUF];
    void *host[MAXBUF];    /* host arrays: pristine input, restored before each host call */
    void *hwork[MAXBUF];
    clsa_status (*dev_call)(struct prim_job *);
    clsa_status (*host_call)(struct prim_job *);
    int (*verify)(struct prim_job *, char *why, size_t cap); /* on work[] after a run */
    /* op data */
    size_t n, nseg, narrays, len;
    cl_mem offsets, lengths, starts;
    cl_mem scratch[2]; /* radix: the caller's scratch, made once (as CUB's DoubleBuffer) */
    uint32_t *hoffsets, *hlengths;
} prim_job;

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static clsa_status restore_dev(void *p)
{
    prim_job *j = p;
    clsa_reset_stats(j->ctx);
    return env_copy(j->env, j->pristine, j->work, j->bytes, j->nbuf);
}

static clsa_status run_dev(void *p)
{
    prim_job *j = p;
    clsa_status st = j->dev_call(j);
    return st ? st : env_finish(j->env);
}

static clsa_status restore_host(void *p)
{
    prim_job *j = p;
    for (int i = 0; i < j->nbuf; i++)
        if (j->host[i]) memcpy(j->hwork[i], j->host[i], j->bytes[i]);
    return CLSA_OK;
}

static clsa_status run_host(void *p)
{
    prim_job *j = p;
    return j->host_call(j);
}

static void job_release(prim_job *j)
{
    for (int i = 0; i < MAXBUF; i++) {
        if (j->pristine[i]) clReleaseMemObject(j->pristine[i]);
        if (j->work[i]) clReleaseMemObject(j->work[i]);
        free(j->host[i]);
        free(j->hwork[i]);
    }
    if (j->offsets) clReleaseMemObject(j->offsets);
    if (j->lengths) clReleaseMemObject(j->lengths);
    if (j->starts) clReleaseMemObject(j->starts);
    for (int i = 0; i < 2; i++)
        if (j->scratch[i]) clReleaseMemObject(j->scratch[i]);
    free(j->hoffsets);
    free(j->hlengths);
}

/* Device buffers for host[0..nbuf): pristine copy + working copy. */
static clsa_status job_upload(prim_job *j)
{
    clsa_status st = CLSA_OK;
    for (int i = 0; i < j->nbuf && !st; i++) {
        j->pristine[i] = env_buffer(j->env, j->bytes[i], j->host[i], &st);
        if (!st) j->work[i] = env_buffer(j->env, j->bytes[i], NULL, &st);
    }
    return st;
}

static uint32_t *read_back(prim_job *j, int i)
{
    uint32_t *h = malloc(j->bytes[i] ? j->bytes[i] : 1);
    if (h && clEnqueueReadBuffer(j->env->queue, j->work[i], CL_TRUE, 0, j->bytes[i], h, 0, NULL,
                                 NULL) != CL_SUCCESS) {
        free(h);
        h = NULL;
    }
    return h;
}

/* Warm-up + check on ctx, profiled run on pctx, timed device runs, timed host
 * runs, copy bandwidth.  payload: bytes moved per run for GB/s. */
static void prim_measure(prim_job *j, bench_row *row, double elements, double payload)
{
    bench_env *env = j->env;
    const bench_cfg *cfg = j->cfg;
    clsa_status st;
    j->ctx = env->ctx;
    if ((st = restore_dev(j)) || (st = run_dev(j))) {
        row_fail(row, env->ctx, st, "first run");
        return;
    }
    if (bench_should_check(cfg, (int64_t)j->n) && j->verify) {
        char why[200] = "";
        row->valid = j->verify(j, why, sizeof why);
        if (!row->valid) snprintf(row->error, sizeof row->error, "WRONG RESULT: %s", why);
    }
    if (cfg->profile) {
        j->ctx = env->pctx;
        if ((st = restore_dev(j)) == CLSA_OK) st = j->dev_call(j);
        if (st == CLSA_OK) row_phases(row, env->pctx);
        row_fail(row, env->pctx, st, "profiled run");
        j->ctx = env->ctx;
    }
    int count = 0;
    bench_progress("  %s: device-resident, up to %d reps", row->op, cfg->reps);
    st = bench_repeat(cfg, restore_dev, run_dev, j, &row->t_dev_min, &row->t_dev_med, &count);
    row_fail(row, env->ctx, st, "device-resident run");
    row->reps = count;
    if (count) {
        row_stats(row, env->ctx);
        row->elems_per_s = elements / row->t_dev_min;
        row->gbps = payload / row->t_dev_min / 1e9;
    }
    row->copy_s = env_copy_seconds(env, j->pristine, j->work, j->bytes, j->nbuf, 5, &st);
    if (st == CLSA_OK && row->copy_s > 0) row->copy_gbps = payload / row->copy_s / 1e9;
    if (j->host_call && !row->status && !bench_past_deadline(cfg)) {
        int ok = 1;
        for (int i = 0; i < j->nbuf && ok; i++)
            ok = (j->hwork[i] = malloc(j->bytes[i] ? j->bytes[i] : 1)) != NULL;
        if (ok) {
            bench_progress("  %s: host memory in/out", row->op);
            st = bench_repeat(cfg, restore_host, run_host, j, &row->t_min, &row->t_med, &count);
            row_fail(row, env->ctx, st, "host-pointer call");
        }
    }
}

static int unsupported(bench_row *row, const char *fn)
{
    row->status = CLSA_ERR_UNSUPPORTED;
    snprintf(row->error, sizeof row->error, "%s is not in this build of the library", fn);
    return 1;
}

/* ---- radix sort ------------------------------------------------------------ */

/* With scratch buffers made once where the library takes them: the sort,
 * not the allocation of 2n pairs of memory per call, against CUB's
 * SortPairs on a preallocated DoubleBuffer. */
static clsa_status radix_dev(prim_job *j)
{
    if (j->scratch[0])
        return clsa_radix_sort_mem_scratch(j->ctx, j->work[0], j->work[1], j->n, 32, 32, 0, 32,
                                           j->scratch[0], j->scratch[1]);
    return clsa_radix_sort_mem(j->ctx, j->work[0], j->work[1], j->n, 32, 32, 0, 32);
}

static clsa_status radix_host(prim_job *j)
{
    return clsa_radix_sort_u32(j->ctx, j->hwork[0], j->hwork[1], j->n, 0, 32);
}

int radix_check(const uint32_t *orig, const uint32_t *k, const uint32_t *v, size_t n, char *why,
                size_t cap)
{
    for (size_t i = 0; i < n; i++) {
        if (v[i] >= n || orig[v[i]] != k[i]) {
            snprintf(why, cap, "pair %zu does not match the input", i);
            return 0;
        }
        if (i && (k[i - 1] > k[i] || (k[i - 1] == k[i] && v[i - 1] >= v[i]))) {
            snprintf(why, cap, "not sorted (or not stable) at %zu", i);
            return 0;
        }
    }
    return 1;
}

static int radix_verify(prim_job *j, char *why, size_t cap)
{
    uint32_t *k = read_back(j, 0), *v = read_back(j, 1);
    int ok = k && v ? radix_check(j->host[0], k, v, j->n, why, cap) : 0;
    if (!k || !v) snprintf(why, cap, "could not read the result back");
    free(k);
    free(v);
    return ok;
}

void radix_input(const bench_cfg *cfg, uint32_t *k, uint32_t *v, size_t n)
{
    uint64_t s = cfg->seed;
    for (size_t i = 0; i < n; i++) {
        k[i] = (uint32_t)mix(&s);
        v[i] = (uint32_t)i;
    }
}

/* A generated-data row of a primitive: op, its kind, what the input is
 * (NULL: left as row_init makes it). */
static void prim_row_init(bench_row *row, const char *op, const char *input)
{
    row_init(row, op, NULL);
    if (input) snprintf(row->input, sizeof row->input, "%s", input);
    snprintf(row->kind, sizeof row->kind, "%s", op);
    snprintf(row->source, sizeof row->source, "gen");
}

void radix_row_init(bench_row *row, const char *op, const bench_cfg *cfg)
{
    prim_row_init(row, op, "u32 key + u32 value, random 32-bit keys");
    snprintf(row->kind, sizeof row->kind, "radix");
    row->n = (int64_t)cfg->radix_n;
}

void op_radix(bench_env *env, const bench_cfg *cfg, bench_row *row)
{
    prim_job j = {0};
    radix_row_init(row, "radix", cfg);
    if (!&clsa_radix_sort_mem && unsupported(row, "clsa_radix_sort_mem")) return;
    j.env = env;
    j.cfg = cfg;
    j.n = cfg->radix_n;
    j.nbuf = 2;
    j.bytes[0] = j.bytes[1] = j.n * 4;
    j.host[0] = malloc(j.n * 4 + 4);
    j.host[1] = malloc(j.n * 4 + 4);
    clsa_status st = CLSA_OK;
    if (!j.host[0] || !j.host[1]) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host arrays");
        goto done;
    }
    radix_input(cfg, j.host[0], j.host[1], j.n);
    if ((st = job_upload(&j))) {
        row_fail(row, NULL, st, "device buffers");
        goto done;
    }
    for (int i = 0; i < 2 && &clsa_radix_sort_mem_scratch && !st; i++)
        j.scratch[i] = env_buffer(env, j.n * 4, NULL, &st);
    if (st) {
        row_fail(row, NULL, st, "scratch buffers");
        goto done;
    }
    j.dev_call = radix_dev;
    j.host_call = &clsa_radix_sort_u32 ? radix_host : NULL;
    j.verify = radix_verify;
    prim_measure(&j, row, (double)j.n, (double)j.n * 8);
done:
    job_release(&j);
}

/* ---- stream compaction ------------------------------------------------------
 * --radix-n u32 values, about half of them kept (random flags): the scan of
 * the flags (with its total, the single pass where the device takes it)
 * and the scatter, against copying the values and flags once. */

static clsa_status compact_dev(prim_job *j)
{
    size_t count = 0;
    return clsa_compact_u32_mem(j->ctx, j->work[0], j->work[1], j->n, j->work[2], &count);
}

static clsa_status compact_host(prim_job *j)
{
    size_t count = 0;
    return clsa_compact_u32(j->ctx, j->hwork[0], j->hwork[1], j->n, j->hwork[2], &count);
}

static int compact_verify(prim_job *j, char *why, size_t cap)
{
    uint32_t *out = read_back(j, 2);
    const uint32_t *in = j->host[0], *fl = j->host[1];
    int ok = out != NULL;
    if (!ok) snprintf(why, cap, "could not read the result back");
    for (size_t i = 0, k = 0; ok && i < j->n; i++)
        if (fl[i] && out[k++] != in[i]) {
            snprintf(why, cap, "kept value %zu (input %zu) differs", k - 1, i);
            ok = 0;
        }
    free(out);
    return ok;
}

void op_compact(bench_env *env, const bench_cfg *cfg, bench_row *row)
{
    prim_job j = {0};
    prim_row_init(row, "compact", "u32 values, random flags (half kept)");
    row->n = (int64_t)cfg->radix_n;
    if (!&clsa_compact_u32_mem && unsupported(row, "clsa_compact_u32_mem")) return;
    j.env = env;
    j.cfg = cfg;
    j.n = cfg->radix_n;
    j.nbuf = 3;
    size_t kept = 0;
    uint64_t s = cfg->seed;
    for (int i = 0; i < 3; i++) {
        j.bytes[i] = j.n * 4;
        if (i < 2 && !(j.host[i] = malloc(j.n * 4 + 4))) {
            row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host arrays");
            goto done;
        }
    }
    if (!(j.host[2] = calloc(j.n + 1, 4))) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host arrays");
        goto done;
    }
    for (size_t i = 0; i < j.n; i++) {
        uint64_t r = mix(&s);
        ((uint32_t *)j.host[0])[i] = (uint32_t)r;
        ((uint32_t *)j.host[1])[i] = (uint32_t)(r >> 32) & 1u;
        kept += (r >> 32) & 1u;
    }
    clsa_status st = job_upload(&j);
    if (st) {
        row_fail(row, NULL, st, "device buffers");
        goto done;
    }
    j.dev_call = compact_dev;
    j.host_call = &clsa_compact_u32 ? compact_host : NULL;
    j.verify = compact_verify;
    prim_measure(&j, row, (double)j.n, (double)j.n * 8 + (double)kept * 4);
done:
    job_release(&j);
}

/* ---- segmented sort ----------------------------------------------------------
 * Group lengths like the suffix array's unsorted groups: a power law (many
 * pairs and small groups, few large ones, up to 2^17), separated by gaps of
 * 0-3 already-sorted positions that must stay untouched. */

static size_t group_length(uint64_t *s)
{
    /* P(L) ~ L^-2 on [2, 2^17]: L = 2 / u for u uniform in (2^-16, 1]. */
    double u = ((double)(mix(s) >> 11) + 1.0) * (1.0 / 9007199254740992.0);
    double l = 2.0 / u;
    return l > 131072.0 ? 131072 : (size_t)l;
}

static clsa_status seg_dev(prim_job *j)
{
    return clsa_segmented_sort_mem(j->ctx, j->work[0], j->work[1], j->n, j->offsets, j->lengths,
                                   j->nseg, 32);
}

static clsa_status seg_host(prim_job *j)
{
    return clsa_segmented_sort_u32(j->ctx, j->hwork[0], j->hwork[1], j->n, j->hoffsets,
                                   j->hlengths, j->nseg);
}

static int seg_verify(prim_job *j, char *why, size_t cap)
{
    uint32_t *k = read_back(j, 0), *v = read_back(j, 1);
    const uint32_t *ok0 = j->host[0], *ov0 = j->host[1];
    int ok = k && v;
    if (!ok) snprintf(why, cap, "could not read the result back");
    size_t pos = 0;
    for (size_t g = 0; ok && g < j->nseg; g++) {
        size_t a = j->hoffsets[g], e = a + j->hlengths[g];
        for (; ok && pos < a; pos++) /* gap: untouched */
            if (k[pos] != ok0[pos] || v[pos] != ov0[pos]) {
                snprintf(why, cap, "position %zu outside every segment changed", pos);
                ok = 0;
            }
        for (size_t i = a; ok && i < e; i++) {
            /* values are original positions: the pair must come from this segment */
            if (v[i] < a || v[i] >= e || ok0[v[i]] != k[i]) {
                snprintf(why, cap, "segment %zu: pair at %zu is not from it", g, i);
                ok = 0;
            } else if (i > a && k[i - 1] > k[i]) {
                snprintf(why, cap, "segment %zu not sorted at %zu", g, i);
                ok = 0;
            }
        }
        pos = e;
    }
    free(k);
    free(v);
    return ok;
}

void op_segsort(bench_env *env, const bench_cfg *cfg, bench_row *row)
{
    prim_job j = {0};
    prim_row_init(row, "segsort", "SA-like group mix: P(len)~len^-2 on [2,2^17], gaps 0-3");
    if (!&clsa_segmented_sort_mem && unsupported(row, "clsa_segmented_sort_mem")) return;
    j.env = env;
    j.cfg = cfg;
    j.n = cfg->segsort_n;
    size_t cap = j.n / 2 + 1;
    j.hoffsets = malloc(cap * 4);
    j.hlengths = malloc(cap * 4);
    j.host[0] = malloc(j.n * 4 + 4);
    j.host[1] = malloc(j.n * 4 + 4);
    clsa_status st = CLSA_OK;
    double elements = 0;
    if (!j.hoffsets || !j.hlengths || !j.host[0] || !j.host[1]) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host arrays");
        goto done;
    }
    uint64_t s = cfg->seed + 1;
    uint32_t *k = j.host[0], *v = j.host[1];
    for (size_t i = 0; i < j.n; i++) {
        k[i] = (uint32_t)(mix(&s) % j.n); /* ranks < n, as in the SA */
        v[i] = (uint32_t)i;
    }
    for (size_t pos = mix(&s) % 4; pos + 2 <= j.n && j.nseg < cap;) {
        size_t l = group_length(&s);
        if (l > j.n - pos) l = j.n - pos;
        j.hoffsets[j.nseg] = (uint32_t)pos;
        j.hlengths[j.nseg++] = (uint32_t)l;
        elements += (double)l;
        pos += l + mix(&s) % 4;
    }
    j.nbuf = 2;
    j.bytes[0] = j.bytes[1] = j.n * 4;
    row->n = (int64_t)elements;
    snprintf(row->note, sizeof row->note, "%zu segments, %.0f elements in segments of %zu",
             j.nseg, elements, j.n);
    if ((st = job_upload(&j))) {
        row_fail(row, NULL, st, "device buffers");
        goto done;
    }
    j.offsets = env_buffer(env, j.nseg * 4, j.hoffsets, &st);
    if (!st) j.lengths = env_buffer(env, j.nseg * 4, j.hlengths, &st);
    if (st) {
        row_fail(row, NULL, st, "device buffers");
        goto done;
    }
    j.dev_call = seg_dev;
    j.host_call = &clsa_segmented_sort_u32 ? seg_host : NULL;
    j.verify = seg_verify;
    prim_measure(&j, row, elements, elements * 8);
done:
    job_release(&j);
}

/* ---- batched sort -------------------------------------------------------------- */

static clsa_status batch_dev(prim_job *j)
{
    return clsa_batched_sort_mem(j->ctx, j->work[0], NULL, j->starts, j->narrays, 0);
}

static clsa_status batch_host(prim_job *j)
{
    return clsa_batched_sort_equal_u32(j->ctx, j->hwork[0], NULL, j->narrays, j->len);
}

/* Every array sorted and holding the same keys (sum and xor) as before. */
static int batch_verify(prim_job *j, char *why, size_t cap)
{
    uint32_t *k = read_back(j, 0);
    const uint32_t *o = j->host[0];
    int ok = k != NULL;
    if (!ok) snprintf(why, cap, "could not read the result back");
    for (size_t a = 0; ok && a < j->narrays; a++) {
        const uint32_t *x = k + a * j->len, *y = o + a * j->len;
        uint64_t sx = 0, sy = 0, xx = 0, xy = 0;
        for (size_t i = 0; i < j->len; i++) {
            sx += x[i];
            sy += y[i];
            xx ^= x[i] * 0x9e3779b1u;
            xy ^= y[i] * 0x9e3779b1u;
            if (i && x[i - 1] > x[i] && ok) {
                snprintf(why, cap, "array %zu not sorted at %zu", a, i);
                ok = 0;
            }
        }
        if (ok && (sx != sy || xx != xy)) {
            snprintf(why, cap, "array %zu lost or changed keys", a);
            ok = 0;
        }
    }
    free(k);
    return ok;
}

void op_batched(bench_env *env, const bench_cfg *cfg, bench_row *row)
{
    prim_job j = {0};
    prim_row_init(row, "batched", NULL);
    if (!&clsa_batched_sort_mem && unsupported(row, "clsa_batched_sort_mem")) return;
    j.env = env;
    j.cfg = cfg;
    j.narrays = cfg->batch_arrays;
    j.len = cfg->batch_len;
    /* pristine + working keys + as much again for the library, within 80% of the device */
    double budget = 0.8 * (double)env->info.global_mem;
    size_t asked = j.narrays;
    while (j.narrays > 1 && ((double)j.narrays * (double)j.len * 4 * 3 > budget ||
                             (double)j.narrays * (double)j.len * 4 > (double)env->info.max_alloc))
        j.narrays /= 2;
    snprintf(row->input, sizeof row->input, "%zu arrays x %zu random u32 keys", j.narrays, j.len);
    if (j.narrays != asked)
        snprintf(row->note, sizeof row->note,
                 "SCALED DOWN from %zu arrays: the device has %.1f GB (max buffer %.1f GB)",
                 asked, (double)env->info.global_mem / 1e9, (double)env->info.max_alloc / 1e9);
    j.n = j.narrays * j.len;
    row->n = (int64_t)j.n;
    j.nbuf = 1;
    j.bytes[0] = j.n * 4;
    j.host[0] = malloc(j.n * 4 + 4);
    uint64_t *starts = malloc((j.narrays + 1) * 8);
    clsa_status st = CLSA_OK;
    if (!j.host[0] || !starts) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host arrays");
        goto done;
    }
    uint64_t s = cfg->seed + 2;
    uint32_t *k = j.host[0];
    for (size_t i = 0; i < j.n; i += 2) {
        uint64_t r = mix(&s);
        k[i] = (uint32_t)r;
        if (i + 1 < j.n) k[i + 1] = (uint32_t)(r >> 32);
    }
    for (size_t a = 0; a <= j.narrays; a++) starts[a] = (uint64_t)a * j.len;
    if ((st = job_upload(&j)) == CLSA_OK)
        j.starts = env_buffer(env, (j.narrays + 1) * 8, starts, &st);
    if (st) {
        row_fail(row, NULL, st, "device buffers");
        goto done;
    }
    j.dev_call = batch_dev;
    j.host_call = &clsa_batched_sort_equal_u32 ? batch_host : NULL;
    j.verify = batch_verify;
    prim_measure(&j, row, (double)j.n, (double)j.n * 4);
done:
    free(starts);
    job_release(&j);
}
