/* Prelude of the radix sort family (radix_sort.cl, radix_onesweep.cl):
 * element types, digits, and the stable local ranking of one tile that both
 * scatters use.  Prepended by the host (clsa__kernel "radix_rank+...").
 *
 * Build options: KEY_BYTES (4|8), VAL_BYTES (0|4|8), ITEMS (keys per
 * work-item, so the per-item arrays live in registers), SUB_BITS (bits per
 * local split round).  A tile is get_local_size(0) * ITEMS keys.  The digit
 * of a pass is (key >> shift) & dmask; dmask + 1 digits (at most 256). */
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

/* ---- histograms (radix_hist, radix_hist_all) ------------------------------ */

/* Loads this work-item's keys of the tile at base: k[j] = keys[base + j *
 * lsize + lid] for j < the returned count (the positions below valid), and
 * folds them into the OR/AND. */
static uint load_keys(const __global key_t *keys, ulong base, uint valid, key_t *k, key_t *or_k,
                      key_t *and_k, uint lid, uint lsize)
{
    uint m = 0;
    for (uint j = 0; j < ITEMS; j++) {
        uint r = j * lsize + lid;
        k[j] = r < valid ? keys[base + r] : 0;
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
#if RANK_REG_COUNTS
    /* The work-item's own counts in registers, four 8-bit counters a word
     * (ITEMS < 256), written once: no read-modify-write of local memory
     * per key, where work-items of different digits meet on one bank. */
    uint packed[(SUB_RADIX + 3) / 4];
    for (uint w = 0; w < (SUB_RADIX + 3) / 4; w++) packed[w] = 0;
    for (uint j = 0; j < ITEMS; j++) {
        uint d = digit_of(k[j], shift, smask), inc = 1u << ((d & 3) * 8);
        for (uint w = 0; w < (SUB_RADIX + 3) / 4; w++) packed[w] += (d >> 2) == w ? inc : 0u;
    }
    for (uint d = 0; d < SUB_RADIX; d++)
        cnt[CPAD(d * lsize + lid)] = (ushort)(packed[d >> 2] >> ((d & 3) * 8) & 0xffu);
#else
    for (uint d = 0; d < SUB_RADIX; d++) cnt[CPAD(d * lsize + lid)] = 0;
    for (uint j = 0; j < ITEMS; j++) cnt[CPAD(digit_of(k[j], shift, smask) * lsize + lid)]++;
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
    for (uint j = 0; j < ITEMS; j++) {
        uint at = CPAD(digit_of(k[j], shift, smask) * lsize + lid);
        uint r = cnt[at];
        cnt[at] = (ushort)(r + 1);
        tile[TPAD(r)] = k[j];
        if (with_perm) perm[TPAD(r)] = p[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Loads the tile at kin[base .. base + valid) (padded to lsize * ITEMS with
 * PAD_KEY) and sorts it stably by the digit (k >> shift) & dmask in local
 * memory: afterwards tile[TPAD(r)] is the r-th key in digit order and, when
 * with_perm, perm[TPAD(r)] its position in the load.  Ends with a barrier. */
static void rank_tile(const __global key_t *kin, ulong base, uint valid, uint shift, uint dmask,
                      __local key_t *tile, __local ushort *perm, __local ushort *cnt,
                      __local uint *wx, __local uint *wy, uint lid, uint lsize, int with_perm)
{
    for (uint j = 0; j < ITEMS; j++) {
        uint r = j * lsize + lid;
        tile[TPAD(r)] = r < valid ? kin[base + r] : PAD_KEY;
    }
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
    barrier(CLK_LOCAL_MEM_FENCE);
    __local val_t *vals = (__local val_t *)tile;
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
