/* A byte text packed on the host (host/runtime/text_pack.c) back to its
 * bytes: one work-item a packed byte, whose 8 / bits symbols lie first in
 * its high bits; sym_lo holds the bytes of codes 0-7, sym_hi of 8-15. */
__kernel void text_unpack(__global const uchar *packed, ulong bytes, ulong n, uint bits,
                          ulong sym_lo, ulong sym_hi, __global uchar *text)
{
    ulong i = get_global_id(0);
    if (i >= bytes) return;
    uint per = 8 / bits, mask = (1u << bits) - 1, v = packed[i];
    ulong first = i * per;
    for (uint j = 0; j < per && first + j < n; j++) {
        uint c = (v >> (8 - bits * (j + 1))) & mask;
        ulong s = c < 8 ? sym_lo >> (8 * c) : sym_hi >> (8 * (c - 8));
        text[first + j] = (uchar)s;
    }
}
