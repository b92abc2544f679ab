/* Classification of segments by length for the segmented sort dispatcher.
 * Class c < K (K = log2 TILE): 2^c < length <= 2^(c+1) (bitonic, S);
 * class K: TILE < length <= r2 (merge path, M); class K+1: longer (radix,
 * L); lengths 0 and 1 have no class.  Reduce-then-scan shape: per-block
 * class counts, a scan (clsa__scan) over the class-major count matrix,
 * then a scatter of segment ids; no work-group waits on another.  The
 * order of ids within a block and class is whatever the local atomics
 * give: every segment is sorted on its own, so it does not matter.
 *
 * Types, build options and seg_len: segsort_prelude.cl (only SEG_CSR and
 * TILE are used here). */
#define NO_CLASS 0xFFFFFFFFu

static uint class_of(ulong len, ulong r2)
{
    if (len <= 1) return NO_CLASS;
    uint k = 0;
    while ((1u << k) < TILE) k++;
    if (len <= TILE) return 31 - clz((uint)len - 1); /* ceil(log2 len) - 1 */
    return len <= r2 ? k : k + 1;
}

/* Work-group b counts the classes of segments [b * SEGS, (b+1) * SEGS),
 * SEGS = local size * items; counts[c * nblocks + b]. */
__kernel void segsort_count(const __global idx_t *offs, const __global idx_t *lens, ulong nseg,
                            ulong r2, uint nclasses, uint items, __global uint *counts,
                            __local uint *hist)
{
    uint lid = get_local_id(0), lsize = get_local_size(0);
    ulong b = get_group_id(0), nblocks = get_num_groups(0);
    for (uint c = lid; c < nclasses; c += lsize) hist[c] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong base = b * lsize * items;
    for (uint r = 0; r < items; r++) {
        ulong s = base + (ulong)r * lsize + lid;
        if (s >= nseg) break;
        uint c = class_of(seg_len(offs, lens, s), r2);
        if (c != NO_CLASS) atomic_inc(&hist[c]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint c = lid; c < nclasses; c += lsize) counts[c * nblocks + b] = hist[c];
}

/* bases: exclusive scan of counts.  list[bases[c * nblocks + b] + rank] = s. */
__kernel void segsort_scatter(const __global idx_t *offs, const __global idx_t *lens, ulong nseg,
                              ulong r2, uint nclasses, uint items, const __global uint *bases,
                              __global uint *list, __local uint *hist)
{
    uint lid = get_local_id(0), lsize = get_local_size(0);
    ulong b = get_group_id(0), nblocks = get_num_groups(0);
    for (uint c = lid; c < nclasses; c += lsize) hist[c] = bases[c * nblocks + b];
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong base = b * lsize * items;
    for (uint r = 0; r < items; r++) {
        ulong s = base + (ulong)r * lsize + lid;
        if (s >= nseg) break;
        uint c = class_of(seg_len(offs, lens, s), r2);
        if (c != NO_CLASS) list[atomic_inc(&hist[c])] = (uint)s;
    }
}

/* first[c] = bases[c * nblocks] (where class c starts in list). */
__kernel void segsort_class_starts(const __global uint *bases, ulong nblocks, uint nclasses,
                                   __global uint *first)
{
    uint c = get_global_id(0);
    if (c < nclasses) first[c] = bases[c * nblocks];
}

/* Float keys before and after the radix path: order-preserving bit flip. */
__kernel void segsort_flip(__global uint *keys, ulong n, int forward)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    uint k = keys[i];
    if (forward) keys[i] = k ^ ((k >> 31) ? 0xFFFFFFFFu : 0x80000000u);
    else keys[i] = k ^ ((k >> 31) ? 0x80000000u : 0xFFFFFFFFu);
}
