/* Zeroing as a kernel rather than clEnqueueFillBuffer: Oclgrind does not
 * count a fill as initialising memory (every later read is reported), and a
 * kernel is as fast on GPUs.  Offsets and counts in elements. */
__kernel void fill_zero_u32(__global uint *p, ulong off, ulong n)
{
    ulong i = get_global_id(0);
    if (i < n) p[off + i] = 0;
}

__kernel void fill_zero_u8(__global uchar *p, ulong off, ulong n)
{
    ulong i = get_global_id(0);
    if (i < n) p[off + i] = 0;
}

/* Copies for Oclgrind only (host/runtime/oclgrind.c): a copy command there
 * replaces the destination's uninitialised-value record by one of the
 * copy's size, a kernel copies it value by value.  Offsets, counts in
 * elements. */
__kernel void copy_u32(__global const uint *src, ulong soff, __global uint *dst, ulong doff,
                       ulong n)
{
    ulong i = get_global_id(0);
    if (i < n) dst[doff + i] = src[soff + i];
}

__kernel void copy_u8(__global const uchar *src, ulong soff, __global uchar *dst, ulong doff,
                      ulong n)
{
    ulong i = get_global_id(0);
    if (i < n) dst[doff + i] = src[soff + i];
}
