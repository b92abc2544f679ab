/* Shared pieces of the drop-in libdivsufsort differential test. */
#ifndef DSS_DIFF_H
#define DSS_DIFF_H

#include <stdint.h>
#include <stdio.h>

/* xorshift64*: fixed-seed inputs. */
static inline uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

extern int failures;
extern int device_mode;
#define EXPECT(cond, ...)                                                                    \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            if (failures++ < 20) {                                                         \
                fprintf(stdout, "FAIL %s:%d: ", __FILE__, __LINE__);                       \
                fprintf(stdout, __VA_ARGS__);                                              \
                fputc('\n', stdout);                                                       \
            }                                                                              \
        }                                                                                  \
    } while (0)

/* n bytes of a generated text of kind k (random over 1..256 symbols,
 * periodic, Fibonacci, runs), seeded by s. */
void gen_text(uint8_t *t, int64_t n, int kind, uint64_t *s);

/* Runs fn with stderr captured; the text (NUL-terminated, cap bytes) in out. */
void capture_stderr(void (*fn)(void *), void *arg, char *out, size_t cap);

int run32(void *ref, void *our, int cases, int64_t max_n);
int run64(void *ref, void *our, int cases, int64_t max_n);

#endif
