/* Device suffix array by run-length reduction (docs/SA.md "Run-length
 * reduction"; kernels cl_kernels/sa/runlen.cl).
 *
 * The text splits into maximal runs c^a.  A suffix with r symbols of its
 * run of c left, then d (or the end), against another starting with c:
 * equal r, the suffixes after the runs decide; else the shorter run meets
 * c against d, so it is smaller where d < c (the end: d below every c) and
 * larger where d > c.  Order: (c, flag = d > c, r ascending without the
 * flag, descending with it), then the suffix at the next run's start.
 * 1. runs: head flags, their sum (every position's run), the starts;
 * 2. the runs sorted by (c, flag, +-a) and named: the reduced text R of
 *    m symbols.  S(start k) = c^a S(start k+1) and R[k..] = R[k] R[k+1..]
 *    compare by the same key first and the same rest after, the empty rest
 *    lowest in both: by induction on the rest, R's suffix order is the
 *    order of the suffixes at run starts.  R is sorted by prefix doubling
 *    or skew (auto's measurement, CLSA_TUNE runlen_inner), on the host
 *    below skew_host symbols, not at all where every run's key differs;
 * 3. the positions listed in the order of their next run's start suffix
 *    (the last run's first: the end is lowest), each with its key (c, flag,
 *    +-r): one stable radix sort by the key gives the suffix array. */
#include "runlen.h"
#include "groups.h"
#include "skew.h"
#include "sa.h"
#include "prim/radix_sort.h"
#include "prim/scan.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "progress.h"
#include "status.h"

#include <stdio.h>
#include <string.h>

typedef struct rl_text {
    cl_mem text;
    cl_uint sym;    /* bytes a symbol */
    cl_ulong n, m;  /* symbols, runs */
    cl_uint maxrun; /* the longest run */
    cl_uint ab;     /* bits of a key's (flag, +-r) part */
    cl_uint part;   /* 0: one sort of (symbol, flag, +-r); 1: by (flag, +-r), then symbol */
} rl_text;

static size_t table_cap(uint64_t x) { return (size_t)(x / 4) + 4096; }

/* run (n words) = every position's run number + 1; *starts (m + 1
 * words, made here) = the runs' first positions, then n. */
static clsa_status count_runs(clsa_context *ctx, rl_text *t, cl_mem run, cl_mem *starts)
{
    uint32_t m = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(CLSA_SA_RUN(ctx, "runlen", 0, "rl_heads", t->n, 0, CLSA_KARG(t->text),
                         CLSA_KARG(t->sym), CLSA_KARG(t->n), CLSA_KARG(run)));
    CLSA_TRY(clsa__scan(ctx, run, run, (size_t)t->n, 1, 0, &m));
    t->m = m;
    if (!starts) goto done;
    CLSA_TRY(clsa__alloc(ctx, (t->m + 1) * 4, starts));
    CLSA_TRY(CLSA_SA_RUN(ctx, "runlen", 0, "rl_starts", t->n, 0, CLSA_KARG(run), CLSA_KARG(t->n),
                         CLSA_KARG(t->m), CLSA_KARG(*starts)));
done:
    return st;
}

/* t->maxrun, and the key layout it gives (aval < 2 maxrun). */
static clsa_status longest(clsa_context *ctx, rl_text *t, cl_mem starts)
{
    size_t wg = ctx->tune.wg, cap = (size_t)(ctx->tune.compute_units ? ctx->tune.compute_units : 1) * 8;
    size_t groups = clsa__div_up((size_t)t->m, wg * 64);
    size_t least = clsa__div_up((size_t)t->m, wg * CLSA_LOOP_BUDGET); /* strides a work-item */
    cl_mem most = NULL;
    clsa_status st = CLSA_OK;
    if (cap < least) cap = least;
    if (groups > cap) groups = cap;
    CLSA_TRY(clsa__alloc(ctx, 4, &most));
    CLSA_TRY(clsa__fill_zero(ctx, most, 0, 4));
    CLSA_TRY(CLSA_SA_RUN(ctx, "runlen", 0, "rl_longest", groups * wg, 0, CLSA_KARG(starts),
                         CLSA_KARG(t->m), CLSA_KARG(most), CLSA_KLOCAL(4)));
    CLSA_TRY(clsa__read(ctx, most, 0, &t->maxrun, 4));
    t->ab = clsa__bits_of(2 * (uint64_t)t->maxrun - 1);
    t->part = 8 * t->sym + t->ab > 32;
done:
    clsa__free(ctx, &most);
    return st;
}

/* Stable sort of vals by keys, the keys' (flag, +-r) and symbol parts as
 * t->part says: where they do not fit one sort, keys hold the first part
 * and sym_keys (a launch) writes the symbols for the second. */
static clsa_status sort_by_key(clsa_context *ctx, const rl_text *t, cl_mem keys, cl_mem vals,
                               size_t count, const char *sym_keys, cl_mem starts)
{
    cl_mem scratch = NULL, sv = NULL;
    cl_uint ab = t->ab, sym_part = 2;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, count * 4, &scratch));
    CLSA_TRY(clsa__alloc(ctx, count * 4, &sv));
    CLSA_TRY(clsa__radix_sort_capped(ctx, keys, vals, count, 4, 4, 0,
                                     t->part ? ab : 8 * t->sym + ab, scratch, sv,
                                     table_cap(count)));
    if (!t->part) goto done;
    if (starts) /* runs: the symbol at their start */
        CLSA_TRY(CLSA_SA_RUN(ctx, "runlen", 0, sym_keys, count, 0, CLSA_KARG(t->text),
                             CLSA_KARG(t->sym), CLSA_KARG(t->n), CLSA_KARG(starts),
                             CLSA_KARG(vals), CLSA_KARG(t->m), CLSA_KARG(t->maxrun),
                             CLSA_KARG(ab), CLSA_KARG(sym_part), CLSA_KARG(keys)));
    else
        CLSA_TRY(CLSA_SA_RUN(ctx, "runlen", 0, sym_keys, count, 0, CLSA_KARG(t->text),
                             CLSA_KARG(t->sym), CLSA_KARG(vals), CLSA_KARG(t->n),
                             CLSA_KARG(keys)));
    CLSA_TRY(clsa__radix_sort_capped(ctx, keys, vals, count, 4, 4, 0, 8 * t->sym, scratch, sv,
                                     table_cap(count)));
done:
    clsa__free(ctx, &scratch);
    clsa__free(ctx, &sv);
    return st;
}

/* Step 2: vals (m words) gets the runs in the order of their keys, names
 * (m words) their names 1..*k in that order. */
static clsa_status sort_runs(clsa_context *ctx, const rl_text *t, cl_mem starts, cl_mem vals,
                             cl_mem names, uint32_t *k)
{
    cl_uint part = t->part;
    clsa_status st = CLSA_OK;
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_iota", t->m, 0, CLSA_KARG(t->m), CLSA_KARG(vals)));
    CLSA_TRY(CLSA_SA_RUN(ctx, "runlen", 0, "rl_run_keys", t->m, 0, CLSA_KARG(t->text),
                         CLSA_KARG(t->sym), CLSA_KARG(t->n), CLSA_KARG(starts), CLSA_KARG(vals),
                         CLSA_KARG(t->m), CLSA_KARG(t->maxrun), CLSA_KARG(t->ab),
                         CLSA_KARG(part), CLSA_KARG(names)));
    CLSA_TRY(sort_by_key(ctx, t, names, vals, (size_t)t->m, "rl_run_keys", starts));
    CLSA_TRY(CLSA_SA_RUN(ctx, "runlen", 0, "rl_run_heads", t->m, 0, CLSA_KARG(t->text),
                         CLSA_KARG(t->sym), CLSA_KARG(t->n), CLSA_KARG(starts), CLSA_KARG(vals),
                         CLSA_KARG(t->m), CLSA_KARG(t->maxrun), CLSA_KARG(names)));
    CLSA_TRY(clsa__scan(ctx, names, names, (size_t)t->m, 1, 0, k));
done:
    return st;
}

/* The reduced text r (m codes 1..k, may be overwritten) sorted into
 * sa_r: on the host when short, else by what runlen_inner says (0: auto's
 * measurement of repeats, 1 prefix doubling, 2 skew). */
static clsa_status sort_reduced(clsa_context *ctx, cl_mem r, uint64_t m, cl_mem sa_r)
{
    int algorithm = (int)ctx->tune.runlen_inner;
    clsa_status st = CLSA_OK;
    if (m < ctx->tune.skew_host) return clsa__sa_host_short(ctx, r, m, sa_r);
    if (algorithm == 0) CLSA_TRY(clsa__sa_pick_repeats(ctx, r, 4, (int64_t)m, &algorithm));
    if (algorithm == CLSA_ALGORITHM_DOUBLING)
        return clsa__sa_device_sym(ctx, r, 4, 1, sa_r, (int64_t)m, 0);
    return clsa__sa_device_skew(ctx, r, 4, 1, sa_r, (int64_t)m, 0,
                                algorithm == CLSA_ALGORITHM_HYBRID);
done:
    return st;
}

/* Step 2 whole: *sa_r (m words, made here) = the run starts' order;
 * r (at least m words) is scratch; *starts freed once the runs are named. */
static clsa_status run_order(clsa_context *ctx, const rl_text *t, cl_mem *starts, cl_mem r,
                             cl_mem *sa_r)
{
    cl_mem names = NULL, vals = NULL;
    uint32_t k = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, t->m * 4, &vals));
    CLSA_TRY(clsa__alloc(ctx, t->m * 4, &names));
    CLSA_TRY(sort_runs(ctx, t, *starts, vals, names, &k));
    clsa__free(ctx, starts); /* made again for step 3: R's sort has that room */
    if (k == t->m) { /* every run's key differs: their order is the sort's */
        *sa_r = vals;
        vals = NULL;
        goto done;
    }
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_names", t->m, 0, CLSA_KARG(vals), CLSA_KARG(names),
                         CLSA_KARG(t->m), CLSA_KARG(r)));
    clsa__free(ctx, &vals);
    clsa__free(ctx, &names);
    CLSA_TRY(clsa__alloc(ctx, t->m * 4, sa_r));
    double lo = ctx->progress_lo, hi = ctx->progress_hi; /* its reports: 0.1..0.6 of ours */
    clsa__progress_slice(ctx, lo + 0.1 * (hi - lo), lo + 0.6 * (hi - lo));
    st = sort_reduced(ctx, r, t->m, *sa_r);
    clsa__progress_slice(ctx, lo, hi);
done:
    clsa__free(ctx, &vals);
    clsa__free(ctx, &names);
    return st;
}

/* off (m words) = where each run's positions begin when the positions
 * are listed in the order of their next run's start suffix. */
static clsa_status run_offsets(clsa_context *ctx, const rl_text *t, cl_mem starts, cl_mem sa_r,
                               cl_mem off)
{
    cl_mem lens = NULL;
    cl_ulong slots = t->m + 1;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, slots * 4, &lens));
    CLSA_TRY(CLSA_SA_RUN(ctx, "runlen", 0, "rl_slot_lengths", slots, 0, CLSA_KARG(starts),
                         CLSA_KARG(sa_r), CLSA_KARG(t->m), CLSA_KARG(lens)));
    CLSA_TRY(clsa__scan(ctx, lens, lens, (size_t)slots, 0, 0, NULL));
    CLSA_TRY(CLSA_SA_RUN(ctx, "runlen", 0, "rl_offsets", t->m, 0, CLSA_KARG(sa_r),
                         CLSA_KARG(lens), CLSA_KARG(t->m), CLSA_KARG(off)));
done:
    clsa__free(ctx, &lens);
    return st;
}

/* Step 3: vals (n words) gets the suffix array; frees *sa_r once used. */
static clsa_status place(clsa_context *ctx, rl_text *t, cl_mem *sa_r, cl_mem vals)
{
    cl_mem off = NULL, run = NULL, starts = NULL, keys = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, t->n * 4, &run));
    CLSA_TRY(count_runs(ctx, t, run, &starts));
    CLSA_TRY(clsa__alloc(ctx, t->m * 4, &off));
    CLSA_TRY(run_offsets(ctx, t, starts, *sa_r, off));
    clsa__free(ctx, sa_r);
    CLSA_TRY(clsa__alloc(ctx, t->n * 4, &keys));
    CLSA_TRY(CLSA_SA_RUN(ctx, "runlen", 0, "rl_place", t->n, 0, CLSA_KARG(t->text),
                         CLSA_KARG(t->sym), CLSA_KARG(t->n), CLSA_KARG(run), CLSA_KARG(starts),
                         CLSA_KARG(off), CLSA_KARG(t->maxrun), CLSA_KARG(t->ab),
                         CLSA_KARG(t->part), CLSA_KARG(vals), CLSA_KARG(keys)));
    clsa__free(ctx, &run);
    clsa__free(ctx, &off);
    clsa__free(ctx, &starts);
    CLSA_TRY(sort_by_key(ctx, t, keys, vals, (size_t)t->n, "rl_sym_keys", NULL));
done:
    clsa__free(ctx, &off);
    clsa__free(ctx, &run);
    clsa__free(ctx, &starts);
    clsa__free(ctx, &keys);
    return st;
}

/* Whether t's runs are too short for the memory bound (mean below
 * runlen_floor: the reduced text's sort on top of the arrays of n) or one
 * too long for the keys (aval < 2 maxrun must fit 32 bits). */
static int declines(const clsa_context *ctx, const rl_text *t)
{
    unsigned floor = ctx->tune.runlen_floor;
    return (floor && t->m * floor > t->n) || t->maxrun > (1u << 31);
}

/* Texts runlen declines: prefix doubling, said in the stats. */
static clsa_status decline(clsa_context *ctx, const rl_text *t, int writable, cl_mem sa,
                           int index64)
{
    size_t len = strlen(ctx->stats.sa_algorithm_why);
    snprintf(ctx->stats.sa_algorithm_why + len, sizeof ctx->stats.sa_algorithm_why - len,
             "; runlen: mean run %.1f, doubling", (double)t->n / (double)t->m);
    ctx->stats.sa_algorithm = CLSA_ALGORITHM_DOUBLING;
    ctx->sa_ran = CLSA_ALGORITHM_DOUBLING;
    clsa__pool_drain(ctx, 1); /* runlen's idle buffers would only add to doubling's peak */
    clsa__log(ctx, "suffix array: runlen declines (%llu runs), prefix doubling",
              (unsigned long long)t->m);
    return clsa__sa_device_sym(ctx, t->text, (int)t->sym, writable, sa, (int64_t)t->n, index64);
}

/* Steps 1-3 on a text of n >= 1 symbols. */
static clsa_status build(clsa_context *ctx, rl_text *t, int writable, cl_mem sa, int index64)
{
    cl_mem run = NULL, starts = NULL, sa_r = NULL, vals = NULL;
    cl_uint n32 = (cl_uint)t->n;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, t->n * 4, &run));
    CLSA_TRY(count_runs(ctx, t, run, &starts));
    clsa__free(ctx, &run);
    CLSA_TRY(longest(ctx, t, starts));
    if (declines(ctx, t)) {
        clsa__free(ctx, &starts);
        st = decline(ctx, t, writable, sa, index64);
        goto done;
    }
    CLSA_TRY(clsa__progress(ctx, "runlen", 0.1));
    CLSA_TRY(run_order(ctx, t, &starts, sa, &sa_r));
    CLSA_TRY(clsa__progress(ctx, "runlen", 0.6));
    if (index64) CLSA_TRY(clsa__alloc(ctx, t->n * 4, &vals));
    CLSA_TRY(place(ctx, t, &sa_r, index64 ? vals : sa));
    if (index64)
        CLSA_TRY(CLSA_SA_RUN(ctx, "sa_small", 0, "sm_widen", t->n, 0, CLSA_KARG(vals),
                             CLSA_KARG(sa), CLSA_KARG(n32)));
done:
    clsa__free(ctx, &run);
    clsa__free(ctx, &starts);
    clsa__free(ctx, &sa_r);
    clsa__free(ctx, &vals);
    return st;
}

clsa_status clsa__sa_device_runlen(clsa_context *ctx, cl_mem text, int sym, int text_writable,
                                   cl_mem sa, int64_t n, int index64)
{
    rl_text t = {text, (cl_uint)sym, (cl_ulong)n, 0, 0, 0, 0};
    int prev = clsa__set_phase(ctx, CLSA_PHASE_INITIAL_SORT), go = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__sa_device_start(ctx, n, "runlen", &go));
    if (!go) goto done;
    CLSA_TRY(build(ctx, &t, text_writable, sa, index64));
    CLSA_TRY(clsa__progress(ctx, "runlen", 1.0));
done:
    clsa__set_phase(ctx, prev);
    return st;
}
