/* clsa_mpi.h: the public calls, MPI-IO for the text and the SA file. */
#include "clsa_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm_mpi.h"
#include "device_member.h"
#include "mpi_out.h"


int64_t clsa_mpi_part_lo(int64_t n, int nranks, int r) { return dist_part_lo(n, nranks, r); }

static void set_err(char *err, size_t cap, const char *msg)
{
    if (err && cap) snprintf(err, cap, "%s", msg);
}

int64_t clsa_mpi_window_hi(int64_t n, int nranks, int r) { return dist_window_hi(n, nranks, r); }

/* Collective: 1 when every rank's context can be a member of the device
 * engine for n bytes (its own device, room for the in-memory working set,
 * n < 2^32): then each rank sorts one range of suffixes on its device
 * (host/sa/pd_part.h) instead of the host-side engine of dist_sa.c. */
static int device_engine(dist_comm *c, clsa_context *ctx, int64_t n)
{
    /* the one-device need: rank 0 may build it all (a decline), and no
     * rank falls back */
    int64_t ok = n > 0 && c->size <= 255 && clsa__dist_device_fits(ctx, n, 1);
    return !c->allreduce(c, &ok, 1, DIST_MIN) && ok == 1;
}

/* sa_part = SA[lo, hi) of this rank's equal range, from the members'
 * slices (consecutive in rank order).  Status agreed. */
static clsa_status slices_to_parts(dist_comm *c, const dist_host_slice *sl, int64_t n,
                                   int64_t *sa_part, char *msg, size_t cap)
{
    int64_t *sc = calloc((size_t)c->size, sizeof *sc), *rc = calloc((size_t)c->size, sizeof *rc);
    int64_t lo = dist_part_lo(n, c->size, c->rank), m = dist_part_lo(n, c->size, c->rank + 1) - lo;
    uint32_t *recv = malloc((size_t)(m ? m : 1) * 4);
    clsa_status st = sc && rc && recv ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st) snprintf(msg, cap, "out of host memory for the SA exchange");
    for (int r = 0; !st && r < c->size; r++) {
        int64_t a = dist_part_lo(n, c->size, r), b = dist_part_lo(n, c->size, r + 1);
        int64_t from = a > (int64_t)sl->base ? a : (int64_t)sl->base;
        int64_t to = b < (int64_t)(sl->base + sl->count) ? b : (int64_t)(sl->base + sl->count);
        sc[r] = to > from ? to - from : 0;
    }
    if (!(st = dist_agree(c, st, msg, cap)) &&
        (c->alltoall_counts(c, sc, rc) || c->alltoallv(c, sl->v, sc, recv, rc, 4))) {
        snprintf(msg, cap, "%s", c->msg);
        st = CLSA_ERR_IO;
    }
    for (int64_t i = 0; !st && i < m; i++) sa_part[i] = recv[i];
    free(sc);
    free(rc);
    free(recv);
    return dist_agree(c, st, msg, cap);
}

/* window: this rank's bytes [lo, window_hi); whole: 1 when the caller gave
 * the whole text instead (the message names the call). */
static clsa_status sa_window(MPI_Comm comm, clsa_context *ctx, const uint8_t *text, int whole,
                             int64_t n, int64_t *sa_part, char *err, size_t cap)
{
    const char *call = whole ? "clsa_mpi_sa64" : "clsa_mpi_sa64_part";
    char msg[256] = "";
    dist_comm c;
    MPI_Comm dup;
    clsa_status st = dist_comm_mpi_open(&c, &dup, comm, msg, sizeof msg);
    if (st) {
        set_err(err, cap, msg);
        return st;
    }
    int64_t lo = dist_part_lo(n, c.size, c.rank), hi = dist_part_lo(n, c.size, c.rank + 1);
    int need_text = whole ? n > 0 : hi > lo;
    if (n < 0 || (need_text && !text) || (hi > lo && !sa_part)) {
        snprintf(msg, sizeof msg, "%s: %s", call,
                 n < 0 ? "negative n" : need_text && !text ? "text is NULL" : "sa_part is NULL");
        st = CLSA_ERR_INVALID_ARG;
    }
    int64_t v[2] = {n, -n};
    if (c.allreduce(&c, v, 2, DIST_MAX)) {
        snprintf(msg, sizeof msg, "%s", c.msg);
        st = CLSA_ERR_IO;
    } else if (!st && v[0] != -v[1]) {
        snprintf(msg, sizeof msg, "%s: n differs between ranks (%lld and %lld)", call,
                 (long long)-v[1], (long long)v[0]);
        st = CLSA_ERR_INVALID_ARG;
    }
    if (!(st = dist_agree(&c, st, msg, sizeof msg)) && whole && device_engine(&c, ctx, n)) {
        dist_host_slice sl;
        if (!(st = clsa__dist_device_sa(&c, ctx, text, n, &sl, msg, sizeof msg)))
            st = slices_to_parts(&c, &sl, n, sa_part, msg, sizeof msg);
        free(sl.v);
    } else if (!st) {
        st = dist_sa(&c, ctx, whole && text ? text + lo : text, n, sa_part, msg, sizeof msg);
    }
    dist_comm_mpi_close(&dup);
    set_err(err, cap, st ? msg : "");
    return st;
}

clsa_status clsa_mpi_sa64(MPI_Comm comm, clsa_context *ctx, const uint8_t *text, int64_t n,
                          int64_t *sa_part, char *err, size_t cap)
{
    return sa_window(comm, ctx, text, 1, n, sa_part, err, cap);
}

clsa_status clsa_mpi_sa64_part(MPI_Comm comm, clsa_context *ctx, const uint8_t *text_part,
                               int64_t n, int64_t *sa_part, char *err, size_t cap)
{
    return sa_window(comm, ctx, text_part, 0, n, sa_part, err, cap);
}

/* Opens the text and sizes it; *whole = 1 where every rank's context can
 * run the device engine (then each reads the whole text, else only its
 * window: its range plus the initial key's overlap, dist_window_hi; the
 * doubling needs no other text byte).  *fh is open on agreed success. */
static clsa_status open_text(dist_comm *c, MPI_Comm comm, const char *path, clsa_context *ctx,
                             MPI_File *fh, int64_t *n, int *whole, char *msg, size_t cap)
{
    MPI_Offset size = 0;
    clsa_status st = dist_fault(c, "read", msg, cap);
    if ((st = dist_agree(c, st, msg, cap))) return st;
    int e = MPI_File_open(comm, path, MPI_MODE_RDONLY, MPI_INFO_NULL, fh);
    if (e != MPI_SUCCESS) st = mpi_io_fail(msg, cap, "cannot open", path, e);
    if ((st = dist_agree(c, st, msg, cap))) return st;
    MPI_File_set_errhandler(*fh, MPI_ERRORS_RETURN);
    if ((e = MPI_File_get_size(*fh, &size)) != MPI_SUCCESS)
        st = mpi_io_fail(msg, cap, "cannot size", path, e);
    int64_t sz = st ? -1 : (int64_t)size; /* every rank takes part in the vote */
    *whole = device_engine(c, ctx, sz);
    *n = (int64_t)size;
    if ((st = dist_agree(c, st, msg, cap))) MPI_File_close(fh);
    return st;
}

/* The rank's bytes of the open text into *text (malloc'd); closes fh. */
static clsa_status read_text(dist_comm *c, MPI_File *fh, const char *path, int64_t size,
                             int whole, uint8_t **text, char *msg, size_t cap)
{
    MPI_Offset lo = whole ? 0 : dist_part_lo(size, c->size, c->rank),
               end = whole ? size : dist_window_hi(size, c->size, c->rank);
    clsa_status st = CLSA_OK;
    if (!(*text = malloc((size_t)(end - lo) + 1))) {
        snprintf(msg, cap, "out of host memory for the text window (%lld bytes)",
                 (long long)(end - lo));
        st = CLSA_ERR_HOST_MEMORY;
    }
    for (MPI_Offset at = lo; !st && at < end;) {
        int want = end - at > MPI_IO_CHUNK ? MPI_IO_CHUNK : (int)(end - at), got = 0, e;
        MPI_Status ms;
        if ((e = MPI_File_read_at(*fh, at, *text + (at - lo), want, MPI_BYTE, &ms)) != MPI_SUCCESS)
            st = mpi_io_fail(msg, cap, "cannot read", path, e);
        else if (MPI_Get_count(&ms, MPI_BYTE, &got) != MPI_SUCCESS || got <= 0) {
            snprintf(msg, cap, "cannot read '%s': short read", path);
            st = CLSA_ERR_IO;
        }
        at += got;
    }
    MPI_File_close(fh);
    return dist_agree(c, st, msg, cap);
}

/* The slice's entries (int64_t, or uint32_t when sa32) as width-byte
 * little-endian integers, one byte at a time (any host's byte order). */
static void to_width(const void *sa, int sa32, int64_t m, int width, uint8_t *out)
{
    for (int64_t k = 0; k < m; k++) {
        uint64_t v = sa32 ? ((const uint32_t *)sa)[k] : (uint64_t)((const int64_t *)sa)[k];
        for (int b = 0; b < width; b++) out[k * width + b] = (uint8_t)(v >> (8 * b));
    }
}

/* The slice as the file's entries.  A copy of the slice is as large as the
 * output (4 GB for 1 GB of text), and touching it cost more than the sort
 * on a GPU, so on a little-endian host the slice is written as it is, or
 * narrowed in place (entry k's 4 bytes land at or before entry k's 8);
 * only widening needs *own (malloc'd; NULL returned: out of memory). */
static const uint8_t *packed(void *sa, int sa32, int64_t m, int width, uint8_t **own)
{
    static const uint8_t none[1];
    uint8_t *b = sa;
    *own = NULL;
    if (!m) return none; /* an empty slice may have no array */
    if (mpi_little_endian() && width == (sa32 ? 4 : 8)) return b;
    if (mpi_little_endian() && !sa32) {
        for (int64_t k = 0; k < m; k++) {
            uint64_t v;
            memcpy(&v, b + 8 * k, 8);
            uint32_t w = (uint32_t)v;
            memcpy(b + 4 * k, &w, 4);
        }
        return b;
    }
    if (!(*own = malloc((size_t)(m ? m : 1) * (size_t)width))) return NULL;
    if (!mpi_little_endian()) {
        to_width(sa, sa32, m, width, *own);
        return *own;
    }
    for (int64_t k = 0; k < m; k++) {
        uint32_t w;
        memcpy(&w, b + 4 * k, 4);
        uint64_t v = w;
        memcpy(*own + 8 * k, &v, 8);
    }
    return *own;
}

/* The slice SA[lo, lo + m) packed into the file: copied into the mapping
 * where the route maps it, else written by MPI-IO.  sa may be overwritten
 * (packed).  t: the seconds of the packing, then of the writing. */
static clsa_status write_slice(mpi_out *o, void *sa, int sa32, int64_t lo, int64_t m,
                               double t[2], char *msg, size_t cap)
{
    void *dst;
    clsa_status st = mpi_out_slice(o, (uint64_t)lo, (uint64_t)m, &dst, msg, cap);
    if (st) return st;
    double t0 = MPI_Wtime();
    uint8_t *own = NULL;
    const uint8_t *buf = packed(sa, sa32, m, o->width, &own);
    double t1 = MPI_Wtime();
    t[0] = t1 - t0;
    if (!buf) {
        snprintf(msg, cap, "out of host memory for the SA slice");
        st = CLSA_ERR_HOST_MEMORY;
    } else if (dst) {
        memcpy(dst, buf, (size_t)(m * o->width));
    } else {
        st = mpi_out_write(o, buf, lo, m * o->width, msg, cap);
    }
    free(own);
    t[1] = MPI_Wtime() - t1;
    return st;
}

static clsa_status place_slice(void *arg, uint64_t base, uint64_t count, void **dst, char *msg,
                               size_t cap)
{
    return mpi_out_slice(arg, base, count, dst, msg, cap);
}

/* The splitters' slice, known early in the sort: the output's thread
 * pre-faults it while the sort runs. */
static void slice_known(void *arg, uint64_t base, uint64_t count)
{
    mpi_out_expect(arg, base, count);
}

/* The device engine: each rank's slice straight into the mapped file, or
 * into host memory and written by MPI-IO.  Status agreed. */
static clsa_status file_on_devices(dist_comm *c, clsa_context *ctx, const uint8_t *text,
                                   int64_t n, mpi_out *o, clsa_mpi_file_stats *s, char *msg,
                                   size_t cap)
{
    dist_host_slice sl;
    clsa_status st = clsa__dist_device_sa_to(c, ctx, text, n, o->width, place_slice, slice_known,
                                             o, &sl, msg, cap);
    s->plan_s = sl.t.plan;
    s->upload_s = sl.t.upload;
    s->sort_s = sl.t.sort;
    s->download_s = sl.t.download - o->wait_s; /* the wait is the output's */
    s->engine = sl.t.one ? CLSA_MPI_ENGINE_ONE_DEVICE : CLSA_MPI_ENGINE_DEVICES;
    double t[2] = {0, 0};
    if (!st && sl.v)
        st = write_slice(o, sl.v, 1, (int64_t)sl.base, (int64_t)sl.count, t, msg, cap);
    s->pack_s = t[0];
    s->write_s = t[1];
    free(sl.v);
    return dist_agree(c, st, msg, cap);
}

/* The host-side engine on this rank's window of the text. */
static clsa_status file_on_hosts(dist_comm *c, clsa_context *ctx, const uint8_t *window,
                                 int64_t n, mpi_out *o, clsa_mpi_file_stats *s, char *msg,
                                 size_t cap)
{
    int64_t lo = dist_part_lo(n, c->size, c->rank), m = dist_part_lo(n, c->size, c->rank + 1) - lo;
    int64_t *sa = malloc((size_t)(m ? m : 1) * sizeof *sa);
    clsa_status st = sa ? CLSA_OK : CLSA_ERR_HOST_MEMORY;
    if (st) snprintf(msg, cap, "out of host memory for the SA slice");
    double t0 = MPI_Wtime(), t[2] = {0, 0};
    s->engine = CLSA_MPI_ENGINE_HOST;
    mpi_out_expect(o, (uint64_t)lo, (uint64_t)m); /* the equal range: known now */
    if (!(st = dist_agree(c, st, msg, cap)) && !(st = dist_sa(c, ctx, window, n, sa, msg, cap))) {
        s->sort_s = MPI_Wtime() - t0;
        st = write_slice(o, sa, 0, lo, m, t, msg, cap);
    }
    s->pack_s = t[0];
    s->write_s = t[1];
    free(sa);
    return dist_agree(c, st, msg, cap);
}

/* The text read, the output opened, the array built and put in the file.
 * The output's reservation thread starts only after the read, as the two
 * compete for the kernel's page allocation; it
 * then runs beside the plan, the upload and the sort. */
static clsa_status sa_file(dist_comm *c, MPI_Comm comm, clsa_context *ctx, const char *text_path,
                           const char *sa_path, int width, int64_t *n, clsa_mpi_file_stats *s,
                           char *msg, size_t cap)
{
    MPI_File fh;
    uint8_t *text = NULL;
    int whole = 0;
    double t0 = MPI_Wtime();
    clsa_status st = open_text(c, comm, text_path, ctx, &fh, n, &whole, msg, cap);
    if (st) return st;
    if (width == 4 && *n > INT32_MAX) {
        snprintf(msg, cap, "'%s' has %lld bytes: too large for a 32-bit suffix array", text_path,
                 (long long)*n);
        MPI_File_close(&fh);
        return CLSA_ERR_TOO_LARGE; /* every rank sees the same n */
    }
    double t1 = MPI_Wtime();
    mpi_out o;
    if (!(st = mpi_out_open(c, comm, sa_path, *n, width, &o, msg, cap))) {
        double t2 = MPI_Wtime();
        st = read_text(c, &fh, text_path, *n, whole, &text, msg, cap);
        s->read_s = (t1 - t0) + (MPI_Wtime() - t2);
        if (!st) mpi_out_start_prepare(&o);
    } else {
        MPI_File_close(&fh);
    }
    if (!st && whole) st = file_on_devices(c, ctx, text, *n, &o, s, msg, cap);
    else if (!st) st = file_on_hosts(c, ctx, text, *n, &o, s, msg, cap);
    free(text);
    double t3 = MPI_Wtime();
    st = mpi_out_close(c, &o, sa_path, st, msg, cap);
    s->write_s += o.open_s + o.wait_s + (MPI_Wtime() - t3);
    s->reserve_s = o.reserve_s;
    s->output = o.mapped ? CLSA_MPI_OUTPUT_MAPPED : CLSA_MPI_OUTPUT_MPI_IO;
    return st;
}

clsa_status clsa_mpi_sa_file_ex(MPI_Comm comm, clsa_context *ctx, const char *text_path,
                                const char *sa_path, int index_bits, int64_t *n_out,
                                clsa_mpi_file_stats *stats, char *err, size_t cap)
{
    char msg[256] = "";
    dist_comm c;
    MPI_Comm dup;
    int64_t n = 0;
    clsa_mpi_file_stats own;
    clsa_mpi_file_stats *s = stats ? stats : &own;
    memset(s, 0, sizeof *s);
    clsa_status st = dist_comm_mpi_open(&c, &dup, comm, msg, sizeof msg);
    if (st) {
        set_err(err, cap, msg);
        return st;
    }
    if (!text_path || !sa_path || (index_bits != 32 && index_bits != 64)) {
        snprintf(msg, sizeof msg, "clsa_mpi_sa_file: %s",
                 !text_path || !sa_path ? "NULL path" : "index_bits must be 32 or 64");
        st = CLSA_ERR_INVALID_ARG;
    }
    if (!(st = dist_agree(&c, st, msg, sizeof msg)))
        st = sa_file(&c, dup, ctx, text_path, sa_path, index_bits / 8, &n, s, msg, sizeof msg);
    if (n_out) *n_out = n;
    dist_comm_mpi_close(&dup);
    set_err(err, cap, st ? msg : "");
    return st;
}

clsa_status clsa_mpi_sa_file(MPI_Comm comm, clsa_context *ctx, const char *text_path,
                             const char *sa_path, int index_bits, int64_t *n_out, char *err,
                             size_t cap)
{
    return clsa_mpi_sa_file_ex(comm, ctx, text_path, sa_path, index_bits, n_out, NULL, err, cap);
}
