/* Batched suffix arrays and BWTs (host/index/batch.c, batch_dev.c): k texts
 * in one call, built on the device in parts of many texts each. */
#ifndef CLSA_SA_BATCH_H
#define CLSA_SA_BATCH_H
#include "runtime.h"

/* One public call: its arguments, checked, and where its outputs go. */
typedef struct clsa__batch {
    clsa_context *ctx;
    int sym;             /* bytes per symbol: 1, 2, 4 or 8 */
    int index64;         /* SA entries of 8 bytes (else 4) */
    int bwt;             /* the BWT (bytes only on the device), else the SA */
    const int64_t *len;  /* k lengths */
    int64_t k;
    int64_t *off;        /* k + 1 symbol offsets, malloc'd */
    uint64_t total;      /* M = off[k] */
    const void *text;    /* host input, or NULL with dtext */
    void *out;           /* host SA or BWT */
    cl_mem dtext, dout;  /* device input and output (the _mem calls) */
    int64_t *primary;    /* BWT: k primary indexes */
    uint64_t done;       /* symbols finished (progress) */
} clsa__batch;

/* The texts [a, b) as one part on the device: the joined virtual text,
 * its generalized suffix array, the partition by text, then the SA or BWT
 * into the call's outputs.  Every part's virtual text fits 32-bit
 * entries (M + k <= INT32_MAX).  CLSA_ERR_DEVICE_MEMORY leaves nothing
 * half-done that a smaller part cannot redo. */
clsa_status clsa__batch_part(clsa__batch *j, int64_t a, int64_t b);

/* Device bytes a part of m symbols and k texts is expected to hold at its
 * peak. */
uint64_t clsa__batch_need(const clsa__batch *j, uint64_t m, uint64_t k);
#endif
