/* clsa over MPI: one suffix array built by every rank of a communicator.
 *
 * Optional: libclsa_mpi is built only where CMake finds MPI (option
 * CLSA_MPI=AUTO/ON/OFF); include this header after mpi.h is reachable.
 *
 * The text is split into P contiguous ranges of positions (P = the
 * communicator's size); rank r owns positions and SA entries
 * [clsa_mpi_part_lo(n, P, r), clsa_mpi_part_lo(n, P, r + 1)).  The suffix
 * order is found by distributed prefix doubling with a sample sort
 * (docs/DESIGN.md, "Distributed suffix array"); the order is the same as
 * clsa_sa64's (plain unsigned-byte order, a proper prefix first).
 *
 * Every function is collective: every rank of comm must call it with the
 * same n / paths / index width.  Errors are agreed: when any rank fails,
 * every rank returns the same status and the same message in err (the
 * failure of the lowest-numbered failing rank), and no partial output file
 * is left.  The library never prints, exits or aborts; MPI errors are
 * returned (the calls run on a duplicate of comm with MPI_ERRORS_RETURN).
 */
#ifndef CLSA_MPI_H
#define CLSA_MPI_H

#include <mpi.h>

#include "clsa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* First position (and first SA entry) owned by rank r of P for a text of n
 * symbols: r * ceil(n / P), capped at n (so r = P gives n; ranks past the
 * text own nothing when n < P). */
CLSA_API int64_t clsa_mpi_part_lo(int64_t n, int nranks, int r);

/* Suffix array of text[0..n), this rank's slice of it.
 *   comm     the ranks taking part (not modified; duplicated inside).
 *   ctx      this rank's context.  Each rank passes its own (one GPU per
 *            rank).  When every rank's is a device context with room for
 *            the whole in-memory suffix array working set (about 17-20
 *            bytes per text byte) and n < 2^32, the ranks split the
 *            suffixes by sampled splitters and each sorts its range on its
 *            device with the whole pipeline, trading only the ranks a pass
 *            reads (the engine of clsa_sa32_multi; texts whose sample says
 *            the trades would cost more are built by rank 0's device); the
 *            slices are then exchanged into the equal ranges below.  Else
 *            (NULL, host-only or smaller contexts) the host-side engine
 *            runs, its local sorts on each rank's device
 *            (clsa_radix_sort_u64_v64) or on the host.
 *   text     the whole text on every rank (the same n bytes everywhere);
 *            may be NULL when n = 0.
 *   n        the text's length, the same on every rank, >= 0.
 *   sa_part  receives sa[lo..hi) for this rank's range (lo, hi from
 *            clsa_mpi_part_lo); hi - lo entries; may be NULL when the
 *            range is empty.
 *   err      receives the agreed failure message (cap bytes; may be NULL);
 *            "" on success.
 * Work space per rank: about 60 bytes per owned position besides the text
 * (the host-side engine); the device engine needs 4 bytes per entry of the
 * rank's slice and its equal range besides the text. */
CLSA_API clsa_status clsa_mpi_sa64(MPI_Comm comm, clsa_context *ctx, const uint8_t *text,
                                   int64_t n, int64_t *sa_part, char *err, size_t cap);

/* End of rank r's text window: the bytes [clsa_mpi_part_lo(n, P, r),
 * clsa_mpi_window_hi(n, P, r)) are the rank's range plus up to 64 bytes
 * after it (the first sort's keys), capped at n. */
CLSA_API int64_t clsa_mpi_window_hi(int64_t n, int nranks, int r);

/* As clsa_mpi_sa64, but each rank gives only its window of the text, so no
 * rank holds the whole text (always the host-side engine):
 *   text_part  text[lo .. clsa_mpi_window_hi(n, P, r)) for this rank r;
 *              may be NULL when the rank's range is empty.
 * The other parameters and the result are those of clsa_mpi_sa64. */
CLSA_API clsa_status clsa_mpi_sa64_part(MPI_Comm comm, clsa_context *ctx,
                                        const uint8_t *text_part, int64_t n, int64_t *sa_part,
                                        char *err, size_t cap);

/* Reads text_path through MPI-IO (each rank only its window; the whole text
 * where the device engine runs), builds its suffix array as clsa_mpi_sa64
 * does and writes it to sa_path as one file in the
 * format of `clsa sa`: n little-endian entries of index_bits / 8 bytes, no
 * header.  index_bits: 32 (n < 2^31, else CLSA_ERR_TOO_LARGE) or 64.  The
 * ranks put their slices at their offsets into "<sa_path>.clsa-mpi-tmp",
 * which rank 0 renames to sa_path only when every rank reports success; on
 * any failure it is removed.  The file is created and sized before the
 * text is read.  How the slices get there (agreed by all ranks):
 *   mapped  when every rank of comm is on one host (MPI_COMM_TYPE_SHARED),
 *           the host is little-endian and sa_path's directory is on a
 *           local file system (tmpfs, ext2/3/4, xfs, btrfs, f2fs,
 *           overlayfs): each rank maps the file, reserves (fallocate) and
 *           pre-faults its equal share on a thread while the text is read
 *           and sorted, and the device engine downloads its slice straight
 *           into the mapping (no separate write);
 *   MPI-IO  anywhere else, or when the environment has
 *           CLSA_MPI_OUTPUT=mpiio on any rank: MPI_File_write_at.
 * *n_out (may be NULL) gets the text's length. */
CLSA_API clsa_status clsa_mpi_sa_file(MPI_Comm comm, clsa_context *ctx, const char *text_path,
                                      const char *sa_path, int index_bits, int64_t *n_out,
                                      char *err, size_t cap);

/* Wall seconds of this rank's steps in clsa_mpi_sa_file_ex (MPI_Wtime).
 * A step ends where the ranks agree on its outcome, so a rank's wait for
 * slower ranks counts in the step it waits in. */
typedef struct clsa_mpi_file_stats {
    double read_s;     /* the text (or this rank's window) into host memory, MPI-IO */
    double plan_s;     /* device engine: one device or several, sample and splitters */
    double upload_s;   /* device engine: the text to this rank's device */
    double sort_s;     /* device engine: the device's sort; host-side engine: all of it */
    double download_s; /* device engine: this rank's slice to host memory */
    double pack_s;     /* the slice as index_bits / 8-byte little-endian entries */
    double write_s;    /* the output's steps on the way: create and size the file, wait
                        * for its reservation (mapped), MPI-IO writes, close, rename */
    int engine;        /* CLSA_MPI_ENGINE_* */
    int output;        /* CLSA_MPI_OUTPUT_*: the route the file took */
    double reserve_s;  /* mapped: this rank's share reserved and its slice pre-faulted,
                        * on a thread beside the plan, upload and sort (not on the way) */
} clsa_mpi_file_stats;

#define CLSA_MPI_OUTPUT_MPI_IO 0 /* MPI_File_write_at of each rank's slice */
#define CLSA_MPI_OUTPUT_MAPPED 1 /* each rank's slice put straight into the mapped file */

#define CLSA_MPI_ENGINE_HOST 0       /* the host-side engine (dist_sa.c's sorts) */
#define CLSA_MPI_ENGINE_DEVICES 1    /* every rank sorted one range of suffixes on its device */
#define CLSA_MPI_ENGINE_ONE_DEVICE 2 /* rank 0's device built the whole array (one rank, or
                                      * a text the ranks' exchanges would not pay for) */

/* clsa_mpi_sa_file, and this rank's step times into *stats (may be NULL;
 * filled on success and on failure, steps not reached 0). */
CLSA_API clsa_status clsa_mpi_sa_file_ex(MPI_Comm comm, clsa_context *ctx, const char *text_path,
                                         const char *sa_path, int index_bits, int64_t *n_out,
                                         clsa_mpi_file_stats *stats, char *err, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
