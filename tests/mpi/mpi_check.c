/* The distributed suffix array under mpirun, checked against libdivsufsort.
 *
 *   mpirun -np P mpi_check device|host [fault]
 *
 * device: each rank opens the device run_impl.sh names (CLSA_DEVICE) and
 * sorts its tuples there; host: no context.  Without "fault": generated
 * inputs (fixed seeds; every rank makes the same bytes) through
 * clsa_mpi_sa64 (slices gathered on rank 0) and clsa_mpi_sa_file (32- and
 * 64-bit files read back), each compared with divsufsort64.  With "fault":
 * CLSA_MPI_FAIL makes the last rank fail at each phase in turn; every rank
 * must get an error, the same message on every rank, and no output file
 * (nor its temporary) may exist.  Every rank exits with rank 0's verdict. */
#include <divsufsort64.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clsa_mpi.h"
#include "gen.h"

static int rank_, size_;
static int failures;
static clsa_context *open_device(int profile);

static void fail(const char *fmt, const char *what, long long n)
{
    failures++;
    if (rank_ == 0) {
        fprintf(stderr, "FAIL: ");
        fprintf(stderr, fmt, what, n);
        fputc('\n', stderr);
    }
}

static int64_t *reference(const uint8_t *text, int64_t n)
{
    int64_t *sa = malloc((size_t)(n ? n : 1) * sizeof *sa);
    if (n && divsufsort64(text, sa, n) != 0) abort();
    return sa;
}

/* The slices of every rank, in rank order, on rank 0. */
static int64_t *gather(const int64_t *part, int64_t n)
{
    int *counts = malloc(sizeof(int) * (size_t)size_), *displs = malloc(sizeof(int) * (size_t)size_);
    for (int r = 0; r < size_; r++) {
        int64_t lo = clsa_mpi_part_lo(n, size_, r);
        counts[r] = (int)(clsa_mpi_part_lo(n, size_, r + 1) - lo);
        displs[r] = (int)lo;
    }
    int64_t *all = malloc((size_t)(n ? n : 1) * sizeof *all);
    MPI_Gatherv(part, counts[rank_], MPI_INT64_T, all, counts, displs, MPI_INT64_T, 0,
                MPI_COMM_WORLD);
    free(counts);
    free(displs);
    return all;
}

/* This rank's window of text between guard bytes unlike the text's own
 * neighbours (a read outside the window changes the order); *base gets the
 * block to free. */
static const uint8_t *window_copy(const uint8_t *text, int64_t n, uint8_t **base)
{
    enum { GUARD = 96 };
    int64_t lo = clsa_mpi_part_lo(n, size_, rank_), hi = clsa_mpi_part_lo(n, size_, rank_ + 1),
            end = clsa_mpi_window_hi(n, size_, rank_);
    if (end < hi || end - hi > 64 || end > n) fail("window of %s n=%lld", "clsa_mpi_window_hi", n);
    uint8_t *b = malloc((size_t)(end - lo) + 2 * GUARD);
    for (int i = 0; i < GUARD; i++) {
        b[i] = (uint8_t)(lo > i ? ~text[lo - 1 - i] : 0xA5);
        b[GUARD + (end - lo) + i] = (uint8_t)(end + i < n ? ~text[end + i] : 0x5A);
    }
    if (end > lo) memcpy(b + GUARD, text + lo, (size_t)(end - lo));
    *base = b;
    return b + GUARD;
}

/* part: clsa_mpi_sa64 (whole text) or clsa_mpi_sa64_part (the rank's window
 * only). */
static void check_api(clsa_context *ctx, const uint8_t *text, int64_t n, const char *name,
                      int part_only)
{
    int64_t lo = clsa_mpi_part_lo(n, size_, rank_), hi = clsa_mpi_part_lo(n, size_, rank_ + 1);
    int64_t *part = malloc((size_t)(hi > lo ? hi - lo : 1) * sizeof *part);
    char err[256];
    uint8_t *base = NULL;
    clsa_status st =
        part_only ? clsa_mpi_sa64_part(MPI_COMM_WORLD, ctx, window_copy(text, n, &base), n, part,
                                       err, sizeof err)
                  : clsa_mpi_sa64(MPI_COMM_WORLD, ctx, text, n, part, err, sizeof err);
    free(base);
    int bad = st != CLSA_OK;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad) {
        if (rank_ == 0) fprintf(stderr, "clsa_mpi_sa64%s: %s\n", part_only ? "_part" : "", err);
        fail("clsa_mpi_sa64 failed on %s n=%lld", name, n);
        free(part);
        return;
    }
    int64_t *all = gather(part, n);
    if (rank_ == 0) {
        int64_t *ref = reference(text, n);
        if (n && memcmp(all, ref, (size_t)n * sizeof *ref))
            fail(part_only ? "SA differs on %s n=%lld (windows only)" : "SA differs on %s n=%lld",
                 name, n);
        free(ref);
    }
    free(all);
    free(part);
}

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*len ? *len : 1);
    if (*len && fread(b, 1, *len, f) != *len) *len = 0;
    fclose(f);
    return b;
}

static void paths(char *in, char *out, size_t cap)
{
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    int id = (int)getpid();
    MPI_Bcast(&id, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(in, cap, "%s/clsa-mpi-check-%d.txt", dir, id);
    snprintf(out, cap, "%s/clsa-mpi-check-%d.sa", dir, id);
}

static void write_input(const char *in, const uint8_t *text, int64_t n)
{
    if (rank_ == 0) {
        FILE *f = fopen(in, "wb");
        if (!f || (n && fwrite(text, 1, (size_t)n, f) != (size_t)n)) abort();
        fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* route: 0 the library's choice, 1 MPI-IO forced (CLSA_MPI_OUTPUT=mpiio). */
static void set_route(int route)
{
    if (route) setenv("CLSA_MPI_OUTPUT", "mpiio", 1);
    else unsetenv("CLSA_MPI_OUTPUT");
}

static void check_route(clsa_context *ctx, const uint8_t *text, int64_t n, const char *name,
                        int bits, int route, const char *in, const char *out)
{
    char err[256];
    int64_t got_n = -1;
    clsa_mpi_file_stats fs;
    set_route(route);
    clsa_status st =
        clsa_mpi_sa_file_ex(MPI_COMM_WORLD, ctx, in, out, bits, &got_n, &fs, err, sizeof err);
    set_route(0);
    if (st != CLSA_OK || got_n != n) {
        if (rank_ == 0) fprintf(stderr, "clsa_mpi_sa_file: %s\n", err);
        fail(route ? "clsa_mpi_sa_file failed on %s n=%lld (MPI-IO)" : "clsa_mpi_sa_file failed on %s n=%lld", name, n);
    } else if (route && fs.output != CLSA_MPI_OUTPUT_MPI_IO) {
        fail("CLSA_MPI_OUTPUT=mpiio did not take the MPI-IO route (%s n=%lld)", name, n);
    } else if (rank_ == 0) {
        size_t len = 0;
        uint8_t *b = read_all(out, &len);
        int64_t *ref = reference(text, n);
        int w = bits / 8, ok = b && len == (size_t)n * (size_t)w;
        for (int64_t k = 0; ok && k < n; k++) {
            uint64_t v = 0;
            for (int j = 0; j < w; j++) v |= (uint64_t)b[k * w + j] << (8 * j);
            ok = v == (uint64_t)ref[k];
        }
        if (!ok) fail(route ? "SA file differs on %s n=%lld (MPI-IO)" : "SA file differs on %s n=%lld", name, n);
        free(b);
        free(ref);
    }
    if (rank_ == 0) remove(out);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Both output routes (mapped where the temporary directory allows it). */
static void check_file(clsa_context *ctx, const uint8_t *text, int64_t n, const char *name,
                       int bits)
{
    char in[512], out[512];
    paths(in, out, sizeof in);
    write_input(in, text, n);
    for (int route = 0; route < 2; route++) check_route(ctx, text, n, name, bits, route, in, out);
    if (rank_ == 0) {
        remove(in);
        remove(out);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

typedef struct gcase {
    const char *name;
    gen_kind kind;
    unsigned param;
    int64_t n;
} gcase;

/* A test switch of run_impl.sh (CLSA_TEST_SMALL, CLSA_TEST_LEAN): set,
 * not empty and not "0", as tests/testutil.h reads them. */
static int env_flag(const char *name)
{
    const char *s = getenv(name);
    return s && *s && strcmp(s, "0") != 0;
}

/* Oclgrind's lean mode (CLSA_TEST_LEAN, run_impl.sh): the simulator looks
 * for faults in the kernels the ranks launch, so one input of each kind
 * (the alphabets 2 and 26 sort as 4 does, Thue-Morse as Fibonacci) and one
 * of the two calls a case, in turns. */
static int lean_skips(const char *name, size_t c, int part_only)
{
    if (!env_flag("CLSA_TEST_LEAN")) return 0;
    return !strcmp(name, "random:2") || !strcmp(name, "random:26") ||
           !strcmp(name, "thue-morse") || (int)(c % 2) != part_only;
}

static void run_cases(clsa_context *ctx, int small)
{
    /* Oclgrind simulates every rank's sorts: a few hundred symbols */
    int64_t big = small ? 300 : 30000;
    gcase cases[] = {
        {"n=0", GEN_RANDOM, 4, 0},
        {"n=1", GEN_RANDOM, 4, 1},
        {"n=2", GEN_RANDOM, 2, 2},
        {"n<ranks", GEN_RANDOM, 2, size_ > 1 ? size_ - 1 : 1},
        {"random:2", GEN_RANDOM, 2, big},
        {"random:4", GEN_RANDOM, 4, big + 7},
        {"random:26", GEN_RANDOM, 26, big / 3},
        {"random:256", GEN_RANDOM, 256, big / 2 + 1},
        {"equal", GEN_ALL_EQUAL, 0, big},
        {"periodic:7", GEN_PERIODIC, 7, big - 3},
        {"fibonacci", GEN_FIBONACCI, 0, big},
        {"thue-morse", GEN_THUE_MORSE, 0, big / 2},
        {"mutated:300", GEN_MUTATED, 300, big},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        gcase g = cases[c];
        uint8_t *text = malloc((size_t)g.n + 1);
        gen_fill(text, (size_t)g.n, g.kind, g.param, 1000 + c);
        for (int part_only = 0; part_only < 2; part_only++)
            if (!lean_skips(g.name, c, part_only)) check_api(ctx, text, g.n, g.name, part_only);
        if ((c % 2 == 0 && !small) || g.n < 3) check_file(ctx, text, g.n, g.name, c % 4 == 0 ? 64 : 32);
        free(text);
    }
}

/* Every rank's message equal to rank 0's. */
static int same_everywhere(const char *msg)
{
    char m0[256];
    snprintf(m0, sizeof m0, "%s", msg);
    MPI_Bcast(m0, sizeof m0, MPI_CHAR, 0, MPI_COMM_WORLD);
    int differs = strcmp(m0, msg) != 0;
    MPI_Allreduce(MPI_IN_PLACE, &differs, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return !differs;
}

static void run_faults(clsa_context *ctx)
{
    const char *phases[] = {"read", "initial", "doubling", "final", "write"};
    int64_t n = 5000;
    uint8_t *text = malloc((size_t)n);
    gen_fill(text, (size_t)n, GEN_PERIODIC, 5, 7);
    for (size_t q = 0; q < 2 * sizeof phases / sizeof *phases; q++) {
        size_t p = q % (sizeof phases / sizeof *phases); /* then again on MPI-IO */
        set_route(q != p);
        char spec[64], in[512], out[512], tmp[600], err[256] = "";
        snprintf(spec, sizeof spec, "%d:%s", size_ - 1, phases[p]);
        paths(in, out, sizeof in);
        snprintf(tmp, sizeof tmp, "%s.clsa-mpi-tmp", out);
        write_input(in, text, n);
        setenv("CLSA_MPI_FAIL", spec, 1);
        clsa_status st = clsa_mpi_sa_file(MPI_COMM_WORLD, ctx, in, out, 32, NULL, err, sizeof err);
        int ok = st != CLSA_OK && strstr(err, "injected failure") != NULL;
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (!ok) fail("a rank did not report the injected failure at %s (n=%lld)", phases[p], n);
        if (!same_everywhere(err)) fail("messages differ between ranks at %s (n=%lld)", phases[p], n);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank_ == 0 && (access(out, F_OK) == 0 || access(tmp, F_OK) == 0))
            fail("output left behind after a failure at %s (n=%lld)", phases[p], n);
        if (p == 2 && size_ > 0) {
            /* the API call fails the same way, never the file */
            int64_t *part = malloc((size_t)n * sizeof *part);
            st = clsa_mpi_sa64(MPI_COMM_WORLD, ctx, text, n, part, err, sizeof err);
            ok = st != CLSA_OK;
            MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            if (!ok || !same_everywhere(err)) fail("clsa_mpi_sa64 fault at %s (n=%lld)", phases[p], n);
            free(part);
        }
        unsetenv("CLSA_MPI_FAIL");
        if (rank_ == 0) {
            remove(in);
            remove(out);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    set_route(0);
    free(text);
}

static clsa_context *open_device(int profile)
{
    clsa_options o;
    clsa_options_init(&o);
    o.backend = CLSA_BACKEND_DEVICE;
    o.profile = profile;
    clsa_context *ctx = NULL;
    char err[256];
    int bad = clsa_create_ex(&o, &ctx, err, sizeof err) != CLSA_OK;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!bad) return ctx;
    const char *req = getenv("CLSA_TEST_REQUIRE");
    int must = req && !strcmp(req, "1");
    if (rank_ == 0) fprintf(stderr, "%s: no device: %s\n", must ? "FAIL" : "SKIP", err);
    clsa_destroy(ctx);
    MPI_Finalize();
    exit(must ? 1 : 77);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    int device = argc > 1 && !strcmp(argv[1], "device");
    int faults = argc > 2 && !strcmp(argv[2], "fault");
    /* split: the device engine (each rank sorts one range of suffixes on its
     * device, host/sa/pd_part.h) even where it would leave the work to rank
     * 0's device (CLSA_TUNE part_decline=0); checked by its kernels */
    int split = device && argc > 2 && !strcmp(argv[2], "split");
    if (split) setenv("CLSA_TUNE", "part_decline=0", 1);
    int small = env_flag("CLSA_TEST_SMALL");
    clsa_context *ctx = device ? open_device(split) : NULL;
    if (faults) run_faults(ctx);
    else run_cases(ctx, small);
    if (device && !faults) {
        /* the local sorts must have run on the device, not fallen back */
        clsa_stats stats;
        int none = clsa_get_stats(ctx, &stats) != CLSA_OK || stats.kernel_launches == 0;
        MPI_Allreduce(MPI_IN_PLACE, &none, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (none) fail("%s: a rank launched no kernel (n=%lld)", "device mode", 0);
    }
    if (split) {
        char name[64];
        double ms;
        uint64_t launches;
        int engine = 0;
        for (size_t i = 0;
             clsa_get_kernel_time(ctx, i, name, sizeof name, &ms, &launches) == CLSA_OK; i++)
            engine |= !strcmp(name, "pd_part_own") && launches > 0;
        MPI_Allreduce(MPI_IN_PLACE, &engine, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (!engine) fail("%s: a rank did not run the device engine (n=%lld)", "split mode", 0);
    }
    MPI_Bcast(&failures, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank_ == 0)
        printf("%s: %d ranks, %s, %s\n", failures ? "FAILED" : "ok", size_,
               device ? "device" : "host", faults ? "faults" : split ? "cases, split" : "cases");
    clsa_destroy(ctx);
    MPI_Finalize();
    return failures ? 1 : 0;
}
