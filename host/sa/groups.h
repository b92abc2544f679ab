/* Group bookkeeping of the prefix-doubling loop: head flags, ranks, ISA
 * scatter, split of groups after a sort, and compaction of the suffixes
 * whose group is still unsorted (host/sa/groups.c, cl_kernels/groups.cl). */
#ifndef CLSA_SA_GROUPS_H
#define CLSA_SA_GROUPS_H
#include "runtime.h"

/* One kernel argument: a value of `size` bytes at ptr, or (ptr NULL) a
 * local-memory array of `size` bytes. */
typedef struct clsa__karg {
    size_t size;
    const void *ptr;
} clsa__karg;
#define CLSA_KARG(v) {sizeof(v), &(v)}
#define CLSA_KLOCAL(bytes) {(bytes), NULL}

/* Sets the arguments of kernel `name` in cl_kernels/<file>.cl and launches
 * it over `global` work-items in groups of ctx->tune.wg. */
clsa_status clsa__sa_run(clsa_context *ctx, const char *file, int index64, const char *name,
                         size_t global, size_t nargs, const clsa__karg *args);

/* Working set of the loop.  u: the m unsorted suffixes grouped by rank (a
 * group in consecutive slots); isa: rank of every suffix (= SA index of the
 * first suffix of its group); k, sk, sv: work arrays of at least m idx_t.
 * g: number of unsorted groups among u. */
typedef struct clsa__sa_work {
    int index64;
    uint64_t n;
    size_t m, g;
    cl_mem u, isa, k, sk, sv;
    cl_mem counter; /* one uint */
} clsa__sa_work;

/* After u was sorted stably by (old rank, key2 at distance h): the new
 * group heads into sk, and in k each slot's delta (rank - slot) of its old
 * group.  Reads isa, which still holds the old ranks. */
clsa_status clsa__groups_split(clsa_context *ctx, clsa__sa_work *w, uint64_t h);

/* With head flags in sk (and deltas in k when has_delta, else 0): new ranks
 * into isa, singletons dropped from u (compacted; u and sk swap buffers),
 * m and g updated. */
clsa_status clsa__groups_settle(clsa_context *ctx, clsa__sa_work *w, int has_delta);
#endif
