/* Agreement on failure, ownership of positions, and the test-only fault
 * hook: the pieces of the distributed engine that are not the sort. */
#include "collective.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t dist_part_lo(int64_t n, int nranks, int r)
{
    if (n <= 0 || nranks <= 0) return 0;
    int64_t chunk = (n + nranks - 1) / nranks;
    int64_t lo = chunk * (int64_t)r;
    return lo < n ? lo : n;
}

/* The lowest failing rank wins so every rank reports one message, not the
 * knock-on failures of ranks that merely saw a peer give up. */
clsa_status dist_agree(dist_comm *c, clsa_status st, char *msg, size_t cap)
{
    int64_t v[1] = {st != CLSA_OK ? c->rank : c->size};
    if (c->allreduce(c, v, 1, DIST_MIN) != CLSA_OK) {
        if (msg && cap) snprintf(msg, cap, "%s", c->msg);
        return CLSA_ERR_IO;
    }
    if (v[0] == c->size) return CLSA_OK;
    int root = (int)v[0];
    struct {
        int64_t status;
        char text[256];
    } m;
    memset(&m, 0, sizeof m);
    if (c->rank == root) {
        m.status = st;
        snprintf(m.text, sizeof m.text, "%s", msg && cap ? msg : "");
    }
    if (c->bcast(c, &m, sizeof m, root) != CLSA_OK) {
        if (msg && cap) snprintf(msg, cap, "%s", c->msg);
        return CLSA_ERR_IO;
    }
    if (msg && cap) snprintf(msg, cap, "%s", m.text);
    return (clsa_status)m.status;
}

clsa_status dist_fault(const dist_comm *c, const char *phase, char *msg, size_t cap)
{
    const char *e = getenv("CLSA_MPI_FAIL");
    if (!e) return CLSA_OK;
    char *colon = strchr(e, ':');
    if (!colon || atoi(e) != c->rank || strcmp(colon + 1, phase)) return CLSA_OK;
    if (msg && cap)
        snprintf(msg, cap, "rank %d: injected failure at phase '%s' (CLSA_MPI_FAIL)", c->rank,
                 phase);
    return CLSA_ERR_IO;
}
