/* The SA file of clsa_mpi_sa_file: "<path>.clsa-mpi-tmp", renamed to path
 * only when every rank succeeded (mpi_out.c).  Two routes:
 *   mapped  every rank on one host and the file on a local file system:
 *           each rank maps the file; once its text is read, a thread
 *           reserves the rank's equal share and pre-faults the rank's
 *           slice as soon as the sort knows it, and the slices are put
 *           straight into the mapping (no write step);
 *   MPI-IO  anywhere else (or CLSA_MPI_OUTPUT=mpiio): the file is created
 *           and sized before the text is read, the slices written with
 *           MPI_File_write_at. */
#ifndef CLSA_DIST_MPI_OUT_H
#define CLSA_DIST_MPI_OUT_H

#include <mpi.h>
#include <pthread.h>

#include "comm.h"

/* Most bytes of one MPI-IO read or write: MPI counts are int. */
enum { MPI_IO_CHUNK = 1 << 30 };

typedef struct mpi_out {
    int mapped, width;
    int64_t n;
    char *tmp;
    /* MPI-IO */
    MPI_File fh;
    int fh_open;
    /* mapped: the whole file; the preparing thread's errno and its step */
    int fd;
    uint8_t *map;
    size_t bytes, share[2]; /* this rank's equal share: bytes [share[0], share[1]) */
    size_t slice[2];        /* the bytes the thread pre-faults, once told (told = 1) */
    pthread_mutex_t lock;   /* guards slice and told */
    pthread_cond_t wake;
    int told;
    pthread_t thread;
    int started, err;
    const char *failed;
    double reserve_s, wait_s, open_s;
} mpi_out;

/* Collective: picks the route (agreed), creates and sizes the temporary
 * file of n entries of width bytes (the mapped route maps it).  *o is
 * ready for mpi_out_close whatever the status. */
clsa_status mpi_out_open(dist_comm *c, MPI_Comm comm, const char *path, int64_t n, int width,
                         mpi_out *o, char *msg, size_t cap);

/* Mapped route: starts the thread that reserves this rank's equal share
 * and then waits for mpi_out_expect to pre-fault the slice.  Call it once
 * the text is read: beside the read it slows the read.  No
 * thread (none started, or MPI-IO): the slice is reserved by mpi_out_slice
 * and the download takes the faults.  Not collective. */
void mpi_out_start_prepare(mpi_out *o);

/* Mapped route: this rank will put entries [base, base + count) into the
 * file: the thread reserves and pre-faults them.  The first call counts
 * (a later slice is reserved by mpi_out_slice).  Not collective. */
void mpi_out_expect(mpi_out *o, uint64_t base, uint64_t count);

/* Mapped route: *dst = where entries [base, base + count) go in the file
 * (its blocks reserved); NULL on the MPI-IO route.  Not collective. */
clsa_status mpi_out_slice(mpi_out *o, uint64_t base, uint64_t count, void **dst, char *msg,
                          size_t cap);

/* MPI-IO route: bytes of entries from entry lo on.  Not collective. */
clsa_status mpi_out_write(mpi_out *o, const uint8_t *buf, int64_t lo, int64_t bytes, char *msg,
                          size_t cap);

/* Collective: closes the file; on agreed success it takes path's name,
 * else it is removed.  Returns the agreed status (st's or the close's). */
clsa_status mpi_out_close(dist_comm *c, mpi_out *o, const char *path, clsa_status st, char *msg,
                          size_t cap);

clsa_status mpi_io_fail(char *msg, size_t cap, const char *what, const char *path, int e);

/* 1 on a little-endian host (entries can go to the file as they are). */
int mpi_little_endian(void);

#endif
