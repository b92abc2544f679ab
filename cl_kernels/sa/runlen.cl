/* Suffix array by run-length reduction (docs/SA.md "Run-length
 * reduction"): the kernels launched from host/sa/runlen.c.  Indices are
 * 32-bit (n < 2^32).
 *
 * The text (n symbols of sym = 1, 2 or 4 bytes) splits into maximal runs,
 * run k of symbol c from starts[k] to starts[k + 1] (starts[m] = n).  A
 * suffix with r symbols of its run left sorts by (c, flag, +-r), then by the
 * suffix at the next run's start: flag = the next run's symbol is above c
 * (the end counts as below), r ascending without the flag, descending with
 * it.  Keys carry (flag, +-r) as aval = flag ? 2 maxrun - r : r - 1 (ab
 * bits), below the symbol where both fit 32 bits (part 0), else in two
 * stable sorts, aval (part 1) then the symbol (part 2). */

static uint rl_sym(const __global uchar *text, uint sym, ulong q)
{
    return sym == 1   ? text[q]
           : sym == 2 ? ((const __global ushort *)text)[q]
                      : ((const __global uint *)text)[q];
}

/* aval of a suffix of run k with r symbols of it left. */
static uint rl_aval(const __global uchar *text, uint sym, ulong n, const __global uint *starts,
                    uint k, uint r, uint maxrun)
{
    ulong next = starts[k + 1];
    uint c = rl_sym(text, sym, next - 1);
    int up = next < n && rl_sym(text, sym, next) > c;
    return up ? 2 * maxrun - r : r - 1;
}

/* The sort key of that suffix: part 0 (c << ab) | aval, 1 aval, 2 c. */
static uint rl_key(const __global uchar *text, uint sym, ulong n, const __global uint *starts,
                   uint k, uint r, uint maxrun, uint ab, uint part)
{
    uint c = rl_sym(text, sym, starts[k]);
    if (part == 2) return c;
    uint aval = rl_aval(text, sym, n, starts, k, r, maxrun);
    return part ? aval : (c << ab) | aval;
}

/* flags[i] = 1 where a run starts (i = 0 included): their inclusive sum
 * numbers every position's run from 1. */
__kernel void rl_heads(const __global uchar *text, uint sym, ulong n, __global uint *flags)
{
    ulong i = get_global_id(0);
    if (i < n) flags[i] = i == 0 || rl_sym(text, sym, i) != rl_sym(text, sym, i - 1) ? 1u : 0u;
}

/* starts[k] = the first position of run k (run[i]: run number + 1 of
 * position i), starts[m] = n. */
__kernel void rl_starts(const __global uint *run, ulong n, ulong m, __global uint *starts)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    if (i == 0 || run[i] != run[i - 1]) starts[run[i] - 1] = (uint)i;
    if (i == 0) starts[m] = (uint)n;
}

/* *most = the longest run: each work-item's runs, then the work-group's
 * in local memory, one atomic a work-group. */
__kernel void rl_longest(const __global uint *starts, ulong m, __global uint *most,
                         __local uint *group)
{
    uint mine = 0;
    for (ulong k = get_global_id(0); k < m; k += get_global_size(0))
        mine = max(mine, starts[k + 1] - starts[k]);
    if (get_local_id(0) == 0) *group = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_max(group, mine);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) atomic_max(most, *group);
}

/* keys[x] = the key of the whole run vals[x] (its start's suffix). */
__kernel void rl_run_keys(const __global uchar *text, uint sym, ulong n,
                          const __global uint *starts, const __global uint *vals, ulong m,
                          uint maxrun, uint ab, uint part, __global uint *keys)
{
    ulong x = get_global_id(0);
    if (x >= m) return;
    uint k = vals[x];
    keys[x] = rl_key(text, sym, n, starts, k, starts[k + 1] - starts[k], maxrun, ab, part);
}

/* keys[x] = the symbol at position vals[x] (the second sort where the
 * key does not fit 32 bits whole). */
__kernel void rl_sym_keys(const __global uchar *text, uint sym, const __global uint *vals,
                          ulong count, __global uint *keys)
{
    ulong x = get_global_id(0);
    if (x < count) keys[x] = rl_sym(text, sym, vals[x]);
}

/* flags[x] = 1 where the run at vals[x] (sorted) differs from the one
 * before it in (symbol, flag, length): their inclusive sum names the
 * runs, the reduced text's symbols. */
__kernel void rl_run_heads(const __global uchar *text, uint sym, ulong n,
                           const __global uint *starts, const __global uint *vals, ulong m,
                           uint maxrun, __global uint *flags)
{
    ulong x = get_global_id(0);
    if (x >= m) return;
    uint f = 1u;
    if (x > 0) {
        uint k = vals[x], j = vals[x - 1];
        uint ak = starts[k + 1] - starts[k], aj = starts[j + 1] - starts[j];
        f = rl_sym(text, sym, starts[k]) != rl_sym(text, sym, starts[j]) ||
            rl_aval(text, sym, n, starts, k, ak, maxrun) !=
                rl_aval(text, sym, n, starts, j, aj, maxrun);
    }
    flags[x] = f;
}

/* The positions in the order of the suffix at their next run's start:
 * slot 0 holds the last run (the end follows it), slot x + 1 the run
 * before run sa_r[x] (none for run 0).  lens[x] = the slot's length. */
__kernel void rl_slot_lengths(const __global uint *starts, const __global uint *sa_r, ulong m,
                              __global uint *lens)
{
    ulong x = get_global_id(0);
    if (x > m) return;
    uint j = x == 0 ? (uint)m : sa_r[x - 1];
    lens[x] = j ? starts[j] - starts[j - 1] : 0u;
}

/* off[k] = where run k's positions begin in that order (at: the
 * exclusive sum of the slots' lengths). */
__kernel void rl_offsets(const __global uint *sa_r, const __global uint *at, ulong m,
                         __global uint *off)
{
    ulong x = get_global_id(0);
    if (x >= m) return;
    uint j = sa_r[x];
    if (j) off[j - 1] = at[x + 1];
    if (x == 0) off[m - 1] = at[0];
}

/* Every position i into that order, vals[t] = i, with its key. */
__kernel void rl_place(const __global uchar *text, uint sym, ulong n, const __global uint *run,
                       const __global uint *starts, const __global uint *off, uint maxrun,
                       uint ab, uint part, __global uint *vals, __global uint *keys)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    uint k = run[i] - 1;
    uint t = off[k] + (uint)i - starts[k];
    vals[t] = (uint)i;
    keys[t] = rl_key(text, sym, n, starts, k, starts[k + 1] - (uint)i, maxrun, ab, part);
}
