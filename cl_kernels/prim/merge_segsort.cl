/* Merge-path segmented merge sort of medium segments
 * (papers/skew-and-prefix-doubling-segmented-sort-bwt-fm.txt, section 4.2,
 * Figure 6).  Each segment is cut into tiles of TILE elements that never
 * cross a segment boundary; bitonic_block (bitonic_segsort.cl) sorts the
 * tiles, then pass p merges runs of TILE << p pairwise.  Work-group g
 * always produces output tile g, whose merge-path split is found by binary
 * search, so every work-group does the same amount of work whatever the
 * segment sizes.  A segment of T tiles is done after ceil(log2 T) passes;
 * its tiles exit at once in later passes (early exit).  Passes ping-pong
 * between the segment (keys/vals) and its scratch area (skeys/svals at
 * tile_base[m] * TILE), starting on the side that makes the last pass
 * write in place.  Ties take the left run first: stable.
 *
 * Types, build options and helpers: segsort_prelude.cl. */

/* Number of elements of a[0..na) among the first d of merge(a, b).  The
 * search starts at 0 rather than at d - nb (positions past b's end count
 * as taken from a): Oclgrind cannot run the saturating subtraction that
 * clang makes of the usual lower bound. */
static ulong path_global(const __global key_t *a, ulong na, const __global key_t *b, ulong nb,
                         ulong d)
{
    ulong lo = 0, hi = min(d, na);
    while (lo < hi) {
        ulong mid = (lo + hi) >> 1, j = d - 1 - mid;
        if (j >= nb || key_in(a[mid]) <= key_in(b[j])) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static uint path_local(const __local key_t *a, uint na, const __local key_t *b, uint nb, uint d)
{
    uint lo = 0, hi = min(d, na);
    while (lo < hi) {
        uint mid = (lo + hi) >> 1, j = d - 1 - mid;
        if (j >= nb || a[mid] <= b[j]) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Tiles per medium segment (the scan of these is tile_base). */
__kernel void merge_count_tiles(const __global idx_t *offs, const __global idx_t *lens,
                                const __global uint *list, ulong count, __global uint *ntiles)
{
    ulong m = get_global_id(0);
    if (m < count) ntiles[m] = (uint)((seg_len(offs, lens, list[m]) + TILE - 1) / TILE);
}

/* tile_seg[g] = m for every tile g of segment m. */
__kernel void merge_expand_tiles(const __global uint *ntiles, const __global uint *tile_base,
                                 ulong count, __global uint *tile_seg)
{
    ulong m = get_global_id(0);
    if (m >= count) return;
    uint b = tile_base[m];
    for (uint t = 0; t < ntiles[m]; t++) tile_seg[b + t] = (uint)m;
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
merge_pass(__global key_t *keys, __global val_t *vals, __global key_t *skeys,
                         __global val_t *svals, const __global idx_t *offs,
                         const __global idx_t *lens, const __global uint *list,
                         const __global uint *tile_base, const __global uint *tile_seg, uint pass,
                         __local key_t *lk, __local uint *lsrc, __local ulong *split)
{
    uint lid = get_local_id(0);
    ulong g = get_group_id(0);
    uint m = tile_seg[g];
    uint s = list[m];
    ulong len = seg_len(offs, lens, s);
    ulong ntiles = (len + TILE - 1) / TILE;
    uint npass = 0;
    while (((ulong)1 << npass) < ntiles) npass++;
    if (pass >= npass) return; /* segment done: the whole work-group leaves */

    int from_scratch = (npass - pass) & 1;
    ulong home = offs[s], away = (ulong)tile_base[m] * TILE;
    const __global key_t *sk = from_scratch ? skeys : keys;
    const __global val_t *sv = from_scratch ? svals : vals;
    __global key_t *dk = from_scratch ? keys : skeys;
    __global val_t *dv = from_scratch ? vals : svals;
    ulong sbase = from_scratch ? away : home, dbase = from_scratch ? home : away;

    ulong w = (ulong)TILE << pass;
    ulong o0 = (g - tile_base[m]) * TILE;
    ulong a = o0 / (2 * w) * (2 * w);
    ulong nl = min(w, len - a), nr = min(w, len - a - nl);
    ulong d0 = o0 - a, d1 = min(d0 + TILE, nl + nr);
    const __global key_t *L = sk + sbase + a, *R = L + nl;
    if (lid < 2) split[lid] = path_global(L, nl, R, nr, lid ? d1 : d0);
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong i0 = split[0], i1 = split[1];
    ulong j0 = d0 - i0;
    uint na = (uint)(i1 - i0), cnt = (uint)(d1 - d0), nb = cnt - na;
    for (uint r = 0; r < ITEMS; r++) {
        uint x = r * WG + lid;
        if (x < na) lk[x] = key_in(L[i0 + x]);
        else if (x < cnt) lk[x] = key_in(R[j0 + x - na]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    uint dg = min(lid * ITEMS, cnt), de = min(dg + ITEMS, cnt);
    uint ia = path_local(lk, na, lk + na, nb, dg), ib = dg - ia;
    for (uint d = dg; d < de; d++) {
        int take_a = ib >= nb || (ia < na && lk[ia] <= lk[na + ib]);
        lsrc[d] = take_a ? ia++ : na + ib++;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint r = 0; r < ITEMS; r++) {
        uint x = r * WG + lid;
        if (x >= cnt) continue;
        uint src = lsrc[x];
        dk[dbase + o0 + x] = key_out(lk[src]);
#if HAS_VALUES
        ulong from = src < na ? sbase + a + i0 + src : sbase + a + nl + j0 + (src - na);
        dv[dbase + o0 + x] = sv[from];
#else
        (void)sv;
        (void)dv;
#endif
    }
}
