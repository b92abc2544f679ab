/* The CLI's messages: one-line errors on stderr, the report of a failed
 * library call, and the library options a command's arguments give. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("clsa: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_fail(clsa_context *ctx, clsa_status st, const char *what)
{
    if (st == CLSA_ERR_CANCELLED && cli_interrupted()) {
        cli_error("%s: interrupted; no output written", what);
        return CLI_INTERRUPTED;
    }
    cli_cache_note(ctx, st);
    const char *msg = ctx ? clsa_last_error(ctx) : "";
    if (msg && *msg) cli_error("%s: %s", what, msg);
    else cli_error("%s: %s", what, clsa_status_string(st));
    return st == CLSA_ERR_INVALID_ARG ? CLI_USAGE : CLI_RUNTIME;
}

void cli_options(const cli_args *a, clsa_options *o)
{
    clsa_options_init(o);
    o->device = a->device;
    o->backend = a->backend;
    o->profile = a->stats;
    o->mem_limit = a->mem_limit;
    o->threads = a->threads;
    o->algorithm = a->algorithm;
}
