/* Prefix doubling: lazy initial ranks (host/sa/pd_lazy.c). */

/* ---- ranks written where they are read (host/sa/pd_lazy.c) ----
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
