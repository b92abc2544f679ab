/* Group bookkeeping of the prefix-doubling loop (host/sa/groups.c).
 *
 * u[0..m) holds the unsorted suffixes, grouped by rank in SA order (a group
 * occupies consecutive slots).  The rank of a group is the SA index of its
 * first suffix, so rank = slot + delta, where delta (constant per group) is
 * the number of finished suffixes that precede the group in SA.  Flag
 * arrays are uint so clsa__scan can scan them; an inclusive scan of head
 * flags gives 1 + the group number of every slot. */

static idx_t grp_key2(const __global idx_t *isa, ulong n, ulong h, idx_t p)
{
    ulong q = (ulong)p + h;
    return q < n ? isa[q] + 1 : 0;
}

/* Heads of the groups as they were before this pass's sort (ranks differ). */
__kernel void grp_old_heads(const __global idx_t *u, const __global idx_t *isa, ulong m,
                            __global uint *flags)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    flags[i] = i == 0 || isa[u[i]] != isa[u[i - 1]];
}

/* Heads after sorting by (rank, key2): the old heads plus every key change. */
__kernel void grp_new_heads(const __global idx_t *u, const __global idx_t *isa, ulong m, ulong n,
                            ulong h, __global uint *flags)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    uint f = 1;
    if (i > 0) {
        idx_t a = u[i - 1], c = u[i];
        f = isa[a] != isa[c] || grp_key2(isa, n, h, a) != grp_key2(isa, n, h, c);
    }
    flags[i] = f;
}

/* At each head (where the inclusive scan steps): heads[group] = slot +
 * delta[slot] (delta omitted: 0). */
__kernel void grp_head_scatter(const __global uint *scan, ulong m, const __global idx_t *delta,
                               int has_delta, __global idx_t *heads)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    uint s = scan[i];
    if (i == 0 || scan[i - 1] != s) heads[s - 1] = (idx_t)i + (has_delta ? delta[i] : 0);
}

/* delta = old rank - slot of the old group's first suffix. */
__kernel void grp_delta(const __global idx_t *u, const __global idx_t *isa,
                        const __global uint *scan, const __global idx_t *starts, ulong m,
                        __global idx_t *delta)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    delta[i] = isa[u[i]] - starts[scan[i] - 1];
}

static int grp_is_head(const __global uint *scan, ulong i, ulong m)
{
    return i == 0 || i >= m || scan[i - 1] != scan[i];
}

/* New ranks into ISA; counts the groups that stay unsorted (size >= 2)
 * into *groups (one atomic per work-group). */
__kernel void grp_rank_update(const __global idx_t *u, const __global uint *scan,
                              const __global idx_t *heads, ulong m, __global idx_t *isa,
                              __global uint *groups, __local uint *count)
{
    ulong i = get_global_id(0);
    if (get_local_id(0) == 0) *count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < m) {
        isa[u[i]] = heads[scan[i] - 1];
        if (grp_is_head(scan, i, m) && !grp_is_head(scan, i + 1, m)) atomic_inc(count);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0 && *count) atomic_add(groups, *count);
}

/* keep = the slot's group has at least two suffixes (singletons are final). */
__kernel void grp_keep(const __global uint *scan, ulong m, __global uint *keep)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    keep[i] = !(grp_is_head(scan, i, m) && grp_is_head(scan, i + 1, m));
}

/* pos = exclusive scan of keep, total = its sum; keep[i] is pos[i+1] != pos[i]. */
__kernel void grp_compact(const __global idx_t *u, const __global uint *pos, ulong m, uint total,
                          __global idx_t *out)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    uint p = pos[i], next = i + 1 < m ? pos[i + 1] : total;
    if (next != p) out[p] = u[i];
}
