/* clsa-sais-bench: libsais() and libsais_bwt() of clsa's libsais API
 * (libclsa_sais, as a program linked to it calls them) on English-like
 * text, beside libdivsufsort's divsufsort() / divbwt() on the same input
 * as the CPU reference.  One line per row:
 *   sais op=<call> size=<bytes> path=<device|cpu> first_ms=<first call>
 *        median_ms=<warm calls> mbps=<MB/s of the median> ok=<1: same SA/BWT as libdivsufsort>
 * Usage: clsa-sais-bench SIZE...   (SIZE: bytes with an optional K or M) */
#include <divsufsort.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compat_ctx.h"
#include "gen.h"
#include "libsais.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct input {
    uint8_t *t, *u, *ref_u;
    int32_t *sa, *ref_sa, n, ref_primary;
} input;

/* One call of op (0: libsais, 1: libsais_bwt, 2: divsufsort, 3: divbwt). */
static int run(input *in, int op)
{
    switch (op) {
    case 0: return libsais(in->t, in->sa, in->n, 0, NULL);
    case 1: return libsais_bwt(in->t, in->u, in->sa, in->n, 0, NULL);
    case 2: return divsufsort(in->t, in->ref_sa, in->n);
    default: return divbwt(in->t, in->ref_u, in->ref_sa, in->n);
    }
}

static int same(const input *in, int op, int rc)
{
    if (op == 0) return rc == 0 && !memcmp(in->sa, in->ref_sa, (size_t)in->n * 4);
    if (op == 1) return rc == in->ref_primary && !memcmp(in->u, in->ref_u, (size_t)in->n);
    return rc >= 0;
}

/* Times op; returns the first call's result. */
static int row(input *in, int op, int reps)
{
    static const char *names[] = {"libsais", "libsais_bwt", "divsufsort", "divbwt"};
    double first = now_ms(), t[64];
    int rc = run(in, op);
    first = now_ms() - first;
    for (int i = 0; i < reps; i++) {
        double s = now_ms();
        run(in, op);
        t[i] = now_ms() - s;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    double med = t[reps / 2];
    const char *path = op >= 2 ? "cpu" : clsa_compat_use_device(in->n) ? "device" : "cpu";
    printf("sais op=%s size=%d path=%s first_ms=%.2f median_ms=%.3f mbps=%.1f ok=%d\n", names[op],
           (int)in->n, path, first, med, in->n / 1048576.0 / (med / 1e3), same(in, op, rc));
    fflush(stdout);
    return rc;
}

static long parse_size(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == 'K' || *end == 'k') v <<= 10;
    if (*end == 'M' || *end == 'm') v <<= 20;
    return v;
}

int main(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        input in;
        in.n = (int32_t)parse_size(argv[a]);
        in.t = malloc((size_t)in.n);
        in.u = malloc((size_t)in.n);
        in.ref_u = malloc((size_t)in.n);
        in.sa = malloc((size_t)in.n * 4);
        in.ref_sa = malloc((size_t)in.n * 4);
        if (in.n <= 0 || !in.t || !in.u || !in.ref_u || !in.sa || !in.ref_sa) return 1;
        gen_words(in.t, (size_t)in.n, 0, 45);
        int reps = in.n >= (64 << 20) ? 3 : 15;
        in.ref_primary = row(&in, 3, in.n >= (64 << 20) ? 1 : reps);
        row(&in, 2, in.n >= (64 << 20) ? 1 : reps);
        row(&in, 0, reps);
        row(&in, 1, reps);
        free(in.t);
        free(in.u);
        free(in.ref_u);
        free(in.sa);
        free(in.ref_sa);
    }
    return 0;
}
