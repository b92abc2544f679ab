/* The FM-index file loader (clsa_fm_load) on arbitrary bytes.  The first
 * input byte chooses whether the harness repairs the trailing 64-bit FNV-1a
 * checksum, so that mutations reach the header and payload checks behind
 * it.  Any file must give CLSA_OK or CLSA_ERR_FORMAT/IO (never another
 * error, a crash or a hang); a loaded index must answer count and locate
 * consistently. */
#include <stdint.h>
#include <unistd.h>

#include "fuzz_common.h"

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static char path[256];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 20)) return 0;
    clsa_context *ctx = fuzz_context();
    if (!*path)
        snprintf(path, sizeof path, "%s/clsa-fuzz-fm-%ld.idx",
                 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
    int repair = data[0] & 1;
    data++;
    size--;
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    if (repair && size >= 8) {
        uint64_t h = fnv1a(copy, size - 8);
        memcpy(copy + size - 8, &h, 8); /* little-endian hosts */
    }
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size) fwrite(copy, 1, size, f);
    fclose(f);
    free(copy);
    clsa_fm *fm = NULL;
    clsa_status st = clsa_fm_load(ctx, path, &fm);
    FUZZ_CHECK(st == CLSA_OK || st == CLSA_ERR_FORMAT || st == CLSA_ERR_IO ||
                   st == CLSA_ERR_DEVICE_MEMORY,
               "clsa_fm_load -> %d: %s", st, clsa_last_error(ctx));
    FUZZ_CHECK((st == CLSA_OK) == (fm != NULL), "handle %p with status %d", (void *)fm, st);
    if (st != CLSA_OK) FUZZ_CHECK(*clsa_last_error(ctx), "error %d without a message", st);
    if (fm) {
        int64_t n = -1, rate = -1;
        FUZZ_CHECK(clsa_fm_info(fm, &n, &rate) == CLSA_OK && n >= 0 && rate >= 1,
                   "info n=%lld rate=%lld", (long long)n, (long long)rate);
        const uint8_t pats[] = "a" "ab" "" "\0\xff";
        const uint64_t offs[] = {0, 1, 3, 3, 5};
        uint64_t counts[4] = {0};
        st = clsa_fm_count(fm, pats, offs, 4, counts);
        FUZZ_CHECK(st == CLSA_OK, "count: %s", clsa_last_error(ctx));
        FUZZ_CHECK(counts[2] == (uint64_t)n, "empty pattern count %llu, n %lld",
                   (unsigned long long)counts[2], (long long)n);
        clsa_fm_free(fm);
    }
    clsa_stats s;
    clsa_get_stats(ctx, &s);
    FUZZ_CHECK(s.current_device_bytes == 0, "%llu device bytes left after free",
               (unsigned long long)s.current_device_bytes);
    unlink(path);
    return 0;
}
