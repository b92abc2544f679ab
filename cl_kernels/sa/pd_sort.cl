/* Prefix doubling, the group sorts of stage 3 (host/sa/pd_sort.c), after
 * groups.cl. */

/* ---- length classes of the unsorted groups ----------------------------------
 * Group j occupies slots [starts[j], end) with end = starts[j + 1] (or m).
 * Tiny (<= GRP_TINY slots): one work-item sorts it in private memory.
 * Class c < nclass: (GRP_TINY << c, GRP_TINY << (c + 1)] slots, one
 * work-group sorts it in local memory (bitonic, padded to a power of two).
 * Class nclass: longer than R1 = GRP_TINY << nclass (sorted by the host's
 * choice of radix or segmented sort).  Class lists are filled through one
 * global atomic per work-group and class; their order does not matter. */

static ulong grp_len(const __global idx_t *starts, ulong g, ulong m, ulong j)
{
    ulong e = j + 1 < g ? (ulong)starts[j + 1] : m;
    return e - (ulong)starts[j];
}

/* Where class c's list starts in lists[]: each class has room for every
 * group that could be in it. */
static ulong grp_region(ulong m, uint c, uint nclass)
{
    ulong off = 0;
    for (uint i = 0; i < c && i < nclass; i++) off += m / ((ulong)GRP_TINY << i) + 1;
    return off;
}

/* counts[c] = groups of class c (c <= nclass); counts[nclass + 1] = slots
 * in class nclass.  lc, lb: nclass + 1 uints of local memory. */
__kernel void grp_classify(const __global idx_t *starts, ulong g, ulong m, uint nclass,
                           __global uint *counts, __global uint *lists, __local uint *lc,
                           __local uint *lb)
{
    ulong j = get_global_id(0);
    uint lid = get_local_id(0);
    for (uint c = lid; c <= nclass; c += get_local_size(0)) lc[c] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int c = -1;
    uint li = 0;
    if (j < g) {
        ulong len = grp_len(starts, g, m, j);
        if (len > GRP_TINY) {
            c = 0;
            while (c < (int)nclass && len > ((ulong)GRP_TINY << (c + 1))) c++;
            li = atomic_inc(&lc[c]);
            if (c == (int)nclass) atomic_add(&counts[nclass + 1], (uint)len);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = lid; k <= nclass; k += get_local_size(0))
        lb[k] = lc[k] ? atomic_add(&counts[k], lc[k]) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (c >= 0) lists[grp_region(m, (uint)c, nclass) + lb[c] + li] = (uint)j;
}

/* The boundary flag of sorted slot i of a group whose keys are k (see
 * grp_split_bits): flag where slot i starts a new group. */
#define grp_new_flag(k, i, flag) ((i) == 0 || (k)[(i) - 1] != (k)[i] ? (flag) : (idx_t)0)

/* Tiny groups: gather the keys, insertion sort in private memory.  flag
 * (GRP_TOP or 0): marked in u where a new group starts (grp_split_bits). */
static void grp_tiny_one(const __global idx_t *starts, ulong g, ulong m, ulong n, ulong h,
                         const __global idx_t *isa, __global idx_t *u, idx_t flag, ulong j)
{
    if (j >= g) return;
    ulong s = starts[j], len = grp_len(starts, g, m, j);
    if (len > GRP_TINY) return;
    idx_t k[GRP_TINY], v[GRP_TINY];
    for (uint i = 0; i < (uint)len; i++) {
        idx_t p = u[s + i];
        idx_t key = grp_key2(isa, n, h, p);
        uint q = i;
        while (q > 0 && k[q - 1] > key) {
            k[q] = k[q - 1];
            v[q] = v[q - 1];
            q--;
        }
        k[q] = key;
        v[q] = p;
    }
    for (uint i = 0; i < (uint)len; i++) u[s + i] = v[i] | grp_new_flag(k, i, flag);
}

__kernel void grp_sort_tiny(const __global idx_t *starts, ulong g, ulong m, ulong n, ulong h,
                            const __global idx_t *isa, __global idx_t *u, idx_t flag)
{
    grp_tiny_one(starts, g, m, n, h, isa, u, flag, get_global_id(0));
}

/* Component j of v (a switch: no address of a vector taken). */
static uint grp_lane(uint8 v, uint j)
{
    switch (j) {
    case 0: return v.s0;
    case 1: return v.s1;
    case 2: return v.s2;
    case 3: return v.s3;
    case 4: return v.s4;
    case 5: return v.s5;
    case 6: return v.s6;
    default: return v.s7;
    }
}

/* Groups of classes cls0 .. cls0 + 7 (class c: P = GRP_TINY << (c + 1)
 * slots) sorted in local memory, one launch for all: class cls0 + j takes
 * the work-groups from firsts[j] on (firsts ascending; a class with no
 * groups shares the next one's first) and holds counts[j] groups.  Teams
 * of min(P / 2, local size) work-items, local_size / team groups per
 * work-group (short groups would leave most of a work-group idle), so
 * every class of one launch needs the same local memory where P / 2 <=
 * local size: 2 x local size keys and values.  Keys gathered straight
 * into local memory (no key array in global memory), bitonic sort over P,
 * padding keys sort last; flag as in grp_sort_tiny.  The work-groups from
 * tiny_from on do grp_sort_tiny's work instead (one launch fewer), a
 * work-item a group. */
__kernel void grp_sort_local(const __global uint *lists, uint cls0, uint8 firsts, uint8 counts,
                             uint nclass, const __global idx_t *starts, ulong g, ulong m, ulong n,
                             ulong h, const __global idx_t *isa, __global idx_t *u,
                             __local idx_t *lk_all, __local idx_t *lv_all, idx_t flag,
                             uint tiny_from)
{
    uint lid = get_local_id(0), wgid = (uint)get_group_id(0), lsize = get_local_size(0), j = 0;
    if (wgid >= tiny_from) { /* the whole work-group: no barrier is left waiting */
        grp_tiny_one(starts, g, m, n, h, isa, u, flag, (ulong)(wgid - tiny_from) * lsize + lid);
        return;
    }
    for (uint c = 1; c < 8; c++)
        if (grp_lane(firsts, c) <= wgid) j = c;
    uint cls = cls0 + j, count = grp_lane(counts, j);
    uint P = GRP_TINY << (cls + 1), team = min(P / 2, lsize);
    /* team is a power of two: shifts and masks, no division (Oclgrind's
     * uninitialized-value checker stops on the freeze LLVM emits for a
     * division by a kernel argument) */
    uint tshift = 31 - clz(team);
    uint sub = lid >> tshift, tl = lid & (team - 1);
    uint gi = (wgid - grp_lane(firsts, j)) * (lsize >> tshift) + sub;
    int valid = gi < count;
    __local idx_t *lk = lk_all + sub * P, *lv = lv_all + sub * P;
    ulong s = 0;
    uint len = 0;
    if (valid) {
        ulong jg = lists[grp_region(m, cls, nclass) + gi];
        s = starts[jg];
        len = (uint)grp_len(starts, g, m, jg);
    }
    for (uint i = tl; i < P; i += team) {
        if (i < len) {
            idx_t p = u[s + i];
            lv[i] = p;
            lk[i] = grp_key2(isa, n, h, p);
        } else {
            lv[i] = 0;
            lk[i] = (idx_t)-1;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 2; k <= P; k <<= 1) {
        for (uint d = k >> 1; d > 0; d >>= 1) {
            for (uint t = tl; t < P / 2; t += team) {
                uint a = ((t & ~(d - 1)) << 1) | (t & (d - 1)), b = a + d;
                idx_t ka = lk[a], kb = lk[b];
                if ((ka > kb) == ((a & k) == 0)) {
                    idx_t va = lv[a];
                    lk[a] = kb;
                    lk[b] = ka;
                    lv[a] = lv[b];
                    lv[b] = va;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    for (uint i = tl; i < len; i += team) u[s + i] = lv[i] | grp_new_flag(lk, i, flag);
}

/* First slot of the i-th group of class nclass, *len its length. */
static idx_t grp_large_at(const __global uint *lists, uint nclass, const __global idx_t *starts,
                          ulong g, ulong m, ulong i, ulong *len)
{
    ulong j = lists[grp_region(m, nclass, nclass) + i];
    *len = grp_len(starts, g, m, j);
    return starts[j];
}

/* Offsets and lengths of the groups of class nclass (for the segmented sort). */
__kernel void grp_large_bounds(const __global uint *lists, uint nclass, ulong count,
                               const __global idx_t *starts, ulong g, ulong m,
                               __global idx_t *offs, __global idx_t *lens)
{
    ulong i = get_global_id(0), len;
    if (i >= count) return;
    offs[i] = grp_large_at(lists, nclass, starts, g, m, i, &len);
    lens[i] = (idx_t)len;
}

/* ---- groups longer than R1 sorted together ----------------------------------
 * The C groups of class nclass, compacted in list order into L slots, go
 * through two stable radix sorts over their suffixes only (the other
 * groups are sorted in local memory): by key2 carrying each suffix's
 * compacted position j, then by the long group of j carrying the suffix.
 * offs[i]: first slot of the i-th long group; spans[i] its length (uint,
 * for clsa__scan), turned into the exclusive scan cstart by the host. */
__kernel void grp_large_spans(const __global uint *lists, uint nclass, ulong count,
                              const __global idx_t *starts, ulong g, ulong m,
                              __global idx_t *offs, __global uint *spans)
{
    ulong i = get_global_id(0), len;
    if (i >= count) return;
    offs[i] = grp_large_at(lists, nclass, starts, g, m, i, &len);
    spans[i] = (uint)len;
}

/* The long group of compacted position j: the last i with cstart[i] <= j
 * (cstart strictly increasing, cstart[0] = 0). */
static uint grp_large_of(const __global uint *cstart, uint count, uint j)
{
    uint lo = 0, hi = count;
    while (hi - lo > 1) {
        uint mid = lo + (hi - lo) / 2;
        if (cstart[mid] <= j) lo = mid;
        else hi = mid;
    }
    return lo;
}

static ulong grp_large_slot(const __global idx_t *offs, const __global uint *cstart, uint i,
                            uint j)
{
    return (ulong)offs[i] + (j - cstart[i]);
}

/* keys[j] = key2 of the suffix at compacted position j, vals[j] = j. */
__kernel void grp_large_keys(const __global idx_t *u, const __global idx_t *isa, ulong n, ulong h,
                             const __global idx_t *offs, const __global uint *cstart, uint count,
                             uint total, __global idx_t *keys, __global idx_t *vals)
{
    uint j = (uint)get_global_id(0);
    if (j >= total) return;
    idx_t p = u[grp_large_slot(offs, cstart, grp_large_of(cstart, count, j), j)];
    keys[j] = grp_key2(isa, n, h, p);
    vals[j] = j;
}

/* The long groups in one sort where the group number and key2 fit one
 * key (pd_sort.c long_sorts): keys[j] = the long group of j above key2's kb
 * bits, vals[j] = the suffix itself (no regroup by position). */
__kernel void grp_large_joint_keys(const __global idx_t *u, const __global idx_t *isa, ulong n,
                                   ulong h, const __global idx_t *offs,
                                   const __global uint *cstart, uint count, uint total, uint kb,
                                   __global idx_t *keys, __global idx_t *vals)
{
    uint j = (uint)get_global_id(0);
    if (j >= total) return;
    uint i = grp_large_of(cstart, count, j);
    idx_t p = u[grp_large_slot(offs, cstart, i, j)];
    /* i > 0 only with two long groups or more, whose number takes a bit:
     * kb < the key's width there */
    keys[j] = grp_key2(isa, n, h, p) | (i ? (idx_t)i << kb : (idx_t)0);
    vals[j] = p;
}

/* After the joint sort: the suffixes back to their groups' slots, | flag
 * where the key differs from the one before (a new group starts). */
__kernel void grp_large_joint_put(const __global idx_t *keys, const __global idx_t *vals,
                                  const __global idx_t *offs, const __global uint *cstart,
                                  uint count, uint total, __global idx_t *u, idx_t flag)
{
    uint k = (uint)get_global_id(0);
    if (k >= total) return;
    int same = k > 0 && keys[k - 1] == keys[k];
    u[grp_large_slot(offs, cstart, grp_large_of(cstart, count, k), k)] =
        vals[k] | (same ? (idx_t)0 : flag);
}

/* After the sort by key2 (keys, vals): gk[k] = the long group of position
 * vals[k], gv[k] = its suffix (u is not written yet), | flag where it
 * starts a new group.  Suffixes of equal key2 are in position order, so
 * of one long group together: the suffix before it in its group after
 * the (stable) sort by group is the one before it here exactly when both
 * key2 and the group agree. */
__kernel void grp_large_regroup(const __global idx_t *u, const __global idx_t *offs,
                                const __global uint *cstart, uint count, uint total,
                                const __global idx_t *keys, const __global idx_t *vals,
                                __global idx_t *gk, __global idx_t *gv, idx_t flag)
{
    uint k = (uint)get_global_id(0);
    if (k >= total) return;
    /* positions clamped: after a single pass's fault (read by the host
     * once both sorts ran) vals may hold anything */
    uint j = min((uint)vals[k], total - 1), i = grp_large_of(cstart, count, j);
    int same = k > 0 && keys[k - 1] == keys[k] &&
               grp_large_of(cstart, count, min((uint)vals[k - 1], total - 1)) == i;
    gk[k] = i;
    gv[k] = u[grp_large_slot(offs, cstart, i, j)] | (same ? (idx_t)0 : flag);
}

/* Boundary flags from keys sorted by (group, key2) in slot order (the
 * global sort's combined keys). */
__kernel void grp_key_bits(const __global idx_t *keys, ulong m, __global idx_t *u)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    if (i == 0 || keys[i - 1] != keys[i]) u[i] |= GRP_TOP;
}

/* Sorted suffixes back to their groups' slots (position k of the sorted
 * order is slot k of the compaction: the groups kept their spans). */
__kernel void grp_large_put(const __global idx_t *vals, const __global idx_t *offs,
                            const __global uint *cstart, uint count, uint total,
                            __global idx_t *u)
{
    uint k = (uint)get_global_id(0);
    if (k >= total) return;
    u[grp_large_slot(offs, cstart, grp_large_of(cstart, count, k), k)] = vals[k];
}
