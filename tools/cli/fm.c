/* clsa index / count / locate (the set forms: fm_set.c).
 *
 * Pattern files: one pattern per line, lines end at '\n' (0x0A; every other
 * byte, '\r' and 0x00 included, belongs to the pattern, so patterns cannot
 * hold 0x0A).  A final '\n' ends the last line and does not start another;
 * a last line without '\n' still counts.  An empty line is the empty
 * pattern, which occurs at every text position (count = text length; locate
 * lists 0 .. n-1).  An empty file has no patterns and gives no output.
 * Output: one line per pattern, in input order; locate on a set index
 * prints NAME:OFFSET for each occurrence (fm_set.c). */
#include "cli.h"
#include "sets.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Patterns per device batch: bounds host and device memory for huge files. */
#define BATCH 262144

static const char *index_usage =
    "clsa index [-d DEV] [--backend B] [--sample-rate R] [--stats] [-q] [-v] INPUT INDEX\n"
    "       clsa index --set (--fasta [--revcomp] [--keep-case] | --lines) [--seqs FILE] "
    "[--sample-rate R] [-d DEV] [--backend B] [--stats] [-q] [-v] INPUT INDEX\n"
    "       clsa index --format bwa [-d DEV] [--backend B] [--mem SIZE] [-q] [-v] FASTA [PREFIX]";
static const char *count_usage = "clsa count [-d DEV] [--backend B] [--seqs FILE] INDEX PATTERNS";
static const char *locate_usage =
    "clsa locate [-d DEV] [--backend B] [--seqs FILE] INDEX PATTERNS";

int cli_index(int argc, char **argv)
{
    if (cli_index_wants_bwa(argc, argv)) return cli_index_bwa(argc, argv);
    cli_args a;
    int help, rc = cli_parse(argc, argv,
                             OPT_DEVICE | OPT_RATE | OPT_STATS | OPT_PROGRESS | OPT_SET | OPT_FASTA,
                             2, 2, index_usage, &a, &help);
    if (rc || help) return rc;
    if (a.set || a.fasta || a.lines || a.seqs || a.keep_case || a.revcomp)
        return cli_index_set(&a, index_usage);
    if ((rc = cli_distinct_paths(a.pos, 1, a.pos + 1, 1))) return rc;
    if (cli_is_stream(a.pos[1])) {
        cli_error("the index is written to a file, not to standard output (usage: %s)",
                  index_usage);
        return CLI_USAGE;
    }
    cli_in in;
    cli_buf text = {0};
    size_t n = 0;
    clsa_context *ctx = NULL;
    clsa_fm *fm = NULL;
    if ((rc = cli_in_open(&in, a.pos[0]))) return rc;
    if ((rc = cli_open(&a, &ctx)) || (rc = cli_in_read(&in, ctx, &text))) goto done;
    n = text.n;
    /* the index's route is its suffix array's (out of core: BWT and samples
     * made on the host) */
    clsa_sa_plan_info plan;
    int planned = a.stats && cli_sa_plan(ctx, n, 1, n >= INT32_MAX, &plan);
    cli_progress_input(n);
    double t0 = cli_now();
    clsa_status st = clsa_fm_create(ctx, text.p, (int64_t)n, a.sample_rate, &fm);
    st = cli_progress_done(st);
    if (st == CLSA_OK) st = clsa_fm_save(fm, a.pos[1]);
    double t1 = cli_now();
    if (st) {
        rc = cli_fail(ctx, st, "index");
        goto done;
    }
    if (a.stats) cli_print_stats(ctx, n, t1 - t0);
    if (planned) cli_print_plan(&plan);
done:
    cli_in_close(&in);
    clsa_fm_free(fm);
    cli_buf_free(&text);
    cli_close(ctx);
    return rc;
}

/* The batch [p0, p0 + k) as contiguous patterns: bytes without the '\n's. */
static void batch_of(const uint8_t *data, const uint64_t *lines, size_t p0, size_t k,
                     uint8_t *bytes, uint64_t *off)
{
    off[0] = 0;
    for (size_t j = 0; j < k; j++) {
        uint64_t s = lines[p0 + j], len = lines[p0 + j + 1] - 1 - s;
        memcpy(bytes + off[j], data + s, (size_t)len);
        off[j + 1] = off[j] + len;
    }
}

typedef clsa_status (*batch_fn)(cli_fm *ix, const uint8_t *bytes, const uint64_t *off, size_t k);

static clsa_status print_counts(cli_fm *ix, const uint8_t *bytes, const uint64_t *off, size_t k)
{
    uint64_t *cnt = malloc(k * sizeof *cnt);
    if (!cnt) return CLSA_ERR_HOST_MEMORY;
    clsa_status st = ix->set ? clsa_fm_set_count(ix->set, bytes, off, k, cnt)
                             : clsa_fm_count(ix->fm, bytes, off, k, cnt);
    if (st == CLSA_OK)
        for (size_t j = 0; j < k; j++) printf("%" PRIu64 "\n", cnt[j]);
    free(cnt);
    return st;
}

static clsa_status print_positions(cli_fm *ix, const uint8_t *bytes, const uint64_t *off,
                                   size_t k)
{
    if (ix->set) return cli_locate_set(ix, bytes, off, k);
    clsa_fm *fm = ix->fm;
    uint64_t *starts = malloc((k + 1) * sizeof *starts);
    int64_t *pos = NULL;
    if (!starts) return CLSA_ERR_HOST_MEMORY;
    clsa_status st = clsa_fm_locate(fm, bytes, off, k, 0, starts, &pos);
    if (st == CLSA_OK)
        for (size_t j = 0; j < k; j++) {
            for (uint64_t q = starts[j]; q < starts[j + 1]; q++)
                printf(q == starts[j] ? "%" PRId64 : " %" PRId64, pos[q]);
            putchar('\n');
        }
    clsa_fm_positions_free(pos);
    free(starts);
    return st;
}

/* Shared body of count and locate: load, split, run fn over batches. */
static int query(int argc, char **argv, const char *usage, const char *what, batch_fn fn)
{
    cli_args a;
    int help, rc = cli_parse(argc, argv, OPT_DEVICE | OPT_SEQS, 2, 2, usage, &a, &help);
    if (rc || help) return rc;
    uint8_t *data = NULL, *bytes = NULL;
    uint64_t *lines = NULL, *off = NULL;
    size_t size = 0, np = 0;
    clsa_context *ctx = NULL;
    cli_fm ix = {0};
    if ((rc = cli_read_file(a.pos[1], &data, &size)) ||
        (rc = cli_split_lines(data, size, &lines, &np)))
        goto done;
    if ((rc = cli_open(&a, &ctx)) || (rc = cli_fm_load(&a, ctx, &ix))) goto done;
    clsa_status st;
    bytes = malloc(size + 1);
    off = malloc((BATCH + 1) * sizeof *off);
    if (!bytes || !off) {
        cli_error("out of memory for the patterns");
        rc = CLI_RUNTIME;
        goto done;
    }
    for (size_t p0 = 0; p0 < np; p0 += BATCH) {
        size_t k = np - p0 < BATCH ? np - p0 : BATCH;
        batch_of(data, lines, p0, k, bytes, off);
        if ((st = fn(&ix, bytes, off, k)) != CLSA_OK) {
            rc = cli_fail(ctx, st, what);
            goto done;
        }
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("cannot write the output");
        rc = CLI_RUNTIME;
    }
done:
    cli_fm_free(&ix);
    cli_close(ctx);
    free(data);
    free(bytes);
    free(lines);
    free(off);
    return rc;
}

int cli_count(int argc, char **argv)
{
    return query(argc, argv, count_usage, "count", print_counts);
}

int cli_locate(int argc, char **argv)
{
    return query(argc, argv, locate_usage, "locate", print_positions);
}
