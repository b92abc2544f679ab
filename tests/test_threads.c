/* Concurrency: the documented rule (clsa.h) is that a context may be shared
 * between threads, calls on one context being serialised by its lock.
 * - two threads, each with its own context, in parallel: correct results;
 * - two threads sharing one context: correct results, and the context's
 *   counters add up exactly (kernel launches of the two threads' calls =
 *   twice those of one thread's), which lost updates would break. */
#include "testutil.h"
#include "gen.h"

#include <divsufsort.h>
#include <pthread.h>

#pragma weak clsa_bwt

typedef struct job {
    clsa_context *ctx; /* shared, or NULL: the thread opens its own */
    const uint8_t *text;
    const int32_t *ref;
    size_t n;
    int rounds;
    char error[512];
} job;

/* One round: suffix array (32 and 64 bit), scan, and BWT when present. */
static int round_of_work(clsa_context *ctx, const job *j, char *err, size_t cap)
{
    int32_t *sa = malloc(j->n * 4);
    int64_t *sa64 = malloc(j->n * 8);
    uint32_t *v = malloc(j->n * 4);
    uint8_t *bwt = malloc(j->n);
    int bad = 0;
    clsa_status st = CLSA_OK;
    if (!sa || !sa64 || !v || !bwt) {
        snprintf(err, cap, "out of memory");
        bad = 1;
        goto done;
    }
    if ((st = clsa_sa32(ctx, j->text, sa, (int64_t)j->n)) ||
        (st = clsa_sa64(ctx, j->text, sa64, (int64_t)j->n))) {
        snprintf(err, cap, "sa: %s", clsa_last_error(ctx));
        bad = 1;
        goto done;
    }
    for (size_t i = 0; i < j->n && !bad; i++)
        if (sa[i] != j->ref[i] || sa64[i] != j->ref[i]) {
            snprintf(err, cap, "sa wrong at %zu", i);
            bad = 1;
        }
    for (size_t i = 0; i < j->n; i++) v[i] = j->text[i];
    if (!bad && (st = clsa_scan_u32(ctx, v, v, j->n, 1))) {
        snprintf(err, cap, "scan: %s", clsa_last_error(ctx));
        bad = 1;
    }
    uint32_t sum = 0;
    for (size_t i = 0; i < j->n && !bad; i++) {
        sum += j->text[i];
        if (v[i] != sum) {
            snprintf(err, cap, "scan wrong at %zu", i);
            bad = 1;
        }
    }
    if (!bad && clsa_bwt) {
        int64_t primary;
        if (clsa_bwt(ctx, j->text, bwt, (int64_t)j->n, &primary)) {
            snprintf(err, cap, "bwt: %s", clsa_last_error(ctx));
            bad = 1;
        } else if (bwt[0] != j->text[j->n - 1]) {
            snprintf(err, cap, "bwt[0] wrong");
            bad = 1;
        }
    }
done:
    free(sa);
    free(sa64);
    free(v);
    free(bwt);
    return bad;
}

static void *worker(void *arg)
{
    job *j = arg;
    clsa_context *ctx = j->ctx;
    if (!ctx) {
        clsa_options o;
        clsa_options_init(&o);
        o.backend = CLSA_BACKEND_DEVICE;
        char err[256];
        if (clsa_create_ex(&o, &ctx, err, sizeof err)) {
            snprintf(j->error, sizeof j->error, "create: %s", err);
            return NULL;
        }
    }
    for (int r = 0; r < j->rounds && !j->error[0]; r++)
        round_of_work(ctx, j, j->error, sizeof j->error);
    if (!j->ctx) clsa_destroy(ctx);
    return NULL;
}

static void make_job(job *j, size_t n, unsigned sigma, uint64_t seed)
{
    memset(j, 0, sizeof *j);
    uint8_t *t = tu_malloc(n);
    int32_t *ref = tu_malloc(n * 4);
    gen_fill(t, n, GEN_RANDOM, sigma, seed);
    assert_int_equal(divsufsort(t, ref, (saidx_t)n), 0);
    j->text = t;
    j->ref = ref;
    j->n = n;
    j->rounds = tu_small() ? 1 : 3;
}

static void free_job(job *j)
{
    free((void *)j->text);
    free((void *)j->ref);
}

static void run_pair(job *a, job *b)
{
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, worker, a), 0);
    assert_int_equal(pthread_create(&tb, NULL, worker, b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    if (a->error[0]) fail_msg("thread A: %s", a->error);
    if (b->error[0]) fail_msg("thread B: %s", b->error);
}

static void own_contexts(void **state)
{
    (void)state;
    job a, b;
    make_job(&a, tu_size(30000, 200), 4, 1);
    make_job(&b, tu_size(20011, 150), 200, 2);
    run_pair(&a, &b);
    free_job(&a);
    free_job(&b);
}

static void shared_context(void **state)
{
    (void)state;
    job a, b;
    size_t n = tu_size(25000, 200);
    make_job(&a, n, 3, 5);
    make_job(&b, n, 3, 5); /* same work: the launch counts must double */
    /* One thread's launches, measured alone on a warm context. */
    clsa_context *ctx = tu_context();
    char err[512] = "";
    if (round_of_work(ctx, &a, err, sizeof err)) fail_msg("%s", err);
    clsa_reset_stats(ctx);
    if (round_of_work(ctx, &a, err, sizeof err)) fail_msg("%s", err);
    clsa_stats one;
    clsa_get_stats(ctx, &one);
    clsa_reset_stats(ctx);
    a.ctx = b.ctx = ctx;
    run_pair(&a, &b);
    clsa_stats two;
    clsa_get_stats(ctx, &two);
    if (two.kernel_launches != one.kernel_launches * (uint64_t)(a.rounds + b.rounds))
        fail_msg("launches: %llu with two threads, want %d x %llu",
                 (unsigned long long)two.kernel_launches, a.rounds + b.rounds,
                 (unsigned long long)one.kernel_launches);
    assert_int_equal(two.current_device_bytes, 0);
    clsa_destroy(ctx);
    free_job(&a);
    free_job(&b);
}

int main(void)
{
    clsa_destroy(tu_context()); /* skips cleanly when the device is missing */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(own_contexts),
        cmocka_unit_test(shared_context),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
