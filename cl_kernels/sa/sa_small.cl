/* The small-input suffix array (host/sa/small.c, docs/SA.md "Small
 * inputs"): prefix doubling in place in the SA buffer, with few launches
 * and no read-backs between the passes.
 *
 * Ranks are the SA index of the group's first slot (isa), so a group is the
 * run of slots whose suffixes share one rank, and a finished suffix's rank
 * is its final slot.  A pass is two launches: sm_pass sorts every unsorted
 * group by its suffixes' key2 = isa[p + h] + 1 (0 past the end), writes
 * the slots and puts the new ranks aside (nr, by position); sm_ranks moves
 * them into isa (a pass reads isa for every key2, so it must not change
 * before the pass ends).  sm_pass runs one work-group per tile of T slots
 * and sorts the groups that start in its tile; a tile whose groups are all
 * final is skipped through its flag in act.  No work-group waits for
 * another.
 *
 * Positions and sizes are 32-bit: n <= small_max <= 2^24 (tuning_keys.c).
 *
 * Control words (ctrl, SM_CTRL_WORDS uints; the host reads them after some
 * passes): the fault bits (the initial radix sort faulted, a group too long
 * for this path, a one-symbol text: the host then takes the general path),
 * h0, and per pass whether any group stayed unsorted (SM_MORE + pass) and
 * whether any tile worked (SM_WORK + pass). */

#define SM_FAULT 0
#define SM_H0 1
#define SM_B 2
#define SM_MORE 8
#define SM_WORK 72
#define SM_CTRL_WORDS 136
#define SM_NONE 0xffffffffu

/* Byte counts of each work-group's stretch of the text into hist[g * 256 ..]
 * (no atomics on global memory, so nothing to zero first). */
__kernel void sm_hist(const __global uchar *text, uint n, uint chunk, __global uint *hist,
                      __local uint *lh)
{
    uint lid = get_local_id(0), ls = get_local_size(0), g = get_group_id(0);
    for (uint c = lid; c < 256; c += ls) lh[c] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint a = g * chunk, b = min(n, a + chunk);
    for (uint i = a + lid; i < b; i += ls) atomic_inc(&lh[text[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint c = lid; c < 256; c += ls) hist[g * 256 + c] = lh[c];
}

/* One work-group: the codes 1..sigma of the bytes present, in byte order,
 * h0 = 64 / bits(sigma) into ctrl; clears ctrl and both halves of the
 * tile flags (acts words).  present: 256 uints of local memory. */
__kernel void sm_codes(const __global uint *hist, uint groups, __global ushort *codes,
                       __global uint *ctrl, __global uint *act, uint acts, __local uint *present)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint c = lid; c < 256; c += ls) {
        uint tot = 0;
        for (uint g = 0; g < groups; g++) tot += hist[g * 256 + c];
        present[c] = tot ? 1u : 0u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint sigma = 0;
    for (uint d = 0; d < 256; d++) sigma += present[d];
    for (uint c = lid; c < 256; c += ls) {
        uint below = 0;
        for (uint d = 0; d < c; d++) below += present[d];
        codes[c] = present[c] ? (ushort)(below + 1) : (ushort)0;
    }
    uint b = 32 - clz(sigma);
    for (uint i = lid; i < SM_CTRL_WORDS; i += ls)
        ctrl[i] = i == SM_H0 ? 64 / b : i == SM_B ? b : i == SM_FAULT ? (sigma < 2 ? 4u : 0u) : 0u;
    for (uint i = lid; i < acts; i += ls) act[i] = 0;
}

/* Packed key of suffix i (its first h0 codes, b bits each, the first
 * symbol highest; 0 past the end) and position i. */
__kernel void sm_keys(const __global uchar *text, uint n, const __global ushort *codes,
                      const __global uint *ctrl, __global ulong *keys, __global uint *sa,
                      __local ushort *lc)
{
    for (uint c = get_local_id(0); c < 256; c += get_local_size(0)) lc[c] = codes[c];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint i = get_global_id(0);
    if (i >= n) return;
    uint h0 = ctrl[SM_H0], b = ctrl[SM_B];
    ulong k = 0;
    for (uint j = 0; j < h0; j++) {
        uint c = i + j < n ? lc[text[i + j]] : 0u;
        k |= (ulong)c << (b * (h0 - 1 - j));
    }
    keys[i] = k;
    sa[i] = i;
}

/* Index of the first of keys[0, len) that is not below x (keys sorted). */
static uint sm_lower_g(const __global ulong *keys, uint len, ulong x)
{
    uint lo = 0, hi = len;
    while (lo < hi) {
        uint mid = (lo + hi) / 2;
        if (keys[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static uint sm_lower_l(const __local ulong *keys, uint lo, uint hi, ulong x, uint shift)
{
    while (lo < hi) {
        uint mid = (lo + hi) / 2;
        if (keys[mid] >> shift < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* After the initial sort (keys and sa by key): each suffix's rank (its
 * group's first slot) into isa, nr cleared, the tiles that hold the first
 * slot of an unsorted group flagged (act, half 0).  A fault of the sort
 * (rctl[rfault]) or a group of longmax slots or more sets a fault bit, and
 * nothing else is written. */
__kernel void sm_init(const __global ulong *keys, const __global uint *sa, __global uint *isa,
                      __global uint *nr, __global uint *gs, __global uint *act,
                      volatile __global uint *ctrl,
                      const __global uint *rctl, uint rfault, uint n, uint tile, uint longmax)
{
    uint i = get_global_id(0);
    if (i >= n) return;
    if (rctl[rfault]) {
        if (i == 0) atomic_or(&ctrl[SM_FAULT], 1u);
        return;
    }
    ulong k = keys[i];
    int head = i == 0 || keys[i - 1] != k;
    uint r = head ? i : sm_lower_g(keys, i, k);
    isa[sa[i]] = r;
    gs[i] = r;
    nr[i] = SM_NONE;
    if (head && i + 1 < n && keys[i + 1] == k) act[i / tile] = 1;
    if (head && longmax < n - i && keys[i + longmax] == k) atomic_or(&ctrl[SM_FAULT], 2u);
}

/* Bitonic sort of keys[0, s) ascending (s a power of two); every
 * work-item of the group passes its barriers. */
static void sm_bitonic(__local ulong *keys, uint s)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint k = 2; k <= s; k <<= 1)
        for (uint j = k >> 1; j > 0; j >>= 1) {
            for (uint i = lid; i < s / 2; i += ls) {
                uint a = 2 * i - (i & (j - 1)), b = a + j;
                ulong x = keys[a], y = keys[b];
                if ((x > y) == ((a & k) == 0)) {
                    keys[a] = y;
                    keys[b] = x;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
}

/* key2 of suffix p: the rank h further on, + 1; 0 past the end. */
static uint sm_key2(const __global uint *isa, uint n, uint p, ulong h)
{
    return (ulong)p + h < n ? isa[p + h] + 1 : 0u;
}

/* A sorted run's entry at slot i whose (seg, key2) is x: slot i, new rank
 * rn (the first slot of equal x), old rank ro; tie: it is not its run's
 * first.  Writes the slot, puts the new rank aside and flags the tile
 * that now holds an unsorted group's first slot. */
static void sm_settle(__global uint *sa, __global uint *nr, __global uint *next, __local uint *more,
                      uint i, uint p, uint rn, uint ro, int tie, uint tile)
{
    sa[i] = p;
    if (rn != ro) nr[i] = rn;
    if (tie) {
        next[rn / tile] = 1;
        *more = 1;
    }
}

/* Merges the sorted runs src[0, len) of wd keys pairwise into dst: each
 * work-item writes a stretch of the output, from where the merge path
 * crosses its first slot (one binary search), then in order. */
static void sm_merge(const __global ulong *src, __global ulong *dst, uint len, uint wd)
{
    uint ls = get_local_size(0), per = (len + ls - 1) / ls;
    uint o = get_local_id(0) * per, oend = min(len, o + per);
    while (o < oend) {
        uint ps = o / (2 * wd) * (2 * wd), na = min(wd, len - ps);
        uint nb = min(wd, len - ps - na), pend = min(oend, ps + na + nb);
        const __global ulong *A = src + ps, *B = src + ps + na;
        uint d = o - ps, lo = 0, hi = min(d, na);
        while (lo < hi) { /* B past its end counts as larger than any key */
            uint mid = (lo + hi) / 2, bi = d - 1 - mid;
            if (bi >= nb || A[mid] < B[bi]) lo = mid + 1;
            else hi = mid;
        }
        uint ia = lo, ib = d - lo;
        for (; o < pend; o++) {
            int take_a = ib >= nb || (ia < na && A[ia] < B[ib]);
            dst[o] = take_a ? A[ia++] : B[ib++];
        }
    }
}

/* The long group [r, r + len) (it reaches past the window): sorted by one
 * work-group, chunks of cap keys (key2, position) in local memory, then
 * merges in global memory (ka, kb: its slots of two n-entry scratch
 * arrays); each work-item then settles a stretch of the sorted slots. */
static void sm_long(__global uint *sa, const __global uint *isa, __global uint *nr,
                    __global uint *next, __local uint *more, __global ulong *ka,
                    __global ulong *kb, __local ulong *keys, uint cap, uint n, ulong h,
                    uint r, uint len, uint pb, uint tile)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint c0 = 0; c0 < len; c0 += cap) {
        uint cn = min(cap, len - c0);
        for (uint j = lid; j < cap; j += ls) {
            uint p = j < cn ? sa[r + c0 + j] : 0u;
            keys[j] = j < cn ? (ulong)sm_key2(isa, n, p, h) << pb | p : ~(ulong)0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        sm_bitonic(keys, cap);
        for (uint j = lid; j < cn; j += ls) ka[r + c0 + j] = keys[j];
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    __global ulong *src = ka + r, *dst = kb + r;
    for (uint wd = cap; wd < len; wd *= 2) {
        sm_merge(src, dst, len, wd);
        barrier(CLK_GLOBAL_MEM_FENCE);
        __global ulong *t = src;
        src = dst;
        dst = t;
    }
    ulong mask = ((ulong)1 << pb) - 1;
    uint per = (len + ls - 1) / ls, i0 = lid * per, i1 = min(len, i0 + per);
    if (i0 >= i1) return;
    ulong prev = i0 > 0 ? src[i0 - 1] >> pb : ~(ulong)0;
    uint head = i0 > 0 && prev == src[i0] >> pb ? sm_lower_g(src, i0, src[i0] & ~mask) : i0;
    for (uint i = i0; i < i1; i++) {
        ulong e = src[i];
        int tie = i > 0 && e >> pb == prev;
        if (!tie) head = i;
        sm_settle(sa, nr, next, more, r + i, (uint)(e & mask), r + head, r, tie, tile);
        prev = e >> pb;
    }
}

/* The first slot at or after `from` whose rank is not r (the end of the
 * group r that reaches from), searched a work-group's width at a time. */
static uint sm_group_end(const __global uint *gs, uint n, uint r, uint from,
                         __local uint *found)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint base = from;; base += ls) {
        if (lid == 0) *found = n;
        barrier(CLK_LOCAL_MEM_FENCE);
        uint i = base + lid;
        if (i < n && gs[i] != r) atomic_min(found, i);
        barrier(CLK_LOCAL_MEM_FENCE);
        uint f = *found;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (f < n || base + ls >= n) return f;
    }
}

/* Most window slots a work-item holds while the window is compacted. */
#define SM_PER 16

/* The window [w, w + cap) into keys as (rank << 32 | position), rank
 * SM_NONE past the end; returns the first slot of the tile's group that
 * reaches the window's last slot (long), or SM_NONE (*lg on entry). */
static uint sm_window(const __global uint *sa, const __global uint *gs, uint n, uint w,
                      uint tile, uint cap, __local ulong *keys, __local uint *lg)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint j = lid; j < cap; j += ls) { /* other tiles' slots: their rank alone */
        uint i = w + j, r = i < n ? gs[i] : SM_NONE;
        uint p = r >= w && r < w + tile ? sa[i] : 0u;
        keys[j] = (ulong)r << 32 | p;
        if (j == cap - 1 && r >= w && r < w + tile) *lg = r;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* sa is written after */
    return *lg;
}

/* The window's suffixes in the tile's groups that are not singletons
 * (nor the long group lg), keyed (first slot - w, key2, position) with sh
 * = kb + pb, gathered at the front of keys in any order and padded with
 * ~0 to a power of two *s; returns their count. */
static uint sm_gather(const __global uint *isa, uint n, ulong h, uint w, uint tile, uint cap,
                      uint lg, uint sh, uint pb, __local ulong *keys, __local uint *cnt,
                      uint *s)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    ulong mine[SM_PER];
#pragma unroll
    for (uint q = 0; q < SM_PER; q++) {
        uint j = lid + q * ls;
        mine[q] = ~(ulong)0;
        if (j >= cap) continue;
        ulong e = keys[j];
        uint r = (uint)(e >> 32), p = (uint)e;
        int group = r != w + j || (j + 1 < cap && (uint)(keys[j + 1] >> 32) == r);
        if (r >= w && r < w + tile && r != lg && group)
            mine[q] = (ulong)(r - w) << sh | (ulong)sm_key2(isa, n, p, h) << pb | p;
    }
    if (lid == 0) *cnt = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint q = 0; q < SM_PER; q++)
        if (mine[q] != ~(ulong)0) keys[atomic_inc(cnt)] = mine[q];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint c = *cnt;
    for (*s = 1; *s < c; *s *= 2)
        ;
    for (uint j = c + lid; j < *s; j += ls) keys[j] = ~(ulong)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    return c;
}

/* The c sorted keys back into their groups' slots: a group's first slot
 * is w + its key's field, its entries' places from the first entry of
 * their group and of their (group, key2) run (binary searches). */
static void sm_put(__global uint *sa, __global uint *nr, __global uint *next, __local uint *more,
                   const __local ulong *keys, uint c, uint w, uint sh, uint pb, uint tile)
{
    ulong mask = ((ulong)1 << pb) - 1;
    for (uint q = get_local_id(0); q < c; q += get_local_size(0)) {
        ulong e = keys[q];
        uint seg = (uint)(e >> sh), gs = sm_lower_l(keys, 0, q, seg, sh);
        int tie = q > gs && keys[q - 1] >> pb == e >> pb;
        uint hs = tie ? sm_lower_l(keys, gs, q, e >> pb, pb) : q;
        sm_settle(sa, nr, next, more, w + seg + (q - gs), (uint)(e & mask), w + seg + (hs - gs),
                  w + seg, tie, tile);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* One doubling pass over the groups whose first slot lies in this
 * work-group's tile [w, w + tile), tile = cap / 2 (cap <= SM_PER x the
 * work-group size): the window [w, w + cap) holds every such group of at
 * most tile slots.  Their suffixes (of those that are not singletons) are
 * sorted in local memory by (first slot, key2, position), so each group's
 * come out in its slots' order; a group reaching the window's end is long
 * (sm_long).  kb: bits of key2 (values 0..n), pb: bits of a position;
 * ka, kb2: n-entry scratch arrays of sm_long. */
__kernel void sm_pass(__global uint *sa, const __global uint *isa, __global uint *nr,
                      const __global uint *gs, __global uint *act, __global uint *ctrl,
                      __global ulong *ka,
                      __global ulong *kb2, uint n, uint pass, uint tiles, uint kb, uint pb,
                      __local ulong *keys, uint cap)
{
    __local uint s_act, s_long, s_cnt, s_more;
    uint lid = get_local_id(0), t = get_group_id(0), tile = cap / 2, w = t * tile, s;
    __global uint *cur = act + (pass & 1) * tiles, *next = act + ((pass + 1) & 1) * tiles;
    if (lid == 0) { /* every local word set before the return */
        s_act = ctrl[SM_FAULT] == 0 && cur[t];
        s_more = 0;
        s_long = SM_NONE;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!s_act) return;
    ulong h = (ulong)ctrl[SM_H0] << pass;
    uint lg = sm_window(sa, gs, n, w, tile, cap, keys, &s_long);
    uint c = sm_gather(isa, n, h, w, tile, cap, lg, kb + pb, pb, keys, &s_cnt, &s);
    sm_bitonic(keys, s);
    sm_put(sa, nr, next, &s_more, keys, c, w, kb + pb, pb, tile);
    if (lg != SM_NONE) {
        uint end = sm_group_end(gs, n, lg, w + cap, &s_cnt);
        sm_long(sa, isa, nr, next, &s_more, ka, kb2, keys, cap, n, h, lg, end - lg, pb, tile);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        cur[t] = 0;
        ctrl[SM_WORK + pass] = 1;
        if (s_more) ctrl[SM_MORE + pass] = 1;
    }
}

/* The ranks pass `pass` put aside into isa (nothing where no tile worked). */
__kernel void sm_ranks(const __global uint *sa, __global uint *isa, __global uint *nr,
                       __global uint *gs, const __global uint *ctrl, uint n, uint pass)
{
    uint i = get_global_id(0);
    if (i >= n || !ctrl[SM_WORK + pass]) return;
    uint v = nr[i];
    if (v != SM_NONE) {
        isa[sa[i]] = v;
        gs[i] = v;
        nr[i] = SM_NONE;
    }
}

/* 32-bit entries widened into a 64-bit array. */
__kernel void sm_widen(const __global uint *src, __global ulong *dst, uint n)
{
    uint i = get_global_id(0);
    if (i < n) dst[i] = src[i];
}
