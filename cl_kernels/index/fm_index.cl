/* FM-index over text + $ (host/index/fm_index.c).
 *
 * Rows 0..n of the conceptual BWT matrix of text$: row 0 is the suffix "$",
 * row r >= 1 the suffix sa[r-1].  Symbols are codes 0..sigma-1 (the ranks of
 * the bytes present in the text), packed FM_W bits each.
 *
 * Occurrence checkpoints are interleaved with the symbols they cover, so one
 * rank query touches one record: record b (rw 32-bit words) holds sigma
 * counters (idx_t: occurrences of each code in rows [0, b*FM_B)) followed by
 * the FM_B codes of rows [b*FM_B, (b+1)*FM_B).  For DNA (FM_W = 2, FM_B =
 * 64, 32-bit counters) a record is 32 bytes: one memory sector.
 *
 * The $ row stores code 0 and is left out of every count (dollar argument). */

#ifndef FM_W
#define FM_W 8
#endif
#ifndef FM_B
#define FM_B 128
#endif
#define FM_S (32 / FM_W)            /* codes per word */
#define FM_DW (FM_B / FM_S)         /* data words per record */
#define FM_IW (sizeof(idx_t) / 4)   /* words per counter */
#define FM_MASK ((1u << FM_W) - 1u)

#if FM_W == 2
#define FM_REP 0x55555555u
#elif FM_W == 4
#define FM_REP 0x11111111u
#else
#define FM_REP 0x01010101u
#endif

/* Low bit of each FM_W-bit field set where the field equals c. */
static uint fm_eq(uint x, uint c)
{
    uint y = ~(x ^ (c * FM_REP));
    y &= y >> 1;
#if FM_W >= 4
    y &= y >> 2;
#endif
#if FM_W >= 8
    y &= y >> 4;
#endif
    return y & FM_REP;
}

/* Number of set bits.  Not the popcount built-in: Mesa llvmpipe (rusticl)
 * miscounted with it inside the backward-search loop. */
static uint fm_bits(uint x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

/* Occurrences of code c in rows [0, i), the $ row excluded. */
static idx_t fm_occ(const __global uint *rec, uint rw, idx_t i, uint c, idx_t dollar)
{
    idx_t blk = i / FM_B;
    uint off = (uint)(i % FM_B);
    const __global uint *r = rec + blk * rw;
    idx_t cnt = ((const __global idx_t *)r)[c];
    const __global uint *d = r + (rw - FM_DW);
    uint full = off / FM_S, rem = off % FM_S;
    uint s = 0;
    /* Fixed trip count, loads past i's word predicated off: no divergence,
     * and the compiler may unroll it.  (Mesa llvmpipe, rusticl, ends all
     * loops of a work-item after 65535 iterations in total: the host bounds
     * the search steps per launch with that in mind.) */
#pragma unroll
    for (uint k = 0; k < FM_DW; k++) {
        uint x = k <= full ? d[k] : 0u;
        uint m = k < full ? ~0u : k == full ? (1u << (rem * FM_W)) - 1u : 0u;
        s += fm_bits(fm_eq(x, c) & m);
    }
    cnt += s;
    if (c == 0 && dollar >= blk * FM_B && dollar < i) cnt -= 1;
    return cnt;
}

/* Mask of the first `rem` codes of a word (rem < FM_S). */
static uint fm_prefix_mask(uint rem) { return (1u << (rem * FM_W)) - 1u; }

/* fm_occ at lo and hi (lo <= hi) in the same record: the counter and the
 * data words are read once for both, which is the common case once the
 * search range has narrowed. */
static void fm_occ2(const __global uint *rec, uint rw, idx_t lo, idx_t hi, uint c, idx_t dollar,
                    idx_t *olo, idx_t *ohi)
{
    idx_t blk = lo / FM_B;
    const __global uint *r = rec + blk * rw;
    idx_t cnt = ((const __global idx_t *)r)[c];
    const __global uint *d = r + (rw - FM_DW);
    uint offl = (uint)(lo % FM_B), offh = (uint)(hi % FM_B);
    uint fl = offl / FM_S, rl = offl % FM_S, fh = offh / FM_S, rh = offh % FM_S;
    uint sl = 0, sh = 0;
#pragma unroll
    for (uint k = 0; k < FM_DW; k++) {
        uint e = fm_eq(k <= fh ? d[k] : 0u, c);
        uint ml = k < fl ? ~0u : k == fl ? fm_prefix_mask(rl) : 0u;
        uint mh = k < fh ? ~0u : k == fh ? fm_prefix_mask(rh) : 0u;
        sl += fm_bits(e & ml);
        sh += fm_bits(e & mh);
    }
    idx_t b0 = blk * FM_B;
    int dl = c == 0 && dollar >= b0 && dollar < lo;
    int dh = c == 0 && dollar >= b0 && dollar < hi;
    *olo = cnt + sl - (dl ? 1 : 0);
    *ohi = cnt + sh - (dh ? 1 : 0);
}

static uint fm_code_at(const __global uint *rec, uint rw, idx_t row)
{
    const __global uint *d = rec + (row / FM_B) * rw + (rw - FM_DW);
    uint off = (uint)(row % FM_B);
    return (d[off / FM_S] >> ((off % FM_S) * FM_W)) & FM_MASK;
}

/* ---- build -------------------------------------------------------------------- */

/* Per-work-group byte histogram of text[g*chunk, (g+1)*chunk). */
__kernel void fm_histogram(const __global uchar *text, ulong n, ulong chunk,
                           __global uint *partial, __local uint *h)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint c = lid; c < 256; c += ls) h[c] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong lo = (ulong)get_group_id(0) * chunk;
    ulong hi = lo + chunk < n ? lo + chunk : n;
    for (ulong i = lo + lid; i < hi; i += ls) atomic_inc(&h[text[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint c = lid; c < 256; c += ls) partial[get_group_id(0) * 256 + c] = h[c];
}

/* Packs the codes of the n + 1 rows (divbwt bytes + primary) into the data
 * words of the records; one work-item per data word. */
__kernel void fm_pack(const __global uchar *bwt, idx_t n, idx_t primary,
                      const __global uchar *map, __global uint *rec, uint rw, idx_t nwords)
{
    idx_t w = get_global_id(0);
    if (w >= nwords) return;
    idx_t blk = w / FM_DW;
    uint k = (uint)(w % FM_DW);
    idx_t row = blk * FM_B + (idx_t)k * FM_S;
    uint word = 0;
    for (uint j = 0; j < FM_S; j++, row++) {
        uint code = 0;
        if (row <= n && row != primary) code = map[bwt[row < primary ? row : row - 1]];
        word |= code << (j * FM_W);
    }
    rec[blk * rw + (rw - FM_DW) + k] = word;
}

/* Counters of record b = occurrences of each code within block b alone. */
__kernel void fm_block_counts(__global uint *rec, uint rw, uint sigma, idx_t nrec, idx_t n,
                              idx_t dollar)
{
    idx_t b = get_global_id(0);
    if (b >= nrec) return;
    __global uint *r = rec + b * rw;
    __global idx_t *cnt = (__global idx_t *)r;
    for (uint c = 0; c < sigma; c++) cnt[c] = 0;
    idx_t row0 = b * FM_B;
    for (uint k = 0; k < FM_B && row0 + k <= n; k++) {
        if (row0 + k == dollar) continue;
        uint code = (r[(rw - FM_DW) + k / FM_S] >> ((k % FM_S) * FM_W)) & FM_MASK;
        cnt[code] += 1;
    }
}

/* Exclusive scan of the counters over records, per code, in three steps:
 * chunk sums, a scan of the chunk sums per code, then each chunk rescanned
 * from its offset.  Work-item g serves code g % sigma: neighbours read
 * neighbouring counters. */
__kernel void fm_scan_sums(const __global uint *rec, uint rw, uint sigma, idx_t nrec, idx_t chunk,
                           idx_t nchunks, __global idx_t *sums)
{
    idx_t g = get_global_id(0);
    if (g >= nchunks * sigma) return;
    idx_t q = g / sigma;
    uint c = (uint)(g - q * sigma); /* not g % sigma: Oclgrind cannot check the "freeze" LLVM emits for that pair */
    idx_t lo = q * chunk, hi = lo + chunk < nrec ? lo + chunk : nrec;
    idx_t s = 0;
    for (idx_t b = lo; b < hi; b++) s += ((const __global idx_t *)(rec + b * rw))[c];
    sums[g] = s;
}

__kernel void fm_scan_chunks(__global idx_t *sums, uint sigma, idx_t nchunks)
{
    uint c = get_global_id(0);
    if (c >= sigma) return;
    idx_t run = 0;
    for (idx_t q = 0; q < nchunks; q++) {
        idx_t v = sums[q * sigma + c];
        sums[q * sigma + c] = run;
        run += v;
    }
}

__kernel void fm_scan_apply(__global uint *rec, uint rw, uint sigma, idx_t nrec, idx_t chunk,
                            idx_t nchunks, const __global idx_t *sums)
{
    idx_t g = get_global_id(0);
    if (g >= nchunks * sigma) return;
    idx_t q = g / sigma;
    uint c = (uint)(g - q * sigma); /* not g % sigma: Oclgrind cannot check the "freeze" LLVM emits for that pair */
    idx_t lo = q * chunk, hi = lo + chunk < nrec ? lo + chunk : nrec;
    idx_t run = sums[g];
    for (idx_t b = lo; b < hi; b++) {
        __global idx_t *p = (__global idx_t *)(rec + b * rw) + c;
        idx_t v = *p;
        *p = run;
        run += v;
    }
}

/* Sample marks: bit r%32 of marks[r/32] is set when row r's text position
 * (n for row 0, sa[r-1] otherwise) is a multiple of rate. */
__kernel void fm_marks(const __global idx_t *sa, idx_t n, idx_t rate, __global uint *marks,
                       idx_t nwords)
{
    idx_t w = get_global_id(0);
    if (w >= nwords) return;
    uint bits = 0;
    for (uint k = 0; k < 32; k++) {
        idx_t r = w * 32 + k;
        if (r > n) break;
        idx_t pos = r == 0 ? n : sa[r - 1];
        if (pos % rate == 0) bits |= 1u << k;
    }
    marks[w] = bits;
}

__kernel void fm_mark_pops(const __global uint *marks, idx_t nwords, __global uint *pops)
{
    idx_t w = get_global_id(0);
    if (w < nwords) pops[w] = popcount(marks[w]);
}

static idx_t fm_sample_index(const __global uint *marks, const __global uint *mrank, idx_t r)
{
    uint below = marks[r / 32] & ((1u << (r % 32)) - 1u);
    return (idx_t)mrank[r / 32] + popcount(below);
}

__kernel void fm_samples(const __global idx_t *sa, idx_t n, const __global uint *marks,
                         const __global uint *mrank, __global idx_t *samples)
{
    idx_t r = get_global_id(0);
    if (r > n) return;
    if (!((marks[r / 32] >> (r % 32)) & 1u)) return;
    samples[fm_sample_index(marks, mrank, r)] = r == 0 ? n : sa[r - 1];
}

/* The same marks from rows[j] = the row of position j * rate (the BWT by
 * buckets, host/index/dc_bwt.c), marks zeroed before. */
__kernel void fm_marks_rows(const __global ulong *rows, idx_t count, __global uint *marks)
{
    idx_t j = get_global_id(0);
    if (j < count) atomic_or(&marks[rows[j] / 32], 1u << (rows[j] % 32));
}

__kernel void fm_samples_rows(const __global ulong *rows, idx_t count, idx_t rate,
                              const __global uint *marks, const __global uint *mrank,
                              __global idx_t *samples)
{
    idx_t j = get_global_id(0);
    if (j < count) samples[fm_sample_index(marks, mrank, (idx_t)rows[j])] = j * rate;
}

/* Codes back to divbwt bytes (for saving): one work-item per row. */
__kernel void fm_unpack(const __global uint *rec, uint rw, idx_t n, idx_t primary,
                        const __global uchar *unmap, __global uchar *bwt)
{
    idx_t row = get_global_id(0);
    if (row > n || row == primary) return;
    bwt[row < primary ? row : row - 1] = unmap[fm_code_at(rec, rw, row)];
}

/* ---- queries ------------------------------------------------------------------ */

/* Copies the code map and C table into local memory (every work-item of the
 * group takes part; callers reach it in uniform control flow). */
static void fm_load_tables(const __global uchar *map, const __global idx_t *C, uint sigma,
                           __local uchar *lmap, __local idx_t *lC)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint c = lid; c < 256; c += ls) lmap[c] = map[c];
    for (uint c = lid; c <= sigma; c += ls) lC[c] = C[c];
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Backward search, one work-item per pattern, over at most `budget`
 * pattern bytes per launch (the host relaunches for longer patterns, with
 * skip = bytes already done: llvmpipe stops a work-item's loops after 65535
 * iterations in total).  lo[p], hi[p] hold the row range [lo, hi) of the
 * suffixes starting with the part of pattern p searched so far; cnt[p]
 * gets hi - lo.  map[b] is the code of byte b, or 255 (>= sigma) when b is
 * absent from the text.  The empty pattern gets rows [1, n + 1): every text
 * position, not the $ row. */
__kernel void fm_count(const __global uint *rec, uint rw, const __global idx_t *C,
                       const __global uchar *map, uint sigma, idx_t n, idx_t dollar,
                       const __global uchar *pat, const __global ulong *off, ulong np,
                       ulong skip, ulong budget, __global idx_t *lo_io, __global idx_t *hi_io,
                       __global ulong *cnt_out, __local uchar *lmap, __local idx_t *lC)
{
    fm_load_tables(map, C, sigma, lmap, lC);
    ulong p = get_global_id(0);
    if (p >= np) return;
    ulong a = off[p], e = off[p + 1];
    idx_t lo, hi;
    if (skip == 0) {
        lo = e == a ? 1 : 0;
        hi = n + 1;
    } else {
        lo = lo_io[p];
        hi = hi_io[p];
    }
    ulong k = e - a > skip ? e - skip : a;
    ulong stop = k - a > budget ? k - budget : a;
    for (; k > stop && lo < hi; k--) {
        uint c = lmap[pat[k - 1]];
        if (c >= sigma) { /* absent byte (sigma = 256 has none) */
            lo = hi = 0;
            break;
        }
        idx_t base = lC[c], ol, oh;
        if (lo / FM_B == hi / FM_B) {
            fm_occ2(rec, rw, lo, hi, c, dollar, &ol, &oh);
        } else {
            ol = fm_occ(rec, rw, lo, c, dollar);
            oh = fm_occ(rec, rw, hi, c, dollar);
        }
        lo = base + ol;
        hi = base + oh;
    }
    if (hi < lo) hi = lo;
    lo_io[p] = lo;
    hi_io[p] = hi;
    cnt_out[p] = (ulong)(hi - lo);
}

/* One work-item per occurrence k < total: finds its pattern by binary
 * search in starts, then walks LF from its row to the nearest sampled row.
 * A walk longer than rate steps means an inconsistent index (only possible
 * from a forged file): the position is written as ~0 and the host reports it. */
__kernel void fm_locate(const __global uint *rec, uint rw, const __global idx_t *C,
                        uint sigma, idx_t n, idx_t dollar, idx_t rate,
                        const __global uint *marks, const __global uint *mrank,
                        const __global idx_t *samples, const __global idx_t *lo,
                        const __global ulong *starts, ulong np, ulong total,
                        __global ulong *out, __local uchar *lmap, __local idx_t *lC,
                        const __global uchar *map)
{
    fm_load_tables(map, C, sigma, lmap, lC);
    ulong k = get_global_id(0);
    if (k >= total) return;
    ulong a = 0, b = np; /* largest p with starts[p] <= k */
    while (b - a > 1) {
        ulong m = (a + b) / 2;
        if (starts[m] <= k) a = m;
        else b = m;
    }
    idx_t row = lo[a] + (idx_t)(k - starts[a]);
    ulong steps = 0;
    for (;;) {
        if (row > n) break;
        if ((marks[row / 32] >> (row % 32)) & 1u) break;
        if (row == dollar || steps >= (ulong)rate) {
            row = n + 1;
            break;
        }
        uint c = fm_code_at(rec, rw, row);
        row = lC[c] + fm_occ(rec, rw, row, c, dollar);
        steps++;
    }
    if (row > n) {
        out[k] = ~(ulong)0;
        return;
    }
    out[k] = (ulong)samples[fm_sample_index(marks, mrank, row)] + steps;
}
