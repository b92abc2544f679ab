/* Generated multi-FASTA inputs for the reader's tests (test_fasta.c,
 * test_cli_fasta.c): records drawn from a fixed seed, rendered with the
 * layouts real files have (wrapped lines of several widths, CRLF, blank
 * lines, descriptions, soft-masked lower case, empty records), and the
 * naive answers the reader and the CLI are compared with. */
#ifndef CLSA_FASTA_GEN_H
#define CLSA_FASTA_GEN_H

#include "testutil.h"

typedef struct fg_record {
    char name[48]; /* up to 40 bytes and "/rc" */
    uint8_t *seq; /* as written (mixed case) */
    size_t len;
} fg_record;

typedef struct fg_set {
    fg_record *r;
    int k;
} fg_set;

/* How a set is written out. */
typedef struct fg_layout {
    int width;       /* residues per line; 0: one line per record; -1: a different width per record */
    int crlf;        /* \r\n line breaks */
    int blank_lines; /* blank (or whitespace-only) lines between and before records */
    int final_eol;   /* a line break after the last line */
} fg_layout;

static const char fg_iupac[] = "NRYSWKMBDHV";

/* One residue: mostly ACGT, some N and IUPAC codes, lower case in runs. */
static inline uint8_t fg_residue(tu_rng *g, int lower)
{
    uint32_t x = tu_below(g, 100);
    uint8_t c = x < 92 ? (uint8_t)"ACGT"[x & 3] : (uint8_t)fg_iupac[tu_below(g, sizeof fg_iupac - 1)];
    return lower ? (uint8_t)(c + 32) : c;
}

/* k records; record lengths up to max_len, every fourth one empty.  Some
 * records repeat an earlier one's sequence (equal strings, long common
 * prefixes), as sets of reads do. */
static inline fg_set fg_make(uint64_t seed, int k, size_t max_len)
{
    tu_rng g = {seed};
    fg_set s = {tu_malloc(sizeof(fg_record) * (size_t)k), k};
    for (int i = 0; i < k; i++) {
        fg_record *r = &s.r[i];
        snprintf(r->name, sizeof r->name, "rec%d_%u", i, (unsigned)tu_below(&g, 100000));
        r->len = i % 4 == 3 ? 0 : 1 + tu_below(&g, (uint32_t)max_len);
        int copy = i > 1 && tu_below(&g, 4) == 0 && s.r[i - 2].len > 0;
        if (copy) r->len = s.r[i - 2].len;
        r->seq = tu_malloc(r->len + 1);
        if (copy) {
            memcpy(r->seq, s.r[i - 2].seq, r->len);
            continue;
        }
        int lower = 0;
        for (size_t j = 0; j < r->len; j++) {
            if (tu_below(&g, 50) == 0) lower = !lower;
            r->seq[j] = fg_residue(&g, lower);
        }
    }
    return s;
}

static inline void fg_free(fg_set *s)
{
    for (int i = 0; i < s->k; i++) free(s->r[i].seq);
    free(s->r);
    s->r = NULL;
}

/* A growing byte buffer. */
typedef struct fg_buf {
    uint8_t *p;
    size_t n, cap;
} fg_buf;

static inline void fg_put(fg_buf *b, const void *d, size_t n)
{
    if (n == 0) return;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}

static inline void fg_puts(fg_buf *b, const char *s) { fg_put(b, s, strlen(s)); }

/* The set as a FASTA file in the given layout. */
static inline fg_buf fg_render(const fg_set *s, fg_layout l, uint64_t seed)
{
    tu_rng g = {seed};
    fg_buf b = {0};
    const char *eol = l.crlf ? "\r\n" : "\n";
    for (int i = 0; i < s->k; i++) {
        const fg_record *r = &s->r[i];
        if (l.blank_lines && tu_below(&g, 2)) {
            fg_puts(&b, tu_below(&g, 2) ? " \t" : "");
            fg_puts(&b, eol);
        }
        fg_puts(&b, ">");
        fg_puts(&b, r->name);
        /* A description: words, a tab, a byte of UTF-8. */
        if (tu_below(&g, 3)) fg_puts(&b, tu_below(&g, 2) ? " some description\tx=1" : " caf\xc3\xa9 > 2");
        int width = l.width >= 0 ? l.width : (int)(1 + tu_below(&g, 80));
        fg_puts(&b, eol);
        for (size_t at = 0; at < r->len;) {
            size_t take = width == 0 || r->len - at < (size_t)width ? r->len - at : (size_t)width;
            fg_put(&b, r->seq + at, take);
            fg_puts(&b, eol);
            at += take;
        }
        if (l.blank_lines && tu_below(&g, 3) == 0) fg_puts(&b, eol);
    }
    if (!l.final_eol) b.n -= strlen(eol); /* the last line ends the file */
    return b;
}

/* What the reader should give: residues of record i upper-cased (unless
 * keep_case), and with revcomp the reverse complements after the records. */
static inline uint8_t fg_complement(uint8_t c)
{
    static const char from[] = "ACGTNRYSWKMBDHV";
    static const char to[] = "TGCANYRSWMKVHDB";
    int lower = c >= 'a';
    const char *at = strchr(from, lower ? c - 32 : c);
    assert_non_null(at);
    return (uint8_t)(to[at - from] + (lower ? 32 : 0));
}

static inline fg_set fg_expected(const fg_set *s, int keep_case, int revcomp)
{
    fg_set e = {tu_malloc(sizeof(fg_record) * (size_t)s->k * 2), s->k * (revcomp ? 2 : 1)};
    for (int i = 0; i < s->k; i++) {
        fg_record *f = &e.r[i];
        *f = s->r[i];
        f->seq = tu_malloc(f->len + 1);
        for (size_t j = 0; j < f->len; j++) {
            uint8_t c = s->r[i].seq[j];
            f->seq[j] = keep_case || c < 'a' ? c : (uint8_t)(c - 32);
        }
        if (!revcomp) continue;
        fg_record *rc = &e.r[s->k + i];
        size_t name_len = strlen(f->name); /* at most 40 */
        memcpy(rc->name, f->name, name_len);
        memcpy(rc->name + name_len, "/rc", 4);
        rc->len = f->len;
        rc->seq = tu_malloc(f->len + 1);
        for (size_t j = 0; j < f->len; j++) rc->seq[j] = fg_complement(f->seq[f->len - 1 - j]);
    }
    return e;
}

/* ---- the naive generalized suffix array ------------------------------------
 * The virtual text s_0 $_0 s_1 $_1 ... as integers ($_i = i, symbol c =
 * c + k: every separator below every symbol, separators by string), and its
 * suffixes sorted by comparison: every comparison ends at a separator. */
static const uint32_t *fg_virtual;
static uint32_t fg_k;

static inline int fg_cmp_suffix(const void *a, const void *b)
{
    int64_t i = *(const int64_t *)a, j = *(const int64_t *)b;
    for (; i != j; i++, j++) {
        if (fg_virtual[i] != fg_virtual[j]) return fg_virtual[i] < fg_virtual[j] ? -1 : 1;
        if (fg_virtual[i] < fg_k) break; /* the same separator: the same suffix */
    }
    return 0;
}

/* sa and doc (N entries each, N = residues + k) of the expected records. */
static inline int64_t fg_naive_gsa(const fg_set *e, int64_t **sa, int64_t **doc)
{
    int64_t n = 0;
    for (int i = 0; i < e->k; i++) n += (int64_t)e->r[i].len + 1;
    uint32_t *v = tu_malloc((size_t)n * sizeof *v);
    int64_t *d = tu_malloc((size_t)n * sizeof *d), at = 0;
    for (int i = 0; i < e->k; i++) {
        for (size_t j = 0; j < e->r[i].len; j++, at++) {
            v[at] = (uint32_t)e->r[i].seq[j] + (uint32_t)e->k;
            d[at] = i;
        }
        v[at] = (uint32_t)i;
        d[at++] = i;
    }
    int64_t *s = tu_malloc((size_t)n * sizeof *s);
    for (int64_t i = 0; i < n; i++) s[i] = i;
    fg_virtual = v;
    fg_k = (uint32_t)e->k;
    qsort(s, (size_t)n, sizeof *s, fg_cmp_suffix);
    int64_t *dd = tu_malloc((size_t)n * sizeof *dd);
    for (int64_t i = 0; i < n; i++) dd[i] = d[s[i]];
    free(v);
    free(d);
    *sa = s;
    *doc = dd;
    return n;
}
#endif
