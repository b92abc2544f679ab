/* Sets of strings for clsa lcs and clsa index --set, and the sequence
 * table that names them (sets.h). */
#include "sets.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_split_lines(const uint8_t *data, size_t size, uint64_t **offsets, size_t *np)
{
    size_t lines = 0;
    for (size_t i = 0; i < size; i++) lines += data[i] == '\n';
    if (size && data[size - 1] != '\n') lines++;
    uint64_t *off = malloc((lines + 1) * sizeof *off);
    if (!off) {
        cli_error("out of memory for %zu lines", lines);
        return CLI_RUNTIME;
    }
    /* off[p] = start of line p; a line's end is off[p+1] - 1 (its '\n'). */
    size_t p = 0;
    off[0] = 0;
    for (size_t i = 0; i < size; i++)
        if (data[i] == '\n') off[++p] = i + 1;
    if (size && data[size - 1] != '\n') off[++p] = size + 1;
    *offsets = off;
    *np = lines;
    return CLI_OK;
}

int cli_read_records(const cli_args *a, const char *path, fasta_set *set)
{
    unsigned flags = (a->keep_case ? FASTA_KEEP_CASE : 0) | (a->revcomp ? FASTA_REVCOMP : 0);
    char why[512];
    int64_t line;
    switch (fasta_read_path(path, flags, set, why, sizeof why, &line)) {
    case FASTA_OK: return CLI_OK;
    case FASTA_MALFORMED:
        cli_error("%s:%lld: %s", cli_is_stream(path) ? "<stdin>" : path, (long long)line, why);
        return CLI_USAGE;
    case FASTA_NOMEM: cli_error("out of memory reading '%s'", path); return CLI_RUNTIME;
    default: cli_error("%s", why); return CLI_RUNTIME;
    }
}

static int grow(void **p, int64_t *cap, int64_t need, size_t width)
{
    if (need <= *cap) return 0;
    int64_t c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * width);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* Appends one string (n symbols at b; b may be NULL to record a length
 * only) named name. */
static int add_string(fasta_set *s, const uint8_t *b, size_t n, const char *name)
{
    size_t nl = strlen(name) + 1;
    int64_t rec_cap = s->rec_cap;
    if ((b && grow((void **)&s->seq, &s->seq_cap, s->n + (int64_t)n, 1)) ||
        grow((void **)&s->len, &rec_cap, s->k + 1, sizeof *s->len) ||
        grow((void **)&s->name_at, &s->rec_cap, s->k + 1, sizeof *s->name_at) ||
        grow((void **)&s->names, &s->names_cap, s->names_n + (int64_t)nl, 1)) {
        cli_error("out of memory for %lld strings", (long long)s->k + 1);
        return CLI_RUNTIME;
    }
    if (b && n) memcpy(s->seq + s->n, b, n);
    memcpy(s->names + s->names_n, name, nl);
    s->len[s->k] = (int64_t)n;
    s->name_at[s->k++] = s->names_n;
    s->names_n += (int64_t)nl;
    s->n += (int64_t)n;
    return CLI_OK;
}

static int read_lines(const char *path, fasta_set *set)
{
    uint8_t *data = NULL;
    uint64_t *off = NULL;
    size_t size = 0, np = 0;
    int rc = cli_read_file(path, &data, &size);
    if (rc == CLI_OK) rc = cli_split_lines(data, size, &off, &np);
    /* room for every byte at once; a line never grows the array again */
    if (rc == CLI_OK && grow((void **)&set->seq, &set->seq_cap, (int64_t)size + 1, 1)) {
        cli_error("out of memory reading '%s'", path);
        rc = CLI_RUNTIME;
    }
    for (size_t p = 0; rc == CLI_OK && p < np; p++) {
        char name[24];
        snprintf(name, sizeof name, "%zu", p);
        rc = add_string(set, data + off[p], (size_t)(off[p + 1] - 1 - off[p]), name);
    }
    free(data);
    free(off);
    return rc;
}

int cli_read_strings(const cli_args *a, int first, fasta_set *set)
{
    memset(set, 0, sizeof *set);
    int rc = CLI_OK;
    if (a->fasta) rc = cli_read_records(a, a->pos[first], set);
    else if (a->lines) rc = read_lines(a->pos[first], set);
    for (int i = first; !a->fasta && !a->lines && rc == CLI_OK && i < a->npos; i++) {
        uint8_t *data = NULL;
        size_t n = 0;
        if ((rc = cli_read_file(a->pos[i], &data, &n)) == CLI_OK)
            rc = add_string(set, data, n, a->pos[i]);
        free(data);
    }
    if (rc) fasta_set_free(set);
    return rc;
}

int cli_write_seqs(const char *path, const fasta_set *s)
{
    size_t cap = 64 + (size_t)s->names_n + (size_t)s->k * 64, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        cli_error("out of memory for the sequence table");
        return CLI_RUNTIME;
    }
    n += (size_t)snprintf(buf, cap, "index\tname\toffset\tlength\n");
    int64_t offset = 0;
    for (int64_t i = 0; i < s->k; i++) {
        n += (size_t)snprintf(buf + n, cap - n, "%lld\t%s\t%lld\t%lld\n", (long long)i,
                              fasta_name(s, i), (long long)offset, (long long)s->len[i]);
        offset += s->len[i] + 1;
    }
    int rc = cli_write_file(path, buf, n);
    free(buf);
    return rc;
}

/* One row "index\tname\toffset\tlength" of the table (line is NUL-ended,
 * without its '\n'): 0 when it is not row i at offset at. */
static int parse_row(char *line, int64_t i, int64_t at, fasta_set *set)
{
    char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (!t2 || t2 == t1 + 1) return 0;
    *t1 = *t2 = 0;
    long long idx, off, len;
    char end;
    if (sscanf(line, "%lld%c", &idx, &end) != 1 || idx != i) return 0;
    if (sscanf(t2 + 1, "%lld\t%lld%c", &off, &len, &end) != 2 || off != at || len < 0) return 0;
    return add_string(set, NULL, (size_t)len, t1 + 1) == CLI_OK;
}

int cli_read_seqs(const char *path, int64_t k, int64_t total, fasta_set *set)
{
    memset(set, 0, sizeof *set);
    uint8_t *data = NULL;
    uint64_t *off = NULL;
    size_t size = 0, np = 0;
    int rc = cli_read_file(path, &data, &size);
    if (rc || (rc = cli_split_lines(data, size, &off, &np))) goto done;
    /* written by cli_write_seqs: every line ends in '\n', no NUL anywhere */
    int ok = np == (size_t)k + 1 && data[size - 1] == '\n' && memchr(data, 0, size) == NULL;
    for (size_t p = 0; ok && p < np; p++) data[off[p + 1] - 1] = 0; /* the '\n's */
    ok = ok && !strcmp((char *)data, "index\tname\toffset\tlength");
    int64_t at = 0;
    for (size_t p = 1; ok && p < np; p++) {
        ok = parse_row((char *)data + off[p], (int64_t)p - 1, at, set);
        at += ok ? set->len[p - 1] + 1 : 0;
    }
    if (!ok || set->n != total) {
        cli_error("sequence table '%s' does not match the index (%lld strings of %lld "
                  "symbols in all)", path, (long long)k, (long long)total);
        rc = CLI_RUNTIME;
    }
done:
    if (rc) fasta_set_free(set);
    free(data);
    free(off);
    return rc;
}
