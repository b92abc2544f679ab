/* The last doubling passes in one work-group (host/sa/pd_tail.c): once at
 * most `cap` suffixes are unsorted, a pass's key gathers, sort, split, new
 * ranks and compaction need no other work-group, so one launch runs every
 * pass left, with barriers where the host loop needs launches and reads.
 *
 * A slot's key packs (old rank, key2 = rank at p + h plus one or 0 past the
 * end, slot index): sorted, equal (rank, key2) are the new groups, the
 * index finds the suffix in u.  Ranks are SA indexes of a group's first
 * slot, as in the host loop: a slot's new rank is its old group's rank plus
 * the offset of its new group's first slot in the old group.  Every read of
 * u and isa in a pass happens before the barrier that precedes its writes;
 * the next pass reads them after one more (a barrier orders global memory
 * within the work-group). */

#define TAIL_IDX_BITS 12 /* the slot index field: cap <= 4096 */

/* First slot in keys[0, m) whose key is >= x (keys sorted). */
static uint tail_lower(__local const ulong *keys, uint m, ulong x)
{
    uint lo = 0, hi = m;
    while (lo < hi) {
        uint mid = (lo + hi) / 2;
        if (keys[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* keys[0, P) ascending, P a power of two (bitonic network). */
static void tail_sort(__local ulong *keys, uint P)
{
    uint lid = get_local_id(0), wg = get_local_size(0);
    for (uint k = 2; k <= P; k <<= 1)
        for (uint j = k >> 1; j > 0; j >>= 1) {
            for (uint t = lid; t < P / 2; t += wg) {
                uint i = (t / j) * 2 * j + t % j, l = i + j;
                ulong a = keys[i], b = keys[l];
                if ((a > b) == ((i & k) == 0)) {
                    keys[i] = b;
                    keys[l] = a;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
}

/* Whether sorted slot j of m is a group of its own (grp: key >> index bits). */
static int tail_single(__local const ulong *keys, uint m, uint j)
{
    ulong grp = keys[j] >> TAIL_IDX_BITS;
    return (j == 0 || keys[j - 1] >> TAIL_IDX_BITS != grp) &&
           (j + 1 >= m || keys[j + 1] >> TAIL_IDX_BITS != grp);
}

/* Inclusive scan of one count a work-item in counts[0, wg). */
static void tail_scan(__local uint *counts, uint x)
{
    uint lid = get_local_id(0), wg = get_local_size(0);
    counts[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < wg; d <<= 1) {
        uint v = lid >= d ? counts[lid - d] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        counts[lid] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* One work-group.  u: the m unsorted suffixes grouped by rank (top bits
 * are marks, masked); isa: every suffix's rank; direct: sa[rank - base] =
 * suffix for each one that becomes a group of its own; nrank, npos:
 * scratch of m entries; rshift: where the old rank sits in a key (index
 * bits + key2 bits).  status[0] = suffixes left unsorted (0), [1] = passes
 * run, [2] = 1 where h passed n (ranks the device broke), 2 where m > cap. */
__kernel void pd_tail(__global idx_t *u, ulong m, __global idx_t *isa, __global idx_t *sa,
                      int direct, idx_t base, ulong n, ulong h, uint cap, uint rshift,
                      __global idx_t *nrank, __global idx_t *npos, __global uint *status,
                      __local ulong *keys, __local uint *counts)
{
    uint lid = get_local_id(0), wg = get_local_size(0), passes = 0, err = 0;
    const idx_t mask = ~((idx_t)1 << (8 * sizeof(idx_t) - 1));
    if (m > cap) err = 2;
    while (m > 0 && !err) {
        if (h / 2 >= n) {
            err = 1;
            break;
        }
        uint mm = (uint)m, P = 2;
        while (P < mm) P <<= 1;
        for (uint i = lid; i < P; i += wg) {
            ulong key = ~0ul;
            if (i < mm) {
                idx_t p = u[i] & mask;
                ulong q = (ulong)p + h, k2 = q < n ? (ulong)isa[q] + 1 : 0;
                key = (ulong)isa[p] << rshift | k2 << TAIL_IDX_BITS | i;
            }
            keys[i] = key;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        tail_sort(keys, P);
        /* new ranks into the scratch, u and isa only read */
        uint per = (mm + wg - 1) / wg, lo = min(lid * per, mm), hi = min(lo + per, mm), kept = 0;
        for (uint j = lo; j < hi; j++) {
            ulong kj = keys[j], r = kj >> rshift;
            uint first = tail_lower(keys, mm, kj >> TAIL_IDX_BITS << TAIL_IDX_BITS);
            uint old = tail_lower(keys, mm, r << rshift);
            nrank[j] = (idx_t)(r + (first - old));
            npos[j] = u[kj & ((1u << TAIL_IDX_BITS) - 1)] & mask;
            kept += !tail_single(keys, mm, j);
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        tail_scan(counts, kept);
        uint at = counts[lid] - kept;
        m = counts[wg - 1];
        for (uint j = lo; j < hi; j++) {
            idx_t p = npos[j], r = nrank[j];
            isa[p] = r;
            if (!tail_single(keys, mm, j)) u[at++] = p;
            else if (direct) sa[r - base] = p;
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        h *= 2;
        passes++;
    }
    if (lid == 0) {
        status[0] = (uint)m;
        status[1] = passes;
        status[2] = err;
    }
}
