/* Prefix doubling over one part of the suffixes, on one of several devices
 * of a host (docs/DESIGN.md, "Several devices").
 *
 * Splitters on the first 8 bytes of a suffix cut the suffixes into one
 * range per member, in suffix order; each member sorts its range on its
 * own device with the in-memory pipeline (host/sa/prefix_doubling.c), its
 * ranks being global SA indexes.  Before each doubling pass the members
 * exchange, through the host, exactly the ranks the pass reads of
 * positions another member owns (the pass's u[i] + h), so the pass sorts
 * as the one-device pipeline does; a member's group never spans members,
 * which keeps Larsson and Sadakane's argument for partly refined ranks.
 * Each member ends with its slice of SA. */
#ifndef CLSA_SA_PD_PART_H
#define CLSA_SA_PD_PART_H
#include "clsa.h"
#include "groups.h"

struct dist_comm;

typedef struct clsa__pd_part {
    struct dist_comm *comm;  /* the members' collectives; comm->rank is this member */
    const uint64_t *split;   /* comm->size - 1 splitter keys (clsa__pd_part_splitters) */
    const uint8_t *host_text; /* the whole text in host memory: owners of asked positions */
    uint64_t base, count;    /* out: this member's slice is SA[base, base + count) */
    char *msg;               /* the agreed message of a failure */
    size_t cap;
    cl_mem dsplit;           /* the splitters on the device (clsa__pd_part_own) */
    int isa_made;            /* a finished slice's ranks were written for the asking */
    int declined;            /* out: after the initial sort more than n / CLSA_TUNE
                              * part_decline suffixes were unsorted, so the exchanges would
                              * cost more than a second device saves: nothing was sorted,
                              * and the caller runs one device instead */
    int exchanges;           /* exchanges so far */
    /* may be NULL: told the slice as soon as the members' counts give it,
     * early in the sort (the MPI output pre-faults it meanwhile) */
    void (*known)(void *arg, uint64_t base, uint64_t count);
    void *known_arg;
} clsa__pd_part;

/* Big-endian key of the first 8 bytes of suffix p (0 past the end). */
uint64_t clsa__pd_part_key(const uint8_t *text, uint64_t n, uint64_t p);

/* A regular sample of the suffixes, taken once for the two decisions
 * before the members start: positions i n / s (i < s, s = min(n,
 * samples)), each with its first CLSA_PART_WIN bytes (0 past the end),
 * gathered on up to `threads` host threads.  -1: out of host memory. */
#define CLSA_PART_WIN 64u
#define CLSA_PART_SPLIT_SAMPLES 65536u
typedef struct clsa__pd_sample {
    uint64_t n, s;
    uint8_t *win; /* s x CLSA_PART_WIN bytes */
} clsa__pd_sample;
int clsa__pd_sample_take(const uint8_t *text, uint64_t n, uint64_t samples, unsigned threads,
                         clsa__pd_sample *out);
void clsa__pd_sample_free(clsa__pd_sample *smp);

/* size - 1 splitters from a sample's keys (clsa__pd_part_key of each
 * sampled suffix; take CLSA_PART_SPLIT_SAMPLES), so each member gets about
 * n / size suffixes (one key's suffixes stay together).  -1: out of host
 * memory. */
int clsa__pd_part_splitters(const clsa__pd_sample *smp, int size, uint64_t *split);

/* 0 when a sample (of CLSA_TUNE part_sample suffixes) says that more than
 * 1 in `decline` suffixes may share their initial key (the first 64 /
 * bits(sigma) symbols) with another: the sampled share of such keys scaled
 * by n / samples (an upper estimate; random texts share none).  Those stay
 * unsorted after the initial sort, and the rank exchanges would cost more
 * than a second device saves (the check after the initial sort catches
 * what a sample misses).  Exact for n <= samples. */
int clsa__pd_part_worth(const clsa__pd_sample *smp, unsigned decline);

/* The member that owns suffix p. */
int clsa__pd_part_owner(const clsa__pd_part *p, uint64_t n, uint64_t pos);

/* This member's suffixes in position order into *u, made here with room
 * for their number *m (at least one entry).  Uses bits (n / 8 bytes at
 * least). */
clsa_status clsa__pd_part_own(clsa_context *ctx, clsa__pd_part *p, cl_mem text, uint64_t n,
                              cl_mem *u, cl_mem bits, uint64_t *m);

/* Collective: agrees st, then every member learns its slice (base, count)
 * from the counts m (and tells p->known).  Returns the agreed status. */
clsa_status clsa__pd_part_slices(clsa_context *ctx, clsa__pd_part *p, clsa_status st,
                                 uint64_t m);

/* Collective, before the doubling pass at distance h: agrees st; *more = 0
 * when no member has an unsorted suffix left; else the ranks of the
 * positions u[i] + h that other members own are fetched into w->isa. */
clsa_status clsa__pd_part_exchange(clsa_context *ctx, clsa__pd_part *p, clsa__sa_work *w,
                                   cl_mem text, uint64_t h, clsa_status st, int *more);

/* The slice of SA from the final ranks, into sa[0, count) (nothing to do
 * in direct mode: the splits wrote it). */
clsa_status clsa__pd_part_invert(clsa_context *ctx, clsa__pd_part *p, clsa__sa_work *w,
                                 cl_mem text, cl_mem sa);
#endif
