/* The SA file's two routes (mpi_out.h). */
#define _GNU_SOURCE /* fallocate */
#include "mpi_out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels answer EINVAL */
#endif

clsa_status mpi_io_fail(char *msg, size_t cap, const char *what, const char *path, int e)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(e, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "code %d", e);
    snprintf(msg, cap, "%s '%.100s': %.120s", what, path, text);
    return CLSA_ERR_IO;
}

static clsa_status sys_fail(char *msg, size_t cap, const char *what, const char *path, int e)
{
    snprintf(msg, cap, "%s '%.100s': %s", what, path, strerror(e));
    return CLSA_ERR_IO;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int mpi_little_endian(void)
{
    const uint16_t one = 1;
    uint8_t low;
    memcpy(&low, &one, 1);
    return low;
}

/* Whether path's directory is on a file system known to be local to this
 * host (a whitelist: NFS, Lustre, GPFS, CIFS, FUSE... keep MPI-IO, whose
 * drivers know their consistency rules; a mapping's pages of one host are
 * coherent only among that host's processes). */
static int local_fs(const char *path)
{
    static const unsigned long known[] = {
        0x01021994, /* tmpfs */ 0xEF53, /* ext2/3/4 */  0x58465342, /* xfs */
        0x9123683E, /* btrfs */ 0xF2F52010, /* f2fs */ 0x794C7630, /* overlayfs */
    };
    size_t len = strlen(path);
    char *dir = malloc(len + 2);
    if (!dir) return 0;
    memcpy(dir, path, len + 1);
    char *slash = strrchr(dir, '/');
    if (!slash) strcpy(dir, ".");
    else slash[slash == dir] = 0; /* "/x" keeps "/" */
    struct statfs s;
    int ok = statfs(dir, &s) == 0;
    free(dir);
    for (size_t k = 0; ok && k < sizeof known / sizeof *known; k++)
        if ((unsigned long)s.f_type == known[k]) return 1;
    return 0;
}

/* Every rank of comm shares this host's memory. */
static int one_host(MPI_Comm comm)
{
    MPI_Comm node;
    int size = 0, local = -1;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS)
        return 0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    return local == size;
}

static int forced_mpi_io(void)
{
    const char *e = getenv("CLSA_MPI_OUTPUT");
    return e && (!strcmp(e, "mpiio") || !strcmp(e, "mpi-io"));
}

/* Bytes [a, b) of the file reserved (fallocate: a full file system fails
 * here, not as a SIGBUS in the download); 0 or the errno. */
static int reserve(mpi_out *o, size_t a, size_t b)
{
    return b > a && fallocate(o->fd, 0, (off_t)a, (off_t)(b - a)) ? errno : 0;
}

/* Bytes [a, b) mapped in (MADV_POPULATE_WRITE, else read) so the download
 * takes no faults.  Data is never written here: another rank may already
 * be putting its slice into these pages. */
static void populate(mpi_out *o, size_t a, size_t b)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (b <= a) return;
    uint8_t *from = o->map + a / page * page;
    if (madvise(from, o->map + b - from, MADV_POPULATE_WRITE))
        for (volatile uint8_t *p = from; p < o->map + b; p += page) (void)*p;
}

/* The equal share first: the ranks' shares cover the file, so the costly
 * part of a reservation (tmpfs zeroes every page) runs while the slices
 * are still unknown.  Then the slice the sort named, reserved again (its
 * part in a neighbour's share may not be yet: a fault there would be a
 * SIGBUS on a full file system) and pre-faulted. */
static void *prepare(void *arg)
{
    mpi_out *o = arg;
    double t0 = now();
    int e = reserve(o, o->share[0], o->share[1]);
    double t1 = now();
    pthread_mutex_lock(&o->lock);
    while (!o->told) pthread_cond_wait(&o->wake, &o->lock);
    size_t a = o->slice[0], b = o->slice[1];
    pthread_mutex_unlock(&o->lock);
    double t2 = now();
    if (!e && !(e = reserve(o, a, b))) populate(o, a, b);
    if (e) {
        o->err = e;
        o->failed = "cannot reserve space for";
    }
    o->reserve_s = (t1 - t0) + (now() - t2); /* not the wait for the slice */
    return NULL;
}

/* Rank 0 creates and sizes the file before the others open it; each maps
 * all of it (address space only). */
static clsa_status open_mapped(dist_comm *c, mpi_out *o, char *msg, size_t cap)
{
    clsa_status st = CLSA_OK;
    if (c->rank == 0) {
        o->fd = open(o->tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (o->fd < 0 || ftruncate(o->fd, (off_t)o->bytes))
            st = sys_fail(msg, cap, "cannot create", o->tmp, errno);
    }
    if ((st = dist_agree(c, st, msg, cap))) return st;
    if (c->rank && (o->fd = open(o->tmp, O_RDWR | O_CLOEXEC)) < 0)
        st = sys_fail(msg, cap, "cannot open", o->tmp, errno);
    void *p = st || !o->bytes ? NULL
                              : mmap(NULL, o->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, o->fd, 0);
    if (p == MAP_FAILED) st = sys_fail(msg, cap, "cannot map", o->tmp, errno);
    else o->map = p;
    int64_t lo = dist_part_lo(o->n, c->size, c->rank), hi = dist_part_lo(o->n, c->size, c->rank + 1);
    o->share[0] = (size_t)(lo * o->width);
    o->share[1] = (size_t)(hi * o->width);
    return dist_agree(c, st, msg, cap);
}

void mpi_out_start_prepare(mpi_out *o)
{
    if (!o->mapped || !o->map || o->started) return;
    if (pthread_mutex_init(&o->lock, NULL)) return;
    if (pthread_cond_init(&o->wake, NULL)) {
        pthread_mutex_destroy(&o->lock);
        return;
    }
    o->told = 0;
    o->started = !pthread_create(&o->thread, NULL, prepare, o);
    if (o->started) return;
    pthread_cond_destroy(&o->wake);
    pthread_mutex_destroy(&o->lock);
}

/* The thread's slice, the first one it is told (count 0: nothing more). */
static void tell(mpi_out *o, uint64_t base, uint64_t count)
{
    pthread_mutex_lock(&o->lock);
    if (!o->told) {
        o->slice[0] = (size_t)(base * (uint64_t)o->width);
        o->slice[1] = (size_t)((base + count) * (uint64_t)o->width);
        o->told = 1;
        pthread_cond_signal(&o->wake);
    }
    pthread_mutex_unlock(&o->lock);
}

void mpi_out_expect(mpi_out *o, uint64_t base, uint64_t count)
{
    if (o->started) tell(o, base, count);
}

static clsa_status open_mpi_io(dist_comm *c, MPI_Comm comm, mpi_out *o, char *msg, size_t cap)
{
    clsa_status st = CLSA_OK;
    int e = MPI_File_open(comm, o->tmp, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &o->fh);
    if (e != MPI_SUCCESS) st = mpi_io_fail(msg, cap, "cannot create", o->tmp, e);
    if ((st = dist_agree(c, st, msg, cap))) return st;
    o->fh_open = 1;
    MPI_File_set_errhandler(o->fh, MPI_ERRORS_RETURN);
    if ((e = MPI_File_set_size(o->fh, (MPI_Offset)(o->n * o->width))) != MPI_SUCCESS)
        st = mpi_io_fail(msg, cap, "cannot size", o->tmp, e);
    return dist_agree(c, st, msg, cap);
}

clsa_status mpi_out_open(dist_comm *c, MPI_Comm comm, const char *path, int64_t n, int width,
                         mpi_out *o, char *msg, size_t cap)
{
    double t0 = now();
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->n = n;
    o->width = width;
    o->bytes = (size_t)(n * width);
    size_t plen = strlen(path);
    clsa_status st = (o->tmp = malloc(plen + 16)) ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st) snprintf(msg, cap, "out of host memory");
    else snprintf(o->tmp, plen + 16, "%s.clsa-mpi-tmp", path);
    int64_t mapped =
        !st && !forced_mpi_io() && mpi_little_endian() && local_fs(path) && one_host(comm);
    if (c->allreduce(c, &mapped, 1, DIST_MIN)) {
        snprintf(msg, cap, "%s", c->msg);
        st = CLSA_ERR_IO;
    }
    o->mapped = (int)mapped;
    if (!(st = dist_agree(c, st, msg, cap)))
        st = o->mapped ? open_mapped(c, o, msg, cap) : open_mpi_io(c, comm, o, msg, cap);
    o->open_s = now() - t0;
    return st;
}

/* Waits for the thread; one still waiting for its slice is told an empty
 * one (a failure before the sort named it). */
static void join(mpi_out *o)
{
    if (!o->started) return;
    double t0 = now();
    tell(o, 0, 0);
    pthread_join(o->thread, NULL);
    pthread_cond_destroy(&o->wake);
    pthread_mutex_destroy(&o->lock);
    o->started = 0;
    o->wait_s += now() - t0;
}

clsa_status mpi_out_slice(mpi_out *o, uint64_t base, uint64_t count, void **dst, char *msg,
                          size_t cap)
{
    *dst = NULL;
    if (!o->mapped || !count) return CLSA_OK;
    mpi_out_expect(o, base, count); /* where the sort did not name it earlier */
    join(o);
    if (o->failed) return sys_fail(msg, cap, o->failed, o->tmp, o->err);
    /* any part of the slice the thread did not reserve (no thread, or the
     * slice changed after it was told: one device took over); fallocate
     * of reserved blocks costs little */
    size_t at = (size_t)(base * (uint64_t)o->width), end = (size_t)((base + count) * o->width);
    int e = reserve(o, at, end);
    if (e) return sys_fail(msg, cap, "cannot reserve space for", o->tmp, e);
    *dst = o->map + at;
    return CLSA_OK;
}

clsa_status mpi_out_write(mpi_out *o, const uint8_t *buf, int64_t lo, int64_t bytes, char *msg,
                          size_t cap)
{
    for (int64_t at = 0; at < bytes;) {
        int len = bytes - at > MPI_IO_CHUNK ? MPI_IO_CHUNK : (int)(bytes - at);
        MPI_Status ms;
        int e = MPI_File_write_at(o->fh, (MPI_Offset)(lo * o->width + at), buf + at, len,
                                  MPI_BYTE, &ms);
        if (e != MPI_SUCCESS) return mpi_io_fail(msg, cap, "cannot write", o->tmp, e);
        at += len;
    }
    return CLSA_OK;
}

/* This rank's handles closed; st, or the close's failure. */
static clsa_status close_handles(mpi_out *o, clsa_status st, char *msg, size_t cap)
{
    join(o);
    if (o->map) munmap(o->map, o->bytes);
    o->map = NULL;
    if (o->fd >= 0 && close(o->fd) && !st) st = sys_fail(msg, cap, "cannot close", o->tmp, errno);
    o->fd = -1;
    int e = o->fh_open ? MPI_File_close(&o->fh) : MPI_SUCCESS;
    if (e != MPI_SUCCESS && !st) st = mpi_io_fail(msg, cap, "cannot close", o->tmp, e);
    o->fh_open = 0;
    return st;
}

clsa_status mpi_out_close(dist_comm *c, mpi_out *o, const char *path, clsa_status st, char *msg,
                          size_t cap)
{
    if (!st) st = dist_fault(c, "write", msg, cap);
    st = dist_agree(c, close_handles(o, st, msg, cap), msg, cap);
    if (c->rank == 0 && !st && rename(o->tmp, path))
        st = sys_fail(msg, cap, "cannot rename to", path, errno);
    if (c->rank == 0 && st && o->tmp) remove(o->tmp);
    st = dist_agree(c, st, msg, cap);
    free(o->tmp);
    o->tmp = NULL;
    return st;
}
