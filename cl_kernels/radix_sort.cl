/* One LSD radix sort pass = radix_hist (per-tile digit counts, digit-major
 * table) + an exclusive scan of the table on the host side's clsa__scan +
 * radix_scatter (stable local ranking of the tile, then writes in runs of
 * equal digits, so neighbouring work-items write neighbouring addresses).
 *
 * Build options: KEY_BYTES (4|8), VAL_BYTES (0|4|8), ITEMS (keys per
 * work-item, so the per-item arrays live in registers), SUB_BITS (bits per
 * local split round).  A tile is get_local_size(0) * ITEMS keys.  The digit
 * of a pass is (key >> shift) & dmask; dmask + 1 digits (at most 256).
 * Work-groups never wait for each other: the passes are separate launches. */

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

#define SUB_RADIX (1u << SUB_BITS)

/* Local-memory padding against bank conflicts: one spare element per 32
 * tile entries, so the blocked reads (stride ITEMS) spread over the banks,
 * and one per 16 counters, so the row reads of the counter matrix (stride
 * SUB_RADIX) do too.  Host sizes: tile_elems(T) = T + T / 32,
 * counter_elems = 17 * lsize. */
#define TPAD(r) ((r) + ((r) >> 5))
#define CPAD(e) ((e) + ((e) >> 4))

static uint digit_of(key_t k, uint shift, uint dmask) { return (uint)(k >> shift) & dmask; }

/* Keys past n are padded with all-ones: the largest digit of any pass, so
 * they rank after every real key of the tile and are never written. */
#define PAD_KEY ((key_t)~(key_t)0)

/* ---- histogram --------------------------------------------------------------
 * hist[d * nb + tile] = number of keys of digit d in the tile.  Counting with
 * local atomics is order-independent, so the table is deterministic.  With
 * want_masks, also ORs/ANDs every key into masks[0..1] / masks[2..3] (low,
 * high word) so the host can skip digits that are constant over all keys. */
__kernel void radix_hist(const __global key_t *keys, ulong n, uint shift, uint dmask, uint nb,
                         __global uint *hist, __local uint *cnt, int want_masks,
                         volatile __global uint *masks)
{
    __local uint lmask[4];
    uint lid = get_local_id(0), lsize = get_local_size(0), g = get_group_id(0);
    ulong base = (ulong)g * lsize * ITEMS;
    for (uint d = lid; d <= dmask; d += lsize) cnt[d] = 0;
    if (lid == 0)
        for (uint w = 0; w < 4; w++) lmask[w] = w < 2 ? 0u : ~0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Runs of one digit are added once: all-equal or skewed keys (common in
     * the suffix-array passes) would otherwise serialise on one counter. */
    key_t or_k = 0, and_k = PAD_KEY;
    uint run_d = 0, run_c = 0;
    for (uint j = 0; j < ITEMS; j++) {
        ulong i = base + (ulong)j * lsize + lid;
        if (i < n) {
            key_t k = keys[i];
            or_k |= k;
            and_k &= k;
            uint d = digit_of(k, shift, dmask);
            if (run_c && d != run_d) {
                atomic_add(&cnt[run_d], run_c);
                run_c = 0;
            }
            run_d = d;
            run_c++;
        }
    }
    if (run_c) atomic_add(&cnt[run_d], run_c);
    if (want_masks) {
        atomic_or(&lmask[0], (uint)or_k);
        atomic_and(&lmask[2], (uint)and_k);
#if KEY_BYTES == 8
        atomic_or(&lmask[1], (uint)(or_k >> 32));
        atomic_and(&lmask[3], (uint)(and_k >> 32));
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = lid; d <= dmask; d += lsize) hist[(ulong)d * nb + g] = cnt[d];
    if (want_masks && lid == 0) {
        atomic_or(&masks[0], lmask[0]);
        atomic_or(&masks[1], lmask[1]);
        atomic_and(&masks[2], lmask[2]);
        atomic_and(&masks[3], lmask[3]);
    }
}

/* ---- scatter ---------------------------------------------------------------- */

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
 * Work-item lid holds tile positions lid*ITEMS .. +ITEMS-1 (blocked), so
 * "digit-major, then work-item, then item" is the original order: the
 * rank of a key is the exclusive scan of the counter matrix cnt[digit][lid]
 * (each work-item counts into its own column: no atomics) plus the keys of
 * the same digit before it in its own run.  Keys (and their original tile
 * positions, perm) are written to tile/perm at their rank. */
static void split_round(key_t *k, ushort *p, __local key_t *tile, __local ushort *perm,
                        __local ushort *cnt, __local uint *wx, __local uint *wy, uint shift,
                        uint smask, uint lid, uint lsize, int with_perm)
{
    for (uint d = 0; d < SUB_RADIX; d++) cnt[CPAD(d * lsize + lid)] = 0;
    for (uint j = 0; j < ITEMS; j++) cnt[CPAD(digit_of(k[j], shift, smask) * lsize + lid)]++;
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
    for (uint j = 0; j < ITEMS; j++) {
        uint at = CPAD(digit_of(k[j], shift, smask) * lsize + lid);
        uint r = cnt[at];
        cnt[at] = (ushort)(r + 1);
        tile[TPAD(r)] = k[j];
        if (with_perm) perm[TPAD(r)] = p[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* offs: the exclusive scan of radix_hist's table = first output position of
 * digit d for this tile.  Local memory: buf tile_elems(tile) *
 * max(KEY_BYTES, VAL_BYTES) bytes (keys, then values), perm tile_elems(tile)
 * ushorts (with values), cnt counter_elems ushorts, wx/wy lsize uints,
 * dbase dmask + 1 uints. */
__kernel void radix_scatter(const __global key_t *kin, __global key_t *kout,
#if VAL_BYTES
                            const __global val_t *vin, __global val_t *vout,
#endif
                            ulong n, uint shift, uint dmask, uint nb, const __global uint *offs,
                            __local ulong *buf, __local ushort *perm, __local ushort *cnt,
                            __local uint *wx, __local uint *wy, __local uint *dbase)
{
    uint lid = get_local_id(0), lsize = get_local_size(0), g = get_group_id(0);
    uint tsize = lsize * ITEMS;
    ulong base = (ulong)g * tsize;
    uint valid = (uint)min((ulong)tsize, n - base);
    __local key_t *tile = (__local key_t *)buf;
    int with_perm = VAL_BYTES != 0;

    for (uint j = 0; j < ITEMS; j++) {
        uint r = j * lsize + lid;
        tile[TPAD(r)] = r < valid ? kin[base + r] : PAD_KEY;
    }
    for (uint d = lid; d <= dmask; d += lsize) dbase[d] = offs[(ulong)d * nb + g];
    barrier(CLK_LOCAL_MEM_FENCE);

    key_t k[ITEMS];
    ushort p[ITEMS];
    uint bits = popcount(dmask);
    for (uint sb = 0; sb < bits; sb += SUB_BITS) {
        for (uint j = 0; j < ITEMS; j++) {
            uint r = lid * ITEMS + j;
            k[j] = tile[TPAD(r)];
            p[j] = sb == 0 || !with_perm ? (ushort)r : perm[TPAD(r)];
        }
        uint sbits = min((uint)SUB_BITS, bits - sb);
        split_round(k, p, tile, perm, cnt, wx, wy, shift + sb, (1u << sbits) - 1, lid, lsize,
                    with_perm);
    }

    /* The tile is now sorted by digit.  Position r of digit d goes to
     * dbase[d] + (r - first position of d in the tile): subtract the run
     * starts once (one work-item per present digit). */
    for (uint j = 0; j < ITEMS; j++) {
        uint r = j * lsize + lid;
        if (r < valid) {
            uint d = digit_of(tile[TPAD(r)], shift, dmask);
            if (r == 0 || digit_of(tile[TPAD(r - 1)], shift, dmask) != d) dbase[d] -= r;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint pos[ITEMS];
    for (uint j = 0; j < ITEMS; j++) {
        uint r = j * lsize + lid;
        pos[j] = 0;
        if (r < valid) {
            key_t key = tile[TPAD(r)];
            pos[j] = dbase[digit_of(key, shift, dmask)] + r;
            kout[pos[j]] = key;
        }
    }
#if VAL_BYTES
    /* Values follow their keys through the same local buffer: a coalesced
     * load, then a gather by perm in local memory. */
    barrier(CLK_LOCAL_MEM_FENCE);
    __local val_t *vals = (__local val_t *)buf;
    for (uint j = 0; j < ITEMS; j++) {
        uint r = j * lsize + lid;
        if (r < valid) vals[TPAD(r)] = vin[base + r];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < ITEMS; j++) {
        uint r = j * lsize + lid;
        if (r < valid) vout[pos[j]] = vals[TPAD((uint)perm[TPAD(r)])];
    }
#endif
}
