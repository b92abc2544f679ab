/* dist_comm over threads of one process: one thread per member, every
 * collective through shared memory between two barriers (the first makes
 * every member's pointers visible, the second keeps them alive and
 * unchanged until everyone has read them).  Nothing here allocates, so a
 * collective cannot fail on one member only. */
#include "comm_threads.h"

#include <string.h>

enum { RED_CHUNK = 256 }; /* allreduce values combined per round */

typedef struct slot {
    const void *send;
    const int64_t *count;
    int64_t *v;
} slot;

struct dist_threads {
    pthread_barrier_t bar;
    int size;
    slot *slots;
    int64_t red[RED_CHUNK];
};

static dist_threads *sh_of(dist_comm *c) { return c->impl; }

static void wait_all(dist_threads *sh) { pthread_barrier_wait(&sh->bar); }

/* Sender j's block for member me starts after its blocks for members < me;
 * blocks from senders < j come first in recv. */
static int th_alltoallv(dist_comm *c, const void *send, const int64_t *scount, void *recv,
                        const int64_t *rcount, size_t elem)
{
    dist_threads *sh = sh_of(c);
    sh->slots[c->rank] = (slot){send, scount, NULL};
    wait_all(sh);
    int64_t at = 0;
    for (int j = 0; j < c->size; j++) {
        int64_t from = 0;
        for (int d = 0; d < c->rank; d++) from += sh->slots[j].count[d];
        if (rcount[j])
            memcpy((char *)recv + (size_t)at * elem,
                   (const char *)sh->slots[j].send + (size_t)from * elem, (size_t)rcount[j] * elem);
        at += rcount[j];
    }
    wait_all(sh);
    return CLSA_OK;
}

static int th_alltoall_counts(dist_comm *c, const int64_t *scount, int64_t *rcount)
{
    dist_threads *sh = sh_of(c);
    sh->slots[c->rank] = (slot){NULL, scount, NULL};
    wait_all(sh);
    for (int j = 0; j < c->size; j++) rcount[j] = sh->slots[j].count[c->rank];
    wait_all(sh);
    return CLSA_OK;
}

static int64_t combine(int64_t a, int64_t x, int op)
{
    return op == DIST_SUM ? a + x : op == DIST_MIN ? (x < a ? x : a) : (x > a ? x : a);
}

/* Member 0 combines a chunk into the shared scratch, everyone copies it
 * back: three barriers a chunk, no allocation. */
static int th_allreduce(dist_comm *c, int64_t *buf, int count, int op)
{
    dist_threads *sh = sh_of(c);
    sh->slots[c->rank].v = buf;
    for (int at = 0; at < count; at += RED_CHUNK) {
        int len = count - at < RED_CHUNK ? count - at : RED_CHUNK;
        wait_all(sh);
        if (c->rank == 0)
            for (int k = 0; k < len; k++) {
                int64_t a = sh->slots[0].v[at + k];
                for (int j = 1; j < c->size; j++) a = combine(a, sh->slots[j].v[at + k], op);
                sh->red[k] = a;
            }
        wait_all(sh);
        memcpy(buf + at, sh->red, (size_t)len * sizeof *buf);
        wait_all(sh);
    }
    return CLSA_OK;
}

static int th_allgather(dist_comm *c, const int64_t *in, int count, int64_t *out)
{
    dist_threads *sh = sh_of(c);
    sh->slots[c->rank].send = in;
    wait_all(sh);
    for (int j = 0; j < c->size; j++)
        memcpy(out + (size_t)j * (size_t)count, sh->slots[j].send, (size_t)count * sizeof *out);
    wait_all(sh);
    return CLSA_OK;
}

static int th_bcast(dist_comm *c, void *buf, size_t bytes, int root)
{
    dist_threads *sh = sh_of(c);
    if (c->rank == root) sh->slots[root].send = buf;
    wait_all(sh);
    if (c->rank != root) memcpy(buf, sh->slots[root].send, bytes);
    wait_all(sh);
    return CLSA_OK;
}

dist_threads *dist_threads_new(int size)
{
    dist_threads *sh = calloc(1, sizeof *sh);
    if (!sh) return NULL;
    sh->size = size;
    sh->slots = calloc((size_t)size, sizeof *sh->slots);
    if (!sh->slots || pthread_barrier_init(&sh->bar, NULL, (unsigned)size)) {
        free(sh->slots);
        free(sh);
        return NULL;
    }
    return sh;
}

void dist_threads_free(dist_threads *sh)
{
    if (!sh) return;
    pthread_barrier_destroy(&sh->bar);
    free(sh->slots);
    free(sh);
}

void dist_comm_threads(dist_comm *c, dist_threads *sh, int rank)
{
    *c = (dist_comm){.rank = rank, .size = sh->size, .impl = sh};
    c->alltoallv = th_alltoallv;
    c->alltoall_counts = th_alltoall_counts;
    c->allreduce = th_allreduce;
    c->allgather = th_allgather;
    c->bcast = th_bcast;
}
