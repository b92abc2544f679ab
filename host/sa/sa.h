/* Device suffix array construction (host/sa/prefix_doubling.c). */
#ifndef CLSA_SA_H
#define CLSA_SA_H
#include "runtime.h"

/* sa (n entries of 4 or 8 bytes) gets the suffix array of text (n bytes),
 * both device buffers on ctx.  Checks device memory before starting. */
clsa_status clsa__sa_device(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n, int index64);
/* The same for n symbols of sym = 1, 2 or 4 bytes (uchar, ushort, uint).
 * text_writable: the integer-alphabet path may overwrite text (a copy the
 * caller made) instead of allocating n * sym bytes for its symbol codes. */
clsa_status clsa__sa_device_sym(clsa_context *ctx, cl_mem text, int sym, int text_writable,
                                cl_mem sa, int64_t n, int index64);
/* The generalized suffix array of strings joined by sep_byte (a byte no
 * string holds; each occurrence is a separator $_i, smaller than every
 * byte and than every later separator): the byte path with the separator
 * as code 1 (prefix_doubling.cl). */
clsa_status clsa__sa_device_gsa(clsa_context *ctx, cl_mem text, int sep_byte, cl_mem sa,
                                int64_t n, int index64);
#endif
