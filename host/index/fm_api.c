/* Public entry points of clsa_fm.h: the FM-index (fm_index.c, its file:
 * fm_file.c), the FM-index of a set of strings (fm_set.c), longest common
 * substrings (lcs.c, lcs_k.c) and LCP range minima (rmq.c).  Each calls
 * down once; those files check the arguments, lock the context and work. */
#include "fm_calls.h"
#include "fm_index.h"
#include "status.h"

#include <stdlib.h>

/* ---- FM-index ------------------------------------------------------------------------ */

clsa_status clsa_fm_create(clsa_context *ctx, const uint8_t *text, int64_t n, int64_t sample_rate,
                           clsa_fm **out)
{
    return clsa__fm_create(ctx, text, n, sample_rate, out);
}

void clsa_fm_free(clsa_fm *fm) { clsa__fm_free(fm); }

clsa_status clsa_fm_info(const clsa_fm *fm, int64_t *n, int64_t *sample_rate)
{
    return clsa__fm_info(fm, n, sample_rate);
}

clsa_status clsa_fm_save(clsa_fm *fm, const char *path)
{
    return clsa__fm_file_save(fm, path, 0, NULL, 0);
}

clsa_status clsa_fm_load(clsa_context *ctx, const char *path, clsa_fm **out)
{
    return clsa__fm_file_load(ctx, path, NULL, out);
}

clsa_status clsa_fm_count(clsa_fm *fm, const uint8_t *patterns, const uint64_t *offsets,
                          size_t npatterns, uint64_t *counts)
{
    return clsa__fm_count(fm, patterns, offsets, npatterns, counts);
}

clsa_status clsa_fm_locate(clsa_fm *fm, const uint8_t *patterns, const uint64_t *offsets,
                           size_t npatterns, uint64_t max_total, uint64_t *starts,
                           int64_t **positions)
{
    return clsa__fm_locate(fm, patterns, offsets, npatterns, max_total, starts, positions);
}

void clsa_fm_positions_free(int64_t *positions) { free(positions); }

/* ---- FM-index of a set of strings ------------------------------------------------------ */

clsa_status clsa_fm_set_create(clsa_context *ctx, const uint8_t *text, const int64_t *lengths,
                               int64_t k, int64_t sample_rate, clsa_fm_set **out)
{
    return clsa__fm_set_create(ctx, text, lengths, k, sample_rate, out);
}

void clsa_fm_set_free(clsa_fm_set *set) { clsa__fm_set_free(set); }

clsa_status clsa_fm_set_info(const clsa_fm_set *set, int64_t *k, int64_t *total,
                             int64_t *sample_rate)
{
    return clsa__fm_set_info(set, k, total, sample_rate);
}

clsa_status clsa_fm_set_save(clsa_fm_set *set, const char *path)
{
    return clsa__fm_set_save(set, path);
}

clsa_status clsa_fm_set_load(clsa_context *ctx, const char *path, clsa_fm_set **out)
{
    return clsa__fm_set_load(ctx, path, out);
}

clsa_status clsa_fm_set_count(clsa_fm_set *set, const uint8_t *patterns, const uint64_t *offsets,
                              size_t npatterns, uint64_t *counts)
{
    return clsa__fm_set_count(set, patterns, offsets, npatterns, counts);
}

clsa_status clsa_fm_set_locate(clsa_fm_set *set, const uint8_t *patterns, const uint64_t *offsets,
                               size_t npatterns, uint64_t max_total, uint64_t *starts,
                               int64_t **strings, int64_t **positions)
{
    return clsa__fm_set_locate(set, patterns, offsets, npatterns, max_total, starts, strings,
                               positions);
}

/* ---- longest common substrings ------------------------------------------------------------ */

clsa_status clsa_lcs(clsa_context *ctx, const uint8_t *a, int64_t na, const uint8_t *b, int64_t nb,
                     int64_t *length, int64_t *pos_a, int64_t *pos_b)
{
    return clsa__lcs(ctx, a, na, b, nb, length, pos_a, pos_b);
}

clsa_status clsa_lcs_k(clsa_context *ctx, const uint8_t *text, const int64_t *lengths, int64_t k,
                       int64_t m, int64_t *length, int64_t *offsets)
{
    return clsa__lcs_k(ctx, text, 1, lengths, k, m, length, offsets);
}

clsa_status clsa_lcs_k_u16(clsa_context *ctx, const uint16_t *text, const int64_t *lengths,
                           int64_t k, int64_t m, int64_t *length, int64_t *offsets)
{
    return clsa__lcs_k(ctx, text, 2, lengths, k, m, length, offsets);
}

clsa_status clsa_lcs_k_u32(clsa_context *ctx, const uint32_t *text, const int64_t *lengths,
                           int64_t k, int64_t m, int64_t *length, int64_t *offsets)
{
    return clsa__lcs_k(ctx, text, 4, lengths, k, m, length, offsets);
}

clsa_status clsa_lcs_k_u64(clsa_context *ctx, const uint64_t *text, const int64_t *lengths,
                           int64_t k, int64_t m, int64_t *length, int64_t *offsets)
{
    return clsa__lcs_k(ctx, text, 8, lengths, k, m, length, offsets);
}

/* ---- LCP range minima ------------------------------------------------------------------ */

clsa_status clsa_lcp_rmq_create32(clsa_context *ctx, const int32_t *values, int64_t n,
                                  clsa_lcp_rmq **out)
{
    if (n > INT32_MAX)
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE, "LCP RMQ: use the 64-bit form for n >= 2^31");
    return clsa__lcp_rmq_create(ctx, values, NULL, n, 0, out);
}

clsa_status clsa_lcp_rmq_create64(clsa_context *ctx, const int64_t *values, int64_t n,
                                  clsa_lcp_rmq **out)
{
    return clsa__lcp_rmq_create(ctx, values, NULL, n, 1, out);
}

clsa_status clsa_lcp_rmq_create_mem(clsa_context *ctx, cl_mem values, int64_t n, int index64,
                                    clsa_lcp_rmq **out)
{
    return clsa__lcp_rmq_create(ctx, NULL, values, n, index64 != 0, out);
}

clsa_status clsa_lcp_rmq_min(clsa_lcp_rmq *rmq, const int64_t *lo, const int64_t *hi, size_t nq,
                             int64_t *out)
{
    return clsa__lcp_rmq_query(rmq, lo, hi, nq, 0, out);
}

clsa_status clsa_lcp_rmq_lcp(clsa_lcp_rmq *rmq, const int64_t *ri, const int64_t *rj, size_t nq,
                             int64_t *out)
{
    return clsa__lcp_rmq_query(rmq, ri, rj, nq, 1, out);
}

void clsa_lcp_rmq_free(clsa_lcp_rmq *rmq) { clsa__lcp_rmq_free(rmq); }
