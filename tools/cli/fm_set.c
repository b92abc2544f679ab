/* clsa index --set, and count / locate on the index it writes: the
 * FM-index of a set of strings (clsa_fm_set_*), the records of a FASTA
 * file or the lines of a file, with the sequence table of clsa sa --fasta
 * beside it to name the strings in locate's output. */
#include "sets.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int set_args(const cli_args *a, const char *usage, char *seqs, size_t cap)
{
    if (a->fasta == a->lines) {
        cli_error("index --set reads --fasta records or --lines, one of the two (usage: %s)",
                  usage);
        return CLI_USAGE;
    }
    if (a->doc || ((a->revcomp || a->keep_case) && !a->fasta)) {
        cli_error("%s is not an option of index --set%s (usage: %s)",
                  a->doc ? "--doc" : a->revcomp ? "--revcomp" : "--keep-case",
                  a->doc ? "" : " --lines", usage);
        return CLI_USAGE;
    }
    if (cli_is_stream(a->pos[1]) || (a->seqs && cli_is_stream(a->seqs))) {
        cli_error("the index and its sequence table are written to files, not to standard "
                  "output (usage: %s)", usage);
        return CLI_USAGE;
    }
    int len = a->seqs ? snprintf(seqs, cap, "%s", a->seqs)
                      : snprintf(seqs, cap, "%s.seqs", a->pos[1]);
    if (len < 0 || (size_t)len >= cap) {
        cli_error("output path too long: '%s'", a->pos[1]);
        return CLI_USAGE;
    }
    const char *outs[2] = {a->pos[1], seqs};
    return cli_distinct_paths(a->pos, 1, outs, 2);
}

int cli_index_set(const cli_args *a, const char *usage)
{
    char seqs[4096];
    fasta_set set = {0};
    int rc = set_args(a, usage, seqs, sizeof seqs);
    /* the input is read before the device starts: a malformed file fails fast */
    if (rc || (rc = cli_read_strings(a, 0, &set))) return rc;
    clsa_context *ctx = NULL;
    clsa_fm_set *fm = NULL;
    if ((rc = cli_open(a, &ctx))) goto done;
    cli_progress_input((size_t)set.n);
    double t0 = cli_now();
    clsa_status st = clsa_fm_set_create(ctx, set.seq, set.len, set.k, a->sample_rate, &fm);
    st = cli_progress_done(st);
    if (st == CLSA_OK) st = clsa_fm_set_save(fm, a->pos[1]);
    double t1 = cli_now();
    if (st) {
        rc = cli_fail(ctx, st, "index");
        goto done;
    }
    /* both files or neither */
    if ((rc = cli_write_seqs(seqs, &set))) {
        unlink(a->pos[1]);
        goto done;
    }
    if (a->stats) cli_print_stats(ctx, (uint64_t)set.n, t1 - t0);
done:
    clsa_fm_set_free(fm);
    cli_close(ctx);
    fasta_set_free(&set);
    return rc;
}

/* 1 when path starts with the set index's magic (a file that cannot be read
 * is left to clsa_fm_load to report). */
static int is_set_file(const char *path)
{
    char magic[8];
    FILE *f = cli_is_stream(path) ? NULL : fopen(path, "rb");
    int set = f && fread(magic, 1, 8, f) == 8 && !memcmp(magic, "CLSAFMST", 8);
    if (f) fclose(f);
    return set;
}

static int load_names(const cli_args *a, cli_fm *ix)
{
    char path[4096];
    int len = snprintf(path, sizeof path, "%s.seqs", a->pos[0]);
    if (!a->seqs && (len < 0 || (size_t)len >= sizeof path || access(path, F_OK) != 0))
        return CLI_OK; /* no table: strings named by index */
    int64_t k, total;
    clsa_fm_set_info(ix->set, &k, &total, NULL);
    return cli_read_seqs(a->seqs ? a->seqs : path, k, total, &ix->names);
}

int cli_fm_load(const cli_args *a, clsa_context *ctx, cli_fm *ix)
{
    int set = is_set_file(a->pos[0]);
    if (a->seqs && !set) {
        cli_error("--seqs names the strings of a set index; '%s' is not one", a->pos[0]);
        return CLI_USAGE;
    }
    clsa_status st = set ? clsa_fm_set_load(ctx, a->pos[0], &ix->set)
                         : clsa_fm_load(ctx, a->pos[0], &ix->fm);
    if (st) return cli_fail(ctx, st, "cannot load the index");
    return set ? load_names(a, ix) : CLI_OK;
}

void cli_fm_free(cli_fm *ix)
{
    clsa_fm_free(ix->fm);
    clsa_fm_set_free(ix->set);
    fasta_set_free(&ix->names);
}

clsa_status cli_locate_set(cli_fm *ix, const uint8_t *bytes, const uint64_t *off, size_t k)
{
    uint64_t *starts = malloc((k + 1) * sizeof *starts);
    int64_t *str = NULL, *pos = NULL;
    if (!starts) return CLSA_ERR_HOST_MEMORY;
    clsa_status st = clsa_fm_set_locate(ix->set, bytes, off, k, 0, starts, &str, &pos);
    for (size_t j = 0; st == CLSA_OK && j < k; j++) {
        for (uint64_t q = starts[j]; q < starts[j + 1]; q++) {
            if (q > starts[j]) putchar(' ');
            if (ix->names.k) printf("%s:%" PRId64, fasta_name(&ix->names, str[q]), pos[q]);
            else printf("%" PRId64 ":%" PRId64, str[q], pos[q]);
        }
        putchar('\n');
    }
    clsa_fm_positions_free(str);
    clsa_fm_positions_free(pos);
    free(starts);
    return st;
}
