/* Device suffix array by skew (DC3) and the skew + prefix-doubling
 * hybrid (host/sa/skew.c, docs/SA.md "Skew"), and the choice between them
 * and prefix doubling (host/sa/skew_auto.c). */
#ifndef CLSA_SA_SKEW_H
#define CLSA_SA_SKEW_H
#include "clsa.h"

/* sa (n entries of 4 or 8 bytes) gets the suffix array of text (n
 * symbols of sym = 1, 2 or 4 bytes), both device buffers on ctx, n <
 * 2^32.  doubling_at: the recursion depth whose reduced text goes to
 * prefix doubling instead of another skew level (1: the hybrid; 0: skew
 * all the way down, to the host below a few thousand symbols).
 * text_writable: a 4-byte text may be overwritten with its codes.  Peak
 * device memory besides text and sa: about 10 B/n (bytes, 32-bit). */
clsa_status clsa__sa_device_skew(clsa_context *ctx, cl_mem text, int sym, int text_writable,
                                 cl_mem sa, int64_t n, int index64, int doubling_at);

/* The start of a device suffix array by `name` (skew, runlen): the
 * stats' passes and levels zeroed; *go = 0 for n = 0, a failure naming it
 * for n >= 2^32 (32-bit indices at every step), else progress 0. */
clsa_status clsa__sa_device_start(clsa_context *ctx, int64_t n, const char *name, int *go);

/* sa (n words) = the suffix array of the n uint codes in r, sorted on
 * the host (a reduced text too short for the device's launches). */
clsa_status clsa__sa_host_short(clsa_context *ctx, cl_mem r, uint64_t n, cl_mem sa);

/* *algorithm = the clsa_sa_algorithm a device text of n symbols of sym
 * bytes is built by: ctx->algorithm, or for auto what its measurement
 * picks (host/sa/skew_auto.c).  Also ctx->stats.sa_algorithm and
 * sa_algorithm_why, the line --stats prints. */
clsa_status clsa__sa_pick_algorithm(clsa_context *ctx, cl_mem text, int sym, int64_t n,
                                    int *algorithm);
/* *algorithm = prefix doubling, or skew_pick where auto's measurement of
 * repeats says so (runlen's reduced text: no runs to measure); logged, the
 * stats left as they are. */
clsa_status clsa__sa_pick_repeats(clsa_context *ctx, cl_mem text, int sym, int64_t n,
                                  int *algorithm);
/* *codes (a new buffer of 256 words: byte -> code 1..sigma, 0 for bytes
 * not in the text; the caller frees it, also on failure) and *sigma for
 * the n bytes of text. */
clsa_status clsa__sa_byte_codes(clsa_context *ctx, cl_mem text, uint64_t n, cl_mem *codes,
                                unsigned *sigma);
#endif
