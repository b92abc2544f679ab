/* Prefix doubling, the split of stage 3 (host/sa/pd_split.c): group
 * heads, new ranks, ISA updates and the compaction of u (after scan.cl
 * and groups.cl). */

/* Heads of the groups as they were before this pass's sort (ranks differ).
 * Each rank is gathered once into lr (local size + 1 entries: slot i at
 * lid + 1, the work-group's left neighbour at 0) and compared there. */
__kernel void grp_old_heads(const __global idx_t *u, const __global idx_t *isa, ulong m,
                            __global uint *flags, __local idx_t *lr)
{
    ulong i = get_global_id(0);
    uint lid = get_local_id(0);
    if (i < m) lr[lid + 1] = isa[u[i]];
    if (lid == 0 && i > 0 && i - 1 < m) lr[0] = isa[u[i - 1]];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < m) flags[i] = i == 0 || lr[lid + 1] != lr[lid];
}

/* Heads of the groups from keys sorted by (group, ...): the group is
 * keys[i] >> shift (the global sort's keys, host/sa/pd_pass.c),
 * read in order instead of gathering every slot's rank. */
__kernel void grp_key_heads(const __global idx_t *keys, ulong m, uint shift,
                            __global uint *flags)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    flags[i] = i == 0 || keys[i] >> shift != keys[i - 1] >> shift;
}

/* key2 of slot j into local entry l. */
static void grp_load_key(const __global idx_t *u, const __global idx_t *isa, ulong n, ulong h,
                         ulong j, __local idx_t *lk, uint l)
{
    lk[l] = grp_key2(isa, n, h, u[j]);
}

/* val at a head slot i (see grp_split_heads).  rank = head slot + delta
 * and the old rank = start + delta (start: the old group's first slot),
 * so a new group keeps its old rank exactly when it starts at start.
 * direct (the SA written by grp_rank_split): a singleton always gets its
 * rank, as its SA slot needs it. */
static idx_t grp_head_val(ulong i, idx_t start, idx_t delta, int single, ulong n, int direct)
{
    int same = (ulong)start == i;
    if (!single) return same ? GRP_NONE : delta;
    return same && grp_single_same_ok(n) && !direct ? GRP_SAME : (idx_t)i + delta;
}

/* The split's summary (grp_split_ranks, grp_long_lengths): GRP_SUM_WORDS
 * words, zeroed by the split's first kernel, which also zeroes the next
 * classify's counts (as many words: no fill before it). */
#define GRP_SUM_WORDS SP_USER_WORDS /* scan.cl: the scan state's callers' words */
#define GRP_SUM_LONGS (GRP_SUM_WORDS - 1) /* long groups listed */
static void grp_summary_zero(__global uint *sum, ulong i)
{
    if (i == 0)
        for (uint w = 0; w < GRP_SUM_WORDS; w++) sum[w] = 0;
}

/* First kernel of a split, one pass over the m slots (scan = inclusive
 * scan of the old heads, starts = their first slots, g of them):
 *  - flags (in place of scan): the slot heads a new group that stays
 *    unsorted (two suffixes or more); there are at most m / 2 of them, so
 *    their ranks fit a half-size array;
 *  - val: delta = old rank - slot of the old group's first suffix at such
 *    a head (for grp_head_ranks), the final rank slot + delta at a
 *    singleton, GRP_NONE elsewhere (grp_rank_split tells them apart);
 *    at a head whose group keeps its old rank GRP_NONE (for a group of
 *    two or more: grp_head_ranks marks it in heads) or GRP_SAME.
 * Slot i starts a new group (sorted by (rank, key2)) when it starts its
 * old group (or i == m: end of the last group) or its key2 differs from
 * slot i - 1's.  Old groups are told apart by their first slots, so no
 * old rank is gathered but the one of each new head (for its delta); key2
 * of every slot is gathered once into lk (local size + 2 entries: slot i
 * at lid + 1, the work-group's neighbours at 0 and local size + 1).  Reads
 * only the old ranks (isa is not updated yet); each work-item reads and
 * writes only its own slot of scan. */
__kernel void grp_split_heads(const __global idx_t *u, const __global idx_t *isa,
                              const __global idx_t *starts, ulong g, ulong m, ulong n, ulong h,
                              __global uint *scan, __global idx_t *val, __local idx_t *lk,
                              int direct, __global uint *sum, ulong sum_at,
                              __global uint *counts)
{
    ulong i = get_global_id(0);
    uint lid = get_local_id(0), ls = get_local_size(0);
    grp_summary_zero(sum + sum_at, i);
    grp_summary_zero(counts, i);
    if (i < m) grp_load_key(u, isa, n, h, i, lk, lid + 1);
    if (lid == 0 && i > 0 && i - 1 < m) grp_load_key(u, isa, n, h, i - 1, lk, 0);
    if (lid == ls - 1 && i + 1 < m) grp_load_key(u, isa, n, h, i + 1, lk, ls + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i >= m) return;
    ulong grp = scan[i];
    idx_t start = starts[grp - 1];
    ulong end = grp < g ? (ulong)starts[grp] : m;
    int head = (ulong)start == i || lk[lid] != lk[lid + 1];
    int next = i + 1 >= end || lk[lid + 1] != lk[lid + 2];
    scan[i] = head && !next;
    val[i] = head ? grp_head_val(i, start, isa[u[i]] - start, next, n, direct)
                  : GRP_NONE;
}

/* grp_split_heads where the sorts marked in u's top bit every slot that
 * starts a new group (old group starts included): no key2 is gathered,
 * only the old rank at the new heads.  u's flags stay for grp_rank_split
 * and the compaction, which drop them. */
__kernel void grp_split_bits(const __global idx_t *u, const __global idx_t *isa,
                             const __global idx_t *starts, ulong m, ulong n,
                             __global uint *scan, __global idx_t *val, int direct,
                             __global uint *sum, ulong sum_at, __global uint *counts)
{
    ulong i = get_global_id(0);
    grp_summary_zero(sum + sum_at, i);
    grp_summary_zero(counts, i);
    if (i >= m) return;
    idx_t ui = u[i];
    int head = (ui & GRP_TOP) != 0, next = i + 1 >= m || (u[i + 1] & GRP_TOP) != 0;
    idx_t v = GRP_NONE;
    if (head) {
        idx_t start = starts[scan[i] - 1];
        v = grp_head_val(i, start, isa[ui & ~GRP_TOP] - start, next, n, direct);
    }
    scan[i] = head && !next;
    val[i] = v;
}

/* New ranks after a doubling sort (heads: grp_head_ranks of the heads
 * of the scan of grp_split_heads' flags, which also set val to GRP_NONE,
 * or GRP_HEAD with marks, at those heads): a singleton's rank is in val,
 * the others' is their head's.  GRP_SAME: the rank did not change, the
 * random ISA write is saved.  scan := keep flag (the suffix stays
 * unsorted) for the compaction, | 2 at a group's first slot with marks.
 * direct: a singleton's rank is its final SA index, sa[rank - sa_base] =
 * suffix (the SA is built as the suffixes finish, no inversion at the end;
 * sa is unread otherwise; sa_base: a part's first SA index, else 0). */
__kernel void grp_rank_split(const __global idx_t *u, __global uint *scan,
                             const __global idx_t *heads, const __global idx_t *val, ulong m,
                             ulong n, __global idx_t *isa, int marks, __global idx_t *sa,
                             int direct, idx_t sa_base)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    /* with marks u's top bit is free: the sorts' flags (grp_split_bits) */
    idx_t v = val[i], p = marks ? u[i] & ~GRP_TOP : u[i];
    int head = marks && v == GRP_HEAD, single = v != GRP_NONE && !head;
    idx_t r = single ? v : heads[scan[i] - 1];
    if (r != GRP_SAME || (single && !grp_single_same_ok(n))) isa[p] = r;
    if (direct && single) sa[r - sa_base] = p;
    scan[i] = single ? 0u : 1u | (uint)head << 1;
}

/* grp_rank_split, the scan of its keep flags and grp_compact in one single
 * pass (scan.cl, whose functions come before this file in the groups
 * program): the ranks and SA slots as grp_rank_split writes them, then the
 * slots that stay unsorted, in order, into out, the head scan's own buffer
 * (a tile writes below the end of its slots only, and the tiles before it
 * have read theirs), each group's first slot marked in GRP_TOP.  Marks on,
 * 32-bit slots below 2^29 (the host's choice).  A tile whose look-back
 * faulted writes its kept slots, packed, over its own values in val (read
 * by it alone, and dead after the split) instead: a later tile that saw its
 * sum before the fault may already have written over its slots of out;
 * grp_rank_compact_repair moves them into place. */
#define GRP_TOP32 0x80000000u /* GRP_TOP of the 32-bit slots */
__kernel void grp_rank_compact(const __global idx_t *u, __global uint *out,
                               const __global idx_t *heads, __global idx_t *val, ulong m,
                               ulong n, __global idx_t *isa, __global idx_t *sa, int direct,
                               idx_t sa_base, volatile __global uint *state, uint cap,
                               uint epoch_no, uint fault_at, uint items, __local uint *tile,
                               __local uint *packed, __local uint *a, __local uint *b)
{
    __local uint lb[SP_LB];
    uint lid = get_local_id(0), lsize = get_local_size(0);
    uint t = sp_ticket(state, epoch_no, lb + SP_LB - 1);
    ulong step = (ulong)lsize * items, base = (ulong)t * step;
    for (uint j = 0; j < items; j++) {
        ulong i = base + (ulong)j * lsize + lid;
        uint keep = 0; /* else 1 + the slot's suffix, | GRP_TOP32 at a head */
        if (i < m) {
            idx_t v = val[i], p = u[i] & ~GRP_TOP;
            int head = v == GRP_HEAD, single = v != GRP_NONE && !head;
            idx_t r = single ? v : heads[out[i] - 1];
            if (r != GRP_SAME || (single && !grp_single_same_ok(n))) isa[p] = r;
            if (direct && single) sa[r - sa_base] = p;
            keep = single ? 0u : (uint)(p + 1u) | (head ? GRP_TOP32 : 0u);
        }
        tile[TILE_AT(j * lsize + lid)] = keep;
    }
    uint sum = tile_runs(items, SCAN_FLAGS, tile, a, b), ok;
    /* b, the group scan's scratch, holds the look-back's window */
    uint before = sp_tile_prefix(state, cap, t, (uint)((m - 1) / step), sum, epoch_no, fault_at,
                                 b, lb, &ok);
    uint run = a[lid];
    for (uint j = 0; j < items; j++) {
        uint x = tile[TILE_AT(lid * items + j)];
        if (x) packed[run++] = ((x & ~GRP_TOP32) - 1u) | (x & GRP_TOP32);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __global uint *dst = ok ? out + before : (__global uint *)val + base;
    for (uint j = lid; j < sum; j += lsize) dst[j] = packed[j];
}

/* After a fault: tile first + group id, if it faulted (its aggregate word,
 * state[at + tile], has SP_FAULTED), moves its kept slots from saved (val)
 * to out from offsets[tile], the sum of the tiles before it. */
__kernel void grp_rank_compact_repair(const __global uint *state, ulong at, uint first,
                                      const __global uint *offsets, const __global uint *saved,
                                      __global uint *out, uint tile)
{
    uint t = first + (uint)get_group_id(0), w = state[at + t];
    if (!(w & SP_FAULTED)) return;
    ulong base = (ulong)t * tile;
    for (uint j = get_local_id(0); j < (w & ~SP_FAULTED); j += get_local_size(0))
        out[offsets[t - first] + j] = saved[base + j];
}

/* heads[j] (the first slot of group j, from the scan: clsa__scan_index)
 * becomes the group's rank, slot + delta[slot], or GRP_SAME where that
 * delta is GRP_NONE (grp_split_heads: the group keeps its old rank); the
 * delta read is set to GRP_NONE (the slot is no singleton: see
 * grp_rank_split).  One work-item per group, not per slot. */
static void grp_head_rank(__global idx_t *heads, __global idx_t *delta, ulong j, int marks)
{
    idx_t s = heads[j], d = delta[s];
    delta[s] = marks ? GRP_HEAD : GRP_NONE;
    heads[j] = d == GRP_NONE ? GRP_SAME : s + d;
}

__kernel void grp_head_ranks(__global idx_t *heads, ulong g, __global idx_t *delta, int marks)
{
    ulong j = get_global_id(0);
    if (j < g) grp_head_rank(heads, delta, j, marks);
}

/* Slot x lies inside the unsorted group whose head scan value is id, past
 * its first slot: the scan has not moved on and the split left no value
 * there (a singleton holds its rank or GRP_SAME, a head its delta). */
static int grp_inside(const __global uint *scan, const __global idx_t *val, ulong x, ulong m,
                      uint id)
{
    return x < m && scan[x] == id && val[x] == GRP_NONE;
}

/* grp_head_ranks, also counting the groups that stay unsorted by length
 * class as grp_classify will (their lengths survive the compaction), into
 * the summary sum[sum_at ..]: [c] groups of class c <= nclass, the long
 * ones (class nclass) listed in longs (first slot, head scan value) for
 * grp_long_lengths, [GRP_SUM_LONGS] of them.  A group's class comes from
 * probes at its first slot + GRP_TINY << c (grp_inside); the probed slots
 * are no group's head, the only val entries written meanwhile.  lc:
 * nclass + 1 uints.  32-bit slots. */
__kernel void grp_split_ranks(__global idx_t *heads, const __global uint *scan,
                              __global idx_t *delta, ulong g, ulong m, int marks, uint nclass,
                              __global uint *sum, ulong sum_at, __global uint *longs,
                              __local uint *lc)
{
    ulong j = get_global_id(0);
    uint lid = get_local_id(0);
    sum += sum_at;
    for (uint c = lid; c <= nclass; c += get_local_size(0)) lc[c] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (j < g) {
        ulong s = (ulong)heads[j];
        uint id = (uint)j + 1u;
        if (grp_inside(scan, delta, s + GRP_TINY, m, id)) {
            uint c = 0;
            while (c < nclass && grp_inside(scan, delta, s + ((ulong)GRP_TINY << (c + 1)), m, id))
                c++;
            atomic_inc(&lc[c]);
            if (c == nclass) {
                uint at = atomic_inc(&sum[GRP_SUM_LONGS]);
                longs[2 * (ulong)at] = (uint)s;
                longs[2 * (ulong)at + 1] = id;
            }
        }
        grp_head_rank(heads, delta, j, marks);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint c = lid; c <= nclass; c += get_local_size(0))
        if (lc[c]) atomic_add(&sum[c], lc[c]);
}

/* The long groups' slots into the summary's [nclass + 1]: a work-group a
 * listed group (a stride over the list), its length found by rounds of
 * local-size probes between a slot inside (GRP_TINY << nclass) and one
 * past the end (m), each round keeping the last probe inside and the
 * first outside, so that a group of 10^5 slots takes 3 rounds, not a
 * chain of 17 dependent probes. */
__kernel void grp_long_lengths(const __global uint *scan, const __global idx_t *val, ulong m,
                               uint nclass, __global uint *sum, ulong sum_at,
                               const __global uint *longs)
{
    __local uint lo, hi;
    uint lid = get_local_id(0), lsize = get_local_size(0);
    sum += sum_at;
    uint nlong = sum[GRP_SUM_LONGS];
    for (uint k = (uint)get_group_id(0); k < nlong; k += (uint)get_num_groups(0)) {
        ulong s = longs[2 * (ulong)k];
        uint id = longs[2 * (ulong)k + 1];
        if (lid == 0) {
            lo = (uint)GRP_TINY << nclass; /* inside: the group is long */
            hi = (uint)(m - s);            /* s + hi = m: outside */
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint a = lo, b = hi;
        while (b - a > 1) {
            barrier(CLK_LOCAL_MEM_FENCE); /* every work-item has read lo and hi */
            uint x = a + (uint)(((ulong)(b - a) * (lid + 1)) / (lsize + 1));
            if (x > a && x < b) {
                if (grp_inside(scan, val, s + x, m, id)) atomic_max(&lo, x);
                else atomic_min(&hi, x);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            a = lo;
            b = hi;
        }
        if (lid == 0) atomic_add(&sum[nclass + 1], b);
        barrier(CLK_LOCAL_MEM_FENCE); /* lo and hi are the next group's */
    }
}

/* heads[j] += base: the initial ranks of one part of the suffixes (its
 * first SA index, host/sa/pd_part.c) instead of 0. */
__kernel void grp_add_base(__global idx_t *heads, ulong g, idx_t base)
{
    ulong j = get_global_id(0);
    if (j < g) heads[j] += base;
}

static int grp_is_head(const __global uint *scan, ulong i, ulong m)
{
    return i == 0 || i >= m || scan[i - 1] != scan[i];
}

/* isa := GRP_NONE everywhere: no rank yet (lazy, host/sa/groups.h). */
__kernel void grp_fill_unset(__global idx_t *isa, ulong n)
{
    ulong i = get_global_id(0);
    if (i < n) isa[i] = GRP_NONE;
}

/* New ranks into ISA; counts[0] += groups that stay unsorted (size >= 2),
 * counts[1] += singletons (one atomic each per work-group).  lazy: the
 * singletons' ranks are not written (host/sa/groups.h lazy). */
__kernel void grp_rank_update(const __global idx_t *u, const __global uint *scan,
                              const __global idx_t *heads, ulong m, __global idx_t *isa,
                              __global uint *counts, __local uint *count, int lazy)
{
    ulong i = get_global_id(0);
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint c = lid; c < 2; c += ls) count[c] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < m) {
        int single = grp_is_head(scan, i, m) && grp_is_head(scan, i + 1, m);
        if (!lazy || !single) isa[u[i]] = heads[scan[i] - 1];
        if (grp_is_head(scan, i, m)) atomic_inc(&count[single ? 1 : 0]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint c = lid; c < 2; c += ls)
        if (count[c]) atomic_add(&counts[c], count[c]);
}

/* keep = the slot's group has at least two suffixes (singletons are final);
 * | 2 at the group's first slot with marks (see grp_rank_split). */
__kernel void grp_keep(const __global uint *scan, ulong m, __global uint *keep, int marks)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    int head = grp_is_head(scan, i, m);
    keep[i] = head && grp_is_head(scan, i + 1, m) ? 0u : 1u | (uint)(marks && head) << 1;
}

/* pos = exclusive scan of keep, total = its sum; keep[i] is pos[i+1] != pos[i].
 * With marks, bit 31 of pos[i] (clsa__scan_index's FLAGS_MARK) says slot i
 * heads its group: it is set in the top bit of the kept suffix. */
__kernel void grp_compact(const __global idx_t *u, const __global uint *pos, ulong m, uint total,
                          __global idx_t *out, int marks)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    uint low = marks ? 0x7fffffffu : ~0u, pi = pos[i];
    uint p = pi & low, next = i + 1 < m ? pos[i + 1] & low : total;
    if (next != p) out[p] = (marks ? u[i] & ~GRP_TOP : u[i]) | (pi > low ? GRP_TOP : 0);
}
