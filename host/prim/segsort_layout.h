/* Layout of a segmented sort (element types, how segments are described)
 * and the tile shape and build options it gives the local-memory sorts.
 * The two local-memory sorts (bitonic_segsort.c, merge_segsort.c) include
 * only this; the dispatcher (segmented_sort.c) sits above them. */
#ifndef CLSA_PRIM_SEGSORT_LAYOUT_H
#define CLSA_PRIM_SEGSORT_LAYOUT_H
#include "clsa.h"

/* What the kernels are built for: the element types and how segments are
 * described.  Shared by the bitonic, merge and dispatch layers. */
typedef struct clsa__seg_layout {
    int key_bytes;    /* 4 or 8 */
    int value_bytes;  /* 0 (no values), 4 or 8 */
    int key_float;    /* keys are IEEE floats (key_bytes 4): total order of their bits */
    int index64;      /* offsets/lengths (or CSR starts) are ulong, else uint */
    int csr;          /* segment s = [offsets[s], offsets[s+1]); lengths unused */
} clsa__seg_layout;

/* Tile of the local-memory sorts (= R1, the largest S segment) and the
 * work-group size that sorts it, for a layout on ctx's device. */
size_t clsa__segsort_tile(const clsa_context *ctx, const clsa__seg_layout *layout);
size_t clsa__segsort_wg(const clsa_context *ctx, const clsa__seg_layout *layout);
/* Build options of every segmented-sort kernel file for a layout. */
void clsa__segsort_options(const clsa_context *ctx, const clsa__seg_layout *layout, char *buf,
                           size_t cap);
#endif
