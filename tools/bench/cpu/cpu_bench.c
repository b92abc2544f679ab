/* cpu-bench: clsa's host suffix sorting beside libsais 2.10.4 (built with
 * OpenMP from the anchors by tools/bench/cpu_bench.sh, never part of clsa)
 * on the same input and threads, and clsa on a CPU OpenCL device (PoCL)
 * when there is one.  Every array is compared with libsais64's.
 *   cpu-bench NAME FILE|random-dna:BYTES THREADS
 * prints one row:
 *   cpu input=NAME bytes=N threads=T libsais64_mbps=.. clsa_host_mbps=..
 *       ratio=.. pocl_mbps=..|NA ok=1|0 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clsa.h"
#include "libsais64.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* A file, or random-dna:BYTES (uniform ACGT, fixed seed). */
static uint8_t *load(const char *src, int64_t *n)
{
    if (!strncmp(src, "random-dna:", 11)) {
        *n = atoll(src + 11);
        uint8_t *t = malloc((size_t)*n);
        uint64_t x = 88172645463325252ull;
        for (int64_t i = 0; t && i < *n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            t[i] = "ACGT"[x >> 62];
        }
        return t;
    }
    FILE *f = fopen(src, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *n = ftell(f);
    rewind(f);
    uint8_t *t = malloc((size_t)*n);
    if (t && fread(t, 1, (size_t)*n, f) != (size_t)*n) *n = 0;
    fclose(f);
    return t;
}

/* Best MB/s of `reps` runs of clsa_sa64 on a context of this backend;
 * -1 when there is no such context or the array differs from want. */
static double clsa_rate(const uint8_t *t, int64_t n, const int64_t *want, int backend,
                        const char *device, int threads, int reps)
{
    clsa_options o;
    clsa_options_init(&o);
    o.backend = backend;
    o.device = device;
    o.threads = threads;
    clsa_context *ctx = NULL;
    if (clsa_create_ex(&o, &ctx, NULL, 0) != CLSA_OK) return -2;
    int64_t *sa = malloc((size_t)n * 8);
    double best = -1;
    for (int r = 0; sa && r < reps; r++) {
        double s = now();
        if (clsa_sa64(ctx, t, sa, n) != CLSA_OK) break;
        double mbps = n / 1e6 / (now() - s);
        if (memcmp(sa, want, (size_t)n * 8)) return free(sa), clsa_destroy(ctx), -1;
        if (mbps > best) best = mbps;
    }
    free(sa);
    clsa_destroy(ctx);
    return best;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: cpu-bench NAME FILE|random-dna:BYTES THREADS\n");
        return 2;
    }
    int threads = atoi(argv[3]), reps = 2;
    int64_t n = 0;
    uint8_t *t = load(argv[2], &n);
    int64_t *want = t && n > 0 ? malloc((size_t)n * 8) : NULL;
    if (!want) {
        fprintf(stderr, "cpu-bench: cannot read %s\n", argv[2]);
        return 1;
    }
    double ls = 0;
    for (int r = 0; r < reps; r++) {
        double s = now();
        if (libsais64_omp(t, want, n, 0, NULL, threads) != 0) return 1;
        double mbps = n / 1e6 / (now() - s);
        if (mbps > ls) ls = mbps;
    }
    double host = clsa_rate(t, n, want, CLSA_BACKEND_HOST, NULL, threads, reps);
    double pocl = getenv("CPU_BENCH_NO_POCL")
                      ? -2
                      : clsa_rate(t, n, want, CLSA_BACKEND_DEVICE, "portable", threads, 1);
    char pb[32] = "NA";
    if (pocl > 0) snprintf(pb, sizeof pb, "%.1f", pocl);
    int ok = host > 0 && pocl != -1;
    printf("cpu input=%s bytes=%lld threads=%d libsais64_mbps=%.1f clsa_host_mbps=%.1f "
           "ratio=%.2f pocl_mbps=%s ok=%d\n",
           argv[1], (long long)n, threads, ls, host, host > 0 ? host / ls : 0.0, pb, ok);
    free(t);
    free(want);
    return ok ? 0 : 1;
}
