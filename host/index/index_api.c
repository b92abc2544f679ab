/* The public entry points of include/clsa_index.h (ISA, BWT and its
 * inverse, LCP): each checks what it can from its own arguments and calls
 * down to the file of its algorithm (isa.c, bwt.c, unbwt.c, bwt_int.c,
 * lcp.c), which validates the rest, takes the context and routes. */
#include "bwt.h"
#include "isa.h"
#include "lcp.h"
#include "status.h"

/* ---- inverse suffix array (isa.c) ------------------------------------------------ */

clsa_status clsa_isa32(clsa_context *ctx, const uint8_t *text, int32_t *isa, int64_t n)
{
    return clsa__isa_run(ctx, text, NULL, isa, n, 0);
}

clsa_status clsa_isa64(clsa_context *ctx, const uint8_t *text, int64_t *isa, int64_t n)
{
    return clsa__isa_run(ctx, text, NULL, isa, n, 1);
}

clsa_status clsa_isa_from_sa32(clsa_context *ctx, const int32_t *sa, int32_t *isa, int64_t n)
{
    return clsa__isa_run(ctx, NULL, sa, isa, n, 0);
}

clsa_status clsa_isa_from_sa64(clsa_context *ctx, const int64_t *sa, int64_t *isa, int64_t n)
{
    return clsa__isa_run(ctx, NULL, sa, isa, n, 1);
}

clsa_status clsa_isa32_mem(clsa_context *ctx, cl_mem sa, cl_mem isa, int64_t n)
{
    return clsa__isa_mem_run(ctx, sa, isa, n, 0);
}

clsa_status clsa_isa64_mem(clsa_context *ctx, cl_mem sa, cl_mem isa, int64_t n)
{
    return clsa__isa_mem_run(ctx, sa, isa, n, 1);
}

/* ---- BWT (bwt.c) ----------------------------------------------------------------- */

clsa_status clsa_bwt(clsa_context *ctx, const uint8_t *text, uint8_t *bwt, int64_t n,
                     int64_t *primary)
{
    return clsa__bwt_run(ctx, text, NULL, bwt, n, n > INT32_MAX, primary);
}

clsa_status clsa_bwt_from_sa32(clsa_context *ctx, const uint8_t *text, const int32_t *sa,
                               uint8_t *bwt, int64_t n, int64_t *primary)
{
    if (n > 0 && !sa) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "BWT: sa is NULL");
    return clsa__bwt_run(ctx, text, sa, bwt, n, 0, primary);
}

clsa_status clsa_bwt_from_sa64(clsa_context *ctx, const uint8_t *text, const int64_t *sa,
                               uint8_t *bwt, int64_t n, int64_t *primary)
{
    if (n > 0 && !sa) return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "BWT: sa is NULL");
    return clsa__bwt_run(ctx, text, sa, bwt, n, 1, primary);
}

clsa_status clsa_bwt_mem(clsa_context *ctx, cl_mem text, cl_mem bwt, int64_t n, int64_t *primary)
{
    return clsa__bwt_mem_run(ctx, text, bwt, n, primary);
}

/* ---- inverse BWT (unbwt.c) ------------------------------------------------------- */

clsa_status clsa_unbwt(clsa_context *ctx, const uint8_t *bwt, uint8_t *text, int64_t n,
                       int64_t primary)
{
    return clsa__unbwt_run(ctx, bwt, text, n, primary);
}

clsa_status clsa_unbwt_mem(clsa_context *ctx, cl_mem bwt, cl_mem text, int64_t n, int64_t primary)
{
    return clsa__unbwt_mem_run(ctx, bwt, text, n, primary);
}

/* ---- BWT of 16-, 32- and 64-bit symbols (bwt_int.c) ------------------------------ */

clsa_status clsa_bwt_u16(clsa_context *ctx, const uint16_t *text, uint16_t *bwt, int64_t n,
                         int64_t *primary)
{
    return clsa__bwt_int_run(ctx, text, 2, bwt, n, primary);
}

clsa_status clsa_bwt_u32(clsa_context *ctx, const uint32_t *text, uint32_t *bwt, int64_t n,
                         int64_t *primary)
{
    return clsa__bwt_int_run(ctx, text, 4, bwt, n, primary);
}

clsa_status clsa_bwt_u64(clsa_context *ctx, const uint64_t *text, uint64_t *bwt, int64_t n,
                         int64_t *primary)
{
    return clsa__bwt_int_run(ctx, text, 8, bwt, n, primary);
}

clsa_status clsa_unbwt_u16(clsa_context *ctx, const uint16_t *bwt, uint16_t *text, int64_t n,
                           int64_t primary)
{
    return clsa__unbwt_int_run(ctx, bwt, 2, text, n, primary);
}

clsa_status clsa_unbwt_u32(clsa_context *ctx, const uint32_t *bwt, uint32_t *text, int64_t n,
                           int64_t primary)
{
    return clsa__unbwt_int_run(ctx, bwt, 4, text, n, primary);
}

clsa_status clsa_unbwt_u64(clsa_context *ctx, const uint64_t *bwt, uint64_t *text, int64_t n,
                           int64_t primary)
{
    return clsa__unbwt_int_run(ctx, bwt, 8, text, n, primary);
}

/* ---- LCP array (lcp.c) ----------------------------------------------------------- */

clsa_status clsa_lcp32(clsa_context *ctx, const uint8_t *text, int32_t *lcp, int64_t n)
{
    return clsa__lcp_run(ctx, text, NULL, lcp, n, 0, 0);
}

clsa_status clsa_lcp64(clsa_context *ctx, const uint8_t *text, int64_t *lcp, int64_t n)
{
    return clsa__lcp_run(ctx, text, NULL, lcp, n, 1, 0);
}

clsa_status clsa_lcp_from_sa32(clsa_context *ctx, const uint8_t *text, const int32_t *sa,
                               int32_t *lcp, int64_t n)
{
    return clsa__lcp_run(ctx, text, sa, lcp, n, 0, 1);
}

clsa_status clsa_lcp_from_sa64(clsa_context *ctx, const uint8_t *text, const int64_t *sa,
                               int64_t *lcp, int64_t n)
{
    return clsa__lcp_run(ctx, text, sa, lcp, n, 1, 1);
}

clsa_status clsa_lcp32_mem(clsa_context *ctx, cl_mem text, cl_mem sa, cl_mem lcp, int64_t n)
{
    return clsa__lcp_mem_run(ctx, text, sa, lcp, n, 0);
}

clsa_status clsa_lcp64_mem(clsa_context *ctx, cl_mem text, cl_mem sa, cl_mem lcp, int64_t n)
{
    return clsa__lcp_mem_run(ctx, text, sa, lcp, n, 1);
}
