/* Generalized suffix array (host/sa/gsa.c): the layout of a set of strings
 * as one virtual text s_0 $_0 ... s_{k-1} $_{k-1}, its mapping to 32-bit
 * symbols for the integer-alphabet suffix array, and the document array. */
#ifndef CLSA_SA_GSA_H
#define CLSA_SA_GSA_H
#include "clsa.h"
#include "sym_rank.h"

/* The arguments every generalized call shares: k >= 0, lengths (k entries,
 * each >= 0; may be NULL when k = 0), text (may be NULL when they add up to
 * 0), out (an output array that must not be NULL when N > 0).  *n gets N =
 * sum(lengths) + k.  what names the call in messages.  Only argument and
 * overflow errors (CLSA_ERR_INVALID_ARG); the width limits are the
 * caller's. */
clsa_status clsa__gsa_size(clsa_context *ctx, const char *what, const void *text,
                           const int64_t *lengths, int64_t k, const void *out, int64_t *n);

/* *out gets a malloc'd array of the n (< 2^32) virtual symbols of a text
 * of sym = 1, 2, 4 or 8 bytes per symbol: $_i -> i, symbol c -> c + k,
 * or, where the largest c + k does not fit in 32 bits, the rank of c among
 * the distinct symbols + k (clsa__sym_distinct).  The caller frees it. */
clsa_status clsa__gsa_text(clsa_context *ctx, const void *text, int sym, const int64_t *lengths,
                           int64_t k, int64_t n, uint32_t **out);

/* starts[0..k]: where each string begins in the virtual text (starts[k] =
 * n).  malloc'd; NULL without memory. */
int64_t *clsa__gsa_starts(const int64_t *lengths, int64_t k);

/* The string that virtual position p lies in: the last i with starts[i] <= p. */
int64_t clsa__gsa_string_of(const int64_t *starts, int64_t k, int64_t p);

/* doc[i] = the string of sa[i], n entries of 4 or 8 bytes (index64). */
clsa_status clsa__gsa_doc(clsa_context *ctx, const int64_t *lengths, int64_t k, const void *sa,
                          void *doc, int64_t n, int index64);

/* The whole generalized suffix array (and doc unless NULL) of n = N
 * virtual symbols, arguments already checked (clsa__gsa_size and the width
 * limits), ctx locked or NULL: the virtual text as 32-bit symbols through
 * clsa__sa_pick_run, then the document array. */
clsa_status clsa__gsa_run(clsa_context *ctx, const void *text, int sym, const int64_t *lengths,
                          int64_t k, int64_t n, void *sa, void *doc, int index64);

/* Kasai's LCP of a generalized suffix array on the host (host/index/
 * gsa_lcp.c), arguments checked, ctx locked or NULL; CLSA_ERR_INVALID_ARG
 * if sa is not a permutation of 0..n-1. */
clsa_status clsa__gsa_lcp_host(clsa_context *ctx, const void *text, int sym,
                               const int64_t *lengths, int64_t k, const void *sa, void *lcp,
                               int64_t n, int index64);
#endif
