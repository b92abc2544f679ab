/* Inverse BWT (divbwt convention), 32-bit rows 0..n of the (n+1)-row
 * matrix whose row `primary` ends in the implicit $.
 *
 * psi[r] = row of the suffix one position later than row r's suffix: a
 * stable sort of the last column by byte ($ first; the shared radix sort).  The text is the walk
 * primary, psi(primary), ... (row of suffix 0, 1, ...); it is one cycle of
 * n + 1 rows, cut into pieces at "ruler" rows (a hash of the row picks about
 * one in RULER_GAP, plus the primary).  Each ruler walks to the next one
 * (sequential, O(RULER_GAP) expected), the ruler list is ranked by pointer
 * jumping, and each ruler walks again writing its piece of the text. */

#define NIL 0xffffffffu

static uint is_ruler(uint r, uint primary, uint gap_mask)
{
    uint h = (uint)(((ulong)r * 0x9E3779B97F4A7C15UL) >> 32);
    return r == primary || (h & gap_mask) == 0;
}

/* Last column byte of row r != primary. */
static uchar last_of(__global const uchar *bwt, uint r, uint primary)
{
    return bwt[r < primary ? r : r - 1];
}

/* Sort input for the shared radix sort: 32-bit keys, positions as values. */
__kernel void unbwt_keys(__global const uchar *bwt, ulong n, __global uint *keys,
                         __global uint *vals)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    keys[i] = bwt[i];
    vals[i] = (uint)i;
}

/* sorted: bwt positions in stable byte order -> psi over rows 0..n. */
__kernel void unbwt_psi(__global const uint *sorted, ulong n, uint primary, __global uint *psi)
{
    ulong r = get_global_id(0);
    if (r > n) return;
    if (r == 0) {
        psi[0] = primary;
        return;
    }
    uint v = sorted[r - 1];
    psi[r] = v < primary ? v : v + 1;
}

__kernel void unbwt_ruler_flags(ulong n, uint primary, uint gap_mask, __global uint *flags)
{
    ulong r = get_global_id(0);
    if (r <= n) flags[r] = is_ruler((uint)r, primary, gap_mask);
}

/* ids: exclusive scan of the flags = ruler number of each ruler row. */
__kernel void unbwt_ruler_rows(__global const uint *ids, ulong n, uint primary, uint gap_mask,
                               __global uint *rows)
{
    ulong r = get_global_id(0);
    if (r <= n && is_ruler((uint)r, primary, gap_mask)) rows[ids[r]] = (uint)r;
}

/* Each ruler walks to the next ruler: steps and its number (NIL when the
 * next ruler is the primary, which cuts the cycle into a list).  A walk
 * always ends: at the latest it comes back to its own ruler. */
__kernel void unbwt_walk(__global const uint *psi, __global const uint *ids,
                         __global const uint *rows, uint m, uint primary, uint gap_mask,
                         __global uint *next, __global uint *dist)
{
    uint t = get_global_id(0);
    if (t >= m) return;
    uint r = rows[t], steps = 0;
    do {
        r = psi[r];
        steps++;
    } while (!is_ruler(r, primary, gap_mask));
    dist[t] = steps;
    next[t] = r == primary ? NIL : ids[r];
}

/* One round of pointer jumping (double-buffered): dist becomes the
 * distance to the end of the list (the primary). */
__kernel void unbwt_jump(__global const uint *next, __global const uint *dist, uint m,
                         __global uint *next_out, __global uint *dist_out)
{
    uint t = get_global_id(0);
    if (t >= m) return;
    uint nx = next[t];
    if (nx == NIL) {
        next_out[t] = NIL;
        dist_out[t] = dist[t];
    } else {
        next_out[t] = next[nx];
        dist_out[t] = dist[t] + dist[nx];
    }
}

/* Row r holds suffix (n + 1) - dist_to_primary(r); text[s - 1] is the last
 * column byte of the row of suffix s.  A bwt that is no transform has psi
 * cycles without the primary: their rulers never reach the end of the list
 * (next != NIL after ranking) and write nothing, so no two work-items write
 * one byte; bounds are checked too.  The caller zeroes text first. */
__kernel void unbwt_emit(__global const uint *psi, __global const uint *rows,
                         __global const uint *next, __global const uint *dist, uint m, ulong n,
                         uint primary, uint gap_mask, __global const uchar *bwt,
                         __global uchar *text)
{
    uint t = get_global_id(0);
    if (t >= m || next[t] != NIL) return;
    uint r = rows[t];
    ulong s = (n + 1 - dist[t]) & 0xffffffffUL;
    for (;;) {
        r = psi[r];
        s++;
        if (r == primary) break;
        if (s - 1 < n) text[s - 1] = last_of(bwt, r, primary);
        if (is_ruler(r, primary, gap_mask)) break;
    }
}
