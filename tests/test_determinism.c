/* Determinism: the same input gives byte-identical outputs on every
 * implementation.  For fixed inputs, the suffix array (32 and 64 bit) and,
 * once the library has them, the ISA, BWT and LCP are computed on the device
 * under test, hashed (FNV-1a 64 over the little-endian bytes), and compared
 * with the hash of the host reference (libdivsufsort, divbwt, Kasai), which
 * is the same on every machine.  Each run also repeats the computation in
 * the same and in a fresh context.  The hashes are printed as
 *   DETERMINISM <input> <output> <hash>
 * lines, so runs on different machines (the GPU one) can be diffed. */
#include "testutil.h"
#include "gen.h"

#include <divsufsort.h>

#pragma weak clsa_bwt
#pragma weak clsa_lcp32
#pragma weak clsa_isa32

static uint64_t fnv(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Hash of n integers as little-endian `width`-byte values. */
static uint64_t hash_ints(const void *v, size_t n, int width)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = width == 4 ? (uint64_t)(uint32_t)((const int32_t *)v)[i]
                                : (uint64_t)((const int64_t *)v)[i];
        for (int b = 0; b < width; b++) {
            h ^= (uint8_t)(x >> (8 * b));
            h *= 0x100000001b3ull;
        }
    }
    return h;
}

typedef struct input {
    const char *spec;
    size_t n, n_small, n_lean;
    uint64_t seed;
} input;

/* n_small = 0: not on small inputs (slow under Oclgrind; the others cover
 * it); n_lean = 0: not in lean mode (Oclgrind), where the all-equal text
 * and 144 symbols of Fibonacci launch every kernel the small inputs do. */
static const input inputs[] = {
    {"random:4", 20000, 300, 0, 1},     {"random:256", 8193, 0, 0, 2},
    {"equal", 5000, 200, 200, 0},       {"periodic:5", 10000, 0, 0, 0},
    {"fibonacci", 10946, 233, 144, 0}, {"thue-morse", 8192, 0, 0, 0},
    {"mutated:1000", 20000, 0, 0, 7},   {"random:2", 1, 1, 1, 3},
    {"random:3", 2, 0, 0, 4},
};

static void report(const char *spec, const char *what, uint64_t got, uint64_t want)
{
    printf("DETERMINISM %s %s %016llx\n", spec, what, (unsigned long long)got);
    if (got != want)
        fail_msg("%s: %s hash %016llx differs from the host reference %016llx", spec, what,
                 (unsigned long long)got, (unsigned long long)want);
}

static void one_input(clsa_context **ctx, const input *in)
{
    gen_kind kind;
    unsigned param;
    assert_int_equal(gen_parse(in->spec, &kind, &param), 0);
    size_t n = tu_sizes(in->n, in->n_small, in->n_lean);
    if (n == 0) return;
    uint8_t *t = tu_malloc(n), *bwt = tu_malloc(n), *rbwt = tu_malloc(n);
    int32_t *ref = tu_malloc(n * 4), *sa = tu_malloc(n * 4), *aux = tu_malloc(n * 4),
            *rlcp = tu_malloc(n * 4);
    int64_t *sa64 = tu_malloc(n * 8);
    gen_fill(t, n, kind, param, in->seed);
    assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
    char label[64];
    snprintf(label, sizeof label, "%s/n=%zu", in->spec, n);
    printf("DETERMINISM %s text %016llx\n", label, (unsigned long long)fnv(t, n));

    uint64_t want = hash_ints(ref, n, 4);
    TU_OK(*ctx, clsa_sa32(*ctx, t, sa, (int64_t)n));
    report(label, "sa32", hash_ints(sa, n, 4), want);
    TU_OK(*ctx, clsa_sa32(*ctx, t, sa, (int64_t)n)); /* again, same context */
    report(label, "sa32-again", hash_ints(sa, n, 4), want);
    TU_OK(*ctx, clsa_sa64(*ctx, t, sa64, (int64_t)n));
    uint64_t got64 = hash_ints(sa64, n, 8);
    for (size_t i = 0; i < n; i++) sa64[i] = ref[i];
    report(label, "sa64", got64, hash_ints(sa64, n, 8));
    if (clsa_isa32) {
        for (size_t i = 0; i < n; i++) aux[ref[i]] = (int32_t)i;
        TU_OK(*ctx, clsa_isa32(*ctx, t, sa, (int64_t)n));
        report(label, "isa32", hash_ints(sa, n, 4), hash_ints(aux, n, 4));
    }
    if (clsa_bwt) {
        int64_t primary = -1;
        int64_t rprimary = n ? divbwt(t, rbwt, aux, (saidx_t)n) : 0;
        TU_OK(*ctx, clsa_bwt(*ctx, t, bwt, (int64_t)n, &primary));
        if (primary != rprimary) fail_msg("%s: primary %lld, want %lld", label, (long long)primary, (long long)rprimary);
        report(label, "bwt", fnv(bwt, n) ^ (uint64_t)primary, fnv(rbwt, n) ^ (uint64_t)rprimary);
    }
    if (clsa_lcp32) {
        tu_kasai32(t, ref, rlcp, aux, n);
        TU_OK(*ctx, clsa_lcp32(*ctx, t, sa, (int64_t)n));
        report(label, "lcp32", hash_ints(sa, n, 4), hash_ints(rlcp, n, 4));
    }
    /* A fresh context gives the same. */
    clsa_destroy(*ctx);
    *ctx = tu_context();
    TU_OK(*ctx, clsa_sa32(*ctx, t, sa, (int64_t)n));
    report(label, "sa32-fresh-context", hash_ints(sa, n, 4), want);
    fflush(stdout);
    free(t);
    free(bwt);
    free(rbwt);
    free(ref);
    free(sa);
    free(aux);
    free(rlcp);
    free(sa64);
}

static void fixed_inputs(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context();
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) one_input(&ctx, &inputs[i]);
    clsa_destroy(ctx);
}

int main(void)
{
    clsa_device_info info;
    clsa_context *probe = tu_context();
    if (clsa_get_device_info(probe, &info) == CLSA_OK)
        printf("DETERMINISM device %s | %s | %s\n", info.platform, info.name, info.driver);
    clsa_destroy(probe);
    const struct CMUnitTest tests[] = {cmocka_unit_test(fixed_inputs)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
