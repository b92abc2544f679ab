/* LSD radix sort against a CPU stable sort, on the device under test.
 * Values carry the original index, so stability is checked exactly. */
#include "testutil.h"
#include "runtime.h"
#include "prim/radix_sort.h"

static clsa_context *ctx;

enum pattern { RANDOM, SORTED, REVERSED, ALL_EQUAL, TWO_KEYS, HIGH_BITS, SMALL_RANGE, NPATTERNS };
static const char *pattern_name[] = {"random",   "sorted",    "reversed",   "all-equal",
                                     "two-keys", "high-bits", "small-range"};

/* Key widths and value widths of the public forms. */
typedef struct layout {
    int key_bits, value_bits;
} layout;
static const layout layouts[] = {{32, 0}, {32, 32}, {64, 32}, {64, 64}, {64, 0}};
#define NLAYOUTS (sizeof layouts / sizeof *layouts)

static uint64_t make_key(enum pattern p, size_t i, size_t n, int key_bits, tu_rng *r)
{
    uint64_t all = key_bits == 64 ? ~0ull : 0xffffffffull;
    switch (p) {
    case RANDOM: return tu_next(r) & all;
    case SORTED: return (uint64_t)i * 13;
    case REVERSED: return (uint64_t)(n - i) * 3;
    case ALL_EQUAL: return 0x5a5a5a5a5a5a5a5aull & all;
    case TWO_KEYS: return (tu_next(r) & 1 ? 0x80000001ull : 7ull) & all;
    case HIGH_BITS: return (tu_next(r) & 0xf5ull) << (key_bits - 8);
    case SMALL_RANGE: return tu_below(r, 1000);
    default: return 0;
    }
}

static uint64_t bits_of(uint64_t k, unsigned b, unsigned e)
{
    uint64_t hi = e >= 64 ? ~0ull : (1ull << e) - 1;
    return k & hi & ~((1ull << b) - 1);
}

/* Stable CPU reference: merge sort of indices by the key bits [b, e). */
static void ref_sort(const uint64_t *k, size_t *idx, size_t *tmp, size_t n, unsigned b, unsigned e)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t x = lo, y = mid, o = lo;
            while (x < mid && y < hi)
                tmp[o++] = bits_of(k[idx[y]], b, e) < bits_of(k[idx[x]], b, e) ? idx[y++] : idx[x++];
            while (x < mid) tmp[o++] = idx[x++];
            while (y < hi) tmp[o++] = idx[y++];
        }
        memcpy(idx, tmp, n * sizeof *idx);
    }
}

static uint64_t value_of(size_t i, int value_bits)
{
    return value_bits == 64 ? ((uint64_t)~i << 32) ^ (uint64_t)i : (uint32_t)i;
}

/* Packs host arrays of the layout's widths from 64-bit staging arrays. */
static void *pack(const uint64_t *src, size_t n, int bits)
{
    void *p = tu_malloc(n * (size_t)(bits / 8));
    for (size_t i = 0; i < n; i++) {
        if (bits == 64) ((uint64_t *)p)[i] = src[i];
        else ((uint32_t *)p)[i] = (uint32_t)src[i];
    }
    return p;
}

static uint64_t get(const void *p, size_t i, int bits)
{
    return bits == 64 ? ((const uint64_t *)p)[i] : ((const uint32_t *)p)[i];
}

static clsa_status sort_host(layout l, void *k, void *v, size_t n, unsigned b, unsigned e)
{
    if (l.key_bits == 32) return clsa_radix_sort_u32(ctx, k, v, n, b, e);
    if (l.value_bits == 64) return clsa_radix_sort_u64_v64(ctx, k, v, n, b, e);
    return clsa_radix_sort_u64(ctx, k, v, n, b, e);
}

/* The sort's paths (set_path): 0 reduce-then-scan with the split-round
 * ranking, 1 the single pass with look-back, 2 reduce-then-scan with the
 * warp ranking (emulated: radix_rank.cl count_warp, RADIX_WARP 2), 3 the
 * single pass with the warp ranking; 4 and 5 are 3 with its first or
 * second pass faulting (tune onesweep_fault: the pass writes nothing), so
 * the sort ends by reduce-then-scan from that pass's input. */
#define PATHS 4
#define FAULT_PATHS 6
static void set_path(unsigned path)
{
    ctx->tune.onesweep = path == 1 || path >= 3;
    ctx->tune.radix_warp = path >= 2 ? 2 : 0;
    ctx->tune.onesweep_fault = path >= 4 ? path - 3 : 0;
    ctx->tune.lookback = path >= 3 ? 4 : 1; /* look-back words read at once */
}

static size_t tuned_items; /* the context's radix_items */

static void check_one(layout l, enum pattern p, size_t n, unsigned b, unsigned e, uint64_t seed,
                      unsigned path)
{
    tu_rng r = {seed};
    set_path(path);
    /* by seed: both countings of the split rounds (registers / local
     * memory), the warp ranking's values in the keys' tile or their own
     * and its lanes matched by barriers or through local memory (each
     * setting builds programs only for its own ranking) */
    ctx->tune.radix_reg = (unsigned)(seed & 1);
    ctx->tune.radix_vtile = (unsigned)(seed & 1) * 2;
    ctx->tune.radix_match = (unsigned)(seed & 1) * 3; /* the local-memory match */
    /* tiles of 20 keys a work-item (10 under Oclgrind, whose tiles are
     * small: not a power of two; with the value tile, the single pass's
     * counters live in it) beside the tuned count */
    ctx->tune.radix_items = (seed >> 1 & 1) ? (tu_small() ? 10 : 20) : tuned_items;
    /* the single pass's look-back tables: one a pass, or one zeroed
     * before each pass, or as they fit */
    ctx->tune.onesweep_tables = (unsigned)(seed % 3);
    uint64_t *k64 = tu_malloc(n * 8), *v64 = tu_malloc(n * 8);
    size_t *idx = tu_malloc(n * sizeof *idx), *tmp = tu_malloc(n * sizeof *tmp);
    for (size_t i = 0; i < n; i++) {
        k64[i] = make_key(p, i, n, l.key_bits, &r);
        v64[i] = value_of(i, l.value_bits);
        idx[i] = i;
    }
    void *k = pack(k64, n, l.key_bits);
    void *v = l.value_bits ? pack(v64, n, l.value_bits) : NULL;
    TU_OK(ctx, sort_host(l, k, v, n, b, e));
    ref_sort(k64, idx, tmp, n, b, e);
    for (size_t i = 0; i < n; i++) {
        uint64_t gk = get(k, i, l.key_bits), wk = k64[idx[i]];
        if (gk != wk)
            fail_msg("path %u k%d v%d %s n=%zu bits [%u,%u): key[%zu]=%llx want %llx",
                     path, l.key_bits, l.value_bits, pattern_name[p], n, b, e, i,
                     (unsigned long long)gk,
                     (unsigned long long)wk);
        if (v && get(v, i, l.value_bits) != value_of(idx[i], l.value_bits))
            fail_msg("path %u k%d v%d %s n=%zu bits [%u,%u): value[%zu]=%llx want %llx "
                     "(unstable?)",
                     path, l.key_bits, l.value_bits, pattern_name[p], n, b, e, i,
                     (unsigned long long)get(v, i, l.value_bits),
                     (unsigned long long)value_of(idx[i], l.value_bits));
    }
    free(k64);
    free(v64);
    free(idx);
    free(tmp);
    free(k);
    free(v);
}

/* Every path, or under Oclgrind's lean mode one a case, in turns that give
 * each path both parities of the seed (whose bits pick the rankings). */
static void check_paths(layout l, enum pattern p, size_t n, unsigned b, unsigned e,
                        uint64_t seed, unsigned paths)
{
    static unsigned turn;
    if (tu_lean()) {
        check_one(l, p, n, b, e, seed, (turn / 2 + turn) % paths);
        turn++;
    } else {
        for (unsigned path = 0; path < paths; path++) check_one(l, p, n, b, e, seed, path);
    }
    set_path(0);
}

static void check_sort(layout l, enum pattern p, size_t n, unsigned b, unsigned e, uint64_t seed)
{
    check_paths(l, p, n, b, e, seed, PATHS);
}

/* Every layout and pattern over the edge lengths, whole key range (under
 * Oclgrind, tiles of 64 keys: every layout and pattern at 257 keys, the
 * shorter lengths on one layout with random keys). */
static void lengths_and_patterns(void **state)
{
    (void)state;
    static const size_t lens[] = {0, 1, 2, 3, 255, 256, 257, 4097, 65537, 300001};
    for (size_t li = 0; li < NLAYOUTS; li++)
        for (size_t i = 0; i < sizeof lens / sizeof *lens; i++)
            for (int p = 0; p < NPATTERNS; p++) {
                size_t n = lens[i];
                if (tu_small() && (n > 257 || (n < 257 && (li != 1 || p != RANDOM))))
                    continue;
                /* Long inputs: every pattern on one layout, random on all. */
                if (n > 300 && p != RANDOM && li != 1) continue;
                check_sort(layouts[li], (enum pattern)p, n, 0, (unsigned)layouts[li].key_bits,
                           1000 * li + 10 * i + (uint64_t)p);
            }
}

/* A few cases that cover several tiles under Oclgrind (tiles of 64
 * keys), a partial last tile, every layout, skipped and masked digits. */
static void small_cases(void **state)
{
    (void)state;
    static const struct {
        int layout;
        enum pattern p;
        size_t n;
        unsigned b, e;
    } cases[] = {
        {1, RANDOM, 3, 0, 32},       {1, RANDOM, 257, 0, 32},      {0, TWO_KEYS, 256, 0, 32},
        {1, ALL_EQUAL, 255, 0, 32},  {2, HIGH_BITS, 257, 0, 64},   {3, SMALL_RANGE, 200, 0, 64},
        {4, RANDOM, 70, 0, 64},      {1, RANDOM, 129, 5, 29},      {3, RANDOM, 100, 60, 64},
        {2, REVERSED, 65, 1, 12},
        /* many tiles (and tickets, look-back over several aggregates),
         * a partial last tile, constant digits, all-equal keys */
        {1, RANDOM, 2001, 0, 32},    {0, HIGH_BITS, 1500, 0, 32},  {1, ALL_EQUAL, 1100, 0, 32},
        {3, SMALL_RANGE, 1300, 0, 64},
    };
    /* digits read back, or all run (under Oclgrind the faults only with
     * the read-back) */
    for (int blind = 0; blind < 2; blind++) {
        ctx->tune.radix_blind = blind ? SIZE_MAX : 0;
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
            check_paths(layouts[cases[i].layout], cases[i].p, cases[i].n, cases[i].b,
                        cases[i].e, 500 + i + 50 * (size_t)blind,
                        tu_small() && blind ? PATHS : FAULT_PATHS);
    }
    ctx->tune.radix_blind = 0;
}

/* Partial bit ranges: bits outside are ignored (stability across them),
 * ranges that are not whole digits, odd numbers of passes. */
static void bit_ranges(void **state)
{
    (void)state;
    static const unsigned r32[][2] = {{0, 1}, {0, 20}, {5, 29}, {8, 16}, {31, 32}, {3, 3}};
    static const unsigned r64[][2] = {{0, 33}, {32, 64}, {7, 50}, {60, 64}, {13, 14}};
    size_t n = tu_size(20011, 301);
    /* digits read back (constant ones skipped), or every digit run (under
     * Oclgrind only the read-back: small_cases runs both) */
    for (int blind = 0; blind < (tu_small() ? 1 : 2); blind++) {
        ctx->tune.radix_blind = blind ? SIZE_MAX : 0;
        for (size_t i = 0; i < sizeof r32 / sizeof *r32; i++) {
            check_sort(layouts[1], RANDOM, n, r32[i][0], r32[i][1], 70 + i);
            check_sort(layouts[0], SMALL_RANGE, n, r32[i][0], r32[i][1], 80 + i);
        }
        for (size_t i = 0; i < sizeof r64 / sizeof *r64; i++) {
            check_sort(layouts[2 + i % 2], RANDOM, n, r64[i][0], r64[i][1], 90 + i);
            check_sort(layouts[3 - i % 2], HIGH_BITS, n, r64[i][0], r64[i][1], 95 + i);
        }
    }
    ctx->tune.radix_blind = 0;
}

/* More than 2^24 pairs (one 8-bit pass keeps CPU devices quick; the index
 * arithmetic is the same as in every pass of a full-range sort); under
 * Oclgrind 2^12 + 123, a few dozen tiles. */
static void large(void **state)
{
    (void)state;
    check_sort(layouts[1], RANDOM, tu_size(((size_t)1 << 24) + 12345, 4219), 12, 20, 4242);
}

/* The cl_mem form with caller scratch buffers (pass 0) and without (pass
 * 1), all on one context, every path; a faulted single pass turns the
 * single pass off for the context. */
static void device_buffers(void **state)
{
    (void)state;
    size_t n = tu_size(50001, 300);
    tu_rng r = {99};
    uint64_t *k = tu_malloc(n * 8), *got = tu_malloc(n * 8);
    uint32_t *v = tu_malloc(n * 4), *gv = tu_malloc(n * 4);
    for (size_t i = 0; i < n; i++) k[i] = tu_next(&r) >> (tu_small() ? 54 : 20), v[i] = (uint32_t)i;
    for (int pass = 0; pass < 2 * FAULT_PATHS; pass++) {
        set_path((unsigned)pass / 2); /* every path, each in both forms */
        cl_mem dk = NULL, dv = NULL, sk = NULL, sv = NULL;
        TU_OK(ctx, clsa__alloc(ctx, n * 8, &dk));
        TU_OK(ctx, clsa__alloc(ctx, n * 4, &dv));
        TU_OK(ctx, clsa__alloc(ctx, n * 8 + 64, &sk));
        TU_OK(ctx, clsa__alloc(ctx, n * 4 + 64, &sv));
        TU_OK(ctx, clsa__write(ctx, dk, 0, k, n * 8));
        TU_OK(ctx, clsa__write(ctx, dv, 0, v, n * 4));
        if (pass % 2 == 0)
            TU_OK(ctx, clsa_radix_sort_mem_scratch(ctx, dk, dv, n, 64, 32, 0, 44, sk, sv));
        else TU_OK(ctx, clsa_radix_sort_mem(ctx, dk, dv, n, 64, 32, 0, 44));
        TU_OK(ctx, clsa__read(ctx, dk, 0, got, n * 8));
        TU_OK(ctx, clsa__read(ctx, dv, 0, gv, n * 4));
        for (size_t i = 0; i < n; i++) {
            if (i && (got[i - 1] > got[i] || (got[i - 1] == got[i] && gv[i - 1] > gv[i])))
                fail_msg("pass %d: order broken at %zu", pass, i);
            if (got[i] != k[gv[i]]) fail_msg("pass %d: pair broken at %zu", pass, i);
        }
        if (pass / 2 >= 4 && ctx->tune.onesweep) fail_msg("pass %d: single pass still on", pass);
        clsa__free(ctx, &dk);
        clsa__free(ctx, &dv);
        clsa__free(ctx, &sk);
        clsa__free(ctx, &sv);
    }
    set_path(0);
    free(k);
    free(got);
    free(v);
    free(gv);
}

static void bad_args(void **state)
{
    (void)state;
    uint32_t k[2] = {2, 1}, v[2] = {0, 1};
    uint64_t k64[2] = {2, 1};
    assert_int_equal(clsa_radix_sort_u32(NULL, k, v, 2, 0, 32), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_radix_sort_u32(ctx, NULL, v, 2, 0, 32), CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(clsa_last_error(ctx), "NULL"));
    assert_int_equal(clsa_radix_sort_u32(ctx, k, v, 2, 0, 33), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_radix_sort_u32(ctx, k, v, 2, 9, 8), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_radix_sort_u64(ctx, k64, v, 2, 0, 65), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_radix_sort_mem(ctx, NULL, NULL, 0, 16, 0, 0, 8), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_radix_sort_mem(ctx, NULL, NULL, 0, 32, 8, 0, 8), CLSA_ERR_INVALID_ARG);
    /* scratch too small, or one of the sorted buffers: refused, nothing
     * written */
    cl_mem dk = NULL, dv = NULL, sk = NULL;
    TU_OK(ctx, clsa__alloc(ctx, 64 * 8, &dk));
    TU_OK(ctx, clsa__alloc(ctx, 64 * 4, &dv));
    TU_OK(ctx, clsa__alloc(ctx, 64 * 8 - 1, &sk));
    assert_int_equal(clsa_radix_sort_mem_scratch(ctx, dk, dv, 64, 64, 32, 0, 64, sk, NULL),
                     CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(clsa_last_error(ctx), "scratch_keys"));
    assert_int_equal(clsa_radix_sort_mem_scratch(ctx, dk, dv, 64, 32, 32, 0, 32, dv, NULL),
                     CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_radix_sort_mem_scratch(ctx, dk, dv, 64, 32, 32, 0, 32, NULL, dk),
                     CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(clsa_last_error(ctx), "scratch_values"));
    clsa__free(ctx, &dk);
    clsa__free(ctx, &dv);
    clsa__free(ctx, &sk);
    /* n = 0 with NULL arrays, empty range: nothing to do. */
    TU_OK(ctx, clsa_radix_sort_u32(ctx, NULL, NULL, 0, 0, 32));
    TU_OK(ctx, clsa_radix_sort_u32(ctx, k, v, 2, 5, 5));
    assert_int_equal(k[0], 2);
    TU_OK(ctx, clsa_radix_sort_u32(ctx, k, NULL, 2, 0, 32));
    assert_int_equal(k[0], 1);
}

int main(void)
{
    /* Under Oclgrind, tiles of 64 keys: small inputs still span several. */
    if (tu_small() && !getenv("CLSA_TUNE")) setenv("CLSA_TUNE", "sort_wg=32,radix_items=2", 1);
    ctx = tu_context();
    tuned_items = ctx->tune.radix_items;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lengths_and_patterns), cmocka_unit_test(small_cases),
        cmocka_unit_test(bit_ranges),
        cmocka_unit_test(large), cmocka_unit_test(device_buffers), cmocka_unit_test(bad_args),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
