/* Input generators (see gen.h). */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t gen_rand(uint64_t *s) { return next(s); }

/* Symbol k of an alphabet of size sigma, spread so 0 and 255 both occur. */
static uint8_t symbol(unsigned k, unsigned sigma)
{
    return sigma <= 1 ? 'a' : (uint8_t)((k * 255u) / (sigma - 1));
}

static void fibonacci(uint8_t *buf, size_t n)
{
    /* The word is a prefix of itself doubled: s_{k+1} = s_k s_{k-1}. */
    if (n == 0) return;
    buf[0] = 'a';
    size_t len = 1, prev = 1; /* s_1 = "a", s_0 = "b" handled by the rule below */
    if (n > 1) buf[1] = 'b';
    len = n > 1 ? 2 : 1;
    prev = 1;
    while (len < n) {
        size_t take = prev <= n - len ? prev : n - len;
        memcpy(buf + len, buf, take);
        size_t old = len;
        len += take;
        prev = old;
    }
}

/* Runs of uniform lengths 1..2 mean - 1, each letter other than the last's. */
static void runs(uint8_t *buf, size_t n, unsigned mean, uint64_t *s)
{
    unsigned letter = 0;
    for (size_t i = 0; i < n;) {
        size_t len = 1 + (size_t)(next(s) % (2 * (uint64_t)mean - 1));
        letter = (letter + 1 + (unsigned)(next(s) % 3)) % 4;
        for (size_t end = i + len < n ? i + len : n; i < end; i++) buf[i] = (uint8_t)('a' + letter);
    }
}

void gen_fill(uint8_t *buf, size_t n, gen_kind kind, unsigned param, uint64_t seed)
{
    uint64_t s = seed * 0x2545f4914f6cdd1dull + 1;
    switch (kind) {
    case GEN_RANDOM: {
        unsigned sigma = param < 1 ? 1 : (param > 256 ? 256 : param);
        for (size_t i = 0; i < n; i++) buf[i] = symbol((unsigned)(next(&s) % sigma), sigma);
        break;
    }
    case GEN_ALL_EQUAL:
        memset(buf, 'a', n);
        break;
    case GEN_PERIODIC: {
        unsigned p = param < 1 ? 1 : param;
        for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)('a' + (i % p) % 26);
        break;
    }
    case GEN_FIBONACCI:
        fibonacci(buf, n);
        break;
    case GEN_THUE_MORSE:
        for (size_t i = 0; i < n; i++) buf[i] = (__builtin_popcountll(i) & 1) ? 'b' : 'a';
        break;
    case GEN_MUTATED: {
        size_t block = param < 1 ? 65536 : param;
        for (size_t i = 0; i < n && i < block; i++) buf[i] = (uint8_t)(' ' + next(&s) % 95);
        for (size_t i = block; i < n; i++) buf[i] = buf[i - block];
        for (size_t i = block; i < n; i++)
            if (next(&s) % 1000 == 0) buf[i] = (uint8_t)(' ' + next(&s) % 95);
        break;
    }
    case GEN_RUNS:
        runs(buf, n, param < 1 ? 1 : param, &s);
        break;
    default:
        memset(buf, 0, n);
    }
}

static const char *names[GEN_KIND_COUNT] = {"random", "equal", "periodic", "fibonacci",
                                            "thue-morse", "mutated", "runs"};

const char *gen_name(gen_kind kind)
{
    return kind < GEN_KIND_COUNT ? names[kind] : "unknown";
}

int gen_parse(const char *spec, gen_kind *kind, unsigned *param)
{
    for (int k = 0; k < GEN_KIND_COUNT; k++) {
        size_t len = strlen(names[k]);
        if (strncmp(spec, names[k], len) != 0) continue;
        if (spec[len] == 0) {
            *kind = (gen_kind)k;
            *param = k == GEN_RANDOM ? 256 : k == GEN_PERIODIC ? 2 : k == GEN_RUNS ? 8 : 65536;
            return 0;
        }
        if (spec[len] == ':') {
            char *end;
            unsigned long v = strtoul(spec + len + 1, &end, 10);
            if (*end || v == 0) return -1;
            *kind = (gen_kind)k;
            *param = (unsigned)v;
            return 0;
        }
    }
    return -1;
}

/* ---- gen_words ------------------------------------------------------------ */

static uint8_t english_letter(uint64_t r)
{
    /* Letter frequencies of English text, per 1000. */
    static const char letters[] = "etaoinshrdlcumwfgypbvkjxqz";
    static const unsigned short freq[] = {127, 91, 82, 75, 70, 67, 63, 61, 60, 43, 40, 28, 28,
                                          24, 24, 22, 20, 20, 19, 15, 10, 8, 2, 2, 1, 1};
    unsigned v = (unsigned)(r % 1000);
    for (int i = 0; i < 26; i++) {
        if (v < freq[i]) return (uint8_t)letters[i];
        v -= freq[i];
    }
    return 'e';
}

/* Word of rank k: length grows with log(rank), as in natural language. */
static size_t make_word(uint8_t *w, unsigned k, uint64_t *s)
{
    unsigned lg = 0;
    while ((1u << lg) <= k + 1) lg++;
    size_t len = 1 + lg / 3 + next(s) % (1 + lg / 3);
    if (len > 15) len = 15;
    for (size_t i = 0; i < len; i++) w[i] = english_letter(next(s));
    return len;
}

void gen_words(uint8_t *buf, size_t n, unsigned vocab, uint64_t seed)
{
    uint64_t s = seed * 0x2545f4914f6cdd1dull + 7;
    unsigned v = vocab ? vocab : 30000;
    enum { GUIDE = 1 << 16 };
    uint8_t (*words)[16] = malloc((size_t)v * sizeof *words);
    double *cdf = malloc((size_t)v * sizeof *cdf);
    unsigned *guide = malloc((GUIDE + 1) * sizeof *guide);
    if (!words || !cdf || !guide) { /* degrade to plain random lower-case letters */
        for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)('a' + next(&s) % 26);
        free(words);
        free(cdf);
        free(guide);
        return;
    }
    double total = 0;
    for (unsigned k = 0; k < v; k++) {
        words[k][15] = (uint8_t)make_word(words[k], k, &s);
        total += 1.0 / (k + 1.0);
        cdf[k] = total;
    }
    /* Guide table: guide[g] = first rank whose cdf reaches g/GUIDE of the total,
     * so a draw starts its search there (a step or two instead of a bisection). */
    for (unsigned g = 0, k = 0; g <= GUIDE; g++) {
        double at = total * g / GUIDE;
        while (k + 1 < v && cdf[k] < at) k++;
        guide[g] = k;
    }
    size_t i = 0, line = 0;
    int capital = 1;
    while (i < n) {
        double u = (double)(next(&s) >> 11) * (1.0 / 9007199254740992.0) * total;
        unsigned lo = guide[(unsigned)(u / total * GUIDE)];
        while (lo + 1 < v && cdf[lo] < u) lo++;
        size_t len = words[lo][15];
        for (size_t j = 0; j < len && i < n; j++, line++)
            buf[i++] = (uint8_t)(j == 0 && capital ? words[lo][j] - 32 : words[lo][j]);
        capital = 0;
        uint64_t r = next(&s) % 100;
        if (r < 5 && i < n) buf[i++] = '.', line++, capital = 1;
        else if (r < 11 && i < n) buf[i++] = ',', line++;
        if (i < n) {
            buf[i++] = line >= 72 ? '\n' : ' ';
            line = line >= 72 ? 0 : line + 1;
        }
    }
    free(words);
    free(cdf);
    free(guide);
}
