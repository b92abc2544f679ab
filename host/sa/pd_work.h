/* The buffers the prefix-doubling stages share (pd_work.c). */
#ifndef CLSA_SA_PD_WORK_H
#define CLSA_SA_PD_WORK_H
#include "groups.h"

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
#endif
