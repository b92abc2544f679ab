/* clsa sa --fasta: the generalized suffix array of a (multi-)FASTA file,
 * every record one string (clsa_gsa32/64), with the table that maps its
 * positions back to records (OUTPUT.seqs) and, on request, the document
 * array.  The reader and its policy: fasta.c. */
#include "cli.h"
#include "sets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where the outputs go: OUTPUT, the table, the document array (or NULL). */
typedef struct fasta_outs {
    const char *sa, *seqs, *doc;
    char seqs_buf[4096];
} fasta_outs;

static int plan_outputs(const cli_args *a, fasta_outs *o)
{
    o->sa = a->pos[1];
    o->doc = a->doc;
    o->seqs = a->seqs;
    if (!o->seqs && cli_is_stream(o->sa)) {
        cli_error("--fasta with OUTPUT '-' needs --seqs FILE for the sequence table");
        return CLI_USAGE;
    }
    if (!o->seqs) {
        int len = snprintf(o->seqs_buf, sizeof o->seqs_buf, "%s.seqs", o->sa);
        if (len < 0 || (size_t)len >= sizeof o->seqs_buf) {
            cli_error("output path too long: '%s'", o->sa);
            return CLI_USAGE;
        }
        o->seqs = o->seqs_buf;
    }
    if (cli_is_stream(o->sa) + cli_is_stream(o->seqs) + cli_is_stream(o->doc) > 1) {
        cli_error("only one output can be standard output ('-')");
        return CLI_USAGE;
    }
    const char *outs[3] = {o->sa, o->seqs, o->doc};
    return cli_distinct_paths(a->pos, 1, outs, o->doc ? 3 : 2);
}

static clsa_status build(clsa_context *ctx, const fasta_set *s, int width, void *sa, void *doc)
{
    if (width == 4) return clsa_gsa32(ctx, s->seq, s->len, s->k, sa, doc);
    return clsa_gsa64(ctx, s->seq, s->len, s->k, sa, doc);
}

/* All outputs or none: a later one that cannot be written takes the
 * earlier ones (already renamed into place) away again. */
static int commit_all(cli_result *sa, cli_result *doc, const fasta_outs *o, const fasta_set *s)
{
    int rc = cli_result_commit(sa);
    if (rc) return rc;
    if (o->doc && (rc = cli_result_commit(doc))) goto undo_sa;
    if ((rc = cli_write_seqs(o->seqs, s))) goto undo_doc;
    return CLI_OK;
undo_doc:
    if (o->doc && !cli_is_stream(o->doc)) unlink(o->doc);
undo_sa:
    if (!cli_is_stream(o->sa)) unlink(o->sa);
    return rc;
}

int cli_sa_fasta(const cli_args *a)
{
    fasta_outs o;
    fasta_set set = {0};
    int rc = plan_outputs(a, &o);
    /* The input is read before the device starts: a malformed file fails fast. */
    if (rc || (rc = cli_read_records(a, a->pos[0], &set))) return rc;
    int width = a->index_bits / 8;
    int64_t total = set.n + set.k; /* the virtual text: residues and one separator each */
    clsa_context *ctx = NULL;
    cli_result sa = {0}, doc = {0};
    if (width == 4 && total > INT32_MAX) {
        cli_error("'%s' has %lld residues and %lld records: too large for a 32-bit suffix array; "
                  "use --index 64", a->pos[0], (long long)set.n, (long long)set.k);
        rc = CLI_RUNTIME;
        goto done;
    }
    size_t bytes = (size_t)total * (size_t)width;
    if ((rc = cli_open(a, &ctx)) ||
        (rc = cli_result_open(ctx, o.sa, bytes, &sa, "the suffix array")) ||
        (o.doc && (rc = cli_result_open(ctx, o.doc, bytes, &doc, "the document array"))))
        goto done;
    cli_progress_input((size_t)total);
    double t0 = cli_now();
    clsa_status st = build(ctx, &set, width, sa.b.p, o.doc ? doc.b.p : NULL);
    double t1 = cli_now();
    if ((st = cli_progress_done(st))) {
        rc = cli_fail(ctx, st, "generalized suffix array");
        goto done;
    }
    cli_to_le(sa.b.p, (size_t)total, width);
    if (o.doc) cli_to_le(doc.b.p, (size_t)total, width);
    if ((rc = commit_all(&sa, &doc, &o, &set))) goto done;
    if (a->stats) cli_print_stats(ctx, (uint64_t)total, t1 - t0);
done:
    cli_result_close(&sa);
    cli_result_close(&doc);
    cli_close(ctx);
    fasta_set_free(&set);
    return rc;
}
