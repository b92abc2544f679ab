/* Suffix array API, differential against libdivsufsort, on the device
 * (PoCL by default).  The first input byte picks the width (32/64 bit) and
 * how the remaining bytes are folded into a small alphabet (small alphabets
 * make long repeats, the hard cases of prefix doubling); the rest is the
 * text, at most 4096 bytes.  The result must equal divsufsort's and pass
 * the checker; no call may leave device memory allocated. */
#include <divsufsort.h>
#include <stdint.h>

#include "fuzz_common.h"

#define MAX_N 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    clsa_context *ctx = fuzz_context();
    unsigned mode = data[0];
    data++;
    size--;
    size_t n = size < MAX_N ? size : MAX_N;
    static uint8_t text[MAX_N];
    static int32_t ref[MAX_N], sa32[MAX_N];
    static int64_t sa64[MAX_N];
    unsigned sigma = (mode >> 1) & 7; /* 0: bytes as they are, else 1..7 symbols */
    for (size_t i = 0; i < n; i++) text[i] = sigma ? (uint8_t)(data[i] % sigma) : data[i];
    if (n && divsufsort(text, ref, (saidx_t)n) != 0) abort();
    clsa_status st;
    int valid = 0;
    char why[128] = "";
    if (mode & 1) {
        st = clsa_sa64(ctx, text, sa64, (int64_t)n);
        FUZZ_CHECK(st == CLSA_OK, "clsa_sa64(n=%zu): %s", n, clsa_last_error(ctx));
        for (size_t i = 0; i < n; i++)
            FUZZ_CHECK(sa64[i] == ref[i], "sa64[%zu]=%lld, divsufsort %d (n=%zu)", i,
                       (long long)sa64[i], ref[i], n);
        FUZZ_CHECK(clsa_check_sa64(text, sa64, (int64_t)n, &valid, why, sizeof why) == CLSA_OK &&
                       valid, "checker rejects a correct SA: %s", why);
    } else {
        st = clsa_sa32(ctx, text, sa32, (int64_t)n);
        FUZZ_CHECK(st == CLSA_OK, "clsa_sa32(n=%zu): %s", n, clsa_last_error(ctx));
        FUZZ_CHECK(n == 0 || !memcmp(sa32, ref, n * 4), "sa32 differs from divsufsort (n=%zu)", n);
        FUZZ_CHECK(clsa_check_sa32(text, sa32, (int64_t)n, &valid, why, sizeof why) == CLSA_OK &&
                       valid, "checker rejects a correct SA: %s", why);
        /* A swapped pair must be rejected by the checker. */
        if (n >= 2) {
            size_t i = data[0] % (n - 1);
            int32_t t = sa32[i];
            sa32[i] = sa32[i + 1];
            sa32[i + 1] = t;
            FUZZ_CHECK(clsa_check_sa32(text, sa32, (int64_t)n, &valid, why, sizeof why) ==
                               CLSA_OK && !valid, "checker accepts a wrong SA (n=%zu)", n);
        }
    }
    clsa_stats s;
    clsa_get_stats(ctx, &s);
    FUZZ_CHECK(s.current_device_bytes == 0, "%llu device bytes left",
               (unsigned long long)s.current_device_bytes);
    return 0;
}
