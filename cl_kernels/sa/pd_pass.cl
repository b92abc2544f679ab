/* Prefix doubling, stage 3 (host/sa/pd_pass.c): the doubling keys and
 * the merges of a pass's global sort. */

/* Doubling key of the unsorted suffix at slot i: rank of the suffix h
 * further, + 1; 0 past the end (sorts first). */
__kernel void pd_key2(const __global idx_t *u, const __global idx_t *isa, ulong m, ulong n,
                      ulong h, __global idx_t *keys)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    ulong q = (ulong)u[i] + h;
    keys[i] = q < n ? isa[q] + 1 : 0;
}

/* Current group rank of the suffix at slot i (sort key that restores the
 * group order after the stable sort by pd_key2), or with g > 0 its group
 * number: the last j with ranks[j] <= its rank (ranks: the g groups' ranks,
 * increasing; pd_group_ranks), fewer key bits than the rank when the
 * groups are few. */
__kernel void pd_rank_key(const __global idx_t *u, const __global idx_t *isa, ulong m,
                          __global idx_t *keys, const __global idx_t *ranks, ulong g)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    idx_t r = isa[u[i]];
    if (!g) {
        keys[i] = r;
        return;
    }
    ulong lo = 0, hi = g;
    while (hi - lo > 1) {
        ulong mid = lo + (hi - lo) / 2;
        if (ranks[mid] <= r) lo = mid;
        else hi = mid;
    }
    keys[i] = (idx_t)lo;
}

/* ranks[j] = rank of group j (its first slot starts[j]). */
__kernel void pd_group_ranks(const __global idx_t *u, const __global idx_t *starts,
                             const __global idx_t *isa, ulong g, __global idx_t *ranks)
{
    ulong j = get_global_id(0);
    if (j < g) ranks[j] = isa[u[starts[j]]];
}

/* Key of one sort by (group, key2) when both fit in idx_t: the slots are
 * still in group order, so the group number is scan[i] - 1 (inclusive scan
 * of the head flags). */
__kernel void pd_key_group(const __global idx_t *u, const __global idx_t *isa,
                           const __global uint *scan, ulong m, ulong n, ulong h, uint shift,
                           __global idx_t *keys)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    ulong q = (ulong)u[i] + h;
    idx_t k2 = q < n ? isa[q] + 1 : 0;
    keys[i] = ((idx_t)(scan[i] - 1) << shift) | k2;
}

/* Stable merge of the sorted runs keys[0..a) and keys[a..m) (values
 * alongside) by rank: an element's place is its index in its run plus the
 * elements of the other run before it (smaller keys; equal keys too for
 * the second run).  out gets the values. */
__kernel void pd_merge_halves(const __global idx_t *keys, const __global idx_t *vals, ulong a,
                              ulong m, __global idx_t *out)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    idx_t key = keys[i];
    int first = i < a;
    ulong lo = first ? a : 0, hi = first ? m : a, base = lo;
    while (lo < hi) {
        ulong mid = lo + (hi - lo) / 2;
        idx_t km = keys[mid];
        if (km < key || (!first && km == key)) lo = mid + 1;
        else hi = mid;
    }
    out[(first ? i : i - a) + (lo - base)] = vals[i];
}
