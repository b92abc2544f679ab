/* The BWT by buckets over a difference-cover sample (host/index/dc_bwt.c,
 * CLSA_TUNE dc_bwt=2 forces it at any size): byte for byte and primary
 * index against the host's libdivsufsort BWT, on texts of few symbols
 * (DNA with N runs and lower case, repeats, runs of one symbol, periodic
 * texts, every length up to 40) under bucket caps that make one bucket,
 * a few, or one bucket a bin; a text of 16 symbols is declined and
 * takes the suffix array's route.  The FM-index and bwa's index files
 * made by the route are the same bytes as made from the suffix array. */
#include "cli_util.h"
#include "clsa_fm.h"

typedef enum { DNA, GENOME, RUNS, PERIODIC, REPEATS, WIDE, SIXTEEN } kind;

static void fill(uint8_t *t, size_t n, kind k, uint64_t seed)
{
    tu_rng r = {seed};
    static const char dna[] = "ACGT", mix[] = "ACGTNacgtn";
    for (size_t i = 0; i < n; i++) {
        switch (k) {
        case DNA: t[i] = (uint8_t)dna[tu_below(&r, 4)]; break;
        case GENOME: t[i] = (uint8_t)mix[tu_below(&r, 100) < 8 ? 4 + tu_below(&r, 6) : tu_below(&r, 4)]; break;
        case RUNS: t[i] = (uint8_t)(i % 97 < 80 ? 'N' : dna[tu_below(&r, 4)]); break;
        case PERIODIC: t[i] = (uint8_t)dna[(i % 5) % 4]; break;
        case REPEATS: t[i] = i < n / 3 + 1 || tu_below(&r, 50) == 0
                                 ? (uint8_t)dna[tu_below(&r, 4)] : t[i % (n / 3 + 1)];
            break;
        case WIDE: t[i] = (uint8_t)('a' + tu_below(&r, 15)); break;
        case SIXTEEN: t[i] = (uint8_t)('a' + tu_below(&r, 16)); break;
        }
    }
}

/* The BWT of t on ctx against the host's. */
static void check(clsa_context *ctx, const uint8_t *t, size_t n)
{
    uint8_t *got = tu_malloc(n + 1), *want = tu_malloc(n + 1);
    int64_t pg = -1, pw = -2;
    assert_int_equal(clsa_bwt(NULL, t, want, (int64_t)n, &pw), CLSA_OK);
    TU_OK(ctx, clsa_bwt(ctx, t, got, (int64_t)n, &pg));
    assert_int_equal(pg, pw);
    assert_memory_equal(got, want, n);
    free(got);
    free(want);
}

static void one(clsa_context *ctx, kind k, size_t n, uint64_t seed)
{
    uint8_t *t = tu_malloc(n + 1);
    fill(t, n, k, seed);
    check(ctx, t, n);
    free(t);
}

/* Every length up to 40 and a few kinds, under caps of 0 (one bucket as
 * the device holds), 7 and 1 (a bin a bucket). */
static void short_texts(void **state)
{
    (void)state;
    static const char *tunes[] = {"dc_bwt=2", "dc_bwt=2,dc_bwt_bucket=7",
                                  "dc_bwt=2,dc_bwt_bucket=1"};
    for (size_t c = tu_lean() ? 2 : 0; c < 3; c++) { /* Oclgrind: the bin-a-bucket cap */
        clsa_context *ctx = tu_context_tuned(tunes[c], 1);
        size_t top = tu_lean() ? 8 : 40;
        for (size_t n = 1; n <= top; n++) one(ctx, (kind)(n % 5), n, 17 * n + c);
        assert_true(tu_kernel_ran(ctx, "dcb_merge"));
        clsa_destroy(ctx);
    }
}

/* Longer texts of each kind: prefix groups merged across classes. */
static void kinds(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context_tuned("dc_bwt=2,dc_bwt_bucket=300", 1);
    size_t n = tu_sizes(20000, 3000, 700);
    for (int k = tu_lean() ? GENOME : DNA; k <= (tu_lean() ? RUNS : WIDE); k++)
        one(ctx, (kind)k, n, 100 + (uint64_t)k);
    assert_true(tu_kernel_ran(ctx, "dcb_merge"));
    clsa_destroy(ctx);
    if (tu_lean()) return;
    ctx = tu_context_tuned("dc_bwt=2", 0);
    for (int k = DNA; k <= WIDE; k++) one(ctx, (kind)k, tu_size(200000, 20000), 200 + (uint64_t)k);
    clsa_destroy(ctx);
}

/* Sixteen symbols do not fit the 4-bit codes: the suffix array's route. */
static void declined(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context_tuned("dc_bwt=2", 1);
    one(ctx, SIXTEEN, tu_sizes(5000, 1000, 300), 7);
    assert_false(tu_kernel_ran(ctx, "dcb_merge"));
    clsa_destroy(ctx);
}

/* The file at path, removed. */
static uint8_t *slurp(const char *path, size_t *len)
{
    uint8_t *d = read_file(path, len);
    remove(path);
    return d;
}

static uint8_t *saved(clsa_fm *fm, const char *tag, size_t *len)
{
    char path[256];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/clsa-dc-bwt-%d-%s", dir && *dir ? dir : "/tmp", (int)getpid(),
             tag);
    assert_int_equal(clsa_fm_save(fm, path), CLSA_OK);
    return slurp(path, len);
}

/* The FM-index by this route (its BWT and sampled rows) saves the same
 * bytes as by the suffix array's, at sample rates 1, 5 and 32. */
static void fm_index(void **state)
{
    (void)state;
    clsa_context *dc = tu_context_tuned("dc_bwt=2,dc_bwt_bucket=200", 1);
    clsa_context *ref = tu_context_tuned("dc_bwt=0", 0);
    static const int64_t rates[] = {1, 5, 32};
    size_t sizes[] = {tu_sizes(5000, 1500, 300), 1, 2, 7, 64};
    size_t ns = tu_lean() ? 1 : sizeof sizes / sizeof sizes[0]; /* Oclgrind: one, rate 5 */
    for (size_t i = 0; i < ns; i++)
        for (size_t r = tu_lean(); r < (tu_lean() ? 2u : 3u); r++) {
            size_t n = sizes[i], la, lb;
            uint8_t *t = tu_malloc(n + 1);
            fill(t, n, (kind)((i + r) % 5), 300 + i * 3 + r);
            clsa_fm *a = NULL, *b = NULL;
            TU_OK(dc, clsa_fm_create(dc, t, (int64_t)n, rates[r], &a));
            TU_OK(ref, clsa_fm_create(ref, t, (int64_t)n, rates[r], &b));
            uint8_t *da = saved(a, "a", &la), *db = saved(b, "b", &lb);
            assert_int_equal(la, lb);
            assert_memory_equal(da, db, la);
            free(da), free(db), free(t);
            clsa_fm_free(a);
            clsa_fm_free(b);
        }
    assert_true(tu_kernel_ran(dc, "dcb_merge"));
    clsa_destroy(dc);
    clsa_destroy(ref);
}

/* bwa's five files of fasta on ctx under prefix PREFIX-tag. */
static void bwa_files(clsa_context *ctx, const char *fasta, const char *tag, char *prefix,
                      size_t cap)
{
    const char *dir = getenv("TMPDIR");
    snprintf(prefix, cap, "%s/clsa-dc-bwa-%d-%s", dir && *dir ? dir : "/tmp", (int)getpid(), tag);
    mem_input m = {fasta, strlen(fasta)};
    TU_OK(ctx, clsa_bwa_index(ctx, mem_read, &m, "mem.fa", prefix));
}

/* bwa's index files by this route (the BWT and .sa's rows, by row, of the
 * forward and reverse-complement text) are the same bytes as by the
 * suffix array's. */
static void bwa_index(void **state)
{
    (void)state;
    clsa_context *dc = tu_context_tuned("dc_bwt=2,dc_bwt_bucket=500", 1);
    clsa_context *ref = tu_context_tuned("dc_bwt=0", 0);
    size_t n = tu_sizes(6000, 1500, 400), at = 0;
    char *fa = tu_malloc(2 * n + 200), pa[256], pb[256];
    uint8_t *seq = tu_malloc(n + 1);
    fill(seq, n, REPEATS, 77);
    for (int r = 0; r < 2; r++) {
        at += (size_t)sprintf(fa + at, ">r%d x\n", r);
        for (size_t i = r ? n / 2 : 0; i < (r ? n : n / 2); i++) {
            fa[at++] = i % 97 == 5 ? 'N' : (char)seq[i];
            if (i % 60 == 59) fa[at++] = '\n';
        }
        fa[at++] = '\n';
    }
    fa[at] = 0;
    bwa_files(dc, fa, "a", pa, sizeof pa);
    bwa_files(ref, fa, "b", pb, sizeof pb);
    static const char *ext[] = {".bwt", ".sa", ".pac", ".ann", ".amb"};
    for (int e = 0; e < 5; e++) {
        char fa_path[300], fb_path[300];
        snprintf(fa_path, sizeof fa_path, "%s%s", pa, ext[e]);
        snprintf(fb_path, sizeof fb_path, "%s%s", pb, ext[e]);
        size_t la, lb;
        uint8_t *da = slurp(fa_path, &la), *db = slurp(fb_path, &lb);
        assert_int_equal(la, lb);
        assert_memory_equal(da, db, la);
        free(da), free(db);
    }
    assert_true(tu_kernel_ran(dc, "dcb_merge"));
    free(fa), free(seq);
    clsa_destroy(dc);
    clsa_destroy(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(short_texts),
        cmocka_unit_test(kinds),
        cmocka_unit_test(declined),
        cmocka_unit_test(fm_index),
        cmocka_unit_test(bwa_index),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
