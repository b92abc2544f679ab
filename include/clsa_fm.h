/* clsa FM-index, longest common substring, LCP range-minimum queries
 * (part of clsa.h; include clsa.h, not this file).
 *
 * The FM-index and the RMQ structure need a context with an OpenCL device
 * (the work and the data stay on it); a host-only context gives
 * CLSA_ERR_NO_DEVICE, and the backend setting does not move them to the
 * host.  clsa_lcs and clsa_lcs_k follow the backend rules (see there).
 */
#ifndef CLSA_FM_H
#define CLSA_FM_H

/* ---- FM-index -----------------------------------------------------------------
 * Built over text + $ where $ is a conceptual end marker smaller than every
 * byte; the text itself may hold any bytes (0x00 and 0xFF included) and
 * needs no sentinel.  The $ never matches a pattern byte, so counts are
 * exactly the numbers of (possibly overlapping) occurrences in the text.
 *
 * Conventions for patterns:
 * - the empty pattern occurs at every text position: count = n, locate =
 *   0, 1, ..., n-1 (the position n, just past the end, is not reported);
 * - a pattern longer than the text, or with a byte absent from the text,
 *   has count 0.
 *
 * The handle keeps its device data on the context it was created or loaded
 * on; that context must outlive it.  A handle is not thread-safe by itself,
 * but its calls lock the context. */
typedef struct clsa_fm clsa_fm;

/* Default SA sampling rate (one text position in this many is sampled). */
#define CLSA_FM_DEFAULT_SAMPLE_RATE 32
/* Largest sampling rate; larger requests (and rates above n + 1) are clamped. */
#define CLSA_FM_MAX_SAMPLE_RATE 512

/* Builds the FM-index of text[0..n) on ctx's device: suffix array, BWT,
 * C table, occurrence checkpoints, sampled suffix array.
 *   ctx          context with a device (kept by the handle)
 *   text         n bytes (may be NULL when n = 0); not kept
 *   n            text length, 0 <= n < 2^40
 *   sample_rate  suffix array sampling rate >= 1 (0: the default, 32);
 *                locate walks at most sample_rate - 1 LF steps per
 *                occurrence, memory for samples is about 8n/sample_rate;
 *                clamped to min(n + 1, CLSA_FM_MAX_SAMPLE_RATE)
 *   out          receives the handle (NULL on failure) */
CLSA_API clsa_status clsa_fm_create(clsa_context *ctx, const uint8_t *text, int64_t n,
                                    int64_t sample_rate, clsa_fm **out);

/* Releases the handle and its device memory.  NULL is allowed. */
CLSA_API void clsa_fm_free(clsa_fm *fm);

/* Text length and sampling rate of an index (either pointer may be NULL). */
CLSA_API clsa_status clsa_fm_info(const clsa_fm *fm, int64_t *n, int64_t *sample_rate);

/* Writes the index to path: magic "CLSAFMIX", format version, header with
 * sizes, payload (BWT, symbol counts, sample marks, samples), 64-bit FNV-1a
 * checksum over everything before it.  Written to a temporary file in the
 * same folder and renamed, so path never holds a partial file.
 *   fm    the index
 *   path  output file */
CLSA_API clsa_status clsa_fm_save(clsa_fm *fm, const char *path);

/* Reads an index written by clsa_fm_save and rebuilds its device data.
 * A truncated, altered or foreign file gives CLSA_ERR_FORMAT with a message
 * saying what is wrong; sizes are checked against the file size before any
 * allocation.
 *   ctx   context with a device (kept by the handle)
 *   path  input file
 *   out   receives the handle (NULL on failure) */
CLSA_API clsa_status clsa_fm_load(clsa_context *ctx, const char *path, clsa_fm **out);

/* Counts the occurrences of a batch of patterns, on the device, one
 * work-item per pattern (backward search).
 *   fm         the index
 *   patterns   all patterns back to back (may be NULL if all are empty)
 *   offsets    npatterns + 1 entries: pattern p is
 *              patterns[offsets[p] .. offsets[p+1]); non-decreasing
 *   npatterns  number of patterns (0: nothing to do)
 *   counts     receives npatterns counts */
CLSA_API clsa_status clsa_fm_count(clsa_fm *fm, const uint8_t *patterns, const uint64_t *offsets,
                                   size_t npatterns, uint64_t *counts);

/* Locates every occurrence of a batch of patterns, on the device (backward
 * search, then one work-item per occurrence walking LF to the nearest
 * sample).
 *   fm         the index
 *   patterns, offsets, npatterns   as clsa_fm_count
 *   starts     receives npatterns + 1 entries: the positions of pattern p
 *              are (*positions)[starts[p] .. starts[p+1]), sorted ascending
 *   positions  receives a malloc'd array of starts[npatterns] text
 *              positions (NULL if there are none); release it with
 *              clsa_fm_positions_free
 *   max_total  limit on the total number of positions (0: no limit); a
 *              batch with more gives CLSA_ERR_TOO_LARGE before any work */
CLSA_API clsa_status clsa_fm_locate(clsa_fm *fm, const uint8_t *patterns, const uint64_t *offsets,
                                    size_t npatterns, uint64_t max_total, uint64_t *starts,
                                    int64_t **positions);

/* Frees an array returned by clsa_fm_locate.  NULL is allowed. */
CLSA_API void clsa_fm_positions_free(int64_t *positions);

/* ---- FM-index over a set of strings ---------------------------------------------------
 * An FM-index of k byte strings whose answers are (string, offset) pairs;
 * no pattern matches across the end of a string.  The strings are given as
 * for clsa_gsa32 (text back to back, lengths[i] >= 0, empty strings
 * allowed).  Built as one ordinary FM-index (clsa_fm_create, on the
 * device) over the strings joined: with a separator byte after each string
 * when some byte value occurs in none of them (the smallest such value; a
 * pattern holding it has no occurrence and is answered without a search),
 * else, when the strings use all 256 byte values, joined as they are, with
 * matches that run past the end of their string dropped after locating
 * (then counting locates too, and those dropped matches count toward
 * max_total).  Pattern conventions as for clsa_fm_count: the empty pattern
 * occurs at every offset 0..lengths[i]-1 of every string.  The index is
 * saved with clsa_fm_set_save and read back with clsa_fm_set_load (a file
 * of its own kind, which clsa_fm_load refuses, and the other way round). */
typedef struct clsa_fm_set clsa_fm_set;

/* Builds the index.
 *   ctx          context with a device (kept by the handle)
 *   text         the strings back to back (may be NULL if all are empty);
 *                not kept
 *   lengths, k   k >= 0 string lengths (lengths may be NULL when k = 0);
 *                sum(lengths) + k < 2^40
 *   sample_rate  as for clsa_fm_create (0: the default)
 *   out          receives the handle (NULL on failure)
 * Host work space: the joined text, sum(lengths) + k bytes. */
CLSA_API clsa_status clsa_fm_set_create(clsa_context *ctx, const uint8_t *text,
                                        const int64_t *lengths, int64_t k, int64_t sample_rate,
                                        clsa_fm_set **out);

/* Releases the handle and its device memory.  NULL is allowed. */
CLSA_API void clsa_fm_set_free(clsa_fm_set *set);

/* Number of strings, their total length and the sampling rate (any
 * pointer may be NULL). */
CLSA_API clsa_status clsa_fm_set_info(const clsa_fm_set *set, int64_t *k, int64_t *total,
                                      int64_t *sample_rate);

/* Writes the set index to path: the FM-index file of clsa_fm_save with
 * magic "CLSAFMST" and, after its samples and under its checksum, the
 * string table (k, the separator byte, the k lengths; 8 bytes a string).
 * Names of the strings are not stored.  Written to a temporary file in the
 * same folder and renamed, so path never holds a partial file.
 *   set   the index
 *   path  output file */
CLSA_API clsa_status clsa_fm_set_save(clsa_fm_set *set, const char *path);

/* Reads a set index written by clsa_fm_set_save and rebuilds its device
 * data; the answers are those of the index that was saved.  A truncated,
 * altered or foreign file (a single-text FM-index file included) gives
 * CLSA_ERR_FORMAT with a message saying what is wrong; every size is
 * checked against the file size, and the string table against the text
 * length and the symbol counts, before any allocation of that size and
 * any device work.  A file that cannot be opened or read is CLSA_ERR_IO.
 *   ctx   context with a device (kept by the handle)
 *   path  input file
 *   out   receives the handle (NULL on failure) */
CLSA_API clsa_status clsa_fm_set_load(clsa_context *ctx, const char *path, clsa_fm_set **out);

/* Counts the occurrences of a batch of patterns in all the strings
 * together (an occurrence lies inside one string).  Arguments as for
 * clsa_fm_count. */
CLSA_API clsa_status clsa_fm_set_count(clsa_fm_set *set, const uint8_t *patterns,
                                       const uint64_t *offsets, size_t npatterns,
                                       uint64_t *counts);

/* Locates every occurrence of a batch of patterns.
 *   set, patterns, offsets, npatterns, max_total   as for clsa_fm_locate
 *   starts     npatterns + 1 entries: the occurrences of pattern p are
 *              entries starts[p] .. starts[p+1] of the two arrays below,
 *              sorted by string, then offset
 *   strings    receives a malloc'd array: the string index of each
 *              occurrence (NULL if there are none)
 *   positions  receives a malloc'd array: its offset within that string
 *              (NULL if there are none)
 * Release both with clsa_fm_positions_free. */
CLSA_API clsa_status clsa_fm_set_locate(clsa_fm_set *set, const uint8_t *patterns,
                                        const uint64_t *offsets, size_t npatterns,
                                        uint64_t max_total, uint64_t *starts, int64_t **strings,
                                        int64_t **positions);

/* ---- longest common substring -----------------------------------------------------
 * Longest byte string that occurs in both a[0..na) and b[0..nb) (any bytes).
 * Method: suffix array and LCP array of a + b (no separator byte: suffixes
 * starting in a are clamped at the end of a, which is exact for every byte
 * value), built on the device; then one O(na + nb) pass over the suffix
 * order (on the host, over the arrays read back) finds the best pair.
 *   ctx     context; the backend rules of clsa_sa32 apply (NULL, HOST, or
 *           AUTO below the host threshold: libdivsufsort + Kasai on the host,
 *           same answer)
 *   a, na   first sequence (a may be NULL when na = 0)
 *   b, nb   second sequence
 *   length  receives the length L of the longest common substring (0 if
 *           none, e.g. an empty input)
 *   pos_a   receives its start in a, pos_b its start in b.  Ties: the
 *           smallest pos_a among all pairs of length L, then the smallest
 *           pos_b for that pos_a.  Both 0 when L = 0.
 * na + nb must be < 2^40. */
CLSA_API clsa_status clsa_lcs(clsa_context *ctx, const uint8_t *a, int64_t na, const uint8_t *b,
                              int64_t nb, int64_t *length, int64_t *pos_a, int64_t *pos_b);

/* ---- longest common substring of k strings ----------------------------------------
 * The longest substring that occurs in at least m of k strings (m = k:
 * in all of them).  The strings are given as for clsa_gsa32 (text holds
 * them back to back, lengths[i] >= 0 the length of string i, empty strings
 * allowed).
 * Method: the generalized suffix array and its document array (device or
 * host by the backend rules of clsa_gsa32), the LCP array (Kasai, on the
 * host), then one O(N) pass over the suffix order on the host: a window of
 * suffixes covering at least m strings, the smallest LCP inside it kept
 * with a monotone deque.  N = sum(lengths) + k < 2^32; host work space is
 * about 3 * 4 bytes (8 bytes past 2^31) + 8 bytes per virtual symbol, plus
 * what the suffix array itself needs.
 *   ctx      context (may be NULL: host backend)
 *   text     the strings' symbols back to back (may be NULL if they are
 *            all empty)
 *   lengths  k lengths
 *   k        number of strings, >= 0 (0: *length = 0, nothing else)
 *   m        how many strings must share the substring, 1 <= m <= k, else
 *            CLSA_ERR_INVALID_ARG; m = 1 gives the longest string
 *   length   receives the length L of the substring (0 when no symbol
 *            occurs in m strings)
 *   offsets  k entries: offsets[i] receives the smallest offset in string
 *            i at which the substring occurs, or -1 where it does not (every
 *            string that holds it is reported, which can be more than m);
 *            all -1 when L = 0.  Read the substring from any string i with
 *            offsets[i] >= 0.
 * Ties: among all substrings of length L shared by m strings, the smallest
 * in the suffix order (lexicographically smallest, symbols compared as
 * unsigned numbers). */
CLSA_API clsa_status clsa_lcs_k(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                                int64_t k, int64_t m, int64_t *length, int64_t *offsets);
/* The same for 16-, 32- and 64-bit symbols (64-bit ones ranked first, as
 * for clsa_gsa32_u64). */
CLSA_API clsa_status clsa_lcs_k_u16(clsa_context *ctx, const uint16_t *text,
                                    const int64_t *lengths, int64_t k, int64_t m,
                                    int64_t *length, int64_t *offsets);
CLSA_API clsa_status clsa_lcs_k_u32(clsa_context *ctx, const uint32_t *text,
                                    const int64_t *lengths, int64_t k, int64_t m,
                                    int64_t *length, int64_t *offsets);
CLSA_API clsa_status clsa_lcs_k_u64(clsa_context *ctx, const uint64_t *text,
                                    const int64_t *lengths, int64_t k, int64_t m,
                                    int64_t *length, int64_t *offsets);

/* ---- range-minimum queries over an LCP array -------------------------------------------
 * O(n) words of extra space (in-block stack masks over blocks of 32 plus a
 * sparse table of block minima), O(1) per query; built and queried on the
 * device.  With lcp the LCP array of a text (lcp[i] = lcp of the suffixes of
 * ranks i-1 and i), the lcp of the suffixes of ranks i != j is
 * min lcp[min(i,j)+1 .. max(i,j)]. */
typedef struct clsa_lcp_rmq clsa_lcp_rmq;

/* Builds the structure over values[0..n) (LCP values, or any non-negative
 * integers below 2^32 for the 32-bit form).
 *   ctx     context with a device (kept by the handle)
 *   values  n entries; copied, not kept
 *   n       number of entries, n >= 1
 *   out     receives the handle */
CLSA_API clsa_status clsa_lcp_rmq_create32(clsa_context *ctx, const int32_t *values, int64_t n,
                                           clsa_lcp_rmq **out);
CLSA_API clsa_status clsa_lcp_rmq_create64(clsa_context *ctx, const int64_t *values, int64_t n,
                                           clsa_lcp_rmq **out);
/* Device-resident input: values holds n entries of 4 (index64 = 0) or 8
 * bytes; it is copied, the caller keeps it. */
CLSA_API clsa_status clsa_lcp_rmq_create_mem(clsa_context *ctx, cl_mem values, int64_t n,
                                             int index64, clsa_lcp_rmq **out);

/* Batch of range minima: out[q] = min values[lo[q] .. hi[q]] (inclusive),
 * for 0 <= lo[q] <= hi[q] < n, else CLSA_ERR_INVALID_ARG (checked on the
 * host before any work).
 *   rmq     the structure
 *   lo, hi  nq query bounds each
 *   nq      number of queries
 *   out     receives nq minima */
CLSA_API clsa_status clsa_lcp_rmq_min(clsa_lcp_rmq *rmq, const int64_t *lo, const int64_t *hi,
                                      size_t nq, int64_t *out);

/* Batch of suffix lcps by rank: out[q] = min values[min(i,j)+1 .. max(i,j)]
 * for i = ri[q], j = rj[q] in [0, n); i == j gives -1 (the whole suffix,
 * whose length the structure does not know).
 *   rmq     the structure
 *   ri, rj  nq ranks each
 *   nq      number of queries
 *   out     receives nq values */
CLSA_API clsa_status clsa_lcp_rmq_lcp(clsa_lcp_rmq *rmq, const int64_t *ri, const int64_t *rj,
                                      size_t nq, int64_t *out);

/* Releases the structure.  NULL is allowed. */
CLSA_API void clsa_lcp_rmq_free(clsa_lcp_rmq *rmq);

#endif
