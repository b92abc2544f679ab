/* clsa indexes built on the suffix array: inverse suffix array, Burrows-
 * Wheeler transform and its inverse, LCP array (part of clsa.h; include
 * clsa.h, not this file).
 *
 * Common rules (as for clsa_sa32/64):
 * - ctx may be NULL for the host-pointer forms: the host backend
 *   (libdivsufsort, Kasai) does the work.  A context with backend HOST, or
 *   AUTO with an input below the host threshold, also runs on the host;
 *   backend DEVICE always runs the kernels.  The _mem forms need a device.
 * - n is the number of text bytes; n = 0 is valid and writes nothing.
 * - 32-bit index forms need n <= INT32_MAX, else CLSA_ERR_TOO_LARGE.
 * - Host arrays are read or written for exactly n entries; they are never
 *   touched past that.  cl_mem arguments are buffers on ctx's OpenCL context
 *   holding at least the stated number of bytes.
 * - On an error the outputs are unspecified and clsa_last_error(ctx) says why.
 */
#ifndef CLSA_INDEX_H
#define CLSA_INDEX_H

/* ---- inverse suffix array --------------------------------------------------
 * isa[sa[i]] = i: isa[j] is the rank of suffix j among all suffixes. */

/* Builds the suffix array of text[0..n) (on the device when the backend
 * allows, keeping it there) and writes its inverse to isa[0..n). */
CLSA_API clsa_status clsa_isa32(clsa_context *ctx, const uint8_t *text, int32_t *isa, int64_t n);
CLSA_API clsa_status clsa_isa64(clsa_context *ctx, const uint8_t *text, int64_t *isa, int64_t n);

/* Inverts a given permutation sa[0..n) of 0..n-1 into isa[0..n).  sa is
 * not checked to be a suffix array (any permutation works); values outside
 * [0, n) give unspecified output but never write out of bounds.
 * sa and isa must not overlap. */
CLSA_API clsa_status clsa_isa_from_sa32(clsa_context *ctx, const int32_t *sa, int32_t *isa,
                                        int64_t n);
CLSA_API clsa_status clsa_isa_from_sa64(clsa_context *ctx, const int64_t *sa, int64_t *isa,
                                        int64_t n);

/* Device-resident: sa holds n entries (4 or 8 bytes), isa receives n
 * entries of the same width; sa and isa must be different buffers. */
CLSA_API clsa_status clsa_isa32_mem(clsa_context *ctx, cl_mem sa, cl_mem isa, int64_t n);
CLSA_API clsa_status clsa_isa64_mem(clsa_context *ctx, cl_mem sa, cl_mem isa, int64_t n);

/* ---- Burrows-Wheeler transform ---------------------------------------------
 * Convention of libdivsufsort's divbwt(): the text is treated as text + $
 * with $ a unique symbol smaller than every byte; of the n + 1 symbols of
 * that BWT, the $ is left out, so bwt has exactly n bytes, and *primary gets
 * the row index of the $ in the (n + 1)-row matrix, i.e. 1 + the rank of
 * suffix 0 among the suffixes of text (1 <= primary <= n for n >= 1, and
 * primary = 0 for n = 0).  Equivalently bwt[0] = text[n-1] and the other
 * bytes are text[sa[i] - 1] for the sa[i] != 0 in suffix order.  Output is
 * byte-identical to divbwt(text, bwt, NULL, n) and its return value is
 * *primary, so files interoperate with libdivsufsort's inverse_bw_transform. */

/* text[0..n) -> bwt[0..n), *primary.  The suffix array is built internally
 * (32-bit entries when n <= INT32_MAX, else 64-bit) and stays on the device.
 * text and bwt must not overlap.  primary must not be NULL. */
CLSA_API clsa_status clsa_bwt(clsa_context *ctx, const uint8_t *text, uint8_t *bwt, int64_t n,
                              int64_t *primary);

/* The same from a suffix array the caller already has (sa[0..n) must be
 * the suffix array of text; it is not checked). */
CLSA_API clsa_status clsa_bwt_from_sa32(clsa_context *ctx, const uint8_t *text, const int32_t *sa,
                                        uint8_t *bwt, int64_t n, int64_t *primary);
CLSA_API clsa_status clsa_bwt_from_sa64(clsa_context *ctx, const uint8_t *text, const int64_t *sa,
                                        uint8_t *bwt, int64_t n, int64_t *primary);

/* Device-resident: text (n bytes) -> bwt (n bytes, a different buffer). */
CLSA_API clsa_status clsa_bwt_mem(clsa_context *ctx, cl_mem text, cl_mem bwt, int64_t n,
                                  int64_t *primary);

/* Inverse BWT: bwt[0..n) with its primary index (as returned by clsa_bwt
 * or divbwt) -> text[0..n).  primary must be in [1, n] (0 when n = 0), else
 * CLSA_ERR_INVALID_ARG with a message naming the valid range; a bwt that
 * is not the transform of any text (but has a valid primary) gives
 * unspecified bytes, never a crash.  bwt and text may be the same array
 * (host form) but must otherwise not overlap.  The device method uses
 * 32-bit rows: inputs longer than 2^32 - 2 bytes are inverted on the host
 * (libdivsufsort) by clsa_unbwt, and give CLSA_ERR_TOO_LARGE from
 * clsa_unbwt_mem. */
CLSA_API clsa_status clsa_unbwt(clsa_context *ctx, const uint8_t *bwt, uint8_t *text, int64_t n,
                                int64_t primary);
/* Device-resident: bwt (n bytes) -> text (n bytes, a different buffer). */
CLSA_API clsa_status clsa_unbwt_mem(clsa_context *ctx, cl_mem bwt, cl_mem text, int64_t n,
                                    int64_t primary);

/* ---- BWT of integer alphabets ----------------------------------------------
 * The same transform for a text of 16-, 32- or 64-bit symbols (token ids,
 * k-mer codes, ...), symbols compared as unsigned numbers (0 and the
 * type's maximum allowed; the $ is still a conceptual symbol smaller than
 * all of them, so no value is reserved): bwt[0] = text[n-1], then
 * text[sa[i] - 1] for every sa[i] != 0 in suffix order, *primary = 1 + the
 * rank of suffix 0 (0 when n = 0), as clsa_bwt.  The suffix array is built
 * as clsa_sa32_u16 ... clsa_sa32_u64 build it (device, out of core or host
 * by the backend rules; 64-bit symbols ranked first) into a host array of
 * n entries (4 bytes, 8 past 2^31), then gathered on the host.
 *   ctx      context (NULL: host backend)
 *   text     n symbols (may be NULL when n = 0)
 *   bwt      receives n symbols of the same type; must not overlap text
 *   n        number of symbols, 0 <= n < 2^32, else CLSA_ERR_TOO_LARGE
 *   primary  receives the primary index; must not be NULL */
CLSA_API clsa_status clsa_bwt_u16(clsa_context *ctx, const uint16_t *text, uint16_t *bwt,
                                  int64_t n, int64_t *primary);
CLSA_API clsa_status clsa_bwt_u32(clsa_context *ctx, const uint32_t *text, uint32_t *bwt,
                                  int64_t n, int64_t *primary);
CLSA_API clsa_status clsa_bwt_u64(clsa_context *ctx, const uint64_t *text, uint64_t *bwt,
                                  int64_t n, int64_t *primary);

/* Inverse of the above, on the host whatever the backend: LF mapping from
 * the dense ranks of the symbols and a counting sort of them, about
 * 8 bytes per symbol of work space plus 8 per distinct symbol (16 per
 * symbol at the peak while the distinct values are sorted).
 *   ctx      context for the message (may be NULL)
 *   bwt      n symbols with their primary index, as clsa_bwt_u16 ... wrote
 *   text     receives n symbols; may be the same array as bwt, must not
 *            otherwise overlap it
 *   n        0 <= n < 2^32, else CLSA_ERR_TOO_LARGE
 *   primary  in [1, n] (0 when n = 0), else CLSA_ERR_INVALID_ARG; a bwt
 *            that is not the transform of any text gives unspecified
 *            symbols, never a crash */
CLSA_API clsa_status clsa_unbwt_u16(clsa_context *ctx, const uint16_t *bwt, uint16_t *text,
                                    int64_t n, int64_t primary);
CLSA_API clsa_status clsa_unbwt_u32(clsa_context *ctx, const uint32_t *bwt, uint32_t *text,
                                    int64_t n, int64_t primary);
CLSA_API clsa_status clsa_unbwt_u64(clsa_context *ctx, const uint64_t *bwt, uint64_t *text,
                                    int64_t n, int64_t primary);

/* ---- LCP array ---------------------------------------------------------------
 * lcp[0] = 0 and lcp[i] = length of the longest common prefix of the
 * suffixes starting at sa[i-1] and sa[i] (suffix order as clsa_sa32/64).
 * The device method is the permuted LCP (PLCP) through the Phi array,
 * computing only the irreducible values from scratch (O(n log n) work in the
 * worst case, linear on typical inputs, including highly repetitive ones). */

/* text[0..n) -> lcp[0..n); the suffix array is built internally and stays
 * on the device. */
CLSA_API clsa_status clsa_lcp32(clsa_context *ctx, const uint8_t *text, int32_t *lcp, int64_t n);
CLSA_API clsa_status clsa_lcp64(clsa_context *ctx, const uint8_t *text, int64_t *lcp, int64_t n);

/* The same from a suffix array the caller already has (must be the suffix
 * array of text; not checked, but a wrong one never causes out-of-bounds
 * access).  lcp must not overlap sa or text. */
CLSA_API clsa_status clsa_lcp_from_sa32(clsa_context *ctx, const uint8_t *text, const int32_t *sa,
                                        int32_t *lcp, int64_t n);
CLSA_API clsa_status clsa_lcp_from_sa64(clsa_context *ctx, const uint8_t *text, const int64_t *sa,
                                        int64_t *lcp, int64_t n);

/* Device-resident: text (n bytes), sa (n entries of 4 or 8 bytes), lcp (n
 * entries of the same width).  lcp may be the same buffer as sa: the suffix
 * array is then overwritten by the LCP array (saves n entries of memory). */
CLSA_API clsa_status clsa_lcp32_mem(clsa_context *ctx, cl_mem text, cl_mem sa, cl_mem lcp,
                                    int64_t n);
CLSA_API clsa_status clsa_lcp64_mem(clsa_context *ctx, cl_mem text, cl_mem sa, cl_mem lcp,
                                    int64_t n);

#endif
