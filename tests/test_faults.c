/* Fault injection: the N-th OpenCL call of a full run fails, for every N.
 *
 * A run is: create a context on the device under test, suffix array (32 and
 * 64 bit) of a small text, scan and compaction, destroy.  For each N the run
 * must either fail with a proper status whose message names the failing
 * call, or (for calls whose failure the library can route around, such as a
 * cache load) succeed with correct results.  Either way no OpenCL object may
 * outlive the context (balances counted by the wrappers), no buffer may
 * outlive an API call, and the context must still work after the fault.
 * LeakSanitizer covers host memory in the sanitizer job (tests/ci_sanitize.sh).
 *
 * Linked with -Wl,--wrap=<every OpenCL entry point> (tests/CMakeLists.txt). */
/* runtime.h first: its OpenCL names (the library's, wrapped) are also the
 * ones testutil.h's helpers call, so every object is counted both ways */
#include "runtime.h"
#include "testutil.h"
#include "fault_inject.h"
#include "gen.h"

#include <divsufsort.h>
#include <time.h>
#include <unistd.h>

/* BWT and LCP join the run once the library has them (this binary links
 * the whole static library, so a weak reference finds them when they exist). */
#pragma weak clsa_bwt
#pragma weak clsa_lcp32
#pragma weak clsa_fm_create
#pragma weak clsa_fm_count
#pragma weak clsa_fm_locate
#pragma weak clsa_fm_free
#pragma weak clsa_fm_positions_free
#pragma weak clsa_lcs_k
#pragma weak clsa_fm_set_create
#pragma weak clsa_fm_set_count
#pragma weak clsa_fm_set_locate
#pragma weak clsa_fm_set_free

#define TEXT_N 700

static uint8_t text[TEXT_N];
static int32_t ref32[TEXT_N];
static uint8_t ref_bwt[TEXT_N];
static int64_t ref_primary;
static int32_t ref_lcp[TEXT_N];

/* Outcome tallies for the summary (docs/RELIABILITY.md quotes them). */
typedef struct tally {
    unsigned long runs, failed_named, failed_no_device, tolerated, in_destroy;
} tally;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void make_text(void)
{
    /* Repeats and a small alphabet: several doubling passes even when short. */
    gen_fill(text, TEXT_N / 2, GEN_RANDOM, 3, 41);
    gen_fill(text + TEXT_N / 2, TEXT_N - TEXT_N / 2, GEN_PERIODIC, 7, 0);
    text[TEXT_N - 3] = 0xff;
    assert_int_equal(divsufsort(text, ref32, TEXT_N), 0);
    static int32_t tmp[TEXT_N], rank[TEXT_N];
    ref_primary = divbwt(text, ref_bwt, tmp, TEXT_N);
    tu_kasai32(text, ref32, ref_lcp, rank, TEXT_N);
}

/* The pool's objects: its parents and their sub-buffers, every one of
 * them idle between calls (fails otherwise). */
static long pooled_objects(clsa_context *ctx, const char *after)
{
    long count = (long)ctx->npool;
    for (size_t i = 0; i < ctx->npool; i++) {
        if (ctx->pool[i].whole) fail_msg("after %s: a pooled buffer still taken", after);
        for (size_t j = 0; j < ctx->pool[i].nsub; j++, count++)
            if (!ctx->pool[i].sub[j].idle) fail_msg("after %s: a pooled region still taken", after);
    }
    return count;
}

/* (The context's page-locked slots of staged copies live until clsa_destroy,
 * its pooled device buffers, and the idle sub-buffers of their regions,
 * until a later call leaves them unused.) */
static void no_buffers_left(clsa_context *ctx, const char *after)
{
    clsa_stats s;
    clsa_get_stats(ctx, &s);
    if (fi_live(FI_MEM) != (long)ctx->nstage + pooled_objects(ctx, after) ||
        fi_live(FI_EVENT) != 0)
        fail_msg("after %s (fault at %s): %ld cl_mem and %ld cl_event still alive", after,
                 fi_failed_call() ? fi_failed_call() : "none", fi_live(FI_MEM),
                 fi_live(FI_EVENT));
    if (s.current_device_bytes != 0)
        fail_msg("after %s (fault at %s): %llu device bytes still counted", after,
                 fi_failed_call() ? fi_failed_call() : "none",
                 (unsigned long long)s.current_device_bytes);
}

/* FM-index: build, count, locate, free; the handle's buffers must all be
 * gone after clsa_fm_free, whatever failed. */
static clsa_status fm_work(clsa_context *ctx, const char **what)
{
    static const uint8_t pats[] = "ab\x00";
    uint64_t offs[4] = {0, 2, 3, 11}; /* "ab", "\0", text[100..108) */
    uint8_t buf[16];
    memcpy(buf, pats, 3);
    memcpy(buf + 3, text + 100, 8);
    uint64_t counts[3], starts[4], want[3] = {0, 0, 0};
    for (int i = 0; i < TEXT_N; i++) {
        for (int p = 0; p < 3; p++) {
            size_t len = offs[p + 1] - offs[p];
            if (i + len <= TEXT_N && !memcmp(text + i, buf + offs[p], len)) want[p]++;
        }
    }
    clsa_fm *fm = NULL;
    int64_t *pos = NULL;
    *what = "clsa_fm_create";
    clsa_status st = clsa_fm_create(ctx, text, TEXT_N, 4, &fm);
    if (st) {
        if (fm) fail_msg("clsa_fm_create failed but returned a handle");
        return st;
    }
    *what = "clsa_fm_count";
    st = clsa_fm_count(fm, buf, offs, 3, counts);
    for (int p = 0; !st && p < 3; p++)
        if (counts[p] != want[p]) fail_msg("fm count %d: %llu want %llu after fault at %s", p,
                                           (unsigned long long)counts[p], (unsigned long long)want[p],
                                           fi_failed_call() ? fi_failed_call() : "none");
    if (!st) {
        *what = "clsa_fm_locate";
        st = clsa_fm_locate(fm, buf, offs, 3, 0, starts, &pos);
        for (int p = 0; !st && p < 3; p++)
            if (starts[p + 1] - starts[p] != want[p]) fail_msg("fm locate %d wrong after fault at %s", p,
                                                               fi_failed_call() ? fi_failed_call() : "none");
        for (uint64_t k = 0; !st && k < starts[3]; k++) {
            int p = k < starts[1] ? 0 : k < starts[2] ? 1 : 2;
            size_t len = offs[p + 1] - offs[p];
            if (pos[k] < 0 || pos[k] + (int64_t)len > TEXT_N || memcmp(text + pos[k], buf + offs[p], len))
                fail_msg("fm locate position %lld wrong", (long long)pos[k]);
        }
        clsa_fm_positions_free(pos);
    }
    clsa_fm_free(fm);
    return st;
}

/* Sets of strings: the longest substring shared by all of three pieces of
 * the text (GSA on the device, then the host) and an FM-index over them;
 * against the host backend and a naive count. */
static clsa_status set_work(clsa_context *ctx, const char **what)
{
    static const int64_t lens[3] = {90, 0, 110}; /* text[0..90), "", text[90..200) */
    int64_t want_len, want_off[3], len, off[3];
    *what = "clsa_lcs_k (host)";
    clsa_status st = clsa_lcs_k(NULL, text + 300, lens, 3, 2, &want_len, want_off);
    if (st) fail_msg("host clsa_lcs_k: status %d", (int)st);
    *what = "clsa_lcs_k";
    st = clsa_lcs_k(ctx, text + 300, lens, 3, 2, &len, off);
    no_buffers_left(ctx, *what);
    if (st) return st;
    if (len != want_len || memcmp(off, want_off, sizeof off))
        fail_msg("clsa_lcs_k wrong after fault at %s", fi_failed_call() ? fi_failed_call() : "none");
    clsa_fm_set *set = NULL;
    *what = "clsa_fm_set_create";
    st = clsa_fm_set_create(ctx, text + 300, lens, 3, 4, &set);
    if (st) {
        no_buffers_left(ctx, *what);
        if (set) fail_msg("clsa_fm_set_create failed but returned a handle");
        return st;
    }
    const uint8_t *pat = text + 385; /* spans the end of the first string */
    uint64_t offs[3] = {0, 3, 10}, counts[2], starts[3], want[2] = {0, 0};
    for (int p = 0; p < 2; p++)
        for (int sidx = 0, base = 0; sidx < 3; base += (int)lens[sidx++])
            for (int o = 0; o + (int)(offs[p + 1] - offs[p]) <= lens[sidx]; o++)
                want[p] += !memcmp(text + 300 + base + o, pat + offs[p], offs[p + 1] - offs[p]);
    *what = "clsa_fm_set_count";
    st = clsa_fm_set_count(set, pat, offs, 2, counts);
    if (!st && (counts[0] != want[0] || counts[1] != want[1]))
        fail_msg("clsa_fm_set_count wrong after fault at %s",
                 fi_failed_call() ? fi_failed_call() : "none");
    if (!st) {
        int64_t *strs = NULL, *pos = NULL;
        *what = "clsa_fm_set_locate";
        st = clsa_fm_set_locate(set, pat, offs, 2, 0, starts, &strs, &pos);
        if (!st && (starts[1] != want[0] || starts[2] - starts[1] != want[1]))
            fail_msg("clsa_fm_set_locate wrong after fault at %s",
                     fi_failed_call() ? fi_failed_call() : "none");
        clsa_fm_positions_free(strs);
        clsa_fm_positions_free(pos);
    }
    clsa_fm_set_free(set);
    no_buffers_left(ctx, *what);
    return st;
}

/* The library's work on one context; returns the first error. */
static clsa_status work(clsa_context *ctx, const char **what)
{
    static int32_t sa32[TEXT_N];
    static int64_t sa64[TEXT_N];
    static uint32_t vals[TEXT_N], flags[TEXT_N], out[TEXT_N];
    clsa_status st;
    /* Under Oclgrind a device suffix array takes minutes: primitives only. */
    if (tu_small()) goto primitives;
    memset(sa32, 0xee, sizeof sa32);
    *what = "clsa_sa32";
    st = clsa_sa32(ctx, text, sa32, TEXT_N);
    no_buffers_left(ctx, *what);
    if (st) return st;
    for (int i = 0; i < TEXT_N; i++)
        if (sa32[i] != ref32[i]) fail_msg("clsa_sa32 wrong at %d after fault at %s", i,
                                          fi_failed_call() ? fi_failed_call() : "none");
    *what = "clsa_sa64";
    st = clsa_sa64(ctx, text, sa64, TEXT_N);
    no_buffers_left(ctx, *what);
    if (st) return st;
    for (int i = 0; i < TEXT_N; i++)
        if (sa64[i] != ref32[i]) fail_msg("clsa_sa64 wrong at %d after fault at %s", i,
                                          fi_failed_call() ? fi_failed_call() : "none");
primitives:
    for (int i = 0; i < TEXT_N; i++) {
        vals[i] = (uint32_t)i * 7u;
        flags[i] = text[i] & 1u;
    }
    *what = "clsa_scan_u32";
    st = clsa_scan_u32(ctx, vals, out, TEXT_N, 0);
    no_buffers_left(ctx, *what);
    if (st) return st;
    uint32_t sum = 0;
    for (int i = 0; i < TEXT_N; i++) {
        if (out[i] != sum) fail_msg("scan wrong at %d after fault at %s", i,
                                    fi_failed_call() ? fi_failed_call() : "none");
        sum += vals[i];
    }
    *what = "clsa_compact_u32";
    size_t count = 0;
    st = clsa_compact_u32(ctx, vals, flags, TEXT_N, out, &count);
    no_buffers_left(ctx, *what);
    if (st) return st;
    size_t k = 0;
    for (int i = 0; i < TEXT_N; i++)
        if (flags[i]) {
            if (k >= count || out[k] != vals[i]) fail_msg("compact wrong after fault at %s",
                                                          fi_failed_call() ? fi_failed_call() : "none");
            k++;
        }
    assert_int_equal(k, count);
    if (clsa_bwt && !tu_small()) {
        static uint8_t bwt[TEXT_N];
        int64_t primary = -1;
        *what = "clsa_bwt";
        st = clsa_bwt(ctx, text, bwt, TEXT_N, &primary);
        no_buffers_left(ctx, *what);
        if (st) return st;
        if (primary != ref_primary || memcmp(bwt, ref_bwt, TEXT_N))
            fail_msg("clsa_bwt wrong after fault at %s", fi_failed_call() ? fi_failed_call() : "none");
    }
    if (clsa_bwt && !tu_small()) { /* the BWT by buckets (host/index/dc_bwt.c) */
        static uint8_t bwt[TEXT_N];
        int64_t primary = -1;
        *what = "clsa_bwt by buckets";
        st = clsa_set_tuning(ctx, "dc_bwt=2,dc_bwt_bucket=300");
        if (!st) st = clsa_bwt(ctx, text, bwt, TEXT_N, &primary);
        assert_int_equal(clsa_set_tuning(ctx, "dc_bwt=1,dc_bwt_bucket=0"), CLSA_OK);
        no_buffers_left(ctx, *what);
        if (st) return st;
        if (primary != ref_primary || memcmp(bwt, ref_bwt, TEXT_N))
            fail_msg("clsa_bwt by buckets wrong after fault at %s",
                     fi_failed_call() ? fi_failed_call() : "none");
    }
    if (clsa_lcp32 && !tu_small()) {
        static int32_t lcp[TEXT_N];
        *what = "clsa_lcp32";
        st = clsa_lcp32(ctx, text, lcp, TEXT_N);
        no_buffers_left(ctx, *what);
        if (st) return st;
        for (int i = 0; i < TEXT_N; i++)
            if (lcp[i] != ref_lcp[i]) fail_msg("clsa_lcp32 wrong at %d after fault at %s", i,
                                               fi_failed_call() ? fi_failed_call() : "none");
    }
    if (clsa_fm_create && clsa_fm_count && clsa_fm_locate && clsa_fm_free && !tu_small()) {
        st = fm_work(ctx, what);
        no_buffers_left(ctx, *what);
        if (st) return st;
    }
    if (clsa_lcs_k && clsa_fm_set_create && clsa_fm_set_count && clsa_fm_set_locate &&
        clsa_fm_set_free && !tu_small()) {
        st = set_work(ctx, what);
        if (st) return st;
    }
    return CLSA_OK;
}

static void balances_zero(const char *when)
{
    for (int k = 0; k < FI_KIND_COUNT; k++)
        if (fi_live((fi_kind)k) != 0)
            fail_msg("%s (fault at %s): %ld %s leaked", when,
                     fi_failed_call() ? fi_failed_call() : "none", fi_live((fi_kind)k),
                     fi_kind_name((fi_kind)k));
}

/* Enumeration failing means "no device", which the message says in words. */
static int is_enumeration(const char *call)
{
    return !strcmp(call, "clGetPlatformIDs") || !strcmp(call, "clGetDeviceIDs");
}

/* Queries the library may ignore when they fail (the run stays correct,
 * e.g. a device property falls back to a default, a cache entry is not
 * saved); any error they cause must still be a clean one. */
static int is_soft(const char *call)
{
    return !strcmp(call, "clGetPlatformInfo") || !strcmp(call, "clGetDeviceInfo") ||
           !strcmp(call, "clGetEventProfilingInfo") || !strcmp(call, "clGetProgramInfo") ||
           !strcmp(call, "clGetProgramBuildInfo") || !strcmp(call, "clGetMemObjectInfo") ||
           !strcmp(call, "clCreateProgramWithBinary") || !strcmp(call, "clFinish");
}

static void judge(clsa_status st, const char *what, const char *msg, tally *t)
{
    const char *call = fi_failed_call();
    t->runs++;
    if (!call) {
        /* The armed call is clsa_destroy's own (its clFinish): nothing to report. */
        t->in_destroy++;
        if (st) fail_msg("%s failed without a fault: %s", what, msg);
        return;
    }
    if (st == CLSA_OK) {
        /* Results were verified in work(); the library routed around it. */
        t->tolerated++;
        return;
    }
    if (st == CLSA_ERR_INVALID_ARG || st == CLSA_ERR_TOO_LARGE || st == CLSA_ERR_IO ||
        st == CLSA_ERR_FORMAT || st == CLSA_ERR_UNSUPPORTED)
        fail_msg("fault at %s (%d): %s returned unsuitable status %d (%s): %s", call,
                 fi_failed_code(), what, (int)st, clsa_status_string(st), msg);
    if (!msg || !*msg) fail_msg("fault at %s: %s returned %d with an empty message", call, what, st);
    if (strstr(msg, call)) {
        t->failed_named++;
        return;
    }
    if (is_enumeration(call) && st == CLSA_ERR_NO_DEVICE && strstr(msg, "device")) {
        t->failed_no_device++;
        return;
    }
    if (is_soft(call)) {
        /* Message need not name it, but it must be a real sentence. */
        t->failed_named++;
        fprintf(stderr, "note: fault at %s -> %s: %s\n", call, clsa_status_string(st), msg);
        return;
    }
    fail_msg("fault at %s (%d): %s returned %d (%s) with a message that does not name it: %s",
             call, fi_failed_code(), what, (int)st, clsa_status_string(st), msg);
}

/* One full run with the fault armed at call n (0: none). */
static char cold_dir[256];

/* An empty cache folder: the run builds from source and saves binaries. */
static void empty_cold_cache(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cold_dir);
    if (system(cmd) != 0) fail_msg("cannot empty %s", cold_dir);
}

static void one_run(unsigned long n, tally *t)
{
    if (*cold_dir) empty_cold_cache();
    fi_reset();
    fi_arm(n);
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    o.profile = 1; /* events, waits and profiling queries too */
    clsa_context *ctx = NULL;
    char err[1024] = "";
    clsa_status st = clsa_create_ex(&o, &ctx, err, sizeof err);
    if (st) {
        if (ctx) fail_msg("clsa_create_ex failed but returned a context");
        if (t) judge(st, "clsa_create_ex", err, t);
        else fail_msg("clsa_create_ex: %s", err);
        balances_zero("after a failed clsa_create_ex");
        return;
    }
    const char *what = "";
    st = work(ctx, &what);
    if (t) judge(st, what, clsa_last_error(ctx), t);
    else if (st) fail_msg("%s: %s", what, clsa_last_error(ctx));
    if (st) {
        /* The context must not be poisoned by the fault. */
        fi_arm(0);
        st = work(ctx, &what);
        if (st) fail_msg("context unusable after fault at %s: %s failed: %s",
                         fi_failed_call(), what, clsa_last_error(ctx));
    }
    clsa_destroy(ctx);
    balances_zero("after clsa_destroy");
}

/* Every call with the disk cache warm (the usual state); then, with an
 * empty cache per run, the calls of building from source and saving. */
static void walk(int cold, tally *t)
{
    const char *saved_dir = getenv("CLSA_CACHE_DIR");
    char *restore = saved_dir ? strdup(saved_dir) : NULL;
    if (cold) {
        snprintf(cold_dir, sizeof cold_dir, "%s/clsa-fi-cold-%ld",
                 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
        setenv("CLSA_CACHE_DIR", cold_dir, 1);
    }
    one_run(0, NULL); /* warms the disk cache */
    double tc = now();
    one_run(0, NULL); /* counting run */
    tc = now() - tc;
    unsigned long total = fi_calls();
    /* Call-stack depth that makes two calls "the same"; FI_DEPTH overrides. */
    /* 3 on PoCL (every helper's caller: each clean-up path), 2 elsewhere
     * (every entry point from every runtime helper) to keep CI time. */
    const char *dev = getenv("CLSA_DEVICE");
    int depth = cold ? 2 : dev && strstr(dev, "pocl") ? 3 : 2;
    const char *depth_env = getenv("FI_DEPTH");
    if (depth_env && *depth_env) depth = atoi(depth_env);
    const char **names = calloc(total + 1, sizeof *names);
    uint64_t *sites = calloc(total + 1, sizeof *sites);
    assert_true(names && sites);
    for (unsigned long i = 1; i <= total; i++) {
        names[i] = fi_name_at(i);
        sites[i] = fi_site_at(i, depth);
    }
    unsigned nd;
    const char *const *called = fi_called(&nd);
    const char *label = cold ? "cold cache" : "warm cache";
    fprintf(stderr, "%s: a run (%.2f s) makes %lu failable OpenCL calls:", label, tc, total);
    for (unsigned i = 0; i < nd; i++) fprintf(stderr, " %s=%lu", called[i], fi_count_of(called[i]));
    fprintf(stderr, "\n");

    /* Which calls to fail: by default one per distinct call stack (every
     * error path and clean-up, without repeating a loop's iterations);
     * FI_FULL=1 every single call.  With a cold cache only the build and
     * save calls are new.  Under Oclgrind every run is slow: at most ~40. */
    const char *full_env = getenv("FI_FULL");
    int full = full_env && *full_env == '1';
    unsigned char *pick = calloc(total + 1, 1);
    assert_non_null(pick);
    unsigned long npick = 0, nsites = 0;
    for (unsigned long n = 1; n <= total; n++) {
        if (cold && strcmp(names[n], "clCreateProgramWithSource") &&
            strcmp(names[n], "clBuildProgram") && strcmp(names[n], "clGetProgramBuildInfo") &&
            strcmp(names[n], "clGetProgramInfo") && strcmp(names[n], "clCreateKernel"))
            continue;
        int first = 1;
        for (unsigned long j = 1; j < n && first; j++)
            if (sites[j] == sites[n]) first = 0;
        nsites += first;
        if (first || full) {
            pick[n] = 1;
            npick++;
        }
    }
    unsigned long stride = tu_small() && !full ? npick / 40 + 1 : 1;
    fprintf(stderr, "%s: %lu distinct call stacks of depth %d; failing %lu calls%s\n", label,
            nsites, depth, (npick + stride - 1) / stride, full ? " (FI_FULL=1: every call)" : "");
    double t0 = now();
    unsigned long k = 0;
    for (unsigned long n = 1; n <= total; n++)
        if (pick[n] && k++ % stride == 0) one_run(n, t);
    free(pick);
    free(sites);
    fprintf(stderr, "%s: %lu runs in %.1f s\n", label, t->runs, now() - t0);
    free(names);
    if (cold) {
        empty_cold_cache();
        cold_dir[0] = 0;
        if (restore) setenv("CLSA_CACHE_DIR", restore, 1);
        else unsetenv("CLSA_CACHE_DIR");
    }
    free(restore);
}

static void every_call_fails_cleanly(void **state)
{
    (void)state;
    tally warm = {0}, cold = {0}, staged = {0};
    walk(0, &warm);
    walk(1, &cold);
    /* Every copy through page-locked slots, texts packed (staged_copy.c,
     * text_pack.c; Oclgrind has neither).  One thread: the wrappers count
     * calls in one order (test_staged_copy and test_text_pack run teams). */
    if (!tu_small()) {
        setenv("CLSA_TUNE", "stage_min=1,stage_slot=512,stage_threads=1,pack_min=1,pack_bits=4", 1);
        walk(0, &staged);
        unsetenv("CLSA_TUNE");
        fprintf(stderr, "FAULT SUMMARY (staged copies): %lu runs: %lu errors naming the call, "
                "%lu tolerated\n", staged.runs, staged.failed_named, staged.tolerated);
    }
    fprintf(stderr,
            "FAULT SUMMARY: warm cache: %lu runs: %lu errors naming the call, %lu no-device, "
            "%lu tolerated (correct result), %lu in clsa_destroy; cold cache (build and save "
            "path): %lu runs: %lu errors naming the call, %lu tolerated\n",
            warm.runs, warm.failed_named, warm.failed_no_device, warm.tolerated, warm.in_destroy,
            cold.runs, cold.failed_named, cold.tolerated);
    assert_true(warm.runs > 0 && cold.runs > 0);
}

/* The first wait (clFinish, clWaitForEvents, a blocking read) after the
 * first launch of the run just counted; 0 if none. */
static unsigned long first_wait_after_launch(void)
{
    int launched = 0;
    for (unsigned long i = 1; i <= fi_calls(); i++) {
        const char *c = fi_name_at(i);
        if (!c) break;
        if (!strcmp(c, "clEnqueueNDRangeKernel")) launched = 1;
        else if (launched && (!strcmp(c, "clFinish") || !strcmp(c, "clWaitForEvents") ||
                              !strcmp(c, "clEnqueueReadBuffer")))
            return i;
    }
    return 0;
}

/* A suffix array whose first wait after a launch reports a device fault
 * as NVIDIA's driver does (-9999, then CL_OUT_OF_RESOURCES from every call
 * on the context): CLSA_ERR_DEVICE_LOST naming a kernel. */
static void fault_in_sa(clsa_context *ctx)
{
    int32_t sa[TEXT_N];
    TU_OK(ctx, clsa_sa32(ctx, text, sa, TEXT_N)); /* programs built, buffers pooled */
    fi_reset();
    TU_OK(ctx, clsa_sa32(ctx, text, sa, TEXT_N)); /* counted */
    unsigned long at = first_wait_after_launch();
    assert_true(at > 0);
    fi_reset();
    fi_device_fault(at, -9999, CL_OUT_OF_RESOURCES);
    clsa_status st = clsa_sa32(ctx, text, sa, TEXT_N);
    const char *msg = clsa_last_error(ctx);
    fprintf(stderr, "device fault at #%lu %s: %s: %s\n", at, fi_name_at(at),
            clsa_status_string(st), msg);
    assert_int_equal(st, CLSA_ERR_DEVICE_LOST);
    assert_non_null(strstr(msg, "(-9999)"));
    const char *k = strstr(msg, "the last launched: ");
    assert_true(k && strncmp(k + 19, "none", 4) != 0);
}

/* clsa_create's context makes a new OpenCL context after the fault: the
 * next calls are right; no OpenCL object of the lost one outlives it. */
static void device_fault_recovers(void **state)
{
    (void)state;
    clsa_context *ctx = tu_context();
    fault_in_sa(ctx);
    assert_non_null(strstr(clsa_last_error(ctx), "clsa made a new one"));
    fi_reset(); /* stops counting nothing: the poison ended with the new context */
    int32_t sa[TEXT_N];
    TU_OK(ctx, clsa_sa32(ctx, text, sa, TEXT_N));
    assert_memory_equal(sa, ref32, sizeof sa);
    if (clsa_bwt) {
        uint8_t bwt[TEXT_N];
        int64_t primary = -1;
        TU_OK(ctx, clsa_bwt(ctx, text, bwt, TEXT_N, &primary));
        assert_memory_equal(bwt, ref_bwt, TEXT_N);
        assert_int_equal(primary, ref_primary);
    }
    clsa_destroy(ctx);
    balances_zero("after a device fault, recovery and clsa_destroy");
}

/* An adopted queue's context cannot be made again by clsa: the fault and
 * every later call say the application must make it again. */
static void device_fault_adopted(void **state)
{
    (void)state;
    cl_context clctx;
    cl_command_queue q = tu_app_queue(&clctx);
    clsa_context *ctx = NULL;
    assert_int_equal(clsa_create_with_queue(q, NULL, &ctx), CLSA_OK);
    fault_in_sa(ctx);
    assert_non_null(strstr(clsa_last_error(ctx), "make the application's OpenCL context"));
    int32_t sa[TEXT_N];
    assert_int_equal(clsa_sa32(ctx, text, sa, TEXT_N), CLSA_ERR_DEVICE_LOST);
    clsa_device_info info;
    TU_OK(ctx, clsa_get_device_info(ctx, &info));
    clsa_destroy(ctx);
    fi_arm(0);
    clReleaseCommandQueue(q);
    clReleaseContext(clctx);
    /* Oclgrind: destroying an adopted queue's context keeps one simulator
     * context for good (host/runtime/oclgrind.c, 2.) */
    if (!strcmp(info.platform, "Oclgrind") && fi_live(FI_CONTEXT) == 1) return;
    balances_zero("after a device fault on an adopted queue and clsa_destroy");
}

int main(void)
{
    make_text();
    fprintf(stderr, "run: context, SA 32/64, scan, compact%s%s%s%s\n", clsa_bwt ? ", BWT" : "",
            clsa_lcp32 ? ", LCP" : "", clsa_fm_create ? ", FM-index create/count/locate" : "",
            clsa_fm_set_create ? ", LCS of k strings, FM-index of a set" : "");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_call_fails_cleanly),
        cmocka_unit_test(device_fault_recovers),
        cmocka_unit_test(device_fault_adopted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
