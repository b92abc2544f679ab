/* clsa_sa32_multi / clsa_sa64_multi: the distributed engine (dist_sa.c)
 * with one thread per member of this process (comm_threads.c). */
#include "comm_threads.h"
#include "runtime.h"

#include <stdio.h>

typedef struct member {
    dist_comm c;
    clsa_context *ctx;
    const uint8_t *text;
    int64_t n, *sa;
    clsa_status st;
    char msg[256];
    /* Start gate: 1 run, -1 give up (a later thread could not start, and
     * the barrier would wait for it forever). */
    pthread_mutex_t *lock;
    pthread_cond_t *cond;
    int *go;
} member;

static void *run_member(void *arg)
{
    member *m = arg;
    pthread_mutex_lock(m->lock);
    while (!*m->go) pthread_cond_wait(m->cond, m->lock);
    int go = *m->go;
    pthread_mutex_unlock(m->lock);
    if (go < 0) return NULL;
    int64_t lo = dist_part_lo(m->n, m->c.size, m->c.rank);
    m->st = dist_sa(&m->c, m->ctx, m->text ? m->text + lo : NULL, m->n, m->sa + lo, m->msg,
                    sizeof m->msg);
    return NULL;
}

/* Member 0 runs on the calling thread (under Oclgrind, the one that may
 * launch kernels), the others on threads of their own.  Every member's
 * status is agreed inside dist_sa, so member 0's is the answer. */
static clsa_status run_threads(clsa_context *const *ctxs, int k, const uint8_t *text,
                               int64_t *sa, int64_t n, char *msg, size_t cap)
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
        m[r] = (member){.c = m[r].c, .ctx = ctxs[r], .text = text, .n = n, .sa = sa,
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
    if (started == k) {
        run_member(&m[0]);
        st = m[0].st;
        snprintf(msg, cap, "%s", st ? m[0].msg : "");
    }
    for (int r = 1; r < started; r++) pthread_join(tid[r], NULL);
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

static clsa_status multi(clsa_context *const *ctxs, int k, const uint8_t *text, void *sa,
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
    if (k == 1) return index64 ? clsa_sa64(ctxs[0], text, sa, n) : clsa_sa32(ctxs[0], text, sa, n);
    int64_t *sa64 = index64 ? sa : malloc((size_t)(n ? n : 1) * sizeof *sa64);
    if (!sa64) {
        snprintf(msg, sizeof msg, "%s: out of host memory (%lld SA entries)", name, (long long)n);
        return fail_all(ctxs, k, CLSA_ERR_HOST_MEMORY, msg);
    }
    clsa_status st = run_threads(ctxs, k, text, sa64, n, msg, sizeof msg);
    if (!st && !index64)
        for (int64_t i = 0; i < n; i++) ((int32_t *)sa)[i] = (int32_t)sa64[i];
    if (!index64) free(sa64);
    return st ? fail_all(ctxs, k, st, msg) : CLSA_OK;
}

clsa_status clsa_sa32_multi(clsa_context *const *ctxs, int k, const uint8_t *text, int32_t *sa,
                            int64_t n)
{
    return multi(ctxs, k, text, sa, n, 0);
}

clsa_status clsa_sa64_multi(clsa_context *const *ctxs, int k, const uint8_t *text, int64_t *sa,
                            int64_t n)
{
    return multi(ctxs, k, text, sa, n, 1);
}
