/* Burrows-Wheeler transform (host/index/bwt.c) and its inverse
 * (host/index/unbwt.c): internal device and host entry points. */
#ifndef CLSA_INDEX_BWT_H
#define CLSA_INDEX_BWT_H
#include "clsa.h"

/* bwt (n bytes) gets the divbwt-convention BWT of text (n bytes) given its
 * suffix array sa (n entries of 4 or 8 bytes, per index64), all device
 * buffers on ctx; bwt must differ from text and sa.  *primary gets the
 * primary index (0 for n = 0, else 1 + the rank of suffix 0). */
clsa_status clsa__bwt_device(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n, int index64,
                             cl_mem bwt, int64_t *primary);

/* Inverse of the above: text (n bytes) from bwt (n bytes) and primary,
 * which must already be checked to lie in [1, n] (n >= 1).  bwt and text are
 * different device buffers.  The index width is chosen from n. */
clsa_status clsa__unbwt_device(clsa_context *ctx, cl_mem bwt, int64_t n, int64_t primary,
                               cl_mem text);

/* out (n bytes) = fn(in) on host copies of two device buffers: the _mem
 * calls whose own device arrays would pass the largest allocation. */
typedef clsa_status (*clsa__bytes_fn)(clsa_context *ctx, const uint8_t *in, uint8_t *out,
                                      int64_t n, void *arg);
clsa_status clsa__bytes_via_host(clsa_context *ctx, cl_mem in, cl_mem out, int64_t n,
                                 clsa__bytes_fn fn, void *arg);

/* Host versions (libdivsufsort). */
clsa_status clsa__bwt_host(clsa_context *ctx, const uint8_t *text, uint8_t *bwt, int64_t n,
                           int64_t *primary);
clsa_status clsa__unbwt_host(clsa_context *ctx, const uint8_t *bwt, uint8_t *text, int64_t n,
                             int64_t primary);

/* bwt[0] = text[n-1], then text[sa[i]-1] for every row but that of suffix
 * 0, whose rank + 1 goes to *primary; symbols of sym = 1, 2, 4 or 8 bytes,
 * sa of 4 or 8 (index64) bytes an entry, n >= 1 (host/index/bwt_int.c). */
void clsa__bwt_gather_host(const void *text, int sym, const void *sa, int index64, void *bwt,
                           int64_t n, int64_t *primary);
/* The suffix array of n symbols of sym = 1, 2, 4 or 8 bytes (64-bit ones
 * through their 32-bit ranks) into the host array sa on the backend the
 * context picks; ctx locked or NULL (host/index/bwt_int.c). */
clsa_status clsa__sa_int_run(clsa_context *ctx, const void *text, int sym, void *sa, int64_t n,
                             int index64);
/* index_api.c's entry points call these.  The BWT of text (sa NULL: its
 * suffix array is built here), on host arrays or on device buffers (bwt.c). */
clsa_status clsa__bwt_run(clsa_context *ctx, const uint8_t *text, const void *sa, uint8_t *bwt,
                          int64_t n, int index64, int64_t *primary);
clsa_status clsa__bwt_mem_run(clsa_context *ctx, cl_mem text, cl_mem bwt, int64_t n,
                              int64_t *primary);
/* The inverse, on host arrays or on device buffers (unbwt.c). */
clsa_status clsa__unbwt_run(clsa_context *ctx, const uint8_t *bwt, uint8_t *text, int64_t n,
                            int64_t primary);
clsa_status clsa__unbwt_mem_run(clsa_context *ctx, cl_mem bwt, cl_mem text, int64_t n,
                                int64_t primary);
/* Both for symbols of sym = 2, 4 or 8 bytes (bwt_int.c). */
clsa_status clsa__bwt_int_run(clsa_context *ctx, const void *text, int sym, void *bwt, int64_t n,
                              int64_t *primary);
clsa_status clsa__unbwt_int_run(clsa_context *ctx, const void *bwt, int sym, void *text, int64_t n,
                                int64_t primary);
#endif
