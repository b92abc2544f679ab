/* ---- one part of the suffixes (several devices, host/sa/pd_part.c) ----------
 * Member `me` of a set sorts the suffixes whose first 8 bytes (big-endian,
 * 0 past the end) fall in its range between the splitters: keys below
 * split[0] belong to member 0, ..., at or above split[nsplit - 1] to the
 * last.  The order of the ranges is the order of the suffixes, so ranks
 * (SA indexes) are global and each member's SA is one slice of the whole. */

static uint pd_owner_of(ulong k, const __global ulong *split, uint nsplit)
{
    uint o = 0;
    for (uint s = 0; s < nsplit; s++) o += split[s] <= k;
    return o;
}

static uint pd_owner(const __global uchar *text, ulong n, ulong p, const __global ulong *split,
                     uint nsplit)
{
    ulong k = 0;
    for (uint j = 0; j < 8; j++) k = k << 8 | (p + j < n ? (ulong)text[p + j] : 0ul);
    return pd_owner_of(k, split, nsplit);
}

/* Inclusive sum of v over the work-group (Hillis and Steele, any local
 * size; x and y: a uint a work-item); *total: the work-group's sum.  Every
 * work-item passes its barriers. */
static uint pd_group_scan(uint v, __local uint *x, __local uint *y, uint *total)
{
    uint lid = get_local_id(0), ls = get_local_size(0);
    __local uint *in = x, *out = y, *t;
    in[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = 1; s < ls; s *= 2) {
        out[lid] = in[lid] + (lid >= s ? in[lid - s] : 0u);
        barrier(CLK_LOCAL_MEM_FENCE);
        t = in, in = out, out = t;
    }
    *total = in[ls - 1];
    return in[lid];
}

/* The member's suffixes in two passes, with no flag a suffix (a flag array
 * and its scan moved 14 GB at 1 GB of text): bits[w] bit j = suffix 32 w +
 * j is this member's, count[group] = the work-group's suffixes.  Each
 * work-item rolls one key over its 32 suffixes, a byte in a step. */
__kernel void pd_part_own(const __global uchar *text, ulong n, const __global ulong *split,
                          uint nsplit, uint me, __global uint *bits, __global uint *count,
                          __local uint *x, __local uint *y)
{
    ulong w = get_global_id(0), p0 = w * 32;
    uint word = 0, total;
    if (p0 < n) {
        ulong k = 0;
        for (uint j = 0; j < 8; j++) k = k << 8 | (p0 + j < n ? (ulong)text[p0 + j] : 0ul);
        for (uint j = 0; j < 32 && p0 + j < n; j++) {
            word |= (uint)(pd_owner_of(k, split, nsplit) == me) << j;
            ulong q = p0 + j + 8;
            k = k << 8 | (q < n ? (ulong)text[q] : 0ul);
        }
        bits[w] = word;
    }
    pd_group_scan(popcount(word), x, y, &total);
    if (get_local_id(0) == 0) count[get_group_id(0)] = total;
}

/* u[...] = the member's suffixes in position order, from pd_part_own's bits
 * and the exclusive scan of its counts (start).  The work-group's
 * suffixes go through stage (stage_len entries at a time) so that its
 * writes are coalesced: written straight from each work-item's word they
 * were a store a suffix, 32 places a warp (6.4 ms for 500 M suffixes on an
 * H100, bench log run 30). */
__kernel void pd_part_own_write(const __global uint *bits, ulong n, const __global uint *start,
                                __global idx_t *u, __local uint *x, __local uint *y,
                                __local idx_t *stage, uint stage_len)
{
    ulong w = get_global_id(0), p0 = w * 32, base = start[get_group_id(0)];
    uint lid = get_local_id(0), ls = get_local_size(0);
    uint word = p0 < n ? bits[w] : 0u, c = popcount(word), total;
    uint first = pd_group_scan(c, x, y, &total) - c;
    for (uint c0 = 0; c0 < total; c0 += stage_len) {
        uint wd = word, k = first;
        for (; wd && k < c0; k++) wd &= wd - 1u;
        for (; wd && k < c0 + stage_len; k++) {
            uint low = wd & (~wd + 1u);
            stage[k - c0] = (idx_t)(p0 + popcount(low - 1u));
            wd ^= low;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint cnt = total - c0 < stage_len ? total - c0 : stage_len;
        for (uint i = lid; i < cnt; i += ls) u[base + c0 + i] = stage[i];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* flags[i] = the rank of u[i] + h (top bit of u masked: groups.cl's marks)
 * is another member's: it has to be asked for before the pass. */
__kernel void pd_part_need(const __global idx_t *u, ulong m, ulong n, ulong h, idx_t mask,
                           const __global uchar *text, const __global ulong *split, uint nsplit,
                           uint me, __global uint *flags)
{
    ulong i = get_global_id(0);
    if (i >= m) return;
    ulong q = (ulong)(u[i] & mask) + h;
    flags[i] = q < n && pd_owner(text, n, q, split, nsplit) != me;
}

/* req[r] = the position asked for by slot slots[r]. */
__kernel void pd_part_requests(const __global idx_t *u, const __global idx_t *slots, ulong cnt,
                               ulong h, idx_t mask, __global idx_t *req)
{
    ulong r = get_global_id(0);
    if (r < cnt) req[r] = (u[slots[r]] & mask) + (idx_t)h;
}

/* The owner's answers: ans[r] = isa[req[r]]. */
__kernel void pd_part_answer(const __global idx_t *req, ulong cnt, const __global idx_t *isa,
                             __global idx_t *ans)
{
    ulong r = get_global_id(0);
    if (r < cnt) ans[r] = isa[req[r]];
}

/* The asker stores them: isa[req[r]] = ans[r]. */
__kernel void pd_part_store(const __global idx_t *req, const __global idx_t *ans, ulong cnt,
                            __global idx_t *isa)
{
    ulong r = get_global_id(0);
    if (r < cnt) isa[req[r]] = ans[r];
}

/* Ranks of a slice the initial sort finished (no ISA was written):
 * isa[sa[x]] = base + x. */
__kernel void pd_part_isa(const __global idx_t *sa, ulong cnt, idx_t base, __global idx_t *isa)
{
    ulong x = get_global_id(0);
    if (x < cnt) isa[sa[x]] = base + (idx_t)x;
}

/* The slice of SA = ISA^-1 over this member's suffixes (the ISA entries
 * of other members' suffixes are stale or unset and never read). */
__kernel void pd_part_invert(const __global idx_t *isa, const __global uchar *text, ulong n,
                             const __global ulong *split, uint nsplit, uint me, idx_t base,
                             __global idx_t *sa)
{
    ulong p = get_global_id(0);
    if (p < n && pd_owner(text, n, p, split, nsplit) == me) sa[isa[p] - base] = (idx_t)p;
}
