/* FASTA / multi-FASTA input of the CLI: every record becomes one string of
 * a generalized suffix array.  The input policy (what is a header, which
 * bytes a sequence line may hold, case, --revcomp) is documented in
 * docs/clsa.1, section FASTA INPUT, and in the README.
 *
 * The parser is fed the input in pieces of any size (a line may span
 * pieces), so files, standard input and gzip streams share it, and it
 * never prints: a malformed input leaves a line number and a reason. */
#ifndef CLSA_CLI_FASTA_H
#define CLSA_CLI_FASTA_H

#include <stddef.h>
#include <stdint.h>

/* Flags for fasta_init / fasta_read_path. */
enum {
    FASTA_KEEP_CASE = 1, /* residues as written (default: upper-cased) */
    FASTA_REVCOMP = 2    /* append each record's reverse complement, named NAME/rc */
};

/* Results.  FASTA_MALFORMED: the input breaks the policy (why, line);
 * FASTA_IO: it cannot be read (why); FASTA_NOMEM; FASTA_NO_ZLIB: gzip
 * input and this build has no zlib. */
enum { FASTA_OK = 0, FASTA_MALFORMED, FASTA_IO, FASTA_NOMEM, FASTA_NO_ZLIB };

/* The records: residues back to back in seq (n in all, no separators),
 * record i has len[i] residues and the name names + name_at[i] (NUL-ended).
 * With FASTA_REVCOMP, records k/2.. are the reverse complements of 0..k/2. */
typedef struct fasta_set {
    uint8_t *seq;
    int64_t n, seq_cap;
    int64_t k, rec_cap;
    int64_t *len;
    int64_t *name_at;
    char *names;
    int64_t names_n, names_cap;
} fasta_set;

typedef struct fasta_parser {
    fasta_set set;
    unsigned flags;
    int state;
    int64_t line;         /* the line being read, from 1 */
    int64_t bytes;        /* fed so far */
    uint8_t map[256];     /* residue as stored (upper-cased unless keep-case) */
    uint8_t cls[256];     /* what each byte is in a sequence line */
    char why[200];        /* FASTA_MALFORMED: the reason (line: p->line) */
} fasta_parser;

void fasta_init(fasta_parser *p, unsigned flags);
/* Room for this many more residues at once (a file's size): saves the
 * regrowth of seq.  FASTA_OK or FASTA_NOMEM. */
int fasta_reserve(fasta_parser *p, int64_t residues);
/* The next n bytes of input.  FASTA_OK, FASTA_MALFORMED or FASTA_NOMEM;
 * after an error the parser takes nothing more. */
int fasta_feed(fasta_parser *p, const uint8_t *buf, size_t n);
/* End of input: checks the last line and that there was a record, then
 * appends the reverse complements (FASTA_REVCOMP). */
int fasta_finish(fasta_parser *p);
/* Hands the records over (the parser keeps nothing). */
void fasta_take(fasta_parser *p, fasta_set *out);
void fasta_set_free(fasta_set *s);
static inline const char *fasta_name(const fasta_set *s, int64_t i) { return s->names + s->name_at[i]; }

/* Reads path whole ("-": standard input), gzip or plain, detected by the
 * first bytes.  On an error why gets the message: for FASTA_MALFORMED the
 * reason alone, *line the line it names (the caller prefixes FILE:LINE);
 * for FASTA_IO and FASTA_NO_ZLIB a whole message. */
int fasta_read_path(const char *path, unsigned flags, fasta_set *out, char *why, size_t cap,
                    int64_t *line);
/* The input as a stream of bytes, gzip decompressed, for readers with a
 * policy of their own (bwa.c): open ("-": standard input; why gets a whole
 * message on failure), read (> 0 bytes, 0 at the end, -1 with why), close. */
typedef struct fasta_stream fasta_stream;
int fasta_stream_open(const char *path, fasta_stream **out, char *why, size_t cap);
long long fasta_stream_read(fasta_stream *s, void *buf, size_t cap, char *why, size_t why_cap);
void fasta_stream_close(fasta_stream *s);
/* 1 when this build reads gzip input (zlib found at build time). */
int fasta_has_zlib(void);
#endif
