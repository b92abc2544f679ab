/* The groups of the prefix-doubling loop: what pd_split.cl and pd_sort.cl
 * share (a prelude: programs "groups+pd_sort", "scan+groups+pd_split").
 *
 * u[0..m) holds the unsorted suffixes, grouped by rank in SA order (a group
 * occupies consecutive slots).  The rank of a group is the SA index of its
 * first suffix, so rank = slot + delta, where delta (constant per group) is
 * the number of finished suffixes that precede the group in SA.  Flag
 * arrays are uint so clsa__scan can scan them; an inclusive scan of head
 * flags gives 1 + the group number of every slot. */

static idx_t grp_key2(const __global idx_t *isa, ulong n, ulong h, idx_t p)
{
    ulong q = (ulong)p + h;
    return q < n ? isa[q] + 1 : 0;
}

/* Marker in the split's per-slot value for a slot that is not a
 * singleton (ranks and deltas are below n < 2^32, so never equal it). */
#define GRP_NONE ((idx_t)-1)

/* Marker of a split group that keeps its old rank (grp_rank_split skips
 * its ISA writes): in heads[] for a group of two suffixes or more (their
 * ranks are at most n - 2), in val for a singleton when n <= GRP_SAME (a
 * singleton's rank may be n - 1). */
#define GRP_SAME ((idx_t)-2)

static int grp_single_same_ok(ulong n) { return n <= (ulong)GRP_SAME; }

/* With marks (n < 2^31, host/sa/pd_split.c): in val, the first slot of a
 * group that stays unsorted (grp_head_ranks), so that grp_rank_split can
 * hand the head on to the compaction, which marks it in the top bit of u
 * for the next pass's head scan (no gather of old ranks there). */
#define GRP_HEAD ((idx_t)-3)
#define GRP_TOP ((idx_t)1 << (8 * sizeof(idx_t) - 1))
