/* clsa FM-index, longest common substring, LCP range-minimum queries
 * (part of clsa.h; include clsa.h, not this file). */
#ifndef CLSA_FM_H
#define CLSA_FM_H
#endif
