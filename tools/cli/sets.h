/* Sets of strings for the CLI (sets.c): the records of a FASTA file, the
 * lines of a file, or several files one string each, all held as a
 * fasta_set (residues back to back, lengths, names); the sequence table
 * that names them beside an output; the line splitting that pattern files
 * and lines files share. */
#ifndef CLSA_CLI_SETS_H
#define CLSA_CLI_SETS_H

#include "cli.h"
#include "fasta.h"

/* Splits data[0..size) into lines: '\n' ends a line (every other byte is
 * part of it), a final '\n' starts no further line, a last line without one
 * still counts.  *offsets gets np + 1 entries: line p is
 * data[offsets[p] .. offsets[p+1] - 1) (malloc'd). */
int cli_split_lines(const uint8_t *data, size_t size, uint64_t **offsets, size_t *np);

/* The records of the (multi-)FASTA file path with a's --keep-case and
 * --revcomp; a malformed file is a usage error naming FILE:LINE. */
int cli_read_records(const cli_args *a, const char *path, fasta_set *set);

/* The strings a command names: with --fasta the records of a->pos[first],
 * with --lines the lines of it (named by their index from 0), else each
 * of a->pos[first..npos) whole, named by its path. */
int cli_read_strings(const cli_args *a, int first, fasta_set *set);

/* The sequence table (a header line, then per string its index, name,
 * offset of its first symbol in the virtual text s_0 $_0 s_1 $_1 ... and
 * length, tab-separated), written atomically. */
int cli_write_seqs(const char *path, const fasta_set *s);

/* Reads a sequence table back: the names and lengths of its rows into
 * set (no residues).  A table that does not parse, or whose rows are not
 * k strings of total symbols, is an error naming path. */
int cli_read_seqs(const char *path, int64_t k, int64_t total, fasta_set *set);

/* ---- fm_set.c: the FM-index of a set in index / count / locate ---- */

/* An index file opened for count / locate: one text (fm) or a set (set,
 * with the names of its strings when a sequence table is found). */
typedef struct cli_fm {
    clsa_fm *fm;
    clsa_fm_set *set;
    fasta_set names; /* k == 0: no table; strings are named by index */
} cli_fm;

/* clsa index --set: the FM-index of the strings of INPUT (--fasta or
 * --lines) into INDEX and the sequence table into --seqs or INDEX.seqs;
 * both or neither are written. */
int cli_index_set(const cli_args *a, const char *usage);
/* Loads a->pos[0], of either kind (by its magic), and for a set the table
 * a->seqs or INDEX.seqs when there is one. */
int cli_fm_load(const cli_args *a, clsa_context *ctx, cli_fm *ix);
void cli_fm_free(cli_fm *ix);
/* locate over a set: per pattern one line of NAME:OFFSET (or INDEX:OFFSET)
 * pairs, sorted by string, then offset. */
clsa_status cli_locate_set(cli_fm *ix, const uint8_t *bytes, const uint64_t *off, size_t k);
#endif
