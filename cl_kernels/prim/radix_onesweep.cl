/* Single-pass ("onesweep") LSD radix sort: radix_hist_all counts the
 * digits of every pass in one read of the keys, then each pass is one
 * radix_onesweep launch that reads keys and values once, ranks its tile in
 * local memory (radix_rank.cl, stable) and scatters once.  A tile's global
 * digit offsets come from a decoupled look-back over the tiles before it
 * (Merrill & Garland, "Single-pass parallel prefix scan with decoupled
 * look-back"; Adinets & Merrill, "Onesweep").
 *
 * Progress: a work-group takes its tile number from a global counter
 * (ticket) when it starts, so the tiles it waits for belong to work-groups
 * that started before it and never wait for it: any device that keeps a
 * started work-group running (every OpenCL device we know; a simulator
 * that runs work-groups one after another trivially) finishes.
 *
 * Cross-work-group data goes only through 32-bit atomics on one word per
 * (tile, digit): the flag in the top two bits, the count below, so a reader
 * never sees a flag without its value.  Values below 2^30: the host sends
 * larger inputs to the reduce-then-scan path (radix_sort.cl). */

#ifndef ONESWEEP_FAULT
#define ONESWEEP_FAULT 0
#endif
#ifndef WC_IN_VTILE
#define WC_IN_VTILE 0
#endif
#define ST_AGG 0x40000000u    /* the tile's own count of the digit */
#define ST_PREFIX 0x80000000u /* global start of the digit + counts of tiles <= this */
#define ST_VALUE 0x3fffffffu

/* ---- histograms of all passes -------------------------------------------------
 * counts[p * 256 + d] += keys of digit d in pass p, where pass p's digit is
 * (key >> plan[2p]) & plan[2p + 1].  Work-groups stride over tiles of lsize *
 * RADIX_ITEMS keys; counts must be zero before.  With want_masks, also ORs/ANDs
 * every key into masks[0..1] / masks[2..3] (low, high word), so the host can
 * skip passes whose digit is the same for every key.  Local: cnt npasses *
 * 256 uints. */
__kernel void radix_hist_all(const __global key_t *keys, ulong n, uint npasses,
                             const __global uint *plan, uint plan_at,
                             volatile __global uint *counts, __local uint *cnt, int want_masks,
                             volatile __global uint *masks)
{
    __local uint lmask[4];
    plan += plan_at;
    uint lid = get_local_id(0), lsize = get_local_size(0);
    uint tsize = lsize * RADIX_ITEMS;
    for (uint d = lid; d < npasses * 256; d += lsize) cnt[d] = 0;
    if (lid == 0)
        for (uint w = 0; w < 4; w++) lmask[w] = w < 2 ? 0u : ~0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    key_t or_k = 0, and_k = PAD_KEY;
    for (ulong base = (ulong)get_group_id(0) * tsize; base < n;
         base += (ulong)get_num_groups(0) * tsize) {
        key_t k[RADIX_ITEMS];
        uint m = load_keys(keys, base, (uint)min((ulong)tsize, n - base), k, &or_k, &and_k,
                           lid, lsize);
        for (uint p = 0; p < npasses; p++)
            count_digits(k, m, plan[2 * p], plan[2 * p + 1], cnt + p * 256);
    }
    if (want_masks) local_masks(lmask, or_k, and_k);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = lid; d < npasses * 256; d += lsize)
        if (cnt[d]) atomic_add(&counts[d], cnt[d]);
    if (want_masks && lid == 0) global_masks(lmask, masks);
}

/* ---- one pass --------------------------------------------------------------- */

/* Exclusive scan of counts[0 .. nd) into out (local), for any lsize: each
 * work-item sums a run of consecutive digits, one group scan, then the
 * runs are filled in. */
static void scan_digits(const __global uint *counts, __local uint *out, uint nd,
                        __local uint *wx, __local uint *wy, uint lid, uint lsize)
{
    uint per = (nd + lsize - 1) / lsize, lo = min(nd, lid * per), hi = min(nd, lo + per), s = 0;
    for (uint d = lo; d < hi; d++) s += counts[d];
    uint run = group_exclusive_scan(s, wx, wy, lid, lsize);
    for (uint d = lo; d < hi; d++) {
        out[d] = run;
        run += counts[d];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Sum of digit d's counts over the tiles before t (plus the digit's global
 * start, which tile 0's prefix includes): walks back until a tile that has
 * its inclusive prefix, adding the aggregates on the way, spinning while
 * a tile has published nothing yet.  Every tile before t has a ticket, so
 * its work-group is running and will publish.  One loop with no break:
 * *t is 0 when the walk completed, so the caller can tell a walk that an
 * implementation cut short (llvmpipe ends every loop of an invocation
 * after 65535 iterations in all, LP_MAX_TGSI_LOOP_ITERATIONS). */
#ifndef LOOKBACK
#define LOOKBACK 1
#endif
static uint look_back(volatile __global uint *status, uint *t, uint d, uint nd)
{
    uint sum = 0, at = *t;
    while (at > 0) {
        /* LOOKBACK tiles' words at once (independent loads), used from the
         * nearest up to the first that has published nothing */
        uint s[LOOKBACK];
        for (uint i = 0; i < LOOKBACK; i++)
            s[i] = i < at ? status_load(&status[(ulong)(at - 1 - i) * nd + d]) : 0u;
        uint go = 1;
        for (uint i = 0; i < LOOKBACK; i++) {
            go = go && s[i] != 0u;
            if (go) {
                sum += s[i] & ST_VALUE;
                at = (s[i] & ST_PREFIX) ? 0u : at - 1;
                go = at != 0u;
            }
        }
    }
    *t = at;
    return sum;
}

/* Control words (ctl): radix_hist_all's masks, the fault word, one ticket
 * counter per pass. */
#define CTL_FAULT 4
#define CTL_TICKET 5

/* The plan's words after the tickets (host/prim/radix_run.h
 * CLSA_RADIX_CTL_PLAN: 16 passes at most), and all control words. */
#define CTL_PLAN (CTL_TICKET + 16)
#define CTL_ALL (CTL_PLAN + 32)

/* A sort's control words and zeroed tables in one launch, where a host
 * write would be a second command (and NVIDIA's queue waits behind a
 * non-blocking write from pageable memory): ctl[w] for w in [from,
 * CTL_ALL), the masks' start values (OR 0, AND ~0), zeros (the fault word
 * unless keep_fault: an earlier sort's, read by the caller later), the
 * plan (plan_lo, plan_hi); table[0, zeros) = 0. */
__kernel void radix_prepare(volatile __global uint *ctl, uint from, int keep_fault,
                            uint16 plan_lo, uint16 plan_hi, __global uint *table, ulong zeros)
{
    ulong i = get_global_id(0);
    if (i < zeros) table[i] = 0;
    if (i < from || i >= CTL_ALL || (keep_fault && i == CTL_FAULT)) return;
    uint plan[32];
    vstore16(plan_lo, 0, plan);
    vstore16(plan_hi, 1, plan);
    uint w = (uint)i;
    ctl[w] = w >= CTL_PLAN ? plan[w - CTL_PLAN] : w == 2 || w == 3 ? ~0u : 0u;
}

/* One pass over digit (key >> shift) & dmask.  counts[pass * 256 ..]: this
 * pass's digit totals (radix_hist_all); status + status_at: nb * (dmask +
 * 1) words, zero before (a table of each pass, zeroed at once, or one
 * zeroed before every pass; status may be counts' buffer);
 * ctl[CTL_TICKET + pass] zero before.
 *
 * Faults: a work-group whose look-back did not complete (see look_back)
 * sets ctl[CTL_FAULT] to pass + 1.  Every later pass of the sort then
 * writes nothing, nor do the work-groups of this pass that start after it
 * (their tiles are left unwritten, which does not matter: the host redoes
 * the pass by reduce-then-scan from its input, which no pass wrote since,
 * radix_onesweep.c).
 *
 * Local memory as radix_scatter, plus dstart/dend 2 * (dmask + 1) uints. */
__kernel void radix_onesweep(const __global key_t *kin, __global key_t *kout,
#if VAL_BYTES
                             const __global val_t *vin, __global val_t *vout,
#endif
                             ulong n, uint shift, uint dmask, uint pass,
                             const __global uint *counts, volatile __global uint *status,
                             ulong status_at, volatile __global uint *ctl,
                             __local ulong *buf, __local ulong *pbuf, __local uint *cnt,
                             __local uint *wx, __local uint *wy, __local uint *dbase,
                             __local uint *dstart, __local uint *dend)
{
    __local uint tile_no, skip;
    __local ushort *perm = (__local ushort *)pbuf; /* as in radix_scatter */
#if WC_IN_VTILE
    /* The warp counters in the value tile, which holds nothing until they
     * are read (the host passes cnt empty): the tile of 5120 u32 pairs
     * then fits NVIDIA's 48 KB of local memory. */
    cnt = (__local uint *)pbuf;
#endif
    uint lid = get_local_id(0), lsize = get_local_size(0), nd = dmask + 1;
    status += status_at;
    /* The ticket and the fault word, both in flight at once */
    if (lid == 0) {
        tile_no = atomic_inc(&ctl[CTL_TICKET + pass]);
        skip = status_load(&ctl[CTL_FAULT]);
    }
#if !RADIX_WARP
    for (uint d = lid; d < nd; d += lsize) dstart[d] = dend[d] = 0;
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    uint g = tile_no;
    volatile __global uint *own = status + (ulong)g * nd;
    if (skip) {
        /* The sort has faulted: the tile counts as done with no keys, so
         * that no work-group waits for it, and writes nothing.  Tiles
         * after it then sum too little (as after a cut look-back), which
         * keeps their writes inside kout; the host redoes the pass. */
        for (uint d = lid; d < nd; d += lsize) atomic_xchg(&own[d], ST_PREFIX);
        return;
    }
    ulong base = (ulong)g * lsize * RADIX_ITEMS;
    uint valid = (uint)min((ulong)lsize * RADIX_ITEMS, n - base);
    __local key_t *tile = (__local key_t *)buf;
    /* Each digit's run in the sorted tile starts at dstart[d] and holds
     * dend[d] keys once published.  Only tile 0 needs the digits' global
     * starts (scan_digits), but every work-group scans (256 cached words):
     * barriers stay out of conditional code, which some CPU compilers
     * (PoCL) handle badly. */
#if RADIX_WARP
    /* The keys and ranks (32 registers a work-item) die once placed, so
     * the digits' global scan and the look-back come after the placing;
     * with the unguarded full tiles and PIN (radix_rank.cl) the kernel
     * needs half the registers, so twice the work-groups fit a core. */
    key_t k[RADIX_ITEMS];
    uint rk[RADIX_ITEMS];
    load_warp(kin, base, valid, k, lid);
    count_warp(k, rk, shift, dmask, cnt, wx, buf, lid, lsize);
    scan_warp(rk, dmask, cnt, wx, wy, lid, lsize);
    /* The counts are known before the keys are placed: published now, the
     * tiles after this one find them sooner (Onesweep's early counts).
     * The padding keys of a last partial tile all have the last digit. */
    for (uint d = lid; d < nd; d += lsize) {
        uint start = warp_digit_start(cnt, d);
        uint c = (d == dmask ? valid : warp_digit_start(cnt, d + 1)) - start;
        dstart[d] = start;
        dend[d] = c;
        if (g) atomic_xchg(&own[d], ST_AGG | c);
    }
    for (uint j = 0; j < RADIX_ITEMS; j++) tile[TPAD(rk[j])] = k[j];
    scan_digits(counts + pass * 256, dbase, nd, wx, wy, lid, lsize);
#if VAL_BYTES && RADIX_VTILE
    /* after scan_digits' barriers: with WC_IN_VTILE the counters read
     * above live where the values go.  In flight during the look-back. */
    place_values_warp(vin, base, valid, rk, pbuf, lid);
#endif
#else
    rank_tile(kin, base, valid, shift, dmask, tile, perm, (__local ushort *)cnt, wx, wy, lid,
              lsize, VAL_BYTES != 0);
    for (uint j = 0; j < RADIX_ITEMS; j++) {
        uint r = j * lsize + lid;
        if (r < valid) {
            uint d = digit_of(tile[TPAD(r)], shift, dmask);
            if (r == 0 || digit_of(tile[TPAD(r - 1)], shift, dmask) != d) dstart[d] = r;
            if (r + 1 == valid || digit_of(tile[TPAD(r + 1)], shift, dmask) != d) dend[d] = r + 1;
        }
    }
    scan_digits(counts + pass * 256, dbase, nd, wx, wy, lid, lsize);
    for (uint d = lid; d < nd; d += lsize) {
        uint c = dend[d] - dstart[d];
        dend[d] = c;
        if (g) atomic_xchg(&own[d], ST_AGG | c);
    }
#endif
    /* Look back digit by digit (the same work-item's digits as above),
     * counting the digits done (lsize and nd are powers of two: no
     * division by a run-time value, which Oclgrind's checker refuses). */
    uint mine = lid < nd ? ((nd - 1u - lid) >> popcount(lsize - 1u)) + 1u : 0u, done = 0;
    for (uint d = lid; d < nd; d += lsize) {
        uint c = dend[d], t = g;
        uint before = g == 0 ? dbase[d] : look_back(status, &t, d, nd);
        atomic_xchg(&own[d], ST_PREFIX | (before + c)); /* tile 0's first word */
        dbase[d] = before - dstart[d];
        done += t == 0;
    }
#if ONESWEEP_FAULT
    /* tests: pass ONESWEEP_FAULT - 1 faults and writes nothing */
    if (pass + 1u == ONESWEEP_FAULT) {
        atomic_cmpxchg(&ctl[CTL_FAULT], 0u, pass + 1u);
        return;
    }
#endif
    if (done != mine) atomic_cmpxchg(&ctl[CTL_FAULT], 0u, pass + 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
#if RADIX_WARP
    write_tile_warp(kout,
#if VAL_BYTES
                    vin, vout,
#endif
                    dbase, base, valid, shift, dmask, rk, buf, pbuf, lid, lsize);
#else
    write_tile(kout,
#if VAL_BYTES
               vin, vout, perm,
#endif
               tile, dbase, base, valid, shift, dmask, lid, lsize);
#endif
}
