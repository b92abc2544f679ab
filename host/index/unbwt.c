/* Inverse BWT on the device: stable byte sort of the last column (the
 * shared radix sort) gives psi; the single cycle of psi
 * is ranked through rulers (see cl_kernels/unbwt.cl).  Host: the same walk,
 * sequential.  Both refuse bytes that are no BWT for the primary. */
#include "bwt.h"
#include "index_run.h"
#include "prim/radix_sort.h"
#include "prim/scan.h"
#include "buffer.h"
#include "context.h"
#include "launch.h"
#include "program.h"
#include "status.h"
#include "text_pack.h"

#include <stdlib.h>
#include <string.h>

/* Expected rows between rulers (power of two): long enough that the ruler
 * list is small, short enough that every walk is quick. */
#define RULER_GAP 32u

static const char *not_a_bwt = "inverse BWT: not a valid BWT for primary index %lld (the walk "
                               "from the primary returns after %llu of %llu rows)";

typedef struct unbwt_job {
    cl_ulong n;
    cl_uint primary, gap_mask;
} unbwt_job;

/* The program of these kernels. */
static const char *const PROGRAM = "unbwt";

/* psi (n + 1 entries, in *psi_buf, allocated here) from bwt: a stable
 * radix sort of (byte, position) on the 8 key bits. */
static clsa_status build_psi(clsa_context *ctx, const unbwt_job *j, cl_mem bwt, cl_mem *psi_buf)
{
    cl_mem keys = NULL, vals = NULL;
    const char *name = "unbwt_keys";
    clsa_status st = CLSA_OK;
    /* keys gets n + 1 entries: it becomes psi */
    CLSA_TRY(clsa__alloc(ctx, ((size_t)j->n + 1) * 4, &keys));
    CLSA_TRY(clsa__alloc(ctx, (size_t)j->n * 4, &vals));
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, 0, NULL, name, (size_t)j->n, 0, CLSA_KARG(bwt), CLSA_KARG(j->n),
                      CLSA_KARG(keys), CLSA_KARG(vals)));
    CLSA_TRY(clsa__radix_sort(ctx, keys, vals, (size_t)j->n, 4, 4, 0, 8, NULL, NULL));
    name = "unbwt_psi";
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, 0, NULL, name, (size_t)j->n + 1, 0, CLSA_KARG(vals),
                      CLSA_KARG(j->n), CLSA_KARG(j->primary), CLSA_KARG(keys)));
    *psi_buf = keys;
    keys = NULL;
done:
    clsa__free(ctx, &keys);
    clsa__free(ctx, &vals);
    return st;
}

/* ids (n + 1 entries: ruler numbers) and rows (ruler rows); *m rulers. */
static clsa_status pick_rulers(clsa_context *ctx, const unbwt_job *j, cl_mem ids, cl_mem *rows,
                               cl_uint *m)
{
    const char *name = "unbwt_ruler_flags";
    uint32_t total = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, 0, NULL, name, (size_t)j->n + 1, 0, CLSA_KARG(j->n),
                      CLSA_KARG(j->primary), CLSA_KARG(j->gap_mask), CLSA_KARG(ids)));
    CLSA_TRY(clsa__scan(ctx, ids, ids, (size_t)j->n + 1, 0, 0, &total));
    *m = total;
    CLSA_TRY(clsa__alloc(ctx, (size_t)total * 4, rows));
    name = "unbwt_ruler_rows";
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, 0, NULL, name, (size_t)j->n + 1, 0, CLSA_KARG(ids),
                      CLSA_KARG(j->n), CLSA_KARG(j->primary), CLSA_KARG(j->gap_mask),
                      CLSA_KARG(*rows)));
done:
    return st;
}

/* dist[t] (in *dist) = rows from ruler t forward to the primary; *next
 * is NIL for every ruler on the primary's cycle. */
static clsa_status rank_rulers(clsa_context *ctx, const unbwt_job *j, cl_mem psi, cl_mem ids,
                               cl_mem rows, cl_uint m, cl_mem *next, cl_mem *dist)
{
    cl_mem nx[2] = {NULL, NULL}, d[2] = {NULL, NULL};
    const char *name = "unbwt_walk";
    int cur = 0;
    clsa_status st = CLSA_OK;
    for (int b = 0; b < 2; b++) {
        CLSA_TRY(clsa__alloc(ctx, (size_t)m * 4, &nx[b]));
        CLSA_TRY(clsa__alloc(ctx, (size_t)m * 4, &d[b]));
    }
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, 0, NULL, name, m, 0, CLSA_KARG(psi), CLSA_KARG(ids),
                      CLSA_KARG(rows), CLSA_KARG(m), CLSA_KARG(j->primary), CLSA_KARG(j->gap_mask),
                      CLSA_KARG(nx[0]), CLSA_KARG(d[0])));
    name = "unbwt_jump";
    /* ceil(log2 m) rounds reach the end of a list of m. */
    for (cl_uint reach = 1; reach < m; reach *= 2, cur ^= 1) {
        CLSA_TRY(CLSA_RUN(ctx, PROGRAM, 0, NULL, name, m, 0, CLSA_KARG(nx[cur]), CLSA_KARG(d[cur]),
                          CLSA_KARG(m), CLSA_KARG(nx[1 - cur]), CLSA_KARG(d[1 - cur])));
        if (reach > UINT32_MAX / 2) break;
    }
    *dist = d[cur];
    d[cur] = NULL;
    *next = nx[cur];
    nx[cur] = NULL;
done:
    for (int b = 0; b < 2; b++) {
        clsa__free(ctx, &nx[b]);
        clsa__free(ctx, &d[b]);
    }
    return st;
}

/* The primary's ruler, ranked, holds the length of the primary's cycle:
 * n + 1 for a BWT (see not_a_bwt). */
static clsa_status check_cycle(clsa_context *ctx, const unbwt_job *j, cl_mem ids, cl_mem dist)
{
    uint32_t t = 0, len = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__read(ctx, ids, (size_t)j->primary * 4, &t, 4));
    CLSA_TRY(clsa__read(ctx, dist, (size_t)t * 4, &len, 4));
    if ((uint64_t)len != j->n + 1)
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, not_a_bwt, (long long)j->primary,
                        (unsigned long long)len, (unsigned long long)j->n + 1);
done:
    return st;
}

static clsa_status emit_text(clsa_context *ctx, const unbwt_job *j, cl_mem psi, cl_mem rows,
                             cl_mem next, cl_mem dist, cl_uint m, cl_mem bwt, cl_mem text)
{
    const char *name = "unbwt_emit";
    clsa_status st = CLSA_OK;
    /* only a bwt that is no transform leaves bytes unwritten */
    CLSA_TRY(clsa__fill_zero(ctx, text, 0, (size_t)j->n));
    CLSA_TRY(CLSA_RUN(ctx, PROGRAM, 0, NULL, name, m, 0, CLSA_KARG(psi), CLSA_KARG(rows),
                      CLSA_KARG(next), CLSA_KARG(dist), CLSA_KARG(m), CLSA_KARG(j->n),
                      CLSA_KARG(j->primary), CLSA_KARG(j->gap_mask), CLSA_KARG(bwt),
                      CLSA_KARG(text)));
done:
    return st;
}

clsa_status clsa__unbwt_device(clsa_context *ctx, cl_mem bwt, int64_t n, int64_t primary,
                               cl_mem text)
{
    if (n == 0) return CLSA_OK;
    if ((uint64_t)n > UINT32_MAX - 2)
        return clsa__fail(ctx, CLSA_ERR_TOO_LARGE,
                          "inverse BWT on the device: at most 2^32-2 bytes (got %lld); "
                          "use the host backend", (long long)n);
    int phase = clsa__set_phase(ctx, CLSA_PHASE_INDEX);
    unbwt_job j = {(cl_ulong)n, (cl_uint)primary, RULER_GAP - 1};
    size_t rows_bytes = ((size_t)n + 1) * 4;
    cl_mem ids = NULL, psi = NULL, rows = NULL, next = NULL, dist = NULL;
    cl_uint m = 0;
    clsa_status st = CLSA_OK;
    CLSA_TRY(build_psi(ctx, &j, bwt, &psi));
    CLSA_TRY(clsa__alloc(ctx, rows_bytes, &ids));
    CLSA_TRY(pick_rulers(ctx, &j, ids, &rows, &m));
    CLSA_TRY(rank_rulers(ctx, &j, psi, ids, rows, m, &next, &dist));
    CLSA_TRY(check_cycle(ctx, &j, ids, dist));
    clsa__free(ctx, &ids);
    CLSA_TRY(emit_text(ctx, &j, psi, rows, next, dist, m, bwt, text));
done:
    clsa__free(ctx, &psi);
    clsa__free(ctx, &ids);
    clsa__free(ctx, &rows);
    clsa__free(ctx, &next);
    clsa__free(ctx, &dist);
    clsa__set_phase(ctx, phase);
    return st;
}

/* The inverse BWT is the walk primary, psi(primary), ... over the n + 1
 * rows; bwt is one with this primary exactly when the walk comes back to
 * the primary after n + 1 steps, not before (psi is a permutation, so a
 * shorter cycle is the only way to fail). */
#define HOST_UNBWT(FN, T)                                                                    \
    static int64_t FN(const uint8_t *bwt, uint8_t *text, int64_t n, int64_t primary,         \
                      T *psi)                                                                \
    {                                                                                        \
        T start[256] = {0}, r = (T)primary;                                                  \
        for (int64_t i = 0; i < n; i++) start[bwt[i]]++;                                     \
        for (T c = 0, sum = 1; c < 256; c++) {                                               \
            T k = start[c];                                                                  \
            start[c] = sum;                                                                  \
            sum += k;                                                                        \
        }                                                                                    \
        psi[0] = (T)primary;                                                                 \
        for (int64_t i = 0; i < n; i++) psi[start[bwt[i]]++] = (T)(i < primary ? i : i + 1); \
        for (int64_t k = 0; k < n; k++) {                                                    \
            r = psi[r];                                                                      \
            if (r == (T)primary) return k + 1;                                               \
            text[k] = bwt[r < (T)primary ? r : r - 1];                                       \
        }                                                                                    \
        return n + 1;                                                                        \
    }
HOST_UNBWT(unbwt_host32, uint32_t)
HOST_UNBWT(unbwt_host64, uint64_t)

clsa_status clsa__unbwt_host(clsa_context *ctx, const uint8_t *bwt, uint8_t *text, int64_t n,
                             int64_t primary)
{
    if (n == 0) return CLSA_OK;
    int wide = (uint64_t)n >= UINT32_MAX;
    void *psi = malloc(((size_t)n + 1) * (wide ? 8 : 4));
    if (!psi) return clsa__fail(ctx, CLSA_ERR_HOST_MEMORY, "inverse BWT: out of host memory");
    int64_t len = wide ? unbwt_host64(bwt, text, n, primary, psi)
                       : unbwt_host32(bwt, text, n, primary, psi);
    free(psi);
    if (len != n + 1)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG, not_a_bwt, (long long)primary,
                          (unsigned long long)len, (unsigned long long)n + 1);
    return CLSA_OK;
}

static clsa_status unbwt_args(clsa_context *ctx, int64_t n, int64_t primary, int ptrs_ok)
{
    clsa_status st = clsa__index_args(ctx, "inverse BWT", n, 1, ptrs_ok);
    if (st) return st;
    if (n == 0 && primary != 0)
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG,
                          "inverse BWT: primary index %lld out of range (must be 0 for an "
                          "empty input)", (long long)primary);
    if (n > 0 && (primary < 1 || primary > n))
        return clsa__fail(ctx, CLSA_ERR_INVALID_ARG,
                          "inverse BWT: primary index %lld out of range (valid: 1..%lld)",
                          (long long)primary, (long long)n);
    return CLSA_OK;
}

static clsa_status unbwt_on_device(clsa_context *ctx, const uint8_t *bwt, uint8_t *text,
                                   int64_t n, int64_t primary)
{
    cl_mem db = NULL, dt = NULL;
    clsa_status st = CLSA_OK;
    CLSA_TRY(clsa__alloc(ctx, (size_t)n, &db));
    CLSA_TRY(clsa__alloc(ctx, (size_t)n, &dt));
    CLSA_TRY(clsa__write_text(ctx, db, bwt, (size_t)n));
    CLSA_TRY(clsa__unbwt_device(ctx, db, n, primary, dt));
    CLSA_TRY(clsa__read(ctx, dt, 0, text, (size_t)n));
done:
    clsa__free(ctx, &db);
    clsa__free(ctx, &dt);
    return st;
}

/* Whether the device walk fits: 32-bit rows, its (n + 1)-entry arrays
 * within the largest allocation; else the host inverts. */
static int unbwt_fits_device(const clsa_context *ctx, int64_t n)
{
    return (uint64_t)n <= UINT32_MAX - 2 && ((uint64_t)n + 1) * 4 <= ctx->tune.max_alloc;
}

/* The walk of a host copy (unbwt_mem past unbwt_fits_device); arg: the
 * primary index's int64_t. */
static clsa_status unbwt_walk(clsa_context *ctx, const uint8_t *bwt, uint8_t *text, int64_t n,
                              void *arg)
{
    return clsa__unbwt_host(ctx, bwt, text, n, *(const int64_t *)arg);
}

clsa_status clsa__unbwt_run(clsa_context *ctx, const uint8_t *bwt, uint8_t *text, int64_t n,
                            int64_t primary)
{
    clsa_status st = unbwt_args(ctx, n, primary, bwt && text);
    int device;
    if (st || n == 0 || (st = clsa__index_begin(ctx, n, &device))) return st;
    /* Beyond 32-bit rows or the largest allocation the host does it. */
    if (device && unbwt_fits_device(ctx, n)) st = unbwt_on_device(ctx, bwt, text, n, primary);
    else st = clsa__unbwt_host(ctx, bwt, text, n, primary);
    return clsa__index_end(ctx, st);
}

clsa_status clsa__unbwt_mem_run(clsa_context *ctx, cl_mem bwt, cl_mem text, int64_t n,
                                int64_t primary)
{
    clsa_status st = clsa__index_begin_mem(ctx);
    if (st) return st;
    st = unbwt_args(ctx, n, primary, bwt && text);
    if (st == CLSA_OK && n > 0 && bwt == text)
        st = clsa__fail(ctx, CLSA_ERR_INVALID_ARG, "inverse BWT: bwt and text must differ");
    if (st == CLSA_OK && n > 0 && !unbwt_fits_device(ctx, n))
        st = clsa__bytes_via_host(ctx, bwt, text, n, unbwt_walk, &primary);
    else if (st == CLSA_OK) st = clsa__unbwt_device(ctx, bwt, n, primary, text);
    return clsa__index_end(ctx, st);
}
