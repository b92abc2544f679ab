/* Byte texts of a small alphabet (DNA: 4 or 5 distinct bytes) cross to the
 * device packed, 1, 2 or 4 bits a byte, and a kernel unpacks them there
 * (cl_kernels/text_pack.cl).  A copy from pageable memory runs at one
 * core's memcpy rate (6-17 GB/s on the GPU machine, docs/BENCHMARKS.md);
 * threads pack faster than that, so the copy shrinks 2-8 times, and the
 * packing of one piece overlaps the copy of the one before.  The alphabet
 * is guessed from a sample and every byte is checked against it as it is
 * packed: a byte outside it stops the packing, and the text goes up as it
 * is (correct, only slower). */
#include "runtime.h"

#include <stdlib.h>
#include <string.h>

/* A text of at most 16 distinct bytes packed to 1, 2 or 4 bits a byte: byte
 * i in data[i / (8 / bits)], the first of a byte's symbols in its high bits;
 * sym[code] = the byte. */
typedef struct packed_text {
    unsigned bits;
    unsigned char sym[16];
    unsigned char *data; /* malloc'd, bytes long */
    size_t bytes, n;
} packed_text;

#define SAMPLE_HEAD 65536
#define SAMPLE_BLOCKS 64
#define SAMPLE_BLOCK 1024
#define PAIR_BAD 0x8000u
#define CODE_BAD 0xFFu

typedef struct pack_plan {
    unsigned bits;
    unsigned char sym[16];
    unsigned char code[256]; /* CODE_BAD outside the alphabet */
    uint16_t pair[65536];    /* bytes a, b (pair_at) -> code a << bits | code b, or PAIR_BAD */
} pack_plan;

/* The pair table's index of the two bytes at p (their 16 bits in host order). */
static inline unsigned pair_at(const unsigned char *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

static void sample(const unsigned char *t, size_t n, size_t from, unsigned char seen[256])
{
    size_t to = from + SAMPLE_BLOCK < n ? from + SAMPLE_BLOCK : n;
    for (size_t i = from; i < to; i++) seen[t[i]] = 1;
}

/* The plan for the bytes a sample of t shows; 0 when they are more than 16. */
static int plan_of(const unsigned char *t, size_t n, pack_plan *pl)
{
    unsigned char seen[256] = {0};
    for (size_t i = 0; i < n && i < SAMPLE_HEAD; i += SAMPLE_BLOCK) sample(t, n, i, seen);
    for (size_t b = 1; b <= SAMPLE_BLOCKS; b++) sample(t, n, n / (SAMPLE_BLOCKS + 1) * b, seen);
    sample(t, n, n > SAMPLE_BLOCK ? n - SAMPLE_BLOCK : 0, seen);
    unsigned sigma = 0;
    memset(pl->code, CODE_BAD, sizeof pl->code);
    memset(pl->sym, 0, sizeof pl->sym);
    for (unsigned c = 0; c < 256; c++) {
        if (!seen[c]) continue;
        if (sigma == 16) return 0;
        pl->sym[sigma] = (unsigned char)c;
        pl->code[c] = (unsigned char)sigma++;
    }
    pl->bits = sigma <= 2 ? 1 : sigma <= 4 ? 2 : 4;
    for (unsigned a = 0; a < 256; a++)
        for (unsigned b = 0; b < 256; b++) {
            unsigned char ab[2] = {(unsigned char)a, (unsigned char)b};
            pl->pair[pair_at(ab)] = pl->code[a] == CODE_BAD || pl->code[b] == CODE_BAD
                                        ? PAIR_BAD
                                        : (uint16_t)(pl->code[a] << pl->bits | pl->code[b]);
        }
    return 1;
}

/* Packs t[from, to) (from a multiple of 8 / bits) into out; 0 when a byte
 * lies outside the alphabet.  pairs: byte pairs per packed byte, a
 * constant at each call so that the loop unrolls; 8 input bytes a step. */
static inline int pack_pairs(const pack_plan *pl, const unsigned char *t, size_t from, size_t to,
                             unsigned char *out, unsigned pairs)
{
    unsigned per = 2 * pairs, pb = 2 * pl->bits, mask = (1u << pb) - 1;
    unsigned bad = 0;
    size_t i = from, o = 0, full = from + (to - from) / 8 * 8;
    for (; i < full; i += 8) {
        unsigned c[4];
        for (unsigned k = 0; k < 4; k++) {
            c[k] = pl->pair[pair_at(t + i + 2 * k)];
            bad |= c[k];
        }
        for (unsigned b = 0; b < 4 / pairs; b++) {
            unsigned v = 0;
            for (unsigned k = 0; k < pairs; k++) v = v << pb | (c[b * pairs + k] & mask);
            out[o++] = (unsigned char)v;
        }
    }
    for (; i < to; i += per) { /* the last bytes: codes 0 past the text's end */
        unsigned v = 0;
        for (unsigned j = 0; j < per; j++) {
            unsigned c = i + j < to ? pl->code[t[i + j]] : 0;
            bad |= c == CODE_BAD ? PAIR_BAD : 0;
            v = v << pl->bits | (c & ((1u << pl->bits) - 1));
        }
        out[o++] = (unsigned char)v;
    }
    return !(bad & PAIR_BAD);
}

static int pack_range(const pack_plan *pl, const unsigned char *t, size_t from, size_t to,
                      unsigned char *out)
{
    if (pl->bits == 4) return pack_pairs(pl, t, from, to, out, 1);
    if (pl->bits == 2) return pack_pairs(pl, t, from, to, out, 2);
    return pack_pairs(pl, t, from, to, out, 4);
}

/* Pieces of the text packed by a team of threads in order of their index,
 * so that a copy can follow them. */
typedef struct pack_job {
    const pack_plan *pl;
    const unsigned char *t;
    unsigned char *out;
    size_t n, chunk, pieces;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t next;         /* the next piece to take */
    unsigned char *done; /* per piece */
    int stop, bad;       /* bad: a byte outside the alphabet */
} pack_job;

static void *pack_worker(void *arg)
{
    pack_job *j = arg;
    unsigned per = 8 / j->pl->bits;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        size_t i = j->stop ? j->pieces : j->next;
        if (i < j->pieces) j->next++;
        pthread_mutex_unlock(&j->lock);
        if (i >= j->pieces) return NULL;
        size_t from = i * j->chunk, to = from + j->chunk < j->n ? from + j->chunk : j->n;
        int ok = pack_range(j->pl, j->t, from, to, j->out + from / per);
        pthread_mutex_lock(&j->lock);
        j->done[i] = 1;
        if (!ok) j->stop = j->bad = 1;
        pthread_cond_broadcast(&j->cond);
        pthread_mutex_unlock(&j->lock);
    }
}

typedef struct pack_team {
    pack_job job;
    pthread_t tid[64];
    unsigned started;
} pack_team;

/* Starts up to `threads` workers on t (a multiple-of-8 piece size); 0 when
 * host memory was refused. */
static int team_start(pack_team *tm, const pack_plan *pl, const unsigned char *t, size_t n,
                      unsigned char *out, size_t chunk, unsigned threads)
{
    pack_job *j = &tm->job;
    memset(tm, 0, sizeof *tm);
    j->pl = pl;
    j->t = t;
    j->out = out;
    j->n = n;
    j->chunk = chunk;
    j->pieces = (n + chunk - 1) / chunk;
    if (!(j->done = calloc(j->pieces, 1))) return 0;
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->cond, NULL);
    if (threads > 64) threads = 64;
    for (unsigned i = 0; i < threads; i++) {
        if (pthread_create(&tm->tid[i], NULL, pack_worker, j)) break;
        tm->started++;
    }
    return 1;
}

/* Whether piece i was packed (waits for it); 0 once the packing stopped. */
static int team_wait(pack_team *tm, size_t i)
{
    pack_job *j = &tm->job;
    pthread_mutex_lock(&j->lock);
    while (!j->done[i] && !j->stop) pthread_cond_wait(&j->cond, &j->lock);
    int ok = j->done[i] && !j->bad;
    pthread_mutex_unlock(&j->lock);
    return ok;
}

/* Stops the team (what is under way finishes) and joins it; 1 when every
 * piece was packed. */
static int team_end(pack_team *tm)
{
    pack_job *j = &tm->job;
    pthread_mutex_lock(&j->lock);
    j->stop = 1;
    pthread_mutex_unlock(&j->lock);
    for (unsigned i = 0; i < tm->started; i++) pthread_join(tm->tid[i], NULL);
    int all = !j->bad;
    for (size_t i = 0; all && i < j->pieces; i++) all = j->done[i];
    pthread_mutex_destroy(&j->lock);
    pthread_cond_destroy(&j->cond);
    free(j->done);
    return all;
}

static int worth_packing(const clsa_context *ctx, const void *text, size_t n)
{
    return ctx->tune.pack_min && n >= ctx->tune.pack_min && !clsa__is_pinned(ctx, text, n);
}

static size_t piece_size(const clsa_context *ctx)
{
    size_t c = ctx->tune.pack_chunk / 8 * 8;
    return c ? c : 8;
}

/* The plan and the host buffer of a packing of text, or 0. */
static int pack_begin(clsa_context *ctx, const void *text, size_t n, pack_plan **pl,
                      packed_text *p)
{
    memset(p, 0, sizeof *p);
    if (!worth_packing(ctx, text, n) || !(*pl = malloc(sizeof **pl))) return 0;
    if (plan_of(text, n, *pl)) {
        p->bits = (*pl)->bits;
        p->n = n;
        p->bytes = (n + 8 / p->bits - 1) / (8 / p->bits);
        memcpy(p->sym, (*pl)->sym, sizeof p->sym);
        if ((p->data = malloc(p->bytes))) return 1;
    }
    free(*pl);
    *pl = NULL;
    return 0;
}

static void pack_free(packed_text *p)
{
    free(p->data);
    p->data = NULL;
}

/* dst = the text of the packed bytes already in dpacked. */
static clsa_status unpack(clsa_context *ctx, cl_mem dpacked, cl_mem dst,
                          const packed_text *p)
{
    cl_ulong bytes = p->bytes, n = p->n, lo = 0, hi = 0;
    cl_uint bits = p->bits;
    for (int c = 7; c >= 0; c--) {
        lo = lo << 8 | p->sym[c];
        hi = hi << 8 | p->sym[c + 8];
    }
    cl_kernel k;
    const char *name = "text_unpack";
    clsa_status st = clsa__kernel(ctx, "text_pack", 0, NULL, name, &k);
    if (!st) st = CLSA_ARG(ctx, k, name, 0, dpacked);
    if (!st) st = CLSA_ARG(ctx, k, name, 1, bytes);
    if (!st) st = CLSA_ARG(ctx, k, name, 2, n);
    if (!st) st = CLSA_ARG(ctx, k, name, 3, bits);
    if (!st) st = CLSA_ARG(ctx, k, name, 4, lo);
    if (!st) st = CLSA_ARG(ctx, k, name, 5, hi);
    if (!st) st = CLSA_ARG(ctx, k, name, 6, dst);
    int phase = clsa__set_phase(ctx, CLSA_PHASE_TRANSFER);
    if (!st) st = clsa__launch(ctx, k, name, (size_t)bytes, ctx->tune.wg);
    clsa__set_phase(ctx, phase);
    return st;
}

/* A device buffer for the packed bytes, or NULL (device memory short: the
 * caller copies the text as it is). */
static clsa_status packed_buffer(clsa_context *ctx, size_t bytes, cl_mem *out)
{
    clsa_status st = clsa__alloc(ctx, bytes, out);
    if (st == CLSA_ERR_DEVICE_MEMORY) {
        ctx->message[0] = 0;
        *out = NULL;
        return CLSA_OK;
    }
    return st;
}

clsa_status clsa__write_text(clsa_context *ctx, cl_mem dst, const void *text, size_t n)
{
    pack_plan *pl = NULL;
    packed_text p;
    cl_mem dpacked = NULL;
    clsa_status st = CLSA_OK;
    if (!pack_begin(ctx, text, n, &pl, &p)) return clsa__write(ctx, dst, 0, text, n);
    size_t chunk = piece_size(ctx), per = 8 / p.bits;
    pack_team tm;
    int packed = 0;
    if ((st = packed_buffer(ctx, p.bytes, &dpacked)) || !dpacked ||
        !team_start(&tm, pl, text, n, p.data, chunk, ctx->tune.pack_threads))
        goto done;
    if (!tm.started) pack_worker(&tm.job); /* no thread: pack it all here first */
    for (size_t i = 0; i < tm.job.pieces && !st; i++) {
        if (!team_wait(&tm, i)) break;
        size_t from = i * chunk / per, to = (i + 1) * chunk / per;
        st = clsa__write(ctx, dpacked, from, p.data + from, (to < p.bytes ? to : p.bytes) - from);
    }
    packed = team_end(&tm);
    if (!st && packed) st = unpack(ctx, dpacked, dst, &p);
done:
    clsa__free(ctx, &dpacked);
    pack_free(&p);
    free(pl);
    if (st || packed) return st;
    return clsa__write(ctx, dst, 0, text, n); /* a byte the sample missed, or no room */
}
