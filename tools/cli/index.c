/* clsa bwt / unbwt / lcp: indexes built on the suffix array. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

static const char *bwt_usage = "clsa bwt [-d DEV] [--backend B] [--stats] INPUT OUTPUT";
static const char *unbwt_usage =
    "clsa unbwt --primary P [-d DEV] [--backend B] [--stats] INPUT OUTPUT";
static const char *lcp_usage =
    "clsa lcp [-d DEV] [--backend B] [--index 32|64] [--stats] INPUT OUTPUT";

int cli_bwt(int argc, char **argv)
{
    cli_args a;
    int help, rc = cli_parse(argc, argv, OPT_DEVICE | OPT_STATS, 2, 2, bwt_usage, &a, &help);
    if (rc || help) return rc;
    uint8_t *text = NULL, *out = NULL;
    clsa_context *ctx = NULL;
    size_t n = 0;
    int64_t primary = 0;
    if ((rc = cli_read_file(a.pos[0], &text, &n))) goto done;
    if (!(out = malloc(n ? n : 1))) {
        cli_error("out of memory for the BWT (%zu bytes)", n);
        rc = CLI_RUNTIME;
        goto done;
    }
    if ((rc = cli_open(&a, &ctx))) goto done;
    double t0 = cli_now();
    clsa_status st = clsa_bwt(ctx, text, out, (int64_t)n, &primary);
    double t1 = cli_now();
    if (st) {
        rc = cli_fail(ctx, st, "bwt");
        goto done;
    }
    if ((rc = cli_write_file(a.pos[1], out, n))) goto done;
    printf("primary=%lld\n", (long long)primary);
    if (a.stats) cli_print_stats(ctx, n, t1 - t0);
done:
    clsa_destroy(ctx);
    free(text);
    free(out);
    return rc;
}

int cli_unbwt(int argc, char **argv)
{
    cli_args a;
    int help, rc = cli_parse(argc, argv, OPT_DEVICE | OPT_PRIMARY | OPT_STATS, 2, 2, unbwt_usage,
                             &a, &help);
    if (rc || help) return rc;
    if (!a.has_primary) {
        cli_error("missing --primary P (the value 'clsa bwt' printed; usage: %s)", unbwt_usage);
        return CLI_USAGE;
    }
    uint8_t *bwt = NULL, *out = NULL;
    clsa_context *ctx = NULL;
    size_t n = 0;
    if ((rc = cli_read_file(a.pos[0], &bwt, &n))) goto done;
    if (!(out = malloc(n ? n : 1))) {
        cli_error("out of memory for the text (%zu bytes)", n);
        rc = CLI_RUNTIME;
        goto done;
    }
    if ((rc = cli_open(&a, &ctx))) goto done;
    double t0 = cli_now();
    clsa_status st = clsa_unbwt(ctx, bwt, out, (int64_t)n, a.primary);
    double t1 = cli_now();
    if (st) {
        rc = cli_fail(ctx, st, "unbwt");
        goto done;
    }
    if ((rc = cli_write_file(a.pos[1], out, n))) goto done;
    if (a.stats) cli_print_stats(ctx, n, t1 - t0);
done:
    clsa_destroy(ctx);
    free(bwt);
    free(out);
    return rc;
}

/* The file format is little-endian whatever the host. */
static void to_le(void *v, size_t n, int width)
{
    const uint16_t probe = 1;
    if (*(const uint8_t *)&probe == 1) return;
    uint8_t *p = v;
    for (size_t i = 0; i < n; i++, p += width)
        for (int x = 0, y = width - 1; x < y; x++, y--) {
            uint8_t t = p[x];
            p[x] = p[y];
            p[y] = t;
        }
}

int cli_lcp(int argc, char **argv)
{
    cli_args a;
    int help, rc = cli_parse(argc, argv, OPT_DEVICE | OPT_INDEX | OPT_STATS, 2, 2, lcp_usage, &a,
                             &help);
    if (rc || help) return rc;
    uint8_t *text = NULL;
    void *lcp = NULL;
    clsa_context *ctx = NULL;
    size_t n = 0;
    int width = a.index_bits / 8;
    if ((rc = cli_read_file(a.pos[0], &text, &n))) goto done;
    if (width == 4 && n > INT32_MAX) {
        cli_error("'%s' has %zu bytes: too large for a 32-bit LCP array; use --index 64",
                  a.pos[0], n);
        rc = CLI_RUNTIME;
        goto done;
    }
    if (!(lcp = malloc(n ? n * (size_t)width : 1))) {
        cli_error("out of memory for the LCP array (%zu bytes)", n * (size_t)width);
        rc = CLI_RUNTIME;
        goto done;
    }
    if ((rc = cli_open(&a, &ctx))) goto done;
    double t0 = cli_now();
    clsa_status st = width == 4 ? clsa_lcp32(ctx, text, lcp, (int64_t)n)
                                : clsa_lcp64(ctx, text, lcp, (int64_t)n);
    double t1 = cli_now();
    if (st) {
        rc = cli_fail(ctx, st, "lcp");
        goto done;
    }
    to_le(lcp, n, width);
    if ((rc = cli_write_file(a.pos[1], lcp, n * (size_t)width))) goto done;
    if (a.stats) cli_print_stats(ctx, n, t1 - t0);
done:
    clsa_destroy(ctx);
    free(text);
    free(lcp);
    return rc;
}
