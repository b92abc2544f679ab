/* Device suffix array by run-length reduction (host/sa/runlen.c,
 * docs/SA.md "Run-length reduction"). */
#ifndef CLSA_SA_RUNLEN_H
#define CLSA_SA_RUNLEN_H
#include "clsa.h"

/* sa (n entries of 4 or 8 bytes) gets the suffix array of text (n
 * symbols of sym = 1, 2 or 4 bytes), both device buffers on ctx, n <
 * 2^32: the suffixes at the starts of the text's runs sorted as a reduced
 * text of one symbol a run, then every suffix placed by its run.  Texts of
 * short runs (mean below CLSA_TUNE runlen_floor) go to prefix doubling
 * (text_writable passed on), which stats.sa_algorithm then says.  Peak
 * device memory besides text and sa: about 12 B/n (32-bit entries). */
clsa_status clsa__sa_device_runlen(clsa_context *ctx, cl_mem text, int sym, int text_writable,
                                   cl_mem sa, int64_t n, int index64);
#endif
