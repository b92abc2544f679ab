/* Small integer helpers shared by every layer. */
#ifndef CLSA_RT_ARITH_H
#define CLSA_RT_ARITH_H

#include <stddef.h>
#include <stdint.h>

/* Rounds up x to a multiple of m. */
static inline size_t clsa__round_up(size_t x, size_t m) { return (x + m - 1) / m * m; }
static inline size_t clsa__div_up(size_t x, size_t m) { return (x + m - 1) / m; }
/* The largest power of two at most x (1 for x = 0). */
static inline uint64_t clsa__pow2_floor(uint64_t x)
{
    uint64_t p = 1;
    while (p <= x / 2) p *= 2;
    return p;
}
/* Number of bits of x: 0 for 0, else floor(log2 x) + 1. */
static inline unsigned clsa__bits_of(uint64_t x)
{
    unsigned b = 0;
    while (x) {
        b++;
        x >>= 1;
    }
    return b;
}

/* 64-bit FNV-1a of n bytes, continuing from h (start: CLSA_FNV_SEED):
 * program cache checksums and the ICD fingerprint; not cryptographic. */
#define CLSA_FNV_SEED 0xcbf29ce484222325ull
static inline uint64_t clsa__fnv1a(const void *data, size_t n, uint64_t h)
{
    const unsigned char *p = (const unsigned char *)data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

#endif
