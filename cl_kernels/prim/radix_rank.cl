/* Prelude of the radix sort family (radix_sort.cl, radix_onesweep.cl):
 * element types, digits, and the stable local ranking of one tile that both
 * scatters use.  Prepended by the host (clsa__kernel "radix_rank+...").
 *
 * Build options: KEY_BYTES (4|8), VAL_BYTES (0|4|8), RADIX_ITEMS (keys per
 * work-item, so the per-item arrays live in registers), RADIX_SUB (bits per
 * local split round), RADIX_WARP (0: split rounds; 1, 2: the warp-striped
 * ranking at the end of this file, radix_scatter only).  A tile is
 * get_local_size(0) * RADIX_ITEMS keys.  The digit of a pass is (key >> shift) &
 * dmask; dmask + 1 digits (at most 256). */
#ifndef RADIX_WARP
#define RADIX_WARP 0
#endif
#if KEY_BYTES == 8
typedef ulong key_t;
#else
typedef uint key_t;
#endif
#if VAL_BYTES == 8
typedef ulong val_t;
#elif VAL_BYTES == 4
typedef uint val_t;
#endif

#define SUB_RADIX (1u << RADIX_SUB)

/* Local-memory padding against bank conflicts: one spare element per 32
 * tile entries, so the blocked reads (stride RADIX_ITEMS) spread over the banks,
 * and one per 16 counters, so the row reads of the counter matrix (stride
 * SUB_RADIX) do too.  Host sizes: tile_elems(T) = T + T / 32,
 * counter_elems = 17 * lsize. */
#define TPAD(r) ((r) + ((r) >> 5))
#define CPAD(e) ((e) + ((e) >> 4))

static uint digit_of(key_t k, uint shift, uint dmask) { return (uint)(k >> shift) & dmask; }

/* Keys past n are padded with all-ones: the largest digit of any pass, so
 * they rank after every real key of the tile and are never written. */
#define PAD_KEY ((key_t)~(key_t)0)

/* ---- histograms (radix_hist, radix_hist_all) ------------------------------ */

/* Loads this work-item's keys of the tile at base: k[j] = keys[base + j *
 * lsize + lid] for j < the returned count (the positions below valid), and
 * folds them into the OR/AND. */
static uint load_keys(const __global key_t *keys, ulong base, uint valid, key_t *k, key_t *or_k,
                      key_t *and_k, uint lid, uint lsize)
{
    const __global key_t *src = keys + base + lid;
    if (valid == lsize * RADIX_ITEMS) { /* all tiles but the last: unguarded */
        for (uint j = 0; j < RADIX_ITEMS; j++) {
            k[j] = src[j * lsize];
            *or_k |= k[j];
            *and_k &= k[j];
        }
        return RADIX_ITEMS;
    }
    uint m = 0;
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint r = j * lsize + lid;
        k[j] = r < valid ? src[j * lsize] : 0;
        if (r < valid) {
            *or_k |= k[j];
            *and_k &= k[j];
            m = j + 1;
        }
    }
    return m;
}

/* Adds the digits of k[0 .. m) to the local counters.  Runs of one digit
 * are added once: all-equal or skewed keys (common in the suffix-array
 * passes) would otherwise serialise on one counter. */
static void count_digits(const key_t *k, uint m, uint shift, uint dmask, __local uint *cnt)
{
    uint run_d = 0, run_c = 0;
    for (uint j = 0; j < m; j++) {
        uint d = digit_of(k[j], shift, dmask);
        if (run_c && d != run_d) {
            atomic_add(&cnt[run_d], run_c);
            run_c = 0;
        }
        run_d = d;
        run_c++;
    }
    if (run_c) atomic_add(&cnt[run_d], run_c);
}

/* OR/AND of the keys (low, high word): into the work-group's lmask (set to
 * 0, 0, ~0, ~0 before), then, after a barrier, by one work-item into the
 * global masks. */
static void local_masks(__local uint *lmask, key_t or_k, key_t and_k)
{
    atomic_or(&lmask[0], (uint)or_k);
    atomic_and(&lmask[2], (uint)and_k);
#if KEY_BYTES == 8
    atomic_or(&lmask[1], (uint)(or_k >> 32));
    atomic_and(&lmask[3], (uint)(and_k >> 32));
#endif
}

static void global_masks(const __local uint *lmask, volatile __global uint *masks)
{
    atomic_or(&masks[0], lmask[0]);
    atomic_or(&masks[1], lmask[1]);
    atomic_and(&masks[2], lmask[2]);
    atomic_and(&masks[3], lmask[3]);
}

/* ---- tile ranking ----------------------------------------------------------- */

/* Exclusive scan of one value per work-item; x: lsize uints, y: at least
 * lsize / SCAN_CHUNK + 1 uints.  Chunks of SCAN_CHUNK values are scanned
 * serially by one work-item each, then the chunk totals by one work-item:
 * three barriers whatever lsize is (barriers dominate on CPU devices), and
 * a serial depth of SCAN_CHUNK + lsize / SCAN_CHUNK local accesses. */
#define SCAN_CHUNK 16
static uint group_exclusive_scan(uint v, __local uint *x, __local uint *y, uint lid, uint lsize)
{
    uint nchunks = (lsize + SCAN_CHUNK - 1) / SCAN_CHUNK;
    x[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < nchunks) {
        uint s = 0, end = min(lsize, (lid + 1) * SCAN_CHUNK);
        for (uint i = lid * SCAN_CHUNK; i < end; i++) {
            uint t = x[i];
            x[i] = s;
            s += t;
        }
        y[lid] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        uint s = 0;
        for (uint c = 0; c < nchunks; c++) {
            uint t = y[c];
            y[c] = s;
            s += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return x[lid] + y[lid / SCAN_CHUNK];
}

/* One stable split of the tile by the sub-digit (k >> shift) & smask.
 * Work-item lid holds tile positions lid*RADIX_ITEMS .. +RADIX_ITEMS-1 (blocked), so
 * "digit-major, then work-item, then item" is the original order: the
 * rank of a key is the exclusive scan of the counter matrix cnt[digit][lid]
 * (each work-item counts into its own column: no atomics) plus the keys of
 * the same digit before it in its own run.  Keys (and their original tile
 * positions, perm) are written to tile/perm at their rank. */
static void split_round(key_t *k, ushort *p, __local key_t *tile, __local ushort *perm,
                        __local ushort *cnt, __local uint *wx, __local uint *wy, uint shift,
                        uint smask, uint lid, uint lsize, int with_perm)
{
#if RADIX_REG
    /* The work-item's own counts in registers, four 8-bit counters a word
     * (RADIX_ITEMS < 256), written once: no read-modify-write of local memory
     * per key, where work-items of different digits meet on one bank. */
    uint packed[(SUB_RADIX + 3) / 4];
    for (uint w = 0; w < (SUB_RADIX + 3) / 4; w++) packed[w] = 0;
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint d = digit_of(k[j], shift, smask), inc = 1u << ((d & 3) * 8);
        for (uint w = 0; w < (SUB_RADIX + 3) / 4; w++) packed[w] += (d >> 2) == w ? inc : 0u;
    }
    for (uint d = 0; d < SUB_RADIX; d++)
        cnt[CPAD(d * lsize + lid)] = (ushort)(packed[d >> 2] >> ((d & 3) * 8) & 0xffu);
#else
    for (uint d = 0; d < SUB_RADIX; d++) cnt[CPAD(d * lsize + lid)] = 0;
    for (uint j = 0; j < RADIX_ITEMS; j++) cnt[CPAD(digit_of(k[j], shift, smask) * lsize + lid)]++;
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Flattened scan of the SUB_RADIX * lsize matrix: a row of SUB_RADIX
     * consecutive entries per work-item, then across work-items. */
    uint sum = 0;
    for (uint i = 0; i < SUB_RADIX; i++) sum += cnt[CPAD(lid * SUB_RADIX + i)];
    uint run = group_exclusive_scan(sum, wx, wy, lid, lsize);
    for (uint i = 0; i < SUB_RADIX; i++) {
        uint c = cnt[CPAD(lid * SUB_RADIX + i)];
        cnt[CPAD(lid * SUB_RADIX + i)] = (ushort)run;
        run += c;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint at = CPAD(digit_of(k[j], shift, smask) * lsize + lid);
        uint r = cnt[at];
        cnt[at] = (ushort)(r + 1);
        tile[TPAD(r)] = k[j];
        if (with_perm) perm[TPAD(r)] = p[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Loads the tile at kin[base .. base + valid) (padded to lsize * RADIX_ITEMS with
 * PAD_KEY) and sorts it stably by the digit (k >> shift) & dmask in local
 * memory: afterwards tile[TPAD(r)] is the r-th key in digit order and, when
 * with_perm, perm[TPAD(r)] its position in the load.  Ends with a barrier. */
static void rank_tile(const __global key_t *kin, ulong base, uint valid, uint shift, uint dmask,
                      __local key_t *tile, __local ushort *perm, __local ushort *cnt,
                      __local uint *wx, __local uint *wy, uint lid, uint lsize, int with_perm)
{
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint r = j * lsize + lid;
        tile[TPAD(r)] = r < valid ? kin[base + r] : PAD_KEY;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    key_t k[RADIX_ITEMS];
    ushort p[RADIX_ITEMS];
    uint bits = popcount(dmask);
    for (uint sb = 0; sb < bits; sb += RADIX_SUB) {
        for (uint j = 0; j < RADIX_ITEMS; j++) {
            uint r = lid * RADIX_ITEMS + j;
            k[j] = tile[TPAD(r)];
            p[j] = sb == 0 || !with_perm ? (ushort)r : perm[TPAD(r)];
        }
        uint sbits = min((uint)RADIX_SUB, bits - sb);
        split_round(k, p, tile, perm, cnt, wx, wy, shift + sb, (1u << sbits) - 1, lid, lsize,
                    with_perm);
    }
}

/* The sorted tile's keys to their places: position r of digit d goes to
 * dbase[d] + r (pos[j] for r = j * lsize + lid, 0 past valid). */
static void write_keys(__global key_t *kout, const __local key_t *tile, const __local uint *dbase,
                       uint valid, uint shift, uint dmask, uint lid, uint lsize, uint *pos)
{
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint r = j * lsize + lid;
        pos[j] = 0;
        if (r < valid) {
            key_t key = tile[TPAD(r)];
            pos[j] = dbase[digit_of(key, shift, dmask)] + r;
            kout[pos[j]] = key;
        }
    }
}

/* Writes the sorted tile (rank_tile) to its places: position r of digit d
 * goes to dbase[d] + r, where the caller made dbase[d] = the digit's first
 * output position minus the run's first tile position.  Values follow their
 * keys through the same local buffer (a coalesced load, then a gather by
 * perm in local memory). */
static void write_tile(__global key_t *kout,
#if VAL_BYTES
                       const __global val_t *vin, __global val_t *vout, __local ushort *perm,
#endif
                       __local key_t *tile, const __local uint *dbase, ulong base, uint valid,
                       uint shift, uint dmask, uint lid, uint lsize)
{
    uint pos[RADIX_ITEMS];
    write_keys(kout, tile, dbase, valid, shift, dmask, lid, lsize, pos);
#if VAL_BYTES
    barrier(CLK_LOCAL_MEM_FENCE);
    __local val_t *vals = (__local val_t *)tile;
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint r = j * lsize + lid;
        if (r < valid) vals[TPAD(r)] = vin[base + r];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint r = j * lsize + lid;
        if (r < valid) vout[pos[j]] = vals[TPAD((uint)perm[TPAD(r)])];
    }
#endif
}

#if RADIX_WARP
/* ---- warp-striped ranking (RADIX_WARP 1: NVIDIA, 2: emulated) ---------------
 *
 * One 8-bit round instead of split_round's two 4-bit ones.  Warp w of the
 * work-group owns tile positions [w * WARP * RADIX_ITEMS, (w + 1) * WARP * RADIX_ITEMS),
 * item j of lane l being position w * WARP * RADIX_ITEMS + j * WARP + l, so "warp,
 * item, lane" is the load order.  For each item the lanes of equal digit
 * find each other (warp_match), count the peers before them, and one of them
 * adds the peers to the warp's counter of that digit: a key's rank within
 * its warp and digit, with no counter matrix per work-item.  An exclusive
 * scan of the counters in (digit, warp) order then gives every key its
 * place in the stably sorted tile.
 *
 * RADIX_WARP 1 uses PTX (match.any needs sm_70) on the NVIDIA OpenCL
 * compiler, which keeps local ids 32 * w .. 32 * w + 31 in one hardware
 * warp; the host picks it only where the device reports a warp of 32
 * (cl_nv_device_attribute_query) and falls back to split_round when the
 * kernel does not build.  RADIX_WARP 2 does the same through local memory
 * and work-group barriers: any device runs it (slowly), so the tests check
 * the ranking itself on the CPU implementations. */
#define WARP 32

#if RADIX_WARP == 1
#ifndef RADIX_MATCH
#define RADIX_MATCH 0
#endif
static uint warp_match(uint d, __local uint *x, uint lid)
{
    uint m;
#if RADIX_MATCH == 1 || RADIX_MATCH == 2
    /* One ballot a digit bit: lanes whose digits agree on every bit.
     * match.any is not one instruction on every GPU and its time depends
     * on how many distinct digits the warp holds; eight ballots do not.
     * RADIX_MATCH 2 (sm_80): only the bits that vary in the warp. */
    uint vary = 0xffu;
#if RADIX_MATCH == 2
    uint o, a;
    asm volatile("redux.sync.or.b32 %0, %1, 0xffffffff;" : "=r"(o) : "r"(d));
    asm volatile("redux.sync.and.b32 %0, %1, 0xffffffff;" : "=r"(a) : "r"(d));
    vary = o ^ a;
#endif
    m = 0xffffffffu;
    for (uint b = 0; b < 8; b++) {
        if (!(vary >> b & 1u)) continue; /* the same for the whole warp */
        uint v, bit = d >> b & 1u;
        asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
                     : "=r"(v) : "r"(bit));
        m &= bit ? v : ~v;
    }
#else
    asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(m) : "r"(d));
#endif
    return m;
}
/* v of lane src, to every lane. */
static uint warp_bcast(uint v, uint src, __local uint *x, uint lid)
{
    uint r;
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(src));
    return r;
}
/* Orders the local accesses of the warp's lanes around it. */
static void warp_sync(void) { asm volatile("bar.warp.sync 0xffffffff;" ::: "memory"); }
/* Makes v final where it stands: LLVM would sink a key's rank (a shuffled
 * count plus a popcount) past the scan's barriers to where it is used,
 * keeping its parts live instead of the sum (2-3 registers a key). */
#define PIN(v) asm volatile("" : "+r"(v))
#else
static uint warp_match(uint d, __local uint *x, uint lid)
{
    uint m = 0, w0 = lid & ~(uint)(WARP - 1);
    x[lid] = d;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < WARP; i++) m |= (uint)(x[w0 + i] == d) << i;
    return m;
}
static uint warp_bcast(uint v, uint src, __local uint *x, uint lid)
{
    barrier(CLK_LOCAL_MEM_FENCE); /* x read by warp_match */
    x[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    return x[(lid & ~(uint)(WARP - 1)) + src];
}
/* One of these follows every warp_bcast, so x is read before warp_match
 * writes it again. */
static void warp_sync(void) { barrier(CLK_LOCAL_MEM_FENCE); }
#define PIN(v)
#endif

#if RADIX_WARP == 1
/* Exclusive scan of one value a work-item by warp shuffles: the lanes of
 * each warp, then the warps' totals (x: lsize / WARP uints), two barriers
 * and a dependent chain of ten shuffles instead of group_exclusive_scan's
 * serial chunks. */
static uint warp_excl(uint v, uint lane)
{
    uint s = v;
    for (uint o = 1; o < WARP; o <<= 1) {
        uint t;
        asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(t) : "r"(s), "r"(o));
        if (lane >= o) s += t;
    }
    return s - v;
}
static uint group_scan_shfl(uint v, __local uint *x, uint lid, uint lsize)
{
    uint lane = lid % WARP, w = lid / WARP, nw = lsize / WARP;
    uint ex = warp_excl(v, lane);
    if (lane == WARP - 1) x[w] = ex + v;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint tex = warp_excl(lane < nw ? x[lane] : 0u, lane); /* every warp, the same */
    return ex + warp_bcast(tex, w, x, lid);
}
#endif

/* Tile position of item j of this work-item. */
static uint warp_pos(uint j, uint lid)
{
    return (lid / WARP) * WARP * RADIX_ITEMS + j * WARP + lid % WARP;
}

/* Counter of digit d of warp w: warp-major, so the lanes of one warp meet
 * on a bank only when their digits agree modulo the bank count. */
#define WC(w, d, ndig) ((w) * (ndig) + (d))

/* This work-item's keys of the tile at kin[base .. base + valid), at
 * warp_pos, padded with PAD_KEY (whose digit is the last). */
static void load_warp(const __global key_t *kin, ulong base, uint valid, key_t *k, uint lid)
{
    /* item j is WARP * j past item 0: a full tile (all but the last)
     * loads from one address with constant offsets, unguarded */
    const __global key_t *src = kin + base + warp_pos(0, lid);
    if (valid == get_local_size(0) * RADIX_ITEMS)
        for (uint j = 0; j < RADIX_ITEMS; j++) k[j] = src[j * WARP];
    else
        for (uint j = 0; j < RADIX_ITEMS; j++) k[j] = warp_pos(j, lid) < valid ? src[j * WARP] : PAD_KEY;
}

/* Ranks the keys k[] (load_warp) by digit in two steps.  count_warp:
 * rk[j] = the key's rank among the keys of its digit in its warp (<< 8,
 * the digit in the low byte), and
 * wc[WC(w, d, ndig)] = warp w's count of digit d; wc: (lsize / WARP) *
 * (dmask + 1) uints; x: group_exclusive_scan's scratch (also serves the
 * emulated warp_match); scratch: the tile buffer, unused until the tile is
 * placed (RADIX_MATCH 3's words).  Ends with a barrier. */
static void count_warp(const key_t *k, uint *rk, uint shift, uint dmask, __local uint *wc,
                       __local uint *x, __local ulong *scratch, uint lid, uint lsize)
{
    uint ndig = dmask + 1, nw = lsize / WARP, w = lid / WARP, lane = lid % WARP;
    uint below = (1u << lane) - 1u;
#if RADIX_MATCH == 3
    /* RADIX_MATCH 3: the lanes of a digit meet in a word of local memory
     * (each ORs its bit in; the leader clears the word after the
     * broadcast), as CUB's onesweep ranks; the fastest variant on NVIDIA.
     * The words, ndig per warp, borrow the tile buffer, which holds
     * nothing until the tile is placed (RADIX_ITEMS >= 8: the host).  The same
     * code runs emulated (RADIX_WARP 2), its warp_sync a barrier. */
    __local uint *mm = (__local uint *)scratch;
#endif
    for (uint e = lid; e < ndig * nw; e += lsize) {
        wc[e] = 0;
#if RADIX_MATCH == 3
        mm[e] = 0;
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint d = digit_of(k[j], shift, dmask);
#if RADIX_MATCH == 3
        atomic_or(&mm[WC(w, d, ndig)], 1u << lane);
        warp_sync();
        uint peers = mm[WC(w, d, ndig)];
#else
        uint peers = warp_match(d, x, lid);
#endif
        /* the lowest lane of the digit counts for all of them (its index
         * without clz or ctz: the bits below the lowest set one) */
        uint leader = popcount((peers & (0u - peers)) - 1u), before = 0;
        if ((peers & below) == 0u) {
            before = wc[WC(w, d, ndig)];
            wc[WC(w, d, ndig)] = before + popcount(peers);
        }
        /* the digit rides below the rank (see scan_warp) */
        rk[j] = (warp_bcast(before, leader, x, lid) + popcount(peers & below)) << 8 | d;
        PIN(rk[j]);
#if RADIX_MATCH == 3
        if ((peers & below) == 0u) mm[WC(w, d, ndig)] = 0; /* all lanes read it */
#endif
        warp_sync(); /* the next item's leader of d may be another lane */
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* scan_warp, after count_warp: rk[j] = the key's place in the stably
 * sorted tile, and wc[WC(0, d, ndig)] digit d's first place in it
 * (warp_digit_start); y: group_exclusive_scan's other scratch.  An
 * exclusive scan of the counters in (digit, warp) order: a run of
 * consecutive entries per work-item (ndig * nw / lsize = ndig / WARP), then
 * across work-items.  nw is a power of two: shifts and masks, no division
 * by a value the compiler cannot see (Oclgrind's checker stops on the
 * freeze LLVM emits for one).  No barrier at the end: wc is read-only from
 * here, and the caller's next barrier covers what it writes. */
static void scan_warp(uint *rk, uint dmask, __local uint *wc, __local uint *x, __local uint *y,
                      uint lid, uint lsize)
{
    uint ndig = dmask + 1, nw = lsize / WARP, w = lid / WARP;
    uint ne = ndig * nw, per = (ndig + WARP - 1) / WARP, e0 = min(ne, lid * per),
         e1 = min(ne, e0 + per), sum = 0, wbits = popcount(nw - 1u);
    for (uint e = e0; e < e1; e++) sum += wc[WC(e & (nw - 1u), e >> wbits, ndig)];
#if RADIX_WARP == 1 && RADIX_SHFL
    uint run = group_scan_shfl(sum, x, lid, lsize);
#else
    uint run = group_exclusive_scan(sum, x, y, lid, lsize);
#endif
    for (uint e = e0; e < e1; e++) {
        uint c = wc[WC(e & (nw - 1u), e >> wbits, ndig)];
        wc[WC(e & (nw - 1u), e >> wbits, ndig)] = run;
        run += c;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* The digit from rk, not from k: the counters' addresses of
     * count_warp, which the compiler would otherwise keep for this loop,
     * are not live across the scan (H100: 2 registers a key). */
    for (uint j = 0; j < RADIX_ITEMS; j++) rk[j] = (rk[j] >> 8) + wc[WC(w, rk[j] & 0xffu, ndig)];
}

/* Digit d's first place in the tile scan_warp sorted (warp 0's counter,
 * at index d whatever the digit count). */
static uint warp_digit_start(const __local uint *wc, uint d) { return wc[d]; }

/* The values of the tile, loaded like the keys, through buf to the places
 * of their keys: rk from scan_warp, pos from write_keys.  Starts with a
 * barrier (buf held the keys). */
static void write_values_warp(
#if VAL_BYTES
    const __global val_t *vin, __global val_t *vout,
#endif
    ulong base, uint valid, const uint *rk, const uint *pos, __local ulong *buf, uint lid,
    uint lsize)
{
#if VAL_BYTES
    barrier(CLK_LOCAL_MEM_FENCE);
    __local val_t *vals = (__local val_t *)buf;
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint p = warp_pos(j, lid);
        if (p < valid) vals[TPAD(rk[j])] = vin[base + p];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint r = j * lsize + lid;
        if (r < valid) vout[pos[j]] = vals[TPAD(r)];
    }
#endif
}

#ifndef RADIX_VTILE
#define RADIX_VTILE 0
#endif
#if VAL_BYTES && RADIX_VTILE
/* RADIX_VTILE: the values have a local tile of their own (vtile, the host
 * sizes it where local memory allows).  place_values_warp puts them at
 * their keys' ranks before the caller's barrier; write_tile_warp then
 * writes key and value of each place together: one barrier and one digit
 * lookup a pair fewer, and no output positions kept in registers. */
static void place_values_warp(const __global val_t *vin, ulong base, uint valid, const uint *rk,
                              __local ulong *vtile, uint lid)
{
    __local val_t *vals = (__local val_t *)vtile;
    const __global val_t *src = vin + base + warp_pos(0, lid); /* as load_warp */
    if (valid == get_local_size(0) * RADIX_ITEMS)
        for (uint j = 0; j < RADIX_ITEMS; j++) vals[TPAD(rk[j])] = src[j * WARP];
    else
        for (uint j = 0; j < RADIX_ITEMS; j++)
            if (warp_pos(j, lid) < valid) vals[TPAD(rk[j])] = src[j * WARP];
}
#endif

/* Writes the tile scan_warp sorted into buf (as keys) to its places:
 * position r of digit d goes to dbase[d] + r; then the values (with
 * RADIX_VTILE, already placed in vtile: both at once). */
static void write_tile_warp(__global key_t *kout,
#if VAL_BYTES
                            const __global val_t *vin, __global val_t *vout,
#endif
                            const __local uint *dbase, ulong base, uint valid, uint shift,
                            uint dmask, const uint *rk, __local ulong *buf, __local ulong *vtile,
                            uint lid, uint lsize)
{
#if VAL_BYTES && RADIX_VTILE
    const __local key_t *tile = (const __local key_t *)buf;
    const __local val_t *vals = (const __local val_t *)vtile;
    uint full = valid == lsize * RADIX_ITEMS;
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint r = j * lsize + lid;
        if (full || r < valid) {
            key_t key = tile[TPAD(r)];
            uint at = dbase[digit_of(key, shift, dmask)] + r;
            kout[at] = key;
            vout[at] = vals[TPAD(r)];
        }
    }
#else
    uint pos[RADIX_ITEMS];
    write_keys(kout, (__local key_t *)buf, dbase, valid, shift, dmask, lid, lsize, pos);
    write_values_warp(
#if VAL_BYTES
        vin, vout,
#endif
        base, valid, rk, pos, buf, lid, lsize);
#endif
}

/* Scatter of one tile with the warp ranking: keys through local memory to
 * their sorted places, written out in runs of equal digits; then the
 * values by the same ranks (no permutation array).  dbase[d]: the digit's
 * first output position for this tile. */
static void scatter_warp(const __global key_t *kin, __global key_t *kout,
#if VAL_BYTES
                         const __global val_t *vin, __global val_t *vout,
#endif
                         ulong base, uint valid, uint shift, uint dmask, __local ulong *buf,
                         __local ulong *vtile, __local uint *wc, __local uint *x,
                         __local uint *y, __local uint *dbase, uint lid, uint lsize)
{
    __local key_t *tile = (__local key_t *)buf;
    key_t k[RADIX_ITEMS];
    uint rk[RADIX_ITEMS];
    load_warp(kin, base, valid, k, lid);
    count_warp(k, rk, shift, dmask, wc, x, buf, lid, lsize);
    scan_warp(rk, dmask, wc, x, y, lid, lsize);
    for (uint j = 0; j < RADIX_ITEMS; j++) tile[TPAD(rk[j])] = k[j];
#if VAL_BYTES && RADIX_VTILE
    place_values_warp(vin, base, valid, rk, vtile, lid);
#endif
    for (uint d = lid; d <= dmask; d += lsize) dbase[d] -= warp_digit_start(wc, d);
    barrier(CLK_LOCAL_MEM_FENCE);
    write_tile_warp(kout,
#if VAL_BYTES
                    vin, vout,
#endif
                    dbase, base, valid, shift, dmask, rk, buf, vtile, lid, lsize);
}
#endif
