/* Reduce-then-scan over tiles of TILE = local_size * items values.
 * No kernel waits on another work-group (no decoupled look-back): OpenCL
 * does not promise forward progress between work-groups.
 *
 * mode (SCAN_*) says what is summed: the values, or flags.  The flag modes
 * other than SCAN_FLAGS carry one bit of side information through the scan
 * for the suffix-array loop (pd_split.cl), so that it needs no extra array:
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

/* ---- the single pass's look-back state (scan_onepass) ----------------------
 * state[SP_TICKET + p], state[SP_FAULTS + p]: the ticket and fault counters
 * of the scans of parity p; state[SP_TOTAL]: the sum of all; SP_USER_WORDS
 * words from SP_USER for the scans' callers (no scan writes them, the host
 * reads them with the total); then a status
 * word a tile (SP_HEAD + tile), then an aggregate word a tile (SP_HEAD +
 * cap + tile).  A status word holds the scan's parity in SP_EPOCH, what
 * the tile published in SP_STATE and a value below 2^29 (host: n < 2^29):
 * a word of the other parity is one the previous scan left, read as
 * nothing published, so no scan zeroes the table before it runs (the host
 * zeroes the words a scan reaches that the one before it did not). */
#define SP_TICKET 0
#define SP_FAULTS 2
#define SP_TOTAL 4
#define SP_USER 8
#define SP_USER_WORDS 32
#define SP_HEAD (SP_USER + SP_USER_WORDS)
#define SP_EPOCH 0x80000000u
#define SP_STATE 0x60000000u
#define SP_AGG 0x20000000u    /* the tile's own sum */
#define SP_PREFIX 0x40000000u /* the sum of every tile up to this one */
#define SP_FAULT 0x60000000u  /* the tile wrote nothing: neither do the ones after it */
#define SP_VALUE 0x1fffffffu
#define SP_FAULTED 0x80000000u /* in an aggregate word: the tile wrote nothing */
/* A look-back waits at most this many reads before it gives up (faults):
 * the loops after it keep their share of llvmpipe's budget of iterations
 * an invocation (CLSA_LOOP_BUDGET), and a GPU waits microseconds. */
#define SP_SPIN 16384u

/* Where tile element i lives in local memory: a word of padding every 32,
 * so that the work-items' runs of `items` consecutive elements fall in
 * different banks (no 8-way conflicts at 8 items); the host allocates
 * tile + tile / 32 + 1 words. */
#define TILE_AT(i) ((i) + ((i) >> 5))

/* Scans the work-items' runs of a tile in local memory: a[lid] = where
 * lid's run starts.  Returns the tile's sum.  Also for kernels that fill
 * the tile themselves (pd_split.cl grp_rank_compact). */
static uint tile_runs(uint items, int mode, __local uint *tile, __local uint *a, __local uint *b)
{
    uint lid = get_local_id(0), lsize = get_local_size(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint s = 0;
    for (uint j = 0; j < items; j++) s += scan_value(tile[TILE_AT(lid * items + j)], mode);
    a[lid] = s;
    return scan_group(a, b, lid, lsize);
}

/* Loads the tile at base (local_size * items values) into local memory as
 * stored and scans the work-items' runs of it: a[lid] = where lid's run
 * starts in the tile.  Returns the tile's sum. */
static uint tile_load(const __global uint *in, ulong n, ulong base, uint items, int mode,
                      __local uint *tile, __local uint *a, __local uint *b)
{
    uint lid = get_local_id(0), lsize = get_local_size(0);
    for (uint j = 0; j < items; j++)
        tile[TILE_AT(j * lsize + lid)] = scan_raw(in, base + (ulong)j * lsize + lid, n, mode);
    return tile_runs(items, mode, tile, a, b);
}


/* The loaded tile's scan from offset run0 into out (the inclusive or
 * exclusive sum), index[] as scan_downsweep says, SCAN_TOP_BITS' bits
 * cleared in in; count = items, or 0 to write nothing (the barriers stay
 * out of conditional code). */
static void tile_store(__global uint *in, __global uint *out, ulong n, ulong base, uint items,
                       uint count, int mode, int inclusive, uint run0, int want_index,
                       __global idx_t *index, __local uint *tile, __local uint *a)
{
    uint lid = get_local_id(0), lsize = get_local_size(0);
    uint run = a[lid] + run0;
    for (uint j = 0; j < count; j++) {
        uint raw = tile[TILE_AT(lid * items + j)], v = scan_value(raw, mode);
        uint mark = mode == SCAN_FLAGS_MARK ? (raw >> 1 & 1u) << 31 : 0u;
        tile[TILE_AT(lid * items + j)] = (inclusive ? run + v : run) | mark;
        if (want_index && v) index[run] = (idx_t)(base + (ulong)lid * items + j);
        run += v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < count; j++) {
        ulong i = base + (ulong)j * lsize + lid;
        if (i < n && mode == SCAN_TOP_BITS) {
            __global idx_t *x = (__global idx_t *)in + i;
            if (*x & SCAN_TOP) *x &= ~SCAN_TOP;
        }
        if (i < n) out[i] = tile[TILE_AT(j * lsize + lid)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Scans the tile at base from offset run0 (tile_load, tile_store: count
 * 0 writes nothing); returns the tile's sum.  Starts and ends with the
 * tile in local memory, so it can be called in a loop with barriers in
 * between. */
static uint scan_tile(__global uint *in, __global uint *out, ulong n, ulong base, uint items,
                      uint count, int mode, int inclusive, uint run0, int want_index,
                      __global idx_t *index, __local uint *tile, __local uint *a, __local uint *b)
{
    uint sum = tile_load(in, n, base, items, mode, tile, a, b);
    tile_store(in, out, n, base, items, count, mode, inclusive, run0, want_index, index, tile, a);
    return sum;
}

/* tile: local_size * items uints.  offsets: exclusive scan of block sums
 * (has_offsets 1), the block sums themselves (2), or NULL-equivalent
 * (0: a single tile).  want_total
 * (single tile): the tile's sum into *total, so that a one-tile scan with
 * a total is one launch.  want_index: index[exclusive sum at i] = i for
 * every i with a nonzero element (with flags: where each group of an
 * inclusive scan of head flags starts), written here while the value is
 * at hand instead of by a second pass over the scan.  has_only: only the
 * tiles g whose only[only_at + g] has SP_FAULTED (scan_onepass's repair). */
__kernel void scan_downsweep(__global uint *in, __global uint *out, ulong n, uint items,
                             int mode, int inclusive, const __global uint *offsets,
                             int has_offsets, int want_total, __global uint *total,
                             int want_index, __global idx_t *index, const __global uint *only,
                             ulong only_at, int has_only, __local uint *tile, __local uint *a,
                             __local uint *b)
{
    uint g = get_group_id(0), lid = get_local_id(0), lsize = get_local_size(0);
    uint count = has_only && !(only[only_at + g] & SP_FAULTED) ? 0u : items;
    ulong base = (ulong)g * lsize * items;
    /* has_offsets 2: offsets holds the tiles' sums (few of them), whose sum
     * before g every work-group adds up itself: no launch scans them */
    uint part = 0;
    for (uint t = lid; has_offsets == 2 && t < g; t += lsize) part += offsets[t];
    a[lid] = part;
    uint before = scan_group(a, b, lid, lsize);
    uint run0 = has_offsets == 1 ? offsets[g] : has_offsets == 2 ? before : 0u;
    uint sum = scan_tile(in, out, n, base, items, count, mode, inclusive, run0, want_index, index,
                         tile, a, b);
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
        run += scan_tile(in, out, n, base, items, items, mode, inclusive, run, want_index, index,
                         tile, a, b);
    if (want_total && get_local_id(0) == 0) *total = run;
}

/* Sum of the tiles before t, walked back from t - 1 to the first that has
 * its prefix, adding the sums on the way.  The work-group reads the words
 * of up to SP_WINDOW tiles at once (one round trip to memory instead of
 * one a tile) and consumes them from the nearest up to the first that has
 * published nothing of this scan yet, which the next round reads again
 * (its work-group took its ticket before this one: it runs and will
 * publish).  Called by every work-item; win: SP_WINDOW words, lb: 3.
 * *bad: the walk met a tile that faulted, or gave up after SP_SPIN words. */
#define SP_WINDOW 32u
static uint sp_look_back(volatile __global uint *status, uint t, uint epoch, __local uint *win,
                         __local uint *lb, uint *bad)
{
    uint lid = get_local_id(0), w = min(SP_WINDOW, (uint)get_local_size(0));
    if (lid == 0) {
        lb[0] = t;  /* tiles before this one not summed yet */
        lb[1] = 0;  /* their sum so far */
        lb[2] = 0;  /* words read */
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint at = lb[0]; at > 0 && lb[2] < SP_SPIN; at = lb[0]) {
        uint k = min(w, at);
        if (lid < k) win[lid] = status_load(&status[at - 1 - lid]);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            uint sum = lb[1], go = 1;
            for (uint i = 0; i < k && go; i++) {
                uint s = win[i], st = (s & SP_EPOCH) == epoch ? s & SP_STATE : 0u;
                go = st != 0u && st != SP_FAULT;
                if (go) {
                    sum += s & SP_VALUE;
                    at = st == SP_PREFIX ? 0u : at - 1;
                    go = at != 0u;
                }
                if (st == SP_FAULT) lb[2] = SP_SPIN; /* stop: at stays above 0 */
            }
            lb[0] = at;
            lb[1] = sum;
            lb[2] = min(SP_SPIN, lb[2] + k);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *bad = lb[0] != 0;
    return lb[1];
}

/* The work-group's tile, from the ticket counter of the scan of parity
 * epoch_no & 1; tile 0 zeroes the next scan's counters (this one's stay
 * for the host).  tno: a local word. */
static uint sp_ticket(volatile __global uint *state, uint epoch_no, __local uint *tno)
{
    uint lid = get_local_id(0), p = epoch_no & 1u;
    if (lid == 0) *tno = atomic_inc(&state[SP_TICKET + p]);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint t = *tno;
    if (t == 0 && lid == 0) {
        atomic_xchg(&state[SP_TICKET + (p ^ 1u)], 0u);
        atomic_xchg(&state[SP_FAULTS + (p ^ 1u)], 0u);
    }
    return t;
}

/* Tile t (of last + 1) of sum `sum`: its sum published before the walk,
 * the walk by the whole work-group (win: SP_WINDOW words), then its prefix
 * or its fault, its aggregate word, and the total (last tile).  Returns
 * the sum of the tiles before it; *ok = 0: the tile faulted and must
 * write nothing.  lb: SP_LB words (the last one free for sp_ticket). */
#define SP_LB 6
static uint sp_tile_prefix(volatile __global uint *state, uint cap, uint t, uint last, uint sum,
                           uint epoch_no, uint fault_at, __local uint *win, __local uint *lb,
                           uint *ok)
{
    uint lid = get_local_id(0), p = epoch_no & 1u, epoch = p ? SP_EPOCH : 0u;
    volatile __global uint *status = state + SP_HEAD;
    if (lid == 0 && t > 0) atomic_xchg(&status[t], epoch | SP_AGG | sum);
    uint bad = 0, before = sp_look_back(status, t, epoch, win, lb, &bad);
    if (lid == 0) {
        bad = bad || (t > 0 && t + 1 == fault_at);
        atomic_xchg(&status[t], epoch | (bad ? SP_FAULT : SP_PREFIX | (before + sum)));
        state[SP_HEAD + cap + t] = sum | (bad ? SP_FAULTED : 0u);
        if (bad) atomic_inc(&state[SP_FAULTS + p]);
        else if (t == last) state[SP_TOTAL] = before + sum;
        lb[3] = before;
        lb[4] = !bad;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    *ok = lb[4];
    return lb[3];
}

/* Single-pass scan (Merrill & Garland's decoupled look-back): one read and
 * one write of the values, one launch, for scans whose total the host
 * reads anyway (it reads the fault counter with it).  A work-group takes
 * its tile from the ticket counter of the scan's parity (epoch_no & 1), so
 * the tiles it waits for belong to work-groups that started before it.
 * Arguments as scan_downsweep's; state: the look-back state above, with
 * room for cap tiles.  A tile whose walk faulted writes nothing and
 * publishes SP_FAULT, which every later walk that meets it repeats; the
 * host then scans the tiles' sums and redoes just those tiles by
 * scan_downsweep (their input is untouched).  fault_at (tests): tile
 * fault_at - 1 faults. */
__kernel void scan_onepass(__global uint *in, __global uint *out, ulong n, uint items, int mode,
                           int inclusive, volatile __global uint *state, uint cap,
                           uint epoch_no, uint fault_at, int want_index, __global idx_t *index,
                           __local uint *tile, __local uint *a, __local uint *b)
{
    __local uint tno, lb[SP_LB];
    uint t = sp_ticket(state, epoch_no, &tno);
    ulong step = (ulong)get_local_size(0) * items, base = (ulong)t * step;
    uint sum = tile_load(in, n, base, items, mode, tile, a, b), ok;
    /* b, the group scan's scratch, holds the look-back's window */
    uint before = sp_tile_prefix(state, cap, t, (uint)((n - 1) / step), sum, epoch_no, fault_at,
                                 b, lb, &ok);
    tile_store(in, out, n, base, items, ok ? items : 0u, mode, inclusive, before, want_index,
               index, tile, a);
}

/* sums[t] = tile t's sum from scan_onepass's aggregate words
 * (state[at + t]), for the repair's scan of them. */
__kernel void scan_onepass_sums(const __global uint *state, ulong at, ulong nb,
                                __global uint *sums)
{
    ulong t = get_global_id(0);
    if (t < nb) sums[t] = state[at + t] & ~SP_FAULTED;
}
