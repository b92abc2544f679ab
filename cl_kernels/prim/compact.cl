/* Stream compaction: pos = exclusive scan of (flags != 0). */
__kernel void compact_scatter(const __global uint *in, const __global uint *flags,
                              const __global uint *pos, ulong n, __global uint *out)
{
    ulong i = get_global_id(0);
    if (i < n && flags[i] != 0) out[pos[i]] = in[i];
}
