/* clsa index --format bwa FASTA [PREFIX]: bwa 0.7.17's five index files
 * (clsa_bwa_index), PREFIX defaulting to the FASTA's path as in bwa. */
#include "cli.h"
#include "fasta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *bwa_usage =
    "clsa index --format bwa [-d DEV] [--backend B] [--mem SIZE] [-q] [-v] FASTA [PREFIX]";

static const char *const bwa_ext[] = {".pac", ".ann", ".amb", ".bwt", ".sa"};
#define BWA_FILES 5

/* The read function's state: the stream, and why it stopped. */
typedef struct bwa_input {
    fasta_stream *s;
    char why[512];
    int failed, malformed;
} bwa_input;

static long long bwa_read(void *user, void *buf, size_t cap)
{
    bwa_input *in = user;
    if (cli_interrupted()) {
        snprintf(in->why, sizeof in->why, "interrupted");
        in->failed = 1;
        return -1;
    }
    long long got = fasta_stream_read(in->s, buf, cap, in->why, sizeof in->why);
    if (got < 0) {
        in->failed = 1;
        in->malformed = strstr(in->why, "compressed") != NULL;
    }
    return got;
}

/* Whether argv asks for --format bwa; the words are removed from argv.
 * -1 (after a message) for another format or a missing value. */
static int take_format(int *argc, char **argv)
{
    int found = 0, out = 0;
    for (int i = 0; i < *argc; i++) {
        const char *v = NULL;
        if (!strcmp(argv[i], "--format")) {
            v = i + 1 < *argc ? argv[++i] : "";
        } else if (!strncmp(argv[i], "--format=", 9)) {
            v = argv[i] + 9;
        } else {
            argv[out++] = argv[i];
            continue;
        }
        if (strcmp(v, "bwa") != 0) {
            cli_error("--format takes 'bwa' (bwa 0.7.17's index files), not '%s' (usage: %s)", v, bwa_usage);
            return -1;
        }
        found = 1;
    }
    *argc = out;
    return found;
}

int cli_index_wants_bwa(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--format") || !strncmp(argv[i], "--format=", 9)) return 1;
    return 0;
}

/* PREFIX.ext for each file, checked against the input. */
static int output_names(const char *in, const char *prefix, char out[BWA_FILES][4096])
{
    const char *outs[BWA_FILES];
    for (int i = 0; i < BWA_FILES; i++) {
        if ((size_t)snprintf(out[i], 4096, "%s%s", prefix, bwa_ext[i]) >= 4096) {
            cli_error("output path too long: '%s%s'", prefix, bwa_ext[i]);
            return CLI_USAGE;
        }
        outs[i] = out[i];
    }
    return cli_distinct_paths(&in, 1, outs, BWA_FILES);
}

static int report(clsa_context *ctx, clsa_status st, const bwa_input *in)
{
    if (in->failed && !strcmp(in->why, "interrupted")) st = CLSA_ERR_CANCELLED;
    if (st == CLSA_ERR_CANCELLED) return cli_fail(ctx, st, "index");
    if (in->failed) {
        cli_error("%s", in->why);
        return in->malformed ? CLI_USAGE : CLI_RUNTIME;
    }
    if (st == CLSA_ERR_FORMAT) {
        cli_error("%s", clsa_last_error(ctx));
        return CLI_USAGE;
    }
    return cli_fail(ctx, st, "index");
}

static int run(const cli_args *a, const char *prefix)
{
    char outs[BWA_FILES][4096];
    int rc = output_names(a->pos[0], prefix, outs);
    if (rc) return rc;
    bwa_input in = {0};
    if (fasta_stream_open(a->pos[0], &in.s, in.why, sizeof in.why)) {
        cli_error("%s", in.why[0] ? in.why : "out of memory");
        return CLI_RUNTIME;
    }
    clsa_context *ctx = NULL;
    if ((rc = cli_open(a, &ctx))) {
        fasta_stream_close(in.s);
        return rc;
    }
    const char *name = cli_is_stream(a->pos[0]) ? "<stdin>" : a->pos[0];
    struct stat st_in;
    if (!cli_is_stream(a->pos[0]) && stat(a->pos[0], &st_in) == 0 && S_ISREG(st_in.st_mode))
        cli_progress_input((size_t)st_in.st_size); /* MB/s of the FASTA file */
    clsa_status st = cli_progress_done(clsa_bwa_index(ctx, bwa_read, &in, name, prefix));
    fasta_stream_close(in.s);
    if (st || in.failed) rc = report(ctx, st, &in);
    cli_close(ctx);
    return rc;
}

int cli_index_bwa(int argc, char **argv)
{
    int want = take_format(&argc, argv);
    if (want < 0) return CLI_USAGE;
    cli_args a;
    int help, rc = cli_parse(argc, argv, OPT_DEVICE | OPT_PROGRESS | OPT_MEM, 1, 2,
                             bwa_usage, &a, &help);
    if (rc || help) return rc;
    const char *prefix = a.npos == 2 ? a.pos[1] : a.pos[0];
    if (cli_is_stream(prefix)) {
        cli_error("%s (usage: %s)",
                  a.npos == 2 ? "the index is written to files, not to standard output"
                              : "FASTA '-' needs a PREFIX for the index files",
                  bwa_usage);
        return CLI_USAGE;
    }
    return run(&a, prefix);
}
