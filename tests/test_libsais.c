/* clsa's libsais API (compat/libsais) against libsais's semantics: the
 * suffix array and BWT against libdivsufsort (libsais_bwt's layout and
 * primary index are divbwt's), bwt_aux's samples and the GSA against naive
 * definitions, unbwt by round trips, PLCP/LCP against the common prefixes
 * of neighbouring suffixes; the 8- and 16-bit families in both index
 * widths, and libsais's return codes for bad arguments.
 *
 * CLSA_COMPAT_MIN_BYTES (set here before the first call) splits the run:
 * thousands of inputs below it take the CPU path, a few at or above it the
 * device of the implementation under test (small under Oclgrind), checked
 * to have launched kernels.  No clsa symbol is called from here: the
 * library's own clsa (in libclsa_compat) is asked through dlsym. */
#include "testutil.h"

#include <dlfcn.h>
#include <pthread.h>

#include <divsufsort.h>
#include <divsufsort64.h>

#include "gen.h"
#include "libsais.h"
#include "libsais16.h"
#include "libsais16x64.h"
#include "libsais64.h"

/* Inputs shorter than this run on the CPU, the rest on the device. */
static int64_t min_device(void)
{
    return tu_small() ? 64 : 1500;
}

/* ---- references -------------------------------------------------------- */

/* Suffix order of an integer text (naive: symbol by symbol). */
static const int64_t *cmp_text;
static int64_t cmp_n;
static int cmp_suffix(const void *a, const void *b)
{
    int64_t i = *(const int64_t *)a, j = *(const int64_t *)b;
    for (; i < cmp_n && j < cmp_n; i++, j++)
        if (cmp_text[i] != cmp_text[j]) return cmp_text[i] < cmp_text[j] ? -1 : 1;
    return i == cmp_n ? -1 : 1;
}

static void naive_sa(const int64_t *t, int64_t n, int64_t *sa)
{
    for (int64_t i = 0; i < n; i++) sa[i] = i;
    cmp_text = t;
    cmp_n = n;
    qsort(sa, (size_t)n, sizeof *sa, cmp_suffix);
}

/* The GSA's order as integers: separator j -> j, symbol b -> separators + b
 * (in place over a widened text). */
static void gsa_symbols(int64_t *s, int64_t n)
{
    int64_t seps = 0;
    for (int64_t i = 0; i < n; i++) seps += !s[i];
    for (int64_t i = 0, j = 0; i < n; i++) s[i] = s[i] ? seps + s[i] : j++;
}

static int64_t *widen8(const uint8_t *t, int64_t n)
{
    int64_t *w = tu_malloc((size_t)n * 8 + 8);
    for (int64_t i = 0; i < n; i++) w[i] = t[i];
    return w;
}

static int64_t *widen16(const uint16_t *t, int64_t n)
{
    int64_t *w = tu_malloc((size_t)n * 8 + 8);
    for (int64_t i = 0; i < n; i++) w[i] = t[i];
    return w;
}

/* I[k] = 1 + rank of suffix k * r. */
static void naive_aux(const int32_t *sa, int64_t n, int64_t r, int64_t *I)
{
    for (int64_t j = 0; j < n; j++)
        if (sa[j] % r == 0) I[sa[j] / r] = j + 1;
}

/* PLCP[sa[j]] = the common prefix of suffixes sa[j-1] and sa[j], compared
 * directly; gsa: a separator (0) matches nothing. */
static void naive_plcp(const int64_t *t, const int32_t *sa, int32_t n, int gsa, int32_t *plcp)
{
    for (int32_t j = 0; j < n; j++) {
        int32_t l = 0;
        if (j > 0)
            while (sa[j] + l < n && sa[j - 1] + l < n && t[sa[j] + l] == t[sa[j - 1] + l] &&
                   !(gsa && t[sa[j] + l] == 0))
                l++;
        plcp[sa[j]] = l;
    }
}

/* ---- checks of one byte text -------------------------------------------- */

static void check_sa(const uint8_t *t, int32_t n, const int32_t *ref)
{
    int32_t *sa = tu_malloc((size_t)n * 4 + 4), freq[256], want[256] = {0};
    int64_t *sa64 = tu_malloc((size_t)n * 8 + 8), freq64[256];
    for (int32_t i = 0; i < n; i++) want[t[i]]++;
    assert_int_equal(libsais(t, sa, n, 0, freq), 0);
    assert_memory_equal(sa, ref, (size_t)n * 4);
    assert_memory_equal(freq, want, sizeof want);
    assert_int_equal(libsais_omp(t, sa, n, 3, NULL, 4), 0);
    assert_memory_equal(sa, ref, (size_t)n * 4);
    assert_int_equal(libsais64(t, sa64, n, 0, freq64), 0);
    for (int32_t i = 0; i < n; i++) assert_int_equal(sa64[i], ref[i]);
    for (int c = 0; c < 256; c++) assert_int_equal(freq64[c], want[c]);
    free(sa);
    free(sa64);
}

/* libsais_bwt = divbwt (U[0] = T[n-1], $ left out, primary = 1 + rank of
 * suffix 0), in place too; unbwt turns it back. */
static void check_bwt(const uint8_t *t, int32_t n)
{
    uint8_t *ref = tu_malloc((size_t)n), *u = tu_malloc((size_t)n), *back = tu_malloc((size_t)n);
    int32_t *a = tu_malloc((size_t)n * 4 + 8);
    int64_t *a64 = tu_malloc((size_t)n * 8 + 16);
    int32_t primary = divbwt(t, ref, NULL, n);
    assert_int_equal(libsais_bwt(t, u, a, n, 0, NULL), primary);
    assert_memory_equal(u, ref, (size_t)n);
    memcpy(u, t, (size_t)n);
    assert_int_equal(libsais_bwt_omp(u, u, a, n, 0, NULL, 2), primary);
    assert_memory_equal(u, ref, (size_t)n);
    assert_int_equal(libsais64_bwt(t, u, a64, n, 0, NULL), primary);
    assert_memory_equal(u, ref, (size_t)n);
    assert_int_equal(libsais_unbwt(ref, back, a, n, NULL, primary), 0);
    assert_memory_equal(back, t, (size_t)n);
    memcpy(u, ref, (size_t)n);
    assert_int_equal(libsais64_unbwt(u, u, a64, n, NULL, primary), 0);
    assert_memory_equal(u, t, (size_t)n);
    free(ref);
    free(u);
    free(back);
    free(a);
    free(a64);
}

/* bwt_aux: the same BWT, I[k] = 1 + rank of suffix k*r, and unbwt_aux. */
static void check_aux(const uint8_t *t, int32_t n, const int32_t *sa, int32_t r)
{
    int32_t m = (n - 1) / r + 1, *a = tu_malloc((size_t)n * 4 + 8), *I = tu_malloc((size_t)m * 4);
    int64_t *a64 = tu_malloc((size_t)n * 8 + 16), *I64 = tu_malloc((size_t)m * 8);
    int64_t *want = tu_malloc((size_t)m * 8);
    uint8_t *ref = tu_malloc((size_t)n), *u = tu_malloc((size_t)n);
    divbwt(t, ref, NULL, n);
    naive_aux(sa, n, r, want);
    assert_int_equal(libsais_bwt_aux(t, u, a, n, 0, NULL, r, I), 0);
    assert_memory_equal(u, ref, (size_t)n);
    for (int32_t k = 0; k < m; k++) assert_int_equal(I[k], want[k]);
    assert_int_equal(libsais64_bwt_aux(t, u, a64, n, 0, NULL, r, I64), 0);
    assert_memory_equal(u, ref, (size_t)n);
    assert_memory_equal(I64, want, (size_t)m * 8);
    assert_int_equal(libsais_unbwt_aux(ref, u, a, n, NULL, r, I), 0);
    assert_memory_equal(u, t, (size_t)n);
    assert_int_equal(libsais64_unbwt_aux(ref, u, a64, n, NULL, r, I64), 0);
    assert_memory_equal(u, t, (size_t)n);
    free(a);
    free(I);
    free(a64);
    free(I64);
    free(want);
    free(ref);
    free(u);
}

/* PLCP against the naive one, LCP = PLCP[SA[j]] (also in place over SA). */
static void check_lcp(const uint8_t *t, int32_t n, const int32_t *sa, int gsa)
{
    int32_t *plcp = tu_malloc((size_t)n * 4 + 4), *want = tu_malloc((size_t)n * 4 + 4);
    int32_t *lcp = tu_malloc((size_t)n * 4 + 4);
    int64_t *sa64 = tu_malloc((size_t)n * 8 + 8), *p64 = tu_malloc((size_t)n * 8 + 8);
    int64_t *w = widen8(t, n);
    naive_plcp(w, sa, n, gsa, want);
    free(w);
    assert_int_equal((gsa ? libsais_plcp_gsa : libsais_plcp)(t, sa, plcp, n), 0);
    assert_memory_equal(plcp, want, (size_t)n * 4);
    memcpy(lcp, sa, (size_t)n * 4);
    assert_int_equal(libsais_lcp_omp(plcp, lcp, lcp, n, 0), 0);
    for (int32_t j = 0; j < n; j++) assert_int_equal(lcp[j], want[sa[j]]);
    for (int32_t j = 0; j < n; j++) sa64[j] = sa[j];
    assert_int_equal((gsa ? libsais64_plcp_gsa : libsais64_plcp)(t, sa64, p64, n), 0);
    for (int32_t j = 0; j < n; j++) assert_int_equal(p64[j], want[j]);
    assert_int_equal(libsais64_lcp(p64, sa64, sa64, n), 0);
    for (int32_t j = 0; j < n; j++) assert_int_equal(sa64[j], want[sa[j]]);
    free(plcp);
    free(want);
    free(lcp);
    free(sa64);
    free(p64);
}

/* Every byte-text function on t[0..n). */
static void check_bytes(const uint8_t *t, int32_t n, int32_t r)
{
    int32_t *ref = tu_malloc((size_t)n * 4 + 4);
    assert_int_equal(divsufsort(t, ref, n), 0);
    check_sa(t, n, ref);
    if (n > 0) {
        check_bwt(t, n);
        check_aux(t, n, ref, r);
    }
    check_lcp(t, n, ref, 0);
    free(ref);
}

/* GSA of t (T[n-1] = 0, no empty string) against the naive order. */
static void check_gsa(const uint8_t *t, int32_t n)
{
    int64_t *sym = widen8(t, n), *want = tu_malloc((size_t)n * 8), *sa64;
    gsa_symbols(sym, n);
    int32_t *sa = tu_malloc((size_t)n * 4), freq[256], cnt[256] = {0};
    sa64 = tu_malloc((size_t)n * 8);
    naive_sa(sym, n, want);
    for (int32_t i = 0; i < n; i++) cnt[t[i]]++;
    assert_int_equal(libsais_gsa(t, sa, n, 0, freq), 0);
    for (int32_t j = 0; j < n; j++) assert_int_equal(sa[j], want[j]);
    assert_memory_equal(freq, cnt, sizeof cnt);
    assert_int_equal(libsais64_gsa_omp(t, sa64, n, 0, NULL, 1), 0);
    assert_memory_equal(sa64, want, (size_t)n * 8);
    check_lcp(t, n, sa, 1);
    free(sym);
    free(want);
    free(sa);
    free(sa64);
}

/* Integer text of n symbols below k: libsais_int and libsais64_long (T
 * unchanged), PLCP of libsais_plcp_int against the naive order. */
static void check_int(const int32_t *t, int32_t n, int32_t k)
{
    int64_t *wide = tu_malloc((size_t)n * 8 + 8), *want = tu_malloc((size_t)n * 8 + 8);
    int64_t *sa64 = tu_malloc((size_t)n * 8 + 8);
    int32_t *copy = tu_malloc((size_t)n * 4 + 4), *sa = tu_malloc((size_t)n * 4 + 4);
    int32_t *plcp = tu_malloc((size_t)n * 4 + 4);
    for (int32_t i = 0; i < n; i++) wide[i] = t[i];
    naive_sa(wide, n, want);
    memcpy(copy, t, (size_t)n * 4);
    assert_int_equal(libsais_int(copy, sa, n, k, 0), 0);
    for (int32_t j = 0; j < n; j++) assert_int_equal(sa[j], want[j]);
    assert_memory_equal(copy, t, (size_t)n * 4);
    assert_int_equal(libsais64_long(wide, sa64, n, k, 0), 0);
    assert_memory_equal(sa64, want, (size_t)n * 8);
    assert_int_equal(libsais_plcp_int(t, sa, plcp, n), 0);
    for (int32_t j = 1; j < n; j++) {
        int32_t l = 0;
        while (sa[j] + l < n && sa[j - 1] + l < n && t[sa[j] + l] == t[sa[j - 1] + l]) l++;
        assert_int_equal(plcp[sa[j]], l);
    }
    free(wide);
    free(want);
    free(sa64);
    free(copy);
    free(sa);
    free(plcp);
}

/* ---- the 16-bit families -------------------------------------------------- */

/* BWT of the naive SA (U[0] = T[n-1], then T[sa[j]-1] for sa[j] != 0);
 * returns the primary index. */
static int32_t naive_bwt16(const uint16_t *t, const int64_t *sa, int32_t n, uint16_t *u)
{
    int32_t primary = 0, o = 1;
    u[0] = t[n - 1];
    for (int32_t j = 0; j < n; j++) {
        if (sa[j] == 0) primary = j + 1;
        else u[o++] = t[sa[j] - 1];
    }
    return primary;
}

/* libsais16 / libsais16x64: SA and freq, BWT (in place too), bwt_aux, the
 * round trips and PLCP; gsa: t is a string set (separator 0). */
static void check_u16(const uint16_t *t, int32_t n, int32_t r, int gsa)
{
    static int32_t freq[65536];
    int64_t *w = widen16(t, n), *want = tu_malloc((size_t)n * 8 + 8);
    int64_t *sa64 = tu_malloc((size_t)n * 8 + 8), *I64 = tu_malloc((size_t)n * 8 + 8);
    int32_t *sa = tu_malloc((size_t)n * 4 + 4), *I = tu_malloc((size_t)n * 4 + 4);
    int32_t *plcp = tu_malloc((size_t)n * 4 + 4), *ref_plcp = tu_malloc((size_t)n * 4 + 4);
    uint16_t *ref = tu_malloc((size_t)n * 2 + 2), *u = tu_malloc((size_t)n * 2 + 2);
    if (gsa) gsa_symbols(w, n);
    naive_sa(w, n, want);
    assert_int_equal((gsa ? libsais16_gsa : libsais16)(t, sa, n, 0, freq), 0);
    for (int32_t j = 0; j < n; j++) assert_int_equal(sa[j], want[j]);
    for (int32_t i = 0; i < n; i++) freq[t[i]]--;
    for (int32_t c = 0; c < 65536; c++) assert_int_equal(freq[c], 0);
    assert_int_equal((gsa ? libsais16x64_gsa : libsais16x64)(t, sa64, n, 0, NULL), 0);
    assert_memory_equal(sa64, want, (size_t)n * 8);
    for (int32_t i = 0; i < n; i++) w[i] = t[i];
    naive_plcp(w, sa, n, gsa, ref_plcp);
    assert_int_equal((gsa ? libsais16_plcp_gsa : libsais16_plcp)(t, sa, plcp, n), 0);
    assert_memory_equal(plcp, ref_plcp, (size_t)n * 4);
    assert_int_equal((gsa ? libsais16x64_plcp_gsa : libsais16x64_plcp)(t, sa64, I64, n), 0);
    for (int32_t i = 0; i < n; i++) assert_int_equal(I64[i], ref_plcp[i]);
    if (!gsa && n > 0) {
        int32_t primary = naive_bwt16(t, want, n, ref);
        assert_int_equal(libsais16_bwt(t, u, sa, n, 0, NULL), primary);
        assert_memory_equal(u, ref, (size_t)n * 2);
        memcpy(u, t, (size_t)n * 2);
        assert_int_equal(libsais16x64_bwt(u, u, sa64, n, 0, NULL), primary);
        assert_memory_equal(u, ref, (size_t)n * 2);
        assert_int_equal(libsais16_unbwt(ref, u, sa, n, NULL, primary), 0);
        assert_memory_equal(u, t, (size_t)n * 2);
        assert_int_equal(libsais16x64_bwt_aux(t, u, sa64, n, 0, NULL, r, I64), 0);
        assert_memory_equal(u, ref, (size_t)n * 2);
        for (int32_t j = 0; j < n; j++)
            if (want[j] % r == 0) assert_int_equal(I64[want[j] / r], j + 1);
        assert_int_equal(libsais16_bwt_aux(t, u, sa, n, 0, NULL, r, I), 0);
        assert_int_equal(libsais16x64_unbwt_aux(ref, u, sa64, n, NULL, r, I64), 0);
        assert_memory_equal(u, t, (size_t)n * 2);
        memcpy(u, ref, (size_t)n * 2);
        assert_int_equal(libsais16_unbwt_aux(u, u, sa, n, NULL, r, I), 0);
        assert_memory_equal(u, t, (size_t)n * 2);
    }
    free(w);
    free(want);
    free(sa64);
    free(I64);
    free(sa);
    free(I);
    free(plcp);
    free(ref_plcp);
    free(ref);
    free(u);
}

/* 16-bit inputs: random symbols over a small or the whole range, or
 * repeats; as a set, some symbols made separators (none adjacent). */
static void run_u16(int32_t lo, int32_t hi, int count, uint64_t seed0)
{
    uint16_t *t = tu_malloc((size_t)hi * 2);
    tu_rng rng = {seed0};
    for (int c = 0; c < count; c++) {
        int32_t n = lo + (int32_t)tu_below(&rng, (uint32_t)(hi - lo));
        uint32_t sigma = c % 3 == 0 ? 2 : c % 3 == 1 ? 5 : 65536;
        for (int32_t i = 0; i < n; i++)
            t[i] = (uint16_t)(c % 4 == 3 && i >= 8 ? t[i - 8] : 65535 - tu_below(&rng, sigma));
        check_u16(t, n, 2 << tu_below(&rng, 4), 0);
        if (n < 2) continue;
        for (int32_t i = 1; i < n - 1; i++)
            if (tu_below(&rng, 6) == 0 && t[i - 1]) t[i] = 0;
        t[n - 1] = 0;
        if (t[n - 2] == 0) t[n - 2] = 9;
        if (t[0] == 0) t[0] = 9;
        check_u16(t, n, 2, 1);
    }
    free(t);
}

/* ---- generated inputs ------------------------------------------------------ */

static const struct {
    gen_kind kind;
    unsigned param;
} kinds[] = {{GEN_RANDOM, 2},   {GEN_RANDOM, 4},      {GEN_RANDOM, 256},     {GEN_ALL_EQUAL, 0},
             {GEN_PERIODIC, 3}, {GEN_FIBONACCI, 0},  {GEN_THUE_MORSE, 0},   {GEN_MUTATED, 17}};
#define KINDS (sizeof kinds / sizeof kinds[0])

/* Input `seed` of length [lo, hi): a generated text. */
static int32_t gen_text(uint8_t *t, tu_rng *rng, int32_t lo, int32_t hi, uint64_t seed)
{
    int32_t n = lo + (int32_t)tu_below(rng, (uint32_t)(hi - lo));
    unsigned k = (unsigned)(seed % KINDS);
    gen_fill(t, (size_t)n, kinds[k].kind, kinds[k].param, seed);
    return n;
}

/* A string set: the text with some bytes made separators, none adjacent. */
static int32_t gen_set(uint8_t *t, tu_rng *rng, int32_t lo, int32_t hi, uint64_t seed)
{
    int32_t n = gen_text(t, rng, lo < 2 ? 2 : lo, hi, seed);
    for (int32_t i = 0; i < n; i++) t[i] = t[i] ? t[i] : 1;
    unsigned every = 2 + tu_below(rng, 12);
    for (int32_t i = 1; i < n - 1; i++)
        if (tu_below(rng, every) == 0 && t[i - 1]) t[i] = 0;
    t[n - 1] = 0;
    if (n > 1 && t[n - 2] == 0) t[n - 2] = 7;
    return n;
}

static void run_cases(int32_t lo, int32_t hi, int count, uint64_t seed0)
{
    uint8_t *t = tu_malloc((size_t)hi);
    int32_t *it = tu_malloc((size_t)hi * 4);
    tu_rng rng = {seed0};
    for (int c = 0; c < count; c++) {
        uint64_t seed = seed0 * 1000 + (uint64_t)c;
        int32_t n = gen_text(t, &rng, lo, hi, seed);
        check_bytes(t, n, 2 << tu_below(&rng, 5));
        n = gen_set(t, &rng, lo, hi, seed);
        check_gsa(t, n);
        int32_t k = c % 3 == 0 ? 2 : c % 3 == 1 ? 300 : INT32_MAX;
        n = lo + (int32_t)tu_below(&rng, (uint32_t)(hi - lo));
        for (int32_t i = 0; i < n; i++) it[i] = (int32_t)tu_below(&rng, (uint32_t)k);
        check_int(it, n, k);
    }
    free(t);
    free(it);
}

/* ---- tests ------------------------------------------------------------------- */

static void test_host_path(void **state)
{
    (void)state;
    run_cases(0, 8, 1500, 1);
    run_cases(8, (int32_t)min_device(), tu_small() ? 300 : 1000, 2);
    run_u16(0, 8, 200, 4);
    run_u16(8, (int32_t)min_device(), tu_small() ? 60 : 150, 5);
}

/* clsa_get_stats of the library's own context (libclsa_compat's). */
static uint64_t device_launches(void)
{
    void *lib = dlopen("libclsa_compat.so.0", RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(lib);
    void *(*context)(void) = (void *(*)(void))dlsym(lib, "clsa_compat_context");
    typedef int (*stats_fn)(void *, clsa_stats *);
    stats_fn stats = (stats_fn)dlsym(lib, "clsa_get_stats");
    assert_true(context && stats);
    clsa_stats s;
    void *ctx = context();
    assert_non_null(ctx);
    assert_int_equal(stats(ctx, &s), 0);
    dlclose(lib);
    return s.kernel_launches;
}

static void test_device_path(void **state)
{
    (void)state;
    int32_t lo = (int32_t)min_device();
    uint64_t before = device_launches(); /* opens the context */
    run_cases(lo, 2 * lo, tu_small() ? 1 : 4, 3);
    if (!tu_small()) run_u16(lo, 2 * lo, 3, 6);
    assert_true(device_launches() > before);
}

/* Callers on several threads at once, on both paths: each thread's
 * results against libdivsufsort. */
typedef struct thread_job {
    uint64_t seed;
    int bad;
} thread_job;

static void *thread_main(void *arg)
{
    thread_job *job = arg;
    /* under Oclgrind the threads stay on the CPU path: its simulator is slow */
    int32_t hi = (tu_small() ? 1 : 2) * (int32_t)min_device();
    uint8_t *t = malloc((size_t)hi), *u = malloc((size_t)hi), *ref_u = malloc((size_t)hi);
    int32_t *sa = malloc((size_t)hi * 4), *ref = malloc((size_t)hi * 4);
    tu_rng rng = {job->seed};
    for (int c = 0; c < (tu_small() ? 3 : 12) && t && u && ref_u && sa && ref; c++) {
        int32_t n = gen_text(t, &rng, 2, hi, job->seed * 100 + (uint64_t)c);
        divsufsort(t, ref, n);
        int32_t primary = divbwt(t, ref_u, NULL, n);
        job->bad += libsais(t, sa, n, 0, NULL) != 0 || memcmp(sa, ref, (size_t)n * 4);
        job->bad += libsais_bwt(t, u, sa, n, 0, NULL) != primary || memcmp(u, ref_u, (size_t)n);
    }
    free(t);
    free(u);
    free(ref_u);
    free(sa);
    free(ref);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    pthread_t th[4];
    thread_job jobs[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (thread_job){.seed = 70 + (uint64_t)i, .bad = 0};
        assert_int_equal(pthread_create(&th[i], NULL, thread_main, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(jobs[i].bad, 0);
    }
}

/* n = 0 and 1 as libsais answers them. */
static void test_edges(void **state)
{
    (void)state;
    uint8_t t[2] = {'x', 0}, u[2] = {0, 0};
    int32_t sa[2] = {-5, -5}, a[2], I[1] = {-5}, freq[256];
    int64_t sa64[2] = {-5, -5}, a64[2], I64[1] = {-5};
    assert_int_equal(libsais(t, sa, 0, 0, freq), 0);
    assert_int_equal(sa[0], -5);
    assert_int_equal(freq['x'], 0);
    assert_int_equal(libsais(t, sa, 1, 0, freq), 0);
    assert_int_equal(sa[0], 0);
    assert_int_equal(freq['x'], 1);
    assert_int_equal(libsais64(t, sa64, 1, 0, NULL), 0);
    assert_int_equal(sa64[0], 0);
    assert_int_equal(libsais_bwt(t, u, a, 0, 0, NULL), 0);
    assert_int_equal(libsais_bwt(t, u, a, 1, 0, NULL), 1);
    assert_int_equal(u[0], 'x');
    assert_int_equal(libsais64_bwt(t, u, a64, 1, 0, NULL), 1);
    assert_int_equal(libsais_bwt_aux(t, u, a, 1, 0, NULL, 4, I), 0);
    assert_int_equal(I[0], 1);
    assert_int_equal(libsais64_bwt_aux(t, u, a64, 0, 0, NULL, 4, I64), 0);
    assert_int_equal(I64[0], 0);
    assert_int_equal(libsais_unbwt_aux(t, u, a, 1, NULL, 2, I), 0);
    assert_int_equal(libsais_unbwt(t, u, a, 1, NULL, 0), -1); /* I[0] must be n */
    assert_int_equal(libsais_unbwt(t, u, a, 0, NULL, 0), 0);
    assert_int_equal(libsais_gsa(t + 1, sa, 1, 0, NULL), 0);
    assert_int_equal(libsais_plcp(t, sa, a, 1), 0);
    assert_int_equal(a[0], 0);
}

/* libsais's -1 for every bad argument, -2 for a NULL unbwt context. */
static void test_bad_args(void **state)
{
    (void)state;
    uint8_t t[8] = "banana", u[8], g[8] = {'a', 0, 0, 'b', 0};
    int32_t sa[9], a[9], I[8] = {1, 1, 1, 1}, bad[3] = {3, 0, 1};
    int64_t sa64[9], I64[8];
    void *ctx = libsais_create_ctx();
    assert_non_null(ctx);
    assert_int_equal(libsais(NULL, sa, 6, 0, NULL), -1);
    assert_int_equal(libsais(t, NULL, 6, 0, NULL), -1);
    assert_int_equal(libsais(t, sa, -1, 0, NULL), -1);
    assert_int_equal(libsais(t, sa, 6, -1, NULL), -1);
    assert_int_equal(libsais_omp(t, sa, 6, 0, NULL, -1), -1);
    assert_int_equal(libsais_ctx(NULL, t, sa, 6, 0, NULL), -1);
    assert_int_equal(libsais_ctx(ctx, t, sa, 6, 0, NULL), 0);
    assert_int_equal(libsais64(t, sa64, -2, 0, NULL), -1);
    assert_int_equal(libsais_int(NULL, sa, 3, 4, 0), -1);
    assert_int_equal(libsais64_long((int64_t *)sa64, NULL, 3, 4, 0), -1);
    assert_int_equal(libsais_gsa(t, sa, 6, 0, NULL), -1);     /* T[n-1] != 0 */
    assert_int_equal(libsais_gsa(g, sa, 3, 0, NULL), -1);     /* an empty string */
    assert_int_equal(libsais64_gsa(g + 1, sa64, 2, 0, NULL), -1); /* starts with one */
    assert_int_equal(libsais_gsa_ctx(ctx, g + 2, sa, 3, 0, NULL), -1);
    assert_int_equal(libsais_gsa_ctx(ctx, g + 2, sa, 1, 0, NULL), 0);
    assert_int_equal(libsais_bwt(t, u, NULL, 6, 0, NULL), -1);
    assert_int_equal(libsais_bwt_ctx(NULL, t, u, a, 6, 0, NULL), -1);
    assert_int_equal(libsais_bwt_aux(t, u, a, 6, 0, NULL, 3, I), -1);  /* r not a power of 2 */
    assert_int_equal(libsais_bwt_aux(t, u, a, 6, 0, NULL, 1, I), -1);  /* r < 2 */
    assert_int_equal(libsais_bwt_aux(t, u, a, 6, 0, NULL, 2, NULL), -1);
    assert_int_equal(libsais64_bwt_aux_omp(t, u, (int64_t *)a, 6, 0, NULL, 2, I64, -3), -1);
    assert_int_equal(libsais_bwt_aux_ctx(ctx, t, u, a, 6, 0, NULL, 2, I), 0);
    assert_int_equal(libsais_unbwt(u, t, a, 6, NULL, 0), -1);          /* primary 0 */
    assert_int_equal(libsais_unbwt(u, t, a, 6, NULL, 7), -1);          /* primary > n */
    assert_int_equal(libsais_unbwt_aux(u, t, a, 6, NULL, 2, bad), -1); /* I[1] = 0 */
    assert_int_equal(libsais_unbwt_aux(u, t, a, 6, NULL, 6, I), 0);    /* r = n: one sample */
    assert_int_equal(libsais_unbwt_ctx(NULL, u, t, a, 6, NULL, I[0]), -2);
    assert_int_equal(libsais_unbwt_ctx(NULL, u, t, a, 6, NULL, 0), -1);
    assert_int_equal(libsais64_unbwt(u, t, NULL, 6, NULL, 1), -1);
    assert_int_equal(libsais_plcp(t, NULL, a, 6), -1);
    assert_int_equal(libsais_plcp_gsa(t, sa, a, 6), -1);              /* T[n-1] != 0 */
    assert_int_equal(libsais64_plcp_omp(t, sa64, NULL, 6, 1), -1);
    assert_int_equal(libsais_lcp(a, sa, a, -1), -1);
    assert_int_equal(libsais64_lcp_omp(NULL, sa64, sa64, 6, 1), -1);
    assert_null(libsais_create_ctx_omp(-1));
    assert_null(libsais_unbwt_create_ctx_omp(-1));
    libsais_free_ctx(ctx);
    libsais_free_ctx(NULL);
    ctx = libsais_unbwt_create_ctx();
    assert_non_null(ctx);
    assert_int_equal(libsais_unbwt_aux_ctx(ctx, u, t, a, 6, NULL, 4, bad), -1);
    libsais_unbwt_free_ctx(ctx);
    uint16_t w[4] = {5, 0, 0, 0}, v[4];
    int64_t a64[5];
    assert_int_equal(libsais16_gsa(w, sa, 1, 0, NULL), -1);          /* T[n-1] != 0 */
    assert_int_equal(libsais16_gsa(w, sa, 3, 0, NULL), -1);          /* an empty string */
    assert_int_equal(libsais16x64_gsa(w, sa64, 2, 0, NULL), 0);
    assert_int_equal(libsais16_bwt_aux(w, v, a, 3, 0, NULL, 6, I), -1);
    assert_int_equal(libsais16x64_unbwt(w, v, a64, 3, NULL, 4), -1);
    assert_int_equal(libsais16_unbwt_ctx(NULL, w, v, a, 3, NULL, 1), -2);
    assert_int_equal(libsais16_ctx(NULL, w, sa, 3, 0, NULL), -1);
    assert_int_equal(libsais16x64_lcp(NULL, sa64, sa64, 3), -1);
    assert_null(libsais16_create_ctx_omp(-2));
}

int main(void)
{
    char min[32];
    snprintf(min, sizeof min, "%lld", (long long)min_device());
    setenv("CLSA_COMPAT_MIN_BYTES", min, 1);
    setenv("CLSA_BACKEND", "device", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_bad_args),
        cmocka_unit_test(test_host_path),
        cmocka_unit_test(test_device_path),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
