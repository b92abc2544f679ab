/* Batched suffix arrays and BWTs (host/index/batch.c): k texts joined into one
 * virtual text t_0 $_0 t_1 $_1 ... t_{k-1} $_{k-1} of N symbols, its
 * generalized suffix array, then that array partitioned by text.
 *
 * vstart[0..k] (ulong): where text d begins in the virtual text (vstart[k]
 * = N); text d's own symbols begin at vstart[d] - d in the joined input.
 * bucket[b] (b <= nb): the text holding virtual position min(b << shift,
 * N - 1), so a lookup searches only the few texts of one bucket. */

static uint bt_search(const __global ulong *vstart, uint lo, uint hi, ulong p)
{
    while (lo < hi) {
        uint mid = lo + (hi - lo + 1) / 2;
        if (vstart[mid] <= p) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* The text of virtual position p < N. */
static uint bt_doc(const __global ulong *vstart, const __global uint *bucket, uint shift, ulong p)
{
    ulong b = p >> shift;
    return bt_search(vstart, bucket[b], bucket[b + 1], p);
}

__kernel void batch_buckets(const __global ulong *vstart, uint k, ulong n, uint shift, uint nb,
                            __global uint *bucket)
{
    uint b = get_global_id(0);
    if (b > nb) return;
    ulong p = min((ulong)b << shift, n - 1);
    bucket[b] = bt_search(vstart, 0, k - 1, p);
}

/* Byte histogram of raw[off, off + m): per work-group counts in local
 * memory, one global atomic per bin. */
__kernel void batch_histogram(const __global uchar *raw, ulong off, ulong m, __global uint *hist,
                              __local uint *lh)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    for (uint i = lid; i < 256; i += ls) lh[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong stride = (ulong)get_global_size(0);
    for (ulong i = get_global_id(0); i < m; i += stride) atomic_inc(&lh[raw[off + i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < 256; i += ls)
        if (lh[i]) atomic_add(&hist[i], lh[i]);
}

/* The virtual text: as bytes (wide = 0), every $_d the byte sep, which no
 * text holds (the suffix array's separator route orders them by position);
 * or, for bytes with no free value (wide = 1), as 32-bit symbols: $_d is d
 * and a byte c is c + sep (sep = k; every separator unique and below every
 * byte). */
__kernel void batch_join(const __global uchar *raw, ulong off, const __global ulong *vstart,
                         const __global uint *bucket, uint shift, ulong n, uint sep, uint wide,
                         __global uchar *vt)
{
    ulong q = get_global_id(0);
    if (q >= n) return;
    uint d = bt_doc(vstart, bucket, shift, q);
    int end = q + 1 == vstart[d + 1];
    uint c = end ? 0u : raw[off + q - d];
    if (wide) ((__global uint *)vt)[q] = end ? d : c + sep;
    else vt[q] = end ? (uchar)sep : (uchar)c;
}

/* Entries k .. N-1 of the generalized suffix array (the first k are the
 * separators' suffixes) as (text, position in that text) pairs, for a
 * stable sort by text. */
__kernel void batch_keys(const __global uint *gsa, const __global ulong *vstart,
                         const __global uint *bucket, uint shift, uint k, ulong m,
                         __global uint *keys, __global uint *vals)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    ulong p = gsa[i + k];
    uint d = bt_doc(vstart, bucket, shift, p);
    keys[i] = d;
    vals[i] = (uint)(p - vstart[d]);
}

/* dst[off + i] = src[i], widened to 64 bits. */
__kernel void batch_widen(const __global uint *src, ulong m, __global ulong *dst, ulong off)
{
    ulong i = get_global_id(0);
    if (i < m) dst[off + i] = src[i];
}

/* BWT, divbwt convention per text: prim[d] = 1 + the row of text d's suffix
 * 0.  keys[j] is the text of output slot j, vals[j] its suffix. */
__kernel void batch_bwt_primary(const __global uint *vals, const __global uint *keys,
                                const __global ulong *vstart, ulong m, __global ulong *prim)
{
    ulong j = get_global_id(0);
    if (j >= m || vals[j] != 0) return;
    uint d = keys[j];
    prim[d] = j - (vstart[d] - d) + 1;
}

/* out[off + j]: row 0 of text d is its last byte, then text[sa[i] - 1] for
 * the rows i other than that of suffix 0. */
__kernel void batch_bwt_gather(const __global uchar *raw, ulong roff, const __global uint *vals,
                               const __global uint *keys, const __global ulong *vstart,
                               const __global ulong *prim, ulong m, __global uchar *out,
                               ulong off)
{
    ulong j = get_global_id(0);
    if (j >= m) return;
    uint d = keys[j];
    ulong o = vstart[d] - d, len = vstart[d + 1] - vstart[d] - 1, r = j - o;
    if (r == 0) {
        out[off + j] = raw[roff + o + len - 1];
        return;
    }
    ulong i = r < prim[d] ? r - 1 : r;
    ulong s = vals[o + i];
    out[off + j] = s - 1 < len ? raw[roff + o + s - 1] : 0; /* s == 0 only if corrupt */
}
