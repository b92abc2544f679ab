/* State of one radix sort call shared by its two pass drivers: the
 * reduce-then-scan path (radix_sort.c, the fallback) and the single-pass
 * path (radix_onesweep.c).  Internal to host/prim. */
#ifndef CLSA_PRIM_RADIX_RUN_H
#define CLSA_PRIM_RADIX_RUN_H
#include "radix_sort.h"

/* Most digit passes of one call (64-bit keys, 4-bit digits). */
#define CLSA_RADIX_MAX_PASSES 16

typedef struct clsa__radix_run {
    clsa_context *ctx;
    int kb, vb;
    int onesweep;      /* 1: radix_onesweep.cl, 0: reduce-then-scan */
    unsigned bits;     /* digit width */
    unsigned sub;      /* bits per local split round (tune.radix_sub) */
    unsigned warp;     /* scatter ranking by warps (tune.radix_warp) */
    unsigned vtile;    /* warp ranking: values in a local tile of their own */
    size_t wg, items, tile, n, nb;
    cl_kernel hist, scatter, prepare;
    cl_mem table;      /* reduce-then-scan: (1 << bits) * nb counts, then offsets;
                          onesweep: the digit totals of every pass
                          (CLSA_RADIX_COUNT_WORDS), then table_slots look-back
                          status tables of slot_words each */
    cl_mem masks;      /* OR lo, OR hi, AND lo, AND hi of all keys; onesweep: then
                          the fault word, one ticket counter per pass, the plan */
    cl_mem ctl;        /* onesweep: the caller's control words, used as masks and not
                          released, the fault word not read (clsa__radix_sort_unchecked) */
    int keep_fault;    /* with ctl: an earlier unchecked sort's fault word stays */
    unsigned table_slots; /* onesweep: a status table per pass (zeroed at once), or 1 */
    size_t slot_words;    /* onesweep: (1 << bits) * nb */
} clsa__radix_run;

/* The masks buffer's words (CTL_* in radix_onesweep.cl): the masks, the
 * single pass's fault word, its tickets; then (onesweep) the plan, shift
 * and digit mask of each pass. */
#define CLSA_RADIX_CTL_FAULT 4
#define CLSA_RADIX_CTL_WORDS (CLSA_RADIX_CTL_FAULT + 1 + CLSA_RADIX_MAX_PASSES)
#define CLSA_RADIX_CTL_PLAN CLSA_RADIX_CTL_WORDS
#define CLSA_RADIX_CTL_ALL (CLSA_RADIX_CTL_PLAN + 2 * CLSA_RADIX_MAX_PASSES)
_Static_assert(CLSA_RADIX_CTL_BYTES == 4 * CLSA_RADIX_CTL_ALL &&
                   CLSA_RADIX_FAULT_AT == 4 * CLSA_RADIX_CTL_FAULT,
               "radix_sort.h's control words are radix_run.h's");
/* onesweep: words of every pass's digit totals at the table's start */
#define CLSA_RADIX_COUNT_WORDS (CLSA_RADIX_MAX_PASSES * 256)

/* A single-pass sort that faulted (radix_onesweep.cl): the keys and values
 * as sorted below bit `bit`, with scratch, still to be sorted over [bit,
 * end_bit).  bit == end_bit: no fault, the result is in place. */
typedef struct clsa__radix_redo {
    unsigned bit;
    cl_mem keys, values, skeys, svalues;
} clsa__radix_redo;

/* keys/values := kcur/vcur, where the passes left the result in the
 * scratch pair. */
clsa_status clsa__radix_copy_back(const clsa__radix_run *r, cl_mem kcur, cl_mem vcur,
                                  cl_mem keys, cl_mem values);

/* Local memory of the ranking scatter for a tile shape (both paths). */
size_t clsa__radix_scatter_local(const clsa__radix_run *r, size_t wg, size_t items);
/* Padded local array lengths of the ranking (TPAD/CPAD in radix_rank.cl). */
/* Lanes of a warp in the warp ranking (WARP in radix_rank.cl). */
#define CLSA_RADIX_WARP_LANES 32
size_t clsa__radix_tile_elems(size_t tile);
/* Whether the single pass keeps the warp ranking's counters in the value
 * tile (radix_onesweep.cl WC_IN_VTILE). */
int clsa__radix_counters_in_vtile(const clsa__radix_run *r, size_t items);
size_t clsa__radix_counter_elems(size_t wg, unsigned sub);
/* Sets the ranking's local arguments from index a on: buf, perm, cnt, wx,
 * wy, dbase; returns the next index in *next. */
clsa_status clsa__radix_rank_args(const clsa__radix_run *r, cl_kernel k, const char *name,
                                  cl_uint a, cl_uint dmask, cl_uint *next);

/* Pass planning over the key bits that vary. */
unsigned clsa__radix_digit_width(const clsa__radix_run *r, unsigned shift, unsigned end_bit);
/* Lowest bit >= from set in varying, or 64. */
unsigned clsa__radix_next_bit(uint64_t varying, unsigned from);
/* Passes needed when each starts at the lowest varying bit not yet covered. */
unsigned clsa__radix_count_passes(const clsa__radix_run *r, uint64_t varying, unsigned from,
                                  unsigned end_bit);
uint64_t clsa__radix_bit_range(unsigned begin_bit, unsigned end_bit);

/* The single-pass driver (radix_onesweep.c): kernels for the run's shape,
 * and all passes over [begin_bit, end_bit), result in keys/values unless
 * *redo says otherwise. */
clsa_status clsa__radix_onesweep_kernels(clsa__radix_run *r, const char *opts);
/* r->table and r->masks for the passes over [begin_bit, end_bit); cap: the
 * caller's bound on the table's bytes (0: none). */
clsa_status clsa__radix_onesweep_alloc(clsa__radix_run *r, unsigned begin_bit, unsigned end_bit,
                                       size_t cap);
clsa_status clsa__radix_onesweep_passes(clsa__radix_run *r, cl_mem keys, cl_mem values,
                                        cl_mem skeys, cl_mem svalues, unsigned begin_bit,
                                        unsigned end_bit, clsa__radix_redo *redo);
#endif
