/* bwa's .sa file: the suffix array of text + $ sampled at rows rate * (j + 1),
 * j < count, which are rows rate * (j + 1) - 1 of sa (the text's own
 * suffix array, without the $ row). */
__kernel void bwa_sa_samples(__global const idx_t *sa, ulong count, ulong rate,
                             __global ulong *out)
{
    ulong j = get_global_id(0);
    if (j < count) out[j] = sa[rate * (j + 1) - 1];
}
