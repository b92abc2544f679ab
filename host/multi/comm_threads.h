/* dist_comm over the threads of one process (comm_threads.c). */
#ifndef CLSA_DIST_COMM_THREADS_H
#define CLSA_DIST_COMM_THREADS_H

#include <pthread.h>
#include <stdlib.h>

#include "comm.h"

typedef struct dist_threads dist_threads;

/* The shared state of size members; NULL when out of memory. */
dist_threads *dist_threads_new(int size);
void dist_threads_free(dist_threads *sh);
/* Member rank's communicator; every member must take part in every
 * collective, each from its own thread. */
void dist_comm_threads(dist_comm *c, dist_threads *sh, int rank);

#endif
