/* clsa_options.algorithm = auto: prefix doubling, unless the text's long
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
 * of the groups doubling would sort after that many symbols. */
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

static const char *names[] = {"auto", "doubling", "skew", "hybrid"};

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

/* Percent of the samples whose window another sample has. */
static clsa_status tied_percent(clsa_context *ctx, cl_mem text, cl_uint sym, uint64_t n,
                                unsigned *percent)
{
    /* per call, not static: two contexts may measure at once */
    uint64_t *pos = malloc(SAMPLES * sizeof *pos), *fp = malloc(SAMPLES * sizeof *fp);
    fp_pos *s = malloc(SAMPLES * sizeof *s);
    cl_ulong len = ctx->tune.skew_window, last = n - len + 1, base = BASE, count = SAMPLES;
    cl_mem dpos = NULL, dfp = NULL;
    clsa_status st = CLSA_OK;
    if (!pos || !fp || !s) {
        st = clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "auto algorithm: out of host memory");
        goto done;
    }
    for (int i = 0; i < SAMPLES; i++) pos[i] = sample_at((uint64_t)i, last);
    /* over the host arrays, outside the pool: carving them from the pool's
     * parents would leave the doubling's buffers of this size unmatched */
    CLSA_TRY(clsa__alloc_host(ctx, pos, SAMPLES * sizeof *pos, &dpos));
    CLSA_TRY(clsa__alloc_host(ctx, fp, SAMPLES * sizeof *fp, &dfp));
    CLSA_TRY(CLSA_SA_RUN(ctx, "skew", 0, "sk_fp_sample", SAMPLES, 0, CLSA_KARG(text),
                         CLSA_KARG(sym), CLSA_KARG(dpos),
                 CLSA_KARG(count), CLSA_KARG(len), CLSA_KARG(base), CLSA_KARG(dfp)));
    CLSA_TRY(clsa__sync_host(ctx, dfp, SAMPLES * sizeof *fp));
    for (int i = 0; i < SAMPLES; i++) s[i] = (fp_pos){fp[i], pos[i]};
    qsort(s, SAMPLES, sizeof *s, by_fp);
    *percent = count_tied(s) * 100 / SAMPLES;
done:
    clsa__free(ctx, &dpos);
    clsa__free(ctx, &dfp);
    free(pos);
    free(fp);
    free(s);
    return st;
}

clsa_status clsa__sa_pick_algorithm(clsa_context *ctx, cl_mem text, int sym, int64_t n,
                                    int *algorithm)
{
    char *why = ctx->stats.sa_algorithm_why;
    size_t cap = sizeof ctx->stats.sa_algorithm_why;
    unsigned percent = 0;
    clsa_status st = CLSA_OK;
    *algorithm = ctx->algorithm;
    if (*algorithm != CLSA_ALGORITHM_AUTO) {
        snprintf(why, cap, "asked for");
    } else if ((uint64_t)n < ctx->tune.skew_min || (uint64_t)n < 2 * ctx->tune.skew_window) {
        *algorithm = CLSA_ALGORITHM_DOUBLING;
        snprintf(why, cap, "auto: %lld symbols, below skew_min %llu", (long long)n,
                 (unsigned long long)ctx->tune.skew_min);
    } else if ((st = tied_percent(ctx, text, (cl_uint)sym, (uint64_t)n, &percent)) == CLSA_OK) {
        int many = percent >= ctx->tune.skew_tied;
        *algorithm = many ? (int)ctx->tune.skew_pick : CLSA_ALGORITHM_DOUBLING;
        snprintf(why, cap, "auto: %u%% of sampled suffixes share their first %u symbols (%s %u%%)",
                 percent, ctx->tune.skew_window, many ? ">=" : "<", ctx->tune.skew_tied);
    }
    ctx->stats.sa_algorithm = *algorithm;
    clsa__log(ctx, "suffix array: %s (%s)", names[*algorithm], why);
    return st;
}
