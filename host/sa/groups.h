/* The working set of the prefix-doubling loop and its groups, shared by
 * the stages (prefix_doubling.c lists them; kernels: cl_kernels/sa/groups.cl). */
#ifndef CLSA_SA_GROUPS_H
#define CLSA_SA_GROUPS_H
#include "prim/scan.h"
#include "context.h"
#include "launch.h"

/* Sets the arguments of kernel `name` in cl_kernels/<file>.cl and launches
 * it over `global` work-items in work-groups of `local` (0: ctx->tune.wg)
 * (pd_work.c). */
clsa_status clsa__sa_run(clsa_context *ctx, const char *file, int index64, const char *name,
                         size_t global, size_t local, size_t nargs, const clsa__karg *args);
/* The same with the argument list (launch.h) written out. */
#define CLSA_SA_RUN(ctx, file, index64, name, global, local, ...)                        \
    clsa__sa_run(ctx, file, index64, name, global, local, CLSA_KARGS(__VA_ARGS__))

/* Groups of at most this many suffixes are sorted by one work-item. */
#define CLSA_GRP_TINY 8

/* Working set of the loop.  u: the m unsorted suffixes grouped by rank (a
 * group in consecutive slots); isa: rank of every suffix (= SA index of the
 * first suffix of its group); k, sk: work arrays of at least m idx_t, sv of
 * at least sv_len >= m / 2 (the largest of the doubling sort's chunks).
 * g: number of unsorted groups among u. */
typedef struct clsa__sa_work {
    int index64;
    uint64_t n;
    size_t m, g;
    size_t sv_len;
    cl_mem u, isa, k, sk, sv;
    cl_mem counter; /* two uints */
    cl_mem counts;  /* 36 uints: class counts */
    /* the split's class counts (pd_split.cl grp_split_ranks), read with the
     * compaction's single pass */
    uint32_t summary[CLSA_SCAN_USER_WORDS];
    int classes_known;    /* summary holds the current groups' classes:
                           * clsa__groups_classify reads none */
    int counts_zero;      /* the split zeroed counts for the next classify */
    /* the long groups' views of k kept from pass to pass (pd_pass.c
     * long_views; k stays the same buffer through the loop), released by
     * its drop_long_views before the loop's arrays are */
    cl_mem lview[4], lview_k;
    size_t lview_bytes;
    int isa_unset;  /* clsa__groups_settle found only singletons: u holds
                     * every suffix in its final order, isa was not written */
    uint64_t rank_base; /* SA index of u's first suffix before any sort: 0,
                         * or a part's first slot (host/sa/pd_part.c) */
    uint64_t sa_len;    /* entries of the SA buffer: n, or a part's count */
    int flagged;    /* this pass's sorts marked in the top bit of u every slot
                     * that starts a new group (clsa__groups_flag_ok):
                     * clsa__groups_split reads them instead of key2 */
    int marked;     /* the last compaction marked each group's first slot in
                     * the top bit of u (groups.cl GRP_TOP): the next
                     * clsa__groups_starts scans those bits and clears them */
    int direct_ok;  /* the caller wants the SA (not ranks, not a part) and
                     * allows direct mode (host/sa/pd_init.c shrink) */
    int lazy;       /* the initial ranks were written only for the unsorted
                     * suffixes (the rest of isa holds PD_UNSET): each pass
                     * first fills the ranks it will read (pd_lazy.c
                     * clsa__pd_lazy_fill); needs direct mode, else shrink completes
                     * isa from the SA buffer */
    cl_mem need;    /* lazy: the ranks a pass reads, a bit per 2^need_shift suffixes */
    unsigned need_shift;
    cl_mem sa;      /* direct mode: the SA buffer, holding the initial sort's
                     * order; each split writes sa[rank - rank_base] = suffix
                     * for its new singletons, so no inversion is needed.  NULL:
                     * u may live in the SA buffer, ISA^-1 at the end */
} clsa__sa_work;

/* Length classes (see pd_sort.cl) for groups sorted in local memory. */
typedef struct clsa__grp_classes {
    unsigned nclass;          /* local-memory classes; R1 = CLSA_GRP_TINY << nclass */
    uint32_t count[34];       /* groups per class, [nclass] = longer than R1 */
    uint64_t large_slots;     /* suffixes in groups longer than R1 */
} clsa__grp_classes;

#endif
