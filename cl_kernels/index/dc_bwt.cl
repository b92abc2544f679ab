/* BWT by buckets over a difference-cover sample (host/index/dc_bwt.c,
 * docs/SA.md "Genome scale").  Period 7, cover {0, 1, 3}: for any two
 * positions i, j some l < 7 puts both i + l and j + l in the sample.
 * Symbols are codes 1..sigma of b <= 4 bits, 0 past the end.  The sample
 * holds every position q <= n with q % 7 in the cover; its index is
 * base(q % 7) + q / 7 (class 0, then class 1, then class 3; c0 and c1
 * positions in the first two) and its rank among the sample is R[index].
 * Positions are 64-bit (below 2^44); sample indices and bucket slots fit
 * 32 bits. */

#define DC_V 7

static uint dc_code(const __global uchar *text, const __global uint *codes, ulong n, ulong q)
{
    return q < n ? codes[text[q]] : 0u;
}

/* The len symbols from p, b bits each, the first most significant. */
static ulong dc_prefix(const __global uchar *text, const __global uint *codes, ulong n, ulong p,
                       uint b, uint len)
{
    ulong k = 0;
    for (uint t = 0; t < len; t++) k = (k << b) | dc_code(text, codes, n, p + t);
    return k;
}

static int dc_in(uint c) { return c == 0 || c == 1 || c == 3; }

/* q / 7 for q < 2^44 by a multiply: with `/` LLVM pairs q / 7 and q % 7
 * through a `freeze`, which Oclgrind cannot check. */
static ulong dc_div(ulong q) { return mul_hi(q, 0x924924924924924aUL) >> 2; }

/* q % 7, given d = q / 7. */
static uint dc_class(ulong q, ulong d) { return (uint)(q - DC_V * d); }

static ulong dc_index(ulong q, ulong c0, ulong c1)
{
    ulong d = dc_div(q);
    uint c = dc_class(q, d);
    return (c == 0 ? 0 : c == 1 ? c0 : c0 + c1) + d;
}

/* The smallest l with both (a + l) % 7 and (c + l) % 7 in the cover. */
static uint dc_delta(uint a, uint c)
{
    uint l = 0;
    while (!(dc_in((a + l) % DC_V) && dc_in((c + l) % DC_V))) l++;
    return l;
}

/* names[j] = the 7 symbols at sample position j (the reduced text). */
__kernel void dcb_names(const __global uchar *text, const __global uint *codes, ulong n, uint b,
                        ulong c0, ulong c1, ulong m, __global uint *names)
{
    for (ulong j = get_global_id(0); j < m; j += get_global_size(0)) {
        ulong p = j < c0 ? DC_V * j : j < c0 + c1 ? DC_V * (j - c0) + 1 : DC_V * (j - c0 - c1) + 3;
        names[j] = (uint)dc_prefix(text, codes, n, p, b, DC_V);
    }
}

/* R[sa[x]] = x: the sample's ranks from the reduced text's suffix array. */
__kernel void dcb_invert(const __global uint *sa, ulong m, __global uint *rank)
{
    for (ulong x = get_global_id(0); x < m; x += get_global_size(0)) rank[sa[x]] = (uint)x;
}

/* hist[bin] += suffixes whose first P symbols make bin: each work-item
 * counts a run of DCB_RUN positions, one atomic a change of bin (long
 * runs of one symbol hit one bin). */
#define DCB_RUN 64
__kernel void dcb_hist(const __global uchar *text, const __global uint *codes, ulong n, uint b,
                       uint P, __global uint *hist)
{
    ulong mask = ((ulong)1 << (b * P)) - 1;
    for (ulong s = get_global_id(0) * DCB_RUN; s < n; s += get_global_size(0) * DCB_RUN) {
        ulong v = dc_prefix(text, codes, n, s, b, P);
        uint cur = (uint)v, cnt = 1;
        for (ulong p = s + 1; p < s + DCB_RUN && p < n; p++) {
            v = ((v << b) | dc_code(text, codes, n, p + P - 1)) & mask;
            if ((uint)v == cur) cnt++;
            else {
                atomic_add(&hist[cur], cnt);
                cur = (uint)v;
                cnt = 1;
            }
        }
        atomic_add(&hist[cur], cnt);
    }
}

/* pos gets the positions whose bin lies in [lo, hi), in any order: a
 * work-group's tile counts its own in local memory, then takes its slots
 * with one atomic on count. */
__kernel void dcb_gather(const __global uchar *text, const __global uint *codes, ulong n, uint b,
                         uint P, uint lo, uint hi, __global ulong *pos, __global uint *count,
                         __local uint *slot)
{
    ulong wg = get_local_size(0), lid = get_local_id(0);
    for (ulong t0 = get_group_id(0) * wg; t0 < n; t0 += get_num_groups(0) * wg) {
        ulong p = t0 + lid;
        uint bin = p < n ? (uint)dc_prefix(text, codes, n, p, b, P) : hi;
        int in = bin >= lo && bin < hi;
        if (lid == 0) slot[0] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        uint mine = in ? atomic_inc(&slot[0]) : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) slot[1] = slot[0] ? atomic_add(count, slot[0]) : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (in) pos[slot[1] + mine] = p;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* key[x] = the sample rank of the first sample position at or after
 * pos[x] (0 past n, where the suffix's prefix is unique anyway). */
__kernel void dcb_key_rank(const __global ulong *pos, ulong mb, ulong n, ulong c0, ulong c1,
                           const __global uint *R, __global uint *key)
{
    for (ulong x = get_global_id(0); x < mb; x += get_global_size(0)) {
        ulong q = pos[x];
        uint c = dc_class(q, dc_div(q));
        while (!dc_in(c % DC_V)) c++, q++;
        key[x] = q <= n ? R[dc_index(q, c0, c1)] : 0u;
    }
}

/* key[x] = the first L symbols of pos[x], then its class (3 bits). */
__kernel void dcb_key_prefix(const __global uchar *text, const __global uint *codes, ulong n,
                             uint b, uint L, const __global ulong *pos, ulong mb,
                             __global ulong *key)
{
    for (ulong x = get_global_id(0); x < mb; x += get_global_size(0)) {
        ulong p = pos[x];
        key[x] = dc_prefix(text, codes, n, p, b, L) << 3 | dc_class(p, dc_div(p));
    }
}

/* The first index in [lo, hi) whose key is at least v (keys sorted). */
static ulong dc_lower(const __global ulong *key, ulong lo, ulong hi, ulong v)
{
    while (lo < hi) {
        ulong mid = lo + (hi - lo) / 2;
        if (key[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The first slot of k's prefix group g (key >> 3), galloping back. */
static ulong dc_group_start(const __global ulong *key, ulong k, ulong g)
{
    ulong hi = k, step = 1;
    while (hi > 0) {
        /* a branch, not a clamped difference (llvm.usub.sat: Oclgrind lacks it) */
        if (step >= hi) return key[0] >> 3 == g ? 0 : dc_lower(key, 1, hi, g << 3);
        ulong lo = hi - step;
        if (key[lo] >> 3 != g) return dc_lower(key, lo + 1, hi, g << 3);
        hi = lo;
        step <<= 1;
    }
    return 0;
}

/* One past the last slot of k's prefix group g, galloping forward. */
static ulong dc_group_end(const __global ulong *key, ulong k, ulong mb, ulong g)
{
    ulong lo = k, step = 1;
    for (;;) {
        ulong hi = lo + step;
        if (hi >= mb) return dc_lower(key, lo + 1, mb, (g + 1) << 3);
        if (key[hi] >> 3 != g) return dc_lower(key, lo + 1, hi, (g + 1) << 3);
        lo = hi;
        step <<= 1;
    }
}

/* How many suffixes of the class list [lo, hi) (one class, one prefix,
 * in order) are smaller than p, compared through the sample at offset l. */
static ulong dc_count_below(const __global ulong *pos, const __global uint *R, ulong lo,
                            ulong hi, ulong p, uint l, ulong c0, ulong c1)
{
    uint rp = R[dc_index(p + l, c0, c1)];
    ulong first = lo;
    while (lo < hi) {
        ulong mid = lo + (hi - lo) / 2;
        if (R[dc_index(pos[mid] + l, c0, c1)] < rp) lo = mid + 1;
        else hi = mid;
    }
    return lo - first;
}

/* The bucket's row of slot k: sorted by (prefix, class, sample rank), a
 * prefix group's class lists are merged by counting, for each other
 * class, its suffixes below k's through the sample at their common
 * offset (the prefix of L >= 7 symbols is equal, so it decides). */
static ulong dc_row(const __global ulong *key, const __global ulong *pos, ulong mb,
                    const __global uint *R, ulong c0, ulong c1, ulong k)
{
    ulong kk = key[k], g = kk >> 3;
    uint a = (uint)(kk & 7);
    if ((k == 0 || key[k - 1] >> 3 != g) && (k + 1 == mb || key[k + 1] >> 3 != g)) return k;
    ulong gs = dc_group_start(key, k, g), ge = dc_group_end(key, k, mb, g);
    ulong row = gs + (k - dc_lower(key, gs, k, kk)), p = pos[k];
    for (uint c = 0; c < DC_V; c++) {
        if (c == a) continue;
        ulong lo = dc_lower(key, gs, ge, g << 3 | c), hi = dc_lower(key, lo, ge, g << 3 | (c + 1));
        if (lo < hi) row += dc_count_below(pos, R, lo, hi, p, dc_delta(a, c), c0, c1);
    }
    return row;
}

/* Each suffix of the bucket to its row: bwt[row] = the symbol before it
 * (0 for suffix 0, whose row goes to primary[0]).  Samples (rate > 0):
 * by position, p a multiple of rate gets samples[p / rate] = base + row +
 * 1, its row among the n + 1 suffixes (the empty one first); by_row, a
 * row g = base + row with g + 1 a multiple of rate gets samples[(g + 1) /
 * rate - 1] = p (bwa's .sa).  v / rate is mul_hi(v, magic) >> shift (the
 * host's constants; rate 1: v), no `/`. */
__kernel void dcb_merge(const __global ulong *key, const __global ulong *pos, ulong mb,
                        const __global uchar *text, const __global uint *R, ulong c0, ulong c1,
                        ulong base, ulong rate, ulong magic, uint shift, uint by_row,
                        __global ulong *samples, __global uchar *bwt, __global ulong *primary)
{
    for (ulong k = get_global_id(0); k < mb; k += get_global_size(0)) {
        ulong row = dc_row(key, pos, mb, R, c0, c1, k), p = pos[k];
        bwt[row] = p ? text[p - 1] : 0;
        if (!p) primary[0] = row;
        ulong v = by_row ? base + row + 1 : p, q = rate == 1 ? v : mul_hi(v, magic) >> shift;
        if (rate && q * rate == v) samples[q - by_row] = by_row ? p : base + row + 1;
    }
}
