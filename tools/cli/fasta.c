/* FASTA / multi-FASTA reader (fasta.h; policy in docs/clsa.1, FASTA INPUT).
 * A byte-at-a-time state machine over pieces of input, with one tight loop
 * for the common case (runs of residues), so a line may span pieces and a
 * 3 GB genome never needs a line buffer. */
#include "fasta.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef CLSA_HAVE_ZLIB
#include <zlib.h>
#endif

/* Where the parser is within a line. */
enum { S_BOL, S_NAME, S_DESC, S_SEQ, S_CR, S_DEAD };

/* What a byte is in a sequence line. */
enum { C_RES, C_WS, C_LF, C_CR, C_GT, C_CTRL, C_NORC };

/* The complement of each nucleotide and IUPAC code (case kept; the gap
 * symbols '-' and '.' stand for themselves); 0: none. */
static uint8_t complement_of(uint8_t c)
{
    static const char from[] = "ACGTURYSWKMBDHVN-.";
    static const char to[] = "TGCAAYRSWMKVHDBN-.";
    int lower = c >= 'a' && c <= 'z';
    const char *at = c ? strchr(from, lower ? c - 32 : c) : NULL;
    if (!at) return 0;
    uint8_t r = (uint8_t)to[at - from];
    return lower && r >= 'A' && r <= 'Z' ? (uint8_t)(r + 32) : r;
}

static int is_ws(uint8_t c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }
static int is_ctrl(uint8_t c) { return (c < 0x20 && !is_ws(c) && c != '\n' && c != '\r') || c == 0x7f; }

void fasta_init(fasta_parser *p, unsigned flags)
{
    memset(p, 0, sizeof *p);
    p->flags = flags;
    p->line = 1;
    p->state = S_BOL;
    for (int c = 0; c < 256; c++) {
        uint8_t b = (uint8_t)c;
        p->map[c] = !(flags & FASTA_KEEP_CASE) && b >= 'a' && b <= 'z' ? (uint8_t)(b - 32) : b;
        if (b == '\n') p->cls[c] = C_LF;
        else if (b == '\r') p->cls[c] = C_CR;
        else if (is_ws(b)) p->cls[c] = C_WS;
        else if (b == '>') p->cls[c] = C_GT;
        else if (b < 0x21 || b > 0x7e) p->cls[c] = C_CTRL;
        else if ((flags & FASTA_REVCOMP) && !complement_of(b)) p->cls[c] = C_NORC;
        else p->cls[c] = C_RES;
    }
}

static int fail(fasta_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(fasta_parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->why, sizeof p->why, fmt, ap);
    va_end(ap);
    p->state = S_DEAD;
    return FASTA_MALFORMED;
}

/* Grows *buf (elements of size el) to hold at least need. */
static int grow(void **buf, int64_t *cap, int64_t need, size_t el)
{
    if (need <= *cap) return FASTA_OK;
    int64_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(*buf, (size_t)c * el);
    if (!q) return FASTA_NOMEM;
    *buf = q;
    *cap = c;
    return FASTA_OK;
}

int fasta_reserve(fasta_parser *p, int64_t residues)
{
    fasta_set *s = &p->set;
    return grow((void **)&s->seq, &s->seq_cap, s->n + residues, 1);
}

static int name_bytes(fasta_set *s, const void *b, size_t n)
{
    if (grow((void **)&s->names, &s->names_cap, s->names_n + (int64_t)n, 1)) return FASTA_NOMEM;
    memcpy(s->names + s->names_n, b, n);
    s->names_n += (int64_t)n;
    return FASTA_OK;
}

static int new_record(fasta_set *s)
{
    if (s->k == s->rec_cap) {
        int64_t cap = s->rec_cap ? 2 * s->rec_cap : 64;
        int64_t *len = realloc(s->len, (size_t)cap * sizeof *len);
        if (!len) return FASTA_NOMEM;
        s->len = len;
        int64_t *at = realloc(s->name_at, (size_t)cap * sizeof *at);
        if (!at) return FASTA_NOMEM;
        s->name_at = at;
        s->rec_cap = cap;
    }
    s->len[s->k] = 0;
    s->name_at[s->k++] = s->names_n;
    return FASTA_OK;
}

/* The header's name ends (whitespace or end of line). */
static int end_name(fasta_parser *p)
{
    fasta_set *s = &p->set;
    if (s->names_n == s->name_at[s->k - 1])
        return fail(p, "header with no name (the name must follow '>' directly)");
    return name_bytes(s, "", 1);
}

static int bad_byte(fasta_parser *p, uint8_t c, const char *where)
{
    if (c >= 0x80)
        return fail(p, "byte 0x%02X (not ASCII) in %s; only printable ASCII and whitespace are allowed",
                    c, where);
    return fail(p, "byte 0x%02X (a control character) in %s; only printable ASCII and whitespace are allowed",
                c, where);
}

/* A run of a sequence line; returns the index of the first byte not taken. */
static size_t seq_run(fasta_parser *p, const uint8_t *b, size_t n, size_t i, int *rc)
{
    fasta_set *s = &p->set;
    uint8_t *out = s->seq + s->n;
    const uint8_t *cls = p->cls, *map = p->map;
    for (; i < n; i++) {
        uint8_t c = b[i], t = cls[c];
        if (t == C_RES) *out++ = map[c];
        else if (t != C_WS) break;
    }
    int64_t added = out - (s->seq + s->n);
    if (added && s->k == 0) {
        *rc = fail(p, "sequence data before the first header (a line starting with '>')");
        return n;
    }
    s->n += added;
    if (added) s->len[s->k - 1] += added;
    if (i == n) return n;
    uint8_t c = b[i];
    switch (cls[c]) {
    case C_LF: p->line++; p->state = S_BOL; break;
    case C_CR: p->state = S_CR; break;
    case C_GT:
        *rc = fail(p, "'>' inside a sequence line (a header starts at the beginning of its line)");
        break;
    case C_NORC:
        *rc = fail(p, "'%c' has no complement (--revcomp takes nucleotide and IUPAC codes)", c);
        break;
    default: *rc = bad_byte(p, c, "a sequence line"); break;
    }
    return i + 1;
}

/* One byte of a header (name or description). */
static int header_byte(fasta_parser *p, uint8_t c)
{
    int in_name = p->state == S_NAME;
    if (c == '\n' || c == '\r' || is_ws(c)) {
        if (in_name) {
            int rc = end_name(p);
            if (rc) return rc;
        }
        if (c == '\n') p->line++;
        p->state = c == '\n' ? S_BOL : c == '\r' ? S_CR : S_DESC;
        return FASTA_OK;
    }
    if (is_ctrl(c)) return fail(p, "byte 0x%02X (a control character) in a header", c);
    return in_name ? name_bytes(&p->set, &c, 1) : FASTA_OK;
}

int fasta_feed(fasta_parser *p, const uint8_t *b, size_t n)
{
    if (p->state == S_DEAD) return FASTA_MALFORMED;
    /* A piece adds at most n residues: no capacity check in the hot loop. */
    if (fasta_reserve(p, (int64_t)n)) return FASTA_NOMEM;
    int rc = FASTA_OK;
    size_t i = 0;
    while (i < n && rc == FASTA_OK) {
        uint8_t c = b[i];
        switch (p->state) {
        case S_BOL:
            if (c == '>') {
                rc = new_record(&p->set);
                p->state = S_NAME;
                i++;
            } else if (c == '\n') {
                p->line++;
                i++;
            } else {
                p->state = S_SEQ;
            }
            break;
        case S_SEQ: i = seq_run(p, b, n, i, &rc); break;
        case S_NAME:
        case S_DESC:
            rc = header_byte(p, c);
            i++;
            break;
        case S_CR:
            if (c != '\n')
                return fail(p, "carriage return not followed by a line feed (line breaks are \\n or \\r\\n)");
            p->line++;
            p->state = S_BOL;
            i++;
            break;
        default: return FASTA_MALFORMED;
        }
    }
    p->bytes += (int64_t)i;
    return rc;
}

/* Appends record i's reverse complement as record k, named NAME/rc. */
static int add_revcomp(fasta_set *s, int64_t i, int64_t from)
{
    const char *name = s->names + s->name_at[i];
    size_t len = strlen(name);
    if (new_record(s)) return FASTA_NOMEM;
    /* name_bytes may move names: copy through a fixed offset. */
    int64_t at = s->name_at[i];
    if (grow((void **)&s->names, &s->names_cap, s->names_n + (int64_t)len + 4, 1)) return FASTA_NOMEM;
    memcpy(s->names + s->names_n, s->names + at, len);
    memcpy(s->names + s->names_n + len, "/rc", 4);
    s->names_n += (int64_t)len + 4;
    uint8_t *src = s->seq + from, *dst = s->seq + s->n;
    int64_t m = s->len[i];
    for (int64_t j = 0; j < m; j++) dst[j] = complement_of(src[m - 1 - j]);
    s->n += m;
    s->len[s->k - 1] = m;
    return FASTA_OK;
}

int fasta_finish(fasta_parser *p)
{
    int rc = FASTA_OK;
    if (p->state == S_DEAD) return FASTA_MALFORMED;
    if (p->state == S_NAME) rc = end_name(p);
    else if (p->state == S_CR) rc = fail(p, "carriage return at the end of the input without a line feed");
    if (rc) return rc;
    fasta_set *s = &p->set;
    if (s->k == 0) {
        if (p->line > 1 && p->state == S_BOL) p->line--; /* the last line, not the one after it */
        return fail(p, p->bytes ? "no FASTA record (no line starts with '>')"
                                : "empty input (no FASTA record)");
    }
    if (p->flags & FASTA_REVCOMP) {
        int64_t k = s->k, from = 0;
        if (fasta_reserve(p, s->n)) return FASTA_NOMEM;
        for (int64_t i = 0; i < k; from += s->len[i++])
            if (add_revcomp(s, i, from)) return FASTA_NOMEM;
    }
    p->state = S_DEAD; /* complete: nothing more may be fed */
    return FASTA_OK;
}

void fasta_take(fasta_parser *p, fasta_set *out)
{
    *out = p->set;
    memset(&p->set, 0, sizeof p->set);
}

void fasta_set_free(fasta_set *s)
{
    free(s->seq);
    free(s->len);
    free(s->name_at);
    free(s->names);
    memset(s, 0, sizeof *s);
}

/* ---- reading a file or standard input -------------------------------------- */

#define CHUNK (1 << 20)

int fasta_has_zlib(void)
{
#ifdef CLSA_HAVE_ZLIB
    return 1;
#else
    return 0;
#endif
}

/* Compressed formats that are not read, told apart from text at once
 * (they would otherwise read as "sequence data before the first header"). */
static const char *other_compression(const uint8_t *b, size_t n)
{
    if (n >= 3 && !memcmp(b, "BZh", 3)) return "bzip2";
    if (n >= 6 && !memcmp(b, "\xfd" "7zXZ\0", 6)) return "xz";
    if (n >= 4 && !memcmp(b, "\x28\xb5\x2f\xfd", 4)) return "zstd";
    return NULL;
}

#ifndef CLSA_HAVE_ZLIB
/* Reads up to cap bytes (fewer only at the end): -1 on error. */
static ssize_t read_full(int fd, uint8_t *buf, size_t cap)
{
    size_t got = 0;
    while (got < cap) {
        ssize_t r = read(fd, buf + got, cap - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}
#endif

/* The input as a stream of decompressed pieces. */
typedef struct source {
    int fd;
#ifdef CLSA_HAVE_ZLIB
    gzFile gz;
#endif
} source;

/* Next piece: > 0 bytes, 0 at the end, -1 on an error (why filled). */
static ssize_t source_read(source *s, uint8_t *buf, size_t cap, char *why, size_t why_cap)
{
#ifdef CLSA_HAVE_ZLIB
    int r = gzread(s->gz, buf, (unsigned)cap);
    int err = Z_OK;
    const char *msg = gzerror(s->gz, &err);
    if (r < 0 || (r == 0 && err != Z_OK)) {
        if (err == Z_ERRNO) snprintf(why, why_cap, "%s", strerror(errno ? errno : EIO));
        else {
            /* gzerror names the stream "<fd:N>: " first: not a name to show. */
            const char *colon = msg && msg[0] == '<' ? strstr(msg, ">: ") : NULL;
            snprintf(why, why_cap, "gzip data: %s", colon ? colon + 3 : msg ? msg : "error");
        }
        return -1;
    }
    return r;
#else
    ssize_t r = read_full(s->fd, buf, cap);
    if (r < 0) snprintf(why, why_cap, "%s", strerror(errno));
    return r;
#endif
}

static int source_open(source *s, int fd, char *why, size_t cap)
{
    s->fd = fd;
#ifdef CLSA_HAVE_ZLIB
    /* gzip is recognised by its magic bytes; anything else passes through. */
    int own = dup(fd);
    s->gz = own >= 0 ? gzdopen(own, "rb") : NULL;
    if (!s->gz) {
        if (own >= 0) close(own);
        snprintf(why, cap, "%s", strerror(errno ? errno : ENOMEM));
        return FASTA_IO;
    }
    gzbuffer(s->gz, CHUNK);
#else
    (void)why;
    (void)cap;
#endif
    return FASTA_OK;
}

static void source_close(source *s)
{
#ifdef CLSA_HAVE_ZLIB
    if (s->gz) gzclose(s->gz);
    s->gz = NULL;
#else
    (void)s;
#endif
}

/* The first piece: formats this build cannot read are named here. */
static int first_piece(fasta_parser *p, const uint8_t *b, size_t n, char *why, size_t cap)
{
    if (!fasta_has_zlib() && n >= 2 && b[0] == 0x1f && b[1] == 0x8b) {
        snprintf(why, cap, "is gzip-compressed, but this clsa was built without zlib "
                           "(install zlib1g-dev and rebuild, or decompress it first)");
        return FASTA_NO_ZLIB;
    }
    const char *other = other_compression(b, n);
    if (other) {
        fail(p, "%s-compressed input is not read (only gzip); decompress it first", other);
        return FASTA_MALFORMED;
    }
    return FASTA_OK;
}

static int read_fd(fasta_parser *p, int fd, int64_t size_hint, char *why, size_t cap)
{
    source src;
    int rc = source_open(&src, fd, why, cap);
    if (rc) return rc;
    uint8_t *buf = malloc(CHUNK);
    if (!buf) rc = FASTA_NOMEM;
    for (int first = 1; rc == FASTA_OK; first = 0) {
        ssize_t got = source_read(&src, buf, CHUNK, why, cap);
        if (got < 0) {
            rc = strncmp(why, "gzip", 4) ? FASTA_IO : FASTA_MALFORMED;
            if (rc == FASTA_MALFORMED) snprintf(p->why, sizeof p->why, "%s", why);
            break;
        }
        if (first && (rc = first_piece(p, buf, (size_t)got, why, cap))) break;
        /* A plain file holds at most its size in residues: one allocation. */
        if (first && size_hint > 0 && fasta_reserve(p, size_hint)) rc = FASTA_NOMEM;
        if (got == 0 || rc) break;
        rc = fasta_feed(p, buf, (size_t)got);
    }
    free(buf);
    source_close(&src);
    return rc == FASTA_OK ? fasta_finish(p) : rc;
}

int fasta_read_path(const char *path, unsigned flags, fasta_set *out, char *why, size_t cap,
                    int64_t *line)
{
    memset(out, 0, sizeof *out);
    *line = 0;
    why[0] = 0;
    int stream = !strcmp(path, "-");
    int fd = stream ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(why, cap, "cannot open '%s': %s", path, strerror(errno));
        return FASTA_IO;
    }
    struct stat st;
    int64_t hint = 0;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(why, cap, "cannot read '%s': %s", path, strerror(EISDIR));
        if (!stream) close(fd);
        return FASTA_IO;
    }
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) hint = (int64_t)st.st_size;
    fasta_parser *p = malloc(sizeof *p);
    if (!p) {
        if (!stream) close(fd);
        return FASTA_NOMEM;
    }
    fasta_init(p, flags);
    char io[160] = "";
    int rc = read_fd(p, fd, hint, io, sizeof io);
    if (!stream) close(fd);
    if (rc == FASTA_MALFORMED) {
        snprintf(why, cap, "%s", p->why);
        *line = p->line;
    } else if (rc == FASTA_IO) {
        snprintf(why, cap, "cannot read '%s': %s", path, io);
    } else if (rc == FASTA_NO_ZLIB) {
        snprintf(why, cap, "'%s' %s", stream ? "<stdin>" : path, io);
    }
    if (rc == FASTA_OK) fasta_take(p, out);
    fasta_set_free(&p->set);
    free(p);
    return rc;
}

/* ---- the bytes alone (fasta_stream) ---------------------------------------------- */

struct fasta_stream {
    source src;
    int fd, own, first;
    const char *path;
};

int fasta_stream_open(const char *path, fasta_stream **out, char *why, size_t cap)
{
    *out = NULL;
    fasta_stream *s = calloc(1, sizeof *s);
    if (!s) return FASTA_NOMEM;
    s->own = strcmp(path, "-") != 0;
    s->fd = s->own ? open(path, O_RDONLY) : STDIN_FILENO;
    s->path = path;
    s->first = 1;
    struct stat st;
    int err = s->fd < 0 ? errno : fstat(s->fd, &st) == 0 && S_ISDIR(st.st_mode) ? EISDIR : 0;
    char io[160] = "";
    if (err || source_open(&s->src, s->fd, io, sizeof io)) {
        snprintf(why, cap, "cannot %s '%s': %s", s->fd < 0 ? "open" : "read", path,
                 err ? strerror(err) : io);
        if (s->own && s->fd >= 0) close(s->fd);
        free(s);
        return FASTA_IO;
    }
    *out = s;
    return FASTA_OK;
}

long long fasta_stream_read(fasta_stream *s, void *buf, size_t cap, char *why, size_t why_cap)
{
    char io[160] = "";
    ssize_t got = source_read(&s->src, buf, cap, io, sizeof io);
    const char *name = s->own ? s->path : "<stdin>";
    if (got < 0) {
        snprintf(why, why_cap, "cannot read '%s': %s", name, io);
        return -1;
    }
    const uint8_t *b = buf;
    const char *other = s->first ? other_compression(b, (size_t)got) : NULL;
    if (s->first && !fasta_has_zlib() && got >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        other = "gzip";
    s->first = 0;
    if (other) {
        snprintf(why, why_cap, "'%s' is %s-compressed; %s", name, other,
                 fasta_has_zlib() ? "only gzip is read: decompress it first"
                                  : "this clsa was built without zlib: decompress it first");
        return -1;
    }
    return got;
}

void fasta_stream_close(fasta_stream *s)
{
    if (!s) return;
    source_close(&s->src);
    if (s->own) close(s->fd);
    free(s);
}
