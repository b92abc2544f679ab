/* gsa32: the generalized suffix array (clsa_gsa32) of a set of strings made
 * from a text input, as a multi-FASTA indexer would hand it over: FASTA
 * input (first byte '>') gives one string per record (header lines
 * dropped, sequence lines joined), any other input one string per line
 * (line breaks dropped; rrna.txt is one rRNA gene a line).  n = virtual
 * symbols (bytes + one separator a string); MB/s = million of them per
 * second.  Verified against the host backend (clsa_gsa32 with no context)
 * up to --check-max symbols. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct string_set {
    uint8_t *text;    /* the strings back to back */
    int64_t *lengths; /* one per string */
    int64_t k, bytes;
} string_set;

/* Appends the line [s, e) to the current string (FASTA: a sequence line) or
 * starts a new one.  Returns 0, or -1 without memory. */
static int add_line(string_set *set, const uint8_t *s, const uint8_t *e, int fasta, size_t *cap)
{
    if (fasta && s < e && *s == '>') { /* a header starts a record */
        if ((size_t)set->k == *cap) {
            int64_t *l = realloc(set->lengths, *cap * 2 * sizeof *l);
            if (!l) return -1;
            set->lengths = l;
            *cap *= 2;
        }
        set->lengths[set->k++] = 0;
        return 0;
    }
    if (!fasta) {
        if ((size_t)set->k == *cap) {
            int64_t *l = realloc(set->lengths, *cap * 2 * sizeof *l);
            if (!l) return -1;
            set->lengths = l;
            *cap *= 2;
        }
        set->lengths[set->k++] = 0;
    }
    if (set->k == 0) return 0; /* FASTA text before the first header: ignored */
    if (e > s && e[-1] == '\r') e--;
    memcpy(set->text + set->bytes, s, (size_t)(e - s));
    set->bytes += e - s;
    set->lengths[set->k - 1] += e - s;
    return 0;
}

static int split(const bench_input *in, string_set *set)
{
    size_t cap = 1024;
    int fasta = in->n > 0 && in->text[0] == '>';
    memset(set, 0, sizeof *set);
    set->text = malloc((size_t)in->n + 1);
    set->lengths = malloc(cap * sizeof *set->lengths);
    if (!set->text || !set->lengths) return -1;
    const uint8_t *p = in->text, *end = in->text + in->n;
    while (p < end) {
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        const uint8_t *e = nl ? nl : end;
        if (add_line(set, p, e, fasta, &cap)) return -1;
        p = nl ? nl + 1 : end;
    }
    return 0;
}

typedef struct gsa_arg {
    clsa_context *ctx;
    const string_set *set;
    int32_t *sa;
} gsa_arg;

static clsa_status reset(void *p)
{
    clsa_reset_stats(((gsa_arg *)p)->ctx);
    return CLSA_OK;
}

static clsa_status run(void *p)
{
    gsa_arg *a = p;
    return clsa_gsa32(a->ctx, a->set->text, a->set->lengths, a->set->k, a->sa, NULL);
}

static void verify(const gsa_arg *a, int64_t n, bench_row *row)
{
    int32_t *ref = malloc((size_t)n * 4 + 4);
    double t0 = bench_now();
    clsa_status rs = ref ? clsa_gsa32(NULL, a->set->text, a->set->lengths, a->set->k, ref, NULL)
                         : CLSA_ERR_HOST_MEMORY;
    row->ref_s = bench_now() - t0;
    row->valid = rs == CLSA_OK && !memcmp(ref, a->sa, (size_t)n * 4);
    if (!row->valid) snprintf(row->error, sizeof row->error, "WRONG GSA (or host failed: %d)", rs);
    free(ref);
}

void op_gsa(bench_env *env, const bench_cfg *cfg, const bench_input *in, bench_row *row)
{
    row_init(row, "gsa32", in);
    snprintf(row->ref_name, sizeof row->ref_name, "host-gsa");
    string_set set;
    int32_t *sa = NULL;
    if (split(in, &set)) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "strings");
        goto done;
    }
    if (set.k == 0) {
        row_fail(row, NULL, CLSA_ERR_INVALID_ARG, "no strings in the input");
        goto done;
    }
    int64_t n = set.bytes + set.k;
    row->n = n;
    row_note(row, "%lld strings, %lld bytes + separators", (long long)set.k, (long long)set.bytes);
    if (!(sa = malloc((size_t)n * 4 + 4))) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host SA buffer");
        goto done;
    }
    gsa_arg a = {env->ctx, &set, sa};
    string_set one = set;
    one.k = 1; /* kernels compiled outside the timings */
    gsa_arg warm = {env->ctx, &one, sa};
    run(&warm);
    bench_progress("  gsa32 %s: %lld strings, %lld symbols, up to %d reps", in->name,
                   (long long)set.k, (long long)n, cfg->reps);
    clsa_status st = bench_repeat(cfg, reset, run, &a, &row->t_min, &row->t_med, &row->reps);
    row_fail(row, env->ctx, st, "clsa_gsa32");
    if (row->reps) row_stats(row, env->ctx);
    if (!st && bench_should_check(cfg, n)) verify(&a, n, row);
    else row->ref_s = NAN;
    if (!st && cfg->profile && !bench_past_deadline(cfg)) {
        a.ctx = env->pctx;
        clsa_reset_stats(env->pctx);
        if (run(&a) == CLSA_OK) row_phases(row, env->pctx);
    }
done:
    free(sa);
    free(set.text);
    free(set.lengths);
    row_rates(row);
}
