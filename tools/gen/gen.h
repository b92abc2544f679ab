/* Deterministic input generators shared by the tests and the benchmark
 * driver: the same (kind, n, seed) gives the same bytes everywhere. */
#ifndef CLSA_GEN_H
#define CLSA_GEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum gen_kind {
    GEN_RANDOM,      /* uniform over an alphabet of `sigma` symbols (param) */
    GEN_ALL_EQUAL,   /* one repeated byte */
    GEN_PERIODIC,    /* (abc...)* with period `param` */
    GEN_FIBONACCI,   /* Fibonacci word over {a, b} */
    GEN_THUE_MORSE,  /* Thue-Morse word over {a, b} */
    GEN_MUTATED,     /* a random block of `param` bytes repeated, 0.1% of bytes mutated */
    GEN_RUNS,        /* runs of 1..2 param - 1 symbols (mean param) over 4 letters,
                        no two neighbouring runs of one letter */
    GEN_KIND_COUNT
} gen_kind;

/* Fills buf[0..n).  For GEN_RANDOM, param is the alphabet size (1..256);
 * symbols are spread over 0..255 so that 0x00 and 0xFF both occur when
 * param >= 2. */
void gen_fill(uint8_t *buf, size_t n, gen_kind kind, unsigned param, uint64_t seed);
/* Parses "random:4", "equal", "periodic:3", "fibonacci", "thue-morse",
 * "mutated:65536", "runs:8"; returns 0 on success. */
int gen_parse(const char *spec, gen_kind *kind, unsigned *param);
const char *gen_name(gen_kind kind);

/* English-like text: words of a synthetic vocabulary of `vocab` words
 * (0: 30000) drawn with Zipf frequencies (frequent words short), letters
 * with English frequencies, spaces, some punctuation and capitals, lines
 * of about 72 characters.  Stands in for natural-language text of any size
 * (suffix-sorting statistics: many short repeats, few long ones). */
void gen_words(uint8_t *buf, size_t n, unsigned vocab, uint64_t seed);

/* The generators' pseudo-random numbers (splitmix64): the next of state *s. */
uint64_t gen_rand(uint64_t *s);

/* Genome-like nucleotide text (genome.c): background at 41% GC, about 45%
 * interspersed repeats of 48 families diverged 2-20% (half of the copies
 * reverse-complemented), microsatellites, segmental duplications, N gaps.
 * Flags: GEN_GENOME_SOFTMASK writes the repeats in lower case,
 * GEN_GENOME_IUPAC puts other IUPAC codes at about 1 base in 5000. */
enum { GEN_GENOME_SOFTMASK = 1, GEN_GENOME_IUPAC = 2 };
void gen_genome(uint8_t *buf, size_t n, int flags, uint64_t seed);

/* genome_fasta.c: seq[0, n) as FASTA records chr1, chr2, ... of uneven
 * lengths, 60 bases a line; GEN_FASTA_MIXED: some empty records, long
 * descriptions (after a space or a tab), other line widths; GEN_FASTA_CRLF:
 * "\r\n" line breaks.  0, or 1 on a write error. */
enum { GEN_FASTA_MIXED = 1, GEN_FASTA_CRLF = 2 };
int gen_genome_fasta(FILE *f, const uint8_t *seq, size_t n, size_t records, int flags,
                     uint64_t seed);
/* pairs read pairs of len bases (FASTQ, quality 'I') from seq[0, n):
 * fragments of len + 100..400 bases, either strand, 1 base in 200 changed,
 * none over a base other than A, C, G, T (either case); r2 NULL: single
 * reads.  0, or 1 on a write error or a text too short. */
int gen_reads(FILE *r1, FILE *r2, const uint8_t *seq, size_t n, size_t pairs, size_t len,
              uint64_t seed);
#endif
