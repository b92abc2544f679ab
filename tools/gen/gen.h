/* Deterministic input generators shared by the tests and the benchmark
 * driver: the same (kind, n, seed) gives the same bytes everywhere. */
#ifndef CLSA_GEN_H
#define CLSA_GEN_H

#include <stddef.h>
#include <stdint.h>

typedef enum gen_kind {
    GEN_RANDOM,      /* uniform over an alphabet of `sigma` symbols (param) */
    GEN_ALL_EQUAL,   /* one repeated byte */
    GEN_PERIODIC,    /* (abc...)* with period `param` */
    GEN_FIBONACCI,   /* Fibonacci word over {a, b} */
    GEN_THUE_MORSE,  /* Thue-Morse word over {a, b} */
    GEN_MUTATED,     /* a random block of `param` bytes repeated, 0.1% of bytes mutated */
    GEN_KIND_COUNT
} gen_kind;

/* Fills buf[0..n).  For GEN_RANDOM, param is the alphabet size (1..256);
 * symbols are spread over 0..255 so that 0x00 and 0xFF both occur when
 * param >= 2. */
void gen_fill(uint8_t *buf, size_t n, gen_kind kind, unsigned param, uint64_t seed);
/* Parses "random:4", "equal", "periodic:3", "fibonacci", "thue-morse",
 * "mutated:65536"; returns 0 on success. */
int gen_parse(const char *spec, gen_kind *kind, unsigned *param);
const char *gen_name(gen_kind kind);

/* English-like text: words of a synthetic vocabulary of `vocab` words
 * (0: 30000) drawn with Zipf frequencies (frequent words short), letters
 * with English frequencies, spaces, some punctuation and capitals, lines
 * of about 72 characters.  Stands in for natural-language text of any size
 * (suffix-sorting statistics: many short repeats, few long ones). */
void gen_words(uint8_t *buf, size_t n, unsigned vocab, uint64_t seed);
#endif
