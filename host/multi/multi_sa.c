/* The work of clsa_sa32_multi / clsa_sa64_multi (host/api.c): one thread per member of this
 * process (comm_threads.c).  Members that are distinct device contexts,
 * each with room for a member's working set (clsa__dist_device_fits), sort
 * their part of the suffixes on their devices (host/sa/pd_part.h); any
 * other set (a NULL or host member, a context named twice, a device too
 * small) runs the distributed engine of dist_sa.c, whose sorts are on the
 * host's side.  Where either runs out of device memory, the first context
 * builds it alone, out of core if need be. */
#include "multi_sa.h"
#include "comm_threads.h"
#include "context.h"
#include "status.h"
#include "text_pack.h"
#include "device_member.h"
#include "sa/dispatch.h"
#include "sa/pd_part.h"
#include "sa/sa.h"

#include <stdio.h>
#include <string.h>

typedef struct member {
    dist_comm c;
    clsa_context *ctx;
    const uint8_t *text;
    int64_t n, *sa;
    /* the device engine: splitters, the text's packing shared by every
     * member's upload (may be NULL), and the caller's SA and its width */
    const uint64_t *split;
    clsa__text_share *packed;
    void *out;
    int index64;
    clsa_status st;
    char msg[256];
    /* Start gate: 1 run, -1 give up (a later thread could not start, and
     * the barrier would wait for it forever). */
    pthread_mutex_t *lock;
    pthread_cond_t *cond;
    int *go;
} member;

/* The slice SA[base, base + count) of a 32-bit device SA into the
 * caller's array (a dist_slice_reader; arg: the member). */
static clsa_status read_slice(void *arg, clsa_context *ctx, cl_mem dsa, uint64_t base,
                              uint64_t count)
{
    const member *m = arg;
    void *dst = m->index64 ? (void *)((int64_t *)m->out + base) : (int32_t *)m->out + base;
    return count ? dist_read_slice(ctx, dsa, dst, count, m->index64) : CLSA_OK;
}

static void *run_member(void *arg)
{
    member *m = arg;
    pthread_mutex_lock(m->lock);
    while (!*m->go) pthread_cond_wait(m->cond, m->lock);
    int go = *m->go;
    pthread_mutex_unlock(m->lock);
    if (go < 0) return NULL;
    if (m->split) {
        m->st = dist_device_member(&m->c, m->ctx, m->text, m->n, m->packed, m->split, read_slice,
                                   NULL, m, NULL, m->msg, sizeof m->msg);
        return NULL;
    }
    int64_t lo = dist_part_lo(m->n, m->c.size, m->c.rank);
    m->st = dist_sa(&m->c, m->ctx, m->text ? m->text + lo : NULL, m->n, m->sa + lo, m->msg,
                    sizeof m->msg);
    return NULL;
}

/* What the members run: split NULL, dist_sa into sa; else the device
 * engine into out (32- or 64-bit), from packed where it is not NULL. */
typedef struct engine {
    const uint64_t *split;
    clsa__text_share *packed;
    int64_t *sa;
    void *out;
    int index64;
} engine;

/* Member 0 runs on the calling thread (under Oclgrind, the one that may
 * launch kernels), the others on threads of their own.  The answer is the
 * first failing member's (dist_sa agrees every status; the device engine
 * agrees them up to its last exchange, then reads slices alone). */
static clsa_status run_threads(clsa_context *const *ctxs, int k, const uint8_t *text,
                               const engine *e, int64_t n, char *msg, size_t cap)
{
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
    int go = 0;
    dist_threads *sh = dist_threads_new(k);
    member *m = calloc((size_t)k, sizeof *m);
    pthread_t *tid = calloc((size_t)k, sizeof *tid);
    clsa_status st = CLSA_ERR_HOST_MEMORY;
    snprintf(msg, cap, "out of host memory (state for %d members)", k);
    if (!sh || !m || !tid) goto done;
    for (int r = 0; r < k; r++) {
        dist_comm_threads(&m[r].c, sh, r);
        m[r] = (member){.c = m[r].c, .ctx = ctxs[r], .text = text, .n = n, .sa = e->sa,
                        .split = e->split, .packed = e->packed, .out = e->out,
                        .index64 = e->index64,
                        .lock = &lock, .cond = &cond, .go = &go};
    }
    int started = 1;
    while (started < k && !pthread_create(&tid[started], NULL, run_member, &m[started]))
        started++;
    pthread_mutex_lock(&lock);
    go = started == k ? 1 : -1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    snprintf(msg, cap, "cannot start a thread for each of %d members", k);
    if (started == k) run_member(&m[0]);
    for (int r = 1; r < started; r++) pthread_join(tid[r], NULL);
    if (started == k) {
        int r = 0;
        while (r + 1 < k && !m[r].st) r++;
        st = m[r].st;
        snprintf(msg, cap, "%s", st ? m[r].msg : "");
    }
done:
    dist_threads_free(sh);
    free(m);
    free(tid);
    return st;
}

/* The message goes to every context given, so clsa_last_error works on
 * whichever the caller asks. */
static clsa_status fail_all(clsa_context *const *ctxs, int k, clsa_status st, const char *msg)
{
    for (int r = 0; ctxs && r < k; r++)
        if (ctxs[r]) clsa__fail(ctxs[r], st, "%s", msg);
    return st;
}

static const char *bad_arg(clsa_context *const *ctxs, int k, const uint8_t *text,
                           const void *sa, int64_t n)
{
    if (!ctxs) return "ctxs is NULL";
    if (k < 1) return "k must be at least 1";
    if (n < 0) return "negative n";
    if (n > 0 && !text) return "text is NULL";
    if (n > 0 && !sa) return "sa is NULL";
    return NULL;
}

/* The device engine runs when every member is its own device context
 * that clsa__dist_device_fits as one of k (none Oclgrind's: its kernels are
 * safe only from the thread that made the context, and the members launch
 * from threads of their own). */
static int devices_fit(clsa_context *const *ctxs, int k, int64_t n)
{
    if (k > 255) return 0; /* pd_part.c routes by a byte */
    for (int r = 0; r < k; r++) {
        if (!clsa__dist_device_fits(ctxs[r], n, k)) return 0;
        for (int q = 0; q < r; q++)
            if (ctxs[q] == ctxs[r]) return 0;
    }
    return 1;
}

/* The text packed once for every member's upload, each block by the
 * first member that needs it, not the whole text by each member; NULL where
 * the first member's tuning would not pack it.  The
 * packing goes into the caller's SA array (4 or 8 bytes a symbol against at
 * most half a byte), which no member writes before every member has
 * uploaded it: the uploads come before the members' first collective (the
 * slices' allgather, clsa__pd_part_slices), the downloads after their last.
 * A malloc'd array would cost its page faults (256 MB for 1 GB of DNA) and
 * its unmapping. */
static clsa__text_share *pack_once(clsa_context *const *ctxs, const uint8_t *text, int64_t n,
                                   void *sa)
{
    /* a caller's sa over the text itself: a malloc'd array instead */
    uintptr_t s = (uintptr_t)sa, t = (uintptr_t)text, half = (uintptr_t)n / 2 + 1;
    void *into = s + half <= t || t + (uintptr_t)n <= s ? sa : NULL;
    return ctxs[0]->tune.pack_once ? clsa__text_share_new(ctxs[0], text, (size_t)n, into) : NULL;
}

/* The first context alone (a device context plans its own memory: out of
 * core where the working set would pass its limit). */
static clsa_status first_alone(clsa_context *const *ctxs, const uint8_t *text, void *sa,
                               int64_t n, int index64)
{
    return clsa__sa_call(ctxs[0], text, 1, sa, n, index64);
}

clsa_status clsa__sa_multi(clsa_context *const *ctxs, int k, const uint8_t *text, void *sa,
                           int64_t n, int index64)
{
    const char *name = index64 ? "clsa_sa64_multi" : "clsa_sa32_multi";
    char msg[320];
    const char *bad = bad_arg(ctxs, k, text, sa, n);
    if (bad) {
        snprintf(msg, sizeof msg, "%s: %s", name, bad);
        return fail_all(ctxs, k > 0 ? k : 0, CLSA_ERR_INVALID_ARG, msg);
    }
    if (!index64 && n > INT32_MAX) {
        snprintf(msg, sizeof msg,
                 "%s: %lld bytes are too large for a 32-bit suffix array; use clsa_sa64_multi",
                 name, (long long)n);
        return fail_all(ctxs, k, CLSA_ERR_TOO_LARGE, msg);
    }
    if (n == 0) return CLSA_OK; /* sa may be NULL: nothing for the engine to fill */
    if (k == 1) return first_alone(ctxs, text, sa, n, index64);
    if (devices_fit(ctxs, k, n)) {
        /* one device for one repeated byte (all suffixes but the last 7
         * share a key: nothing to split) and for inputs whose sample says
         * the initial sort would leave too many suffixes unsorted */
        uint64_t *split = malloc(sizeof(uint64_t) * (size_t)k);
        int plan = split ? dist_device_plan(text, n, ctxs[0], k, split) : -1;
        clsa_status st = CLSA_ERR_HOST_MEMORY;
        snprintf(msg, sizeof msg, "%s: out of host memory", name);
        if (plan == 0) {
            clsa__text_share *packed = pack_once(ctxs, text, n, sa);
            engine e = {split, packed, NULL, sa, index64};
            st = run_threads(ctxs, k, text, &e, n, msg, sizeof msg);
            clsa__text_share_free(packed);
        }
        free(split);
        /* one device for a declined input; also where a member ran out of
         * device memory (a device with room for a member's share but not
         * for the whole, given a split less even or a decline after the
         * initial sort): that one plans its memory itself, out of core if
         * need be, and the caller's array is rewritten whole */
        if (plan == 1 || st == CLSA_ERR_DEVICE_MEMORY)
            return first_alone(ctxs, text, sa, n, index64);
        return st ? fail_all(ctxs, k, st, msg) : CLSA_OK;
    }
    int64_t *sa64 = index64 ? sa : malloc((size_t)(n ? n : 1) * sizeof *sa64);
    if (!sa64) {
        snprintf(msg, sizeof msg, "%s: out of host memory (%lld SA entries)", name, (long long)n);
        return fail_all(ctxs, k, CLSA_ERR_HOST_MEMORY, msg);
    }
    engine e = {NULL, NULL, sa64, NULL, 1};
    clsa_status st = run_threads(ctxs, k, text, &e, n, msg, sizeof msg);
    if (!st && !index64)
        for (int64_t i = 0; i < n; i++) ((int32_t *)sa)[i] = (int32_t)sa64[i];
    if (!index64) free(sa64);
    /* the engine's local sorts on a device too small for them: the first
     * context, where it is a device, out of core */
    if (st == CLSA_ERR_DEVICE_MEMORY && ctxs[0] && ctxs[0]->has_device)
        return first_alone(ctxs, text, sa, n, index64);
    return st ? fail_all(ctxs, k, st, msg) : CLSA_OK;
}
