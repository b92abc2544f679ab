/* clsa indexes built on the suffix array (part of clsa.h; include clsa.h, not this file). */
#ifndef CLSA_INDEX_H
#define CLSA_INDEX_H
#endif
