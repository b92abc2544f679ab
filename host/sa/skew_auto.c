/* clsa_options.algorithm = auto: prefix doubling, unless most suffixes
 * share a long prefix with another suffix (periodic texts, Fibonacci and
 * Thue-Morse words, many repeats: docs/SA.md "Choosing the algorithm"),
 * where doubling passes over nearly all suffixes about log2(repeat) times
 * and skew sorts in a fixed number of sorts a level.
 *
 * The measurement: SAMPLES evenly spaced windows of skew_window symbols
 * are fingerprinted; one pass over an eighth of the text (SPARSE)
 * fingerprints its windows and marks the samples whose window occurs at
 * another position too.  Their share estimates the share of suffixes still
 * tied after that many symbols. */
#include "skew.h"
#include "groups.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "status.h"

#include <stdio.h>
#include <string.h>

#define RUN(ctx, name, global, ...)                                                     \
    clsa__sa_run(ctx, "skew", 0, name, global, 0,                                       \
                 sizeof((clsa__karg[]){__VA_ARGS__}) / sizeof(clsa__karg),             \
                 (clsa__karg[]){__VA_ARGS__})

#define SAMPLES 1024
#define SLOTS (2 * SAMPLES) /* a power of two (the kernel masks) */
#define BASE 1000003u
#define CHUNK 1024u /* window starts a work-item */
/* One chunk in SPARSE is scanned: repeats throughout a text (periodic,
 * Fibonacci, many copies) are found all the same, a repeat with a few
 * copies less often (doubling then, which is the safe side), and the pass
 * costs an eighth of a read of the text. */
#define SPARSE 8u
#define P61 (((uint64_t)1 << 61) - 1)

static const char *names[] = {"auto", "doubling", "skew", "hybrid"};

static uint64_t mulmod(uint64_t a, uint64_t b)
{
    unsigned __int128 p = (unsigned __int128)a * b;
    uint64_t r = (uint64_t)(p & P61) + (uint64_t)(p >> 61);
    r = (r & P61) + (r >> 61);
    return r >= P61 ? r - P61 : r;
}

typedef struct fp_table {
    uint64_t key[SLOTS], pos[SLOTS];
    int self[SLOTS]; /* another sample has the same window */
} fp_table;

/* The samples' fingerprints (fp, at pos) into the open-addressing table. */
static void fill_table(fp_table *t, const uint64_t *fp, const uint64_t *pos)
{
    memset(t, 0, sizeof *t);
    for (int s = 0; s < SAMPLES; s++) {
        uint64_t k = fp[s] % SLOTS;
        while (t->key[k] && t->key[k] != fp[s] + 1) k = (k + 1) % SLOTS;
        if (t->key[k] && t->pos[k] != pos[s]) t->self[k] = 1; /* short texts repeat samples */
        t->key[k] = fp[s] + 1;
        t->pos[k] = pos[s];
    }
}

/* Percent of the samples whose window occurs elsewhere. */
static clsa_status tied_percent(clsa_context *ctx, cl_mem text, cl_uint sym, uint64_t n,
                                unsigned *percent)
{
    static fp_table t; /* the context is locked; the table is too large for the stack */
    cl_ulong len = ctx->tune.skew_window, last = n - len + 1, base = BASE, top = 1;
    cl_ulong chunk = CHUNK, stride = (cl_ulong)CHUNK * SPARSE, count = SAMPLES;
    cl_uint slots = SLOTS;
    uint64_t pos[SAMPLES], fp[SAMPLES];
    uint32_t hit[SLOTS];
    cl_mem dpos = NULL, dfp = NULL, dtab = NULL, dtpos = NULL, dhit = NULL;
    clsa_status st = CLSA_OK;
    for (int s = 0; s < SAMPLES; s++) pos[s] = (uint64_t)s * (last - 1) / (SAMPLES - 1);
    for (cl_ulong i = 1; i < len; i++) top = mulmod(top, base);
    CLSA_TRY(clsa__alloc(ctx, sizeof pos, &dpos));
    CLSA_TRY(clsa__alloc(ctx, sizeof fp, &dfp));
    CLSA_TRY(clsa__write(ctx, dpos, 0, pos, sizeof pos));
    CLSA_TRY(RUN(ctx, "sk_fp_sample", SAMPLES, CLSA_KARG(text), CLSA_KARG(sym), CLSA_KARG(dpos),
                 CLSA_KARG(count), CLSA_KARG(len), CLSA_KARG(base), CLSA_KARG(dfp)));
    CLSA_TRY(clsa__read(ctx, dfp, 0, fp, sizeof fp));
    fill_table(&t, fp, pos);
    CLSA_TRY(clsa__alloc(ctx, sizeof t.key, &dtab));
    CLSA_TRY(clsa__alloc(ctx, sizeof t.pos, &dtpos));
    CLSA_TRY(clsa__alloc(ctx, sizeof hit, &dhit));
    CLSA_TRY(clsa__write(ctx, dtab, 0, t.key, sizeof t.key));
    CLSA_TRY(clsa__write(ctx, dtpos, 0, t.pos, sizeof t.pos));
    CLSA_TRY(clsa__fill_zero(ctx, dhit, 0, sizeof hit));
    CLSA_TRY(RUN(ctx, "sk_fp_scan", clsa__div_up((size_t)last, (size_t)stride), CLSA_KARG(text),
                 CLSA_KARG(sym), CLSA_KARG(last), CLSA_KARG(len), CLSA_KARG(base),
                 CLSA_KARG(top), CLSA_KARG(chunk), CLSA_KARG(stride), CLSA_KARG(dtab), CLSA_KARG(dtpos),
                 CLSA_KARG(slots), CLSA_KARG(dhit)));
    CLSA_TRY(clsa__read(ctx, dhit, 0, hit, sizeof hit));
    unsigned tied = 0;
    for (int s = 0; s < SAMPLES; s++) {
        uint64_t k = fp[s] % SLOTS;
        while (t.key[k] != fp[s] + 1) k = (k + 1) % SLOTS;
        tied += t.self[k] || hit[k];
    }
    *percent = tied * 100 / SAMPLES;
done:
    clsa__free(ctx, &dpos);
    clsa__free(ctx, &dfp);
    clsa__free(ctx, &dtab);
    clsa__free(ctx, &dtpos);
    clsa__free(ctx, &dhit);
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
        snprintf(why, cap, "auto: %u%% of sampled suffixes repeat their first %u symbols (%s %u%%)",
                 percent, ctx->tune.skew_window, many ? ">=" : "<", ctx->tune.skew_tied);
    }
    ctx->stats.sa_algorithm = *algorithm;
    clsa__log(ctx, "suffix array: %s (%s)", names[*algorithm], why);
    return st;
}
