/* clsa: many independent texts in one call (included by clsa.h).
 *
 * ---- batched suffix arrays and BWTs -----------------------------------------
 * k texts, held back to back in one array (text i is lengths[i] symbols
 * starting at symbol offset o_i = lengths[0] + ... + lengths[i-1]; no
 * separators; the gsa family's lengths convention), give k independent
 * results in one array of M = sum(lengths) entries laid out the same way:
 * entries [o_i, o_i + lengths[i]) hold text i's own suffix array (each
 * entry a position in text i, 0 <= sa[j] < lengths[i]: exactly what
 * clsa_sa32/64 of that text alone gives) or its BWT.
 *
 * The device builds them together, in one pipeline whose launches do not
 * grow with k: the texts joined by separators as one virtual text of
 * M + k symbols (a byte no text holds marks them; without one, 32-bit
 * symbols), its generalized suffix array (clsa_gsa32's order: within one
 * text, exactly that text's suffix order, a proper prefix first), then a
 * stable partition of it by text on the device.  A batch whose working set
 * (about 21 bytes per symbol for bytes) passes the device-memory budget
 * (clsa_options.mem_limit) runs as several such parts, in order; a text
 * too large for the budget alone is built as clsa_sa32/64 builds it (out
 * of core).  Progress reports cover the whole batch; cancellation stops it
 * between steps (outputs then unspecified).  Backends: as clsa_sa32 for an
 * input of M symbols (AUTO: the host below the host threshold; the host
 * backend runs the texts one by one with libdivsufsort, or the host
 * integer path); ctx may be NULL (host).
 *
 * Arguments (all calls):
 *   ctx      context (NULL: host backend)
 *   text     M symbols; may be NULL when M = 0
 *   lengths  k entries, each >= 0 (empty texts allowed: no entries, a
 *            primary index of 0); may be NULL when k = 0
 *   k        number of texts, >= 0 (k = 0 or M = 0 writes nothing)
 *   sa/bwt   out, M entries, must not overlap text
 *   primary  (BWT) out, k entries: text i's primary index as clsa_bwt
 *            returns it (1 + the rank of its suffix 0; 0 for an empty text)
 * Errors: a negative k or length, a NULL array with something to read or
 * write, or lengths adding up past 2^63: CLSA_ERR_INVALID_ARG; a text of
 * 2^31 or more symbols in a 32-bit call: CLSA_ERR_TOO_LARGE (its entries
 * would not fit), as is one of 2^32 or more in the integer-alphabet
 * calls.  The total M has no limit of its own. */
#ifndef CLSA_BATCH_H
#define CLSA_BATCH_H

/* Byte texts; entries of 4 (every length < 2^31) or 8 bytes. */
CLSA_API clsa_status clsa_sa32_batch(clsa_context *ctx, const uint8_t *text,
                                     const int64_t *lengths, int64_t k, int32_t *sa);
CLSA_API clsa_status clsa_sa64_batch(clsa_context *ctx, const uint8_t *text,
                                     const int64_t *lengths, int64_t k, int64_t *sa);

/* 16-, 32- and 64-bit symbols, compared as unsigned numbers (as
 * clsa_sa32_u16 ... clsa_sa32_u64 compare them); every length < 2^32.
 * The virtual text of 32-bit symbols is made on the host (4 bytes per
 * symbol of host work space; 64-bit symbols, and 32-bit ones whose largest
 * value + k passes 32 bits, are ranked first as for clsa_gsa32_u64). */
CLSA_API clsa_status clsa_sa32_batch_u16(clsa_context *ctx, const uint16_t *text,
                                         const int64_t *lengths, int64_t k, int32_t *sa);
CLSA_API clsa_status clsa_sa64_batch_u16(clsa_context *ctx, const uint16_t *text,
                                         const int64_t *lengths, int64_t k, int64_t *sa);
CLSA_API clsa_status clsa_sa32_batch_u32(clsa_context *ctx, const uint32_t *text,
                                         const int64_t *lengths, int64_t k, int32_t *sa);
CLSA_API clsa_status clsa_sa64_batch_u32(clsa_context *ctx, const uint32_t *text,
                                         const int64_t *lengths, int64_t k, int64_t *sa);
CLSA_API clsa_status clsa_sa32_batch_u64(clsa_context *ctx, const uint64_t *text,
                                         const int64_t *lengths, int64_t k, int32_t *sa);
CLSA_API clsa_status clsa_sa64_batch_u64(clsa_context *ctx, const uint64_t *text,
                                         const int64_t *lengths, int64_t k, int64_t *sa);

/* Device-resident byte texts: text is a buffer of at least M bytes, sa of
 * at least M entries (4 or 8 bytes), both on ctx's OpenCL context; lengths
 * is a host array.  Their bytes count as held by clsa for the call (as for
 * clsa_sa32_mem); parts too large for the budget run as smaller parts, but
 * a single text too large for the device's budget gives
 * CLSA_ERR_DEVICE_MEMORY.  A single text whose own arrays would pass the
 * largest allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE), or of 2^32 symbols or
 * more, is copied to host memory and built as clsa_sa32/64 builds it (out
 * of core), its result written back. */
CLSA_API clsa_status clsa_sa32_batch_mem(clsa_context *ctx, cl_mem text, const int64_t *lengths,
                                         int64_t k, cl_mem sa);
CLSA_API clsa_status clsa_sa64_batch_mem(clsa_context *ctx, cl_mem text, const int64_t *lengths,
                                         int64_t k, cl_mem sa);

/* BWT of every text in libdivsufsort's divbwt convention (clsa_bwt):
 * bwt[o_i .. o_i + lengths[i]) and primary[i] are exactly what clsa_bwt
 * of text i alone gives.  On the device the BWT is gathered from the
 * batch's suffix arrays there (the SA never crosses to the host); any
 * length (no 32-bit limit). */
CLSA_API clsa_status clsa_bwt_batch(clsa_context *ctx, const uint8_t *text,
                                    const int64_t *lengths, int64_t k, uint8_t *bwt,
                                    int64_t *primary);
/* Device-resident: text and bwt buffers of M bytes (different buffers),
 * lengths and primary host arrays of k entries. */
CLSA_API clsa_status clsa_bwt_batch_mem(clsa_context *ctx, cl_mem text, const int64_t *lengths,
                                        int64_t k, cl_mem bwt, int64_t *primary);
/* Integer alphabets (as clsa_bwt_u16 ...): the batch's suffix arrays into
 * a host array of M entries, then gathered on the host; every length
 * < 2^32. */
CLSA_API clsa_status clsa_bwt_batch_u16(clsa_context *ctx, const uint16_t *text,
                                        const int64_t *lengths, int64_t k, uint16_t *bwt,
                                        int64_t *primary);
CLSA_API clsa_status clsa_bwt_batch_u32(clsa_context *ctx, const uint32_t *text,
                                        const int64_t *lengths, int64_t k, uint32_t *bwt,
                                        int64_t *primary);
CLSA_API clsa_status clsa_bwt_batch_u64(clsa_context *ctx, const uint64_t *text,
                                        const int64_t *lengths, int64_t k, uint64_t *bwt,
                                        int64_t *primary);
#endif
