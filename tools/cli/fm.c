/* clsa index / count / locate / lcs (placeholder until the index issue lands). */
#include "cli.h"

static int not_yet(const char *name)
{
    cli_error("'%s' is not available in this build yet", name);
    return CLI_RUNTIME;
}

int cli_index(int argc, char **argv) { (void)argc; (void)argv; return not_yet("index"); }
int cli_count(int argc, char **argv) { (void)argc; (void)argv; return not_yet("count"); }
int cli_locate(int argc, char **argv) { (void)argc; (void)argv; return not_yet("locate"); }
int cli_lcs(int argc, char **argv) { (void)argc; (void)argv; return not_yet("lcs"); }
