/* Byte texts crossing to the device packed (text_pack.c). */
#ifndef CLSA_RT_TEXT_PACK_H
#define CLSA_RT_TEXT_PACK_H

#include "clsa.h"
#include "cl_loader.h"
#include <stddef.h>

/* ---- byte texts crossing to the device (text_pack.c) ------------------------
 * dst[0, n) = text.  Texts of at most 16 distinct bytes go up packed to 1, 2
 * or 4 bits a byte (host threads pack one piece while the last is copied)
 * and a kernel unpacks them, where ctx's tuning says it gains (pack_min);
 * else clsa__write. */
clsa_status clsa__write_text(clsa_context *ctx, cl_mem dst, const void *text, size_t n);
/* A text packed on the host once for the uploads of several contexts (the
 * members of clsa_sa32_multi), a block at a time by whichever upload needs
 * the block first, so the packing is spread over every upload's staging
 * threads and overlaps the copies; into the caller's memory at into (room
 * for n / 2 + 1 bytes, not read by anyone until every upload is done) or a
 * malloc'd array where into is NULL.  NULL where ctx's uploads would not
 * pack the text, or out of host memory. */
typedef struct clsa__text_share clsa__text_share;
clsa__text_share *clsa__text_share_new(const clsa_context *ctx, const void *text, size_t n,
                                       void *into);
void clsa__text_share_free(clsa__text_share *s);
/* clsa__write_text through s (NULL, or made for another text: as
 * clsa__write_text); a byte outside the sampled alphabet sends the text up
 * as it is.  Safe from several threads and contexts at once. */
clsa_status clsa__write_text_shared(clsa_context *ctx, cl_mem dst, const void *text, size_t n,
                                    clsa__text_share *s);

#endif
