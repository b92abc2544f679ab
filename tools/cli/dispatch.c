/* The CLI's command table and dispatch: main (tools/clsa.c) and each
 * `clsa serve` request run argv through cli_dispatch. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"sa", cli_sa, "sa [--index 32|64] [--mem SIZE] [--stats] [-q] [-v] INPUT OUTPUT  suffix array"},
    {"sa", cli_sa, "sa --fasta [--revcomp] [--keep-case] [--doc F] FASTA OUTPUT\n"
                   "                                                     generalized SA of the records"},
    {"sa", cli_sa, "sa --batch LIST [--index 32|64] [--stats] [-q]  suffix arrays of many\n"
                   "                                                     'INPUT OUTPUT' pairs, one pipeline"},
    {"check", cli_check, "check INPUT SA [--index 32|64]                     verify a suffix array"},
    {"devices", cli_devices, "devices                                            list OpenCL devices"},
    {"bwt", cli_bwt, "bwt [-q] [-v] INPUT OUTPUT                         Burrows-Wheeler transform"},
    {"bwt", cli_bwt, "bwt --batch LIST [--stats] [-q]                    BWTs of many pairs, one pipeline;\n"
                     "                                                     prints 'OUTPUT primary=P' each"},
    {"unbwt", cli_unbwt, "unbwt --primary P INPUT OUTPUT                     inverse BWT"},
    {"lcp", cli_lcp, "lcp [--index 32|64] [-q] [-v] INPUT OUTPUT         LCP array"},
    {"index", cli_index, "index [--sample-rate R] [-q] [-v] INPUT INDEX      build an FM-index file"},
    {"index", cli_index, "index --set (--fasta|--lines) [--seqs F] INPUT INDEX\n"
                         "                                                     FM-index of a set of strings"},
    {"count", cli_count, "count INDEX PATTERNS                               count occurrences"},
    {"locate", cli_locate, "locate INDEX PATTERNS                              list occurrences"},
    {"lcs", cli_lcs, "lcs A B                                            longest common substring"},
    {"lcs", cli_lcs, "lcs [--min M] (FILE... | --fasta FASTA | --lines F)\n"
                     "                                                     ... of k strings (in at least M)"},
    {"serve", cli_serve, "serve [--socket PATH] [-d DEV] [--idle S] [--stop | --status]\n"
                         "                                                     resident server: the OpenCL\n"
                         "                                                     start-up paid once"},
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

static void usage(FILE *f)
{
    fprintf(f, "usage: clsa COMMAND [OPTIONS] ARGS...\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++) fprintf(f, "  clsa %s\n", commands[i].summary);
    fprintf(f,
            "\nevery command takes -d/--device DEV (gpu, cpu, or a name substring[:index];\n"
            "sa also a list, -d nvidia:0,nvidia:1, or -d all: every GPU)\n"
            "and --backend auto|device|host; sa, bwt, lcp and index take -q/--quiet (no\n"
            "progress line on a terminal) and -v/--verbose (phase times after the run).\n"
            "'clsa COMMAND --help' for details; 'clsa --version' for the version and OpenCL.\n"
            "exit codes: 0 success, 1 check failed, 2 usage error, 3 runtime error,\n"
            "130 interrupted (Ctrl-C; no output written)\n"
            "\nfor many small runs start `clsa serve &`: sa, bwt, lcp, index, count, locate\n"
            "and lcs then run inside it when its socket answers (CLSA_SERVE=0: never;\n"
            "CLSA_SERVE_SOCKET: the socket path)\n");
}

/* What a command printed on standard output is its result: a write that
 * failed (a full disk, a closed pipe) is exit 3, never 0. */
static int stdout_checked(int rc)
{
    if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
    cli_error("cannot write standard output: %s", strerror(errno ? errno : EIO));
    return rc == CLI_OK || rc == CLI_INVALID ? CLI_RUNTIME : rc;
}

/* main's dispatch, shared with `clsa serve`, which runs each request's
 * argv through it: no path under it may exit the process. */
int cli_dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return stdout_checked(CLI_OK);
    }
    if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
        return stdout_checked(cli_version());
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name))
            return stdout_checked(commands[i].run(argc - 2, argv + 2));
    cli_error("unknown command '%s' (try 'clsa --help')", argv[1]);
    return CLI_USAGE;
}
