/* Prefix doubling, stage 4: SA = ISA^-1 (pd_invert.c). */
#ifndef CLSA_SA_PD_INVERT_H
#define CLSA_SA_PD_INVERT_H
#include "pd_work.h"

/* Stage 4 (pd_invert.c): SA = ISA^-1 into sa (isa is destroyed). */
clsa_status clsa__pd_invert(clsa_context *ctx, pd_buffers *b, clsa__sa_work *w, cl_mem sa);
#endif
