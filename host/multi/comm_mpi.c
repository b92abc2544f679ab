/* dist_comm over MPI.  The communicator is a duplicate with
 * MPI_ERRORS_RETURN, so a failed collective comes back as a status instead
 * of aborting the job.  MPI counts are int: elements travel as one derived
 * type of elem bytes, so one rank may send up to 2^31 - 1 tuples to one
 * other rank per exchange. */
#include "comm_mpi.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static MPI_Comm comm_of(dist_comm *c) { return *(MPI_Comm *)c->impl; }

static int fail(dist_comm *c, const char *what, int err)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(err, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "code %d", err);
    snprintf(c->msg, sizeof c->msg, "%s failed: %.200s", what, text);
    return CLSA_ERR_IO;
}

static int to_int(dist_comm *c, const int64_t *v, int *out, int n)
{
    for (int k = 0; k < n; k++) {
        if (v[k] > INT_MAX) {
            snprintf(c->msg, sizeof c->msg,
                     "%lld elements for one rank in one exchange: more than MPI's int counts",
                     (long long)v[k]);
            return CLSA_ERR_TOO_LARGE;
        }
        out[k] = (int)v[k];
    }
    return CLSA_OK;
}

static int mpi_alltoallv(dist_comm *c, const void *send, const int64_t *scount, void *recv,
                         const int64_t *rcount, size_t elem)
{
    int P = c->size, rc = CLSA_ERR_HOST_MEMORY;
    int *sc = malloc(sizeof(int) * 4 * (size_t)P), err;
    if (!sc) {
        snprintf(c->msg, sizeof c->msg, "out of host memory for MPI counts");
        return rc;
    }
    int *rc_ = sc + P, *sd = sc + 2 * P, *rd = sc + 3 * P;
    MPI_Datatype type;
    if ((rc = to_int(c, scount, sc, P)) || (rc = to_int(c, rcount, rc_, P))) goto done;
    sd[0] = rd[0] = 0;
    for (int r = 1; r < P; r++) {
        int64_t s = (int64_t)sd[r - 1] + sc[r - 1], q = (int64_t)rd[r - 1] + rc_[r - 1];
        if (s > INT_MAX || q > INT_MAX) {
            snprintf(c->msg, sizeof c->msg, "more than 2^31 elements in one exchange");
            rc = CLSA_ERR_TOO_LARGE;
            goto done;
        }
        sd[r] = (int)s, rd[r] = (int)q;
    }
    if ((err = MPI_Type_contiguous((int)elem, MPI_BYTE, &type)) != MPI_SUCCESS) {
        rc = fail(c, "MPI_Type_contiguous", err);
        goto done;
    }
    MPI_Type_commit(&type);
    err = MPI_Alltoallv(send, sc, sd, type, recv, rc_, rd, type, comm_of(c));
    MPI_Type_free(&type);
    rc = err == MPI_SUCCESS ? CLSA_OK : fail(c, "MPI_Alltoallv", err);
done:
    free(sc);
    return rc;
}

static int mpi_alltoall_counts(dist_comm *c, const int64_t *scount, int64_t *rcount)
{
    int err = MPI_Alltoall(scount, 1, MPI_INT64_T, rcount, 1, MPI_INT64_T, comm_of(c));
    return err == MPI_SUCCESS ? CLSA_OK : fail(c, "MPI_Alltoall", err);
}

static int mpi_allreduce(dist_comm *c, int64_t *buf, int count, int op)
{
    MPI_Op o = op == DIST_SUM ? MPI_SUM : op == DIST_MIN ? MPI_MIN : MPI_MAX;
    int err = MPI_Allreduce(MPI_IN_PLACE, buf, count, MPI_INT64_T, o, comm_of(c));
    return err == MPI_SUCCESS ? CLSA_OK : fail(c, "MPI_Allreduce", err);
}

static int mpi_allgather(dist_comm *c, const int64_t *in, int count, int64_t *out)
{
    int err = MPI_Allgather(in, count, MPI_INT64_T, out, count, MPI_INT64_T, comm_of(c));
    return err == MPI_SUCCESS ? CLSA_OK : fail(c, "MPI_Allgather", err);
}

static int mpi_bcast(dist_comm *c, void *buf, size_t bytes, int root)
{
    int err = MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, comm_of(c));
    return err == MPI_SUCCESS ? CLSA_OK : fail(c, "MPI_Bcast", err);
}

clsa_status dist_comm_mpi_open(dist_comm *c, MPI_Comm *dup, MPI_Comm comm, char *err, size_t cap)
{
    int e = MPI_Comm_dup(comm, dup);
    if (e != MPI_SUCCESS) {
        snprintf(err, cap, "MPI_Comm_dup failed (code %d)", e);
        return CLSA_ERR_IO;
    }
    MPI_Comm_set_errhandler(*dup, MPI_ERRORS_RETURN);
    c->impl = dup;
    c->msg[0] = 0;
    MPI_Comm_rank(*dup, &c->rank);
    MPI_Comm_size(*dup, &c->size);
    c->alltoallv = mpi_alltoallv;
    c->alltoall_counts = mpi_alltoall_counts;
    c->allreduce = mpi_allreduce;
    c->allgather = mpi_allgather;
    c->bcast = mpi_bcast;
    return CLSA_OK;
}

void dist_comm_mpi_close(MPI_Comm *dup) { MPI_Comm_free(dup); }
