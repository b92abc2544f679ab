/* The client side of `clsa serve`: a context-opening command first tries
 * the server's socket and, when a server of the same user and the same
 * build answers, has it run the command on this process's folder, streams
 * and CLSA_* variables, then exits with its code.  Anything short of a
 * request sent (no socket, a stale one, another build, CLSA_SERVE=0) runs
 * the command here, silently: the server only ever saves time. */
#define _GNU_SOURCE
#include "cli.h"
#include "serve.h"
#include "parse_num.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static volatile sig_atomic_t ctrl_c;

static void on_sigint(int sig)
{
    (void)sig;
    ctrl_c = 1; /* SA_RESETHAND: a second Ctrl-C kills us, and the server sees us go */
}

/* How long a client waits for a busy server: CLSA_SERVE_WAIT_MS, default
 * 500 ms (parse_num.h; a bad value is ignored here: the command running
 * in-process reports nothing about the server). */
static int wait_ms(void)
{
    const char *e = getenv("CLSA_SERVE_WAIT_MS");
    uint64_t v;
    char why[96];
    if (e && !clsa__parse_u64(e, CLSA_NUM_PLAIN, 0, 3600000, &v, why, sizeof why)) return (int)v;
    return 500;
}

/* Whether the server's greeting arrives within wait_ms(). */
static int greeted(int fd)
{
    double end = cli_now() + wait_ms() / 1000.0;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int ms = (int)((end - cli_now()) * 1000.0);
        int k = poll(&p, 1, ms > 0 ? ms : 0);
        if (k > 0) return 1;
        if (k == 0 || errno != EINTR) return 0;
    }
}

/* Connected to a server of ours and of this build, or -1. */
static int connect_server(void)
{
    char path[CLI_SERVE_PATH_MAX], dir[CLI_SERVE_PATH_MAX], hello[512];
    int own_dir, nfds;
    struct stat st;
    long pid;
    if (cli_serve_path(NULL, path, dir, &own_dir) || stat(path, &st) != 0) return -1;
    int fd = cli_serve_connect(path);
    if (fd < 0) return -1;
    cli_serve_hdr h;
    int fds[CLI_SERVE_NFDS];
    /* The server greets when it takes the request; busy (an earlier one
     * running, maybe stuck reading its client's stdin) for longer than
     * the wait, the command runs here. */
    nfds = 0;
    if (cli_serve_peer_ok(fd, &pid) && greeted(fd) && !cli_serve_recv_hdr(fd, &h, fds, &nfds) && !nfds &&
        h.type == CLI_MSG_HELLO && h.len < sizeof hello && !cli_serve_recv_all(fd, hello, h.len)) {
        hello[h.len] = 0;
        if (!strcmp(hello, cli_serve_build_id())) return fd;
    }
    for (int i = 0; i < nfds; i++) close(fds[i]);
    close(fd);
    return -1;
}

static int add(char *buf, size_t *at, size_t cap, const char *s)
{
    size_t n = strlen(s) + 1;
    if (n > cap - *at) return -1;
    memcpy(buf + *at, s, n);
    *at += n;
    return 0;
}

/* u32 argc, u32 envc, the strings (serve.h); NULL when over the bounds. */
static char *pack(int argc, char **argv, uint32_t *len)
{
    uint32_t envc = 0;
    size_t at = 8, cap = CLI_SERVE_MAX_PAYLOAD;
    char *buf = malloc(cap);
    if (!buf || argc > CLI_SERVE_MAX_ARGS) goto bad;
    for (int i = 0; i < argc; i++)
        if (add(buf, &at, 8 + CLI_SERVE_MAX_ARGV_BYTES, argv[i])) goto bad;
    size_t env_start = at;
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "CLSA_", 5)) continue;
        if (++envc > CLI_SERVE_MAX_ENV ||
            add(buf, &at, env_start + CLI_SERVE_MAX_ENV_BYTES, *e))
            goto bad;
    }
    uint32_t ac = (uint32_t)argc;
    memcpy(buf, &ac, 4);
    memcpy(buf + 4, &envc, 4);
    *len = (uint32_t)at;
    return buf;
bad:
    free(buf);
    return NULL;
}

static int send_request(int fd, int argc, char **argv)
{
    uint32_t len;
    char *buf = pack(argc, argv, &len);
    if (!buf) return -1;
#ifdef O_PATH
    int cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
#else
    int cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
#endif
    int fds[CLI_SERVE_NFDS] = {cwd, 0, 1, 2};
    int rc = cwd < 0 ? -1 : cli_serve_send(fd, CLI_MSG_REQUEST, buf, len, fds, CLI_SERVE_NFDS);
    if (cwd >= 0) close(cwd);
    free(buf);
    return rc;
}

static void catch_ctrl_c(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint; /* no SA_RESTART: the wait below sees it */
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

/* The exit code, or CLI_RUNTIME when the server went away mid-command;
 * REJECT: -1 (the command runs here: nothing was done there). */
static int wait_exit(int fd)
{
    int told = 0, nfds;
    for (;;) {
        if (ctrl_c && !told) told = !cli_serve_send(fd, CLI_MSG_INTERRUPT, NULL, 0, NULL, 0);
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        cli_serve_hdr h;
        int fds[CLI_SERVE_NFDS];
        uint32_t code;
        if (cli_serve_recv_hdr(fd, &h, fds, &nfds)) break;
        for (int i = 0; i < nfds; i++) close(fds[i]);
        if (h.type == CLI_MSG_REJECT && h.len == 0) return -1;
        if (h.type == CLI_MSG_EXIT && h.len == 4 && !cli_serve_recv_all(fd, &code, 4))
            return code <= 255 ? (int)code : CLI_RUNTIME;
        break;
    }
    cli_error("the clsa server ended before the command did; run it again "
              "(CLSA_SERVE=0: without the server)");
    return CLI_RUNTIME;
}

int cli_serve_client(int argc, char **argv)
{
    const char *e = getenv("CLSA_SERVE");
    if (argc < 2 || !cli_serve_forwards(argv[1]) || (e && !strcmp(e, "0"))) return -1;
    int fd = connect_server();
    if (fd < 0) return -1;
    int rc = -1;
    if (!send_request(fd, argc, argv)) {
        catch_ctrl_c();
        rc = wait_exit(fd);
        signal(SIGINT, SIG_DFL);
    }
    close(fd);
    return rc;
}
