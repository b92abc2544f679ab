/* clsa bwt / unbwt / lcp (placeholder until the index issue lands). */
#include "cli.h"

static int not_yet(const char *name)
{
    cli_error("'%s' is not available in this build yet", name);
    return CLI_RUNTIME;
}

int cli_bwt(int argc, char **argv) { (void)argc; (void)argv; return not_yet("bwt"); }
int cli_unbwt(int argc, char **argv) { (void)argc; (void)argv; return not_yet("unbwt"); }
int cli_lcp(int argc, char **argv) { (void)argc; (void)argv; return not_yet("lcp"); }
