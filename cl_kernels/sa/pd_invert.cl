/* Prefix doubling, stage 4 (host/sa/pd_invert.c): SA = ISA^-1, and the
 * SA of one repeated byte. */

/* Every rank is final: SA is the inverse permutation of ISA. */
__kernel void pd_invert(const __global idx_t *isa, ulong n, __global idx_t *sa)
{
    ulong p = get_global_id(0);
    if (p >= n) return;
    sa[isa[p]] = (idx_t)p;
}

/* vals[i] = i (the positions that go with the ranks in pd_invert's
 * bucketed form, host/sa/pd_invert.c). */
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
