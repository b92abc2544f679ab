/* Burrows-Wheeler transform in libdivsufsort's divbwt convention:
 * out[0] = text[n-1]; out[k] for k >= 1 is text[sa[i] - 1] of row
 * i = k - 1 (before the row of suffix 0) or i = k (after it). */

/* primary = 1 + the row holding suffix 0; exactly one work-item writes. */
__kernel void bwt_primary(__global const idx_t *sa, ulong n, __global ulong *primary)
{
    ulong i = get_global_id(0);
    if (i < n && sa[i] == 0) primary[0] = i + 1;
}

/* One output byte per work-item: sa reads and byte stores are coalesced,
 * the text reads are the unavoidable gather. */
__kernel void bwt_gather(__global const uchar *text, __global const idx_t *sa, ulong n,
                         __global const ulong *primary, __global uchar *out)
{
    ulong k = get_global_id(0);
    if (k >= n) return;
    if (k == 0) {
        out[0] = text[n - 1];
        return;
    }
    ulong i = k < primary[0] ? k - 1 : k;
    ulong s = sa[i];
    out[k] = s - 1 < n ? text[s - 1] : 0; /* s == 0 only for a corrupt sa */
}

/* The same from the inverse suffix array (no SA needed): suffix i > 0 has
 * row r = isa[i], output k = r + 1 before the row of suffix 0, r after it.
 * The byte stores scatter; the isa and text reads are coalesced. */
__kernel void bwt_from_isa(__global const uchar *text, __global const idx_t *isa, ulong n,
                           __global uchar *out)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    if (i == 0) {
        out[0] = text[n - 1];
        return;
    }
    ulong r0 = isa[0], r = isa[i];
    if (r < n) out[r < r0 ? r + 1 : r] = text[i - 1];
}
