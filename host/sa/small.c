/* The small-input suffix array (docs/SA.md "Small inputs"): below a few
 * MB the general pipeline is bound by its launches and blocking reads,
 * not by the device.  Here: one histogram and codes, one packed-key radix
 * sort whose fault word is checked on the device, one launch for the
 * initial ranks, then two launches a doubling pass over tiles of the SA
 * (cl_kernels/sa/sa_small.cl), sized by n instead of read-back counts;
 * the control words are read every small_check passes.  A group of the
 * initial sort of small_long suffixes or more (periodic texts), one
 * symbol or a faulted sort send the text to the general path. */
#include "sa/small.h"
#include "sa/groups.h"
#include "prim/radix_sort.h"
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "progress.h"
#include "status.h"
#include "tuning.h"

#include <string.h>

/* Control words (sa_small.cl). */
#define SM_FAULT 0
#define SM_SPARE 3 /* zero after sm_codes: the fault word of a checked sort */
#define SM_MORE 8
#define SM_WORK 72
#define SM_CTRL_WORDS 136
#define SM_PER 16 /* window slots a work-item holds */
/* h0 << SM_PASSES passes every text below 2^24 bytes */
#define SM_PASSES 40
/* histogram work-groups at most, and text bytes a work-group at least */
#define SM_HIST_GROUPS 64
#define SM_HIST_CHUNK 65536

typedef struct sm_run {
    clsa_context *ctx;
    cl_uint n, tiles, cap, kb, pb;
    cl_mem text, sa, isa;                 /* the caller's buffer or own (below) */
    cl_mem own_sa, own_isa, hist, codes, ctrl, rctl, keys, skeys, nr, gs, act;
    int pending;                           /* the sort's fault word is in rctl */
} sm_run;

int clsa__sa_small_wanted(const clsa_context *ctx, int64_t n)
{
    return n > 1 && (uint64_t)n >= ctx->tune.small_min && (uint64_t)n <= ctx->tune.small_max &&
           n < ((int64_t)1 << 24) && !ctx->tune.sa_path;
}

/* Keys of the window sort: cap (a power of two) 8-byte keys in local
 * memory, at most 4096 (12 bits of a key) and SM_PER a work-item. */
static cl_uint window_cap(const clsa_context *ctx)
{
    uint64_t lm = ctx->tune.local_mem ? ctx->tune.local_mem : 16384;
    cl_uint cap = 64;
    while (cap < 4096 && cap < SM_PER * ctx->tune.wg && (uint64_t)cap * 2 * 8 + 1024 <= lm)
        cap *= 2;
    uint64_t want = clsa__pow2_floor(ctx->tune.small_cap);
    return ctx->tune.small_cap && want < cap ? (cl_uint)(want < 4 ? 4 : want) : cap;
}

static clsa_status alloc_all(sm_run *r, cl_mem out, int index64, int ranks)
{
    clsa_context *ctx = r->ctx;
    size_t n = r->n;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, 4 * SM_HIST_GROUPS * 256, &r->hist));
    CLSA_TRY(clsa__alloc(ctx, 512, &r->codes));
    CLSA_TRY(clsa__alloc(ctx, 4 * SM_CTRL_WORDS, &r->ctrl));
    CLSA_TRY(clsa__alloc(ctx, CLSA_RADIX_CTL_BYTES, &r->rctl));
    CLSA_TRY(clsa__alloc(ctx, 8 * n, &r->keys));
    CLSA_TRY(clsa__alloc(ctx, 8 * n, &r->skeys));
    CLSA_TRY(clsa__alloc(ctx, 4 * n, &r->nr));
    CLSA_TRY(clsa__alloc(ctx, 4 * n, &r->gs));
    CLSA_TRY(clsa__alloc(ctx, 8 * (size_t)r->tiles, &r->act));
    if (index64 || ranks) CLSA_TRY(clsa__alloc(ctx, 4 * n, &r->own_sa));
    if (index64 || !ranks) CLSA_TRY(clsa__alloc(ctx, 4 * n, &r->own_isa));
    r->sa = r->own_sa ? r->own_sa : out;
    r->isa = r->own_isa ? r->own_isa : out;
done:
    return st;
}

static void free_all(sm_run *r)
{
    cl_mem *m[] = {&r->own_sa, &r->own_isa, &r->hist, &r->codes, &r->ctrl,
                   &r->rctl,   &r->keys,    &r->skeys, &r->nr,   &r->gs, &r->act};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) clsa__free(r->ctx, m[i]);
}

/* Codes of the bytes present, the packed keys and their radix sort (its
 * fault word left on the device), ranks and tile flags (sm_init). */
static clsa_status initial(sm_run *r)
{
    clsa_context *ctx = r->ctx;
    size_t wg = ctx->tune.wg;
    cl_uint n = r->n, groups = (cl_uint)clsa__div_up(n, SM_HIST_CHUNK);
    if (groups > SM_HIST_GROUPS) groups = SM_HIST_GROUPS;
    cl_uint chunk = (cl_uint)clsa__div_up(n, groups), acts = 2 * r->tiles;
    cl_uint tile = r->cap / 2, longmax = (cl_uint)ctx->tune.small_long;
    if (ctx->tune.small_long > n) longmax = n;
    clsa_status st = CLSA_OK;
    CLSA_TRY(CLSA_SA_RUN(r->ctx, "sa_small", 0, "sm_hist", groups * wg, wg, CLSA_KARG(r->text),
                         CLSA_KARG(n),
                 CLSA_KARG(chunk), CLSA_KARG(r->hist), CLSA_KLOCAL(256 * 4)));
    CLSA_TRY(CLSA_SA_RUN(r->ctx, "sa_small", 0, "sm_codes", wg, wg, CLSA_KARG(r->hist),
                         CLSA_KARG(groups),
                 CLSA_KARG(r->codes), CLSA_KARG(r->ctrl), CLSA_KARG(r->act), CLSA_KARG(acts),
                 CLSA_KLOCAL(256 * 4)));
    CLSA_TRY(CLSA_SA_RUN(r->ctx, "sa_small", 0, "sm_keys", n, 0, CLSA_KARG(r->text),
                         CLSA_KARG(n), CLSA_KARG(r->codes),
                 CLSA_KARG(r->ctrl), CLSA_KARG(r->keys), CLSA_KARG(r->sa),
                 CLSA_KLOCAL(256 * 2)));
    CLSA_TRY(clsa__radix_sort_unchecked(ctx, r->keys, r->sa, n, 8, 4, 0, 64, r->skeys, r->nr,
                                        (size_t)n / 4 + 4096, r->rctl, &r->pending));
    cl_mem fault_buf = r->pending ? r->rctl : r->ctrl;
    cl_uint fault_at = r->pending ? CLSA_RADIX_FAULT_AT / 4 : SM_SPARE;
    CLSA_TRY(CLSA_SA_RUN(r->ctx, "sa_small", 0, "sm_init", n, 0, CLSA_KARG(r->keys),
                         CLSA_KARG(r->sa), CLSA_KARG(r->isa),
                 CLSA_KARG(r->nr), CLSA_KARG(r->gs), CLSA_KARG(r->act), CLSA_KARG(r->ctrl),
                 CLSA_KARG(fault_buf),
                 CLSA_KARG(fault_at), CLSA_KARG(n), CLSA_KARG(tile), CLSA_KARG(longmax)));
done:
    return st;
}

static clsa_status one_pass(sm_run *r, cl_uint pass)
{
    clsa_context *ctx = r->ctx;
    size_t wg = ctx->tune.wg;
    clsa_status st = CLSA_OK;
    clsa__set_phase(ctx, CLSA_PHASE_SORT_S);
    CLSA_TRY(CLSA_SA_RUN(r->ctx, "sa_small", 0, "sm_pass", (size_t)r->tiles * wg, wg,
                         CLSA_KARG(r->sa), CLSA_KARG(r->isa),
                 CLSA_KARG(r->nr), CLSA_KARG(r->gs), CLSA_KARG(r->act), CLSA_KARG(r->ctrl),
                 CLSA_KARG(r->keys),
                 CLSA_KARG(r->skeys), CLSA_KARG(r->n), CLSA_KARG(pass), CLSA_KARG(r->tiles),
                 CLSA_KARG(r->kb), CLSA_KARG(r->pb), CLSA_KLOCAL((size_t)r->cap * 8),
                 CLSA_KARG(r->cap)));
    clsa__set_phase(ctx, CLSA_PHASE_ISA_UPDATE);
    CLSA_TRY(CLSA_SA_RUN(r->ctx, "sa_small", 0, "sm_ranks", r->n, 0, CLSA_KARG(r->sa),
                         CLSA_KARG(r->isa), CLSA_KARG(r->nr),
                 CLSA_KARG(r->gs), CLSA_KARG(r->ctrl), CLSA_KARG(r->n), CLSA_KARG(pass)));
done:
    return st;
}

/* Doubling passes until a read of the control words finds no group left
 * unsorted (or a fault: *fault gets its bits). */
static clsa_status passes(sm_run *r, cl_uint *fault)
{
    clsa_context *ctx = r->ctx;
    cl_uint ctrl[SM_CTRL_WORDS];
    unsigned check = ctx->tune.small_check ? ctx->tune.small_check : 1;
    clsa_status st = CLSA_OK;
    for (cl_uint pass = 0; pass < SM_PASSES; pass++) {
        CLSA_TRY(one_pass(r, pass));
        if ((pass + 1) % check && pass + 1 < SM_PASSES) continue;
        CLSA_TRY(clsa__read(ctx, r->ctrl, 0, ctrl, sizeof ctrl));
        *fault = ctrl[SM_FAULT];
        if (*fault) goto done;
        double done_share = 1.0 - 1.0 / (double)(pass + 2); /* passes left unknown */
        CLSA_TRY(clsa__progress(ctx, "doubling", done_share * 0.9));
        if (!ctrl[SM_MORE + pass]) {
            for (cl_uint p = 0; p <= pass; p++) ctx->stats.doubling_passes += ctrl[SM_WORK + p];
            goto done;
        }
    }
    st = clsa__fail(ctx, CLSA_ERR_OPENCL, "small-input suffix array: groups left after %d "
                    "doubling passes (sm_pass): the device computed inconsistent ranks",
                    SM_PASSES);
done:
    return st;
}

/* The result into the caller's 64-bit buffer where it was built in 32 bits. */
static clsa_status finish(sm_run *r, cl_mem out, int index64, int ranks)
{
    if (!index64) return CLSA_OK;
    cl_mem src = ranks ? r->isa : r->sa;
    return CLSA_SA_RUN(r->ctx, "sa_small", 0, "sm_widen", r->n, 0, CLSA_KARG(src),
                       CLSA_KARG(out), CLSA_KARG(r->n));
}

static clsa_status run(sm_run *r, cl_mem out, int index64, int ranks, int *declined)
{
    cl_uint fault = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(alloc_all(r, out, index64, ranks));
    CLSA_TRY(initial(r));
    CLSA_TRY(passes(r, &fault));
    if (fault) {
        clsa__log(r->ctx, "small-input suffix array: the general path takes it (fault %u)",
                  (unsigned)fault);
        *declined = 1;
        goto done;
    }
    CLSA_TRY(finish(r, out, index64, ranks));
done:
    return st;
}

clsa_status clsa__sa_small(clsa_context *ctx, cl_mem text, cl_mem out, int64_t n, int index64,
                           int ranks, int *declined)
{
    *declined = 0;
    if (!clsa__sa_small_wanted(ctx, n)) {
        *declined = 1;
        return CLSA_OK;
    }
    sm_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.text = text;
    r.n = (cl_uint)n;
    r.cap = window_cap(ctx);
    r.tiles = (cl_uint)clsa__div_up(r.n, r.cap / 2);
    r.kb = clsa__bits_of(r.n);
    r.pb = clsa__bits_of(r.n - 1);
    if (33 * (uint64_t)n + (uint64_t)n / 4 + (1 << 16) > clsa__mem_free(ctx)) {
        *declined = 1; /* its 33.5 B/n: a device memory limit leaves the general path */
        return CLSA_OK;
    }
    int prev = clsa__set_phase(ctx, CLSA_PHASE_INITIAL_SORT);
    ctx->stats.doubling_passes = 0;
    clsa_status st = clsa__progress(ctx, "initial sort", 0.0);
    if (!st) st = run(&r, out, index64, ranks, declined);
    if (st == CLSA_ERR_DEVICE_MEMORY) {
        clsa__log(ctx, "small-input suffix array: %s; the general path takes it",
                  clsa__last_error(ctx));
        ctx->message[0] = 0;
        *declined = 1;
        st = CLSA_OK;
    }
    free_all(&r);
    clsa__set_phase(ctx, prev);
    if (!st && !*declined) st = clsa__progress(ctx, "inversion", 1.0);
    return st;
}
