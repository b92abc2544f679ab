/* Many small texts (issue 48): the input cut into slices of --item bytes
 * (the last one shorter), each slice one text.
 *   sa32-batch   clsa_sa32_batch: every slice's SA in one call
 *   bwt-batch    clsa_bwt_batch: every slice's BWT and primary in one call
 *   sa32-each    clsa_sa32 once per slice (same context)
 *   cubwt-each   libcubwt 1.0.0 libcubwt_sa once per slice (storage for one
 *                slice allocated once, outside the timings; needs
 *                -DCLSA_BENCH_CUDA=ON)
 * n = the input's bytes, so MB/s compares with sa32 of the whole input as
 * one text; transfers included (host memory in and out).  Every result is
 * checked slice by slice (clsa_check_sa32; divbwt for the BWT) up to
 * --check-max. */
#include "anchors.h"
#include "bench.h"

#include <divsufsort.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct slices {
    const uint8_t *text;
    int64_t *len;
    int64_t k, item;
    clsa_context *ctx;
    anchor *a;
    void *out;        /* SA (4 bytes an entry) or BWT */
    int64_t *primary; /* bwt-batch */
} slices;

static int cut(const bench_input *in, int64_t item, slices *s)
{
    memset(s, 0, sizeof *s);
    s->text = in->text;
    s->item = item;
    s->k = (in->n + item - 1) / item;
    s->len = malloc((size_t)(s->k ? s->k : 1) * sizeof *s->len);
    s->primary = malloc((size_t)(s->k ? s->k : 1) * sizeof *s->primary);
    s->out = malloc((size_t)in->n * 4 + 4);
    if (!s->len || !s->primary || !s->out) return -1;
    for (int64_t i = 0; i < s->k; i++) s->len[i] = i + 1 < s->k ? item : in->n - i * item;
    return 0;
}

static clsa_status run_batch(void *p)
{
    slices *s = p;
    return clsa_sa32_batch(s->ctx, s->text, s->len, s->k, s->out);
}

static clsa_status run_bwt(void *p)
{
    slices *s = p;
    return clsa_bwt_batch(s->ctx, s->text, s->len, s->k, s->out, s->primary);
}

static clsa_status run_each(void *p)
{
    slices *s = p;
    clsa_status st = CLSA_OK;
    for (int64_t i = 0; i < s->k && !st; i++)
        st = clsa_sa32(s->ctx, s->text + i * s->item, (int32_t *)s->out + i * s->item, s->len[i]);
    return st;
}

static clsa_status run_cubwt(void *p)
{
    slices *s = p;
    clsa_status st = CLSA_OK;
    for (int64_t i = 0; i < s->k && !st; i++)
        st = anchor_sa_host(s->a, s->text + i * s->item, (uint32_t *)s->out + i * s->item,
                            s->len[i]);
    return st;
}

static clsa_status reset(void *p)
{
    slices *s = p;
    if (s->ctx) clsa_reset_stats(s->ctx);
    return CLSA_OK;
}

/* Every slice's SA (or BWT and primary) against the reference. */
static void check(const slices *s, int bwt, bench_row *row)
{
    char why[200] = "";
    uint8_t *ref = bwt ? malloc((size_t)s->item + 1) : NULL;
    row->valid = !bwt || ref;
    for (int64_t i = 0; i < s->k && row->valid == 1; i++) {
        const uint8_t *t = s->text + i * s->item;
        int valid = 0;
        if (!bwt) {
            clsa_check_sa32(t, (const int32_t *)s->out + i * s->item, s->len[i], &valid, why,
                            sizeof why);
        } else {
            saidx_t p = divbwt(t, ref, NULL, (saidx_t)s->len[i]);
            valid = p == s->primary[i] && !memcmp(ref, (uint8_t *)s->out + i * s->item,
                                                  (size_t)s->len[i]);
        }
        if (!valid) {
            row->valid = 0;
            snprintf(row->error, sizeof row->error, "WRONG %s of slice %lld %s",
                     bwt ? "BWT" : "SA", (long long)i, why);
        }
    }
    free(ref);
}

void op_batch(bench_env *env, const bench_cfg *cfg, const char *op, const bench_input *in,
              bench_row *row)
{
    int64_t item = cfg->item ? (int64_t)cfg->item : 100000;
    int cubwt = !strcmp(op, "cubwt-each"), bwt = !strcmp(op, "bwt-batch");
    row_init(row, op, in);
    slices s;
    clsa_status st = cut(in, item, &s) ? CLSA_ERR_HOST_MEMORY : CLSA_OK;
    if (!st && cubwt) st = anchor_create(&s.a, ANCHOR_SA, item);
    if (st) {
        row_fail(row, NULL, st, cubwt && s.a ? anchor_error(s.a) : "setup");
        goto done;
    }
    row_note(row, "%lld texts of %lld bytes", (long long)s.k, (long long)item);
    bench_fn fn = cubwt ? run_cubwt : bwt ? run_bwt : !strcmp(op, "sa32-each") ? run_each
                                                                               : run_batch;
    s.ctx = cubwt ? NULL : env->ctx;
    slices warm = s; /* kernels compiled outside the timings */
    warm.k = s.k < 2 ? s.k : 2;
    fn(&warm);
    bench_progress("  %s %s: %lld texts, up to %d reps", op, in->name, (long long)s.k, cfg->reps);
    st = bench_repeat(cfg, reset, fn, &s, &row->t_min, &row->t_med, &row->reps);
    row_fail(row, cubwt ? NULL : env->ctx, st, op);
    if (!st && !cubwt) row_stats(row, env->ctx);
    if (!st && bench_should_check(cfg, in->n)) check(&s, bwt, row);
    row->ref_s = NAN;
done:
    anchor_free(s.a);
    free(s.len);
    free(s.primary);
    free(s.out);
    row_rates(row);
}
