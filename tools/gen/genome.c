/* Genome-like nucleotide text (gen.h, gen_genome): what makes a reference
 * genome hard to index and to align against, at any size and fast.
 * - background: i.i.d. bases at 41% GC;
 * - interspersed repeats, about 45% of the text: copies of 48 family
 *   consensus sequences (a few of ~300 bases like Alu, a few of ~6 kb like
 *   L1, whose copies are mostly 5'-truncated, the rest 100..3000), each
 *   family diverged by 2-20% (substitutions, 1 in 5 of the changes a
 *   one-base indel), half of the copies reverse-complemented;
 * - microsatellites (units of 1-6 bases, 10-60 copies, 1% changes), ~3%;
 * - segmental duplications: 1-20 kb of the text made so far, copied with
 *   1-4% divergence, ~4%;
 * - N gaps of 100..30000 bases, ~1% of the text;
 * - with GEN_GENOME_SOFTMASK the repeats are lower case (soft-masked as in
 *   UCSC/Ensembl FASTA), with GEN_GENOME_IUPAC one base in 5000 is another
 *   IUPAC code (R, Y, S, W, K, M, B, D, H, V). */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

#define FAMILIES 48

typedef struct genome_state {
    uint64_t s;
    uint8_t *buf;
    size_t n, at;
    int flags;
    uint8_t *fam[FAMILIES];
    size_t fam_len[FAMILIES];
    unsigned fam_div[FAMILIES]; /* changes per 1000 bases */
} genome_state;

static uint64_t rnd(uint64_t *s) { return gen_rand(s); }

static size_t uniform(uint64_t *s, size_t lo, size_t hi) { return lo + rnd(s) % (hi - lo + 1); }

/* A base at 41% GC. */
static uint8_t base(uint64_t *s)
{
    unsigned r = (unsigned)(rnd(s) % 1000);
    return r < 295 ? 'A' : r < 590 ? 'T' : r < 795 ? 'C' : 'G';
}

static uint8_t complement(uint8_t c)
{
    switch (c | 32) {
    case 'a': return (uint8_t)('T' | (c & 32));
    case 'c': return (uint8_t)('G' | (c & 32));
    case 'g': return (uint8_t)('C' | (c & 32));
    case 't': return (uint8_t)('A' | (c & 32));
    default: return c;
    }
}

static void put(genome_state *g, uint8_t c, int masked)
{
    if (g->at < g->n) g->buf[g->at++] = masked && (g->flags & GEN_GENOME_SOFTMASK) ? (uint8_t)(c | 32) : c;
}

/* src[0, len) (reverse-complemented if rc) with div changes per 1000. */
static void copy_diverged(genome_state *g, const uint8_t *src, size_t len, int rc, unsigned div,
                          int masked)
{
    for (size_t i = 0; i < len && g->at < g->n; i++) {
        uint8_t c = rc ? complement(src[len - 1 - i]) : src[i];
        unsigned r = (unsigned)(rnd(&g->s) % 10000);
        if (r >= 10 * div) put(g, (uint8_t)(c & ~32u), masked);          /* kept */
        else if (r % 10 == 0) continue;                                   /* deletion */
        else if (r % 10 == 1) put(g, (uint8_t)(c & ~32u), masked), put(g, base(&g->s), masked); /* insertion */
        else put(g, base(&g->s), masked);                                 /* substitution */
    }
}

static void families_init(genome_state *g)
{
    for (int f = 0; f < FAMILIES; f++) {
        size_t len = f < 4 ? uniform(&g->s, 280, 320) : f < 8 ? uniform(&g->s, 5000, 7000)
                                                               : uniform(&g->s, 100, 3000);
        g->fam[f] = malloc(len);
        g->fam_len[f] = g->fam[f] ? len : 0;
        for (size_t i = 0; i < g->fam_len[f]; i++) g->fam[f][i] = base(&g->s);
        g->fam_div[f] = (unsigned)uniform(&g->s, 20, 200);
    }
}

static void repeat_copy(genome_state *g)
{
    int f = (int)(rnd(&g->s) % FAMILIES);
    size_t len = g->fam_len[f], from = 0;
    if (!len) return;
    if (len > 3000) from = uniform(&g->s, 0, len - 500); /* 5'-truncated, as most L1 copies */
    else if (rnd(&g->s) % 4 == 0) from = uniform(&g->s, 0, len / 2);
    copy_diverged(g, g->fam[f] + from, len - from, (int)(rnd(&g->s) & 1), g->fam_div[f], 1);
}

static void microsatellite(genome_state *g)
{
    uint8_t unit[6];
    size_t u = uniform(&g->s, 1, 6), copies = uniform(&g->s, 10, 60);
    for (size_t i = 0; i < u; i++) unit[i] = base(&g->s);
    for (size_t k = 0; k < copies; k++) copy_diverged(g, unit, u, 0, 10, 1);
}

static void segmental_dup(genome_state *g)
{
    size_t len = uniform(&g->s, 1000, 20000);
    if (g->at < 2 * len) return;
    size_t from = uniform(&g->s, 0, g->at - len);
    /* the source lies before at: copied out first, as the copy may reach it */
    uint8_t *tmp = malloc(len);
    if (!tmp) return;
    memcpy(tmp, g->buf + from, len);
    copy_diverged(g, tmp, len, (int)(rnd(&g->s) & 1), (unsigned)uniform(&g->s, 10, 40), 0);
    free(tmp);
}

static void background(genome_state *g)
{
    size_t len = uniform(&g->s, 50, 700);
    for (size_t i = 0; i < len; i++) put(g, base(&g->s), 0);
}

static void gap(genome_state *g)
{
    size_t len = uniform(&g->s, 100, 30000);
    for (size_t i = 0; i < len; i++) put(g, 'N', 0);
}

static void iupac(genome_state *g)
{
    static const char codes[] = "RYSWKMBDHV";
    if (!(g->flags & GEN_GENOME_IUPAC)) return;
    for (size_t i = 0; i < g->n; i += uniform(&g->s, 1, 10000))
        if (g->buf[i] != 'N') g->buf[i] = (uint8_t)codes[rnd(&g->s) % 10];
}

void gen_genome(uint8_t *buf, size_t n, int flags, uint64_t seed)
{
    genome_state g = {.s = seed * 0x2545f4914f6cdd1dull + 17, .buf = buf, .n = n, .flags = flags};
    families_init(&g);
    while (g.at < n) {
        unsigned r = (unsigned)(rnd(&g.s) % 10000);
        /* shares of the events from the bases each makes on average */
        if (r < 1760) repeat_copy(&g);          /* about 45% of the bases */
        else if (r < 3130) microsatellite(&g);  /* about 3% */
        else if (r < 3151) segmental_dup(&g);   /* about 4% */
        else if (r < 3155) gap(&g);             /* about 1% */
        else background(&g);
    }
    iupac(&g);
    for (int f = 0; f < FAMILIES; f++) free(g.fam[f]);
}
