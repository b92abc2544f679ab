/* A small pool of host threads for the CPU suffix sorter (par_sa.c): the
 * caller is thread 0 and runs each task beside the workers; a task returns
 * when every thread has finished it.  Also the default thread count. */
#ifndef CLSA_CPU_PAR_POOL_H
#define CLSA_CPU_PAR_POOL_H

typedef struct clsa_pool clsa_pool;

/* fn(arg, tid, threads) on every thread, tid 0 the caller's. */
typedef void (*clsa_pool_fn)(void *arg, int tid, int threads);

/* A pool of `threads` threads (the caller and threads - 1 workers); NULL
 * without memory or threads.  threads <= 1 gives a pool that runs tasks
 * on the caller alone. */
clsa_pool *clsa__pool_new(int threads);
void clsa__pool_free(clsa_pool *pool);
int clsa__pool_threads(const clsa_pool *pool);
void clsa__pool_run(clsa_pool *pool, clsa_pool_fn fn, void *arg);

/* The host threads a construction uses by default: CLSA_THREADS when set
 * (a positive number), else the cores this process may run on (its
 * affinity mask, capped by a cgroup v2 cpu.max quota); at least 1. */
int clsa__cpu_threads(void);

/* The cores of the affinity mask capped by a cgroup v2 quota given as the
 * text of a cpu.max file ("max 100000", "200000 100000"); for the tests. */
int clsa__cpu_quota_cap(int cores, const char *cpu_max);

#endif
