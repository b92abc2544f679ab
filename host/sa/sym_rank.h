/* Dense ranks of symbols (host/sa/sym_rank.c): any 8- to 64-bit values
 * mapped, order kept, onto 0..d-1 where d is the number of distinct ones,
 * so that a 64-bit alphabet (and a 32-bit one shifted past 2^32) runs
 * through the 32-bit integer-alphabet suffix array. */
#ifndef CLSA_SA_SYM_RANK_H
#define CLSA_SA_SYM_RANK_H
#include <stddef.h>
#include <stdint.h>

/* Symbol i of a text of sym = 1, 2, 4 or 8 bytes per symbol. */
static inline uint64_t clsa__sym_at(const void *text, int sym, uint64_t i)
{
    return sym == 1   ? ((const uint8_t *)text)[i]
           : sym == 2 ? ((const uint16_t *)text)[i]
           : sym == 4 ? ((const uint32_t *)text)[i]
                      : ((const uint64_t *)text)[i];
}

/* The distinct symbols of text[0..n) in ascending order into *vals
 * (malloc'd, the caller frees it), their number into *m.  LSD radix sort
 * of a copy, one pass per byte of the width that is not the same in every
 * symbol, then a unique pass: O(n * passes) time, 16 bytes per symbol of
 * work space at the peak.  0 when out of memory. */
int clsa__sym_distinct(const void *text, int sym, size_t n, uint64_t **vals, size_t *m);

/* v[0..m) sorted ascending by an LSD radix sort (tmp: m words of work
 * space), one pass per byte that is not the same in every value; returns v
 * or tmp, whichever holds the result. */
uint64_t *clsa__sort_u64(uint64_t *v, uint64_t *tmp, size_t m);

/* The rank of c among vals[0..m) (c must be one of them): binary search,
 * O(log m). */
uint32_t clsa__sym_rank(const uint64_t *vals, size_t m, uint64_t c);

/* ranks[i] = the rank of text[i] among the distinct symbols (n < 2^32, so
 * the ranks fit): clsa__sym_distinct, then one binary search per symbol.
 * 0 when out of memory. */
int clsa__sym_ranks(const void *text, int sym, size_t n, uint32_t *ranks);
#endif
