/* The CLI argument parser (tools/cli/common.c cli_parse) on arbitrary
 * argument vectors.  Input: byte 0 = allowed-option mask, byte 1 = minimum
 * and maximum positional counts, then NUL-separated words.  The parser
 * must return CLI_OK or CLI_USAGE, keep its outputs inside their ranges,
 * never read past argv, and point positionals into argv.  (ci_fuzz.sh runs
 * it with -close_fd_mask=3: the usage lines it prints are not shown.) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#define MAX_WORDS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 4096) return 0;
    unsigned allowed = data[0] & 0x1f;
    int npos_min = data[1] & 7, npos_max = (data[1] >> 3) & 7;
    if (npos_max < npos_min) npos_max = npos_min;
    /* Words, each its own allocation so ASan sees any overread. */
    char *words[MAX_WORDS];
    int argc = 0;
    size_t start = 2;
    for (size_t i = 2; i <= size && argc < MAX_WORDS; i++) {
        if (i == size || data[i] == 0) {
            size_t len = i - start;
            words[argc] = malloc(len + 1);
            if (!words[argc]) break;
            memcpy(words[argc], data + start, len);
            words[argc][len] = 0;
            argc++;
            start = i + 1;
        }
    }
    cli_args a;
    int help = -1;
    int rc = cli_parse(argc, words, allowed, npos_min, npos_max, "fuzz", &a, &help);
    if (rc != CLI_OK && rc != CLI_USAGE) abort();
    if (help != 0 && help != 1) abort();
    if (rc == CLI_OK && !help) {
        if (a.npos < npos_min || a.npos > npos_max) abort();
        if (a.index_bits != 32 && a.index_bits != 64) abort();
        if (a.backend < CLSA_BACKEND_DEFAULT || a.backend > CLSA_BACKEND_HOST) abort();
        if (a.sample_rate < 0) abort();
        for (int p = 0; p < a.npos; p++) {
            int found = 0;
            for (int w = 0; w < argc; w++) found |= a.pos[p] == words[w];
            if (!found) abort();
        }
        if (a.device) {
            int found = 0;
            for (int w = 0; w < argc; w++)
                found |= a.device >= words[w] && a.device <= words[w] + strlen(words[w]);
            if (!found) abort();
        }
        if (!(allowed & OPT_INDEX) && a.index_bits != 32) abort();
        if (!(allowed & OPT_STATS) && a.stats) abort();
        if (!(allowed & OPT_PRIMARY) && a.has_primary) abort();
    }
    for (int w = 0; w < argc; w++) free(words[w]);
    return 0;
}
