/* Global sample sort of (a, b, i) tuples over a dist_comm. */
#ifndef CLSA_DIST_SORT_H
#define CLSA_DIST_SORT_H

#include "comm.h"

typedef struct dist_tup {
    uint64_t a, b; /* the sort key, a first */
    int64_t i;     /* text position: unique, breaks ties for the splitters */
} dist_tup;

/* Sorts the tuples of every rank together by (a, b): on return *out
 * (malloc'd, *nout entries; the caller frees it) is this rank's slice of
 * the global order, the slices in rank order.  in[0..nin) is consumed (left
 * in any order).  ctx: local sorts on its device when it has one.  The
 * status is agreed over every rank (msg: the message). */
clsa_status dist_sample_sort(dist_comm *c, clsa_context *ctx, dist_tup *in, int64_t nin,
                             dist_tup **out, int64_t *nout, char *msg, size_t cap);

/* Local sort by (a, b) (not by i): device radix sort where ctx has a
 * device, else qsort. */
clsa_status dist_local_sort(clsa_context *ctx, dist_tup *t, int64_t n, char *msg, size_t cap);

int dist_tup_cmp_full(const dist_tup *x, const dist_tup *y);

#endif
