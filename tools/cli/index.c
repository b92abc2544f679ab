/* clsa bwt / unbwt / lcp: indexes built on the suffix array. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static const char *bwt_usage = "clsa bwt [-d DEV] [--backend B] [--mem SIZE] [--stats] [-q] [-v] "
                                "INPUT OUTPUT | --batch LIST (one 'INPUT OUTPUT' pair a line)";
static const char *unbwt_usage =
    "clsa unbwt --primary P [-d DEV] [--backend B] [--stats] INPUT OUTPUT";
static const char *lcp_usage =
    "clsa lcp [-d DEV] [--backend B] [--index 32|64] [--stats] [-q] [-v] INPUT OUTPUT";

/* The shape of bwt and unbwt: a byte array in, a byte array of the same
 * length out, both in page-locked memory of the context. */
typedef clsa_status (*bytes_fn)(clsa_context *ctx, const cli_args *a, const uint8_t *in,
                                uint8_t *out, int64_t n, int64_t *primary);

static clsa_status run_bwt(clsa_context *ctx, const cli_args *a, const uint8_t *in, uint8_t *out,
                           int64_t n, int64_t *primary);
static clsa_status run_unbwt(clsa_context *ctx, const cli_args *a, const uint8_t *in,
                             uint8_t *out, int64_t n, int64_t *primary);

/* "primary=P" on f, checked: CLI_OK or CLI_RUNTIME. */
static int cli_print_primary(FILE *f, int64_t primary)
{
    if (fprintf(f, "primary=%lld\n", (long long)primary) < 0 || fflush(f) != 0 || ferror(f)) {
        cli_error("cannot write the primary index: %s", strerror(errno ? errno : EIO));
        return CLI_RUNTIME;
    }
    return CLI_OK;
}

static int bytes_to_bytes(const cli_args *a, const char *what, bytes_fn fn, int64_t *primary)
{
    int rc = cli_distinct_paths(a->pos, 1, a->pos + 1, 1);
    if (rc) return rc;
    cli_in in;
    cli_buf src = {0};
    cli_result dst = {0};
    clsa_context *ctx = NULL;
    if ((rc = cli_in_open(&in, a->pos[0]))) return rc;
    if ((rc = cli_open(a, &ctx)) || (rc = cli_in_read(&in, ctx, &src)) ||
        (rc = cli_result_open(ctx, a->pos[1], src.n, &dst, "the output")))
        goto done;
    /* bwt's route is the suffix array's (out of core: finished on the host) */
    clsa_sa_plan_info plan;
    int planned = a->stats && fn == run_bwt && cli_sa_plan(ctx, src.n, 1, src.n > INT32_MAX, &plan);
    cli_progress_input(src.n);
    double t0 = cli_now();
    clsa_status st = fn(ctx, a, src.p, dst.b.p, (int64_t)src.n, primary);
    double t1 = cli_now();
    st = cli_progress_done(st);
    if (st) {
        rc = cli_fail(ctx, st, what);
        /* unbwt with a primary in range: the bytes are no BWT for it (exit 1) */
        if (fn == run_unbwt && st == CLSA_ERR_INVALID_ARG && a->primary >= 1 &&
            (size_t)a->primary <= src.n)
            rc = CLI_INVALID;
        goto done;
    }
    /* bwt's primary index is part of the result: written (and the write
     * checked) before the output is committed, so that an output without
     * it never appears; beside a BWT on standard output it goes to stderr. */
    if (fn == run_bwt && !cli_is_stream(a->pos[1]) && (rc = cli_print_primary(stdout, *primary)))
        goto done;
    if ((rc = cli_result_commit(&dst))) goto done;
    if (fn == run_bwt && cli_is_stream(a->pos[1]) && (rc = cli_print_primary(stderr, *primary)))
        goto done;
    if (a->stats) cli_print_stats(ctx, src.n, t1 - t0);
    if (planned) cli_print_plan(&plan);
    if (planned) cli_print_bwt_route(ctx);
done:
    cli_in_close(&in);
    cli_buf_free(&src);
    cli_result_close(&dst);
    cli_close(ctx);
    return rc;
}

static clsa_status run_bwt(clsa_context *ctx, const cli_args *a, const uint8_t *in, uint8_t *out,
                           int64_t n, int64_t *primary)
{
    (void)a;
    return clsa_bwt(ctx, in, out, n, primary);
}

static clsa_status run_unbwt(clsa_context *ctx, const cli_args *a, const uint8_t *in,
                             uint8_t *out, int64_t n, int64_t *primary)
{
    (void)primary;
    return clsa_unbwt(ctx, in, out, n, a->primary);
}

int cli_bwt(int argc, char **argv)
{
    cli_args a;
    int help, rc = cli_parse(argc, argv, OPT_DEVICE | OPT_STATS | OPT_PROGRESS | OPT_MEM | OPT_BATCH,
                             0, 2, bwt_usage, &a, &help);
    if (rc || help) return rc;
    if (a.batch && a.npos) {
        cli_error("--batch takes its inputs from LIST: no INPUT OUTPUT words (usage: %s)",
                  bwt_usage);
        return CLI_USAGE;
    }
    if (a.batch) return cli_bwt_batch(&a);
    if (a.npos < 2) {
        cli_error("missing argument (usage: %s)", bwt_usage);
        return CLI_USAGE;
    }
    int64_t primary = 0;
    return bytes_to_bytes(&a, "bwt", run_bwt, &primary);
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
    int64_t unused;
    return bytes_to_bytes(&a, "unbwt", run_unbwt, &unused);
}

int cli_lcp(int argc, char **argv)
{
    cli_args a;
    int help, rc = cli_parse(argc, argv, OPT_DEVICE | OPT_INDEX | OPT_STATS | OPT_PROGRESS, 2, 2, lcp_usage, &a,
                             &help);
    if (rc || help) return rc;
    if ((rc = cli_distinct_paths(a.pos, 1, a.pos + 1, 1))) return rc;
    cli_in in;
    cli_buf text = {0};
    cli_result lcp = {0};
    clsa_context *ctx = NULL;
    int width = a.index_bits / 8;
    if ((rc = cli_in_open(&in, a.pos[0]))) return rc;
    if ((rc = cli_open(&a, &ctx)) || (rc = cli_in_read(&in, ctx, &text))) goto done;
    size_t n = text.n;
    if (width == 4 && n > INT32_MAX) {
        cli_error("'%s' has %zu bytes: too large for a 32-bit LCP array; use --index 64",
                  a.pos[0], n);
        rc = CLI_RUNTIME;
        goto done;
    }
    if ((rc = cli_result_open(ctx, a.pos[1], n * (size_t)width, &lcp, "the LCP array")))
        goto done;
    cli_progress_input(n);
    double t0 = cli_now();
    clsa_status st = width == 4 ? clsa_lcp32(ctx, text.p, lcp.b.p, (int64_t)n)
                                : clsa_lcp64(ctx, text.p, lcp.b.p, (int64_t)n);
    double t1 = cli_now();
    st = cli_progress_done(st);
    if (st) {
        rc = cli_fail(ctx, st, "lcp");
        goto done;
    }
    cli_to_le(lcp.b.p, n, width);
    if ((rc = cli_result_commit(&lcp))) goto done;
    if (a.stats) cli_print_stats(ctx, n, t1 - t0);
done:
    cli_in_close(&in);
    cli_buf_free(&text);
    cli_result_close(&lcp);
    cli_close(ctx);
    return rc;
}
