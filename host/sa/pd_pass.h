/* Prefix doubling, stage 3: one doubling pass (pd_pass.c). */
#ifndef CLSA_SA_PD_PASS_H
#define CLSA_SA_PD_PASS_H
#include "groups.h"

/* Stage 3 (pd_pass.c): one doubling pass at distance h. */
clsa_status clsa__pd_pass(clsa_context *ctx, clsa__sa_work *w, uint64_t h);
/* Releases the long groups' views kept from pass to pass (pd_pass.c). */
void clsa__pd_drop_long_views(clsa_context *ctx, clsa__sa_work *w);
#endif
