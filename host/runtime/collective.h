/* The few collectives a computation over several devices or ranks needs,
 * behind function pointers (host/multi: comm_mpi.c over MPI, comm_threads.c
 * over the threads of one process), and their agreement on failure
 * (agree.c).  Every function is collective and returns a clsa_status; a
 * failure of the transport itself is CLSA_ERR_IO with the reason in the
 * comm's message. */
#ifndef CLSA_RT_COLLECTIVE_H
#define CLSA_RT_COLLECTIVE_H

#include <stddef.h>
#include <stdint.h>

#include "clsa.h"

enum { DIST_SUM, DIST_MIN, DIST_MAX };

typedef struct dist_comm dist_comm;
struct dist_comm {
    int rank, size;
    void *impl;
    char msg[256]; /* transport failure text */
    /* Each rank sends scount[d] elements of elem bytes to rank d, in rank
     * order from send; receives rcount[s] from rank s, in rank order into
     * recv.  The caller sizes recv from dist_exchange_counts. */
    int (*alltoallv)(dist_comm *c, const void *send, const int64_t *scount, void *recv,
                     const int64_t *rcount, size_t elem);
    /* rcount[s] = the scount[me] of rank s. */
    int (*alltoall_counts)(dist_comm *c, const int64_t *scount, int64_t *rcount);
    /* buf[0..count) reduced over every rank, result on every rank. */
    int (*allreduce)(dist_comm *c, int64_t *buf, int count, int op);
    /* out[r * count .. (r + 1) * count) = rank r's in[0..count). */
    int (*allgather)(dist_comm *c, const int64_t *in, int count, int64_t *out);
    /* bytes from rank root to every rank. */
    int (*bcast)(dist_comm *c, void *buf, size_t bytes, int root);
};

/* Every rank's status agreed: returns the status of the lowest-numbered
 * failing rank (CLSA_OK if none) and copies that rank's message into msg
 * (cap bytes) on every rank. */
clsa_status dist_agree(dist_comm *c, clsa_status st, char *msg, size_t cap);

/* The first position of rank r's part of n. */
int64_t dist_part_lo(int64_t n, int nranks, int r);

/* Test-only fault hook: env CLSA_MPI_FAIL="RANK:PHASE" makes that rank
 * fail at the named phase ("read", "initial", "doubling", "final",
 * "write").  Returns CLSA_ERR_IO with a message when it fires. */
clsa_status dist_fault(const dist_comm *c, const char *phase, char *msg, size_t cap);

#endif
