/* Suffix array by prefix doubling: the initial packed-prefix keys, the
 * doubling key gather, and the final SA = ISA^-1 scatter.  Launched from
 * host/sa/prefix_doubling.c.  Group bookkeeping lives in groups.cl.
 *
 * Packed prefix key of suffix p: the first h0 symbols, each mapped through
 * codes[] to 1..sigma (0 = past the end, so a suffix that ends inside the
 * window differs from one that continues with byte 0x00) and b bits wide,
 * most significant first.  b * h0 <= 64.  Integer alphabets (sym = 2 or 4
 * bytes a symbol) hold their codes 1..sigma in the text itself, written by
 * pd_sym_codes after a sort by the first symbol, and codes[] is unused.
 *
 * Separators (sep = 1, the generalized suffix array over bytes): code 1 is
 * a string's end, and every separator is a different symbol ordered by
 * position ($_0 < $_1 < ...).  A key keeps the fields up to its first
 * separator and zeros after it, so two suffixes with the same key up to a
 * separator tie, and the stable initial sort leaves them in position
 * (= string) order; pd_init_heads then makes each of them a group of its
 * own, final at once, so no later pass compares past a separator. */

static uint pd_code(const __global uchar *text, const __global ushort *codes, uint sym, ulong q)
{
    return sym == 1   ? codes[text[q]]
           : sym == 2 ? ((const __global ushort *)text)[q]
                      : ((const __global uint *)text)[q];
}

/* The bits of the packed key that symbols j0 .. j1-1 contribute (the
 * other symbols' fields left 0): the halves of the key need only the
 * symbols whose fields reach into them. */
static ulong pd_key_part(const __global uchar *text, ulong n, ulong p,
                         const __global ushort *codes, uint sym, uint b, uint h0, uint j0,
                         uint j1, uint sep)
{
    ulong k = 0;
    for (uint j = sep ? 0u : j0; j < j1; j++) {
        ulong q = p + j;
        uint c = q < n ? pd_code(text, codes, sym, q) : 0u;
        if (j >= j0) k |= (ulong)c << (b * (h0 - 1 - j));
        if (sep && c == 1u) break; /* the fields after a separator stay 0 */
    }
    return k;
}

static ulong pd_key(const __global uchar *text, ulong n, ulong p, const __global ushort *codes,
                    uint sym, uint b, uint h0, uint sep)
{
    return pd_key_part(text, n, p, codes, sym, b, h0, 0, h0, sep);
}

/* Codes of a byte text into local memory (lc: 256 ushorts), for the
 * gathers of pd_key_gather; every work-item passes the barrier. */
static void pd_local_codes(const __global ushort *codes, uint sym, __local ushort *lc)
{
    if (sym == 1)
        for (uint c = get_local_id(0); c < 256; c += get_local_size(0)) lc[c] = codes[c];
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* pd_key_part for pd_key_hi's suffix at a random position p: on a
 * little-endian device, a byte text without separators and a window whose
 * 4-byte words all lie inside the text, the symbols j0 .. j1 come from
 * aligned 32-bit loads and their codes from local memory (lc) instead of
 * one byte load and one global code load each (H100, bench log run 19k:
 * 100 MB random DNA 4.9 -> 3.1 ms).  Else pd_key_part.  (pd_heads_sorted,
 * where only tied slots gather, measured no better with it; nor did
 * pd_tied_take and pd_heads_msd, run 31d.) */
static ulong pd_key_gather(const __global uchar *text, ulong n, ulong p,
                           const __global ushort *codes, const __local ushort *lc, uint sym,
                           uint b, uint h0, uint j0, uint j1, uint sep)
{
#ifdef __ENDIAN_LITTLE__
    if (sym == 1 && !sep && p + j1 + 3 <= n) {
        ulong k = 0, q0 = p + j0, q1 = p + j1;
        for (ulong a = q0 & ~(ulong)3; a < q1; a += 4) {
            uint w = *(const __global uint *)(text + a);
            for (uint t = 0; t < 4; t++) {
                ulong q = a + t;
                if (q >= q0 && q < q1)
                    k |= (ulong)lc[w >> (8 * t) & 0xffu] << (b * (h0 - 1 - (uint)(q - p)));
            }
        }
        return k;
    }
#endif
    return pd_key_part(text, n, p, codes, sym, b, h0, j0, j1, sep);
}

/* The key holds a separator (a field equal to 1). */
static int pd_key_has_sep(ulong k, uint b, uint h0)
{
    ulong mask = ((ulong)1 << b) - 1;
    for (uint j = 0; j < h0; j++)
        if (((k >> (b * (h0 - 1 - j))) & mask) == 1) return 1;
    return 0;
}


/* Byte histogram: per work-group counts in local memory, then one global
 * atomic per bin. */
__kernel void pd_histogram(const __global uchar *text, ulong n, __global uint *hist,
                           __local uint *lh)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint i = lid; i < 256; i += ls) lh[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong stride = (ulong)get_global_size(0);
    for (ulong i = get_global_id(0); i < n; i += stride) atomic_inc(&lh[text[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < 256; i += ls)
        if (lh[i]) atomic_add(&hist[i], lh[i]);
}

/* codes[c] = the code of byte c (host/sa/prefix_doubling.c alphabet):
 * 1 for the separator sep (>= 0) where it occurs, then 1, 2, ... (after
 * it) for the other bytes that occur, in byte order; 0 for the rest.  One
 * work-item: 256 steps. */
__kernel void pd_codes(const __global uint *hist, int sep, __global ushort *codes)
{
    if (get_global_id(0) != 0) return;
    uint next = sep >= 0 && hist[sep] ? 2u : 1u;
    for (int c = 0; c < 256; c++)
        codes[c] = c == sep ? (hist[c] ? 1u : 0u) : hist[c] ? (ushort)next++ : (ushort)0;
}

/* First (least significant) half of the LSD initial sort: keys of suffix i
 * in text order, values = positions.  j0: the first symbol whose field
 * reaches the low 32 bits (from the host: a saturating difference here
 * becomes llvm.usub.sat, which Oclgrind cannot run). */
__kernel void pd_key_lo(const __global uchar *text, ulong n, const __global ushort *codes,
                        uint sym, uint b, uint h0, uint j0, uint sep, __global uint *keys,
                        __global idx_t *pos, ulong m, int given)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    ulong p = given ? (ulong)pos[i] : i; /* given: a part's suffixes (pd_part_*) */
    keys[i] = (uint)pd_key_part(text, n, p, codes, sym, b, h0, j0, h0, sep);
    if (!given) pos[i] = (idx_t)i;
}

/* Second half: the upper 32 key bits of the suffix now at slot i (j1: the
 * end of the symbols whose fields reach the high 32 bits). */
__kernel void pd_key_hi(const __global uchar *text, ulong n, const __global ushort *codes,
                        uint sym, uint b, uint h0, uint j1, uint sep, const __global idx_t *pos,
                        __global uint *keys, ulong m, __local ushort *lc)
{
    ulong i = get_global_id(0);
    pd_local_codes(codes, sym, lc);
    if (i >= m) return;
    keys[i] = (uint)(pd_key_gather(text, n, pos[i], codes, lc, sym, b, h0, 0, j1, sep) >> 32);
}

/* ---- a short key first (host/sa/prefix_doubling.c initial_sort_msd) ----
 * Where the first k = 32 / bb symbols alone set most suffixes apart
 * (random bytes, random DNA), the suffixes are sorted by a 32-bit key of
 * just them, bb = bits(sigma - 1) bits a symbol (code - 1; past the end
 * 0, the same as the smallest symbol: such suffixes tie there and the
 * whole key tells them apart).  Only the slots that tie with a neighbour
 * are then sorted by the whole packed key: one radix sort of all suffixes
 * and two of the tied ones instead of two of all.  The order is the
 * packed key's: a short key that differs first at symbol j differs there
 * in the packed key the same way.  The tied slots, listed in slot order,
 * are runs of equal short keys; sorted stably by the whole key they stay
 * in their runs, so the j-th of them goes back to the j-th tied slot. */

/* The short key of suffix p = i x stride into slot i (p written to pos;
 * stride > 1: a sample, see initial_sort_msd), or given: of p = pos[i]
 * (a part's suffixes, pd_part_*). */
__kernel void pd_key_msd(const __global uchar *text, ulong n, const __global ushort *codes,
                         uint bb, uint k, ulong stride, __global idx_t *pos, __global uint *keys,
                         ulong m, __local ushort *lc, int given)
{
    ulong i = get_global_id(0);
    pd_local_codes(codes, 1u, lc);
    if (i >= m) return;
    ulong p = given ? (ulong)pos[i] : i * stride;
    uint key = 0;
    for (uint j = 0; j < k; j++) {
        uint c = p + j < n ? lc[text[p + j]] - 1u : 0u;
        key = key << bb | c;
    }
    keys[i] = key;
    if (!given) pos[i] = (idx_t)p;
}

static int pd_tied(const __global uint *keys, ulong m, ulong i)
{
    uint k = keys[i];
    return (i > 0 && keys[i - 1] == k) || (i + 1 < m && keys[i + 1] == k);
}

/* flags[i] = slot i ties with a neighbour in the sorted short keys. */
__kernel void pd_tied_flags(const __global uint *keys, ulong m, __global uint *flags)
{
    ulong i = get_global_id(0);
    if (i < m) flags[i] = pd_tied(keys, m, i);
}

/* The tied slot i (at[i]: exclusive scan of pd_tied_flags) into list entry
 * at[i]: its slot, its suffix and the low half of that suffix's packed
 * key (symbols j0 .. h0). */
__kernel void pd_tied_take(const __global uchar *text, ulong n, const __global ushort *codes,
                           uint sym, uint b, uint h0, uint j0, const __global uint *keys,
                           const __global idx_t *pos, const __global uint *at, ulong m,
                           __global idx_t *slot, __global idx_t *tpos, __global uint *tkey)
{
    ulong i = get_global_id(0);
    if (i >= m || !pd_tied(keys, m, i)) return;
    uint j = at[i];
    idx_t p = pos[i];
    slot[j] = (idx_t)i;
    tpos[j] = p;
    tkey[j] = (uint)pd_key_part(text, n, (ulong)p, codes, sym, b, h0, j0, h0, 0u);
}

/* The sorted list back into its slots. */
__kernel void pd_tied_put(const __global idx_t *slot, const __global idx_t *tpos, ulong t,
                          __global idx_t *pos)
{
    ulong j = get_global_id(0);
    if (j < t) pos[slot[j]] = tpos[j];
}

/* ---- ranks written where they are read (host/sa/prefix_doubling.c lazy_ranks) ----
 * After a short-key initial sort that left few suffixes unsorted, only
 * those get their initial ranks; every other entry of isa holds PD_UNSET.
 * Such a suffix is a singleton of the initial sort, so its rank is its slot
 * in the SA buffer, which direct mode leaves untouched there.  Before each
 * doubling pass the ranks it reads, isa[u + h], that are still unset are
 * marked (one bit a suffix) and filled by a walk over the SA buffer. */
#define PD_UNSET ((idx_t)-1) /* = groups.cl GRP_NONE, written by grp_fill_unset */

/* need: bit q >> shift set where isa[q] (q = u[i] + h; u's top bit is a
 * group mark when marks) is unset (a bit per 2^shift positions keeps the
 * bitmap in the cache for large n; the fill then also sets the other
 * unset ranks of a marked block, which is harmless). */
__kernel void pd_lazy_mark(const __global idx_t *u, ulong m, ulong n, ulong h,
                           const __global idx_t *isa, __global uint *need, int marks,
                           uint shift)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    idx_t p = u[i];
    if (marks) p &= (idx_t)~((idx_t)1 << (8 * sizeof(idx_t) - 1));
    ulong q = (ulong)p + h;
    if (q < n && isa[q] == PD_UNSET) {
        ulong b = q >> shift;
        atomic_or(&need[b >> 5], 1u << (b & 31));
    }
}

/* isa[sa[i]] = base + i (i < count: the SA buffer's entries, a part's
 * first SA index base, else 0) where need marks sa[i] >> shift and the
 * rank is unset (all: wherever it is unset; need unread). */
__kernel void pd_lazy_fill(const __global idx_t *sa, ulong count, const __global uint *need,
                           __global idx_t *isa, int all, idx_t base, uint shift)
{
    ulong i = get_global_id(0);
    if (i >= count) return;
    idx_t q = sa[i];
    ulong b = (ulong)q >> shift;
    if ((all || (need[b >> 5] >> (b & 31)) & 1u) && isa[q] == PD_UNSET) isa[q] = base + (idx_t)i;
}

/* Group heads after it: a slot whose short key differs from both
 * neighbours' is a group of its own; a tied one compares its whole packed
 * key with its left neighbour's (gathered once each into lk: local size
 * + 1 keys, as pd_init_heads). */
__kernel void pd_heads_msd(const __global uchar *text, ulong n, const __global ushort *codes,
                           uint b, uint h0, const __global uint *keys, const __global idx_t *pos,
                           __global uint *flags, __local ulong *lk, ulong m)
{
    ulong i = get_global_id(0);
    uint lid = get_local_id(0);
    uint ki = i < m ? keys[i] : 0u;
    int tie_left = i < m && i > 0 && keys[i - 1] == ki;
    int tie_right = i + 1 < m && keys[i + 1] == ki;
    if (tie_left || tie_right) lk[lid + 1] = pd_key(text, n, pos[i], codes, 1u, b, h0, 0u);
    if (lid == 0 && tie_left) lk[0] = pd_key(text, n, pos[i - 1], codes, 1u, b, h0, 0u);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < m) flags[i] = !tie_left || lk[lid + 1] != lk[lid];
}

/* Group heads after the initial sort: the packed key changes, or (sep)
 * the key holds a separator (a group of its own: see the top).  Each
 * work-item builds its own slot's key once (h0 text gathers) and reads
 * its left neighbour's from local memory (lk: local size + 1 keys; the
 * first work-item also builds the key left of the work-group's range). */
__kernel void pd_init_heads(const __global uchar *text, ulong n, const __global ushort *codes,
                            uint sym, uint b, uint h0, uint sep, const __global idx_t *pos,
                            __global uint *flags, __local ulong *lk, ulong m)
{
    ulong i = get_global_id(0);
    uint lid = get_local_id(0);
    if (i < m) lk[lid + 1] = pd_key(text, n, pos[i], codes, sym, b, h0, sep);
    if (lid == 0 && i > 0 && i - 1 < m) lk[0] = pd_key(text, n, pos[i - 1], codes, sym, b, h0, sep);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < m)
        flags[i] = i == 0 || lk[lid + 1] != lk[lid] || (sep && pd_key_has_sep(lk[lid + 1], b, h0));
}

/* The same heads from the initial sort's own sorted keys (no separators):
 * keys[i] is the upper half of slot i's packed key (lo_part) or the whole
 * key.  Only slots that tie with a neighbour there gather the key's low
 * half from the text (symbols j0 .. h0, as pd_key_lo), each once, and
 * read the left neighbour's from local memory (ll: local size + 1). */
__kernel void pd_heads_sorted(const __global uchar *text, ulong n, const __global ushort *codes,
                              uint sym, uint b, uint h0, uint j0, const __global uint *keys,
                              const __global idx_t *pos, __global uint *flags, __local uint *ll,
                              ulong m, int lo_part)
{
    ulong i = get_global_id(0);
    uint lid = get_local_id(0);
    uint ki = i < m ? keys[i] : 0u;
    int tie_left = i < m && i > 0 && keys[i - 1] == ki;
    int tie_right = i + 1 < m && keys[i + 1] == ki;
    if (lo_part && (tie_left || tie_right))
        ll[lid + 1] = (uint)pd_key_part(text, n, pos[i], codes, sym, b, h0, j0, h0, 0u);
    if (lo_part && lid == 0 && tie_left)
        ll[0] = (uint)pd_key_part(text, n, pos[i - 1], codes, sym, b, h0, j0, h0, 0u);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < m) flags[i] = !tie_left || (lo_part && ll[lid + 1] != ll[lid]);
}

/* Integer alphabets (sym = 2 or 4 bytes a symbol): the initial key is
 * the first symbol itself, so no alphabet table is needed and any symbol
 * values work; the doubling starts at h = 1. */
__kernel void pd_key_sym(const __global uchar *text, ulong n, uint sym, __global uint *keys,
                         __global idx_t *pos)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    keys[i] = sym == 2 ? (uint)((const __global ushort *)text)[i] : ((const __global uint *)text)[i];
    pos[i] = (idx_t)i;
}

/* Group heads after the sort by the first symbol: the sorted key changes. */
__kernel void pd_sym_heads(const __global uint *keys, ulong n, __global uint *flags)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    flags[i] = i == 0 || keys[i] != keys[i - 1];
}

/* Integer alphabets: the dense code of the symbol at sorted slot i
 * (1..sigma: the inclusive scan of pd_sym_heads' flags) written at its
 * text position, so the packed initial sort reads sym-byte codes where the
 * byte path reads codes[text[q]].  out may be the text itself: no kernel
 * reads the symbols after their sort. */
__kernel void pd_sym_codes(const __global uint *code, const __global idx_t *pos, ulong n, uint sym,
                           __global uchar *out)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    if (sym == 2) ((__global ushort *)out)[pos[i]] = (ushort)code[i];
    else ((__global uint *)out)[pos[i]] = code[i];
}

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

/* Every rank is final: SA is the inverse permutation of ISA. */
__kernel void pd_invert(const __global idx_t *isa, ulong n, __global idx_t *sa)
{
    ulong p = get_global_id(0);
    if (p >= n) return;
    sa[isa[p]] = (idx_t)p;
}

/* vals[i] = i (the positions that go with the ranks in pd_invert's
 * bucketed form, host/sa/prefix_doubling.c invert). */
__kernel void pd_iota(ulong n, __global idx_t *vals)
{
    ulong i = get_global_id(0);
    if (i < n) vals[i] = (idx_t)i;
}

/* sa[keys[i]] = vals[i]: pd_invert after (rank, position) pairs were
 * sorted by the rank's top bits, so the writes of neighbouring work-items
 * fall in one window of the SA instead of anywhere in it. */
__kernel void pd_scatter_pairs(const __global idx_t *keys, const __global idx_t *vals, ulong n,
                               __global idx_t *sa)
{
    ulong i = get_global_id(0);
    if (i < n) sa[keys[i]] = vals[i];
}

/* One repeated byte: suffix n-1 (the shortest) first. */
__kernel void pd_reverse(ulong n, __global idx_t *sa)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    sa[i] = (idx_t)(n - 1 - i);
}

/* Short texts (n <= P, one work-group): the whole initial sort as one
 * bitonic sort of (packed key, position) in local memory, instead of the
 * launches of two radix sorts.  Padding entries sort last. */
__kernel void pd_sort_small(const __global uchar *text, ulong n, const __global ushort *codes,
                            uint sym, uint b, uint h0, uint sep, uint P, __global idx_t *pos,
                            __local ulong *lk, __local idx_t *lv)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint i = lid; i < P; i += ls) {
        lk[i] = i < n ? pd_key(text, n, i, codes, sym, b, h0, sep) : ~0ul;
        lv[i] = (idx_t)i;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 2; k <= P; k <<= 1) {
        for (uint d = k >> 1; d > 0; d >>= 1) {
            for (uint t = lid; t < P / 2; t += ls) {
                uint a = ((t & ~(d - 1)) << 1) | (t & (d - 1)), c = a + d;
                ulong ka = lk[a], kc = lk[c];
                /* ties (equal keys) by position keep the result deterministic */
                int gt = ka > kc || (ka == kc && lv[a] > lv[c]);
                if (gt == ((a & k) == 0)) {
                    idx_t va = lv[a];
                    lk[a] = kc;
                    lk[c] = ka;
                    lv[a] = lv[c];
                    lv[c] = va;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    for (uint i = lid; i < n; i += ls) pos[i] = lv[i];
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

/* ---- one part of the suffixes (several devices, host/sa/pd_part.c) ----------
 * Member `me` of a set sorts the suffixes whose first 8 bytes (big-endian,
 * 0 past the end) fall in its range between the splitters: keys below
 * split[0] belong to member 0, ..., at or above split[nsplit - 1] to the
 * last.  The order of the ranges is the order of the suffixes, so ranks
 * (SA indexes) are global and each member's SA is one slice of the whole. */

static uint pd_owner_of(ulong k, const __global ulong *split, uint nsplit)
{
    uint o = 0;
    for (uint s = 0; s < nsplit; s++) o += split[s] <= k;
    return o;
}

static uint pd_owner(const __global uchar *text, ulong n, ulong p, const __global ulong *split,
                     uint nsplit)
{
    ulong k = 0;
    for (uint j = 0; j < 8; j++) k = k << 8 | (p + j < n ? (ulong)text[p + j] : 0ul);
    return pd_owner_of(k, split, nsplit);
}

/* Inclusive sum of v over the work-group (Hillis and Steele, any local
 * size; x and y: a uint a work-item); *total: the work-group's sum.  Every
 * work-item passes its barriers. */
static uint pd_group_scan(uint v, __local uint *x, __local uint *y, uint *total)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    __local uint *in = x, *out = y, *t;
    in[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 1; s < ls; s *= 2) {
        out[lid] = in[lid] + (lid >= s ? in[lid - s] : 0u);
        barrier(CLK_LOCAL_MEM_FENCE);
        t = in, in = out, out = t;
    }
    *total = in[ls - 1];
    return in[lid];
}

/* The member's suffixes in two passes, with no flag a suffix (a flag array
 * and its scan moved 14 GB at 1 GB of text): bits[w] bit j = suffix 32 w +
 * j is this member's, count[group] = the work-group's suffixes.  Each
 * work-item rolls one key over its 32 suffixes, a byte in a step. */
__kernel void pd_part_own(const __global uchar *text, ulong n, const __global ulong *split,
                          uint nsplit, uint me, __global uint *bits, __global uint *count,
                          __local uint *x, __local uint *y)
{
    ulong w = get_global_id(0), p0 = w * 32;
    uint word = 0, total;
    if (p0 < n) {
        ulong k = 0;
        for (uint j = 0; j < 8; j++) k = k << 8 | (p0 + j < n ? (ulong)text[p0 + j] : 0ul);
        for (uint j = 0; j < 32 && p0 + j < n; j++) {
            word |= (uint)(pd_owner_of(k, split, nsplit) == me) << j;
            ulong q = p0 + j + 8;
            k = k << 8 | (q < n ? (ulong)text[q] : 0ul);
        }
        bits[w] = word;
    }
    pd_group_scan(popcount(word), x, y, &total);
    if (get_local_id(0) == 0) count[get_group_id(0)] = total;
}

/* u[...] = the member's suffixes in position order, from pd_part_own's bits
 * and the exclusive scan of its counts (start).  The work-group's
 * suffixes go through stage (stage_len entries at a time) so that its
 * writes are coalesced: written straight from each work-item's word they
 * were a store a suffix, 32 places a warp (6.4 ms for 500 M suffixes on an
 * H100, bench log run 30). */
__kernel void pd_part_own_write(const __global uint *bits, ulong n, const __global uint *start,
                                __global idx_t *u, __local uint *x, __local uint *y,
                                __local idx_t *stage, uint stage_len)
{
    ulong w = get_global_id(0), p0 = w * 32, base = start[get_group_id(0)];
    uint lid = get_local_id(0), ls = get_local_size(0);
    uint word = p0 < n ? bits[w] : 0u, c = popcount(word), total;
    uint first = pd_group_scan(c, x, y, &total) - c;
    for (uint c0 = 0; c0 < total; c0 += stage_len) {
        uint wd = word, k = first;
        for (; wd && k < c0; k++) wd &= wd - 1u;
        for (; wd && k < c0 + stage_len; k++) {
            uint low = wd & (~wd + 1u);
            stage[k - c0] = (idx_t)(p0 + popcount(low - 1u));
            wd ^= low;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint cnt = total - c0 < stage_len ? total - c0 : stage_len;
        for (uint i = lid; i < cnt; i += ls) u[base + c0 + i] = stage[i];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* flags[i] = the rank of u[i] + h (top bit of u masked: groups.cl's marks)
 * is another member's: it has to be asked for before the pass. */
__kernel void pd_part_need(const __global idx_t *u, ulong m, ulong n, ulong h, idx_t mask,
                           const __global uchar *text, const __global ulong *split, uint nsplit,
                           uint me, __global uint *flags)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    ulong q = (ulong)(u[i] & mask) + h;
    flags[i] = q < n && pd_owner(text, n, q, split, nsplit) != me;
}

/* req[r] = the position asked for by slot slots[r]. */
__kernel void pd_part_requests(const __global idx_t *u, const __global idx_t *slots, ulong cnt,
                               ulong h, idx_t mask, __global idx_t *req)
{
    ulong r = get_global_id(0);
    if (r < cnt) req[r] = (u[slots[r]] & mask) + (idx_t)h;
}

/* The owner's answers: ans[r] = isa[req[r]]. */
__kernel void pd_part_answer(const __global idx_t *req, ulong cnt, const __global idx_t *isa,
                             __global idx_t *ans)
{
    ulong r = get_global_id(0);
    if (r < cnt) ans[r] = isa[req[r]];
}

/* The asker stores them: isa[req[r]] = ans[r]. */
__kernel void pd_part_store(const __global idx_t *req, const __global idx_t *ans, ulong cnt,
                            __global idx_t *isa)
{
    ulong r = get_global_id(0);
    if (r < cnt) isa[req[r]] = ans[r];
}

/* Ranks of a slice the initial sort finished (no ISA was written):
 * isa[sa[x]] = base + x. */
__kernel void pd_part_isa(const __global idx_t *sa, ulong cnt, idx_t base, __global idx_t *isa)
{
    ulong x = get_global_id(0);
    if (x < cnt) isa[sa[x]] = base + (idx_t)x;
}

/* The slice of SA = ISA^-1 over this member's suffixes (the ISA entries
 * of other members' suffixes are stale or unset and never read). */
__kernel void pd_part_invert(const __global idx_t *isa, const __global uchar *text, ulong n,
                             const __global ulong *split, uint nsplit, uint me, idx_t base,
                             __global idx_t *sa)
{
    ulong p = get_global_id(0);
    if (p < n && pd_owner(text, n, p, split, nsplit) == me) sa[isa[p] - base] = (idx_t)p;
}
