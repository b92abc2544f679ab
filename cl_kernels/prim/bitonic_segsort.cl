/* Bitonic sort of segments in local memory (papers/gpu-ls-prefix-doubling.txt,
 * "Sorting S-type groups", Algorithm 2, Figure 5).
 *
 * A work-group sorts one tile of TILE elements held in local memory, split
 * into slots of 2^k elements: bitonic_small packs TILE >> k segments of one
 * log2 size class per tile (each padded to 2^k with the largest key), so
 * every work-group of a class does the same work; bitonic_block sorts one
 * TILE-long piece of a medium segment (the block sort of the merge sort).
 * Only the key and the element's index within its slot live in local
 * memory; values are gathered from global memory by that index at the end,
 * which keeps TILE large for 8-byte values.  Ties are broken by the index,
 * so the sort is stable and padding (index >= length) stays behind real
 * elements.
 *
 * Types, build options and helpers: segsort_prelude.cl. */
/* Local arrays are indexed with one word of skew per 32, so that the
 * work-items' consecutive chunks (chunk_steps) hit distinct banks. */
#define LI(i) ((i) + ((i) >> 5))

static void compare_exchange(__local key_t *lk, __local uint *li, uint a, uint b)
{
    a = LI(a);
    b = LI(b);
    key_t x = lk[a], y = lk[b];
#if HAS_VALUES
    uint ia = li[a], ib = li[b];
    if (x > y || (x == y && ia > ib)) {
        lk[a] = y;
        lk[b] = x;
        li[a] = ib;
        li[b] = ia;
    }
#else
    (void)li;
    if (x > y) {
        lk[a] = y;
        lk[b] = x;
    }
#endif
}

static void compare_exchange_reg(key_t *x, uint *ix, uint a, uint b)
{
    key_t p = x[a], q = x[b];
#if HAS_VALUES
    uint ia = ix[a], ib = ix[b];
    int sw = p > q || (p == q && ia > ib);
    x[a] = sw ? q : p;
    x[b] = sw ? p : q;
    ix[a] = sw ? ib : ia;
    ix[b] = sw ? ia : ib;
#else
    (void)ix;
    x[a] = min(p, q);
    x[b] = max(p, q);
#endif
}

/* The steps whose pairs lie inside this work-item's chunk of ITEMS
 * consecutive elements, in registers: with full, the whole bitonic sort
 * of sizes 2 .. upto (<= ITEMS); else the half-cleaners of strides
 * ITEMS/2 .. 1 that end a larger merge.  Loops unroll to constant indices. */
static void chunk_steps(__local key_t *lk, __local uint *li, uint upto, int full)
{
    uint base = get_local_id(0) * ITEMS;
    key_t x[ITEMS];
    uint ix[ITEMS];
#pragma unroll
    for (uint e = 0; e < ITEMS; e++) {
        x[e] = lk[LI(base + e)];
#if HAS_VALUES
        ix[e] = li[LI(base + e)];
#endif
    }
    if (full) {
#pragma unroll
        for (uint sz = 2; sz <= ITEMS; sz <<= 1) {
            if (sz > upto) break;
#pragma unroll
            for (uint e = 0; e < ITEMS; e++)
                if ((e ^ (sz - 1)) > e) compare_exchange_reg(x, ix, e, e ^ (sz - 1));
#pragma unroll
            for (uint st = sz >> 2; st > 0; st >>= 1)
#pragma unroll
                for (uint e = 0; e < ITEMS; e++)
                    if (!(e & st)) compare_exchange_reg(x, ix, e, e + st);
        }
    } else {
#pragma unroll
        for (uint st = ITEMS / 2; st > 0; st >>= 1)
#pragma unroll
            for (uint e = 0; e < ITEMS; e++)
                if (!(e & st)) compare_exchange_reg(x, ix, e, e + st);
    }
#pragma unroll
    for (uint e = 0; e < ITEMS; e++) {
        lk[LI(base + e)] = x[e];
#if HAS_VALUES
        li[LI(base + e)] = ix[e];
#endif
    }
}

/* Sorts every 2^k slot of the tile ascending.  The first step of each
 * merge size compares mirrored pairs (a "flip"), so every slot ends up
 * ascending without direction bits.  Sizes up to ITEMS, and the strides
 * below ITEMS of larger sizes, run in registers (chunk_steps); the rest
 * in local memory, a barrier per step. */
static void bitonic_slots(__local key_t *lk, __local uint *li, uint k)
{
    uint lid = get_local_id(0), slot = 1u << k;
    chunk_steps(lk, li, min(slot, (uint)ITEMS), 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint sz = 2 * ITEMS; sz <= slot; sz <<= 1) {
        uint hs = sz >> 1;
        for (uint r = 0; r < ITEMS / 2; r++) {
            uint t = r * WG + lid;
            uint lo = t & (hs - 1);
            uint base = (t - lo) * 2;
            compare_exchange(lk, li, base + lo, base + sz - 1 - lo);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint st = hs >> 1; st >= ITEMS; st >>= 1) {
            for (uint r = 0; r < ITEMS / 2; r++) {
                uint t = r * WG + lid;
                uint a = 2 * t - (t & (st - 1));
                compare_exchange(lk, li, a, a + st);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        chunk_steps(lk, li, 0, 0);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* Element r of this work-item is slot element j = i & (2^k - 1) of a slot
 * whose source starts at sb[r] and destination at db[r], with ln[r] live
 * elements (0: padding only).  Loads, sorts, gathers values, stores. */
static void sort_tile(__global key_t *skeys, __global val_t *svals, __global key_t *dkeys,
                      __global val_t *dvals, const ulong *sb, const ulong *db, const ulong *ln,
                      uint k, __local key_t *lk, __local uint *li)
{
    uint lid = get_local_id(0), mask = (1u << k) - 1;
    for (uint r = 0; r < ITEMS; r++) {
        uint i = r * WG + lid, j = i & mask;
        lk[LI(i)] = j < ln[r] ? key_in(skeys[sb[r] + j]) : KEY_MAX;
#if HAS_VALUES
        li[LI(i)] = j;
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    bitonic_slots(lk, li, k);
#if HAS_VALUES
    val_t v[ITEMS];
    for (uint r = 0; r < ITEMS; r++) {
        uint i = r * WG + lid, j = i & mask;
        if (j < ln[r]) v[r] = svals[sb[r] + li[LI(i)]];
    }
    /* In place (dvals == svals): every gather of the work-group's segments
     * is done before any of them is overwritten. */
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint r = 0; r < ITEMS; r++) {
        uint i = r * WG + lid, j = i & mask;
        if (j < ln[r]) dvals[db[r] + j] = v[r];
    }
#else
    (void)svals;
    (void)dvals;
#endif
    for (uint r = 0; r < ITEMS; r++) {
        uint i = r * WG + lid, j = i & mask;
        if (j < ln[r]) dkeys[db[r] + j] = key_out(lk[LI(i)]);
    }
}

/* S classes, all in one launch.  list[list_first ..]: segment ids grouped
 * by class; info[3c .. 3c+2] for class c (slots of 2^(c+1)): first
 * work-group, first list entry, number of segments. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
bitonic_small(__global key_t *keys, __global val_t *vals,
                            const __global idx_t *offs, const __global idx_t *lens,
                            const __global uint *list, const __global ulong *info, uint nclasses,
                            __local key_t *lk, __local uint *li)
{
    ulong g = get_group_id(0);
    uint c = 0;
    while (c + 1 < nclasses && g >= info[3 * (c + 1)]) c++;
    uint k = c + 1;
    ulong per = TILE >> k;
    ulong first = (g - info[3 * c]) * per, count = info[3 * c + 2];
    ulong sb[ITEMS], ln[ITEMS];
    for (uint r = 0; r < ITEMS; r++) {
        ulong q = first + ((r * WG + get_local_id(0)) >> k);
        sb[r] = 0;
        ln[r] = 0;
        if (q < count) {
            uint s = list[info[3 * c + 1] + q];
            sb[r] = offs[s];
            ln[r] = seg_len(offs, lens, s);
        }
    }
    sort_tile(keys, vals, keys, vals, sb, sb, ln, k, lk, li);
}

/* Block sort of medium segments: work-group g sorts tile t = g -
 * tile_base[m] of segment list[m], m = tile_seg[g].  A segment of T tiles
 * takes ceil(log2 T) merge passes that ping-pong between the segment and
 * its scratch area (tile_base[m] * TILE in skeys/svals); the block sort
 * writes where the passes must start so that the last one lands in place. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
bitonic_block(__global key_t *keys, __global val_t *vals, __global key_t *skeys,
                            __global val_t *svals, const __global idx_t *offs,
                            const __global idx_t *lens, const __global uint *list,
                            const __global uint *tile_base, const __global uint *tile_seg,
                            __local key_t *lk, __local uint *li)
{
    ulong g = get_group_id(0);
    uint m = tile_seg[g];
    uint s = list[m];
    ulong t = g - tile_base[m];
    ulong len = seg_len(offs, lens, s);
    ulong ntiles = (len + TILE - 1) / TILE;
    uint npass = 0;
    while (((ulong)1 << npass) < ntiles) npass++;
    ulong src = (ulong)offs[s] + t * TILE;
    ulong piece = min((ulong)TILE, len - t * TILE);
    int to_scratch = npass & 1;
    ulong dst = to_scratch ? (ulong)tile_base[m] * TILE + t * TILE : src;
    ulong sb[ITEMS], db[ITEMS], ln[ITEMS];
    for (uint r = 0; r < ITEMS; r++) {
        sb[r] = src;
        db[r] = dst;
        ln[r] = piece;
    }
    uint k = 0;
    while ((1u << k) < TILE) k++;
    sort_tile(keys, vals, to_scratch ? skeys : keys, to_scratch ? svals : vals, sb, db, ln, k, lk,
              li);
}
