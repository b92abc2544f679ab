/* FASTA read the way bwa 0.7.17's `index` reads it (its kseq reader and
 * bns_fasta2bntseq), with the inputs that bwa would misread refused:
 * - a header is '>' NAME, the name ending at the first whitespace byte;
 *   the description is the rest of the line, less one final '\r' when it
 *   holds more than that byte (bwa's rule, so ".ann" matches byte for byte);
 * - A, C, G, T in either case are bases; every other printable byte is an
 *   ambiguous base, stored in .amb as written (runs of the same byte) and
 *   replaced in .pac by lrand48() & 3 from srand48(11), one draw per byte
 *   in input order, as bwa does;
 * - refused (bwa would take them as bases or as FASTQ): whitespace or '>'
 *   inside a sequence line, a sequence line starting with '@' or '+', a
 *   "\r\n" blank line before a record's first base, control or non-ASCII
 *   bytes, '\r' not followed by '\n', data before the first header, a
 *   header without a name, no bases at all. */
#include "bwa_ref.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { S_BOL, S_NAME, S_NAME_CR, S_DESC, S_DESC_CR, S_SEQ, S_SEQ_CR, S_DEAD };
/* What a byte is inside a sequence line (0..3: a base). */
enum { K_AMB = 4, K_LF, K_CR, K_WS, K_GT, K_BAD };

static void kinds_init(uint8_t *kind)
{
    for (int c = 0; c < 256; c++)
        kind[c] = c < 0x20 || c >= 0x7f ? K_BAD : K_AMB;
    static const char bases[] = "ACGT";
    for (int i = 0; i < 4; i++) {
        kind[(uint8_t)bases[i]] = (uint8_t)i;
        kind[(uint8_t)bases[i] + 32] = (uint8_t)i;
    }
    kind['\n'] = K_LF;
    kind['\r'] = K_CR;
    kind[' '] = kind['\t'] = kind['\v'] = kind['\f'] = K_WS;
    kind['>'] = K_GT;
}

/* glibc's srand48 / lrand48 (48-bit linear congruential generator). */
static uint64_t rng_seed(uint32_t seed) { return ((uint64_t)seed << 16) | 0x330E; }
static int rng_base(uint64_t *x)
{
    *x = (*x * 0x5DEECE66DULL + 0xB) & ((1ULL << 48) - 1);
    return (int)(*x >> 17) & 3;
}

void bwa_ref_init(bwa_ref *r)
{
    memset(r, 0, sizeof *r);
    kinds_init(r->kind);
    r->rng = rng_seed(11);
    r->line = 1;
    r->last_amb = -1;
}

void bwa_ref_free(bwa_ref *r)
{
    free(r->codes);
    free(r->pac);
    free(r->len);
    free(r->name_at);
    free(r->desc_at);
    free(r->n_ambs);
    free(r->names);
    free(r->holes);
    memset(r, 0, sizeof *r);
}

static int fail(bwa_ref *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(bwa_ref *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
    r->state = S_DEAD;
    return BWA_REF_MALFORMED;
}

/* Grows *buf (elements of el bytes) to hold need. */
static int grow(void **buf, int64_t *cap, int64_t need, size_t el)
{
    if (need <= *cap) return 0;
    int64_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(*buf, (size_t)c * el);
    if (!q) return -1;
    *buf = q;
    *cap = c;
    return 0;
}

static int put_name(bwa_ref *r, uint8_t c)
{
    if (grow((void **)&r->names, &r->names_cap, r->names_n + 1, 1)) return BWA_REF_NOMEM;
    r->names[r->names_n++] = (char)c;
    return BWA_REF_OK;
}

static int new_record(bwa_ref *r)
{
    if (r->k == r->rec_cap) {
        int64_t **arrays[] = {&r->len, &r->name_at, &r->desc_at, &r->n_ambs};
        int64_t cap = r->rec_cap ? 2 * r->rec_cap : 64;
        for (int i = 0; i < 4; i++) {
            int64_t c = r->rec_cap;
            if (grow((void **)arrays[i], &c, cap, 8)) return BWA_REF_NOMEM;
        }
        r->rec_cap = cap;
    }
    if (r->k == INT32_MAX) return fail(r, "more than 2^31-1 records (bwa's limit)");
    r->len[r->k] = 0;
    r->n_ambs[r->k] = 0;
    r->desc_at[r->k] = -1;
    r->name_at[r->k++] = r->names_n;
    r->last_amb = -1;
    r->state = S_NAME;
    return BWA_REF_OK;
}

/* The name ends at whitespace byte c. */
static int end_name(bwa_ref *r, uint8_t c)
{
    if (r->names_n == r->name_at[r->k - 1])
        return fail(r, "header with no name (the name must follow '>' directly)");
    if (put_name(r, 0)) return BWA_REF_NOMEM;
    if (c == '\n') {
        r->line++;
        r->state = S_BOL;
    } else if (c == '\r') {
        r->state = S_NAME_CR;
    } else {
        r->desc_at[r->k - 1] = r->names_n;
        r->desc_len = 0;
        r->state = S_DESC;
    }
    return BWA_REF_OK;
}

/* The description's line ends: bwa drops one final '\r' of a longer one. */
static int end_desc(bwa_ref *r)
{
    if (r->desc_len > 1 && r->names[r->names_n - 1] == '\r') r->names_n--, r->desc_len--;
    if (r->desc_len == 0) r->desc_at[r->k - 1] = -1;
    r->line++;
    r->state = S_BOL;
    return put_name(r, 0);
}

static int header_byte(bwa_ref *r, uint8_t c)
{
    int ws = c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n';
    if (r->state == S_NAME && ws) return end_name(r, c);
    if (r->state == S_NAME_CR || r->state == S_DESC_CR) {
        if (c != '\n')
            return fail(r, "carriage return not followed by a line feed (line breaks are \\n or \\r\\n)");
        if (r->state == S_DESC_CR) return end_desc(r);
        r->line++;
        r->state = S_BOL;
        return BWA_REF_OK;
    }
    if (c == '\n') return end_desc(r);
    if ((c < 0x20 && !ws) || c >= 0x7f)
        return fail(r, "byte 0x%02X in a header; only printable ASCII and whitespace are allowed", c);
    if (r->state == S_DESC) {
        r->desc_len++;
        if (c == '\r') r->state = S_DESC_CR;
    }
    return put_name(r, c);
}

/* An ambiguous base: a new .amb run unless it repeats the byte before. */
static int ambiguous(bwa_ref *r, uint8_t c, uint8_t *out)
{
    if (r->last_amb == c) {
        r->holes[r->nholes - 1].len++;
    } else {
        if (grow((void **)&r->holes, &r->holes_cap, r->nholes + 1, sizeof *r->holes))
            return BWA_REF_NOMEM;
        bwa_hole *h = &r->holes[r->nholes++];
        h->offset = r->l;
        h->len = 1;
        h->amb = c;
        r->n_ambs[r->k - 1]++;
        r->last_amb = c;
    }
    *out = (uint8_t)rng_base(&r->rng);
    return BWA_REF_OK;
}

static int seq_stop(bwa_ref *r, uint8_t c)
{
    switch (r->kind[c]) {
    case K_LF: r->line++; r->state = S_BOL; return BWA_REF_OK;
    case K_CR: r->state = S_SEQ_CR; return BWA_REF_OK;
    case K_WS: return fail(r, "whitespace inside a sequence line (bwa would index it as a base)");
    case K_GT: return fail(r, "'>' inside a sequence line (a header starts at the beginning of its line)");
    default:
        return fail(r, "byte 0x%02X in a sequence line; only printable ASCII is allowed", c);
    }
}

/* A run of a sequence line from b[i]; returns the index of the next byte.
 * The bases go through locals: byte stores would make the compiler reload
 * every field of r at each step. */
static size_t seq_run(bwa_ref *r, const uint8_t *b, size_t n, size_t i, int *rc)
{
    const uint8_t *kind = r->kind;
    for (;;) {
        uint8_t *out = r->codes + r->l, *start = out;
        size_t j = i;
        uint8_t t = K_LF;
        for (; j < n && (t = kind[b[j]]) < 4; j++) *out++ = t;
        int64_t m = out - start;
        r->l += m;
        r->len[r->k - 1] += m;
        if (m) r->last_amb = -1;
        i = j;
        if (i == n) return n;
        if (t != K_AMB) break;
        if ((*rc = ambiguous(r, b[i], r->codes + r->l))) return n;
        r->l++;
        r->len[r->k - 1]++;
        i++;
    }
    *rc = seq_stop(r, b[i]);
    return i + 1;
}

static int line_start(bwa_ref *r, uint8_t c)
{
    if (c == '>') return new_record(r);
    if (c == '\n') {
        r->line++;
        return BWA_REF_OK;
    }
    if (r->k == 0) return fail(r, "sequence data before the first header (a line starting with '>')");
    if (c == '@' || c == '+')
        return fail(r, "a sequence line starting with '%c' (bwa would read FASTQ there)", c);
    if (c == '\r' && r->len[r->k - 1] == 0)
        return fail(r, "a blank \\r\\n line before the record's first base (bwa would index the \\r)");
    r->state = S_SEQ;
    return BWA_REF_OK;
}

int bwa_ref_feed(bwa_ref *r, const uint8_t *b, size_t n)
{
    if (r->state == S_DEAD) return BWA_REF_MALFORMED;
    if (grow((void **)&r->codes, &r->codes_cap, r->l + (int64_t)n, 1)) return BWA_REF_NOMEM;
    int rc = BWA_REF_OK;
    for (size_t i = 0; i < n && rc == BWA_REF_OK;) {
        uint8_t c = b[i];
        if (r->state == S_SEQ) {
            i = seq_run(r, b, n, i, &rc);
        } else if (r->state == S_SEQ_CR) {
            if (c != '\n') rc = fail(r, "carriage return not followed by a line feed (line breaks are \\n or \\r\\n)");
            else r->line++, r->state = S_BOL, i++;
        } else if (r->state == S_BOL) {
            rc = line_start(r, c);
            if (r->state != S_SEQ) i++;
        } else {
            rc = header_byte(r, c);
            i++;
        }
    }
    return rc;
}

static int check_end(bwa_ref *r)
{
    if (r->state == S_BOL && r->line > 1) r->line--; /* a message names the last line */
    if (r->state == S_NAME_CR || r->state == S_DESC_CR || r->state == S_SEQ_CR)
        return fail(r, "carriage return at the end of the input without a line feed");
    if (r->state == S_NAME && r->names_n == r->name_at[r->k - 1])
        return fail(r, "header with no name (the name must follow '>' directly)");
    if (r->state == S_NAME && put_name(r, 0)) return BWA_REF_NOMEM;
    if (r->state == S_DESC) {
        int rc = end_desc(r);
        r->line--;
        if (rc) return rc;
    }
    if (r->k == 0) return fail(r, "no FASTA record (no line starts with '>')");
    if (r->l == 0) return fail(r, "no bases in any record (bwa cannot index an empty reference)");
    for (int64_t i = 0; i < r->k; i++)
        if (r->len[i] > INT32_MAX) return fail(r, "a record of more than 2^31-1 bases (bwa's limit)");
    return BWA_REF_OK;
}

int bwa_ref_finish(bwa_ref *r)
{
    if (r->state == S_DEAD) return BWA_REF_MALFORMED;
    int rc = check_end(r);
    if (rc) return rc;
    if (grow((void **)&r->codes, &r->codes_cap, 2 * r->l, 1)) return BWA_REF_NOMEM;
    r->pac = malloc((size_t)(r->l + 3) / 4 + 1);
    if (!r->pac) return BWA_REF_NOMEM;
    r->state = S_DEAD;
    return BWA_REF_OK;
}

/* Forward bases [lo, hi), lo a multiple of 4: their reverse complement
 * into codes[2l - hi, 2l - lo), their .pac bytes, their counts into f. */
void bwa_ref_complete(bwa_ref *r, int64_t lo, int64_t hi, uint64_t f[4])
{
    uint8_t *c = r->codes;
    int64_t l = r->l;
    uint64_t k[4] = {0, 0, 0, 0};
    for (int64_t j = lo; j < hi; j++) {
        k[c[j]]++;
        c[2 * l - 1 - j] = (uint8_t)(3 - c[j]);
    }
    for (int64_t j = lo; j < hi; j += 4) {
        uint8_t v = 0;
        for (int64_t q = 0; q < 4 && j + q < hi; q++) v |= (uint8_t)(c[j + q] << (6 - 2 * q));
        r->pac[j / 4] = v;
    }
    memcpy(f, k, sizeof k);
}

/* The packed bases, then a 0 byte when l % 4 == 0, and a last byte l % 4. */
int bwa_ref_write_pac(const bwa_ref *r, FILE *f)
{
    int64_t l = r->l, bytes = (l + 3) / 4;
    if (fwrite(r->pac, 1, (size_t)bytes, f) != (size_t)bytes) return -1;
    uint8_t tail[2] = {0, (uint8_t)(l % 4)};
    size_t k = l % 4 ? 1 : 2;
    return fwrite(tail + 2 - k, 1, k, f) == k ? 0 : -1;
}

int bwa_ref_write_ann(const bwa_ref *r, FILE *f)
{
    int64_t offset = 0;
    if (fprintf(f, "%lld %lld %u\n", (long long)r->l, (long long)r->k, 11u) < 0) return -1;
    for (int64_t i = 0; i < r->k; i++) {
        const char *desc = r->desc_at[i] >= 0 ? r->names + r->desc_at[i] : "(null)";
        if (fprintf(f, "0 %s %s\n%lld %lld %lld\n", r->names + r->name_at[i], desc,
                    (long long)offset, (long long)r->len[i], (long long)r->n_ambs[i]) < 0)
            return -1;
        offset += r->len[i];
    }
    return 0;
}

int bwa_ref_write_amb(const bwa_ref *r, FILE *f)
{
    if (fprintf(f, "%lld %lld %lld\n", (long long)r->l, (long long)r->k, (long long)r->nholes) < 0)
        return -1;
    for (int64_t i = 0; i < r->nholes; i++)
        if (fprintf(f, "%lld %lld %c\n", (long long)r->holes[i].offset, (long long)r->holes[i].len,
                    r->holes[i].amb) < 0)
            return -1;
    return 0;
}
