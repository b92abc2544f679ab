/* Clocks, repetition with a time budget, progress lines on stderr. */
#include "bench.h"

#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int bench_past_deadline(const bench_cfg *cfg)
{
    return cfg->deadline > 0 && bench_wall() >= cfg->deadline;
}

int bench_should_check(const bench_cfg *cfg, int64_t n)
{
    return cfg->check && !(cfg->check_max > 0 && (double)n > cfg->check_max);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

clsa_status bench_repeat(const bench_cfg *cfg, bench_fn prepare, bench_fn fn, void *arg,
                         double *tmin, double *tmed, int *count)
{
    double t[BENCH_MAX_REPS];
    int reps = cfg->reps < 1 ? 1 : (cfg->reps > BENCH_MAX_REPS ? BENCH_MAX_REPS : cfg->reps);
    int k = 0;
    double spent = 0;
    clsa_status st = CLSA_OK;
    *tmin = *tmed = 0;
    while (k < reps) {
        if (prepare && (st = prepare(arg)) != CLSA_OK) break;
        double t0 = bench_now();
        st = fn(arg);
        double dt = bench_now() - t0;
        if (st) break;
        t[k++] = dt;
        spent += dt;
        if (cfg->row_budget_s > 0 && spent >= cfg->row_budget_s) break;
        if (bench_past_deadline(cfg)) break;
    }
    *count = k;
    if (k > 0) {
        qsort(t, (size_t)k, sizeof *t, cmp_double);
        *tmin = t[0];
        *tmed = k % 2 ? t[k / 2] : 0.5 * (t[k / 2 - 1] + t[k / 2]);
    }
    return st;
}

void bench_progress(const char *fmt, ...)
{
    static double start = -1;
    if (start < 0) start = bench_now();
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[bench %7.1fs] ", bench_now() - start);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    fflush(stderr);
    va_end(ap);
}
