/* LCP array (host/index/lcp.c): internal device and host entry points. */
#ifndef CLSA_INDEX_LCP_H
#define CLSA_INDEX_LCP_H
#include "clsa.h"

/* lcp (n entries of 4 or 8 bytes, per index64) gets the LCP array of text
 * (n bytes) given its suffix array sa (same width): lcp[0] = 0,
 * lcp[i] = lcp(sa[i-1], sa[i]).  All device buffers on ctx; lcp may be the
 * same buffer as sa (sa is then overwritten).  Work is the permuted-LCP
 * method over irreducible values: near-linear even on repetitive text. */
clsa_status clsa__lcp_device(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n, int index64,
                             cl_mem lcp);

/* Host Kasai (the host backend and the tests' reference): lcp of n entries
 * of 4 or 8 bytes from text and sa of the same width. */
clsa_status clsa__lcp_host(clsa_context *ctx, const uint8_t *text, const void *sa, void *lcp,
                           int64_t n, int index64);
/* The LCP array of text into lcp, from the host suffix array sa (need_sa)
 * or one built here; the _mem form on device buffers (index_api.c's entry
 * points). */
clsa_status clsa__lcp_run(clsa_context *ctx, const uint8_t *text, const void *sa, void *lcp,
                          int64_t n, int index64, int need_sa);
clsa_status clsa__lcp_mem_run(clsa_context *ctx, cl_mem text, cl_mem sa, cl_mem lcp, int64_t n,
                              int index64);
#endif
