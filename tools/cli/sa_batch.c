/* clsa sa --batch LIST and clsa bwt --batch LIST: the suffix arrays (BWTs)
 * of many inputs in one process, so the OpenCL driver starts once (a
 * sizeable part of a second) instead of once per input, and many inputs share
 * one device pipeline (batch_run.c).  LIST ("-": standard input) holds one pair a line:
 * "INPUT<TAB>OUTPUT" (paths may then hold spaces), or two words separated by
 * spaces; blank lines and lines starting with '#' are skipped.
 * Rules: the whole list is checked before any work (a malformed line, an
 * output naming an input or another output, "-" as an output or read twice:
 * exit 2, nothing written); then the pairs run in list order, and a pair
 * that fails says why on stderr, writes nothing (outputs are atomic) and
 * the others still run; the exit code is the first failure's (0 when none).
 * Ctrl-C, or a context that cannot be opened, stops the batch there. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* One line into a pair: at the first tab, else two space-separated words. */
static int split_pair(char *line, const char **in, const char **out)
{
    char *tab = strchr(line, '\t');
    if (tab) {
        *tab = 0;
        *in = line;
        *out = tab + 1;
        return **in && **out && !strchr(*out, '\t');
    }
    char *save = NULL;
    *in = strtok_r(line, " ", &save);
    *out = strtok_r(NULL, " ", &save);
    return *in && *out && !strtok_r(NULL, " ", &save);
}

static int parse_list(const char *path, cli_batch_list *b)
{
    size_t len = 0;
    int rc = cli_read_file(path, &b->text, &len);
    if (rc) return rc;
    size_t lines = 1;
    for (size_t i = 0; i < len; i++) lines += b->text[i] == '\n';
    uint8_t *grown = realloc(b->text, len + 1);
    b->in = calloc(lines, sizeof *b->in);
    b->out = calloc(lines, sizeof *b->out);
    if (grown) b->text = grown;
    if (!grown || !b->in || !b->out) {
        cli_error("out of memory reading '%s'", path);
        return CLI_RUNTIME;
    }
    b->text[len] = 0;
    char *p = (char *)b->text, *next;
    for (size_t no = 1; p && *p; p = next, no++) {
        next = strchr(p, '\n');
        if (next) *next++ = 0;
        p[strcspn(p, "\r")] = 0;
        if (!*p || *p == '#') continue;
        if (!split_pair(p, &b->in[b->n], &b->out[b->n])) {
            cli_error("%s:%zu: expected 'INPUT OUTPUT' (or INPUT<TAB>OUTPUT)", path, no);
            return CLI_USAGE;
        }
        if (cli_is_stream(b->out[b->n])) {
            cli_error("%s:%zu: '-' (standard output) is not an output in a batch", path, no);
            return CLI_USAGE;
        }
        if (cli_is_stream(b->in[b->n]) && cli_is_stream(path)) {
            cli_error("%s:%zu: standard input holds the list; it cannot be an input too",
                      path, no);
            return CLI_USAGE;
        }
        b->n++;
    }
    return CLI_OK;
}

static int batch(const cli_args *a, int bwt)
{
    cli_batch_list b = {0};
    cli_ctx_job j;
    cli_ctx_init(&j, a);
    cli_ctx_start(&j); /* the driver starts while the list is read and checked */
    int rc = parse_list(a->batch, &b);
    if (!rc && b.n > (size_t)INT32_MAX / 2) {
        cli_error("'%s': too many pairs", a->batch);
        rc = CLI_USAGE;
    }
    if (!rc) rc = cli_distinct_paths(b.in, (int)b.n, b.out, (int)b.n);
    if (!rc) rc = cli_batch_run(a, &b, &j, bwt);
    cli_ctx_end(&j);
    free(b.text);
    free(b.in);
    free(b.out);
    return rc;
}

int cli_sa_batch(const cli_args *a) { return batch(a, 0); }

int cli_bwt_batch(const cli_args *a) { return batch(a, 1); }
