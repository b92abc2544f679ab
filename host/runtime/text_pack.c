/* Byte texts of a small alphabet (DNA: 4 distinct bytes) cross to the
 * device packed, 1, 2 or 4 bits a byte, and a kernel unpacks them there
 * (cl_kernels/text_pack.cl).  The packing is the filler of a staged write
 * (staged_copy.c): the host threads that would copy the text into the
 * page-locked slots pack it into them instead, so the bus moves 2-8 times
 * fewer bytes for no extra pass over the text.  The alphabet is guessed
 * from a sample and every byte is checked against it as it is packed: a
 * byte outside it stops the write, and the text goes up as it is (correct,
 * only slower). */
#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "host_mem.h"
#include "launch.h"
#include "program.h"
#include "text_pack.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The packed form: byte i of n in packed byte i / (8 / bits), the first of
 * a byte's symbols in its high bits; sym[code] = the byte. */
typedef struct packed_text {
    unsigned bits;
    unsigned char sym[16];
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

/* The plan for the bytes a sample of t shows and the form it packs to; 0
 * when they are more than 2^pack_bits. */
static int plan_of(const clsa_context *ctx, const unsigned char *t, size_t n, pack_plan *pl,
                   packed_text *p)
{
    unsigned most = ctx->tune.pack_bits >= 4 ? 16 : ctx->tune.pack_bits >= 2 ? 4 : 2;
    unsigned char seen[256] = {0};
    for (size_t i = 0; i < n && i < SAMPLE_HEAD; i += SAMPLE_BLOCK) sample(t, n, i, seen);
    for (size_t b = 1; b <= SAMPLE_BLOCKS; b++) sample(t, n, n / (SAMPLE_BLOCKS + 1) * b, seen);
    sample(t, n, n > SAMPLE_BLOCK ? n - SAMPLE_BLOCK : 0, seen);
    unsigned sigma = 0;
    memset(pl->code, CODE_BAD, sizeof pl->code);
    memset(pl->sym, 0, sizeof pl->sym);
    for (unsigned c = 0; c < 256; c++) {
        if (!seen[c]) continue;
        if (sigma == most) return 0;
        pl->sym[sigma] = (unsigned char)c;
        pl->code[c] = (unsigned char)sigma++;
    }
    pl->bits = sigma <= 2 ? 1 : sigma <= 4 ? 2 : 4;
    p->bits = pl->bits;
    p->n = n;
    p->bytes = (n + 8 / p->bits - 1) / (8 / p->bits);
    memcpy(p->sym, pl->sym, sizeof p->sym);
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

#ifdef __SSE2__
/* 2 bits a symbol, 64 bytes a step in SSE2 (every x86-64): each byte
 * compared with the (up to) 4 symbols gives its code, then neighbouring
 * codes merge in 16- and 32-bit lanes, first symbol highest, and the lanes
 * narrow to 16 packed bytes: faster than the pair table, whose rate bounds
 * a GPU's DNA uploads.  Returns the bytes of t[from, to) done (a
 * multiple of 64); *bad gets whether one of them lies outside the
 * alphabet. */
static size_t pack2_sse2(const pack_plan *pl, const unsigned char *t, size_t from, size_t to,
                         unsigned char *out, unsigned *bad)
{
    __m128i sym[4], code[4]; /* code[0] unused: symbol 0's code is 0 */
    for (unsigned k = 0; k < 4; k++) { /* codes past sigma: symbol 0 again, code 0 */
        unsigned used = pl->code[pl->sym[k]] == k;
        sym[k] = _mm_set1_epi8((char)pl->sym[used ? k : 0]);
        code[k] = _mm_set1_epi8((char)(used ? k : 0));
    }
    const __m128i low8 = _mm_set1_epi16(0xFF), low16 = _mm_set1_epi32(0xFFFF);
    __m128i all = _mm_cmpeq_epi8(low8, low8); /* every byte so far in the alphabet */
    size_t i = from;
    for (; i + 64 <= to; i += 64, out += 16) {
        __m128i q[4];
        for (unsigned v = 0; v < 4; v++) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(t + i + 16 * v));
            __m128i e1 = _mm_cmpeq_epi8(x, sym[1]), e2 = _mm_cmpeq_epi8(x, sym[2]),
                    e3 = _mm_cmpeq_epi8(x, sym[3]);
            __m128i c = _mm_or_si128(_mm_and_si128(e1, code[1]),
                                     _mm_or_si128(_mm_and_si128(e2, code[2]),
                                                  _mm_and_si128(e3, code[3])));
            all = _mm_and_si128(all, _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, sym[0]), e1),
                                                  _mm_or_si128(e2, e3)));
            __m128i p = _mm_or_si128(_mm_slli_epi16(_mm_and_si128(c, low8), 2),
                                     _mm_srli_epi16(c, 8));
            q[v] = _mm_or_si128(_mm_slli_epi32(_mm_and_si128(p, low16), 4), _mm_srli_epi32(p, 16));
        }
        __m128i w = _mm_packus_epi16(_mm_packs_epi32(q[0], q[1]), _mm_packs_epi32(q[2], q[3]));
        _mm_storeu_si128((__m128i *)(void *)out, w);
    }
    *bad = (unsigned)_mm_movemask_epi8(all) != 0xFFFFu;
    return i - from;
}
#endif

static int pack_range(const pack_plan *pl, const unsigned char *t, size_t from, size_t to,
                      unsigned char *out)
{
    if (pl->bits == 4) return pack_pairs(pl, t, from, to, out, 1);
    if (pl->bits == 2) {
#ifdef __SSE2__
        unsigned bad;
        size_t done = pack2_sse2(pl, t, from, to, out, &bad);
        if (bad) return 0;
        from += done;
        out += done / 4;
#endif
        return pack_pairs(pl, t, from, to, out, 2);
    }
    return pack_pairs(pl, t, from, to, out, 4);
}

/* A staged write's filler (staged_copy.c): packed bytes [from, from + len)
 * from the text's bytes [from * per, ...); 0 (the write stops) at a byte
 * outside the alphabet. */
typedef struct pack_fill_arg {
    const pack_plan *pl;
    const unsigned char *t;
    size_t n;
} pack_fill_arg;

static int pack_fill(void *arg, size_t from, size_t len, void *slot)
{
    const pack_fill_arg *a = arg;
    size_t per = 8 / a->pl->bits, lo = from * per, hi = (from + len) * per;
    return pack_range(a->pl, a->t, lo, hi < a->n ? hi : a->n, slot);
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
    if (!st)
        st = CLSA_ARGS(ctx, k, name, CLSA_KARG(dpacked), CLSA_KARG(bytes), CLSA_KARG(n),
                       CLSA_KARG(bits), CLSA_KARG(lo), CLSA_KARG(hi), CLSA_KARG(dst));
    int phase = clsa__set_phase(ctx, CLSA_PHASE_TRANSFER);
    if (!st) st = clsa__launch(ctx, k, name, (size_t)bytes, ctx->tune.wg);
    clsa__set_phase(ctx, phase);
    return st;
}

/* Whether ctx's uploads of an n-byte text at text would be packed: on, past
 * pack_min, and not page-locked (which crosses at bus speed as it is). */
static int worth_packing(const clsa_context *ctx, const void *text, size_t n)
{
    return ctx->tune.pack_min && n >= ctx->tune.pack_min && !clsa__is_pinned(ctx, text, n);
}

/* A text packed once for several uploads, a block at a time by the first
 * upload that needs the block; the others copy it, or wait while it is
 * being packed (never for long: a block's packer waits for nothing). */
#define SHARE_BLOCK ((size_t)256 << 10) /* packed bytes: 1 MiB of DNA */
enum { BLOCK_FREE, BLOCK_BUSY, BLOCK_DONE, BLOCK_BAD };

struct clsa__text_share {
    pack_plan pl;
    packed_text p;
    const unsigned char *t;
    unsigned char *data;
    int owned;
    size_t blocks;
    atomic_uchar *state;
};

clsa__text_share *clsa__text_share_new(const clsa_context *ctx, const void *text, size_t n,
                                       void *into)
{
    clsa__text_share *s = calloc(1, sizeof *s);
    if (!s || !worth_packing(ctx, text, n) || !plan_of(ctx, text, n, &s->pl, &s->p)) {
        free(s);
        return NULL;
    }
    s->t = text;
    s->blocks = clsa__div_up(s->p.bytes, SHARE_BLOCK);
    s->owned = !into;
    s->data = into ? into : malloc(s->p.bytes);
    s->state = malloc(s->blocks * sizeof *s->state);
    if (!s->data || !s->state) {
        clsa__text_share_free(s);
        return NULL;
    }
    for (size_t b = 0; b < s->blocks; b++) atomic_init(&s->state[b], BLOCK_FREE);
    return s;
}

void clsa__text_share_free(clsa__text_share *s)
{
    if (!s) return;
    if (s->owned) free(s->data);
    free((void *)s->state);
    free(s);
}

/* Block b packed (by this thread or another); 0 when it holds a byte
 * outside the alphabet. */
static int block_ready(clsa__text_share *s, size_t b)
{
    unsigned char st = atomic_load_explicit(&s->state[b], memory_order_acquire);
    unsigned char want = BLOCK_FREE;
    if (st == BLOCK_FREE &&
        atomic_compare_exchange_strong_explicit(&s->state[b], &want, BLOCK_BUSY,
                                                memory_order_acquire, memory_order_acquire)) {
        size_t per = 8 / s->pl.bits, from = b * SHARE_BLOCK,
               to = from + SHARE_BLOCK < s->p.bytes ? from + SHARE_BLOCK : s->p.bytes;
        size_t hi = to * per < s->p.n ? to * per : s->p.n;
        int ok = pack_range(&s->pl, s->t, from * per, hi, s->data + from);
        atomic_store_explicit(&s->state[b], ok ? BLOCK_DONE : BLOCK_BAD, memory_order_release);
        return ok;
    }
    while ((st = atomic_load_explicit(&s->state[b], memory_order_acquire)) == BLOCK_BUSY)
        sched_yield();
    return st == BLOCK_DONE;
}

/* A staged write's filler: the packed bytes [from, from + len), each block
 * packed first where no upload has packed it yet. */
static int share_fill(void *arg, size_t from, size_t len, void *slot)
{
    clsa__text_share *s = arg;
    for (size_t b = from / SHARE_BLOCK; b * SHARE_BLOCK < from + len; b++) {
        if (!block_ready(s, b)) return 0;
        size_t lo = b * SHARE_BLOCK > from ? b * SHARE_BLOCK : from;
        size_t hi = (b + 1) * SHARE_BLOCK < from + len ? (b + 1) * SHARE_BLOCK : from + len;
        memcpy((unsigned char *)slot + (lo - from), s->data + lo, hi - lo);
    }
    return 1;
}

/* dst[0, n) = text through its packed form p: the packed bytes staged by
 * fill(arg) where ctx stages copies, else copied from plain (NULL: no
 * packed copy to send), then unpacked on the device.  The text goes up as
 * it is where there is no room for the packed bytes, no way to send them,
 * or fill meets a byte outside the alphabet. */
static clsa_status upload_packed(clsa_context *ctx, cl_mem dst, const void *text, size_t n,
                                 const packed_text *p, clsa__stage_fill fill, void *arg,
                                 const void *plain)
{
    cl_mem dpacked = NULL;
    int done = 0;
    clsa_status st = clsa__alloc(ctx, p->bytes, &dpacked);
    if (st == CLSA_ERR_DEVICE_MEMORY) { /* no room: the text as it is */
        ctx->message[0] = 0;
        st = CLSA_OK;
    } else if (!st && clsa__staged_ready(ctx)) {
        st = clsa__staged_write(ctx, dpacked, 0, p->bytes, fill, arg, &done);
    } else if (!st && plain) {
        st = clsa__write(ctx, dpacked, 0, plain, p->bytes);
        done = 1;
    }
    if (!st && done) st = unpack(ctx, dpacked, dst, p);
    clsa__free(ctx, &dpacked);
    if (st || done) return st;
    return clsa__write(ctx, dst, 0, text, n);
}

clsa_status clsa__write_text_shared(clsa_context *ctx, cl_mem dst, const void *text, size_t n,
                                    clsa__text_share *s)
{
    if (!s || s->p.n != n || s->t != text) return clsa__write_text(ctx, dst, text, n);
    /* without staged copies: every block packed, then one plain copy */
    int all = 1;
    if (!clsa__staged_ready(ctx))
        for (size_t b = 0; all && b < s->blocks; b++) all = block_ready(s, b);
    return upload_packed(ctx, dst, text, n, &s->p, share_fill, s, all ? s->data : NULL);
}

clsa_status clsa__write_text(clsa_context *ctx, cl_mem dst, const void *text, size_t n)
{
    pack_plan *pl = NULL;
    packed_text p = {0};
    if (!worth_packing(ctx, text, n) || !clsa__staged_ready(ctx) || !(pl = malloc(sizeof *pl)) ||
        !plan_of(ctx, text, n, pl, &p)) {
        free(pl);
        return clsa__write(ctx, dst, 0, text, n); /* not worth it */
    }
    pack_fill_arg fa = {pl, text, n};
    clsa_status st = upload_packed(ctx, dst, text, n, &p, pack_fill, &fa, NULL);
    free(pl);
    return st;
}
