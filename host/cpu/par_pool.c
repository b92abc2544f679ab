/* Host thread pool: workers wait on a task generation (a short spin, then
 * a condition variable, so idle workers leave shared cores alone); the
 * last worker to finish wakes the caller. */
#define _GNU_SOURCE
#include "par_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SPINS 4000

/* A spin-wait hint to the core (x86: pause), nothing elsewhere. */
#if defined(__x86_64__) || defined(__i386__)
#define RELAX() __builtin_ia32_pause()
#else
#define RELAX() ((void)0)
#endif

struct clsa_pool {
    int threads, stop;
    int spins; /* before sleeping; none when the threads outnumber the cores */
    pthread_t *tid;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    atomic_uint gen;
    atomic_int pending;
    clsa_pool_fn fn;
    void *arg;
};

typedef struct worker_arg {
    clsa_pool *pool;
    int id;
} worker_arg;

/* Wait until the generation moves past seen; returns the new one. */
static unsigned wait_gen(clsa_pool *p, unsigned seen)
{
    for (int i = 0; i < p->spins; i++, RELAX())
        if (atomic_load_explicit(&p->gen, memory_order_acquire) != seen) return seen + 1;
    pthread_mutex_lock(&p->mu);
    while (atomic_load(&p->gen) == seen) pthread_cond_wait(&p->go, &p->mu);
    pthread_mutex_unlock(&p->mu);
    return seen + 1;
}

static void finish_one(clsa_pool *p)
{
    if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) != 1) return;
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->done);
    pthread_mutex_unlock(&p->mu);
}

static void *worker(void *a)
{
    worker_arg w = *(worker_arg *)a;
    free(a);
    clsa_pool *p = w.pool;
    for (unsigned seen = 0;;) {
        seen = wait_gen(p, seen);
        pthread_mutex_lock(&p->mu);
        int stop = p->stop;
        clsa_pool_fn fn = p->fn;
        void *arg = p->arg;
        pthread_mutex_unlock(&p->mu);
        if (stop) return NULL;
        fn(arg, w.id, p->threads);
        finish_one(p);
    }
}

static int start_workers(clsa_pool *p)
{
    for (int i = 1; i < p->threads; i++) {
        worker_arg *w = malloc(sizeof *w);
        if (!w) return i;
        *w = (worker_arg){p, i};
        if (pthread_create(&p->tid[i], NULL, worker, w)) {
            free(w);
            return i;
        }
    }
    return p->threads;
}

clsa_pool *clsa__pool_new(int threads)
{
    clsa_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->threads = threads < 1 ? 1 : threads;
    p->spins = p->threads > sysconf(_SC_NPROCESSORS_ONLN) ? 0 : SPINS;
    p->tid = calloc((size_t)p->threads, sizeof *p->tid);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->gen, 0);
    atomic_init(&p->pending, 0);
    if (!p->tid) {
        clsa__pool_free(p);
        return NULL;
    }
    int started = start_workers(p);
    if (started < p->threads) {
        p->threads = started;
        clsa__pool_free(p);
        return NULL;
    }
    return p;
}

void clsa__pool_run(clsa_pool *p, clsa_pool_fn fn, void *arg)
{
    if (p->threads == 1) {
        fn(arg, 0, 1);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    atomic_store(&p->pending, p->threads - 1);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    fn(arg, 0, p->threads);
    for (int i = 0; i < p->spins; i++, RELAX())
        if (atomic_load_explicit(&p->pending, memory_order_acquire) == 0) return;
    pthread_mutex_lock(&p->mu);
    while (atomic_load(&p->pending) != 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void clsa__pool_free(clsa_pool *p)
{
    if (!p) return;
    if (p->tid) {
        pthread_mutex_lock(&p->mu);
        p->stop = 1;
        atomic_fetch_add(&p->gen, 1);
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
        for (int i = 1; i < p->threads; i++) pthread_join(p->tid[i], NULL);
    }
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p->tid);
    free(p);
}

int clsa__pool_threads(const clsa_pool *p)
{
    return p->threads;
}

int clsa__cpu_quota_cap(int cores, const char *cpu_max)
{
    long long quota = 0, period = 0;
    if (cpu_max && sscanf(cpu_max, "%lld %lld", &quota, &period) == 2 && quota > 0 &&
        period > 0) {
        long long q = (quota + period - 1) / period;
        if (q < cores) cores = (int)q;
    }
    return cores < 1 ? 1 : cores;
}

/* The cgroup v2 cpu.max of this process's group ("" when none). */
static void read_cpu_max(char *buf, size_t len)
{
    char path[512] = "/sys/fs/cgroup", line[400];
    buf[0] = 0;
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f) return;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "0::", 3)) {
            line[strcspn(line, "\n")] = 0;
            snprintf(path, sizeof path, "/sys/fs/cgroup%s/cpu.max", line + 3);
        }
    fclose(f);
    if (!(f = fopen(path, "r"))) return;
    if (!fgets(buf, (int)len, f)) buf[0] = 0;
    fclose(f);
}

int clsa__cpu_threads(void)
{
    const char *env = getenv("CLSA_THREADS");
    if (env && atoi(env) > 0) return atoi(env);
    cpu_set_t set;
    int cores = 1;
    if (sched_getaffinity(0, sizeof set, &set) == 0) cores = CPU_COUNT(&set);
    char max[128];
    read_cpu_max(max, sizeof max);
    return clsa__cpu_quota_cap(cores, max);
}
