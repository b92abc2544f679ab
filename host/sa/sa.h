/* Device suffix array construction (host/sa/prefix_doubling.c). */
#ifndef CLSA_SA_H
#define CLSA_SA_H
#include "clsa.h"

/* sa (n entries of 4 or 8 bytes) gets the suffix array of text (n bytes),
 * both device buffers on ctx.  Checks device memory before starting. */
clsa_status clsa__sa_device(clsa_context *ctx, cl_mem text, cl_mem sa, int64_t n, int index64);
/* For callers that need ranks (ISA, BWT): out gets the inverse suffix
 * array (*is_isa = 1) where the doubling ended with the final ranks, which
 * saves the inversion, else the suffix array (*is_isa = 0).  Same memory
 * as clsa__sa_device.  CLSA_TUNE sa_path + 64: always the suffix array. */
clsa_status clsa__sa_device_ranks(clsa_context *ctx, cl_mem text, cl_mem out, int64_t n,
                                  int index64, int *is_isa);
/* The same for n symbols of sym = 1, 2 or 4 bytes (uchar, ushort, uint).
 * text_writable: the integer-alphabet path may overwrite text (a copy the
 * caller made) instead of allocating n * sym bytes for its symbol codes. */
clsa_status clsa__sa_device_sym(clsa_context *ctx, cl_mem text, int sym, int text_writable,
                                cl_mem sa, int64_t n, int index64);
/* The generalized suffix array of strings joined by sep_byte (a byte no
 * string holds; each occurrence is a separator $_i, smaller than every
 * byte and than every later separator): the byte path with the separator
 * as code 1 (pd_init.cl). */
clsa_status clsa__sa_device_gsa(clsa_context *ctx, cl_mem text, int sep_byte, cl_mem sa,
                                int64_t n, int index64);

struct clsa__pd_part;
/* One member's part of the suffix array of text on several devices
 * (host/sa/pd_part.h): collective over the members; st, a failure before
 * the call, is agreed with the others.  *sa (made here, NULL on entry:
 * the member's count of 4-byte entries, at least one) gets the member's
 * slice in [0, part->count); the caller frees it. */
clsa_status clsa__sa_device_part(clsa_context *ctx, cl_mem text, cl_mem *sa, int64_t n,
                                 struct clsa__pd_part *part, clsa_status st);

#endif
