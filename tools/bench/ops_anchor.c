/* The CUDA anchors as clsa-bench operations, measured with the method of
 * clsa's own rows (ops_sa.c, ops_prim.c): warm-up first, min of reps,
 * "transfers included" from pageable host memory, "on device" with
 * device-resident buffers, every result checked.
 *   cubwt-sa   libcubwt 1.0.0 libcubwt_sa   beside sa32
 *   cubwt-bwt  libcubwt 1.6.3 libcubwt_bwt  beside bwt
 *   cub-radix  CUB DeviceRadixSort::SortPairs (u32 key + u32 value) beside radix
 * report.c puts the speed ratio clsa/anchor on clsa's row of the same input. */
#include "anchors.h"
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef CLSA_BENCH_CUDA
/* Built without -DCLSA_BENCH_CUDA=ON: the operations exist and say so. */
struct anchor {
    int unused;
};
int anchors_built(void) { return 0; }
clsa_status anchor_create(anchor **a, anchor_kind kind, int64_t n)
{
    (void)kind, (void)n;
    *a = NULL;
    return CLSA_ERR_UNSUPPORTED;
}
void anchor_free(anchor *a) { (void)a; }
const char *anchor_error(const anchor *a)
{
    (void)a;
    return "clsa-bench was built without -DCLSA_BENCH_CUDA=ON";
}
const char *anchor_describe(const anchor *a) { return (void)a, ""; }
uint64_t anchor_bytes(const anchor *a) { return (void)a, 0; }
uint64_t anchor_dev_bytes(const anchor *a) { return (void)a, 0; }
double anchor_create_seconds(const anchor *a) { return (void)a, 0; }
clsa_status anchor_sa_host(anchor *a, const uint8_t *t, uint32_t *s, int64_t n)
{
    return (void)a, (void)t, (void)s, (void)n, CLSA_ERR_UNSUPPORTED;
}
clsa_status anchor_bwt_host(anchor *a, const uint8_t *t, uint8_t *b, int64_t n, int64_t *p)
{
    return (void)a, (void)t, (void)b, (void)n, (void)p, CLSA_ERR_UNSUPPORTED;
}
clsa_status anchor_radix_host(anchor *a, uint32_t *k, uint32_t *v, int64_t n)
{
    return (void)a, (void)k, (void)v, (void)n, CLSA_ERR_UNSUPPORTED;
}
clsa_status anchor_dev_load(anchor *a, const void *i, const void *i2)
{
    return (void)a, (void)i, (void)i2, CLSA_ERR_UNSUPPORTED;
}
clsa_status anchor_dev_prepare(anchor *a) { return (void)a, CLSA_ERR_UNSUPPORTED; }
clsa_status anchor_dev_run(anchor *a) { return (void)a, CLSA_ERR_UNSUPPORTED; }
clsa_status anchor_dev_result(anchor *a, void *o, void *o2, int64_t *p)
{
    return (void)a, (void)o, (void)o2, (void)p, CLSA_ERR_UNSUPPORTED;
}
double anchor_copy_seconds(anchor *a, uint64_t b, int r) { return (void)a, (void)b, (void)r, -1; }
#endif

int op_is_anchor(const char *op)
{
    return !strcmp(op, "cubwt-sa") || !strcmp(op, "cubwt-bwt") || !strcmp(op, "cub-radix");
}

const char *op_anchor_of(const char *op)
{
    return !strcmp(op, "sa32") ? "cubwt-sa" : !strcmp(op, "bwt") ? "cubwt-bwt"
                                          : !strcmp(op, "radix") ? "cub-radix" : NULL;
}

static void anchor_fail(bench_row *row, const anchor *a, clsa_status st, const char *what)
{
    if (!st || row->status) return;
    row->status = st;
    snprintf(row->error, sizeof row->error, "%s: %s", what, anchor_error(a));
}

/* ---- cubwt-sa, cubwt-bwt --------------------------------------------------- */

typedef struct anc_arg {
    anchor *a;
    anchor_kind kind;
    const uint8_t *text;
    void *out;
    int64_t n, primary;
} anc_arg;

static clsa_status anc_host(void *p)
{
    anc_arg *x = p;
    return x->kind == ANCHOR_SA ? anchor_sa_host(x->a, x->text, x->out, x->n)
                                : anchor_bwt_host(x->a, x->text, x->out, x->n, &x->primary);
}

static clsa_status anc_prepare(void *p)
{
    return anchor_dev_prepare(((anc_arg *)p)->a);
}

static clsa_status anc_dev(void *p)
{
    return anchor_dev_run(((anc_arg *)p)->a);
}

/* The host-memory result against the reference: clsa_check_sa32, or byte
 * equality (primary index included) with divbwt. */
static void anc_check(const bench_cfg *cfg, const bench_input *in, const anc_arg *x,
                      bench_row *row)
{
    char why[200] = "";
    if (x->kind == ANCHOR_SA) {
        int valid = 0;
        clsa_status st = clsa_check_sa32(in->text, x->out, in->n, &valid, why, sizeof why);
        row->valid = !st && valid;
        if (!row->valid) snprintf(row->error, sizeof row->error, "WRONG SA: %s", why);
        return;
    }
    uint8_t *ref = malloc((size_t)in->n + 1);
    int64_t primary = -1;
    row->ref_s = ref ? ref_bwt(cfg, in, ref, &primary) : -1;
    if (row->ref_s >= 0) {
        row->valid = primary == x->primary && !memcmp(ref, x->out, (size_t)in->n);
        if (!row->valid) snprintf(row->error, sizeof row->error, "WRONG BWT or primary");
    }
    free(ref);
}

/* On device: the library on managed buffers moved to the device; its result
 * must equal the (checked) host-memory result. */
static void anc_on_device(const bench_cfg *cfg, const bench_input *in, anc_arg *x,
                          bench_row *row)
{
    size_t bytes = (size_t)in->n * (x->kind == ANCHOR_SA ? 4 : 1);
    uint8_t *res = malloc(bytes + 4);
    clsa_status st = res ? anchor_dev_load(x->a, in->text, NULL) : CLSA_ERR_HOST_MEMORY;
    int count = 0;
    if (st) {
        row_note(row, "no on-device run: %s", x->a ? anchor_error(x->a) : "no memory");
        goto done;
    }
    bench_progress("  %s %s: on device, up to %d reps", row->op, in->name, cfg->reps);
    st = bench_repeat(cfg, anc_prepare, anc_dev, x, &row->t_dev_min, &row->t_dev_med, &count);
    if (st) {
        anchor_fail(row, x->a, st, "on device");
        goto done;
    }
    row->peak_per_n_dev = (double)(anchor_bytes(x->a) + anchor_dev_bytes(x->a)) / (double)in->n;
    int64_t primary = -1;
    st = anchor_dev_result(x->a, res, NULL, &primary);
    if (!st && row->valid == 1 &&
        (memcmp(res, x->out, bytes) || (x->kind == ANCHOR_BWT && primary != x->primary))) {
        row->valid = 0;
        snprintf(row->error, sizeof row->error, "WRONG: the on-device result differs");
    }
    anchor_fail(row, x->a, st, "on-device result");
done:
    free(res);
}

void op_anchor_text(const bench_cfg *cfg, const char *op, const bench_input *in, bench_row *row)
{
    anchor_kind kind = !strcmp(op, "cubwt-sa") ? ANCHOR_SA : ANCHOR_BWT;
    size_t w = kind == ANCHOR_SA ? 4 : 1;
    row_init(row, op, in);
    snprintf(row->ref_name, sizeof row->ref_name, "%s", kind == ANCHOR_SA ? "divsufsort" : "divbwt");
    anc_arg x = {NULL, kind, in->text, malloc((size_t)in->n * w + w), 0, 0};
    clsa_status st = x.out ? anchor_create(&x.a, kind, in->n) : CLSA_ERR_HOST_MEMORY;
    if (st) {
        anchor_fail(row, x.a, st, "setup");
        goto done;
    }
    row_note(row, "%s; device storage allocated once, outside the timings (%.3f s)",
             anchor_describe(x.a), anchor_create_seconds(x.a));
    row->peak_bytes = anchor_bytes(x.a);
    row->peak_per_n = (double)row->peak_bytes / (double)in->n;
    x.n = in->n < 1048576 ? in->n : 1048576; /* warm-up on a prefix, as for sa32 */
    if (x.n >= 16) anc_host(&x);
    x.n = in->n;
    bench_progress("  %s %s: host memory in/out, up to %d reps", op, in->name, cfg->reps);
    st = bench_repeat(cfg, NULL, anc_host, &x, &row->t_min, &row->t_med, &row->reps);
    anchor_fail(row, x.a, st, kind == ANCHOR_SA ? "libcubwt_sa" : "libcubwt_bwt");
    if (st) goto done;
    if (bench_should_check(cfg, in->n)) anc_check(cfg, in, &x, row);
    if (!row_budget_spent(cfg, row) && !bench_past_deadline(cfg)) anc_on_device(cfg, in, &x, row);
    if (kind == ANCHOR_SA) row->ref_s = ref_time(cfg, row->ref_name, in, NULL);
    else if (isnan(row->ref_s)) row->ref_s = ref_bwt(cfg, in, NULL, NULL);
    if (row->ref_s < 0) row->ref_s = NAN;
    row_rates(row);
done:
    anchor_free(x.a);
    free(x.out);
}

/* ---- cub-radix -------------------------------------------------------------- */

typedef struct radix_arg {
    anchor *a;
    uint32_t *k0, *v0, *k, *v; /* pristine input, working arrays */
    int64_t n;
} radix_arg;

static clsa_status radix_restore(void *p)
{
    radix_arg *x = p;
    memcpy(x->k, x->k0, (size_t)x->n * 4);
    memcpy(x->v, x->v0, (size_t)x->n * 4);
    return CLSA_OK;
}

static clsa_status radix_host_call(void *p)
{
    radix_arg *x = p;
    return anchor_radix_host(x->a, x->k, x->v, x->n);
}

static clsa_status radix_prepare(void *p)
{
    return anchor_dev_prepare(((radix_arg *)p)->a);
}

static clsa_status radix_dev_call(void *p)
{
    return anchor_dev_run(((radix_arg *)p)->a);
}

void op_cub_radix(const bench_cfg *cfg, bench_row *row)
{
    radix_row_init(row, "cub-radix", cfg);
    size_t n = (size_t)cfg->radix_n, b = n * 4 + 4;
    radix_arg x = {NULL, malloc(b), malloc(b), malloc(b), malloc(b), (int64_t)n};
    uint32_t *rk = malloc(b), *rv = malloc(b);
    clsa_status st = CLSA_OK;
    int count = 0;
    if (!x.k0 || !x.v0 || !x.k || !x.v || !rk || !rv) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host arrays");
        goto done;
    }
    radix_input(cfg, x.k0, x.v0, n);
    if ((st = anchor_create(&x.a, ANCHOR_RADIX, (int64_t)n)) ||
        (st = anchor_dev_load(x.a, x.k0, x.v0))) {
        anchor_fail(row, x.a, st, "setup");
        goto done;
    }
    row_note(row, "%s; buffers allocated once, outside the timings", anchor_describe(x.a));
    row->peak_bytes = anchor_bytes(x.a);
    row->peak_per_n = (double)row->peak_bytes / (double)n;
    /* warm-up and check: one device run */
    if ((st = anchor_dev_prepare(x.a)) || (st = anchor_dev_run(x.a)) ||
        (st = anchor_dev_result(x.a, rk, rv, NULL))) {
        anchor_fail(row, x.a, st, "first run");
        goto done;
    }
    if (bench_should_check(cfg, (int64_t)n)) {
        char why[200] = "";
        row->valid = radix_check(x.k0, rk, rv, n, why, sizeof why);
        if (!row->valid) snprintf(row->error, sizeof row->error, "WRONG RESULT: %s", why);
    }
    bench_progress("  cub-radix: device-resident, up to %d reps", cfg->reps);
    st = bench_repeat(cfg, radix_prepare, radix_dev_call, &x, &row->t_dev_min, &row->t_dev_med,
                      &count);
    anchor_fail(row, x.a, st, "device-resident run");
    row->reps = count;
    if (count) {
        row->elems_per_s = (double)n / row->t_dev_min;
        row->gbps = (double)n * 8 / row->t_dev_min / 1e9;
    }
    row->copy_s = anchor_copy_seconds(x.a, (uint64_t)n * 8, 5);
    if (row->copy_s > 0) row->copy_gbps = (double)n * 8 / row->copy_s / 1e9;
    else row->copy_s = NAN;
    if (st || bench_past_deadline(cfg)) goto done;
    bench_progress("  cub-radix: host memory in/out");
    st = bench_repeat(cfg, radix_restore, radix_host_call, &x, &row->t_min, &row->t_med, &count);
    anchor_fail(row, x.a, st, "host-memory call");
    if (!st && row->valid == 1 && (memcmp(x.k, rk, n * 4) || memcmp(x.v, rv, n * 4))) {
        row->valid = 0;
        snprintf(row->error, sizeof row->error, "WRONG: the host-memory result differs");
    }
done:
    anchor_free(x.a);
    free(x.k0), free(x.v0), free(x.k), free(x.v), free(rk), free(rv);
}
