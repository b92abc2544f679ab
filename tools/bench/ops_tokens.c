/* sa32-u32: the integer-alphabet suffix array (clsa_sa32_u32) of a token
 * stream made from a text input: every maximal run of letters, digits or
 * bytes >= 0x80 is a word, mapped to a dense id in order of first
 * appearance (other bytes separate words and are dropped), as a tokenizer
 * would hand over ids.  n = tokens; MB/s = million tokens per second.
 * Verified against the host backend (clsa_sa32_u32 with no context) up to
 * --check-max tokens. */
#include "bench.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int word_byte(uint8_t c) { return c >= 0x80 || isalnum(c); }

static uint64_t hash_bytes(const uint8_t *p, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Token ids of in's words into *out (malloc'd); returns the count, or -1
 * without memory.  The table holds (start, length) of each word's first
 * occurrence, open addressing. */
static int64_t tokenize(const bench_input *in, uint32_t **out, uint32_t *vocab)
{
    size_t cap = 1 << 20;
    int64_t n = 0;
    uint32_t *ids = malloc(((size_t)in->n / 2 + 1) * sizeof *ids);
    struct slot { int64_t at; uint32_t len, id; } *tab = calloc(cap, sizeof *tab);
    if (!ids || !tab) goto fail;
    for (size_t k = 0; k < cap; k++) tab[k].at = -1;
    *vocab = 0;
    for (int64_t i = 0; i < in->n;) {
        if (!word_byte(in->text[i])) { i++; continue; }
        int64_t s = i;
        while (i < in->n && word_byte(in->text[i])) i++;
        uint32_t len = (uint32_t)(i - s);
        if ((size_t)*vocab * 2 >= cap) { /* grow: rehash every first occurrence */
            struct slot *big = calloc(cap * 2, sizeof *big);
            if (!big) goto fail;
            for (size_t k = 0; k < cap * 2; k++) big[k].at = -1;
            for (size_t k = 0; k < cap; k++) {
                if (tab[k].at < 0) continue;
                size_t j = hash_bytes(in->text + tab[k].at, tab[k].len) & (cap * 2 - 1);
                while (big[j].at >= 0) j = (j + 1) & (cap * 2 - 1);
                big[j] = tab[k];
            }
            free(tab);
            tab = big;
            cap *= 2;
        }
        size_t j = hash_bytes(in->text + s, len) & (cap - 1);
        while (tab[j].at >= 0 &&
               (tab[j].len != len || memcmp(in->text + tab[j].at, in->text + s, len)))
            j = (j + 1) & (cap - 1);
        if (tab[j].at < 0) tab[j] = (struct slot){s, len, (*vocab)++};
        ids[n++] = tab[j].id;
    }
    free(tab);
    *out = ids;
    return n;
fail:
    free(ids);
    free(tab);
    return -1;
}

typedef struct tok_arg {
    clsa_context *ctx;
    const uint32_t *tokens;
    int32_t *sa;
    int64_t n;
} tok_arg;

static clsa_status reset(void *p)
{
    clsa_reset_stats(((tok_arg *)p)->ctx);
    return CLSA_OK;
}

static clsa_status run(void *p)
{
    tok_arg *a = p;
    return clsa_sa32_u32(a->ctx, a->tokens, a->sa, a->n);
}

void op_tokens(bench_env *env, const bench_cfg *cfg, const bench_input *in, bench_row *row)
{
    row_init(row, "sa32-u32", in);
    snprintf(row->ref_name, sizeof row->ref_name, "host-u32");
    uint32_t *tokens = NULL, vocab = 0;
    int64_t n = tokenize(in, &tokens, &vocab);
    if (n < 0) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "tokens");
        return;
    }
    row->n = n;
    row_note(row, "%lld tokens, %u distinct, from %lld bytes", (long long)n, vocab,
             (long long)in->n);
    int32_t *sa = malloc((size_t)n * 4 + 4);
    if (!sa) {
        row_fail(row, NULL, CLSA_ERR_HOST_MEMORY, "host SA buffer");
        free(tokens);
        return;
    }
    tok_arg a = {env->ctx, tokens, sa, n < 1048576 ? n : 1048576};
    run(&a); /* kernels compiled outside the timings */
    a.n = n;
    bench_progress("  sa32-u32 %s: %lld tokens, host memory in/out, up to %d reps", in->name,
                   (long long)n, cfg->reps);
    clsa_status st = bench_repeat(cfg, reset, run, &a, &row->t_min, &row->t_med, &row->reps);
    row_fail(row, env->ctx, st, "clsa_sa32_u32");
    if (row->reps) row_stats(row, env->ctx);
    if (!st && bench_should_check(cfg, n)) {
        int32_t *ref = malloc((size_t)n * 4 + 4);
        double t0 = bench_now();
        clsa_status rs = ref ? clsa_sa32_u32(NULL, tokens, ref, n) : CLSA_ERR_HOST_MEMORY;
        row->ref_s = bench_now() - t0;
        row->valid = rs == CLSA_OK && !memcmp(ref, sa, (size_t)n * 4);
        if (!row->valid) snprintf(row->error, sizeof row->error, "WRONG SA (or host failed: %d)", rs);
        free(ref);
    } else {
        row->ref_s = NAN;
    }
    if (!st && cfg->profile && !bench_past_deadline(cfg)) {
        a.ctx = env->pctx;
        clsa_reset_stats(env->pctx);
        if (run(&a) == CLSA_OK) row_phases(row, env->pctx);
    }
    free(sa);
    free(tokens);
    row_rates(row);
}
