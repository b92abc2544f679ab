/* Differential test of the drop-in libdivsufsort (compat/divsufsort): the
 * stock libdivsufsort.so.3/libdivsufsort64.so.3 and ours are both opened by
 * path with RTLD_LOCAL (same sonames, same symbol names: neither may see
 * the other), and every function is called on both with the same
 * arguments: bad ones, n = 0, 1, 2 and generated texts.
 *
 *   dss_diff cpu     2000 inputs a width on the CPU path (CLSA_BACKEND=host)
 *   dss_diff device  the device path forced at every size
 *                    (CLSA_COMPAT_MIN_BYTES=0; fewer inputs, tiny ones
 *                    under CLSA_TEST_SMALL), asserting the device ran;
 *   dss_diff no-opencl  every size asks for the device, but the OpenCL library
 *                    cannot be loaded: no context, the CPU path answers.
 * Both modes first sort on four threads at once (the shared context);
 * device mode at the end unloads the drop-in and loads it again.
 * REF_DSS32/REF_DSS64 and OUR_DSS32/OUR_DSS64 name the four libraries. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clsa.h"
#include "dss_diff.h"

int failures;
int device_mode;

void gen_text(uint8_t *t, int64_t n, int kind, uint64_t *s)
{
    static const int sigma[] = {1, 2, 4, 256};
    int k = sigma[rnd(s) % 4];
    int64_t period = 1 + (int64_t)(rnd(s) % 9);
    for (int64_t i = 0; i < n; i++) {
        switch (kind) {
        case 0: t[i] = (uint8_t)(rnd(s) % (uint64_t)k); break;
        case 1: t[i] = (uint8_t)('a' + i % period); break;
        case 2: t[i] = (uint8_t)(i < 2 ? 'a' + i : 0); break; /* Fibonacci below */
        case 3: t[i] = (uint8_t)(i / period % 2 ? 'x' : 'y'); break;
        case 4: t[i] = (uint8_t)(rnd(s) % 16 ? 'A' : 'A' + rnd(s) % 4); break;
        default: t[i] = (uint8_t)"ACGT"[rnd(s) % 4]; break;
        }
    }
    if (kind == 2) { /* Fibonacci word: repeat the prefix pattern */
        int64_t a = 1, b = 2;
        while (b < n) {
            for (int64_t i = 0; i < a && b + i < n; i++) t[b + i] = t[i];
            int64_t c = a + b;
            a = b;
            b = c;
        }
    }
    if (kind == 4 && n > 0) t[n - 1] = (uint8_t)(rnd(s) % 256);
}

void capture_stderr(void (*fn)(void *), void *arg, char *out, size_t cap)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t got = fread(out, 1, cap - 1, tmp);
    out[got] = 0;
    fclose(tmp);
}

#define IDX int32_t
#define W 32
#define T(x) x##32
#include "dss_diff_tmpl.h"
#undef IDX
#undef W
#undef T

#define IDX int64_t
#define W 64
#define T(x) x##64
#include "dss_diff_tmpl.h"

/* Concurrent callers of the shared context: each thread sorts its own
 * texts with the drop-in and with the stock library. */
typedef struct {
    void *ref, *our;
    int sorts;
    int64_t max_n;
    uint64_t seed;
    int bad;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    int32_t (*rs)(const uint8_t *, int32_t *, int32_t) =
        (int32_t(*)(const uint8_t *, int32_t *, int32_t))dlsym(w->ref, "divsufsort");
    int32_t (*os)(const uint8_t *, int32_t *, int32_t) =
        (int32_t(*)(const uint8_t *, int32_t *, int32_t))dlsym(w->our, "divsufsort");
    uint8_t *t = malloc((size_t)w->max_n);
    int32_t *a = malloc((size_t)w->max_n * 4), *b = malloc((size_t)w->max_n * 4);
    for (int i = 0; i < w->sorts && rs && os; i++) {
        int32_t n = (int32_t)(w->max_n / 2 + rnd(&w->seed) % (uint64_t)(w->max_n / 2));
        gen_text(t, n, i % 6, &w->seed);
        w->bad |= rs(t, a, n) != os(t, b, n) || memcmp(a, b, (size_t)n * 4);
    }
    free(t);
    free(a);
    free(b);
    return NULL;
}

static void threads(void *ref, void *our, int sorts, int64_t max_n)
{
    enum { K = 4 };
    pthread_t th[K];
    worker w[K];
    for (int i = 0; i < K; i++) {
        w[i] = (worker){ref, our, sorts, max_n, 77 + (uint64_t)i, 0};
        pthread_create(&th[i], NULL, work, &w[i]);
    }
    for (int i = 0; i < K; i++) {
        pthread_join(th[i], NULL);
        EXPECT(!w[i].bad, "thread %d: divsufsort differs", i);
    }
}

static void *open_lib(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) printf("dlopen %s: %s\n", path, dlerror());
    return h;
}

/* The drop-in's shared context ran the last call on the device. */
static int device_ran(void *our)
{
    clsa_context *(*ctx_fn)(void) = (clsa_context * (*)(void)) dlsym(our, "clsa_compat_context");
    clsa_status (*stats)(const clsa_context *, clsa_stats *) =
        (clsa_status(*)(const clsa_context *, clsa_stats *))dlsym(our, "clsa_get_stats");
    clsa_context *ctx = ctx_fn ? ctx_fn() : NULL;
    clsa_stats st;
    if (!ctx || !stats || stats(ctx, &st) != CLSA_OK) return 0;
    return st.last_backend == CLSA_BACKEND_DEVICE;
}

int main(int argc, char **argv)
{
    device_mode = argc > 1 && !strcmp(argv[1], "device");
    int no_opencl = argc > 1 && !strcmp(argv[1], "no-opencl");
    setenv("CLSA_COMPAT_MIN_BYTES", "0", 1);
    if (no_opencl) setenv("CLSA_OPENCL_LIBRARY", "/nonexistent/libOpenCL.so.1", 1);
    else if (!device_mode) setenv("CLSA_BACKEND", "host", 1);
    int small = getenv("CLSA_TEST_SMALL") != NULL;
    int cases = device_mode ? (small ? 2 : 60) : no_opencl ? 100 : 2000;
    if (getenv("DSS_DIFF_CASES")) cases = atoi(getenv("DSS_DIFF_CASES"));
    int64_t max_n = device_mode ? (small ? 120 : 3000) : 5000;
    void *r32 = open_lib(REF_DSS32), *r64 = open_lib(REF_DSS64);
    void *o32 = open_lib(OUR_DSS32), *o64 = open_lib(OUR_DSS64);
    if (!r32 || !r64 || !o32 || !o64) return 1;
    EXPECT(dlsym(o32, "clsa_compat_context") && !dlsym(r32, "clsa_compat_context"),
           "the drop-in and the stock library are not the two opened");
    threads(r32, o32, device_mode && small ? 1 : 8, max_n);
    if (run32(r32, o32, cases, max_n) || run64(r64, o64, cases, max_n)) return 1;
    if (device_mode) EXPECT(device_ran(o32), "the drop-in did not run on the device");
    if (device_mode) { /* unloaded (the context released), loaded again: a new one */
        dlclose(o32);
        dlclose(o64);
        o32 = open_lib(OUR_DSS32);
        if (!o32) return 1;
        threads(r32, o32, 1, max_n);
        EXPECT(device_ran(o32), "no device after the drop-in was loaded again");
    }
    if (no_opencl) {
        clsa_context *(*ctx_fn)(void) = (clsa_context * (*)(void)) dlsym(o32, "clsa_compat_context");
        EXPECT(ctx_fn && !ctx_fn(), "a context without OpenCL");
    }
    printf("%s: %d cases per width, %d failures\n", argc > 1 ? argv[1] : "cpu", cases,
           failures);
    return failures != 0;
}
