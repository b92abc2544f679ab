/* clsa: command-line front end of the library (contract in docs/DESIGN.md);
 * the commands are in tools/cli/, their table in tools/cli/dispatch.c. */
#include "cli/cli.h"

int main(int argc, char **argv)
{
    cli_signals_install();
    int rc = cli_serve_client(argc, argv); /* a running `clsa serve` first */
    return rc >= 0 ? rc : cli_dispatch(argc, argv);
}
