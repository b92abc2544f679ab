/* Segmented sort against a CPU reference: key distributions x segment
 * layouts x index widths, with and without values.  Each case runs with the
 * device's own thresholds and with small ones (CLSA_TUNE r1/r2), so the
 * bitonic, merge-path and radix paths all see every layout even on small
 * inputs. */
#include "testutil.h"
#include "runtime.h" /* clsa__alloc/write/read: device buffers for the cl_mem form */

enum { K_RANDOM, K_SORTED, K_REVERSED, K_EQUAL, K_TWO, K_HIGH, K_COUNT };
static const char *key_names[] = {"random", "sorted", "reversed", "equal", "two", "high-bits"};

enum { L_MIXED, L_EMPTY, L_HUGE, L_PAIRS, L_POWER, L_GAPS, L_COUNT };
static const char *layout_names[] = {"mixed", "empty", "huge", "pairs", "power-law", "gaps"};

typedef struct seglist {
    size_t n, nseg;
    uint64_t *off, *len;
} seglist;

/* Small thresholds: R1 = 64 and R2 = 4096 (1024 under Oclgrind, whose
 * inputs are smaller), so that few segments take the radix path, which
 * sorts one segment at a time. */
static const char *small_tune_str(void) { return tu_small() ? "r1=64,r2=1024" : "r1=64,r2=4096"; }
#define small_tune small_tune_str()

static clsa_context *open_ctx(int small_thresholds)
{
    if (small_thresholds) setenv("CLSA_TUNE", small_tune, 1);
    else unsetenv("CLSA_TUNE");
    clsa_context *c = tu_context();
    unsetenv("CLSA_TUNE");
    return c;
}

static void add_seg(seglist *s, size_t cap, uint64_t off, uint64_t len)
{
    assert_true(s->nseg < cap);
    s->off[s->nseg] = off;
    s->len[s->nseg] = len;
    s->nseg++;
}

/* Power law: length 2^(u * maxlog) for uniform u, so every log2 size class
 * gets about the same number of segments. */
static uint64_t power_len(tu_rng *r, unsigned maxlog)
{
    double u = (double)tu_below(r, 1u << 20) / (double)(1u << 20);
    uint64_t l = (uint64_t)(1u << (unsigned)(u * maxlog)) + tu_below(r, 1u << (unsigned)(u * maxlog));
    return l;
}

/* Segments over about `total` positions. */
static seglist make_layout(int kind, size_t total, uint64_t seed)
{
    tu_rng r = {seed};
    size_t cap = total + 16;
    seglist s = {0, 0, tu_malloc(cap * 8), tu_malloc(cap * 8)};
    size_t pos = 0;
    if (kind == L_HUGE) {
        add_seg(&s, cap, 0, total);
        pos = total;
    } else {
        while (pos < total) {
            uint64_t len;
            switch (kind) {
            case L_MIXED: len = tu_below(&r, 3000); break;
            case L_EMPTY: len = tu_below(&r, 4) == 0 ? 1 + tu_below(&r, 300) : tu_below(&r, 2); break;
            case L_PAIRS: len = 2; break;
            default: len = power_len(&r, 14); break;
            }
            if (len > total - pos) len = total - pos;
            if (kind == L_GAPS) pos += tu_below(&r, 4);
            if (pos + len > total) len = pos <= total ? total - pos : 0;
            add_seg(&s, cap, pos, len);
            pos += len;
        }
    }
    s.n = pos + (kind == L_GAPS ? 3 : 0);
    if (kind == L_GAPS || kind == L_EMPTY)
        for (size_t i = s.nseg; i > 1; i--) { /* shuffled order */
            size_t j = tu_below(&r, (uint32_t)i);
            uint64_t t = s.off[i - 1]; s.off[i - 1] = s.off[j]; s.off[j] = t;
            t = s.len[i - 1]; s.len[i - 1] = s.len[j]; s.len[j] = t;
        }
    return s;
}

static uint64_t make_key(int kind, tu_rng *r, size_t i, size_t n, int w)
{
    uint64_t mask = w == 8 ? ~0ull : 0xFFFFFFFFull;
    switch (kind) {
    case K_RANDOM: return tu_next(r) & mask;
    case K_SORTED: return i;
    case K_REVERSED: return n - i;
    case K_EQUAL: return 7;
    case K_TWO: return (tu_next(r) & 1) ? 9 : 5;
    default: return (tu_next(r) & 0xF) << (w * 8 - 4);
    }
}

typedef struct pair { uint64_t k, v; } pair;

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->k != y->k) return x->k < y->k ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* Keys ascending in each segment, (key, value) pairs in the stable order of
 * the input's, untouched outside segments. */
static void verify(const seglist *s, const uint64_t *k0, const uint64_t *v0, const uint64_t *k,
                   const uint64_t *v, const char *what)
{
    char *inseg = calloc(s->n ? s->n : 1, 1);
    pair *a = tu_malloc(s->n * sizeof(pair)), *b = tu_malloc(s->n * sizeof(pair));
    for (size_t g = 0; g < s->nseg; g++) {
        size_t o = s->off[g], l = s->len[g];
        for (size_t j = 0; j < l; j++) {
            inseg[o + j] = 1;
            if (j && k[o + j - 1] > k[o + j])
                fail_msg("%s: segment %zu [%zu,+%zu) unsorted at %zu", what, g, o, l, j);
            a[j] = (pair){k0[o + j], v0 ? v0[o + j] : 0};
            b[j] = (pair){k[o + j], v ? v[o + j] : 0};
        }
        if (!v) continue;
        /* Values are the original positions: sorting by (key, value) is the
         * stable order, which the output must match exactly. */
        qsort(a, l, sizeof(pair), cmp_pair);
        if (memcmp(a, b, l * sizeof(pair)))
            fail_msg("%s: segment %zu: not the stable order of the input pairs", what, g);
    }
    for (size_t i = 0; i < s->n; i++)
        if (!inseg[i] && (k[i] != k0[i] || (v && v[i] != v0[i])))
            fail_msg("%s: position %zu outside every segment was changed", what, i);
    free(inseg);
    free(a);
    free(b);
}

static void run_case(clsa_context *ctx, const seglist *s, int kdist, int w, int with_values,
                     uint64_t seed, const char *tag)
{
    char what[160];
    snprintf(what, sizeof what, "%s keys=%s w=%d values=%d n=%zu nseg=%zu", tag,
             key_names[kdist], w * 8, with_values, s->n, s->nseg);
    tu_rng r = {seed};
    size_t n = s->n;
    uint64_t *k0 = tu_malloc(n * 8), *v0 = tu_malloc(n * 8), *k = tu_malloc(n * 8),
             *v = tu_malloc(n * 8);
    for (size_t i = 0; i < n; i++) {
        k0[i] = make_key(kdist, &r, i, n, w);
        v0[i] = i;
    }
    if (w == 8) {
        memcpy(k, k0, n * 8);
        memcpy(v, v0, n * 8);
        TU_OK(ctx, clsa_segmented_sort_u64(ctx, k, with_values ? v : NULL, n, s->off, s->len,
                                           s->nseg));
    } else {
        uint32_t *k32 = tu_malloc(n * 4), *v32 = tu_malloc(n * 4);
        uint32_t *o32 = tu_malloc(s->nseg * 4), *l32 = tu_malloc(s->nseg * 4);
        for (size_t i = 0; i < n; i++) {
            k32[i] = (uint32_t)k0[i];
            v32[i] = (uint32_t)v0[i];
        }
        for (size_t g = 0; g < s->nseg; g++) {
            o32[g] = (uint32_t)s->off[g];
            l32[g] = (uint32_t)s->len[g];
        }
        TU_OK(ctx, clsa_segmented_sort_u32(ctx, k32, with_values ? v32 : NULL, n, o32, l32,
                                           s->nseg));
        for (size_t i = 0; i < n; i++) {
            k[i] = k32[i];
            v[i] = v32[i];
        }
        free(k32);
        free(v32);
        free(o32);
        free(l32);
    }
    verify(s, k0, with_values ? v0 : NULL, k, with_values ? v : NULL, what);
    free(k0);
    free(v0);
    free(k);
    free(v);
}

static void free_layout(seglist *s)
{
    free(s->off);
    free(s->len);
}

/* Every layout with every key distribution, both widths, both thresholds. */
static void layouts(void **state)
{
    (void)state;
    for (int th = 0; th < 2; th++) {
        if (tu_small() && th == 0) continue; /* device thresholds need larger inputs */
        clsa_context *ctx = open_ctx(th);
        for (int lk = 0; lk < L_COUNT; lk++) {
            size_t total = tu_size(lk == L_HUGE ? (th ? 5000 : 1500000) : 100000, 1500);
            if (lk == L_HUGE && tu_small()) total = 1100;
            if (lk == L_PAIRS) total = tu_size(th ? 100000 : 2000000, 2000); /* 1e6 pairs */
            seglist s = make_layout(lk, total, 100 + lk);
            for (int kd = 0; kd < K_COUNT; kd++) {
                /* Oclgrind: one key distribution and one width per layout. */
                if (tu_small() && kd != (lk == L_MIXED ? K_TWO : K_RANDOM)) continue;
                if (lk == L_PAIRS && kd != K_RANDOM && kd != K_REVERSED) continue;
                /* Device thresholds: the S/M paths at full tile size, on
                 * two distributions (all of them run with small thresholds). */
                if (!th && kd != K_RANDOM && kd != K_EQUAL) continue;
                if (tu_small()) {
                    clsa_destroy(ctx);
                    ctx = open_ctx(th);
                }
                char tag[64];
                snprintf(tag, sizeof tag, "th=%s layout=%s", th ? small_tune : "device",
                         layout_names[lk]);
                for (int w = 4; w <= 8; w += 4)
                    if (!tu_small() || w == 4 + 4 * (lk & 1))
                        run_case(ctx, &s, kd, w, 1, 1000 * lk + kd + w, tag);
            }
            if (!tu_small()) run_case(ctx, &s, K_RANDOM, 4, 0, 77 + lk, "keys only");
            free_layout(&s);
        }
        clsa_destroy(ctx);
    }
}

/* Lengths at and around the class boundaries (1, 2, 3, powers of two +-1,
 * R1 = 64, R2 = 1024 with the small thresholds), each repeated, in one
 * segment list. */
static void boundaries(void **state)
{
    (void)state;
    size_t lens[] = {0, 1, 2, 3, 4, 5, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1023, 1024, 1025, 3000};
    size_t nl = sizeof lens / sizeof *lens, reps = tu_small() ? 2 : 37;
    seglist s = {0, 0, tu_malloc(nl * reps * 8), tu_malloc(nl * reps * 8)};
    for (size_t i = 0; i < nl; i++) {
        if (tu_small() && lens[i] > 300) continue;
        for (size_t g = 0; g < reps; g++) {
            s.off[s.nseg] = s.n;
            s.len[s.nseg++] = lens[i];
            s.n += lens[i];
        }
    }
    clsa_context *ctx = open_ctx(1);
    run_case(ctx, &s, K_RANDOM, 4, 1, 1, "boundaries");
    if (tu_small()) {
        clsa_destroy(ctx);
        ctx = open_ctx(1);
    }
    run_case(ctx, &s, K_REVERSED, 8, 1, 2, "boundaries");
    free_layout(&s);
    clsa_destroy(ctx);
}

/* The cl_mem form on buffers that stay on the device (made with the
 * internal allocator, which the test links against), keys only, 64-bit. */
static void mem_form(void **state)
{
    (void)state;
    clsa_context *ctx = open_ctx(1);
    seglist s = make_layout(L_GAPS, tu_size(20000, 600), 9);
    size_t n = s.n;
    tu_rng r = {3};
    uint64_t *k0 = tu_malloc(n * 8), *k = tu_malloc(n * 8);
    for (size_t i = 0; i < n; i++) k0[i] = tu_next(&r);
    cl_mem dk = NULL, doff = NULL, dlen = NULL;
    TU_OK(ctx, clsa__alloc(ctx, n * 8, &dk));
    TU_OK(ctx, clsa__alloc(ctx, s.nseg * 8, &doff));
    TU_OK(ctx, clsa__alloc(ctx, s.nseg * 8, &dlen));
    TU_OK(ctx, clsa__write(ctx, dk, 0, k0, n * 8));
    TU_OK(ctx, clsa__write(ctx, doff, 0, s.off, s.nseg * 8));
    TU_OK(ctx, clsa__write(ctx, dlen, 0, s.len, s.nseg * 8));
    TU_OK(ctx, clsa_segmented_sort_mem(ctx, dk, NULL, n, doff, dlen, s.nseg, 64));
    TU_OK(ctx, clsa__read(ctx, dk, 0, k, n * 8));
    verify(&s, k0, NULL, k, NULL, "mem form");
    clsa__free(ctx, &dk);
    clsa__free(ctx, &doff);
    clsa__free(ctx, &dlen);
    free(k0);
    free(k);
    free_layout(&s);
    uint32_t x = 1;
    assert_int_equal(clsa_segmented_sort_u32(ctx, &x, NULL, 1, NULL, &x, 1), CLSA_ERR_INVALID_ARG);
    uint32_t off = 1, len = 5;
    assert_int_equal(clsa_segmented_sort_u32(ctx, &x, NULL, 1, &off, &len, 1), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_segmented_sort_mem(ctx, NULL, NULL, 1, NULL, NULL, 1, 16),
                     CLSA_ERR_INVALID_ARG);
    clsa_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(boundaries),
        cmocka_unit_test(layouts),
        cmocka_unit_test(mem_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
