/* clsa-mpi: the suffix array of one file built by every rank of an MPI job
 * (mpirun -np N clsa-mpi INPUT OUTPUT).  Output as `clsa sa` writes it.
 * A failure anywhere is printed once, by rank 0, and every rank exits 3. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clsa_mpi.h"

enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_RUNTIME = 3 };

static const char *usage =
    "clsa-mpi [-d DEV] [--backend auto|device|host] [--index 32|64] [--mpi-io] [--stats] [-q] "
    "INPUT OUTPUT";

typedef struct args {
    const char *device, *in, *out;
    int backend, index_bits, quiet, stats, mpi_io;
} args;

/* Returns 0, or the message of a bad command line in why. */
static int parse(int argc, char **argv, args *a, char *why, size_t cap)
{
    memset(a, 0, sizeof *a);
    a->backend = CLSA_BACKEND_DEFAULT;
    a->index_bits = 32;
    int npos = 0;
    for (int k = 1; k < argc; k++) {
        const char *s = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            snprintf(why, cap, "usage: %s", usage);
            return 1;
        } else if (!strcmp(s, "-q")) a->quiet = 1;
        else if (!strcmp(s, "--stats")) a->stats = 1;
        else if (!strcmp(s, "--mpi-io")) a->mpi_io = 1;
        else if ((!strcmp(s, "-d") || !strcmp(s, "--device")) && v) a->device = v, k++;
        else if (!strcmp(s, "--backend") && v) {
            k++;
            if (!strcmp(v, "auto")) a->backend = CLSA_BACKEND_AUTO;
            else if (!strcmp(v, "device")) a->backend = CLSA_BACKEND_DEVICE;
            else if (!strcmp(v, "host")) a->backend = CLSA_BACKEND_HOST;
            else goto bad;
        } else if (!strcmp(s, "--index") && v) {
            k++;
            a->index_bits = atoi(v);
            if (a->index_bits != 32 && a->index_bits != 64) goto bad;
        } else if (s[0] == '-' && s[1]) {
            snprintf(why, cap, "unknown option or missing value: %s (usage: %s)", s, usage);
            return 2;
        } else if (npos < 2) (npos++ ? (a->out = s) : (a->in = s));
        else {
            snprintf(why, cap, "unexpected argument '%s' (usage: %s)", s, usage);
            return 2;
        }
        continue;
    bad:
        snprintf(why, cap, "bad value for %s (usage: %s)", s, usage);
        return 2;
    }
    if (npos < 2) {
        snprintf(why, cap, "missing argument (usage: %s)", usage);
        return 2;
    }
    if (!strcmp(a->in, "-") || !strcmp(a->out, "-")) {
        snprintf(why, cap, "standard streams ('-') are not supported: name files");
        return 2;
    }
    return 0;
}

/* "-d nvidia:local" picks device number <rank on this host>: one rank per GPU. */
static void device_for_rank(const char *sel, char *out, size_t cap)
{
    const char *at = sel ? strstr(sel, "local") : NULL;
    if (!at) {
        snprintf(out, cap, "%s", sel ? sel : "");
        return;
    }
    MPI_Comm node;
    int local = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    snprintf(out, cap, "%.*s%d%s", (int)(at - sel), sel, local, at + 5);
}

/* Every rank's context, or the first failure, on every rank. */
static int open_context(const args *a, clsa_context **ctx, char *msg, size_t cap)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char sel[256];
    int failed = 0;
    *ctx = NULL;
    if (a->backend != CLSA_BACKEND_HOST) {
        clsa_options opt;
        clsa_options_init(&opt);
        device_for_rank(a->device, sel, sizeof sel);
        opt.device = sel[0] ? sel : NULL;
        opt.backend = a->backend;
        opt.profile = a->stats;
        char why[200];
        if (clsa_create_ex(&opt, ctx, why, sizeof why) != CLSA_OK) {
            snprintf(msg, cap, "rank %d: no context: %s", rank, why);
            failed = 1;
        }
    }
    int first = failed ? rank : size;
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == size) return 0;
    MPI_Bcast(msg, (int)cap, MPI_CHAR, first, MPI_COMM_WORLD);
    return 1;
}

/* Seconds since an arbitrary start: MPI_Wtime is not there before MPI_Init. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The steps in the order they run; the library's are clsa_mpi_file_stats'. */
enum { T_INIT, T_CONTEXT, T_READ, T_PLAN, T_UPLOAD, T_SORT, T_DOWNLOAD, T_PACK, T_WRITE, T_TOTAL,
       T_COUNT };
static const char *step_names[T_COUNT] = {"mpi_init", "context", "read", "plan", "upload",
                                          "sort", "download", "pack", "write", "total"};

static void file_steps(const clsa_mpi_file_stats *f, double *t)
{
    t[T_READ] = f->read_s, t[T_PLAN] = f->plan_s, t[T_UPLOAD] = f->upload_s;
    t[T_SORT] = f->sort_s, t[T_DOWNLOAD] = f->download_s, t[T_PACK] = f->pack_s;
    t[T_WRITE] = f->write_s;
}

/* The context's profiled phases (options.profile), max over ranks. */
static void print_phases(clsa_context *ctx, int rank)
{
    clsa_stats s;
    double ms[CLSA_PHASE_COUNT] = {0}, top[CLSA_PHASE_COUNT];
    if (ctx && clsa_get_stats(ctx, &s) == CLSA_OK) memcpy(ms, s.phase_ms, sizeof ms);
    MPI_Reduce(ms, top, CLSA_PHASE_COUNT, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    for (int p = 0; rank == 0 && p < CLSA_PHASE_COUNT; p++)
        if (top[p] > 0)
            fprintf(stderr, "stats: phase %-12s %10.3f ms (device, max over ranks)\n",
                    clsa_phase_name(p), top[p]);
}

/* --stats: every step's seconds, max and min over ranks, on rank 0. */
static void print_steps(const double *t, const clsa_mpi_file_stats *f, int64_t n, int rank,
                        int size)
{
    static const char *engines[] = {"host-side", "device, one range per rank",
                                    "device, rank 0 alone"};
    double hi[T_COUNT], lo[T_COUNT], reserve = 0;
    int e = f->engine >= 0 && f->engine <= 2 ? f->engine : 0;
    MPI_Reduce(t, hi, T_COUNT, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(t, lo, T_COUNT, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&f->reserve_s, &reserve, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank) return;
    fprintf(stderr, "stats: n %lld bytes, %d ranks, engine %s, output %s\n", (long long)n, size,
            engines[e], f->output == CLSA_MPI_OUTPUT_MAPPED ? "mapped" : "MPI-IO");
    for (int k = 0; k < T_COUNT; k++)
        fprintf(stderr, "stats: step %-9s %8.3f s max %8.3f s min\n", step_names[k], hi[k], lo[k]);
    if (f->output == CLSA_MPI_OUTPUT_MAPPED)
        fprintf(stderr, "stats: reserve   %8.3f s max (a thread beside plan..sort)\n", reserve);
}

int main(int argc, char **argv)
{
    double t[T_COUNT] = {0}, start = now();
    MPI_Init(&argc, &argv);
    t[T_INIT] = now() - start;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    args a;
    char msg[512] = "";
    clsa_context *ctx = NULL;
    int rc = parse(argc, argv, &a, msg, sizeof msg);
    if (rc == 1) {
        if (rank == 0) printf("%s\n", msg);
        MPI_Finalize();
        return EXIT_OK;
    }
    if (rc) {
        if (rank == 0) fprintf(stderr, "clsa-mpi: error: %s\n", msg);
        MPI_Finalize();
        return EXIT_USAGE;
    }
    /* the library's switch: read on every rank, as every rank parsed argv */
    if (a.mpi_io) setenv("CLSA_MPI_OUTPUT", "mpiio", 1);
    double t0 = MPI_Wtime();
    int64_t n = 0;
    clsa_mpi_file_stats fs;
    memset(&fs, 0, sizeof fs);
    if (open_context(&a, &ctx, msg, sizeof msg)) rc = EXIT_RUNTIME;
    t[T_CONTEXT] = MPI_Wtime() - t0;
    if (!rc && clsa_mpi_sa_file_ex(MPI_COMM_WORLD, ctx, a.in, a.out, a.index_bits, &n, &fs, msg,
                                   sizeof msg) != CLSA_OK)
        rc = EXIT_RUNTIME;
    double tool = MPI_Wtime() - t0; /* as before --stats, which the bench scripts read */
    file_steps(&fs, t);
    t[T_TOTAL] = now() - start;
    if (rc && rank == 0) fprintf(stderr, "clsa-mpi: error: suffix array: %s; no output written\n", msg);
    if (!rc && a.stats) {
        print_steps(t, &fs, n, rank, size);
        print_phases(ctx, rank);
    }
    if (!rc && rank == 0 && !a.quiet)
        fprintf(stderr, "clsa-mpi: %lld symbols, %d ranks, %.3f s\n", (long long)n, size, tool);
    clsa_destroy(ctx);
    MPI_Finalize();
    return rc;
}
