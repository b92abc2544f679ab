/* The stages of the device suffix array by prefix doubling (docs/SA.md),
 * run in order by host/sa/prefix_doubling.c; each has one host file and
 * one kernel file of the same name (cl_kernels/sa/):
 *
 * 1. pd_init: initial sort of all suffixes by their first h0 symbols,
 *    packed with the bits the text's alphabet needs (h0 = 64 / bits).
 * 2. pd_init: ranks = SA index of the group's first suffix, into ISA;
 *    singletons leave the working set u (pd_split.c settle).
 * 3. pd_pass: while u is not empty: sort u stably by ISA[p + h], then by
 *    the group rank (groups by length class: pd_sort), split groups, new
 *    ranks, drop singletons (pd_split), h *= 2.  pd_lazy fills the ranks
 *    a pass reads where the initial ranks were written lazily.
 * 4. pd_invert: SA = ISA^-1 (the SA buffer is work space until then),
 *    unless in direct mode (pd_init.c shrink) the SA buffer kept the
 *    initial order and each split wrote its new singletons into it.
 * pd_part runs stages 1-4 over one part of the suffixes on several devices;
 * pd_work holds the buffers the stages share and runs their kernels. */
#ifndef CLSA_SA_PREFIX_DOUBLING_H
#define CLSA_SA_PREFIX_DOUBLING_H
#include "groups.h"

typedef struct pd_alphabet {
    unsigned sym;        /* bytes per symbol: 1 (dcodes maps them) or 2, 4 (codes in the text) */
    unsigned sigma;      /* distinct symbols */
    unsigned b, h0;      /* bits per symbol, symbols per key */
    int sep_byte;        /* bytes: the separator byte of a generalized SA (code 1), or -1 */
    cl_mem dcodes;       /* bytes: 256 ushorts, byte -> 1..sigma (pd_codes), or NULL; the
                          * caller frees it */
    unsigned msd_b;      /* bits a symbol of the short key (pd_key_msd); 0: none */
    int msd;             /* the short key is expected to set most suffixes apart */
} pd_alphabet;

/* Buffers the loop owns; sa (the caller's) is borrowed as work space. */
typedef struct pd_buffers {
    cl_mem own[8];
} pd_buffers;

/* Radix digit table budget for a sort of x keys: a quarter byte per key
 * (what 8-bit digits cost with GPU tiles of 4096 keys); devices with small
 * tiles get narrower digits instead of a bigger table. */
static inline size_t pd_table_cap(uint64_t x) { return (size_t)(x / 4) + 4096; }

static inline size_t pd_round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* Buffers of the pipeline and views into them (pd_work.c). */
void clsa__pd_release_all(clsa_context *ctx, pd_buffers *b);
void clsa__pd_release(clsa_context *ctx, pd_buffers *b, cl_mem m);
clsa_status clsa__pd_alloc(clsa_context *ctx, pd_buffers *b, size_t bytes, cl_mem *out);
/* Elements per sub-buffer alignment of the device. */
size_t clsa__pd_align_elems(clsa_context *ctx, size_t iw);
/* View of buf from byte off, bytes long (a sub-buffer, or buf itself at 0). */
clsa_status clsa__pd_sub_view(clsa_context *ctx, cl_mem buf, size_t off, size_t bytes, cl_mem *out);
/* Views of k and u from slot `from` to m. */
clsa_status clsa__pd_tail_views(clsa_context *ctx, const clsa__sa_work *w, size_t from, cl_mem *k2,
                                cl_mem *u2);

/* Stage 1 (pd_init.c): the alphabet of a byte text (a->sym = 1). */
clsa_status clsa__pd_alphabet(clsa_context *ctx, cl_mem text, uint64_t n, pd_alphabet *a);
/* Stages 1 and 2 (pd_init.c): afterwards isa holds every suffix's rank, u
 * the m suffixes of unsorted groups, and k, sk, sv are sized for them;
 * given: a part of the suffixes, u (= sa) holds the w->m to sort. */
clsa_status clsa__pd_initial_groups(clsa_context *ctx, cl_mem text, cl_mem sa, pd_buffers *b,
                                    clsa__sa_work *w, const pd_alphabet *a, int given);
/* The same for a text of a->sym-byte symbols. */
clsa_status clsa__pd_initial_groups_int(clsa_context *ctx, cl_mem text, int text_writable,
                                        cl_mem sa, pd_buffers *b, clsa__sa_work *w,
                                        pd_alphabet *a);
/* Stage 3 (pd_pass.c): one doubling pass at distance h. */
clsa_status clsa__pd_pass(clsa_context *ctx, clsa__sa_work *w, uint64_t h);
/* Releases the long groups' views kept from pass to pass (pd_pass.c). */
void clsa__pd_drop_long_views(clsa_context *ctx, clsa__sa_work *w);
/* Stage 4 (pd_invert.c): SA = ISA^-1 into sa (isa is destroyed). */
clsa_status clsa__pd_invert(clsa_context *ctx, pd_buffers *b, clsa__sa_work *w, cl_mem sa);
#endif
