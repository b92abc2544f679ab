/* The distributed suffix array over the collectives of collective.h
 * (comm_mpi.c implements them over MPI, comm_threads.c over the threads of
 * one process, one per device); dist_sa.c is the same for both. */
#ifndef CLSA_DIST_COMM_H
#define CLSA_DIST_COMM_H

#include <stddef.h>
#include <stdint.h>

#include "clsa.h"
#include "collective.h"

/* Text bytes a rank reads past its range: the initial key's symbols (at
 * most 64, for a one-symbol alphabet). */
#define DIST_OVERLAP 64

/* The distributed prefix-doubling engine (dist_sa.c): window holds this
 * rank's text bytes [lo, min(n, hi + DIST_OVERLAP)) (lo, hi from
 * dist_part_lo: the whole text is never needed); sa_part gets this rank's
 * SA slice.  ctx may be NULL (host sorts).  msg: agreed message. */
clsa_status dist_sa(dist_comm *c, clsa_context *ctx, const uint8_t *window, int64_t n,
                    int64_t *sa_part, char *msg, size_t cap);

/* The end of rank r's text window (see dist_sa). */
int64_t dist_window_hi(int64_t n, int nranks, int r);

#endif
