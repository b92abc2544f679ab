/* The work behind clsa_fm.h's entry points (host/index/fm_api.c), each with
 * the arguments and the answer of the public function it serves. */
#ifndef CLSA_INDEX_FM_CALLS_H
#define CLSA_INDEX_FM_CALLS_H
#include "clsa.h" /* clsa_fm.h */

/* ---- FM-index (fm_index.c) ---- */
clsa_status clsa__fm_create(clsa_context *ctx, const uint8_t *text, int64_t n, int64_t sample_rate,
                            clsa_fm **out);
void clsa__fm_free(clsa_fm *fm);
clsa_status clsa__fm_info(const clsa_fm *fm, int64_t *n, int64_t *sample_rate);
clsa_status clsa__fm_count(clsa_fm *fm, const uint8_t *patterns, const uint64_t *offsets,
                           size_t npatterns, uint64_t *counts);
clsa_status clsa__fm_locate(clsa_fm *fm, const uint8_t *patterns, const uint64_t *offsets,
                            size_t npatterns, uint64_t max_total, uint64_t *starts,
                            int64_t **positions);

/* ---- FM-index of a set of strings (fm_set.c) ---- */
clsa_status clsa__fm_set_create(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                                int64_t k, int64_t sample_rate, clsa_fm_set **out);
void clsa__fm_set_free(clsa_fm_set *set);
clsa_status clsa__fm_set_info(const clsa_fm_set *set, int64_t *k, int64_t *total,
                              int64_t *sample_rate);
clsa_status clsa__fm_set_save(clsa_fm_set *set, const char *path);
clsa_status clsa__fm_set_load(clsa_context *ctx, const char *path, clsa_fm_set **out);
clsa_status clsa__fm_set_count(clsa_fm_set *set, const uint8_t *patterns, const uint64_t *offsets,
                               size_t npatterns, uint64_t *counts);
clsa_status clsa__fm_set_locate(clsa_fm_set *set, const uint8_t *patterns, const uint64_t *offsets,
                                size_t npatterns, uint64_t max_total, uint64_t *starts,
                                int64_t **strings, int64_t **positions);

/* ---- longest common substrings (lcs.c, lcs_k.c) ---- */
clsa_status clsa__lcs(clsa_context *ctx, const uint8_t *a, int64_t na, const uint8_t *b,
                      int64_t nb, int64_t *length, int64_t *pos_a, int64_t *pos_b);
/* clsa_lcs_k ... clsa_lcs_k_u64: text of sym = 1, 2, 4 or 8 bytes a symbol. */
clsa_status clsa__lcs_k(clsa_context *ctx, const void *text, int sym, const int64_t *lengths,
                        int64_t k, int64_t m, int64_t *length, int64_t *offsets);

/* ---- LCP range minima (rmq.c) ---- */
/* clsa_lcp_rmq_create32/64 (host values, mem NULL) and _create_mem (host
 * NULL, device values mem); index64: 8-byte values. */
clsa_status clsa__lcp_rmq_create(clsa_context *ctx, const void *host, cl_mem mem, int64_t n,
                                 int index64, clsa_lcp_rmq **out);
/* clsa_lcp_rmq_min (lcp_mode 0: a, b = lo, hi) and clsa_lcp_rmq_lcp
 * (lcp_mode 1: a, b = two ranks). */
clsa_status clsa__lcp_rmq_query(clsa_lcp_rmq *r, const int64_t *a, const int64_t *b, size_t nq,
                                int lcp_mode, int64_t *out);
void clsa__lcp_rmq_free(clsa_lcp_rmq *rmq);

#endif
