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
