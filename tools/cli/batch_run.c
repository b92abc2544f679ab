/* clsa sa --batch LIST and clsa bwt --batch LIST: the list's inputs read in
 * list order into groups of up to CLI_GROUP_BYTES bytes (and
 * CLI_GROUP_ITEMS inputs), each group built by one library call
 * (clsa_sa32_batch / clsa_sa64_batch / clsa_bwt_batch: one device pipeline
 * for all its texts, split further by the library where the device's
 * memory asks), then every output written atomically.  An input that
 * cannot be read, or is too large for --index 32, fails alone; a group
 * whose call fails runs again input by input, so that only the inputs that
 * fail by themselves fail.  bwt prints one line per pair that succeeded,
 * in list order, on standard output: "OUTPUT primary=P" (the value
 * `clsa unbwt --primary` takes).  Ctrl-C, or a context that cannot be
 * opened, stops the batch. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLI_GROUP_BYTES ((size_t)256 << 20)
#define CLI_GROUP_ITEMS ((size_t)1 << 20)

typedef struct group {
    size_t first, count;  /* pairs [first, first + count) of the list */
    uint8_t *text;        /* the inputs that could be read, back to back */
    size_t bytes, cap;
    int64_t *len;         /* per pair; -1: the pair failed to read */
    int rc;               /* the first failure's exit code */
    size_t failed;
} group;

typedef struct runner {
    const cli_args *a;
    const cli_batch_list *b;
    clsa_context *ctx;
    int bwt, width;
    group g;
    uint64_t total; /* bytes of every group */
} runner;

static void note_fail(group *g, int rc)
{
    if (g->failed++ == 0) g->rc = rc;
}

static int grow(group *g, size_t more)
{
    if (g->bytes + more <= g->cap) return 1;
    size_t cap = g->cap ? g->cap : 1 << 20;
    while (cap < g->bytes + more) cap *= 2;
    uint8_t *t = realloc(g->text, cap);
    if (!t) return 0;
    g->text = t;
    g->cap = cap;
    return 1;
}

/* Pair i's input appended to the group; its length, or -1 (said why). */
static int64_t read_one(runner *r, size_t i)
{
    uint8_t *data = NULL;
    size_t n = 0;
    int rc = cli_read_file(r->b->in[i], &data, &n);
    if (!rc && r->width == 4 && !r->bwt && n > INT32_MAX) {
        cli_error("'%s' has %zu bytes: too large for a 32-bit suffix array; use --index 64",
                  r->b->in[i], n);
        rc = CLI_RUNTIME;
    }
    if (!rc && !grow(&r->g, n)) {
        cli_error("out of memory for '%s' (%zu bytes)", r->b->in[i], n);
        rc = CLI_RUNTIME;
    }
    if (!rc && n) memcpy(r->g.text + r->g.bytes, data, n);
    free(data);
    if (rc) {
        note_fail(&r->g, rc);
        return -1;
    }
    r->g.bytes += n;
    return (int64_t)n;
}

/* Reads pairs from `first` on until the group is full. */
static void fill(runner *r, size_t first)
{
    group *g = &r->g;
    g->first = first;
    g->count = 0;
    g->bytes = 0;
    while (first + g->count < r->b->n && g->count < CLI_GROUP_ITEMS &&
           (g->count == 0 || g->bytes < CLI_GROUP_BYTES)) {
        size_t i = first + g->count;
        g->len[g->count++] = read_one(r, i);
        if (cli_interrupted()) break;
    }
}

/* The call over the k texts of lens (none < 0) at text. */
static clsa_status call(runner *r, const uint8_t *text, const int64_t *lens, int64_t k, void *out,
                        int64_t *prim)
{
    if (r->bwt) return clsa_bwt_batch(r->ctx, text, lens, k, out, prim);
    if (r->width == 4) return clsa_sa32_batch(r->ctx, text, lens, k, out);
    return clsa_sa64_batch(r->ctx, text, lens, k, out);
}

/* Pair i's result (n entries at out) into its file. */
static void write_one(runner *r, size_t i, void *out, int64_t n, int64_t prim)
{
    int w = r->bwt ? 1 : r->width;
    cli_to_le(out, (size_t)n, w);
    int rc = cli_write_file(r->b->out[i], out, (size_t)n * (size_t)w);
    if (rc) note_fail(&r->g, rc);
    else if (r->bwt) printf("%s primary=%lld\n", r->b->out[i], (long long)prim);
}

/* The group's texts that could be read, as one call's arguments. */
static int64_t pack(const group *g, int64_t *lens)
{
    int64_t k = 0;
    for (size_t i = 0; i < g->count; i++)
        if (g->len[i] >= 0) lens[k++] = g->len[i];
    return k;
}

/* Every readable pair of the group: one call, or one call each after a
 * failure of the whole. */
static int run_group(runner *r, int64_t *lens, int64_t *prim)
{
    group *g = &r->g;
    int64_t k = pack(g, lens);
    size_t w = r->bwt ? 1 : (size_t)r->width;
    uint8_t *out = malloc(g->bytes ? g->bytes * w : 1);
    if (!out) {
        cli_error("out of memory for the outputs of %lld inputs", (long long)k);
        return CLI_RUNTIME;
    }
    cli_progress_input(g->bytes);
    clsa_status st = cli_progress_done(call(r, g->text, lens, k, out, prim));
    int alone = st != CLSA_OK && st != CLSA_ERR_CANCELLED;
    if (st == CLSA_ERR_CANCELLED) {
        free(out);
        return cli_fail(r->ctx, st, r->bwt ? "bwt" : "suffix array");
    }
    if (alone) cli_error("a group of %lld inputs failed (%s); each runs alone", (long long)k,
                         clsa_last_error(r->ctx));
    size_t at = 0;
    for (size_t i = 0, t = 0; i < g->count; i++) {
        if (g->len[i] < 0) continue;
        int64_t n = g->len[i], p = 0;
        if (alone && (st = cli_progress_done(call(r, g->text + at, &n, 1, out + at * w, &p)))) {
            note_fail(g, cli_fail(r->ctx, st, r->b->in[g->first + i]));
            if (st == CLSA_ERR_CANCELLED) break;
        } else {
            write_one(r, g->first + i, out + at * w, n, alone ? p : prim[t]);
        }
        at += (size_t)n;
        t++;
    }
    free(out);
    return st == CLSA_ERR_CANCELLED ? CLI_INTERRUPTED : CLI_OK;
}

int cli_batch_run(const cli_args *a, const cli_batch_list *b, cli_ctx_job *j, int bwt)
{
    runner r = {a, b, NULL, bwt, a->index_bits / 8, {0}, 0};
    size_t cap = b->n < CLI_GROUP_ITEMS ? b->n : CLI_GROUP_ITEMS;
    int64_t *lens = malloc((cap ? cap : 1) * 8), *prim = malloc((cap ? cap : 1) * 8);
    r.g.len = malloc((cap ? cap : 1) * 8);
    int rc = cli_ctx_wait(j, &r.ctx);
    if (!rc && (!lens || !prim || !r.g.len)) {
        cli_error("out of memory for a batch of %zu inputs", b->n);
        rc = CLI_RUNTIME;
    }
    double t0 = cli_now();
    for (size_t i = 0; !rc && i < b->n; i += r.g.count) {
        fill(&r, i);
        r.total += r.g.bytes;
        rc = cli_interrupted() ? CLI_INTERRUPTED : run_group(&r, lens, prim);
    }
    if (!rc && a->stats) cli_print_stats(r.ctx, r.total, cli_now() - t0);
    if (r.g.failed) {
        cli_error("batch: %zu of %zu inputs failed", r.g.failed, b->n);
        if (!rc) rc = r.g.rc;
    }
    free(r.g.text);
    free(r.g.len);
    free(lens);
    free(prim);
    return rc;
}
