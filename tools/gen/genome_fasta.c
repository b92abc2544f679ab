/* FASTA records of a genome-like text and reads sampled from them (gen.h):
 * the references and reads of the bwa tests and of tools/bench/bwa_bench.sh. */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rnd(uint64_t *s) { return gen_rand(s); }

/* A header: chrN, with GEN_FASTA_MIXED sometimes a long description. */
static int header(FILE *f, size_t i, int flags, uint64_t *s, const char *eol)
{
    if (!(flags & GEN_FASTA_MIXED) || rnd(s) % 3) return fprintf(f, ">chr%zu%s", i + 1, eol) < 0;
    if (fprintf(f, ">chr%zu%cassembled=synthetic length-class=%llu ", i + 1,
                rnd(s) & 1 ? ' ' : '\t', (unsigned long long)(rnd(s) % 7)) < 0)
        return 1;
    for (int k = (int)(rnd(s) % 400); k > 0; k--)
        if (fputc("abcdefghij_=;:,.-+0123456789 ()"[rnd(s) % 31], f) == EOF) return 1;
    return fputs(eol, f) == EOF;
}

static int lines(FILE *f, const uint8_t *seq, size_t len, size_t width, const char *eol)
{
    for (size_t at = 0; at < len; at += width) {
        size_t m = len - at < width ? len - at : width;
        if (fwrite(seq + at, 1, m, f) != m || fputs(eol, f) == EOF) return 1;
    }
    return 0;
}

int gen_genome_fasta(FILE *f, const uint8_t *seq, size_t n, size_t records, int flags,
                     uint64_t seed)
{
    uint64_t s = seed ^ 0x5bd1e995u;
    const char *eol = flags & GEN_FASTA_CRLF ? "\r\n" : "\n";
    size_t width = flags & GEN_FASTA_MIXED ? 50 + rnd(&s) % 31 : 60, at = 0;
    if (records == 0) records = 1;
    for (size_t i = 0; i < records; i++) {
        /* records of uneven lengths; with MIXED one in four empty */
        size_t left = n - at, len = i + 1 == records ? left : left / (records - i);
        if (i + 1 < records) len = len / 2 + rnd(&s) % (len + 1);
        if (len > left) len = left;
        if ((flags & GEN_FASTA_MIXED) && i + 1 < records && rnd(&s) % 4 == 0) len = 0;
        if (header(f, i, flags, &s, eol) || lines(f, seq + at, len, width, eol)) return 1;
        at += len;
    }
    return 0;
}

static uint8_t comp(uint8_t c)
{
    switch (c) {
    case 'A': return 'T';
    case 'C': return 'G';
    case 'G': return 'C';
    case 'T': return 'A';
    default: return 'N';
    }
}

/* One read of len bases from t + at (reverse-complemented if rc), with 1
 * base in 200 changed; 0 if it holds an N. */
static int one_read(const uint8_t *t, size_t at, size_t len, int rc, uint64_t *s, char *out)
{
    for (size_t i = 0; i < len; i++) {
        uint8_t c = (uint8_t)(t[rc ? at + len - 1 - i : at + i] & ~32u);
        if (c != 'A' && c != 'C' && c != 'G' && c != 'T') return 0;
        c = rc ? comp(c) : c;
        if (rnd(s) % 200 == 0) c = "ACGT"[rnd(s) % 4];
        out[i] = (char)c;
    }
    out[len] = 0;
    return 1;
}

int gen_reads(FILE *r1, FILE *r2, const uint8_t *seq, size_t n, size_t pairs, size_t len,
              uint64_t seed)
{
    uint64_t s = seed ^ 0x27d4eb2fu;
    char a[1024], b[1024], q[1024];
    if (len == 0 || len >= sizeof a || n < 4 * len) return 1;
    memset(q, 'I', len);
    q[len] = 0;
    for (size_t k = 0, tries = 0; k < pairs && tries < 100 * pairs + 1000; tries++) {
        size_t frag = len + 100 + rnd(&s) % 200 + rnd(&s) % 100;
        if (frag > n) frag = n;
        size_t at = rnd(&s) % (n - frag + 1);
        int flip = (int)(rnd(&s) & 1);
        if (!one_read(seq, flip ? at + frag - len : at, len, flip, &s, a) ||
            !one_read(seq, flip ? at : at + frag - len, len, !flip, &s, b))
            continue;
        if (fprintf(r1, "@r%zu/1\n%s\n+\n%s\n", k, a, q) < 0) return 1;
        if (r2 && fprintf(r2, "@r%zu/2\n%s\n+\n%s\n", k, b, q) < 0) return 1;
        k++;
    }
    return 0;
}
