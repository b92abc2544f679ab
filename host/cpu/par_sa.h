/* The host's multi-threaded suffix sorter (our own parallel SA-IS,
 * par_sais_tmpl.h): the host backend's suffix array and the drop-in
 * libraries' CPU path.  Work space beyond the output: the bucket arrays
 * (3 k + 1 entries per level, inside the output array's free part where
 * it fits) and a block cache of 24 bytes per entry of a block (64 Ki to
 * 32 Ki x threads entries).  Results do not depend on the thread count. */
#ifndef CLSA_CPU_PAR_SA_H
#define CLSA_CPU_PAR_SA_H

#include <stdint.h>

#define CLSA_PAR_MAX_THREADS 256

typedef struct clsa_par_opts {
    int threads; /* <= 0: clsa__cpu_threads() */
    /* progress in [0, 1] at phase ends; nonzero stops the sort (-3) */
    int (*tick)(void *arg, double fraction);
    void *tick_arg;
    /* tests: several threads from this many entries on, scan blocks of
     * it (0: 64 Ki and 32 Ki a thread); wide: 64-bit instances at any n;
     * blocks: the unflagged block induction at any n (otherwise only
     * stage 1 of 2^30 entries or more in 32-bit entries uses it) */
    int grain, wide, blocks;
} clsa_par_opts;

/* Bytes a byte-text construction of n symbols allocates beside its output
 * (threads <= 0: the default count). */
uint64_t clsa__par_sa_work_bytes(int64_t n, int threads);

/* Return values: 0; -1 bad arguments; -2 out of memory; -3 stopped by
 * tick.  opts may be NULL (default threads, no progress). */

/* sa = suffix array of the bytes text[0..n), 32- or 64-bit entries. */
int clsa__par_sa_bytes(const uint8_t *text, void *sa, int64_t n, int index64,
                       const clsa_par_opts *opts);
/* The same for unsigned symbols of sym = 2 or 4 bytes, all < k. */
int clsa__par_sa_sym(const void *text, int sym, int64_t k, void *sa, int64_t n, int index64,
                     const clsa_par_opts *opts);
/* Integer texts of symbols in [0, k) (the libsais API's int alphabets). */
int clsa__par_sa_int32(const int32_t *text, int32_t *sa, int32_t n, int32_t k,
                       const clsa_par_opts *opts);
int clsa__par_sa_int64(const int64_t *text, int64_t *sa, int64_t n, int64_t k,
                       const clsa_par_opts *opts);

#endif
