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

/* Marker in the split's per-slot value for a slot that is not a
 * singleton (ranks and deltas are below n < 2^32, so never equal it). */
#define GRP_NONE ((idx_t)-1)

/* Marker of a split group that keeps its old rank (grp_rank_split skips
 * its ISA writes): in heads[] for a group of two suffixes or more (their
 * ranks are at most n - 2), in val for a singleton when n <= GRP_SAME (a
 * singleton's rank may be n - 1). */
#define GRP_SAME ((idx_t)-2)

static int grp_single_same_ok(ulong n) { return n <= (ulong)GRP_SAME; }

/* With marks (n < 2^31, host/sa/groups.c): in val, the first slot of a
 * group that stays unsorted (grp_head_ranks), so that grp_rank_split can
 * hand the head on to the compaction, which marks it in the top bit of u
 * for the next pass's head scan (no gather of old ranks there). */
#define GRP_HEAD ((idx_t)-3)
#define GRP_TOP ((idx_t)1 << (8 * sizeof(idx_t) - 1))

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
 * keys[i] >> shift (the global sort's keys, host/sa/prefix_doubling.c),
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
 * key (groups.c long_sorts): keys[j] = the long group of j above key2's kb
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
