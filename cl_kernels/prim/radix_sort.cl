/* One LSD radix sort pass of the reduce-then-scan path = radix_hist
 * (per-tile digit counts, digit-major table) + an exclusive scan of the
 * table on the host side's clsa__scan + radix_scatter (stable local ranking
 * of the tile, radix_rank.cl, then writes in runs of equal digits, so
 * neighbouring work-items write neighbouring addresses).  Work-groups never
 * wait for each other: the passes are separate launches.  This is the
 * fallback of radix_onesweep.cl (host/prim/radix_sort.c says when). */

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
    ulong base = (ulong)g * lsize * RADIX_ITEMS;
    for (uint d = lid; d <= dmask; d += lsize) cnt[d] = 0;
    if (lid == 0)
        for (uint w = 0; w < 4; w++) lmask[w] = w < 2 ? 0u : ~0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    key_t k[RADIX_ITEMS], or_k = 0, and_k = PAD_KEY;
    uint m = load_keys(keys, base, (uint)min((ulong)lsize * RADIX_ITEMS, n - base), k, &or_k, &and_k,
                       lid, lsize);
    count_digits(k, m, shift, dmask, cnt);
    if (want_masks) local_masks(lmask, or_k, and_k);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = lid; d <= dmask; d += lsize) hist[(ulong)d * nb + g] = cnt[d];
    if (want_masks && lid == 0) global_masks(lmask, masks);
}

/* ---- scatter ---------------------------------------------------------------- */

/* offs: the exclusive scan of radix_hist's table = first output position of
 * digit d for this tile.  Local memory: buf tile_elems(tile) *
 * max(KEY_BYTES, VAL_BYTES) bytes (keys, then values), pbuf tile_elems(tile)
 * ushorts (split rounds with values) or VAL_BYTES bytes (warp ranking with
 * RADIX_VTILE), cnt counter_elems ushorts (RADIX_WARP: the warps'
 * digit counters, (lsize / WARP) * (dmask + 1) uints), wx/wy lsize uints,
 * dbase dmask + 1 uints. */
__kernel void radix_scatter(const __global key_t *kin, __global key_t *kout,
#if VAL_BYTES
                            const __global val_t *vin, __global val_t *vout,
#endif
                            ulong n, uint shift, uint dmask, uint nb, const __global uint *offs,
                            __local ulong *buf, __local ulong *pbuf, __local uint *cnt,
                            __local uint *wx, __local uint *wy, __local uint *dbase)
{
    /* pbuf: the split rounds' permutation, or the warp ranking's value
     * tile (RADIX_VTILE) */
    __local ushort *perm = (__local ushort *)pbuf;
    uint lid = get_local_id(0), lsize = get_local_size(0), g = get_group_id(0);
    ulong base = (ulong)g * lsize * RADIX_ITEMS;
    uint valid = (uint)min((ulong)lsize * RADIX_ITEMS, n - base);
    for (uint d = lid; d <= dmask; d += lsize) dbase[d] = offs[(ulong)d * nb + g];
#if RADIX_WARP
    scatter_warp(kin, kout,
#if VAL_BYTES
                 vin, vout,
#endif
                 base, valid, shift, dmask, buf, pbuf, cnt, wx, wy, dbase, lid, lsize);
#else
    __local key_t *tile = (__local key_t *)buf;
    rank_tile(kin, base, valid, shift, dmask, tile, perm, (__local ushort *)cnt, wx, wy, lid,
              lsize, VAL_BYTES != 0);
    /* Subtract the run starts once (one work-item per present digit). */
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint r = j * lsize + lid;
        if (r < valid) {
            uint d = digit_of(tile[TPAD(r)], shift, dmask);
            if (r == 0 || digit_of(tile[TPAD(r - 1)], shift, dmask) != d) dbase[d] -= r;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    write_tile(kout,
#if VAL_BYTES
               vin, vout, perm,
#endif
               tile, dbase, base, valid, shift, dmask, lid, lsize);
#endif
}
