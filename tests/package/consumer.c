/* A program outside the project that uses the installed clsa package
 * (tests/ci_package.sh): the suffix array of a small text on the host
 * backend (NULL context), compared with a naive sort of the suffixes. */
#include <clsa.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t *text;
static int64_t n;

static int suffix_cmp(const void *a, const void *b)
{
    int64_t i = *(const int64_t *)a, j = *(const int64_t *)b;
    int64_t li = n - i, lj = n - j, m = li < lj ? li : lj;
    int c = memcmp(text + i, text + j, (size_t)m);
    if (c) return c;
    return li < lj ? -1 : li > lj; /* a proper prefix sorts first */
}

int main(void)
{
    static const char sample[] = "mississippi banana abracadabra mississippi\0\377\001zz";
    text = (const uint8_t *)sample;
    n = (int64_t)sizeof sample - 1;
    int32_t sa32[sizeof sample];
    int64_t sa64[sizeof sample], ref[sizeof sample];
    for (int64_t i = 0; i < n; i++) ref[i] = i;
    qsort(ref, (size_t)n, sizeof *ref, suffix_cmp);
    clsa_status st = clsa_sa32(NULL, text, sa32, n);
    if (st != CLSA_OK) {
        fprintf(stderr, "consumer: clsa_sa32 failed: %d\n", (int)st);
        return 1;
    }
    st = clsa_sa64(NULL, text, sa64, n);
    if (st != CLSA_OK) {
        fprintf(stderr, "consumer: clsa_sa64 failed: %d\n", (int)st);
        return 1;
    }
    for (int64_t i = 0; i < n; i++)
        if (sa32[i] != ref[i] || sa64[i] != ref[i]) {
            fprintf(stderr, "consumer: SA[%lld] = %d/%lld, expected %lld\n", (long long)i,
                    (int)sa32[i], (long long)sa64[i], (long long)ref[i]);
            return 1;
        }
    printf("consumer: clsa %s, suffix array of %lld bytes ok\n", CLSA_VERSION_STRING,
           (long long)n);
    return 0;
}
