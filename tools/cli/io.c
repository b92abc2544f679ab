/* Whole-file input and output of the CLI: "-" for the standard streams,
 * outputs that must not name an input, and big arrays that cross to the
 * device without an extra copy on the host (file mappings, or page-locked
 * memory from clsa_host_alloc). */
/* fallocate, MAP_POPULATE */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_is_stream(const char *path) { return path && !strcmp(path, "-"); }

void cli_to_le(void *v, size_t n, int width)
{
    const uint16_t probe = 1;
    if (*(const uint8_t *)&probe == 1) return;
    uint8_t *p = v;
    for (size_t i = 0; i < n; i++, p += width)
        for (int a = 0, b = width - 1; a < b; a++, b--) {
            uint8_t t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

/* ---- outputs that would destroy an input ------------------------------------ */

/* What a path names: the file itself when it exists (links followed),
 * else its folder and last component (an output not written yet). */
typedef struct file_id {
    int exists, folder_ok;
    dev_t dev;
    ino_t ino;
    const char *base;
} file_id;

static void identify(const char *path, file_id *id)
{
    struct stat s;
    memset(id, 0, sizeof *id);
    if (stat(path, &s) == 0) {
        id->exists = 1;
        id->dev = s.st_dev;
        id->ino = s.st_ino;
        return;
    }
    char folder[4096];
    const char *slash = strrchr(path, '/');
    id->base = slash ? slash + 1 : path;
    size_t len = slash ? (size_t)(slash - path) : 0;
    if (len >= sizeof folder) return;
    memcpy(folder, path, len);
    folder[len] = 0;
    if (!slash) strcpy(folder, ".");
    else if (len == 0) strcpy(folder, "/");
    if (stat(folder, &s) == 0) {
        id->folder_ok = 1;
        id->dev = s.st_dev;
        id->ino = s.st_ino;
    }
}

/* What "-" names: the regular file on standard input or output (fd), if
 * any (`clsa sa - x < x` must not replace x by its own suffix array). */
static void identify_stream(int fd, file_id *id)
{
    struct stat s;
    memset(id, 0, sizeof *id);
    if (fstat(fd, &s) != 0 || !S_ISREG(s.st_mode)) return;
    id->exists = 1;
    id->dev = s.st_dev;
    id->ino = s.st_ino;
}

static void identify_arg(const char *path, int fd, file_id *id)
{
    if (cli_is_stream(path)) identify_stream(fd, id);
    else identify(path, id);
}

static int same_file(const file_id *a, const file_id *b)
{
    if (a->exists != b->exists) return 0;
    if (a->exists) return a->dev == b->dev && a->ino == b->ino;
    return a->folder_ok && b->folder_ok && a->dev == b->dev && a->ino == b->ino &&
           !strcmp(a->base, b->base);
}

int cli_distinct_paths(const char *const *in, int nin, const char *const *out, int nout)
{
    int stdin_uses = 0;
    for (int i = 0; i < nin; i++) stdin_uses += cli_is_stream(in[i]);
    if (stdin_uses > 1) {
        cli_error("standard input ('-') can be read only once");
        return CLI_USAGE;
    }
    for (int o = 0; o < nout; o++) {
        file_id oid;
        identify_arg(out[o], STDOUT_FILENO, &oid);
        if (!oid.exists && !oid.folder_ok) continue;
        for (int i = 0; i < nin + o; i++) {
            const char *other = i < nin ? in[i] : out[i - nin];
            file_id id;
            identify_arg(other, i < nin ? STDIN_FILENO : STDOUT_FILENO, &id);
            if (!same_file(&oid, &id)) continue;
            cli_error("output '%s' is the same file as %s '%s'%s; refusing to overwrite it",
                      cli_is_stream(out[o]) ? "(standard output)" : out[o],
                      i < nin ? "input" : "output", other,
                      cli_is_stream(other) ? (i < nin ? " (standard input)" : " (standard output)")
                                           : "");
            return CLI_USAGE;
        }
    }
    return CLI_OK;
}

/* ---- big arrays ------------------------------------------------------------
 * CLSA_CLI_IO picks how they meet the device.  Page-locking a large
 * array costs more than its faster copy saves, and a mapping saves the
 * copy into the output file, so mmap is the default (docs/bench/log/cli-io.md).
 *   mmap    the input file and the output's temporary mapped: no copy on
 *           the host; the device copies from and to page-cache pages;
 *   pinned  page-locked memory of the context (clsa_host_alloc), read into
 *           and written out of with read/write (the copy itself is much
 *           faster);
 *   plain   malloc, as a caller without either would. */
enum { IO_PINNED, IO_MMAP, IO_PLAIN };

static int io_mode(void)
{
    const char *e = getenv("CLSA_CLI_IO");
    if (e && !strcmp(e, "pinned")) return IO_PINNED;
    if (e && !strcmp(e, "plain")) return IO_PLAIN;
    return IO_MMAP;
}

int cli_io_pinned(void) { return io_mode() == IO_PINNED; }

int cli_buf_alloc(clsa_context *ctx, size_t bytes, cli_buf *b, const char *what)
{
    b->p = NULL;
    b->n = bytes;
    b->ctx = io_mode() == IO_PINNED ? ctx : NULL;
    b->mapped = 0;
    if (!b->ctx || clsa_host_alloc(ctx, bytes ? bytes : 1, &b->p) != CLSA_OK) {
        b->ctx = NULL;
        b->p = malloc(bytes ? bytes : 1);
    }
    if (!b->p) {
        cli_error("out of memory for %s (%zu bytes)", what, bytes);
        return CLI_RUNTIME;
    }
    return CLI_OK;
}

void cli_buf_free(cli_buf *b)
{
    if (b->p && b->mapped) munmap(b->p, b->n);
    else if (b->p && b->ctx) clsa_host_free(b->ctx, b->p);
    else free(b->p);
    b->p = NULL;
}

/* The whole of fd mapped (read-only, pages brought in at once). */
static int map_fd(int fd, size_t bytes, int prot, int flags, cli_buf *b)
{
    void *p = bytes ? mmap(NULL, bytes, prot, flags, fd, 0) : MAP_FAILED;
    if (p == MAP_FAILED) return -1;
    b->p = p;
    b->n = bytes;
    b->ctx = NULL;
    b->mapped = 1;
    return 0;
}

/* ---- whole inputs ------------------------------------------------------------ */

int cli_in_open(cli_in *in, const char *path)
{
    in->path = path;
    in->size = 0;
    in->f = NULL;
    in->data = NULL;
    if (cli_is_stream(path)) return CLI_OK;
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("cannot open '%s': %s", path, strerror(errno));
        return CLI_RUNTIME;
    }
    struct stat s;
    if (fstat(fileno(f), &s) != 0 || !S_ISREG(s.st_mode)) {
        cli_error("'%s' is not a regular file", path);
        fclose(f);
        return CLI_RUNTIME;
    }
    in->f = f;
    in->size = (size_t)s.st_size;
    /* A size of 0 may be a file that has no size to tell (/proc, /sys):
     * read it to its end now, as standard input is. */
    if (in->size == 0) {
        int rc = cli_read_stream(f, &in->data, &in->size);
        if (rc) cli_in_close(in);
        return rc;
    }
    return CLI_OK;
}

void cli_in_close(cli_in *in)
{
    if (in->f) fclose(in->f);
    in->f = NULL;
    free(in->data);
    in->data = NULL;
}

int cli_in_read(cli_in *in, clsa_context *ctx, cli_buf *b)
{
    memset(b, 0, sizeof *b);
    if (cli_is_stream(in->path)) {
        uint8_t *data;
        int rc = cli_read_file(in->path, &data, &b->n);
        b->p = data;
        return rc;
    }
    if (io_mode() == IO_MMAP && !in->data &&
        map_fd(fileno(in->f), in->size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, b) == 0) {
        cli_in_close(in);
        return CLI_OK;
    }
    int rc = cli_buf_alloc(ctx, in->size, b, "the input");
    if (rc == CLI_OK && (rc = cli_in_fill(in, b->p))) cli_buf_free(b);
    return rc;
}

int cli_in_fill(cli_in *in, void *buf)
{
    if (in->data) { /* read already (a file without a size) */
        memcpy(buf, in->data, in->size);
        cli_in_close(in);
        return CLI_OK;
    }
    size_t got = in->size ? fread(buf, 1, in->size, in->f) : 0;
    int bad = got != in->size || ferror(in->f);
    int saved = errno;
    cli_in_close(in);
    if (bad) {
        cli_error("cannot read '%s': %s", in->path, strerror(saved ? saved : EIO));
        return CLI_RUNTIME;
    }
    return CLI_OK;
}

/* ---- whole outputs ------------------------------------------------------------ */

int cli_result_open(clsa_context *ctx, const char *path, size_t bytes, cli_result *r,
                    const char *what)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    if (cli_is_stream(path)) return cli_buf_alloc(ctx, bytes, &r->b, what);
    int rc = cli_out_open(&r->o, path);
    if (rc) return rc;
    r->open = 1;
    int fd = fileno((FILE *)r->o.file);
    /* The blocks are reserved before anything is written: a full file
     * system is an error here, not a SIGBUS in the middle of the copy.
     * Where fallocate is not supported (a FIFO, a device), the output is
     * written instead. */
    if (io_mode() == IO_MMAP && bytes && !r->o.s.in_place && fallocate(fd, 0, 0, (off_t)bytes) == 0 &&
        map_fd(fd, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, &r->b) == 0)
        return CLI_OK;
    return cli_buf_alloc(ctx, bytes, &r->b, what);
}

int cli_result_commit(cli_result *r)
{
    if (!r->open) return cli_write_stream(r->b.p, r->b.n);
    FILE *f = r->o.file;
    int rc = CLI_OK;
    if (!r->b.mapped && r->b.n && fwrite(r->b.p, 1, r->b.n, f) != r->b.n) {
        cli_error("cannot write '%s': %s", r->path, strerror(errno ? errno : EIO));
        rc = CLI_RUNTIME;
    }
    cli_buf_free(&r->b);
    if (rc) return rc; /* cli_result_close removes the temporary */
    r->open = 0;
    return cli_out_commit(&r->o);
}

void cli_result_close(cli_result *r)
{
    cli_buf_free(&r->b);
    if (r->open) cli_out_abort(&r->o);
    r->open = 0;
}

/* Standard input, whole, into a growing buffer (its size is not known). */
int cli_read_stream(FILE *f, uint8_t **data, size_t *n)
{
    size_t cap = 1 << 20, len = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap) break;
        uint8_t *grown = realloc(buf, cap * 2);
        if (!grown) free(buf);
        buf = grown;
        cap *= 2;
    }
    if (!buf) {
        cli_error("out of memory reading standard input");
        return CLI_RUNTIME;
    }
    if (ferror(f)) {
        cli_error("cannot read standard input: %s", strerror(errno ? errno : EIO));
        free(buf);
        return CLI_RUNTIME;
    }
    *data = buf;
    *n = len;
    return CLI_OK;
}

/* Standard output, whole. */
int cli_write_stream(const void *data, size_t n)
{
    if ((n && fwrite(data, 1, n, stdout) != n) || fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("cannot write standard output: %s", strerror(errno ? errno : EIO));
        return CLI_RUNTIME;
    }
    return CLI_OK;
}

int cli_read_file(const char *path, uint8_t **data, size_t *n)
{
    *data = NULL;
    *n = 0;
    if (cli_is_stream(path)) return cli_read_stream(stdin, data, n);
    cli_in in;
    int rc = cli_in_open(&in, path);
    if (rc) return rc;
    uint8_t *buf = malloc(in.size ? in.size : 1);
    if (!buf) {
        cli_error("out of memory reading '%s' (%zu bytes)", path, in.size);
        cli_in_close(&in);
        return CLI_RUNTIME;
    }
    if ((rc = cli_in_fill(&in, buf))) {
        free(buf);
        return rc;
    }
    *data = buf;
    *n = in.size;
    return CLI_OK;
}

int cli_out_open(cli_out *o, const char *path)
{
    char why[256];
    o->path = path;
    o->file = NULL;
    int st = clsa__sout_open(&o->s, path, why, sizeof why);
    if (st == CLSA_SOUT_REFUSED) {
        cli_error("cannot write output '%s': %s", path, why);
        return CLI_USAGE;
    }
    if (st) {
        cli_error("cannot create output '%s': %s", path, why);
        return CLI_RUNTIME;
    }
    int fd = dup(o->s.fd);
    o->file = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!o->file) {
        int saved = errno;
        if (fd >= 0) close(fd);
        clsa__sout_abort(&o->s);
        cli_error("cannot create output '%s': %s", path, strerror(saved));
        return CLI_RUNTIME;
    }
    return CLI_OK;
}

void cli_out_abort(cli_out *o)
{
    if (o->file) fclose(o->file);
    o->file = NULL;
    clsa__sout_abort(&o->s);
}

int cli_out_commit(cli_out *o)
{
    FILE *f = o->file;
    o->file = NULL;
    int bad = ferror(f) != 0;
    bad = (fflush(f) != 0) || bad;
    int saved = errno;
    bad = (fclose(f) != 0) || bad;
    char why[256];
    if (bad) {
        clsa__sout_abort(&o->s);
        cli_error("cannot write '%s': %s", o->path, strerror(saved ? saved : EIO));
        return CLI_RUNTIME;
    }
    if (clsa__sout_commit(&o->s, why, sizeof why)) {
        cli_error("cannot write '%s': %s", o->path, why);
        return CLI_RUNTIME;
    }
    return CLI_OK;
}

int cli_write_file(const char *path, const void *data, size_t n)
{
    if (cli_is_stream(path)) return cli_write_stream(data, n);
    cli_out o;
    int rc = cli_out_open(&o, path);
    if (rc) return rc;
    if (n && fwrite(data, 1, n, (FILE *)o.file) != n) {
        int saved = errno;
        cli_out_abort(&o);
        cli_error("cannot write '%s': %s", path, strerror(saved ? saved : EIO));
        return CLI_RUNTIME;
    }
    return cli_out_commit(&o);
}
