/* Range-minimum queries in O(1) with O(n) words (host/index/rmq.c).
 *
 * Blocks of 32 values.  Inside a block, masks[i] is the stack of
 * right-to-left minima of the block's prefix ending at i (bit j - start set
 * when v[j] < every v[j+1..i]): the minimum of [l, i] is at the lowest set
 * bit >= l.  Across blocks, a sparse table over the block minima:
 * st[k * nb + b] = min of blocks b .. b + 2^k - 1. */

static uint rmq_low_bit(uint m) /* index of the lowest set bit, m != 0 */
{
    return 31 - clz(m & (0u - m));
}

__kernel void rmq_masks(const __global idx_t *v, idx_t n, __global uint *masks,
                        __global idx_t *bmin, idx_t nb)
{
    idx_t b = get_global_id(0);
    if (b >= nb) return;
    idx_t s = b * 32;
    uint len = n - s < 32 ? (uint)(n - s) : 32;
    uint m = 0;
    for (uint j = 0; j < len; j++) {
        idx_t x = v[s + j];
        while (m && v[s + (31 - clz(m))] >= x) m &= ~(1u << (31 - clz(m)));
        m |= 1u << j;
        masks[s + j] = m;
    }
    bmin[b] = v[s + rmq_low_bit(m)];
}

/* Level k of the sparse table from level k-1 (step = 2^(k-1)). */
__kernel void rmq_level(__global idx_t *st, idx_t nb, uint k, idx_t step)
{
    idx_t b = get_global_id(0);
    if (b >= nb) return;
    const __global idx_t *prev = st + (idx_t)(k - 1) * nb;
    idx_t x = prev[b];
    if (b + step < nb) x = min(x, prev[b + step]);
    st[(idx_t)k * nb + b] = x;
}

static idx_t rmq_in_block(const __global idx_t *v, const __global uint *masks, idx_t l, idx_t r)
{
    idx_t s = l / 32 * 32;
    uint m = masks[r] & (~0u << (uint)(l - s));
    return v[s + rmq_low_bit(m)];
}

static idx_t rmq_min(const __global idx_t *v, const __global uint *masks,
                     const __global idx_t *st, idx_t nb, idx_t l, idx_t r)
{
    idx_t bl = l / 32, br = r / 32;
    if (bl == br) return rmq_in_block(v, masks, l, r);
    idx_t x = min(rmq_in_block(v, masks, l, bl * 32 + 31), rmq_in_block(v, masks, br * 32, r));
    idx_t gap = br - bl - 1;
    if (gap > 0) {
        uint k = 0;
        while (((idx_t)2 << k) <= gap) k++;
        x = min(x, min(st[(idx_t)k * nb + bl + 1], st[(idx_t)k * nb + br - ((idx_t)1 << k)]));
    }
    return x;
}

/* lcp_mode = 0: out[q] = min v[a[q] .. b[q]].  lcp_mode = 1: a[q], b[q] are
 * ranks: out[q] = min v[min+1 .. max], or -1 when they are equal.  Bounds
 * were checked by the host. */
__kernel void rmq_query(const __global idx_t *v, const __global uint *masks,
                        const __global idx_t *st, idx_t nb, const __global ulong *a,
                        const __global ulong *b, ulong nq, int lcp_mode, __global long *out)
{
    ulong q = get_global_id(0);
    if (q >= nq) return;
    idx_t l = (idx_t)a[q], r = (idx_t)b[q];
    if (lcp_mode) {
        if (l == r) {
            out[q] = -1;
            return;
        }
        idx_t lo = min(l, r), hi = max(l, r);
        l = lo + 1;
        r = hi;
    }
    out[q] = (long)rmq_min(v, masks, st, nb, l, r);
}
