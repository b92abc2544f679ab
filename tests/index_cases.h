/* Inputs shared by the index tests (test_isa, test_bwt, test_lcp): every
 * alphabet size, the hard repetitive inputs, lengths 0..10^6 (mostly small),
 * fixed seeds.  Under Oclgrind the lengths are cut to a few hundred. */
#ifndef CLSA_TEST_INDEX_CASES_H
#define CLSA_TEST_INDEX_CASES_H

#include "gen.h"
#include "testutil.h"

typedef struct idx_case {
    gen_kind kind;
    unsigned param;
    size_t n;
} idx_case;

static const idx_case idx_cases[] = {
    {GEN_RANDOM, 1, 0},         {GEN_RANDOM, 1, 1},          {GEN_RANDOM, 256, 1},
    {GEN_RANDOM, 2, 2},         {GEN_RANDOM, 256, 3},        {GEN_RANDOM, 4, 17},
    {GEN_RANDOM, 20, 100},      {GEN_RANDOM, 95, 257},       {GEN_RANDOM, 2, 1000},
    {GEN_RANDOM, 256, 4097},    {GEN_RANDOM, 4, 65539},      {GEN_RANDOM, 20, 100003},
    {GEN_RANDOM, 2, 300000},    {GEN_RANDOM, 256, 1000000},  {GEN_ALL_EQUAL, 0, 2},
    {GEN_ALL_EQUAL, 0, 999},    {GEN_ALL_EQUAL, 0, 100000},  {GEN_PERIODIC, 3, 5000},
    {GEN_PERIODIC, 1000, 200000}, {GEN_FIBONACCI, 0, 1597},  {GEN_FIBONACCI, 0, 300000},
    {GEN_THUE_MORSE, 0, 65536}, {GEN_MUTATED, 1000, 200000}, {GEN_MUTATED, 65536, 1000000},
};
#define IDX_NCASES (sizeof idx_cases / sizeof *idx_cases)

/* Length of case c on this run (small under Oclgrind). */
static inline size_t idx_case_n(const idx_case *c) { return tu_small() && c->n > 300 ? 300 : c->n; }

/* The text-only forms build the suffix array on the device; the suffix
 * array pipeline has its own tests and is slow on CPU implementations (and
 * very slow under Oclgrind), so the index tests use it on small inputs only
 * (never under Oclgrind) and pass a host-built suffix array (the from_sa
 * forms) for the rest. */
static inline int idx_device_sa(size_t n) { return !tu_small() && n <= 4096; }

/* New buffer with the case's bytes (caller frees). */
static inline uint8_t *idx_case_text(const idx_case *c, size_t n, uint64_t seed)
{
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, c->kind, c->param, seed);
    return t;
}

static inline void idx_case_name(const idx_case *c, size_t n, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s:%u n=%zu", gen_name(c->kind), c->param, n);
}
#endif
