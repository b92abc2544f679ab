/* Device scan of 32-bit values (internal entry points used by every layer). */
#ifndef CLSA_PRIM_SCAN_H
#define CLSA_PRIM_SCAN_H
#include "clsa.h"

/* out[i] = exclusive/inclusive prefix sum of in (or of in != 0 when
 * as_flags).  in == out is allowed.  *total (optional) gets the sum of all. */
clsa_status clsa__scan(clsa_context *ctx, cl_mem in, cl_mem out, size_t n, int inclusive,
                       int as_flags, uint32_t *total);
/* What clsa__scan_index sums (cl_kernels/scan.cl says more):
 * VALUES in[i]; FLAGS in[i] != 0; FLAGS_MARK in[i] != 0, with bit 1 of
 * in[i] copied to bit 31 of out[i] (exclusive, sum < 2^31); TOP_BITS the
 * top bit of in as an idx_t array, cleared in place. */
enum { CLSA_SCAN_VALUES, CLSA_SCAN_FLAGS, CLSA_SCAN_FLAGS_MARK, CLSA_SCAN_TOP_BITS };

/* The same with a mode, and (index not NULL) index[exclusive sum at i] = i
 * for every i that adds to the sum (idx_t: 64-bit when index64): over head
 * flags, the first slot of every group, written by the scan itself (no
 * second pass over the scan).  index64 also gives the width of in for
 * TOP_BITS. */
clsa_status clsa__scan_index(clsa_context *ctx, cl_mem in, cl_mem out, size_t n, int inclusive,
                             int mode, uint32_t *total, cl_mem index, int index64);
/* The single pass's look-back state (cl_kernels/scan.cl sp_ticket,
 * sp_tile_prefix) for a kernel of another program that scans one tile a
 * work-group, tiles of the scan's shape (wg x items values).  begin: *ok
 * = 0 where the single pass is off, n >= 2^29, one tile, or the local
 * memory (the tile, `extra` words more a tile value, two words a
 * work-item) or the state does not fit; then the caller takes its other
 * path.  The kernel's state arguments are state, cap, epoch and fault_at. */
/* Words of ctx->scan_state, from CLSA_SCAN_USER_AT, that belong to the
 * scans' callers: zero when the state is made, written by no scan, read
 * back into clsa__onepass.user with every single pass's total (scan.cl
 * SP_USER). */
#define CLSA_SCAN_USER_AT 8
#define CLSA_SCAN_USER_WORDS 32
typedef struct clsa__onepass {
    size_t wg, items, nb, tile_bytes; /* tile_bytes: the padded tile (scan.cl TILE_AT) */
    cl_mem state;
    cl_uint cap, epoch, fault_at;
    uint32_t user[CLSA_SCAN_USER_WORDS]; /* clsa__onepass_end: the callers' words */
} clsa__onepass;
clsa_status clsa__onepass_begin(clsa_context *ctx, size_t n, size_t extra, clsa__onepass *op,
                                int *ok);
/* After the launch: one read of the total, the fault counter and the
 * callers' words (op->user).
 * *faulted: a tile faulted (the context then keeps reduce-then-scan unless
 * tests force faults); *total is then not known (see clsa__onepass_sums). */
clsa_status clsa__onepass_end(clsa_context *ctx, clsa__onepass *op, uint32_t *total,
                              int *faulted);
/* After a fault: the tiles' sums (nb words, read), *first = the first tile
 * that faulted (a later tile that read a faulted tile's sum before its
 * fault may not have faulted). */
clsa_status clsa__onepass_sums(clsa_context *ctx, const clsa__onepass *op, uint32_t *sums,
                               size_t *first);
/* Where in the state the tiles' aggregate words start (a word a tile: the
 * sum, with bit 31 where the tile faulted), for kernels that read them. */
size_t clsa__onepass_sums_at(const clsa__onepass *op);
/* Stream compaction of 32-bit values by flags != 0; *count optional. */
clsa_status clsa__compact(clsa_context *ctx, cl_mem in, cl_mem flags, size_t n, cl_mem out,
                          size_t *count);
#endif
