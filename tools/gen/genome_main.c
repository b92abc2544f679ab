/* clsa_gen_genome: genome-like FASTA references and reads (gen.h).
 *   clsa_gen_genome [--seed S] [--records K] [--softmask] [--iupac] [--mixed] [--crlf]
 *                   [--raw [--revcomp]] [--reads PAIRS --read-length L --reads-prefix P]
 *                   SIZE OUT.fa
 * SIZE in bases, with an optional K, M or G (powers of 1000).  With
 * --reads, P_1.fq and P_2.fq get PAIRS read pairs sampled from the text.
 * --raw writes the bases alone (no FASTA: the input of clsa bwt / index);
 * --revcomp then appends their reverse complement (2 SIZE bytes, the text
 * bwa indexes). */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct opts {
    uint64_t seed, size, pairs, read_len;
    size_t records;
    int flags, fasta_flags, raw, revcomp;
    const char *out, *reads_prefix;
} opts;

static uint64_t parse_size(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    double unit = *end == 'K' || *end == 'k' ? 1e3 : *end == 'M' || *end == 'm' ? 1e6
                : *end == 'G' || *end == 'g' ? 1e9 : 1;
    return v > 0 ? (uint64_t)(v * unit) : 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: clsa_gen_genome [--seed S] [--records K] [--softmask] [--iupac] "
                    "[--mixed] [--crlf] [--raw [--revcomp]] "
                    "[--reads PAIRS --read-length L --reads-prefix P] SIZE OUT.fa\n");
    return 2;
}

static int parse(int argc, char **argv, opts *o)
{
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--softmask")) o->flags |= GEN_GENOME_SOFTMASK;
        else if (!strcmp(a, "--iupac")) o->flags |= GEN_GENOME_IUPAC;
        else if (!strcmp(a, "--mixed")) o->fasta_flags |= GEN_FASTA_MIXED;
        else if (!strcmp(a, "--crlf")) o->fasta_flags |= GEN_FASTA_CRLF;
        else if (!strcmp(a, "--raw")) o->raw = 1;
        else if (!strcmp(a, "--revcomp")) o->revcomp = 1;
        else if (!strcmp(a, "--seed") && v) o->seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(a, "--records") && v) o->records = (size_t)strtoull(argv[++i], NULL, 10);
        else if (!strcmp(a, "--reads") && v) o->pairs = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(a, "--read-length") && v) o->read_len = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(a, "--reads-prefix") && v) o->reads_prefix = argv[++i];
        else if (a[0] == '-' && a[1]) return usage();
        else if (pos == 0) o->size = parse_size(a), pos++;
        else if (pos == 1) o->out = a, pos++;
        else return usage();
    }
    return pos == 2 && o->size && (!o->pairs || o->reads_prefix) && (o->raw || !o->revcomp)
               ? 0 : usage();
}

/* The complement of every byte: nucleotide and IUPAC codes of either
 * case, anything else itself. */
static void complements(uint8_t map[256])
{
    static const char from[] = "ACGTNacgtnRYSWKMBDHVryswkmbdhv";
    static const char to[] = "TGCANtgcanYRSWMKVHDByrswmkvhdb";
    for (int c = 0; c < 256; c++) map[c] = (uint8_t)c;
    for (size_t i = 0; from[i]; i++) map[(uint8_t)from[i]] = (uint8_t)to[i];
}

/* seq[0, n) reverse-complemented, in blocks. */
static int write_revcomp(FILE *f, const uint8_t *seq, size_t n)
{
    uint8_t buf[1 << 16], map[256];
    complements(map);
    for (size_t done = 0; done < n;) {
        size_t k = n - done < sizeof buf ? n - done : sizeof buf;
        for (size_t j = 0; j < k; j++) buf[j] = map[seq[n - 1 - done - j]];
        if (fwrite(buf, 1, k, f) != k) return 1;
        done += k;
    }
    return 0;
}

/* The bases alone, then their reverse complement with --revcomp. */
static int write_raw(FILE *f, const opts *o, const uint8_t *seq)
{
    if (fwrite(seq, 1, o->size, f) != o->size) return 1;
    return o->revcomp ? write_revcomp(f, seq, o->size) : 0;
}

static int write_reads(const opts *o, const uint8_t *seq)
{
    char p1[4096], p2[4096];
    snprintf(p1, sizeof p1, "%s_1.fq", o->reads_prefix);
    snprintf(p2, sizeof p2, "%s_2.fq", o->reads_prefix);
    FILE *a = fopen(p1, "w"), *b = fopen(p2, "w");
    int bad = !a || !b || gen_reads(a, b, seq, o->size, o->pairs, o->read_len, o->seed);
    if (a && fclose(a)) bad = 1;
    if (b && fclose(b)) bad = 1;
    if (bad) fprintf(stderr, "clsa_gen_genome: cannot write the reads '%s'\n", p1);
    return bad;
}

int main(int argc, char **argv)
{
    opts o = {.seed = 1, .records = 24, .read_len = 100};
    if (parse(argc, argv, &o)) return 2;
    uint8_t *seq = malloc(o.size);
    if (!seq) {
        fprintf(stderr, "clsa_gen_genome: out of memory for %llu bases\n", (unsigned long long)o.size);
        return 1;
    }
    gen_genome(seq, o.size, o.flags, o.seed);
    FILE *f = fopen(o.out, "w");
    int bad = !f || (o.raw ? write_raw(f, &o, seq)
                           : gen_genome_fasta(f, seq, o.size, o.records, o.fasta_flags, o.seed));
    if (f && fclose(f)) bad = 1;
    if (bad) fprintf(stderr, "clsa_gen_genome: cannot write '%s'\n", o.out);
    if (!bad && o.pairs) bad = write_reads(&o, seq);
    free(seq);
    return bad;
}
