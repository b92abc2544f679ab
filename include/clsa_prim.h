/* clsa sorting primitives (part of clsa.h; include clsa.h, not this file). */
#ifndef CLSA_PRIM_H
#define CLSA_PRIM_H
#endif
