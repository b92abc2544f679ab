/* clsa_sa32_multi / clsa_sa64_multi with one thread per member, on 1, 2
 * and 3 members (two contexts: the device engine; one context twice plus a
 * NULL member that sorts on the host: the distributed engine; two and
 * three distinct contexts on many inputs), against libdivsufsort
 * on generated inputs with fixed seeds; argument errors; a member's failure
 * agreed by all. */
#include "testutil.h"

#include <divsufsort64.h>

#include "gen.h"

static int64_t *reference(const uint8_t *t, int64_t n)
{
    int64_t *sa = malloc((size_t)(n ? n : 1) * sizeof *sa);
    if (n == 1) sa[0] = 0;
    else if (n > 1) assert_int_equal(divsufsort64(t, (saidx64_t *)sa, n), 0);
    return sa;
}

/* Members for k: 1 one context; 2 two contexts; 3 a context, a NULL
 * member (host sort) and the first context again, fresh for each input
 * (contexts made and destroyed with the members).  Oclgrind is not safe for kernels from
 * any thread but the one that made the context (test_threads): under it
 * only member 0, which runs on the calling thread, has a device. */
static void members(int k, clsa_context **ctxs)
{
    ctxs[0] = tu_context();
    if (k >= 2) ctxs[1] = k == 2 && !tu_small() ? tu_context() : NULL;
    if (k >= 3) ctxs[2] = tu_small() ? NULL : ctxs[0];
}

static void release(clsa_context **ctxs, int k)
{
    for (int i = 0; i < k; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++) seen |= ctxs[j] == ctxs[i];
        if (!seen) clsa_destroy(ctxs[i]);
    }
}

/* Two fresh contexts made under CLSA_TUNE = tune (read when a context is
 * made; unset again afterwards). */
static void two_contexts(clsa_context **ctxs, const char *tune)
{
    ctxs[0] = tu_context_tuned(tune, 0);
    ctxs[1] = tu_context_tuned(tune, 0);
}

/* Both widths of t on k members against the reference; what names it in
 * a failure: kind, param. */
static void run_text(clsa_context **ctxs, int k, const uint8_t *t, int64_t n, gen_kind kind,
                     unsigned param)
{
    int64_t *ref = reference(t, n), *sa = malloc((size_t)(n ? n : 1) * sizeof *sa);
    int32_t *sa32 = malloc((size_t)(n ? n : 1) * sizeof *sa32);
    clsa_status st = clsa_sa64_multi(ctxs, k, t, sa, n);
    if (st) fprintf(stderr, "%s\n", clsa_last_error(ctxs[0]));
    assert_int_equal(st, CLSA_OK);
    assert_int_equal(clsa_sa32_multi(ctxs, k, t, sa32, n), CLSA_OK);
    for (int64_t i = 0; i < n; i++)
        if (sa[i] != ref[i] || sa32[i] != ref[i])
            fail_msg("%s:%u n=%lld on %d members: entry %lld is %lld/%d, want %lld",
                     gen_name(kind), param, (long long)n, k, (long long)i, (long long)sa[i],
                     sa32[i], (long long)ref[i]);
    if (k > 1 && n >= 6000) { /* sorted on a device (the first one at least: inputs a
                               * sample declines go to it alone) */
        clsa_stats s;
        assert_int_equal(clsa_get_stats(ctxs[0], &s), CLSA_OK);
        assert_true(s.kernel_launches > 0);
    }
    free(ref);
    free(sa);
    free(sa32);
}

static void run_with(clsa_context **ctxs, int k, gen_kind kind, unsigned param, int64_t n,
                     uint64_t seed)
{
    uint8_t *t = malloc((size_t)(n ? n : 1));
    gen_fill(t, (size_t)n, kind, param, seed);
    run_text(ctxs, k, t, n, kind, param);
    free(t);
}

static void run(int k, gen_kind kind, unsigned param, int64_t n, uint64_t seed)
{
    clsa_context *ctxs[3] = {NULL, NULL, NULL};
    members(k, ctxs);
    run_with(ctxs, k, kind, param, n, seed);
    release(ctxs, k);
}

static void cases(int k)
{
    int64_t big = (int64_t)tu_size(6000, 120);
    static const int64_t tiny[] = {0, 1, 2, 5};
    /* Under Oclgrind (seconds, not minutes): one generated input; each
     * fresh context there costs a kernel build. */
    if (tu_small()) {
        run(k, k == 2 ? GEN_FIBONACCI : GEN_RANDOM, 4, big, 11);
        return;
    }
    for (size_t i = 0; i < sizeof tiny / sizeof *tiny; i++) run(k, GEN_RANDOM, 2, tiny[i], i);
    run(k, GEN_RANDOM, 4, big, 11);
    run(k, GEN_FIBONACCI, 0, big, 12);
    run(k, GEN_RANDOM, 2, big, 13);
    run(k, GEN_RANDOM, 256, big + 17, 14);
    run(k, GEN_PERIODIC, 7, big, 15);
    run(k, GEN_ALL_EQUAL, 0, big / 3, 16);
    run(k, GEN_MUTATED, 300, big, 17);
}

static void one_member(void **state)
{
    (void)state;
    if (!tu_small()) cases(1); /* clsa_sa32/64 itself: test_sa covers it under Oclgrind */
}

/* The argument checks need no device (kept cheap under Oclgrind). */
static clsa_context *host_context(void)
{
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_HOST;
    clsa_context *c = NULL;
    assert_int_equal(clsa_create(&o, &c), CLSA_OK);
    return c;
}

static void two_members(void **state)
{
    (void)state;
    cases(2);
}

static void three_members(void **state)
{
    (void)state;
    cases(3);
}

static void errors(void **state)
{
    (void)state;
    clsa_context *c = host_context(), *d = host_context();
    clsa_context *ctxs[3] = {c, NULL, d};
    uint8_t t[4] = "abc";
    int64_t sa[4];
    int32_t sa32[4];
    assert_int_equal(clsa_sa64_multi(ctxs, 0, t, sa, 3), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_sa64_multi(NULL, 2, t, sa, 3), CLSA_ERR_INVALID_ARG);
    assert_int_equal(clsa_sa64_multi(ctxs, 3, NULL, sa, 3), CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(clsa_last_error(c), "text is NULL"));
    assert_non_null(strstr(clsa_last_error(d), "text is NULL")); /* every context told */
    assert_int_equal(clsa_sa32_multi(ctxs, 3, t, NULL, 3), CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(clsa_last_error(d), "sa is NULL"));
    assert_int_equal(clsa_sa64_multi(ctxs, 2, t, sa, -1), CLSA_ERR_INVALID_ARG);
    assert_non_null(strstr(clsa_last_error(c), "negative n"));
    assert_int_equal(clsa_sa32_multi(ctxs, 2, t, sa32, (int64_t)INT32_MAX + 1), CLSA_ERR_TOO_LARGE);
    assert_non_null(strstr(clsa_last_error(c), "clsa_sa64_multi"));
    /* NULL text and sa are fine for n == 0 */
    assert_int_equal(clsa_sa64_multi(ctxs, 3, NULL, NULL, 0), CLSA_OK);
    clsa_destroy(c);
    clsa_destroy(d);
}

/* One member fails (the engine's fault hook): every member stops, the call
 * returns once, with the failing member's message. */
static void agreed_failure(void **state)
{
    (void)state;
    clsa_context *ctxs[3] = {host_context(), NULL, NULL}; /* agreement needs no device */
    int64_t n = 500;
    uint8_t *t = malloc((size_t)n);
    int64_t *sa = malloc((size_t)n * sizeof *sa);
    gen_fill(t, (size_t)n, GEN_RANDOM, 4, 21);
    setenv("CLSA_MPI_FAIL", "1:initial", 1);
    assert_int_equal(clsa_sa64_multi(ctxs, 3, t, sa, n), CLSA_ERR_IO);
    assert_non_null(strstr(clsa_last_error(ctxs[0]), "rank 1"));
    setenv("CLSA_MPI_FAIL", "2:final", 1);
    assert_int_equal(clsa_sa64_multi(ctxs, 3, t, sa, n), CLSA_ERR_IO);
    assert_non_null(strstr(clsa_last_error(ctxs[0]), "rank 2"));
    unsetenv("CLSA_MPI_FAIL");
    assert_int_equal(clsa_sa64_multi(ctxs, 3, t, sa, n), CLSA_OK);
    int64_t *ref = reference(t, n);
    assert_memory_equal(sa, ref, (size_t)n * sizeof *sa);
    clsa_destroy(ctxs[0]);
    free(t);
    free(sa);
    free(ref);
}

/* Two and three distinct device contexts: the device engine (each member
 * sorts its part of the suffixes on its device, ranks exchanged before each
 * pass: host/sa/pd_part.c).  Inputs whose groups outlive the initial sort
 * (Fibonacci, periodic, mutated repeats, words) exercise the exchange;
 * periodic:2 on three members leaves a member without suffixes. */
static void device_members(void **state)
{
    (void)state;
    if (tu_small()) return; /* Oclgrind: kernels only from the context's own thread */
    int64_t big = (int64_t)tu_size(20000, 120);
    /* PoCL 3.1 aborts now and then (pocl_release_dlhandle_cache: its cache
     * of compiled work-group functions, shared by every context of the
     * device, races once three contexts launch at once: about 1 run in 12
     * in our reproduction, none in 20 with two); rusticl runs three. */
    const char *dev = getenv("CLSA_DEVICE");
    int most = dev && !strcmp(dev, "pocl") ? 2 : 3;
    for (int k = 2; k <= most; k++) {
        /* part_decline=0: the members keep their parts however many
         * suffixes the initial sort leaves (the default hands those inputs
         * to one device: two_members) */
        setenv("CLSA_TUNE", "part_decline=0", 1);
        clsa_context *ctxs[3] = {tu_context(), tu_context(), k == 3 ? tu_context() : NULL};
        unsetenv("CLSA_TUNE");
        static const int64_t small[] = {2, 3, 9, 64, 300};
        for (size_t i = 0; i < sizeof small / sizeof *small; i++)
            run_with(ctxs, k, GEN_RANDOM, 3, small[i], 40 + i);
        run_with(ctxs, k, GEN_RANDOM, 4, big, 41);
        run_with(ctxs, k, GEN_RANDOM, 256, big + 5, 42);
        run_with(ctxs, k, GEN_FIBONACCI, 0, big, 43);
        run_with(ctxs, k, GEN_PERIODIC, 2, big, 44);
        run_with(ctxs, k, GEN_PERIODIC, 13, big, 45);
        run_with(ctxs, k, GEN_MUTATED, 500, big, 46);
        run_with(ctxs, k, GEN_RANDOM, 2, big, 47);
        run_with(ctxs, k, GEN_ALL_EQUAL, 0, 1000, 48);
        for (uint64_t seed = 0; seed < 16; seed++) /* many small shapes */
            run_with(ctxs, k, seed % 2 ? GEN_MUTATED : GEN_RANDOM, seed % 2 ? 7 : 2 + seed % 5,
                     (int64_t)(50 + seed * 241), 100 + seed);
        for (int r = 0; r < k; r++) clsa_destroy(ctxs[r]);
    }
}

/* The sample before anything is sorted (clsa__pd_part_worth): generated
 * words whose sampled share of tied keys (0.7% at 1 MB) is far below the
 * text's (7% unsorted after the initial sort) go to the first device alone
 * at once, the second device launching nothing; random DNA of the same
 * size splits (both devices sort). */
static void declined_by_sample(void **state)
{
    (void)state;
    if (tu_small()) return;
    int64_t n = (int64_t)tu_size(1000000, 1);
    uint8_t *t = malloc((size_t)n);
    for (int words = 1; words >= 0; words--) {
        clsa_context *ctxs[2];
        two_contexts(ctxs, NULL);
        if (words) gen_words(t, (size_t)n, 0, 1);
        else gen_fill(t, (size_t)n, GEN_RANDOM, 4, 1);
        run_text(ctxs, 2, t, n, GEN_RANDOM, words ? 9999 : 4); /* 9999: words, in a failure */
        clsa_stats s;
        assert_int_equal(clsa_get_stats(ctxs[1], &s), CLSA_OK);
        if (words) assert_int_equal(s.kernel_launches, 0);
        else assert_true(s.kernel_launches > 0);
        clsa_destroy(ctxs[0]);
        clsa_destroy(ctxs[1]);
    }
    free(t);
}

/* The members' paths after a short-key sort (host/sa/pd_init.c):
 * lazy first ranks (filled before each pass and before answering the
 * others' asks) with the slice written directly as suffixes finish, the
 * same without direct mode (ranks completed at once, the slice inverted at
 * the end), and every rank written at once.  isa_lazy=2 also completes
 * the ranks at once in half the calls.  scan_onepass=1: the members' scans
 * of flags (their asks, their splits) in single passes over tiles of 2 x wg. */
static void member_paths(void **state)
{
    (void)state;
    if (tu_small()) return; /* Oclgrind: kernels only from the context's own thread */
    static const char *tunes[] = {"part_decline=0,init_msd=2,isa_lazy=2",
                                  "part_decline=0,init_msd=2,isa_lazy=2,sa_path=128",
                                  "part_decline=0,init_msd=2,isa_lazy=0", "part_decline=0",
                                  "part_decline=0,init_msd=2,isa_lazy=2,lazy_shift=4",
                                  "part_decline=0,scan_onepass=1,scan_items=2"};
    int64_t big = (int64_t)tu_size(30000, 120);
    for (size_t t = 0; t < sizeof tunes / sizeof *tunes; t++) {
        clsa_context *ctxs[2] = {tu_context_tuned(tunes[t], 1), tu_context_tuned(tunes[t], 1)};
        int direct = t != 1, lazy = t < 2, onepass = 0;
        for (uint64_t seed = 0; seed < 4; seed++) {
            /* random symbols with a few copies of one stretch: the short key
             * ties only the copies' suffixes, which the passes then sort */
            int64_t n = big + (int64_t)seed, len = n / 16;
            uint8_t *text = malloc((size_t)n);
            gen_fill(text, (size_t)n, GEN_RANDOM, seed % 2 ? 4 : 256, 90 + seed);
            for (int c = 1; c <= 3; c++) memcpy(text + c * n / 4, text, (size_t)len);
            clsa_reset_stats(ctxs[0]);
            clsa_reset_stats(ctxs[1]);
            run_text(ctxs, 2, text, n, GEN_RANDOM, 1000 + (unsigned)seed);
            free(text);
            int filled = 0, inverted = 0, split = 0;
            for (int r = 0; r < 2; r++) {
                filled |= tu_kernel_ran(ctxs[r], "pd_lazy_fill");
                inverted |= tu_kernel_ran(ctxs[r], "pd_part_invert");
                split |= tu_kernel_ran(ctxs[r], "grp_rank_split");
                onepass |= tu_kernel_ran(ctxs[r], "scan_onepass");
            }
            assert_true(split); /* the doubling loop ran on a member */
            if (t < 3) { /* the default (and coarse need bits): as the checks say */
                assert_int_equal(filled, lazy);
                assert_int_equal(inverted, !direct);
            }
        }
        /* at least once: a fault (llvmpipe's waits) turns the single pass
         * off for the rest of the context's life */
        if (t == 5) assert_true(onepass);
        run_with(ctxs, 2, GEN_MUTATED, 300, big, 95);
        run_with(ctxs, 2, GEN_RANDOM, 3, big, 96);
        run_with(ctxs, 2, GEN_FIBONACCI, 0, big, 97);
        for (uint64_t seed = 4 * t; seed < 4 * t + 4; seed++) /* small shapes, 4 a tuning */
            run_with(ctxs, 2, GEN_RANDOM, 2 + seed % 7, (int64_t)(60 + seed * 107), 120 + seed);
        clsa_destroy(ctxs[0]);
        clsa_destroy(ctxs[1]);
    }
}

/* Inputs that leave many suffixes unsorted after the initial sort go to
 * one device: decided from a sample before anything is sorted (exact at
 * these sizes), or (part_sample=0) by the members after their initial
 * sorts, the first member then sorting everything on its own. */
static void declined(void **state)
{
    (void)state;
    if (tu_small()) return;
    for (int late = 0; late <= 1; late++) {
        clsa_context *ctxs[2];
        two_contexts(ctxs, late ? "part_sample=0" : NULL);
        run_with(ctxs, 2, GEN_FIBONACCI, 0, 20000, 71);
        run_with(ctxs, 2, GEN_PERIODIC, 5, 9000, 72);
        run_with(ctxs, 2, GEN_RANDOM, 4, 20000, 73); /* not declined */
        clsa_destroy(ctxs[0]);
        clsa_destroy(ctxs[1]);
    }
}

/* Devices with room for a member's share but not for the whole working
 * set (a device-memory limit of 16 bytes a symbol: one device needs about
 * 21 before it starts, a member of two about 5 n + 13 m): both members sort
 * on their devices within the limit.  Words whose initial sort leaves too
 * many suffixes unsorted (part_sample=0: no sample declines them first)
 * go to member 0 alone after it, which has no room for one device's
 * working set: that call runs again on the first context, out of core,
 * and still returns the right array.  Under 10 bytes a symbol no member
 * fits: the host-side engine's local sorts run out of device memory, and
 * the first context builds it out of core. */
static void member_share(void **state)
{
    (void)state;
    if (tu_small()) return;
    int64_t n = (int64_t)tu_size(1000000, 1);
    uint8_t *t = malloc((size_t)n);
    for (int c = 0; c < 3; c++) {
        int words = c == 1;
        const uint64_t limit = (c == 2 ? 10 : 16) * (uint64_t)n;
        char lim[32];
        snprintf(lim, sizeof lim, "%llu", (unsigned long long)limit);
        setenv("CLSA_DEVICE_MEM_LIMIT", lim, 1);
        clsa_context *ctxs[2];
        two_contexts(ctxs, words ? "part_sample=0" : NULL);
        unsetenv("CLSA_DEVICE_MEM_LIMIT");
        if (words) gen_words(t, (size_t)n, 0, 3);
        else gen_fill(t, (size_t)n, GEN_RANDOM, 4, 3);
        run_text(ctxs, 2, t, n, GEN_RANDOM, words ? 9999 : 4); /* 9999: words, in a failure */
        for (int r = 0; r < 2; r++) {
            clsa_stats s;
            assert_int_equal(clsa_get_stats(ctxs[r], &s), CLSA_OK);
            /* c < 2: a member on each device, not the host-side engine */
            if (c < 2) assert_true(s.kernel_launches > 0);
            assert_true(s.peak_device_bytes <= limit);
        }
        clsa_destroy(ctxs[0]);
        clsa_destroy(ctxs[1]);
    }
    free(t);
}

/* Copies split over host threads and queues (CLSA_TUNE copy_threads,
 * here from 1 byte on): the same suffix arrays on one device and on two. */
static void threaded_copies(void **state)
{
    (void)state;
    if (tu_small()) return;
    clsa_context *ctxs[2];
    two_contexts(ctxs, "copy_threads=3,copy_min=1");
    for (int k = 1; k <= 2; k++) {
        run_with(ctxs, k, GEN_RANDOM, 4, 30011, 61);
        run_with(ctxs, k, GEN_MUTATED, 100, 20000, 62);
        run_with(ctxs, k, GEN_RANDOM, 3, 5, 63);
    }
    clsa_destroy(ctxs[0]);
    clsa_destroy(ctxs[1]);
}

/* One member's part stays unsorted (runs of "abab..." of 64 bytes) while
 * the other's is finished by the initial sort (random high bytes between
 * the runs): the first asks the second for ranks it never wrote
 * (pd_part_isa), at every pass. */
static void finished_member_asked(void **state)
{
    (void)state;
    if (tu_small()) return;
    clsa_context *ctxs[2];
    two_contexts(ctxs, "part_decline=0");
    int64_t n = 32768;
    uint8_t *t = malloc((size_t)n);
    int32_t *sa = malloc((size_t)n * sizeof *sa);
    gen_fill(t, (size_t)n, GEN_RANDOM, 100, 81);
    for (int64_t i = 0; i < n; i++) /* 64 of every 256 bytes "ab", the rest above 'b' */
        t[i] = i % 256 < 64 ? (uint8_t)"ab"[i % 2] : (uint8_t)(t[i] % 100 + 120);
    for (int64_t r = 1; r < n / 256; r++) /* a distinct byte before each run: no suffix of */
        t[r * 256 - 1] = (uint8_t)(120 + r); /* high bytes shares its first 9 with another */
    int64_t *ref = reference(t, n);
    assert_int_equal(clsa_sa32_multi(ctxs, 2, t, sa, n), CLSA_OK);
    for (int64_t i = 0; i < n; i++)
        if (sa[i] != ref[i]) fail_msg("entry %lld is %d, want %lld", (long long)i, sa[i], (long long)ref[i]);
    clsa_destroy(ctxs[0]);
    clsa_destroy(ctxs[1]);
    free(t);
    free(sa);
    free(ref);
}

/* A device member that fails at an exchange: every member stops and the
 * call returns that member's message; the next call works. */
static void device_failure(void **state)
{
    (void)state;
    if (tu_small()) return;
    clsa_context *ctxs[2];
    two_contexts(ctxs, "part_decline=0"); /* Fibonacci would go to one device */
    int64_t n = 5000;
    uint8_t *t = malloc((size_t)n);
    int32_t *sa = malloc((size_t)n * sizeof *sa);
    gen_fill(t, (size_t)n, GEN_FIBONACCI, 0, 51);
    setenv("CLSA_MPI_FAIL", "1:exchange", 1);
    assert_int_equal(clsa_sa32_multi(ctxs, 2, t, sa, n), CLSA_ERR_IO);
    assert_non_null(strstr(clsa_last_error(ctxs[0]), "rank 1"));
    setenv("CLSA_MPI_FAIL", "0:exchange", 1);
    assert_int_equal(clsa_sa32_multi(ctxs, 2, t, sa, n), CLSA_ERR_IO);
    assert_non_null(strstr(clsa_last_error(ctxs[1]), "rank 0"));
    unsetenv("CLSA_MPI_FAIL");
    run_with(ctxs, 2, GEN_FIBONACCI, 0, n, 51);
    clsa_destroy(ctxs[0]);
    clsa_destroy(ctxs[1]);
    free(t);
    free(sa);
}

/* The text packed once for both members' uploads, each block by the
 * first upload that needs it (CLSA_TUNE pack_once, forced on with
 * pack_min=1 and small staging slots), against each member packing its
 * own: 2 and 4 bits a symbol, a member without staged copies (it packs or
 * waits for every block, then copies them at once), and a byte the
 * alphabet's sample misses (packing stops: the text goes up as it is). */
static void packed_once(void **state)
{
    (void)state;
    if (tu_small()) return; /* Oclgrind: kernels only from the context's own thread */
    static const char *tunes[][2] = {
        {"part_decline=0,pack_min=1,stage_min=1,stage_slot=4096,stage_threads=3", NULL},
        {"part_decline=0,pack_min=1,stage_min=1,stage_slot=4096,stage_threads=3,pack_once=0",
         NULL},
        {"part_decline=0,pack_min=1,pack_bits=4,stage_min=1,stage_slot=4096,stage_threads=2",
         NULL},
        {"part_decline=0,pack_min=1,stage_min=0", NULL},
        {"part_decline=0,pack_min=1,stage_min=1,stage_slot=65536,stage_threads=2",
         "part_decline=0,pack_min=1,stage_min=0"}};
    int64_t n = 200000;
    uint8_t *t = malloc((size_t)n);
    for (size_t k = 0; k < sizeof tunes / sizeof *tunes; k++) {
        const char *second = tunes[k][1] ? tunes[k][1] : tunes[k][0];
        clsa_context *ctxs[2] = {tu_context_tuned(tunes[k][0], 1), tu_context_tuned(second, 1)};
        for (int miss = 0; miss <= 1; miss++) {
            unsigned sigma = k == 2 ? 13 : 4;
            gen_fill(t, (size_t)n, GEN_MUTATED, 900, 60 + k);
            for (int64_t i = 0; i < n; i++) t[i] = (uint8_t)('A' + t[i] % sigma);
            /* between the sampled head (64 KiB) and the next sampled block */
            if (miss) t[65536 + 1500] = 'z';
            clsa_reset_stats(ctxs[0]);
            clsa_reset_stats(ctxs[1]);
            run_text(ctxs, 2, t, n, GEN_MUTATED, 900 + (unsigned)k);
            for (int r = 0; r < 2; r++) {
                assert_int_equal(tu_kernel_ran(ctxs[r], "text_unpack"), !miss);
                assert_true(tu_kernel_ran(ctxs[r], "grp_rank_split") ||
                            tu_kernel_ran(ctxs[r], "pd_part_own"));
            }
        }
        clsa_destroy(ctxs[0]);
        clsa_destroy(ctxs[1]);
    }
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_member),
        cmocka_unit_test(two_members),
        cmocka_unit_test(three_members),
        cmocka_unit_test(errors),
        cmocka_unit_test(agreed_failure),
        cmocka_unit_test(device_members),
        cmocka_unit_test(device_failure),
        cmocka_unit_test(threaded_copies),
        cmocka_unit_test(declined),
        cmocka_unit_test(finished_member_asked),
        cmocka_unit_test(member_paths),
        cmocka_unit_test(declined_by_sample),
        cmocka_unit_test(packed_once),
        cmocka_unit_test(member_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
