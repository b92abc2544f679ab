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
    default:
        memset(buf, 0, n);
    }
}

static const char *names[GEN_KIND_COUNT] = {"random", "equal", "periodic", "fibonacci",
                                            "thue-morse", "mutated"};

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
            *param = k == GEN_RANDOM ? 256 : (k == GEN_PERIODIC ? 2 : 65536);
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
