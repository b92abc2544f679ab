/* The pieces of the `clsa serve` protocol both ends use (serve.h): the
 * socket path, the build identity, credentials, framed messages.  No
 * printing here: the callers say what failed. */
#define _GNU_SOURCE /* struct ucred, SO_PEERCRED */
#include "serve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "clsa.h"

#ifndef MSG_CMSG_CLOEXEC
#define MSG_CMSG_CLOEXEC 0 /* not Linux: received fds are closed after each request anyway */
#endif

int cli_serve_path(const char *given, char *path, char *dir, int *own_dir)
{
    const char *env = getenv("CLSA_SERVE_SOCKET");
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    int n;
    *own_dir = 0;
    dir[0] = 0;
    if (given && *given) {
        n = snprintf(path, CLI_SERVE_PATH_MAX, "%s", given);
    } else if (env && *env) {
        n = snprintf(path, CLI_SERVE_PATH_MAX, "%s", env);
    } else {
        if (xdg && *xdg == '/') n = snprintf(dir, CLI_SERVE_PATH_MAX, "%s/clsa", xdg);
        else n = snprintf(dir, CLI_SERVE_PATH_MAX, "/tmp/clsa-%lu", (unsigned long)getuid());
        if (n < 0 || n >= CLI_SERVE_PATH_MAX) return -1;
        *own_dir = 1;
        n = snprintf(path, CLI_SERVE_PATH_MAX, "%s/serve.sock", dir);
    }
    return n < 0 || n >= CLI_SERVE_PATH_MAX ? -1 : 0;
}

int cli_serve_dir_ready(const char *dir, char *why, size_t cap)
{
    struct stat s;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(why, cap, "cannot create '%s': %s", dir, strerror(errno));
        return -1;
    }
    if (lstat(dir, &s) != 0) {
        snprintf(why, cap, "cannot stat '%s': %s", dir, strerror(errno));
        return -1;
    }
    /* Another user's folder (or a link to one) could hand our clients a
     * socket of theirs: refuse rather than repair. */
    if (!S_ISDIR(s.st_mode) || s.st_uid != geteuid() || (s.st_mode & 077)) {
        snprintf(why, cap,
                 "'%s' is not a folder of ours closed to group and others (mode %03o, "
                 "owner %lu): remove it or pass --socket",
                 dir, (unsigned)(s.st_mode & 0777), (unsigned long)s.st_uid);
        return -1;
    }
    return 0;
}

/* __DATE__ __TIME__ tells builds of this file apart; the executable's
 * inode, size and time tell a rebuilt or reinstalled binary from the one
 * the server runs (an old server would not know a new option). */
const char *cli_serve_build_id(void)
{
    static char id[256];
    if (id[0]) return id;
    struct stat s;
    int n = snprintf(id, sizeof id, "clsa %s proto %u built %s %s", clsa_version(),
                     CLI_SERVE_PROTO, __DATE__, __TIME__);
#ifdef __linux__
    if (stat("/proc/self/exe", &s) == 0 && n > 0 && (size_t)n < sizeof id)
        snprintf(id + n, sizeof id - (size_t)n, " exe %lx:%lx:%lld:%lld.%09ld",
                 (unsigned long)s.st_dev, (unsigned long)s.st_ino, (long long)s.st_size,
                 (long long)s.st_mtim.tv_sec, (long)s.st_mtim.tv_nsec);
#else
    (void)s;
#endif
    return id;
}

int cli_serve_peer_ok(int fd, long *pid)
{
    *pid = 0;
#if defined(SO_PEERCRED)
    struct ucred c;
    socklen_t len = sizeof c;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &len) != 0 || len != sizeof c) return 0;
    *pid = (long)c.pid;
    return c.uid == geteuid();
#elif defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
    uid_t uid;
    gid_t gid;
    return getpeereid(fd, &uid, &gid) == 0 && uid == geteuid();
#else
    (void)fd;
    return 0; /* no way to know who is there: never trust it */
#endif
}

int cli_serve_connect(const char *path)
{
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof a.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(a.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int cli_serve_send(int fd, int type, const void *payload, uint32_t len, const int *fds,
                   int nfds)
{
    cli_serve_hdr h = {CLI_SERVE_MAGIC, CLI_SERVE_PROTO, (uint16_t)type, len};
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int) * CLI_SERVE_NFDS)];
    } ctl;
    struct iovec iov = {&h, sizeof h};
    struct msghdr m;
    memset(&m, 0, sizeof m);
    memset(&ctl, 0, sizeof ctl);
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    if (nfds > 0 && nfds <= CLI_SERVE_NFDS) {
        m.msg_control = ctl.buf;
        m.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfds);
    }
    ssize_t w;
    do w = sendmsg(fd, &m, MSG_NOSIGNAL);
    while (w < 0 && errno == EINTR);
    if (w <= 0) return -1;
    /* The fds went with the first byte; the rest of the header is plain. */
    if (send_all(fd, (const char *)&h + w, sizeof h - (size_t)w)) return -1;
    return len ? send_all(fd, payload, len) : 0;
}

int cli_serve_recv_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n) {
        ssize_t r = recv(fd, c, n, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

/* The fds of one control message into fds; any beyond the room, or of
 * another kind, make the message bad (and are closed). */
static int take_fds(struct msghdr *m, int *fds, int *nfds)
{
    int bad = (m->msg_flags & MSG_CTRUNC) != 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < k; i++) {
            int f;
            memcpy(&f, CMSG_DATA(c) + i * sizeof(int), sizeof f);
            if (*nfds < CLI_SERVE_NFDS) fds[(*nfds)++] = f;
            else close(f), bad = 1;
        }
    }
    return bad ? -1 : 0;
}

static void close_fds(int *fds, int *nfds)
{
    for (int i = 0; i < *nfds; i++) close(fds[i]);
    *nfds = 0;
}

int cli_serve_recv_hdr(int fd, cli_serve_hdr *h, int *fds, int *nfds)
{
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(sizeof(int) * CLI_SERVE_NFDS)];
    } ctl;
    struct iovec iov = {h, sizeof *h};
    struct msghdr m;
    memset(&m, 0, sizeof m);
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = ctl.buf;
    m.msg_controllen = sizeof ctl.buf;
    *nfds = 0;
    ssize_t r;
    do r = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
    while (r < 0 && errno == EINTR);
    if (r <= 0) return -1;
    int bad = take_fds(&m, fds, nfds);
    if (!bad) bad = cli_serve_recv_all(fd, (char *)h + r, sizeof *h - (size_t)r);
    if (!bad) bad = h->magic != CLI_SERVE_MAGIC || h->proto != CLI_SERVE_PROTO;
    if (bad) close_fds(fds, nfds);
    return bad ? -1 : 0;
}

int cli_serve_forwards(const char *command)
{
    static const char *const names[] = {"sa", "bwt", "lcp", "index", "count", "locate", "lcs"};
    for (size_t i = 0; command && i < sizeof names / sizeof *names; i++)
        if (!strcmp(command, names[i])) return 1;
    return 0;
}
