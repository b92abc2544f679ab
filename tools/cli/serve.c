/* clsa serve: a resident process that pays the OpenCL start-up (platform,
 * context, queue, programs: a sizeable part of a second a process)
 * once and runs the context-opening commands of clients that connect to
 * its Unix socket (issue 15; contract in docs/DESIGN.md).  Requests run one
 * at a time: a client waits in the listen queue until the one before it
 * ends.  Security rests on the socket: a 0700 folder of ours for the
 * default path, a 0600 socket, and the peer's uid checked on both ends. */
#define _GNU_SOURCE
#include "cli.h"
#include "serve.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static const char *serve_usage =
    "clsa serve [--socket PATH] [-d DEV] [--backend B] [--idle SECONDS] | --stop | --status";

typedef struct server {
    char path[CLI_SERVE_PATH_MAX];
    int listen_fd;
    struct stat sock; /* the socket file we made: removed at exit if still ours */
    cli_serve_home home;
    unsigned long long served;
    int stop_client; /* a --stop waiting for the exit */
} server;

static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
    cli_interrupt(); /* the running command stops as on Ctrl-C */
}

static int parse_serve(int argc, char **argv, cli_args *a, int *help)
{
    int rc = cli_parse(argc, argv, OPT_DEVICE | OPT_SERVE, 0, 0, serve_usage, a, help);
    if (rc || *help) return rc;
    if (a->stop && a->status) {
        cli_error("--stop and --status exclude each other (usage: %s)", serve_usage);
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* ---- --status and --stop: a client of the server ----------------------------- */
static int ask(const char *path, int type)
{
    int fd = cli_serve_connect(path);
    long pid;
    if (fd < 0) {
        printf("clsa serve: no server at %s\n", path);
        return CLI_INVALID;
    }
    cli_serve_hdr h;
    int fds[CLI_SERVE_NFDS], nfds = 0, rc = CLI_RUNTIME;
    char text[2048];
    if (!cli_serve_peer_ok(fd, &pid)) {
        cli_error("serve: the server at %s runs as another user", path);
    } else if (cli_serve_recv_hdr(fd, &h, fds, &nfds) || h.type != CLI_MSG_HELLO ||
               h.len > sizeof text || cli_serve_recv_all(fd, text, h.len) ||
               cli_serve_send(fd, type, NULL, 0, NULL, 0) ||
               cli_serve_recv_hdr(fd, &h, fds, &nfds) || h.type != CLI_MSG_TEXT ||
               h.len >= sizeof text || cli_serve_recv_all(fd, text, h.len)) {
        cli_error("serve: the server at %s did not answer", path);
    } else {
        text[h.len] = 0;
        printf("clsa serve: %s\n", text);
        /* --stop returns once the server has gone (its end of the socket closes) */
        while (type == CLI_MSG_STOP && recv(fd, text, sizeof text, 0) > 0) {}
        rc = CLI_OK;
    }
    for (int i = 0; i < nfds; i++) close(fds[i]);
    close(fd);
    return rc;
}

/* ---- the listening socket ----------------------------------------------------- */
/* An existing file at path: a live server (refuse), a stale socket
 * (removed), anything else (refuse: not ours to delete). */
static int clear_path(const char *path)
{
    struct stat s;
    if (lstat(path, &s) != 0) return errno == ENOENT ? CLI_OK : CLI_RUNTIME;
    if (!S_ISSOCK(s.st_mode)) {
        cli_error("serve: '%s' exists and is not a socket", path);
        return CLI_RUNTIME;
    }
    int fd = cli_serve_connect(path);
    if (fd >= 0) {
        close(fd);
        cli_error("serve: a server already answers at %s ('clsa serve --status')", path);
        return CLI_RUNTIME;
    }
    if (unlink(path) != 0 && errno != ENOENT) {
        cli_error("serve: cannot remove the stale socket '%s': %s", path, strerror(errno));
        return CLI_RUNTIME;
    }
    return CLI_OK;
}

static int listen_at(server *s)
{
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    strcpy(a.sun_path, s->path);
    s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s->listen_fd < 0) {
        cli_error("serve: socket: %s", strerror(errno));
        return CLI_RUNTIME;
    }
    mode_t mask = umask(0177); /* the socket 0600 from its first moment */
    int bad = bind(s->listen_fd, (struct sockaddr *)&a, sizeof a) != 0;
    umask(mask);
    if (bad || listen(s->listen_fd, 64) != 0 || lstat(s->path, &s->sock) != 0) {
        cli_error("serve: cannot listen at %s: %s", s->path, strerror(errno));
        return CLI_RUNTIME;
    }
    return CLI_OK;
}

/* Our stdin/stdout/stderr open (else a socket could become fd 0 and be
 * overwritten by a client's stream), and copies kept to come back to. */
static int keep_home(cli_serve_home *h)
{
    for (int i = 0; i < 3; i++)
        if (fcntl(i, F_GETFD) < 0 && open("/dev/null", O_RDWR) != i) return -1;
    for (int i = 0; i < 3; i++)
        if ((h->fd[i] = fcntl(i, F_DUPFD_CLOEXEC, 3)) < 0) return -1;
#ifdef O_PATH
    h->cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
#else
    h->cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
#endif
    return h->cwd < 0 ? -1 : 0;
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop; /* no SA_RESTART: poll returns at once */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL); /* a client gone mid-write is an error, not a death */
}

/* -d / --backend: that context opened now, so even the first request
 * asking for it (in the server's environment) skips the start-up. */
static int warm(const cli_args *a)
{
    if (!a->device && a->backend == CLSA_BACKEND_DEFAULT) return CLI_OK;
    clsa_context *ctx;
    int rc = cli_open(a, &ctx);
    if (!rc) cli_close(ctx);
    return rc;
}

/* ---- serving ------------------------------------------------------------------- */
static void send_status(server *s, int c)
{
    char devs[1024], text[1536];
    cli_cache_describe(devs, sizeof devs);
    int n = snprintf(text, sizeof text, "running at %s: pid %ld, %llu requests served, contexts: %s",
                     s->path, (long)getpid(), s->served, devs);
    if (n > 0) cli_serve_send(c, CLI_MSG_TEXT, text, (uint32_t)strlen(text), NULL, 0);
}

static void set_timeouts(int c)
{
    /* A client that stalls mid-message is dropped, not waited for. */
    struct timeval t = {10, 0};
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &t, sizeof t);
    setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &t, sizeof t);
}

/* One connection; returns with c closed (or kept for a --stop). */
static void serve_one(server *s, int c)
{
    long pid;
    char hello[512];
    if (!cli_serve_peer_ok(c, &pid)) {
        cli_error("serve: refused a client of another user (pid %ld)", pid);
        close(c);
        return;
    }
    set_timeouts(c);
    int n = snprintf(hello, sizeof hello, "%s%c%ld", cli_serve_build_id(), 0, (long)getpid());
    cli_serve_hdr h;
    int fds[CLI_SERVE_NFDS], nfds = 0;
    if (n > 0 && (size_t)n < sizeof hello &&
        !cli_serve_send(c, CLI_MSG_HELLO, hello, (uint32_t)n, NULL, 0) &&
        !cli_serve_recv_hdr(c, &h, fds, &nfds)) {
        if (h.type == CLI_MSG_REQUEST) {
            s->served += cli_serve_run(c, &h, fds, nfds, &s->home) == 1;
            nfds = 0; /* closed there */
        } else if (h.type == CLI_MSG_STATUS && h.len == 0) {
            send_status(s, c);
        } else if (h.type == CLI_MSG_STOP && h.len == 0) {
            cli_serve_send(c, CLI_MSG_TEXT, "stopping", 8, NULL, 0);
            stop_flag = 1;
            s->stop_client = c;
            c = -1;
        }
    }
    for (int i = 0; i < nfds; i++) close(fds[i]);
    if (c >= 0) close(c);
}

static int accept_one(int lfd)
{
#if defined(SOCK_CLOEXEC) && defined(__linux__)
    return accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
#else
    int c = accept(lfd, NULL, NULL);
    if (c >= 0) fcntl(c, F_SETFD, FD_CLOEXEC);
    return c;
#endif
}

static void loop(server *s, double idle)
{
    double last = cli_now();
    while (!stop_flag) {
        int ms = 250; /* a signal taken by another thread still stops us soon */
        if (idle > 0) {
            double left = idle - (cli_now() - last);
            if (left <= 0) break;
            if (left * 1000 < ms) ms = (int)(left * 1000) + 1;
        }
        struct pollfd p = {s->listen_fd, POLLIN, 0};
        int k = poll(&p, 1, ms);
        if (k < 0 && errno != EINTR) {
            cli_error("serve: poll: %s", strerror(errno));
            break;
        }
        if (k <= 0) continue;
        int c = accept_one(s->listen_fd);
        if (c < 0) {
            if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED) {
                cli_error("serve: accept: %s", strerror(errno));
                poll(NULL, 0, 100); /* out of fds: let some go before trying again */
            }
            continue;
        }
        serve_one(s, c);
        last = cli_now();
    }
}

static void shut(server *s)
{
    struct stat now;
    if (s->listen_fd >= 0) close(s->listen_fd);
    /* Only our own socket: a newer server may have replaced it. */
    if (s->sock.st_ino && lstat(s->path, &now) == 0 && now.st_ino == s->sock.st_ino &&
        now.st_dev == s->sock.st_dev)
        unlink(s->path);
    cli_cache_clear();
    for (int i = 0; i < 3; i++)
        if (s->home.fd[i] >= 0) close(s->home.fd[i]);
    if (s->home.cwd >= 0) close(s->home.cwd);
    if (s->stop_client >= 0) close(s->stop_client);
}

static int start(server *s, const cli_args *o, const char *dir, int own_dir)
{
    char why[512];
    if (own_dir && cli_serve_dir_ready(dir, why, sizeof why)) {
        cli_error("serve: %s", why);
        return CLI_RUNTIME;
    }
    int rc = clear_path(s->path);
    if (rc) return rc;
    if (keep_home(&s->home)) {
        cli_error("serve: cannot keep its own streams: %s", strerror(errno));
        return CLI_RUNTIME;
    }
    catch_signals();
    cli_set_serving(1);
    if ((rc = warm(o)) || (rc = listen_at(s))) return rc;
    fprintf(stderr, "clsa serve: pid %ld listening on %s\n", (long)getpid(), s->path);
    return CLI_OK;
}

int cli_serve(int argc, char **argv)
{
    cli_args o;
    int help, own_dir, rc = parse_serve(argc, argv, &o, &help);
    if (rc || help) return rc;
    server s;
    char dir[CLI_SERVE_PATH_MAX];
    memset(&s, 0, sizeof s);
    s.listen_fd = s.stop_client = s.home.cwd = -1;
    s.home.fd[0] = s.home.fd[1] = s.home.fd[2] = -1;
    if (cli_serve_path(o.socket, s.path, dir, &own_dir)) {
        cli_error("serve: the socket path is too long (at most %d bytes)", CLI_SERVE_PATH_MAX - 1);
        return CLI_USAGE;
    }
    if (o.status) return ask(s.path, CLI_MSG_STATUS);
    if (o.stop) return ask(s.path, CLI_MSG_STOP);
    stop_flag = 0;
    if (!(rc = start(&s, &o, dir, own_dir))) loop(&s, o.idle);
    shut(&s);
    cli_set_serving(0);
    return rc;
}
