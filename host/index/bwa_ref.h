/* The reference of a bwa 0.7.17 index (bwa_ref.c): FASTA records read the
 * way bwa's `index` reads them, into the 2-bit codes of the forward text
 * (ambiguous bases replaced by bwa's own pseudo-random bases), the record
 * table of .ann and the runs of ambiguous bases of .amb. */
#ifndef CLSA_BWA_REF_H
#define CLSA_BWA_REF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A run of one ambiguous byte (.amb line). */
typedef struct bwa_hole {
    int64_t offset;
    int64_t len;
    uint8_t amb;
} bwa_hole;

typedef struct bwa_ref {
    uint8_t *codes;          /* 0..3 per base: forward text, then (bwa_ref_finish) its reverse complement */
    int64_t l, codes_cap;    /* forward bases */
    uint8_t *pac;            /* bwa_ref_complete: the forward bases, 2 bits each */
    int64_t k, rec_cap;      /* records */
    int64_t *len, *name_at, *desc_at; /* desc_at < 0: no description ("(null)") */
    int64_t *n_ambs;
    char *names;             /* names and descriptions, NUL-ended */
    int64_t names_n, names_cap;
    bwa_hole *holes;
    int64_t nholes, holes_cap;
    uint64_t rng;            /* lrand48's state, seeded as bwa seeds it */
    int state;
    int last_amb;            /* the byte before, when it was ambiguous; else -1 */
    int64_t line, desc_len;
    uint8_t kind[256];       /* what each byte is in a sequence line */
    char why[200];           /* bwa_ref_feed / finish: the reason of a malformed input */
} bwa_ref;

enum { BWA_REF_OK = 0, BWA_REF_MALFORMED, BWA_REF_NOMEM };

void bwa_ref_init(bwa_ref *r);
void bwa_ref_free(bwa_ref *r);
/* The next n bytes of the FASTA input; after an error nothing more is taken. */
int bwa_ref_feed(bwa_ref *r, const uint8_t *b, size_t n);
/* End of input: checks it, makes room for the reverse complement
 * (codes[0, 2l)) and for pac. */
int bwa_ref_finish(bwa_ref *r);
/* The reverse complement, .pac bytes and counts f of forward bases
 * [lo, hi), lo a multiple of 4 (one piece per thread). */
void bwa_ref_complete(bwa_ref *r, int64_t lo, int64_t hi, uint64_t f[4]);
/* The files' contents (little-endian hosts): 0, or -1 on a write error. */
int bwa_ref_write_pac(const bwa_ref *r, FILE *f);
int bwa_ref_write_ann(const bwa_ref *r, FILE *f);
int bwa_ref_write_amb(const bwa_ref *r, FILE *f);
#endif
