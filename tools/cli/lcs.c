/* clsa lcs: the longest common substring of two files (clsa_lcs), or of
 * k strings, in all of them or in at least --min M (clsa_lcs_k): several
 * files, the records of a FASTA file, or the lines of a file. */
#include "sets.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static const char *lcs_usage =
    "clsa lcs [-d DEV] [--backend B] A B\n"
    "       clsa lcs [--min M] [-d DEV] [--backend B] (FILE... | --fasta [--revcomp] "
    "[--keep-case] FASTA | --lines FILE)";

static int lcs_two(const cli_args *a)
{
    uint8_t *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    clsa_context *ctx = NULL;
    int rc;
    if ((rc = cli_read_file(a->pos[0], &x, &nx)) || (rc = cli_read_file(a->pos[1], &y, &ny)) ||
        (rc = cli_open(a, &ctx)))
        goto done;
    int64_t len, pa, pb;
    clsa_status st = clsa_lcs(ctx, x, (int64_t)nx, y, (int64_t)ny, &len, &pa, &pb);
    if (st) {
        rc = cli_fail(ctx, st, "lcs");
        goto done;
    }
    printf("length=%" PRId64 " a=%" PRId64 " b=%" PRId64 "\n", len, pa, pb);
done:
    cli_close(ctx);
    free(x);
    free(y);
    return rc;
}

static int lcs_args(const cli_args *a)
{
    const char *bad = a->set ? "--set" : a->doc ? "--doc" : a->seqs ? "--seqs" : NULL;
    if (!bad && (a->revcomp || a->keep_case) && !a->fasta)
        bad = a->revcomp ? "--revcomp without --fasta" : "--keep-case without --fasta";
    if (bad) {
        cli_error("%s is not an option of lcs (usage: %s)", bad, lcs_usage);
        return CLI_USAGE;
    }
    if (a->fasta && a->lines) {
        cli_error("--fasta and --lines exclude each other (usage: %s)", lcs_usage);
        return CLI_USAGE;
    }
    if ((a->fasta || a->lines) && a->npos != 1) {
        cli_error("--%s takes one input file (usage: %s)", a->fasta ? "fasta" : "lines",
                  lcs_usage);
        return CLI_USAGE;
    }
    if (!a->fasta && !a->lines && a->npos < 2) {
        cli_error("missing argument: lcs needs two or more files (usage: %s)", lcs_usage);
        return CLI_USAGE;
    }
    return cli_distinct_paths(a->pos, a->npos, NULL, 0);
}

/* length=L strings=S, then per string index=I offset=O name=NAME (O = -1
 * where the substring does not occur; the name last, as it may hold
 * anything but a newline). */
static void print_k(const fasta_set *set, int64_t len, const int64_t *offsets)
{
    int64_t holding = 0;
    for (int64_t i = 0; i < set->k; i++) holding += offsets[i] >= 0;
    printf("length=%" PRId64 " strings=%" PRId64 "\n", len, holding);
    for (int64_t i = 0; i < set->k; i++)
        printf("index=%" PRId64 " offset=%" PRId64 " name=%s\n", i, offsets[i],
               fasta_name(set, i));
}

static int lcs_k(const cli_args *a)
{
    fasta_set set;
    int rc = cli_read_strings(a, 0, &set);
    if (rc) return rc;
    int64_t m = a->min ? a->min : set.k, len = 0;
    int64_t *offsets = malloc(((size_t)set.k + 1) * sizeof *offsets);
    clsa_context *ctx = NULL;
    if (set.k > 0 && m > set.k) {
        cli_error("--min %" PRId64 " is more than the %" PRId64 " strings (usage: %s)", m, set.k,
                  lcs_usage);
        rc = CLI_USAGE;
        goto done;
    }
    if (!offsets) {
        cli_error("out of memory for %" PRId64 " strings", set.k);
        rc = CLI_RUNTIME;
        goto done;
    }
    if ((rc = cli_open(a, &ctx))) goto done;
    clsa_status st = clsa_lcs_k(ctx, set.seq, set.len, set.k, m, &len, offsets);
    if (st) {
        rc = cli_fail(ctx, st, "lcs");
        goto done;
    }
    print_k(&set, len, offsets);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("cannot write the output");
        rc = CLI_RUNTIME;
    }
done:
    cli_close(ctx);
    free(offsets);
    fasta_set_free(&set);
    return rc;
}

int cli_lcs(int argc, char **argv)
{
    cli_args a;
    int help, rc = cli_parse(argc, argv, OPT_DEVICE | OPT_SET | OPT_FASTA | OPT_MIN, 1,
                             CLI_MAX_POS, lcs_usage, &a, &help);
    if (rc || help) return rc;
    if ((rc = lcs_args(&a))) return rc;
    /* two files without --min: the two-string form and its output */
    if (!a.fasta && !a.lines && a.npos == 2 && !a.min) return lcs_two(&a);
    return lcs_k(&a);
}
