/* FM-index internals shared by the builder/searcher (fm_index.c) and the
 * file format (fm_file.c). */
#ifndef CLSA_INDEX_FM_INDEX_H
#define CLSA_INDEX_FM_INDEX_H
#include "runtime.h"

struct clsa_fm {
    clsa_context *ctx;
    int64_t n;          /* text length; the matrix has n + 1 rows */
    int64_t rate;       /* SA sampling rate */
    int64_t primary;    /* row of $ (divbwt primary index; 0 when n = 0) */
    int index64;        /* idx_t width of the device data */
    unsigned w, b;      /* bits per code, rows per record */
    unsigned sigma;     /* codes in use (>= 1) */
    unsigned rw;        /* 32-bit words per record */
    uint64_t hist[256]; /* occurrences of each byte in the text */
    uint8_t map[256];   /* byte -> code, 255 when absent */
    uint8_t unmap[256]; /* code -> byte */
    int64_t nrec;       /* records: (n + 1) / b + 1 */
    int64_t nmarks;     /* 32-bit mark words: ceil((n + 1) / 32) */
    int64_t nsamples;
    cl_mem rec, C, dmap, marks, mrank, samples;
};

/* Handle with sizes, code tables and layout derived from n, rate and
 * fm->hist (which the caller fills first); no device memory yet. */
clsa_status clsa__fm_new(clsa_context *ctx, int64_t n, int64_t rate, const uint64_t *hist,
                         clsa_fm **out);
/* Records (codes + checkpoints) from the divbwt-convention BWT (n bytes on
 * the device) and its primary index; also uploads C and the code map. */
clsa_status clsa__fm_build_occ(clsa_fm *fm, cl_mem bwt, int64_t primary);
/* fm->marks must hold the mark words: computes fm->mrank and checks that
 * the marks count fm->nsamples rows. */
clsa_status clsa__fm_build_mrank(clsa_fm *fm);
/* The divbwt bytes (n bytes) of the index into a device buffer. */
clsa_status clsa__fm_unpack(clsa_fm *fm, cl_mem bwt);
/* Frees fm and its device memory; the caller holds the context lock. */
void clsa__fm_release(clsa_fm *fm);
/* Program options for fm's layout. */
const char *clsa__fm_options(const clsa_fm *fm, char *buf, size_t cap);
#endif
