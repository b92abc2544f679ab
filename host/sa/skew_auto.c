/* clsa_options.algorithm = auto: run-length reduction where the text's
 * runs are long (mean run from CLSA_TUNE runlen_min_run: the suffixes
 * to sort drop to one a run), else prefix doubling, unless the text's long
 * prefixes fall in few large groups (periodic texts, Fibonacci and
 * Thue-Morse words, runs, many copies of a short block: docs/SA.md
 * "Choosing the algorithm"), where every doubling pass sorts nearly all
 * suffixes in large groups about log2(repeat) times, and skew sorts in a
 * fixed number of sorts a level.  Repeats of a long block in few copies
 * (groups of a few suffixes) stay with doubling: its small-group sorts
 * are cheaper than skew's levels (H200, tools/bench/skew_bench.sh).
 *
 * The measurement: SAMPLES windows of skew_window symbols at random
 * are fingerprinted on the device (polynomial mod 2^61 - 1) and sorted on
 * the host; the share of samples whose window another sample has grows
 * with the share of suffix pairs sharing that prefix, i.e. with the size
 * of the groups doubling would sort after that many symbols.  The same
 * kernel counts the windows' neighbouring pairs that differ: their mean
 * run. */
#include "skew.h"
#include "groups.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "status.h"

#include <stdio.h>
#include <stdlib.h>

#define SAMPLES 4096
#define BASE 1000003u

static const char *names[] = {"auto", "doubling", "skew", "hybrid", "runlen"};

/* Sample i's window start: pseudo-random (splitmix64), so no period of the
 * text lines up with the samples' spacing. */
static uint64_t sample_at(uint64_t i, uint64_t last)
{
    uint64_t z = (i + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (z ^ (z >> 31)) % last;
}

typedef struct fp_pos {
    uint64_t fp, pos;
} fp_pos;

static int by_fp(const void *a, const void *b)
{
    const fp_pos *x = a, *y = b;
    return x->fp != y->fp ? (x->fp < y->fp ? -1 : 1) : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Samples whose fingerprint another sample at another position has (s
 * sorted by fingerprint, then position). */
static unsigned count_tied(const fp_pos *s)
{
    unsigned tied = 0;
    for (size_t i = 0, j; i < SAMPLES; i = j) {
        for (j = i + 1; j < SAMPLES && s[j].fp == s[i].fp; j++) {}
        if (s[j - 1].pos != s[i].pos) tied += (unsigned)(j - i); /* short texts repeat samples */
    }
    return tied;
}

/* What auto measures of a text: the percent of the samples whose window
 * another sample has, and the mean run length over the windows. */
typedef struct measure {
    unsigned tied;
    double mean_run;
} measure;

/* The mean run of the windows: their neighbouring pairs a pair that
 * differs (no cut at all: longer than all of them). */
static double mean_run(const uint32_t *cuts, cl_ulong len)
{
    uint64_t all = 0, pairs = (uint64_t)SAMPLES * (len - 1);
    for (int i = 0; i < SAMPLES; i++) all += cuts[i];
    return (double)pairs / (double)(all ? all : 1);
}

static clsa_status measure_text(clsa_context *ctx, cl_mem text, cl_uint sym, uint64_t n,
                                measure *out)
{
    /* per call, not static: two contexts may measure at once */
    uint64_t *pos = malloc(SAMPLES * sizeof *pos), *fp = malloc(SAMPLES * sizeof *fp);
    uint32_t *cuts = malloc(SAMPLES * sizeof *cuts);
    fp_pos *s = malloc(SAMPLES * sizeof *s);
    cl_ulong len = ctx->tune.skew_window, last = n - len + 1, base = BASE, count = SAMPLES;
    cl_mem dpos = NULL, dfp = NULL, dcuts = NULL;
    clsa_status st = CLSA_OK;
    if (!pos || !fp || !cuts || !s) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "auto algorithm: out of host memory");
        goto done;
    }
    for (int i = 0; i < SAMPLES; i++) pos[i] = sample_at((uint64_t)i, last);
    /* over the host arrays, outside the pool: carving them from the pool's
     * parents would leave the doubling's buffers of this size unmatched */
    CLSA_TRY(clsa__alloc_host(ctx, pos, SAMPLES * sizeof *pos, &dpos));
    CLSA_TRY(clsa__alloc_host(ctx, fp, SAMPLES * sizeof *fp, &dfp));
    CLSA_TRY(clsa__alloc_host(ctx, cuts, SAMPLES * sizeof *cuts, &dcuts));
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_fp_sample", SAMPLES, 0, CLSA_KARG(text),
                         CLSA_KARG(sym), CLSA_KARG(dpos), CLSA_KARG(count), CLSA_KARG(len),
                         CLSA_KARG(base), CLSA_KARG(dfp), CLSA_KARG(dcuts)));
    CLSA_TRY(clsa__sync_host(ctx, dfp, SAMPLES * sizeof *fp));
    CLSA_TRY(clsa__sync_host(ctx, dcuts, SAMPLES * sizeof *cuts));
    for (int i = 0; i < SAMPLES; i++) s[i] = (fp_pos){fp[i], pos[i]};
    qsort(s, SAMPLES, sizeof *s, by_fp);
    out->tied = count_tied(s) * 100 / SAMPLES;
    out->mean_run = len > 1 ? mean_run(cuts, len) : 0.0;
done:
    clsa__free(ctx, &dpos);
    clsa__free(ctx, &dfp);
    clsa__free(ctx, &dcuts);
    free(pos);
    free(fp);
    free(cuts);
    free(s);
    return st;
}

/* Whether auto measures a text of n symbols (else prefix doubling). */
static int measured(const clsa_context *ctx, int64_t n)
{
    return (uint64_t)n >= ctx->tune.skew_min && (uint64_t)n >= 2 * ctx->tune.skew_window;
}

/* Auto's pick from the measurement: runlen where runs are long, skew
 * where the windows repeat, else prefix doubling. */
static int pick_measured(const clsa_context *ctx, const measure *m, char *why, size_t cap)
{
    unsigned min_run = ctx->tune.runlen_min_run;
    if (min_run && m->mean_run >= min_run) {
        snprintf(why, cap, "auto: mean run %.1f symbols (runlen from %u)", m->mean_run, min_run);
        return CLSA_ALGORITHM_RUNLEN;
    }
    int many = m->tied >= ctx->tune.skew_tied;
    snprintf(why, cap, "auto: mean run %.1f, %u%% of sampled suffixes share their first %u "
             "symbols (%s %u%%)", m->mean_run, m->tied, ctx->tune.skew_window, many ? ">=" : "<",
             ctx->tune.skew_tied);
    return many ? (int)ctx->tune.skew_pick : CLSA_ALGORITHM_DOUBLING;
}

clsa_status clsa__sa_pick_algorithm(clsa_context *ctx, cl_mem text, int sym, int64_t n,
                                    int *algorithm)
{
    char *why = ctx->stats.sa_algorithm_why;
    size_t cap = sizeof ctx->stats.sa_algorithm_why;
    measure m = {0, 0.0};
    clsa_status st = CLSA_OK;
    *algorithm = ctx->algorithm;
    if (*algorithm != CLSA_ALGORITHM_AUTO) {
        snprintf(why, cap, "asked for");
    } else if (!measured(ctx, n)) {
        *algorithm = CLSA_ALGORITHM_DOUBLING;
        snprintf(why, cap, "auto: %lld symbols, below skew_min %llu", (long long)n,
                 (unsigned long long)ctx->tune.skew_min);
    } else if ((st = measure_text(ctx, text, (cl_uint)sym, (uint64_t)n, &m)) == CLSA_OK) {
        *algorithm = pick_measured(ctx, &m, why, cap);
    }
    ctx->stats.sa_algorithm = *algorithm;
    clsa__log(ctx, "suffix array: %s (%s)", names[*algorithm], why);
    return st;
}

clsa_status clsa__sa_pick_repeats(clsa_context *ctx, cl_mem text, int sym, int64_t n,
                                  int *algorithm)
{
    measure m = {0, 0.0};
    clsa_status st = CLSA_OK;
    *algorithm = CLSA_ALGORITHM_DOUBLING;
    if (measured(ctx, n)) st = measure_text(ctx, text, (cl_uint)sym, (uint64_t)n, &m);
    if (st == CLSA_OK && measured(ctx, n) && m.tied >= ctx->tune.skew_tied)
        *algorithm = (int)ctx->tune.skew_pick;
    clsa__log(ctx, "runlen's reduced text (%lld symbols): %s (%u%% tied)", (long long)n,
              names[*algorithm], m.tied);
    return st;
}
