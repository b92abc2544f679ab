/* Input specs: [LABEL=]SOURCE[@SIZE] where SOURCE is
 *   FILE                 a file (relative paths also looked up under --dir)
 *   cat:F1+F2+...        files back to back
 *   repeat:FILE          a file repeated until SIZE (needs SIZE)
 *   words[:VOCAB]        generated word text (gen_words; needs SIZE)
 *   KIND[:PARAM]         any gen_parse generator: random:4, equal, fibonacci, ... (needs SIZE)
 * SIZE: 100M (10^6), 16Mi (2^20), 2G, 1Gi, 2^28, or a plain count; for a
 * file it takes the first SIZE bytes.  A range SIZE..SIZE doubles from the
 * first to the second (see input_range). */
#include "bench.h"
#include "gen.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char input_dir[1024];

void input_set_dir(const char *dir)
{
    snprintf(input_dir, sizeof input_dir, "%s", dir ? dir : "");
}

uint64_t parse_count(const char *s)
{
    if (!s || !*s) return 0;
    if (!strncmp(s, "2^", 2)) {
        char *end;
        unsigned long e = strtoul(s + 2, &end, 10);
        return (*end || e > 62) ? 0 : (uint64_t)1 << e;
    }
    char *end;
    double v = strtod(s, &end);
    if (!(v > 0) || end == s) return 0;
    double unit = 1;
    int binary = end[0] && (end[1] == 'i' || end[1] == 'I');
    switch (toupper((unsigned char)*end)) {
    case 0: break;
    case 'K': unit = binary ? 1024.0 : 1e3; break;
    case 'M': unit = binary ? 1048576.0 : 1e6; break;
    case 'G': unit = binary ? 1073741824.0 : 1e9; break;
    default: return 0;
    }
    if (*end) {
        const char *rest = end + 1 + binary;
        if (*rest == 'B' || *rest == 'b') rest++;
        if (*rest) return 0;
    }
    return (uint64_t)llround(v * unit);
}

/* Shortest spelling of a size that parse_count reads back exactly. */
static void fmt_count(uint64_t v, char *buf, size_t cap)
{
    static const struct { uint64_t unit; const char *suffix; } units[] = {
        {1000000000ull, "G"}, {1073741824ull, "Gi"}, {1000000ull, "M"},
        {1048576ull, "Mi"},   {1000ull, "K"},        {1024ull, "Ki"}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (v >= units[i].unit && v % units[i].unit == 0) {
            snprintf(buf, cap, "%llu%s", (unsigned long long)(v / units[i].unit),
                     units[i].suffix);
            return;
        }
    snprintf(buf, cap, "%llu", (unsigned long long)v);
}

int input_range(const char *spec, char *base, size_t bcap, int64_t *sizes, int cap)
{
    const char *at = strrchr(spec, '@');
    const char *dots = at ? strstr(at, "..") : NULL;
    if (!dots) return 0;
    char lo[64], hi[64];
    size_t l = (size_t)(dots - at - 1);
    if (l >= sizeof lo || strlen(dots + 2) >= sizeof hi) return -1;
    memcpy(lo, at + 1, l);
    lo[l] = 0;
    snprintf(hi, sizeof hi, "%s", dots + 2);
    uint64_t a = parse_count(lo), b = parse_count(hi);
    if (!a || !b || a > b) return -1;
    snprintf(base, bcap, "%.*s", (int)(at - spec), spec);
    int k = 0;
    for (uint64_t s = a; s <= b && k < cap; s *= 2) sizes[k++] = (int64_t)s;
    return k;
}

static FILE *open_input(const char *path, char *used, size_t cap)
{
    snprintf(used, cap, "%s", path);
    FILE *f = fopen(path, "rb");
    if (!f && path[0] != '/' && input_dir[0]) {
        snprintf(used, cap, "%s/%s", input_dir, path);
        f = fopen(used, "rb");
    }
    return f;
}

/* Appends up to `want` bytes of a file at buf + *have; returns 0 or -1. */
static int read_file(const char *path, uint8_t *buf, int64_t *have, int64_t want, char *err,
                     size_t cap)
{
    char used[1300];
    FILE *f = open_input(path, used, sizeof used);
    if (!f) {
        snprintf(err, cap, "cannot open %s: %s", used, strerror(errno));
        return -1;
    }
    while (*have < want) {
        size_t got = fread(buf + *have, 1, (size_t)(want - *have), f);
        if (got == 0) break;
        *have += (int64_t)got;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) snprintf(err, cap, "read error on %s", used);
    return bad ? -1 : 0;
}

static int64_t file_size(const char *path)
{
    char used[1300];
    FILE *f = open_input(path, used, sizeof used);
    if (!f) return -1;
    int64_t s = -1;
    if (fseek(f, 0, SEEK_END) == 0) s = (int64_t)ftell(f);
    fclose(f);
    return s;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Files of a cat: list (separated by '+'), each at most 1023 chars. */
static int split_files(const char *list, char files[][1024], int cap)
{
    int k = 0;
    const char *p = list;
    while (*p && k < cap) {
        const char *e = strchr(p, '+');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == 0 || l >= 1024) return -1;
        memcpy(files[k], p, l);
        files[k][l] = 0;
        k++;
        p = e ? e + 1 : p + l;
    }
    return k;
}

static int load_files(const char *list, int repeat, int64_t size, bench_input *in, char *err,
                      size_t cap)
{
    static char files[16][1024];
    int nf = split_files(list, files, 16);
    if (nf <= 0) {
        snprintf(err, cap, "bad file list '%s'", list);
        return -1;
    }
    int64_t total = 0;
    for (int i = 0; i < nf; i++) {
        int64_t s = file_size(files[i]);
        if (s < 0) {
            snprintf(err, cap, "cannot open %s: %s", files[i], strerror(errno));
            return -1;
        }
        total += s;
    }
    if (repeat && (size <= 0 || total == 0)) {
        snprintf(err, cap, "repeat: needs @SIZE and a non-empty file");
        return -1;
    }
    int64_t want = size > 0 && (repeat || size < total) ? size : total;
    in->text = malloc(want ? (size_t)want : 1);
    if (!in->text) {
        snprintf(err, cap, "out of host memory for %lld bytes", (long long)want);
        return -1;
    }
    int64_t have = 0;
    for (int i = 0; i < nf && have < want; i++)
        if (read_file(files[i], in->text, &have, want, err, cap)) return -1;
    int64_t first = have;
    while (repeat && have < want) { /* repeat the part read so far */
        int64_t take = first < want - have ? first : want - have;
        memcpy(in->text + have, in->text, (size_t)take);
        have += take;
    }
    in->n = have;
    if (size > 0 && have < size)
        snprintf(in->note, sizeof in->note, "only %lld bytes available", (long long)have);
    if (repeat && have > first)
        snprintf(in->note, sizeof in->note, "%lld-byte file repeated %.1fx", (long long)first,
                 (double)have / (double)first);
    return 0;
}

static int load_gen(const char *spec, int64_t size, bench_input *in, char *err, size_t cap)
{
    if (size <= 0) {
        snprintf(err, cap, "generated input '%s' needs @SIZE", spec);
        return -1;
    }
    in->text = malloc((size_t)size);
    if (!in->text) {
        snprintf(err, cap, "out of host memory for %lld bytes", (long long)size);
        return -1;
    }
    in->n = size;
    if (!strncmp(spec, "words", 5) && (spec[5] == 0 || spec[5] == ':')) {
        unsigned vocab = spec[5] ? (unsigned)strtoul(spec + 6, NULL, 10) : 0;
        gen_words(in->text, (size_t)size, vocab, 1);
        return 0;
    }
    gen_kind kind;
    unsigned param;
    if (gen_parse(spec, &kind, &param) != 0) {
        snprintf(err, cap, "unknown generator or missing file '%s'", spec);
        return -1;
    }
    gen_fill(in->text, (size_t)size, kind, param, 1);
    return 0;
}

static int is_generator(const char *s)
{
    gen_kind kind;
    unsigned param;
    if (!strncmp(s, "words", 5) && (s[5] == 0 || s[5] == ':')) return 1;
    return gen_parse(s, &kind, &param) == 0;
}

int input_load(const char *spec, int64_t size_override, bench_input *in, char *err, size_t cap)
{
    memset(in, 0, sizeof *in);
    char label[64] = "";
    const char *eq = strchr(spec, '=');
    if (eq && (size_t)(eq - spec) < sizeof label && !memchr(spec, '/', (size_t)(eq - spec)) &&
        !memchr(spec, ':', (size_t)(eq - spec))) {
        snprintf(label, sizeof label, "%.*s", (int)(eq - spec), spec);
        spec = eq + 1;
    }
    char src[1024];
    snprintf(src, sizeof src, "%s", spec);
    int64_t size = size_override;
    char *at = strrchr(src, '@');
    if (at) {
        *at = 0;
        if (size <= 0 && !(size = (int64_t)parse_count(at + 1))) {
            snprintf(err, cap, "bad size in '%s'", spec);
            return -1;
        }
    }
    int rc;
    if (!strncmp(src, "cat:", 4)) {
        snprintf(in->source, sizeof in->source, "concat");
        snprintf(in->kind, sizeof in->kind, "cat");
        rc = load_files(src + 4, 0, size, in, err, cap);
    } else if (!strncmp(src, "repeat:", 7)) {
        snprintf(in->source, sizeof in->source, "repeat");
        snprintf(in->kind, sizeof in->kind, "repeat:%.50s", base_name(src + 7));
        rc = load_files(src + 7, 1, size, in, err, cap);
    } else if (access(src, R_OK) != 0 && is_generator(src)) {
        snprintf(in->source, sizeof in->source, "gen");
        snprintf(in->kind, sizeof in->kind, "%.63s", src);
        rc = load_gen(src, size, in, err, cap);
    } else {
        snprintf(in->source, sizeof in->source, "file");
        snprintf(in->kind, sizeof in->kind, "%.63s", base_name(src));
        rc = load_files(src, 0, size, in, err, cap);
    }
    if (rc) {
        input_free(in);
        return -1;
    }
    if (label[0]) snprintf(in->kind, sizeof in->kind, "%s", label);
    char sz[32];
    fmt_count((uint64_t)in->n, sz, sizeof sz);
    const char *shown = label[0] ? label : (!strcmp(in->source, "file") ? base_name(src) : src);
    snprintf(in->name, sizeof in->name, "%.160s@%s", shown, sz);
    return 0;
}

void input_free(bench_input *in)
{
    free(in->text);
    in->text = NULL;
    in->n = 0;
}
