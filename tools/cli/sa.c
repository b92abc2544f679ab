/* clsa sa / clsa check: build and verify suffix arrays. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *sa_usage =
    "clsa sa [-d DEV[,DEV...]|all] [--backend B] [--index 32|64] [--mem SIZE] "
    "[--algorithm auto|doubling|skew|hybrid|runlen] [--stats] [-q] [-v] "
    "[--fasta [--keep-case] [--revcomp] [--doc FILE] [--seqs FILE]] INPUT OUTPUT "
    "| --batch LIST (one 'INPUT OUTPUT' pair a line)";

/* The FASTA options mean nothing for a byte input: refused, not ignored. */
static int fasta_only(const cli_args *a)
{
    const char *lone = a->keep_case ? "--keep-case" : a->revcomp ? "--revcomp"
                     : a->doc ? "--doc" : a->seqs ? "--seqs" : NULL;
    if (a->fasta || !lone) return CLI_OK;
    cli_error("%s needs --fasta (usage: %s)", lone, sa_usage);
    return CLI_USAGE;
}

/* Several devices build a byte input's suffix array only (devlist.c). */
static int fasta_one_device(const cli_args *a)
{
    if (!a->fasta || !a->multi) return CLI_OK;
    cli_error("clsa sa --fasta: several devices ('%s'): only `clsa sa` of a byte input takes "
              "a list", a->device);
    return CLI_USAGE;
}

/* --batch takes its pairs from LIST: no INPUT OUTPUT words, no --fasta. */
static int batch_words(const cli_args *a)
{
    if (a->batch && (a->npos || a->fasta)) {
        cli_error("--batch takes its inputs from LIST: %s (usage: %s)",
                  a->fasta ? "--fasta is not supported there" : "no INPUT OUTPUT words",
                  sa_usage);
        return CLI_USAGE;
    }
    if (!a->batch && a->npos < 2) {
        cli_error("missing argument (usage: %s)", sa_usage);
        return CLI_USAGE;
    }
    return CLI_OK;
}

int cli_sa(int argc, char **argv)
{
    cli_args a;
    int help, rc = cli_parse(argc, argv,
                             OPT_DEVICE | OPT_DEVICES | OPT_INDEX | OPT_STATS | OPT_PROGRESS |
                                 OPT_FASTA | OPT_MEM | OPT_BATCH | OPT_ALGO, 0, 2,
                             sa_usage, &a, &help);
    if (rc || help || (rc = fasta_only(&a)) || (rc = batch_words(&a)) ||
        (rc = fasta_one_device(&a)))
        return rc;
    if (a.batch) return cli_sa_batch(&a);
    if (a.fasta) return cli_sa_fasta(&a);
    if ((rc = cli_distinct_paths(a.pos, 1, a.pos + 1, 1))) return rc;
    cli_ctx_job j;
    cli_ctx_init(&j, &a);
    rc = cli_sa_one(&a, &j, a.pos[0], a.pos[1]);
    cli_ctx_end(&j);
    return rc;
}

/* The suffix array on the job's device, or on all its devices. */
static clsa_status build(const cli_ctx_job *j, clsa_context *ctx, const void *text, void *sa,
                         size_t n, int width)
{
    const cli_devlist *l = j->list;
    if (l && width == 4) return clsa_sa32_multi(l->ctx, l->k, text, sa, (int64_t)n);
    if (l) return clsa_sa64_multi(l->ctx, l->k, text, sa, (int64_t)n);
    return width == 4 ? clsa_sa32(ctx, text, sa, (int64_t)n) : clsa_sa64(ctx, text, sa, (int64_t)n);
}

/* The context starts once the input is known to open (its errors come
 * first, as before) and is joined only before the call: mapping the input
 * and making the output file run beside the driver's start.  Page-locked
 * arrays (CLSA_CLI_IO=pinned) belong to the context, so they wait for it. */
int cli_sa_one(const cli_args *a, cli_ctx_job *j, const char *in_path, const char *out_path)
{
    cli_in in;
    cli_buf text = {0};
    cli_result sa = {0};
    clsa_context *ctx = NULL;
    int rc, width = a->index_bits / 8;
    if ((rc = cli_in_open(&in, in_path))) return rc;
    cli_ctx_start(j);
    if ((cli_io_pinned() || cli_ctx_serial()) && (rc = cli_ctx_wait(j, &ctx))) goto done;
    if ((rc = cli_in_read(&in, ctx, &text))) goto done;
    size_t n = text.n;
    if (width == 4 && n > INT32_MAX) {
        cli_error("'%s' has %zu bytes: too large for a 32-bit suffix array; use --index 64",
                  in_path, n);
        rc = CLI_RUNTIME;
        goto done;
    }
    if ((rc = cli_result_open(ctx, out_path, n * (size_t)width, &sa, "the suffix array")) ||
        (rc = cli_ctx_wait(j, &ctx)))
        goto done;
    clsa_sa_plan_info plan;
    int planned = a->stats && !j->list && cli_sa_plan(ctx, n, 1, width == 8, &plan);
    cli_progress_input(n);
    double t0 = cli_now();
    clsa_status st = build(j, ctx, text.p, sa.b.p, n, width);
    double t1 = cli_now();
    st = cli_progress_done(st);
    if (st) {
        rc = cli_fail(ctx, st, "suffix array");
        goto done;
    }
    cli_to_le(sa.b.p, n, width);
    if ((rc = cli_result_commit(&sa))) goto done;
    if (a->stats && j->list) cli_devlist_stats(j->list, n, t1 - t0);
    else if (a->stats) cli_print_stats(ctx, n, t1 - t0);
    if (planned) cli_print_plan(&plan);
done:
    cli_in_close(&in);
    cli_buf_free(&text);
    cli_result_close(&sa);
    return rc;
}

static const char *check_usage = "clsa check [--index 32|64] INPUT SA";

int cli_check(int argc, char **argv)
{
    cli_args a;
    int help, rc = cli_parse(argc, argv, OPT_DEVICE | OPT_INDEX, 2, 2, check_usage, &a, &help);
    if (rc || help) return rc;
    if ((rc = cli_distinct_paths(a.pos, 2, NULL, 0))) return rc;
    uint8_t *text = NULL, *sa = NULL;
    size_t n = 0, bytes = 0;
    int width = a.index_bits / 8;
    if ((rc = cli_read_file(a.pos[0], &text, &n)) || (rc = cli_read_file(a.pos[1], &sa, &bytes)))
        goto done;
    if (bytes != n * (size_t)width) {
        printf("invalid: '%s' has %zu bytes, expected %zu (%zu entries of %d bytes)\n", a.pos[1],
               bytes, n * (size_t)width, n, width);
        rc = CLI_INVALID;
        goto done;
    }
    cli_to_le(sa, n, width);
    int valid = 0;
    char why[256];
    clsa_status st = width == 4
                         ? clsa_check_sa32(text, (const int32_t *)(void *)sa, (int64_t)n, &valid, why, sizeof why)
                         : clsa_check_sa64(text, (const int64_t *)(void *)sa, (int64_t)n, &valid, why, sizeof why);
    if (st) {
        rc = cli_fail(NULL, st, "check");
        goto done;
    }
    if (valid) printf("valid: %zu suffixes\n", n);
    else printf("invalid: %s\n", why);
    rc = valid ? CLI_OK : CLI_INVALID;
done:
    free(text);
    free(sa);
    return rc;
}
