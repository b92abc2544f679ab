/* clsa serve (issue 15): commands run through a resident server give the
 * same bytes, exit codes and messages as in-process runs (CLSA_SERVE=0);
 * the server survives garbage and vanishing clients, honours Ctrl-C, keeps
 * its fd count, and --status/--stop/stale sockets behave. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>

#include "cli_util.h"
#include "gen.h"
#include "serve.h"

extern char **environ;

static char sock[512];
static pid_t server = -1;

/* `clsa serve --socket path` in the background; its pid. */
static pid_t start_server(const char *path, const char *log)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) dup2(fd, 2), dup2(fd, 1);
        execl(CLSA_CLI, "clsa", "serve", "--socket", path, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Exit code of `clsa serve --status`; 1 when nothing answers. */
static int status_of(const char *path) { return run("serve --status --socket %s", path); }

static int wait_up(const char *path)
{
    for (int i = 0; i < 600; i++) {
        if (status_of(path) == 0) return 0;
        usleep(50000);
    }
    return -1;
}

/* waitpid with a deadline, then SIGKILL: a test never leaves a server. */
static int reap(pid_t pid, int seconds)
{
    int st;
    for (int i = 0; i < seconds * 20; i++) {
        if (waitpid(pid, &st, WNOHANG) == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        usleep(50000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    return -2;
}

static int stop_server(const char *path, pid_t pid)
{
    run("serve --stop --socket %s", path);
    return reap(pid, 30);
}

static char *read_stream(const char *name)
{
    size_t n;
    return (char *)read_file(in_dir(name), &n);
}

/* Requests the server has run, from --status. */
static long long served(void)
{
    assert_int_equal(status_of(sock), 0);
    char *o = read_stream("stdout");
    const char *p = strstr(o, "pid ");
    long pid = 0;
    long long k = -1;
    assert_non_null(p);
    assert_int_equal(sscanf(p, "pid %ld, %lld requests served", &pid, &k), 2);
    assert_int_equal(pid, (long)server);
    free(o);
    return k;
}

static int run_local(const char *args)
{
    setenv("CLSA_SERVE", "0", 1);
    int rc = run("%s", args);
    unsetenv("CLSA_SERVE");
    return rc;
}

static void same_file(const char *a, const char *b)
{
    size_t na, nb;
    uint8_t *x = read_file(a, &na), *y = read_file(b, &nb);
    assert_int_equal(na, nb);
    if (memcmp(x, y, na)) fail_msg("%s and %s differ", a, b);
    free(x);
    free(y);
}

/* One command through the server and in-process: exit codes, stdout and
 * stderr equal; out_s / out_l (may be NULL) the two outputs, compared. */
static int both(const char *fmt_s, const char *fmt_l)
{
    long long k = served();
    int rs = run("%s", fmt_s);
    rename(in_dir("stdout"), in_dir("stdout.s"));
    rename(in_dir("stderr"), in_dir("stderr.s"));
    assert_int_equal(served(), k + 1); /* it did run there */
    int rl = run_local(fmt_l);
    assert_int_equal(rs, rl);
    same_file(in_dir("stdout.s"), in_dir("stdout"));
    same_file(in_dir("stderr.s"), in_dir("stderr"));
    return rs;
}

static void make_input(const char *name, size_t n, uint32_t seed, int sigma)
{
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, sigma, seed);
    write_file(in_dir(name), t, n);
    free(t);
}

static void same_outputs(void **state)
{
    (void)state;
    char s[1024], l[1024];
    make_input("in.bin", tu_sizes(300000, 3000, 700), 11, 4);
    const char *cmds[] = {"sa", "sa --index 64", "bwt", "lcp", "index"};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        snprintf(s, sizeof s, "%s %s %s", cmds[i], in_dir("in.bin"), in_dir("out.s"));
        snprintf(l, sizeof l, "%s %s %s", cmds[i], in_dir("in.bin"), in_dir("out.l"));
        assert_int_equal(both(s, l), 0);
        same_file(in_dir("out.s"), in_dir("out.l"));
    }
    /* count and locate on the index just built (out.l) */
    /* patterns cut from the input (symbols 0..3: no newline among them) */
    size_t n;
    uint8_t *t = read_file(in_dir("in.bin"), &n), pat[64];
    size_t at = 0;
    for (size_t len = 1; len <= 6; len++) {
        memcpy(pat + at, t + 100 * len, len);
        at += len;
        pat[at++] = '\n';
    }
    free(t);
    write_file(in_dir("pat.txt"), pat, at);
    snprintf(s, sizeof s, "count %s %s", in_dir("out.l"), in_dir("pat.txt"));
    assert_int_equal(both(s, s), 0);
    snprintf(s, sizeof s, "locate %s %s", in_dir("out.l"), in_dir("pat.txt"));
    assert_int_equal(both(s, s), 0);
    char *o = read_stream("stdout");
    assert_true(strlen(o) > 10); /* positions, not an empty answer */
    free(o);
}

static void streams(void **state)
{
    (void)state;
    char s[1024];
    make_input("pipe.bin", tu_sizes(50000, 2000, 500), 12, 26);
    snprintf(s, sizeof s, "sa - - <%s", in_dir("pipe.bin"));
    assert_int_equal(both(s, s), 0);
    size_t n;
    free(read_file(in_dir("stdout"), &n));
    assert_int_equal(n, tu_sizes(50000, 2000, 500) * 4);
}

static void errors_alike(void **state)
{
    (void)state;
    char s[1024], l[1024];
    snprintf(s, sizeof s, "sa %s %s", in_dir("missing.bin"), in_dir("never.s"));
    snprintf(l, sizeof l, "sa %s %s", in_dir("missing.bin"), in_dir("never.s"));
    assert_int_equal(both(s, l), 3);
    assert_false(exists(in_dir("never.s")));
    char *e = read_stream("stderr.s");
    assert_non_null(strstr(e, "clsa: error: "));
    free(e);
    assert_int_equal(both("sa --no-such-option a b", "sa --no-such-option a b"), 2);
    assert_int_equal(both("lcp onlyone", "lcp onlyone"), 2);
    assert_int_equal(both("sa --help", "sa --help"), 0);
}

static void relative_paths(void **state)
{
    (void)state;
    make_input("rel.bin", tu_sizes(20000, 1000, 300), 13, 4);
    long long k = served();
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd %s && %s sa rel.bin rel.sa && CLSA_SERVE=0 %s sa rel.bin rel2.sa",
             dir, CLSA_CLI, CLSA_CLI);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(served(), k + 1);
    same_file(in_dir("rel.sa"), in_dir("rel2.sa"));
}

static void off_switch(void **state)
{
    (void)state;
    make_input("off.bin", 500, 14, 4);
    long long k = served();
    char s[1024];
    snprintf(s, sizeof s, "sa %s %s", in_dir("off.bin"), in_dir("off.sa"));
    assert_int_equal(run_local(s), 0);
    assert_int_equal(run("--version"), 0); /* not a context command: never sent */
    assert_int_equal(served(), k);
}

/* ---- speaking the protocol directly -------------------------------------------- */
static int raw_connect(void)
{
    int fd = cli_serve_connect(sock);
    assert_true(fd >= 0);
    return fd;
}

static void raw_hello(int fd)
{
    cli_serve_hdr h;
    int fds[CLI_SERVE_NFDS], nfds;
    char buf[512];
    assert_int_equal(cli_serve_recv_hdr(fd, &h, fds, &nfds), 0);
    assert_int_equal(h.type, CLI_MSG_HELLO);
    assert_true(h.len < sizeof buf);
    assert_int_equal(cli_serve_recv_all(fd, buf, h.len), 0);
}

/* A REQUEST for argv with this process's CLSA_* variables; streams: stdin
 * /dev/null, stdout and stderr into the scratch files. */
/* len bytes of buf and the four fds of a request in one sendmsg. */
static void send_with_fds(int fd, const void *buf, size_t len, const int fds[4])
{
    struct iovec iov = {(void *)(uintptr_t)buf, len};
    union { struct cmsghdr a; char b[CMSG_SPACE(4 * sizeof(int))]; } ctl;
    struct msghdr m = {0};
    m.msg_iov = &iov, m.msg_iovlen = 1, m.msg_control = ctl.b, m.msg_controllen = sizeof ctl.b;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET, c->cmsg_type = SCM_RIGHTS, c->cmsg_len = CMSG_LEN(4 * sizeof(int));
    memcpy(CMSG_DATA(c), fds, 4 * sizeof(int));
    assert_int_equal(sendmsg(fd, &m, 0), (ssize_t)len);
}

static void raw_request_x(int fd, int argc, const char **argv, int interrupt)
{
    static char buf[65536 + 2 * sizeof(cli_serve_hdr)];
    cli_serve_hdr *h = (cli_serve_hdr *)(void *)buf;
    size_t at = sizeof *h + 8;
    uint32_t ac = (uint32_t)argc, ec = 0;
    for (int i = 0; i < argc; i++) at += (size_t)sprintf(buf + at, "%s", argv[i]) + 1;
    for (char **e = environ; *e; e++)
        if (!strncmp(*e, "CLSA_", 5) && at + strlen(*e) + 1 < 65536)
            at += (size_t)sprintf(buf + at, "%s", *e) + 1, ec++;
    memcpy(buf + sizeof *h, &ac, 4);
    memcpy(buf + sizeof *h + 4, &ec, 4);
    *h = (cli_serve_hdr){CLI_SERVE_MAGIC, CLI_SERVE_PROTO, CLI_MSG_REQUEST,
                         (uint32_t)(at - sizeof *h)};
    /* the interrupt in the same sendmsg: queued before the server reads the
     * request, so it is there when the command starts (deterministic) */
    cli_serve_hdr stop = {CLI_SERVE_MAGIC, CLI_SERVE_PROTO, CLI_MSG_INTERRUPT, 0};
    if (interrupt) memcpy(buf + at, &stop, sizeof stop), at += sizeof stop;
    int fds[4] = {open(dir, O_RDONLY | O_DIRECTORY), open("/dev/null", O_RDONLY),
                  open(in_dir("stdout"), O_WRONLY | O_CREAT | O_TRUNC, 0600),
                  open(in_dir("stderr"), O_WRONLY | O_CREAT | O_TRUNC, 0600)};
    send_with_fds(fd, buf, at, fds);
    for (int i = 0; i < 4; i++) close(fds[i]);
}

static void raw_request(int fd, int argc, const char **argv) { raw_request_x(fd, argc, argv, 0); }

static int raw_exit(int fd)
{
    cli_serve_hdr h;
    int fds[CLI_SERVE_NFDS], nfds;
    uint32_t code;
    assert_int_equal(cli_serve_recv_hdr(fd, &h, fds, &nfds), 0);
    assert_int_equal(h.type, CLI_MSG_EXIT);
    assert_int_equal(cli_serve_recv_all(fd, &code, 4), 0);
    return (int)code;
}

/* An interrupt that reaches the server with the request: the command
 * stops as on Ctrl-C (130, no output), deterministically. */
static void interrupt_message(void **state)
{
    (void)state;
    make_input("int.bin", tu_sizes(100000, 2000, 500), 15, 4);
    const char *argv[] = {"clsa", "sa", "int.bin", "int.sa"};
    int fd = raw_connect();
    raw_hello(fd);
    raw_request_x(fd, 4, argv, 1);
    assert_int_equal(raw_exit(fd), 130);
    close(fd);
    assert_false(exists(in_dir("int.sa")));
    char *e = read_stream("stderr");
    assert_non_null(strstr(e, "interrupted"));
    free(e);
    /* the next request is not interrupted */
    fd = raw_connect();
    raw_hello(fd);
    raw_request(fd, 4, argv);
    assert_int_equal(raw_exit(fd), 0);
    close(fd);
    assert_true(exists(in_dir("int.sa")));
}

/* SIGINT to a real client mid-job: 130 and no output, unless the job won
 * the race (then a whole output): both are right, never a partial one.
 * 16 MB (under Oclgrind 8 KB, seconds of work there: 64 KB would take the
 * small-input path, minutes in the simulator before its first cancel check). */
static void interrupt_client(void **state)
{
    (void)state;
    size_t n = tu_size(16u << 20, 8u << 10);
    make_input("big.bin", n, 16, 4);
    unlink(in_dir("big.sa"));
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(in_dir("big.err"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) dup2(fd, 2);
        execl(CLSA_CLI, "clsa", "sa", "-q", in_dir("big.bin"), in_dir("big.sa"), (char *)NULL);
        _exit(127);
    }
    usleep(400000);
    kill(pid, SIGINT);
    int rc = reap(pid, 120);
    size_t bytes = 0;
    print_message("clsa sa of %zu bytes, SIGINT after 0.4 s: exit %d\n", n, rc);
    if (rc == 130) assert_false(exists(in_dir("big.sa")));
    else if (rc == 0) free(read_file(in_dir("big.sa"), &bytes)), assert_int_equal(bytes, n * 4);
    else fail_msg("clsa sa after SIGINT: exit %d", rc);
    assert_true(served() > 0); /* and the server is still there */
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A request stuck reading its client's stdin (a FIFO whose writer never
 * closes) must not hold up the next client by more than a second: that
 * one runs in-process after CLSA_SERVE_WAIT_MS (issue 46). */
static void stuck_client(void **state)
{
    (void)state;
    make_input("quick.bin", 4096, 46, 4);
    unlink(in_dir("stuck.in"));
    assert_int_equal(mkfifo(in_dir("stuck.in"), 0600), 0);
    int writer = open(in_dir("stuck.in"), O_RDWR | O_CLOEXEC); /* held open: no EOF */
    assert_true(writer >= 0);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(in_dir("stuck.in"), O_RDONLY);
        if (fd >= 0) dup2(fd, 0);
        execl(CLSA_CLI, "clsa", "sa", "-q", "-", in_dir("stuck.sa"), (char *)NULL);
        _exit(127);
    }
    usleep(700000); /* the server has taken it and waits on its stdin */
    double t0 = now_s();
    pid_t b = fork();
    if (b == 0) { /* killed at the deadline: a hang fails, never blocks the suite */
        int fd = open(in_dir("quick.err"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) dup2(fd, 2);
        execl(CLSA_CLI, "clsa", "sa", "-q", in_dir("quick.bin"), in_dir("quick.s.sa"),
              (char *)NULL);
        _exit(127);
    }
    int rs = reap(b, 20);
    double busy = now_s() - t0;
    char args[1200];
    snprintf(args, sizeof args, "sa -q %s %s", in_dir("quick.bin"), in_dir("quick.l.sa"));
    t0 = now_s();
    int rl = run_local(args);
    double alone = now_s() - t0;
    close(writer); /* the stuck request ends: empty input */
    int ra = reap(pid, 60);
    print_message("beside a stuck request: %.2f s (in-process alone %.2f s); stuck one: exit %d\n",
                  busy, alone, ra);
    assert_int_equal(rs, 0);
    assert_int_equal(rl, 0);
    same_file(in_dir("quick.s.sa"), in_dir("quick.l.sa"));
    assert_true(busy < alone + 1.0);
}

static void garbage_clients(void **state)
{
    (void)state;
    uint8_t junk[4096];
    gen_fill(junk, sizeof junk, GEN_RANDOM, 256, 17);
    int fd = raw_connect(); /* random bytes */
    assert_int_equal(write(fd, junk, sizeof junk), (ssize_t)sizeof junk);
    close(fd);
    fd = raw_connect(); /* nothing at all */
    close(fd);
    fd = raw_connect(); /* a header promising far too much */
    raw_hello(fd);
    assert_int_equal(cli_serve_send(fd, CLI_MSG_REQUEST, NULL, 0, NULL, 0), 0);
    close(fd);
    fd = raw_connect(); /* half a header */
    raw_hello(fd);
    assert_int_equal(write(fd, junk, 5), 5);
    close(fd);
    fd = raw_connect(); /* a request cut short: fds sent, payload not */
    raw_hello(fd);
    cli_serve_hdr h = {CLI_SERVE_MAGIC, CLI_SERVE_PROTO, CLI_MSG_REQUEST, 1000};
    int fds[4] = {0, 0, 1, 2};
    send_with_fds(fd, &h, sizeof h, fds);
    assert_int_equal(write(fd, junk, 10), 10);
    close(fd);
    fd = raw_connect(); /* a well-formed request for a command it does not run */
    raw_hello(fd);
    const char *argv[] = {"clsa", "serve", "--socket", "/nonexistent/x"};
    raw_request(fd, 4, argv);
    assert_int_equal(cli_serve_recv_hdr(fd, &h, fds, &(int){0}), 0);
    assert_int_equal(h.type, CLI_MSG_REJECT);
    close(fd);
    /* still serving */
    make_input("after.bin", 3000, 18, 4);
    char s[1024], l[1024];
    snprintf(s, sizeof s, "sa %s %s", in_dir("after.bin"), in_dir("after.s"));
    snprintf(l, sizeof l, "sa %s %s", in_dir("after.bin"), in_dir("after.l"));
    assert_int_equal(both(s, l), 0);
    same_file(in_dir("after.s"), in_dir("after.l"));
}

/* The server's fds of the kinds a request hands over (sockets, pipes, the
 * scratch folder and its files, our folder, /dev/null): the OpenCL
 * driver's own (rusticl's memfds and the like) come and go with its pools. */
static int fd_count(pid_t pid)
{
    char path[64], link[600], target[4096], cwd[4096];
    snprintf(path, sizeof path, "/proc/%ld/fd", (long)pid);
    DIR *d = opendir(path);
    if (!d || !getcwd(cwd, sizeof cwd)) {
        if (d) closedir(d);
        return -1;
    }
    int k = 0;
    for (struct dirent *e; (e = readdir(d));) {
        snprintf(link, sizeof link, "%s/%s", path, e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n < 0) continue;
        target[n] = 0;
        k += !strncmp(target, "socket:", 7) || !strncmp(target, "pipe:", 5) ||
             !strncmp(target, dir, strlen(dir)) || !strcmp(target, cwd) ||
             !strcmp(target, "/dev/null");
    }
    closedir(d);
    return k;
}

static void no_fd_leaks(void **state)
{
    (void)state;
    if (fd_count(server) < 0) skip(); /* no /proc */
    make_input("fd.bin", 2000, 19, 4);
    char s[1024];
    snprintf(s, sizeof s, "sa %s %s", in_dir("fd.bin"), in_dir("fd.sa"));
    assert_int_equal(run("%s", s), 0); /* warm: the context's own fds */
    usleep(200000);
    int before = fd_count(server);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(run("%s", s), 0);
        assert_int_equal(run("sa %s x.sa", in_dir("none.bin")), 3);
        assert_int_equal(run("sa --bad a b"), 2);
        snprintf(s, sizeof s, "sa - %s <%s", in_dir("fd.sa"), in_dir("fd.bin"));
        assert_int_equal(run("%s", s), 0);
        int fd = raw_connect();
        close(fd);
        status_of(sock); /* the last one (served above too) drains the queue */
    }
    /* the server closes a connection just after its answer: let it */
    int after = fd_count(server);
    for (int i = 0; i < 200 && after != before; i++) {
        usleep(20000);
        after = fd_count(server);
    }
    assert_int_equal(after, before);
}

static void status_stop_stale(void **state)
{
    (void)state;
    char path[300], log[300];
    snprintf(path, sizeof path, "%s/stale.sock", dir);
    snprintf(log, sizeof log, "%s/stale.log", dir);
    /* a socket file nobody listens on */
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    strcpy(a.sun_path, path);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    close(fd);
    assert_int_equal(status_of(path), 1);
    pid_t pid = start_server(path, log);
    assert_int_equal(wait_up(path), 0);
    char *o = read_stream("stdout");
    assert_non_null(strstr(o, "requests served"));
    free(o);
    /* a second server at a live socket refuses */
    assert_int_equal(run("serve --socket %s", path), 3);
    char *e = read_stream("stderr");
    assert_non_null(strstr(e, "already answers"));
    free(e);
    assert_int_equal(status_of(path), 0);
    assert_int_equal(stop_server(path, pid), 0);
    assert_false(exists(path));
    assert_int_equal(status_of(path), 1);
    assert_int_equal(run("serve --stop --socket %s", path), 1);
    /* not a socket: refused, and left alone */
    write_file(path, "x", 1);
    assert_int_equal(run("serve --socket %s", path), 3);
    assert_true(exists(path));
    /* --idle: it goes by itself */
    unlink(path);
    pid = fork();
    if (pid == 0) {
        execl(CLSA_CLI, "clsa", "serve", "--socket", path, "--idle", "0.5", (char *)NULL);
        _exit(127);
    }
    assert_int_equal(reap(pid, 30), 0);
    assert_false(exists(path));
}

static int up(void **state)
{
    (void)state;
    snprintf(sock, sizeof sock, "%s/s.sock", dir);
    setenv("CLSA_SERVE_SOCKET", sock, 1);
    unsetenv("CLSA_SERVE");
    server = start_server(sock, in_dir("serve.log"));
    return wait_up(sock);
}

static int down(void **state)
{
    (void)state;
    int rc = server > 0 ? stop_server(sock, server) : 0;
    server = -1;
    return rc == 0 ? 0 : -1;
}

int main(void)
{
    if (cli_dir_create("clsa-cli-serve")) return 1;
    clsa_destroy(tu_context()); /* skips cleanly when the device is missing */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_outputs),      cmocka_unit_test(streams),
        cmocka_unit_test(errors_alike),      cmocka_unit_test(relative_paths),
        cmocka_unit_test(off_switch),        cmocka_unit_test(interrupt_message),
        cmocka_unit_test(interrupt_client),  cmocka_unit_test(stuck_client),
        cmocka_unit_test(garbage_clients),
        cmocka_unit_test(no_fd_leaks),       cmocka_unit_test(status_stop_stale),
    };
    int rc = cmocka_run_group_tests(tests, up, down);
    if (cli_dir_remove()) rc = 1;
    return rc;
}
