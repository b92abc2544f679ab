/* clsa sa / clsa check: build and verify suffix arrays. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *sa_usage =
    "clsa sa [-d DEV] [--backend B] [--index 32|64] [--mem SIZE] [--stats] [-q] [-v] "
    "[--fasta [--keep-case] [--revcomp] [--doc FILE] [--seqs FILE]] INPUT OUTPUT";

/* The FASTA options mean nothing for a byte input: refused, not ignored. */
static int fasta_only(const cli_args *a)
{
    const char *lone = a->keep_case ? "--keep-case" : a->revcomp ? "--revcomp"
                     : a->doc ? "--doc" : a->seqs ? "--seqs" : NULL;
    if (a->fasta || !lone) return CLI_OK;
    cli_error("%s needs --fasta (usage: %s)", lone, sa_usage);
    return CLI_USAGE;
}

int cli_sa(int argc, char **argv)
{
    cli_args a;
    int help, rc = cli_parse(argc, argv,
                             OPT_DEVICE | OPT_INDEX | OPT_STATS | OPT_PROGRESS | OPT_FASTA |
                                 OPT_MEM, 2, 2,
                             sa_usage, &a, &help);
    if (rc || help || (rc = fasta_only(&a))) return rc;
    if (a.fasta) return cli_sa_fasta(&a);
    if ((rc = cli_distinct_paths(a.pos, 1, a.pos + 1, 1))) return rc;
    cli_in in;
    cli_buf text = {0};
    cli_result sa = {0};
    clsa_context *ctx = NULL;
    int width = a.index_bits / 8;
    if ((rc = cli_in_open(&in, a.pos[0]))) return rc;
    /* The context first: the arrays live in its page-locked memory. */
    if ((rc = cli_open(&a, &ctx)) || (rc = cli_in_read(&in, ctx, &text))) goto done;
    size_t n = text.n;
    if (a.index_bits == 32 && n > INT32_MAX) {
        cli_error("'%s' has %zu bytes: too large for a 32-bit suffix array; use --index 64",
                  a.pos[0], n);
        rc = CLI_RUNTIME;
        goto done;
    }
    if ((rc = cli_result_open(ctx, a.pos[1], n * (size_t)width, &sa, "the suffix array")))
        goto done;
    cli_progress_input(n);
    double t0 = cli_now();
    clsa_status st = width == 4 ? clsa_sa32(ctx, text.p, sa.b.p, (int64_t)n)
                                : clsa_sa64(ctx, text.p, sa.b.p, (int64_t)n);
    double t1 = cli_now();
    st = cli_progress_done(st);
    if (st) {
        rc = cli_fail(ctx, st, "suffix array");
        goto done;
    }
    cli_to_le(sa.b.p, n, width);
    if ((rc = cli_result_commit(&sa))) goto done;
    if (a.stats) cli_print_stats(ctx, n, t1 - t0);
done:
    cli_in_close(&in);
    cli_buf_free(&text);
    cli_result_close(&sa);
    clsa_destroy(ctx);
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
