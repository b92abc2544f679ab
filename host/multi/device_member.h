/* One member of the device engine (host/sa/pd_part.h) over a dist_comm
 * (device_member.c): clsa_sa32/64_multi's threads and the ranks of the MPI
 * calls.  libclsa_mpi reaches the engine through the two exported calls
 * below (a private interface between the two libraries of one version). */
#ifndef CLSA_DIST_DEVICE_MEMBER_H
#define CLSA_DIST_DEVICE_MEMBER_H
#include "comm.h"

#define CLSA_DIST_EXPORT __attribute__((visibility("default")))

/* Whether ctx can be one of `members` members for an n-byte text: a
 * device context with room for a member's working set (members = 1: the
 * one-device working set, for a caller that may have member 0 build it
 * all; more: a member's share, which a caller must be ready to see fail
 * with CLSA_ERR_DEVICE_MEMORY where the split or a decline asks for more),
 * n < 2^32, not Oclgrind's (whose kernels run from the thread that made
 * the context only). */
CLSA_DIST_EXPORT int clsa__dist_device_fits(clsa_context *ctx, int64_t n, int members);

/* Wall seconds of a member's steps, for the callers' statistics (the
 * library never prints them).  one: 1 when one device built the whole
 * array (dist_device_plan, or the members declined after the initial sort). */
typedef struct dist_member_times {
    double plan, upload, sort, download;
    int one;
} dist_member_times;

/* A member's slice SA[base, base + count) in host memory (malloc'd). */
typedef struct dist_host_slice {
    uint32_t *v;
    uint64_t base, count;
    dist_member_times t;
} dist_host_slice;

/* Collective over c (every member calls it with the same n and the whole
 * text, and each its own context, for which clsa__dist_device_fits holds): the
 * suffixes split by sampled splitters (or, where one device should build
 * it all, dist_device_plan or a single member, member 0 alone), each
 * member's range sorted on its device, its slice and step times into *out
 * (members in suffix order).  Status and msg agreed. */
CLSA_DIST_EXPORT clsa_status clsa__dist_device_sa(dist_comm *c, clsa_context *ctx, const uint8_t *text,
                                            int64_t n, dist_host_slice *out, char *msg,
                                            size_t cap);

/* Where a member's slice SA[base, base + count) goes when the caller has a
 * place for it (the output file mapped): *dst = count entries of `width`
 * bytes (little-endian host), or NULL for a malloc'd slice; a status other
 * than CLSA_OK stops the member with msg set. */
typedef clsa_status (*dist_slice_place)(void *arg, uint64_t base, uint64_t count, void **dst,
                                        char *msg, size_t cap);

/* A member's slice SA[base, base + count) as soon as it is known (after
 * the plan where one device builds it all, else early in the sort), so the
 * caller can prepare its place while the sort runs.  The slice may still
 * change (the members decline after the initial sort): place gets the
 * final one. */
typedef void (*dist_slice_known)(void *arg, uint64_t base, uint64_t count);

/* clsa__dist_device_sa, the slice read straight into place's memory where
 * it gives some (out->v NULL then; base, count and times as ever): the
 * download is the output's write.  known (may be NULL) gets arg too. */
CLSA_DIST_EXPORT clsa_status clsa__dist_device_sa_to(dist_comm *c, clsa_context *ctx,
                                                     const uint8_t *text, int64_t n, int width,
                                                     dist_slice_place place,
                                                     dist_slice_known known, void *arg,
                                                     dist_host_slice *out, char *msg, size_t cap);

#ifdef CLSA_RT_CONTEXT_H
/* 1 when one device should build the whole array instead: one repeated
 * byte (nothing to split), or a sample says the initial sort leaves too
 * many suffixes unsorted for the rank exchanges to pay (pd_part.h); else
 * 0 with the size - 1 splitters in split, from the same sample where the
 * sizes agree; -1: out of host memory. */
int dist_device_plan(const uint8_t *text, int64_t n, const clsa_context *ctx, int size,
                     uint64_t *split);

/* Reads the member's slice SA[base, base + count) (32-bit entries in dsa)
 * to where the caller keeps it. */
typedef clsa_status (*dist_slice_reader)(void *arg, clsa_context *ctx, cl_mem dsa, uint64_t base,
                                         uint64_t count);

/* dst[0, count) = the 32-bit device slice dsa[0, count), as 4- or (index64)
 * 8-byte entries; dst holds count * 8 bytes when index64. */
clsa_status dist_read_slice(clsa_context *ctx, cl_mem dsa, void *dst, uint64_t count, int index64);

/* Collective over c: the whole text up to ctx's device, this member's part
 * sorted, its slice told to known (may be NULL) as soon as it is known and
 * handed to read (both get arg).  split: the c->size - 1 splitters
 * (clsa__pd_part_splitters), or NULL for member 0 to build the whole array
 * alone (the others get count 0).  Failures are agreed at every exchange;
 * the last step (read) is not: the caller agrees its status.  msg: the
 * failure's text.  t (may be NULL) gets the upload, sort and download
 * times and whether one device built it all.  packed (may be NULL): the
 * text's packing shared by every member's upload.  Runs as a
 * public call on ctx (its lock). */
clsa_status dist_device_member(dist_comm *c, clsa_context *ctx, const uint8_t *text, int64_t n,
                               clsa__text_share *packed, const uint64_t *split,
                               dist_slice_reader read, dist_slice_known known, void *arg,
                               dist_member_times *t, char *msg, size_t cap);
#endif
#endif
