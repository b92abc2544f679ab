/* clsa index --format bwa FASTA [PREFIX]: bwa 0.7.17's five index files
 * (clsa_bwa_index), PREFIX defaulting to the FASTA's path as in bwa. */
#include "cli.h"
#include "fasta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *bwa_usage =
    "clsa index --format bwa [-d DEV] [--backend B] [--mem SIZE] [-q] [-v] FASTA [PREFIX]";

static const char *const bwa_ext[] = {".pac", ".ann", ".amb", ".bwt", ".sa"};
#define BWA_FILES 5

/* The read function's state: the stream, and why it stopped. */
typedef struct bwa_input {
    fasta_stream *s;
    char why[512];
    int failed, malformed;
    int display;            /* the progress line (a terminal, no -q) */
    double t0, last;
    uint64_t got, size;     /* bytes read; the file's size (0: unknown) */
} bwa_input;

/* The reading's progress line, before the library's own (progress.c's
 * format; the context is still opening on its thread, so not through it). */
static void show_read(bwa_input *in)
{
    double now = cli_now(), el = now - in->t0;
    if (!in->display || now - in->last < 0.1) return;
    in->last = now;
    double f = in->size ? (double)in->got / (double)in->size : 0.0;
    if (f > 0.99) f = 0.99; /* a gzip file gives more bytes than its size */
    fprintf(stderr, "\rclsa: %-22s %3.0f%%  %8.1f MB/s  %7.1f s ", "read fasta", 100.0 * f,
            el > 0 ? (double)in->got / el / 1e6 : 0.0, el);
    fflush(stderr);
}

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
    } else {
        in->got += (uint64_t)got;
        show_read(in);
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

/* The reading's progress line: on a terminal without -q; the file's size. */
static void show_init(bwa_input *in, const cli_args *a)
{
    struct stat sb;
    in->display = a->progress && !a->quiet && isatty(STDERR_FILENO);
    in->t0 = cli_now();
    if (!cli_is_stream(a->pos[0]) && stat(a->pos[0], &sb) == 0 && S_ISREG(sb.st_mode))
        in->size = (uint64_t)sb.st_size; /* of the gzip file for gzip input: shown as read */
}

/* The reading's failure: exit 2 for a malformed input, 130 for Ctrl-C. */
static int read_failed(clsa_status st, const bwa_input *in, const char *err)
{
    if (in->failed && !strcmp(in->why, "interrupted")) {
        cli_error("index: interrupted; no output written");
        return CLI_INTERRUPTED;
    }
    cli_error("%s", in->failed ? in->why : err);
    if (in->failed) return in->malformed ? CLI_USAGE : CLI_RUNTIME;
    return st == CLSA_ERR_FORMAT ? CLI_USAGE : CLI_RUNTIME;
}

/* The FASTA is read while the context opens on a second thread. */
static int run(const cli_args *a, const char *prefix)
{
    char outs[BWA_FILES][4096], err[512] = "";
    int rc = output_names(a->pos[0], prefix, outs);
    if (rc) return rc;
    bwa_input in = {0};
    if (fasta_stream_open(a->pos[0], &in.s, in.why, sizeof in.why)) {
        cli_error("%s", in.why[0] ? in.why : "out of memory");
        return CLI_RUNTIME;
    }
    show_init(&in, a);
    cli_ctx_job j;
    cli_ctx_init(&j, a);
    if (!cli_ctx_serial()) cli_ctx_start(&j);
    const char *name = cli_is_stream(a->pos[0]) ? "<stdin>" : a->pos[0];
    clsa_bwa_ref *ref = NULL;
    clsa_status st = clsa_bwa_ref_read(bwa_read, &in, name, &ref, err, sizeof err);
    fasta_stream_close(in.s);
    if (in.display && in.last > 0) fputc('\n', stderr);
    clsa_context *ctx = NULL;
    if (st || in.failed) rc = read_failed(st, &in, err);
    else if (!(rc = cli_ctx_wait(&j, &ctx))) {
        cli_progress_input((size_t)in.got); /* MB/s of the FASTA from here */
        st = cli_progress_done(clsa_bwa_ref_index(ctx, ref, prefix));
        if (st) rc = cli_fail(ctx, st, "index");
    }
    clsa_bwa_ref_free(ref);
    cli_ctx_end(&j);
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
