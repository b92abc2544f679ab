/* Reduce-then-scan over tiles of TILE = local_size * items values.
 * No kernel waits on another work-group (no decoupled look-back): OpenCL
 * does not promise forward progress between work-groups.
 *
 * mode (SCAN_*) says what is summed: the values, or flags.  The flag modes
 * other than SCAN_FLAGS carry one bit of side information through the scan
 * for the suffix-array loop (groups.cl), so that it needs no extra array:
 *  - SCAN_FLAGS_MARK: in[i] != 0 is summed; bit 1 of in[i] comes out in
 *    bit 31 of out[i] (exclusive scans whose sum stays below 2^31);
 *  - SCAN_TOP_BITS: in is an idx_t array; its top bit is summed and
 *    cleared in place (by the downsweep). */
#define SCAN_VALUES 0
#define SCAN_FLAGS 1
#define SCAN_FLAGS_MARK 2
#define SCAN_TOP_BITS 3
#define SCAN_TOP ((idx_t)1 << (8 * sizeof(idx_t) - 1))

/* Element i as stored for the scan (0 past n). */
static uint scan_raw(const __global uint *in, ulong i, ulong n, int mode)
{
    if (i >= n) return 0;
    if (mode == SCAN_TOP_BITS) return ((const __global idx_t *)in)[i] & SCAN_TOP ? 1u : 0u;
    return in[i];
}

/* What a stored element adds to the sum. */
static uint scan_value(uint raw, int mode) { return mode == SCAN_VALUES ? raw : raw != 0; }

static uint scan_load(const __global uint *in, ulong i, ulong n, int mode)
{
    return scan_value(scan_raw(in, i, n, mode), mode);
}

/* Exclusive scan of x[0..lsize) in local memory, in place; returns the total.
 * Hillis-Steele with a double buffer: simple, and lsize is at most a few hundred. */
static uint scan_group(__local uint *x, __local uint *y, uint lid, uint lsize)
{
    uint v = x[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local uint *src = x, *dst = y;
    src[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < lsize; d <<= 1) {
        uint s = src[lid];
        if (lid >= d) s += src[lid - d];
        dst[lid] = s;
        barrier(CLK_LOCAL_MEM_FENCE);
        __local uint *t = src; src = dst; dst = t;
    }
    uint incl = src[lid];
    uint total = src[lsize - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    x[lid] = incl - v;
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

/* block_sums[g] = sum of tile g; with pad_zero also block_sums[groups] = 0,
 * so that the exclusive scan of the sums ends with the grand total. */
__kernel void scan_reduce(const __global uint *in, ulong n, uint items, int mode,
                          int pad_zero, __global uint *block_sums, __local uint *a,
                          __local uint *b)
{
    uint lid = get_local_id(0), lsize = get_local_size(0);
    ulong base = (ulong)get_group_id(0) * lsize * items;
    uint s = 0;
    for (uint j = 0; j < items; j++) s += scan_load(in, base + (ulong)j * lsize + lid, n, mode);
    a[lid] = s;
    uint total = scan_group(a, b, lid, lsize);
    if (lid == 0) block_sums[get_group_id(0)] = total;
    if (pad_zero && lid == 0 && get_group_id(0) + 1 == get_num_groups(0))
        block_sums[get_num_groups(0)] = 0;
}

/* Scans the tile at base (local_size * items values) from offset `run0`:
 * out[i] = the (inclusive or exclusive) sum, index[] as scan_downsweep
 * says; returns the tile's sum.  Starts and ends with the tile in local
 * memory, so it can be called in a loop with barriers in between. */
static uint scan_tile(__global uint *in, __global uint *out, ulong n, ulong base, uint items,
                      int mode, int inclusive, uint run0, int want_index, __global idx_t *index,
                      __local uint *tile, __local uint *a, __local uint *b)
{
    uint lid = get_local_id(0), lsize = get_local_size(0);
    /* Coalesced load into local memory, then each work-item scans a run. */
    for (uint j = 0; j < items; j++) {
        ulong i = base + (ulong)j * lsize + lid;
        uint raw = scan_raw(in, i, n, mode);
        tile[j * lsize + lid] = raw;
        if (mode == SCAN_TOP_BITS && raw) ((__global idx_t *)in)[i] &= ~SCAN_TOP;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint s = 0;
    for (uint j = 0; j < items; j++) s += scan_value(tile[lid * items + j], mode);
    a[lid] = s;
    uint sum = scan_group(a, b, lid, lsize);
    uint run = a[lid] + run0;
    for (uint j = 0; j < items; j++) {
        uint raw = tile[lid * items + j], v = scan_value(raw, mode);
        uint mark = mode == SCAN_FLAGS_MARK ? (raw >> 1 & 1u) << 31 : 0u;
        tile[lid * items + j] = (inclusive ? run + v : run) | mark;
        if (want_index && v) index[run] = (idx_t)(base + (ulong)lid * items + j);
        run += v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < items; j++) {
        ulong i = base + (ulong)j * lsize + lid;
        if (i < n) out[i] = tile[j * lsize + lid];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return sum;
}

/* tile: local_size * items uints.  offsets: exclusive scan of block sums
 * (NULL-equivalent when has_offsets == 0: a single tile).  want_total
 * (single tile): the tile's sum into *total, so that a one-tile scan with
 * a total is one launch.  want_index: index[exclusive sum at i] = i for
 * every i with a nonzero element (with flags: where each group of an
 * inclusive scan of head flags starts), written here while the value is
 * at hand instead of by a second pass over the scan. */
__kernel void scan_downsweep(__global uint *in, __global uint *out, ulong n, uint items,
                             int mode, int inclusive, const __global uint *offsets,
                             int has_offsets, int want_total, __global uint *total,
                             int want_index, __global idx_t *index,
                             __local uint *tile, __local uint *a, __local uint *b)
{
    uint g = get_group_id(0);
    ulong base = (ulong)g * get_local_size(0) * items;
    uint sum = scan_tile(in, out, n, base, items, mode, inclusive, has_offsets ? offsets[g] : 0,
                         want_index, index, tile, a, b);
    if (want_total && get_local_id(0) == 0) *total = sum;
}

/* The whole scan by one work-group, tile after tile with a running sum:
 * one launch instead of reduce, scan of the sums and downsweep, for the
 * mid-size arrays where launches cost more than the work (small inputs
 * and the late passes of the suffix array).  Arguments as scan_downsweep's
 * single-tile form; *total (want_total) gets the sum of all. */
__kernel void scan_serial(__global uint *in, __global uint *out, ulong n, uint items, int mode,
                          int inclusive, int want_total, __global uint *total, int want_index,
                          __global idx_t *index, __local uint *tile, __local uint *a,
                          __local uint *b)
{
    ulong step = (ulong)get_local_size(0) * items;
    uint run = 0;
    for (ulong base = 0; base < n; base += step)
        run += scan_tile(in, out, n, base, items, mode, inclusive, run, want_index, index, tile,
                         a, b);
    if (want_total && get_local_id(0) == 0) *total = run;
}
