/* Scan and stream compaction against a CPU reference, on the device under test. */
#include "testutil.h"
#include "runtime.h"

static clsa_context *ctx;

/* On the context as it is (its tuning may be set by the caller). */
static void check_scan_in(size_t n, uint64_t seed, uint32_t range, int inclusive)
{
    tu_rng r = {seed};
    uint32_t *in = tu_malloc(n * 4), *out = tu_malloc(n * 4);
    for (size_t i = 0; i < n; i++) in[i] = range ? tu_below(&r, range) : (uint32_t)tu_next(&r);
    TU_OK(ctx, clsa_scan_u32(ctx, in, out, n, inclusive));
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t want = inclusive ? s + in[i] : s;
        if (out[i] != want) fail_msg("n=%zu incl=%d: out[%zu]=%u want %u", n, inclusive, i, out[i], want);
        s += in[i];
    }
    /* in place */
    uint32_t last = n ? out[n - 1] : 0;
    TU_OK(ctx, clsa_scan_u32(ctx, in, in, n, inclusive));
    if (n) assert_int_equal(in[n - 1], last);
    free(in);
    free(out);
}

static void check_scan(size_t n, uint64_t seed, uint32_t range, int inclusive)
{
    check_scan_in(n, seed, range, inclusive);
}

static void scan_lengths(void **state)
{
    (void)state;
    size_t lens[] = {0, 1, 2, 3, 255, 256, 257, 1000, 4095, 4096, 4097, 65537, 1000003};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        if (tu_small() && lens[i] > 5000) continue;
        check_scan(lens[i], 11 + i, 100, 0);
        check_scan(lens[i], 29 + i, 0, 1); /* full-range values: wrap-around mod 2^32 */
    }
}

/* The three multi-tile forms: one work-group looping over the tiles
 * (scan_serial, the default up to tune.scan_serial values), the tiled
 * reduce-then-scan whose downsweep adds up the tile sums itself (up to
 * tune.scan_sums_raw tiles) and the one that scans them in a launch of
 * their own, each forced on the same lengths, and a compaction (whose
 * scan reads its total) through each. */
static void check_compact(size_t n, uint64_t seed, uint32_t density);
static void scan_forms(void **state)
{
    (void)state;
    size_t lens[] = {4097, 20000, 32768, 32769, 131073};
    for (int form = 0; form < 3; form++)
        for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
            if (tu_small() && lens[i] > 5000) continue;
            clsa_tuning saved = ctx->tune;
            ctx->tune.scan_serial = form == 1 ? (size_t)1 << 20 : 0;
            ctx->tune.scan_sums_raw = form == 2 ? (size_t)1 << 20 : 0;
            check_scan_in(lens[i], 41 + i, 3, form % 2);
            check_scan_in(lens[i], 53 + i, 0, !(form % 2));
            check_compact(lens[i], 67 + i, 40);
            ctx->tune = saved;
        }
}

/* The "huge" cases: more than 2^27 elements, as the issue asks, for
 * several levels of the scan's recursion (tiles of wg * scan_items).  A
 * device that cannot hold bytes_per bytes of each gets the most it holds
 * (rusticl's llvmpipe reports 2 GiB).  Under Oclgrind, where 2^27 would take
 * hours, tiles of 32 values with the one-work-group scan off give as many
 * levels over 32^3 + extra values (*saved: the tuning to restore). */
static size_t huge_len(size_t extra, size_t bytes_per, clsa_tuning *saved)
{
    *saved = ctx->tune;
    if (tu_small()) {
        ctx->tune.wg = 16;
        ctx->tune.scan_items = 2;
        ctx->tune.scan_serial = 0;
        return (size_t)32 * 32 * 32 + extra;
    }
    size_t n = ((size_t)1 << 27) + extra;
    clsa_device_info info;
    TU_OK(ctx, clsa_get_device_info(ctx, &info));
    if (info.global_mem / bytes_per < n) {
        n = (size_t)(info.global_mem / bytes_per) / 4096 * 4096 + extra;
        fprintf(stderr, "huge case: the device holds %llu bytes: %zu values\n",
                (unsigned long long)info.global_mem, n);
    }
    return n;
}

static void scan_huge(void **state)
{
    (void)state;
    clsa_tuning saved;
    size_t n = huge_len(12345, 12, &saved);
    uint32_t *in = tu_malloc(n * 4);
    for (size_t i = 0; i < n; i++) in[i] = (uint32_t)(i * 2654435761u) >> 29;
    uint32_t *out = tu_malloc(n * 4);
    TU_OK(ctx, clsa_scan_u32(ctx, in, out, n, 0));
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++) {
        if (out[i] != s) fail_msg("out[%zu]=%u want %u", i, out[i], s);
        s += in[i];
    }
    free(in);
    free(out);
    ctx->tune = saved;
}

static void check_compact(size_t n, uint64_t seed, uint32_t density)
{
    tu_rng r = {seed};
    uint32_t *in = tu_malloc(n * 4), *fl = tu_malloc(n * 4), *out = tu_malloc(n * 4);
    for (size_t i = 0; i < n; i++) {
        in[i] = (uint32_t)tu_next(&r);
        fl[i] = tu_below(&r, 100) < density ? (uint32_t)tu_next(&r) | 1u : 0;
    }
    size_t count = 12345;
    TU_OK(ctx, clsa_compact_u32(ctx, in, fl, n, out, &count));
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (fl[i]) {
            if (k >= count || out[k] != in[i]) fail_msg("n=%zu: mismatch at %zu", n, k);
            k++;
        }
    assert_int_equal(k, count);
    free(in);
    free(fl);
    free(out);
}

static void compact_cases(void **state)
{
    (void)state;
    size_t lens[] = {0, 1, 2, 255, 256, 257, 4097, 100000, 3000001};
    uint32_t dens[] = {0, 1, 50, 100};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++)
        for (size_t d = 0; d < 4; d++) {
            if (tu_small() && lens[i] > 5000) continue;
            check_compact(lens[i], 100 * i + d, dens[d]);
        }
}

static void compact_huge(void **state)
{
    (void)state;
    clsa_tuning saved;
    check_compact(huge_len(3, 20, &saved), 7, 30);
    ctx->tune = saved;
}

/* The single-pass scan of flags (scan_onepass), forced on compactions:
 * with the tiles' walks as they come, and with one tile faulting (tune
 * scan_fault: it and every tile whose walk meets it write nothing, and
 * the host redoes them from the tiles' sums).  Tiles of 64 x 4 values
 * (16 x 2 under Oclgrind). */
static void compact_onepass(void **state)
{
    (void)state;
    size_t lens[] = {3000, 4097, 20000, 65537, 300001};
    unsigned faults[] = {0, 2, 5};
    clsa_context *plain = ctx;
    ctx = tu_context_opts(1); /* profiled: which kernels ran */
    for (size_t f = 0; f < 3; f++)
        for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
            if (tu_small() && (lens[i] > 5000 || (i + f) % 2)) continue;
            clsa_tuning saved = ctx->tune;
            ctx->tune.scan_onepass = 1;
            ctx->tune.scan_fault = faults[f];
            ctx->tune.scan_serial = 0;
            ctx->tune.wg = tu_small() ? 16 : 64;
            ctx->tune.scan_items = tu_small() ? 2 : 4;
            clsa_reset_stats(ctx);
            check_compact(lens[i], 300 + 10 * i + f, (uint32_t)(20 + 30 * f));
            if (!tu_kernel_ran(ctx, "scan_onepass")) fail_msg("n=%zu: no single pass", lens[i]);
            if (faults[f] && !tu_kernel_ran(ctx, "scan_onepass_sums"))
                fail_msg("n=%zu: fault at tile %u not repaired", lens[i], faults[f] - 1);
            ctx->tune = saved;
        }
    clsa_destroy(ctx);
    ctx = plain;
}

static void bad_args(void **state)
{
    (void)state;
    uint32_t x = 1;
    assert_int_equal(clsa_scan_u32(ctx, NULL, &x, 1, 0), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_scan_u32(NULL, &x, &x, 1, 0), CLSA_ERR_INVALID_ARG);
    size_t c;
    assert_int_equal(clsa_compact_u32(ctx, &x, NULL, 1, &x, &c), CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(clsa_last_error(ctx), "NULL"));
}

int main(void)
{
    ctx = tu_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scan_lengths), cmocka_unit_test(scan_forms), cmocka_unit_test(scan_huge),
        cmocka_unit_test(compact_cases), cmocka_unit_test(compact_huge),
        cmocka_unit_test(compact_onepass),
        cmocka_unit_test(bad_args),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clsa_destroy(ctx);
    return rc;
}
