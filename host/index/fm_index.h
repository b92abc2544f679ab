/* FM-index internals shared by the builder/searcher (fm_index.c) and the
 * file format (fm_file.c). */
#ifndef CLSA_INDEX_FM_INDEX_H
#define CLSA_INDEX_FM_INDEX_H
#include "clsa.h"

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
/* ---- file format (fm_file.c) ---- */

/* Writes fm to path as clsa_fm_save does; set = 1: with the set magic and
 * extra[0..extra_bytes) stored after the samples, under the checksum.
 * Locks the context. */
clsa_status clsa__fm_file_save(clsa_fm *fm, const char *path, int set, const uint8_t *extra,
                               size_t extra_bytes);

/* The extra section of a set file: check() runs after the sizes, the
 * checksum and the payload are validated and before any device work; it
 * gets the text length, the byte histogram and the section, must check the
 * section against them and keep what it needs through user. */
typedef struct clsa__fm_kind {
    clsa_status (*check)(clsa_context *ctx, const char *path, uint64_t n, const uint64_t *hist,
                         const uint8_t *extra, uint64_t bytes, void *user);
    void *user;
} clsa__fm_kind;

/* Reads a file of clsa__fm_file_save: kind NULL for a plain FM-index, else
 * a set file whose extra section kind checks.  Needs a device; locks the
 * context. */
clsa_status clsa__fm_file_load(clsa_context *ctx, const char *path, const clsa__fm_kind *kind,
                               clsa_fm **out);

/* CLSA_ERR_FORMAT naming path, the kind of file (set: 1 for a set index)
 * and what is wrong with it. */
clsa_status clsa__fm_file_bad(clsa_context *ctx, const char *path, int set, const char *what);

/* Little-endian u64 at p. */
static inline uint64_t clsa__get_u64le(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}
static inline void clsa__put_u64le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Program options for fm's layout. */
const char *clsa__fm_options(const clsa_fm *fm, char *buf, size_t cap);
#endif
