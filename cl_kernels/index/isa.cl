/* Inverse suffix array: one scatter.  Reads of sa are coalesced; the
 * writes are a permutation, so each lands in its own place. */
__kernel void isa_scatter(__global const idx_t *sa, __global idx_t *isa, ulong n)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    idx_t s = sa[i];
    if (s < n) isa[s] = (idx_t)i; /* a corrupt sa must not write out of bounds */
}
