/* Prefix doubling, stages 1 and 2: initial sort and groups (pd_init.c). */
#ifndef CLSA_SA_PD_INIT_H
#define CLSA_SA_PD_INIT_H
#include "pd_work.h"

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
#endif
