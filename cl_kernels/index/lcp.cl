/* LCP array through the permuted LCP (PLCP[j] = lcp of suffix j and the
 * suffix before it in suffix order, Phi[j]).  PLCP[j] is "reducible" when
 * text[j-1] == text[Phi[j]-1]: then PLCP[j] = PLCP[j-1] - 1, i.e.
 * V[j] = PLCP[j] + j equals V[j-1].  Only irreducible values are computed
 * by comparing text (their sum is O(n log n); Kärkkäinen, Manzini, Puglisi
 * 2009); V is non-decreasing, so the reducible ones are a prefix maximum.
 * Irreducible comparisons longer than `cap` bytes are finished by many
 * work-items per pair (lcp_long_*), so one long match (all-equal text) does
 * not serialise on one work-item.
 *
 * plcp buffer states: REDUCIBLE; PENDING | partner (irreducible, first cap
 * bytes equal); otherwise the final PLCP value. */

#if CLSA_IDX64
#define PENDING ((idx_t)1 << 63)
#else
#define PENDING ((idx_t)1 << 31)
#endif
#define REDUCIBLE (~(idx_t)0)

static int is_pending(idx_t x) { return x != REDUCIBLE && (x & PENDING) != 0; }

/* First position in [from, to) where suffixes a and b differ, else to. */
static ulong match_from(__global const uchar *text, ulong a, ulong b, ulong from, ulong to)
{
    while (from < to && text[a + from] == text[b + from]) from++;
    return from;
}

/* phi[sa[i]] = sa[i-1]; the smallest suffix has none (n). */
__kernel void lcp_phi(__global const idx_t *sa, ulong n, __global idx_t *phi)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    ulong s = sa[i];
    if (s < n) phi[s] = i == 0 ? (idx_t)n : sa[i - 1];
}

/* In place: phi -> REDUCIBLE / value / PENDING | partner. */
__kernel void lcp_irreducible(__global const uchar *text, ulong n, uint cap,
                              __global idx_t *plcp)
{
    ulong j = get_global_id(0);
    if (j >= n) return;
    ulong p = plcp[j];
    if (p >= n) {
        plcp[j] = 0;
        return;
    }
    if (j > 0 && p > 0 && text[j - 1] == text[p - 1]) {
        plcp[j] = REDUCIBLE;
        return;
    }
    ulong lim = n - max(j, p);
    ulong l = match_from(text, j, p, 0, min(lim, (ulong)cap));
    plcp[j] = l == cap && l < lim ? (PENDING | (idx_t)p) : (idx_t)l;
}

/* Appends pending positions to list, their windows starting after the
 * first cap bytes (up to list_cap; the rest stay pending for the next
 * collection). */
__kernel void lcp_collect(__global const idx_t *plcp, ulong n, __global uint *count,
                          uint list_cap, uint cap, __global idx_t *list, __global idx_t *off)
{
    ulong j = get_global_id(0);
    if (j >= n || !is_pending(plcp[j])) return;
    uint slot = atomic_inc(count);
    if (slot >= list_cap) return;
    list[slot] = (idx_t)j;
    off[slot] = cap;
}

/* Work-item (t, g) compares segment g (seg bytes) of pair t's window,
 * which starts at off[t]; mm = offset of the first difference in the
 * segment (the end of the text counts as one), or seg if none. */
__kernel void lcp_long_compare(__global const uchar *text, ulong n, __global const idx_t *list,
                               uint m, __global const idx_t *off, __global const idx_t *plcp,
                               uint groups, uint seg, __global uint *mm)
{
    ulong gid = get_global_id(0);
    if (gid >= (ulong)m * groups) return;
    /* no gid % groups: LLVM pairs it with the division through a `freeze`
     * that Oclgrind's uninitialised-value checker cannot run */
    ulong t = gid / groups, g = gid - t * groups;
    ulong j = list[t];
    idx_t x = plcp[j];
    if (!is_pending(x)) return;
    ulong p = x & ~PENDING;
    ulong lim = n - max(j, p);
    ulong start = off[t] + g * seg;
    if (start >= lim) { /* an earlier segment holds the end of the text */
        mm[gid] = 0;
        return;
    }
    ulong l = match_from(text, j, p, start, min(start + seg, lim));
    mm[gid] = l < start + seg ? (uint)(l - start) : seg;
}

/* `lanes` work-items per pair (a power of two dividing the group size)
 * find the first segment with a difference: the pair is done, else its
 * window moves on and `remaining` is counted up. */
__kernel void lcp_long_reduce(__global const idx_t *list, uint m, __global idx_t *off,
                              __global idx_t *plcp, uint groups, uint seg, uint lanes,
                              __global const uint *mm, __global uint *remaining,
                              __local uint *best)
{
    uint lid = get_local_id(0);
    ulong t = (get_global_id(0)) / lanes;
    uint lane = lid & (lanes - 1);
    int active = t < m && is_pending(plcp[list[t]]);
    uint b = groups;
    if (active)
        for (uint g = lane; g < groups; g += lanes)
            if (mm[t * groups + g] < seg) {
                b = g;
                break;
            }
    best[lid] = b;
    /* global fence too: every lane read plcp above, lane 0 writes it below */
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint s = lanes / 2; s > 0; s >>= 1) {
        if (lane < s) best[lid] = min(best[lid], best[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!active || lane != 0) return;
    b = best[lid];
    if (b < groups) {
        plcp[list[t]] = off[t] + (idx_t)b * seg + mm[t * groups + b];
    } else {
        off[t] += (idx_t)groups * seg;
        atomic_inc(remaining);
    }
}

/* V[j] = PLCP[j] + j for irreducible j, else 0 (no pending value is left). */
static idx_t v_of(idx_t x, ulong j) { return x == REDUCIBLE ? 0 : x + (idx_t)j; }

/* Inclusive max-scan of x[0..lsize) in local memory (Hillis-Steele, double
 * buffered); returns the exclusive value of this work-item. */
static idx_t max_scan_group(__local idx_t *x, __local idx_t *y, uint lid, uint lsize, idx_t v)
{
    __local idx_t *src = x, *dst = y;
    src[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < lsize; d <<= 1) {
        idx_t s = src[lid];
        if (lid >= d) s = max(s, src[lid - d]);
        dst[lid] = s;
        barrier(CLK_LOCAL_MEM_FENCE);
        __local idx_t *tmp = src;
        src = dst;
        dst = tmp;
    }
    idx_t excl = lid ? src[lid - 1] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    return excl;
}

/* Maximum of V over each tile of lsize * items positions. */
__kernel void lcp_tile_max(__global const idx_t *plcp, ulong n, uint items,
                           __global idx_t *tile_max, __local idx_t *x, __local idx_t *y)
{
    uint lid = get_local_id(0), lsize = get_local_size(0);
    ulong base = (ulong)get_group_id(0) * lsize * items;
    idx_t v = 0;
    for (uint k = 0; k < items; k++) {
        ulong j = base + (ulong)k * lsize + lid; /* coalesced */
        if (j < n) v = max(v, v_of(plcp[j], j));
    }
    idx_t before = max_scan_group(x, y, lid, lsize, v);
    if (lid == lsize - 1) tile_max[get_group_id(0)] = max(before, v);
}

/* One work-group: tile maxima -> exclusive prefix maxima, in place. */
__kernel void lcp_scan_tiles(__global idx_t *tile_max, ulong tiles, __local idx_t *x,
                             __local idx_t *y)
{
    uint lid = get_local_id(0), lsize = get_local_size(0);
    ulong per = (tiles + lsize - 1) / lsize;
    ulong lo = min((ulong)lid * per, tiles), hi = min(lo + per, tiles);
    idx_t v = 0;
    for (ulong k = lo; k < hi; k++) v = max(v, tile_max[k]);
    idx_t run = max_scan_group(x, y, lid, lsize, v);
    for (ulong k = lo; k < hi; k++) {
        idx_t t = tile_max[k];
        tile_max[k] = run;
        run = max(run, t);
    }
}

/* PLCP[j] = (prefix max of V up to j) - j, each work-item over `items`
 * consecutive positions of its tile. */
__kernel void lcp_tile_apply(__global idx_t *plcp, ulong n, uint items,
                             __global const idx_t *tile_prefix, __local idx_t *x,
                             __local idx_t *y)
{
    uint lid = get_local_id(0), lsize = get_local_size(0);
    ulong lo = ((ulong)get_group_id(0) * lsize + lid) * items;
    ulong hi = min(lo + items, n);
    idx_t v = 0;
    for (ulong j = lo; j < hi; j++) v = max(v, v_of(plcp[j], j));
    idx_t carry = max(tile_prefix[get_group_id(0)], max_scan_group(x, y, lid, lsize, v));
    for (ulong j = lo; j < hi; j++) {
        carry = max(carry, v_of(plcp[j], j));
        plcp[j] = carry - (idx_t)j;
    }
}

/* lcp[i] = PLCP[sa[i]], lcp[0] = 0.  lcp may be sa itself (same index). */
__kernel void lcp_gather(__global const idx_t *plcp, __global const idx_t *sa, ulong n,
                         __global idx_t *lcp)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    ulong s = sa[i];
    lcp[i] = i > 0 && s < n ? plcp[s] : 0;
}
