/* clsa-mpi: the suffix array of one file built by every rank of an MPI job
 * (mpirun -np N clsa-mpi INPUT OUTPUT).  Output as `clsa sa` writes it.
 * A failure anywhere is printed once, by rank 0, and every rank exits 3. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clsa_mpi.h"

enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_RUNTIME = 3 };

static const char *usage =
    "clsa-mpi [-d DEV] [--backend auto|device|host] [--index 32|64] [-q] INPUT OUTPUT";

typedef struct args {
    const char *device, *in, *out;
    int backend, index_bits, quiet;
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

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
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
    double t0 = MPI_Wtime();
    int64_t n = 0;
    if (open_context(&a, &ctx, msg, sizeof msg)) rc = EXIT_RUNTIME;
    else if (clsa_mpi_sa_file(MPI_COMM_WORLD, ctx, a.in, a.out, a.index_bits, &n, msg,
                              sizeof msg) != CLSA_OK)
        rc = EXIT_RUNTIME;
    if (rc && rank == 0) fprintf(stderr, "clsa-mpi: error: suffix array: %s; no output written\n", msg);
    if (!rc && rank == 0 && !a.quiet) {
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        fprintf(stderr, "clsa-mpi: %lld symbols, %d ranks, %.3f s\n", (long long)n, size,
                MPI_Wtime() - t0);
    }
    clsa_destroy(ctx);
    MPI_Finalize();
    return rc;
}
