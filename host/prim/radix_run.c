/* What the two radix sort drivers share (radix_sort.c reduce-then-scan,
 * radix_onesweep.c single pass): the local memory of the tile ranking,
 * its arguments, pass planning over the bits that vary, the copy back. */
#include "radix_run.h"
#include "buffer.h"
#include "launch.h"

typedef clsa__radix_run sort_run;

size_t clsa__radix_tile_elems(size_t tile) { return tile + tile / 32 + 1; }
size_t clsa__radix_counter_elems(size_t wg, unsigned sub)
{
    size_t e = wg << sub;
    return e + e / 16 + 1;
}

/* Bytes of the ranking's perm and counter arrays: the split rounds'
 * permutation (ushorts) and counter matrix, or the warp ranking's value
 * tile and one uint per warp and digit. */
static size_t perm_bytes(const sort_run *r, size_t t)
{
    if (r->vb && !r->warp) return t * 2;
    return r->vtile ? t * (size_t)r->vb : 8;
}
/* The single pass keeps the warp ranking's counters (one uint per warp
 * and digit: 32 bytes a work-item for 8-bit digits) in the value tile,
 * which is empty until they are read (radix_onesweep.cl WC_IN_VTILE). */
int clsa__radix_counters_in_vtile(const sort_run *r, size_t items)
{
    return r->onesweep && r->warp && r->vtile && items * (size_t)r->vb >= 32;
}
static size_t counter_bytes(const sort_run *r, size_t wg, size_t items, size_t digits)
{
    if (clsa__radix_counters_in_vtile(r, items)) return 4;
    if (r->warp) return wg / CLSA_RADIX_WARP_LANES * digits * 4;
    return clsa__radix_counter_elems(wg, r->sub) * 2;
}

size_t clsa__radix_scatter_local(const sort_run *r, size_t wg, size_t items)
{
    size_t t = clsa__radix_tile_elems(wg * items), w = (size_t)(r->kb > r->vb ? r->kb : r->vb);
    size_t digits = (size_t)1 << r->bits;
    return t * w + perm_bytes(r, t) + counter_bytes(r, wg, items, digits) + 2 * wg * 4 +
           4 * digits * (r->onesweep ? 3 : 1) + 64;
}

clsa_status clsa__radix_rank_args(const sort_run *r, cl_kernel k, const char *name, cl_uint a,
                                  cl_uint dmask, cl_uint *next)
{
    size_t t = clsa__radix_tile_elems(r->tile), w = (size_t)(r->kb > r->vb ? r->kb : r->vb);
    size_t digits = (size_t)dmask + 1;
    *next = a + 6;
    return CLSA_ARGS_AT(r->ctx, k, name, a, CLSA_KLOCAL(t * w), CLSA_KLOCAL(perm_bytes(r, t)),
                        CLSA_KLOCAL(counter_bytes(r, r->wg, r->items, digits)),
                        CLSA_KLOCAL(r->wg * 4), CLSA_KLOCAL(r->wg * 4), CLSA_KLOCAL(digits * 4));
}

unsigned clsa__radix_digit_width(const sort_run *r, unsigned shift, unsigned end_bit)
{
    return end_bit - shift < r->bits ? end_bit - shift : r->bits;
}

unsigned clsa__radix_next_bit(uint64_t varying, unsigned from)
{
    if (from >= 64) return 64;
    uint64_t v = varying >> from << from;
    return v ? (unsigned)__builtin_ctzll(v) : 64;
}

unsigned clsa__radix_count_passes(const sort_run *r, uint64_t varying, unsigned from,
                                  unsigned end_bit)
{
    unsigned c = 0;
    for (unsigned s = clsa__radix_next_bit(varying, from); s < end_bit;
         s = clsa__radix_next_bit(varying, s + clsa__radix_digit_width(r, s, end_bit)))
        c++;
    return c;
}

uint64_t clsa__radix_bit_range(unsigned begin_bit, unsigned end_bit)
{
    uint64_t hi = end_bit >= 64 ? ~0ull : (1ull << end_bit) - 1;
    return hi & ~((1ull << begin_bit) - 1);
}

clsa_status clsa__radix_copy_back(const sort_run *r, cl_mem kcur, cl_mem vcur, cl_mem keys,
                                  cl_mem values)
{
    if (kcur == keys) return CLSA_OK;
    clsa_status st = clsa__copy(r->ctx, kcur, 0, keys, 0, r->n * (size_t)r->kb);
    if (st == CLSA_OK && r->vb) st = clsa__copy(r->ctx, vcur, 0, values, 0, r->n * (size_t)r->vb);
    return st;
}
