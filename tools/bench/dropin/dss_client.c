/* An ordinary libdivsufsort client for tools/bench/dropin_bench.sh: built
 * against the stock library (-ldivsufsort), run as it is with or without
 * the drop-in on LD_LIBRARY_PATH.
 *   dss_client sa|bwt N REPS [SEED]
 * sorts REPS English-like texts of N bytes (windows of one generated
 * buffer) with divsufsort() or divbwt() and prints one line:
 *   op n reps first_s best_s total_s checksum
 * (first_s: the first call, best_s: the fastest call, checksum: FNV-1a of
 * every output, the same for both libraries when they agree). */
#include <divsufsort.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: dss_client sa|bwt N REPS [SEED]\n");
        return 2;
    }
    int bwt = !strcmp(argv[1], "bwt");
    long n = atol(argv[2]), reps = atol(argv[3]);
    size_t len = (size_t)n < (1u << 20) ? (1u << 20) : (size_t)n;
    uint8_t *text = malloc(len), *u = malloc((size_t)n + 1);
    saidx_t *sa = malloc(((size_t)n + 1) * sizeof *sa);
    if (!text || !u || !sa || n < 1 || reps < 1) return 1;
    gen_words(text, len, 0, argc > 4 ? strtoull(argv[4], NULL, 10) : 45);
    double first = 0, best = 1e30, t0 = now();
    uint64_t h = 14695981039346656037ull;
    for (long r = 0; r < reps; r++) {
        const uint8_t *t = text + (size_t)r * 4099 % (len - (size_t)n + 1);
        double a = now();
        saidx_t p = bwt ? divbwt(t, u, NULL, n) : divsufsort(t, sa, n);
        double d = now() - a;
        if (r == 0) first = d;
        if (d < best) best = d;
        h = bwt ? fnv(fnv(h, u, (size_t)n), &p, sizeof p) : fnv(h, sa, (size_t)n * sizeof *sa);
    }
    printf("%s %ld %ld %.6f %.6f %.6f %016llx\n", argv[1], n, reps, first, best, now() - t0,
           (unsigned long long)h);
    return 0;
}
