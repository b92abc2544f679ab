/* The MPI implementation of dist_comm. */
#ifndef CLSA_DIST_COMM_MPI_H
#define CLSA_DIST_COMM_MPI_H

#include <mpi.h>

#include "comm.h"

/* Duplicates comm into *dup (errors returned, not fatal) and fills c. */
clsa_status dist_comm_mpi_open(dist_comm *c, MPI_Comm *dup, MPI_Comm comm, char *err, size_t cap);
void dist_comm_mpi_close(MPI_Comm *dup);

#endif
