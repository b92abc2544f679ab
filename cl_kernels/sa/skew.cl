/* Suffix array by skew (DC3, docs/SA.md "Skew"): the kernels of one
 * level, launched from host/sa/skew.c.  Indices are 32-bit (uint) at
 * every level; only the final merge may write 64-bit entries.
 *
 * A level sorts a text t of m symbols.  Its symbols: bytes or ushorts
 * mapped through codes[] to 1..sigma (sym = 1, 2), or uints that already
 * hold codes 1..sigma (sym = 4, every level below the first); 0 is past
 * the end.  The sample holds the positions i % 3 != 0 below
 * m + (n0 - n1): reduced index j < n0 is position 3j + 1 (j = n0 - 1 is
 * the dummy position m when m % 3 == 1), j >= n0 is 3(j - n0) + 2. */

static uint sk_sym(const __global uchar *text, const __global uint *codes, uint sym, ulong m,
                   ulong q)
{
    if (q >= m) return 0u;
    return sym == 1   ? codes[text[q]]
           : sym == 2 ? codes[((const __global ushort *)text)[q]]
                      : ((const __global uint *)text)[q];
}

static ulong sk_pos(ulong j, ulong n0) { return j < n0 ? 3 * j + 1 : 3 * (j - n0) + 2; }

/* Bit v of used (8 words) for every byte v of the text, the host then
 * numbering them 1..sigma: each work-item ORs its bytes into a private
 * mask, the work-group its masks in local memory, then into used. */
__kernel void sk_used_bytes(const __global uchar *text, ulong m, __global uint *used,
                            __local uint *group)
{
    uint mine[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (ulong i = get_global_id(0); i < m; i += get_global_size(0)) {
        uint v = text[i];
        mine[v >> 5] |= 1u << (v & 31);
    }
    uint lid = (uint)get_local_id(0);
    if (lid < 8) group[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < 8; k++)
        if (mine[k]) atomic_or(&group[k], mine[k]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 8 && group[lid]) atomic_or(&used[lid], group[lid]);
}

/* The same for ushorts (2048 words), straight into used. */
__kernel void sk_used_u16(const __global ushort *text, ulong m, __global uint *used)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    uint v = text[i];
    atomic_or(&used[v >> 5], 1u << (v & 31));
}

/* vals[x] = x: the sample's reduced indices before the triple sort. */
__kernel void sk_iota(ulong count, __global uint *vals)
{
    ulong x = get_global_id(0);
    if (x < count) vals[x] = (uint)x;
}

/* keys[x] = symbols first .. first+count-1 of the triple at sample index
 * vals[x], b bits each, the first most significant; 64-bit keys where
 * wide. */
__kernel void sk_key(const __global uchar *text, const __global uint *codes, uint sym, ulong m,
                     ulong n0, uint b, uint first, uint count, const __global uint *vals,
                     ulong nv, uint wide, __global uint *keys)
{
    ulong x = get_global_id(0);
    if (x >= nv) return;
    ulong q = sk_pos(vals[x], n0);
    ulong k = 0;
    for (uint d = first; d < first + count; d++) k = (k << b) | sk_sym(text, codes, sym, m, q + d);
    if (wide) ((__global ulong *)keys)[x] = k;
    else keys[x] = (uint)k;
}

/* flags[x] = 1 where the triple at vals[x] differs from the one before
 * it in sorted order (x = 0 included): their inclusive sum names it. */
__kernel void sk_heads(const __global uchar *text, const __global uint *codes, uint sym,
                       ulong m, ulong n0, const __global uint *vals, ulong nv,
                       __global uint *flags)
{
    ulong x = get_global_id(0);
    if (x >= nv) return;
    uint f = 1u;
    if (x > 0) {
        ulong q = sk_pos(vals[x], n0), r = sk_pos(vals[x - 1], n0);
        f = 0u;
        for (uint d = 0; d < 3 && !f; d++)
            f = sk_sym(text, codes, sym, m, q + d) != sk_sym(text, codes, sym, m, r + d);
    }
    flags[x] = f;
}

/* The reduced text: r[vals[x]] = names[x]. */
__kernel void sk_names(const __global uint *vals, const __global uint *names, ulong nv,
                       __global uint *r)
{
    ulong x = get_global_id(0);
    if (x < nv) r[vals[x]] = names[x];
}

/* isa[sa12[x]] = x + 1: the sample's ranks, 0 left for past the end. */
__kernel void sk_isa(const __global uint *sa12, ulong n02, __global uint *isa)
{
    ulong x = get_global_id(0);
    if (x < n02) isa[sa12[x]] = (uint)(x + 1);
}

/* flags[x] = whether sa12[x] is a position 3j + 1: its j (position 3j)
 * comes next among the positions i % 3 == 0 in the order of their second
 * symbol's suffix. */
__kernel void sk_mod0_flags(const __global uint *sa12, ulong n02, ulong n0, __global uint *flags)
{
    ulong x = get_global_id(0);
    if (x < n02) flags[x] = sa12[x] < n0 ? 1u : 0u;
}

/* sa0[at[x]] = sa12[x] where it is below n0 (at: exclusive sum of the flags). */
__kernel void sk_mod0_gather(const __global uint *sa12, const __global uint *at, ulong n02,
                             ulong n0, __global uint *sa0)
{
    ulong x = get_global_id(0);
    if (x < n02 && sa12[x] < n0) sa0[at[x]] = sa12[x];
}

/* keys[y] = the first symbol of position 3 * sa0[y]. */
__kernel void sk_mod0_keys(const __global uchar *text, const __global uint *codes, uint sym,
                           ulong m, const __global uint *sa0, ulong n0, __global uint *keys)
{
    ulong y = get_global_id(0);
    if (y < n0) keys[y] = sk_sym(text, codes, sym, m, 3 * (ulong)sa0[y]);
}

static uint sk_rank(const __global uint *isa, ulong idx, ulong n02)
{
    return idx < n02 ? isa[idx] : 0u;
}

/* Whether the suffix at sample index j12 is smaller than the one at
 * position 3 * j0: one symbol and a sample rank for positions 3j + 1,
 * two symbols and a rank for 3j + 2. */
static int sk_less(const __global uchar *text, const __global uint *codes, uint sym, ulong m,
                   ulong n0, ulong n02, const __global uint *isa, uint j12, uint j0)
{
    ulong q = sk_pos(j12, n0), i = 3 * (ulong)j0;
    uint a = sk_sym(text, codes, sym, m, q), c = sk_sym(text, codes, sym, m, i);
    if (a != c) return a < c;
    if (q % 3 == 1) return sk_rank(isa, n0 + (q + 1) / 3, n02) < isa[j0];
    a = sk_sym(text, codes, sym, m, q + 1);
    c = sk_sym(text, codes, sym, m, i + 1);
    if (a != c) return a < c;
    return sk_rank(isa, (q + 2) / 3, n02) < sk_rank(isa, n0 + j0, n02);
}

static void sk_put(__global uint *out, uint out64, ulong k, ulong v)
{
    if (out64) ((__global ulong *)out)[k] = v;
    else out[k] = (uint)v;
}

/* The level's suffix array: merge path over the sample's order a
 * (na entries from aoff) and the other positions' b (nb), tile outputs a
 * work-item.  Each finds where its first output's diagonal crosses the
 * two lists, then merges tile outputs from there. */
__kernel void sk_merge(const __global uchar *text, const __global uint *codes, uint sym, ulong m,
                       ulong n0, ulong n02, const __global uint *isa, const __global uint *a,
                       ulong aoff, ulong na, const __global uint *b, ulong nb, uint tile, uint out64,
                       __global uint *out)
{
    ulong d = get_global_id(0) * (ulong)tile;
    if (d >= na + nb) return;
    a += aoff;
    /* from 0, not d - nb, positions past b's end counting as taken from a:
     * Oclgrind cannot run the saturating subtraction clang makes of that */
    ulong lo = 0, hi = min(d, na);
    while (lo < hi) {
        ulong mid = (lo + hi) / 2, j = d - 1 - mid;
        if (j >= nb || sk_less(text, codes, sym, m, n0, n02, isa, a[mid], b[j])) lo = mid + 1;
        else hi = mid;
    }
    ulong x = lo, y = d - lo, end = min(d + tile, na + nb);
    for (ulong k = d; k < end; k++) {
        int take_a = y >= nb || (x < na && sk_less(text, codes, sym, m, n0, n02, isa, a[x], b[y]));
        if (take_a) sk_put(out, out64, k, sk_pos(a[x++], n0));
        else sk_put(out, out64, k, 3 * (ulong)b[y++]);
    }
}

/* flags[x] = 1 where sorted keys[x] starts a new value (x = 0 included):
 * the dense codes of a 4-byte alphabet are their inclusive sum. */
__kernel void sk_key_heads(const __global uint *keys, ulong nv, __global uint *flags)
{
    ulong x = get_global_id(0);
    if (x < nv) flags[x] = x == 0 || keys[x] != keys[x - 1] ? 1u : 0u;
}

/* ---- auto's measurement (host/sa/skew_auto.c) ---------------------------
 * Fingerprints of sampled windows of len symbols, polynomial in base mod
 * 2^61 - 1 (no power-of-two modulus: Thue-Morse words defeat those). */
#define SK_P61 ((((ulong)1) << 61) - 1)

static ulong sk_mulmod(ulong a, ulong b)
{
    ulong lo = a * b, hi = mul_hi(a, b);
    ulong r = (lo & SK_P61) + (lo >> 61) + (hi << 3);
    r = (r & SK_P61) + (r >> 61);
    return r >= SK_P61 ? r - SK_P61 : r;
}

static ulong sk_raw(const __global uchar *text, uint sym, ulong q)
{
    return 1 + (ulong)(sym == 1   ? text[q]
                       : sym == 2 ? ((const __global ushort *)text)[q]
                                  : ((const __global uint *)text)[q]);
}

static ulong sk_addmod(ulong a, ulong b)
{
    ulong r = a + b;
    return r >= SK_P61 ? r - SK_P61 : r;
}

/* fp[s] = the fingerprint of the window at pos[s]; cuts[s] = how many of
 * its len - 1 neighbouring pairs differ (run starts: runlen's measure). */
__kernel void sk_fp_sample(const __global uchar *text, uint sym, const __global ulong *pos,
                           ulong count, ulong len, ulong base, __global ulong *fp,
                           __global uint *cuts)
{
    ulong s = get_global_id(0);
    if (s >= count) return;
    ulong h = 0, prev = 0;
    uint c = 0;
    for (ulong i = 0; i < len; i++) {
        ulong v = sk_raw(text, sym, pos[s] + i);
        c += i > 0 && v != prev;
        prev = v;
        h = sk_addmod(sk_mulmod(h, base), v);
    }
    fp[s] = h;
    cuts[s] = c;
}
