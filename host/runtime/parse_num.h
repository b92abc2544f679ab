/* One parser for every number clsa reads from the environment or the
 * command line (CLSA_DEVICE_MEM_LIMIT, --mem, --primary, ...), so that all
 * accept the same spellings and refuse the same mistakes. */
#ifndef CLSA_PARSE_NUM_H
#define CLSA_PARSE_NUM_H

#include <stddef.h>
#include <stdint.h>

/* Sizes take a suffix K, M, G, T, P, E (also KB/KiB, ...: powers of 1024)
 * and then a fraction ("1.5G"); plain numbers are whole and decimal. */
enum { CLSA_NUM_PLAIN = 0, CLSA_NUM_SIZE = 1 };

/* Parses s (the whole string, no sign, no spaces) into *v within
 * [min, max].  0 on success; else -1 and why (cap bytes) says what is
 * wrong in a few words ("not a whole number", "out of range 1..64"). */
int clsa__parse_u64(const char *s, int flags, uint64_t min, uint64_t max, uint64_t *v, char *why,
                    size_t cap);

#endif
