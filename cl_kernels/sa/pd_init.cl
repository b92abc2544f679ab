/* Prefix doubling, stages 1 and 2 (host/sa/pd_init.c): the initial
 * packed-prefix keys and sorts, and the initial group heads.
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

/* codes[c] = the code of byte c (host/sa/pd_init.c alphabet):
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

/* ---- a short key first (host/sa/pd_init.c initial_sort_msd) ----
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
