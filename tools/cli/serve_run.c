/* One request inside `clsa serve`: the client's argv runs through
 * cli_dispatch as if this process were the client, on the client's
 * folder, standard streams and CLSA_* variables; everything is put back
 * afterwards, so the next request starts as clean as a new process (the
 * parser keeps no state between calls: cli_parse starts from zero).  A
 * watcher thread reads the client socket meanwhile: an INTERRUPT message,
 * or the client's disappearance, is Ctrl-C for the command. */
#define _GNU_SOURCE
#include "cli.h"
#include "serve.h"

#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <stdio_ext.h>
#endif

extern char **environ;

typedef struct request {
    char *buf;
    char **argv, **env;
    int argc, envc;
} request;

/* The strings of buf[at..len) into v (count of them, each NUL-ended,
 * together at most max bytes); the offset after them, or 0 when bad. */
static size_t take_strings(char *buf, size_t at, size_t len, char **v, uint32_t count,
                           size_t max)
{
    size_t start = at;
    for (uint32_t i = 0; i < count; i++) {
        char *end = at < len ? memchr(buf + at, 0, len - at) : NULL;
        if (!end) return 0;
        v[i] = buf + at;
        at = (size_t)(end - buf) + 1;
    }
    return at - start <= max ? at : 0;
}

/* Only CLSA_NAME=VALUE: the server's other variables are its own. */
static int env_ok(char **env, int n)
{
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(env[i], '=');
        if (strncmp(env[i], "CLSA_", 5) || !eq || eq == env[i] + 5) return 0;
    }
    return 1;
}

static int parse(request *r, size_t len)
{
    uint32_t argc, envc;
    if (len < 8) return -1;
    memcpy(&argc, r->buf, 4);
    memcpy(&envc, r->buf + 4, 4);
    if (argc < 2 || argc > CLI_SERVE_MAX_ARGS || envc > CLI_SERVE_MAX_ENV) return -1;
    r->argv = calloc(argc + 1, sizeof *r->argv);
    r->env = calloc(envc + 1, sizeof *r->env);
    if (!r->argv || !r->env) return -1;
    size_t at = take_strings(r->buf, 8, len, r->argv, argc, CLI_SERVE_MAX_ARGV_BYTES);
    if (at) at = take_strings(r->buf, at, len, r->env, envc, CLI_SERVE_MAX_ENV_BYTES);
    r->argc = (int)argc;
    r->envc = (int)envc;
    return at == len && env_ok(r->env, r->envc) ? 0 : -1;
}

static void request_free(request *r)
{
    free(r->buf);
    free(r->argv);
    free(r->env);
}

/* ---- the CLSA_* environment ---------------------------------------------- */
typedef struct envset {
    char **vars; /* "NAME=VALUE" copies */
    int n;
} envset;

static void unset_all_clsa(void)
{
    /* One at a time from the top: unsetenv reshapes environ under a loop. */
    for (int again = 1; again;) {
        again = 0;
        for (char **e = environ; e && *e; e++) {
            if (strncmp(*e, "CLSA_", 5)) continue;
            char *name = strndup(*e, strcspn(*e, "="));
            again = name && unsetenv(name) == 0;
            free(name);
            break;
        }
    }
}

static void set_all(char **vars, int n)
{
    for (int i = 0; i < n; i++) {
        char *eq = strchr(vars[i], '=');
        *eq = 0;
        if (setenv(vars[i], eq + 1, 1) != 0)
            cli_error("serve: cannot set %s: %s", vars[i], strerror(errno));
        *eq = '=';
    }
}

static int env_save(envset *s)
{
    s->n = 0;
    s->vars = NULL;
    size_t k = 0;
    for (char **e = environ; e && *e; e++) k += !strncmp(*e, "CLSA_", 5);
    s->vars = calloc(k + 1, sizeof *s->vars);
    if (!s->vars) return -1;
    for (char **e = environ; e && *e && (size_t)s->n < k; e++)
        if (!strncmp(*e, "CLSA_", 5) && !(s->vars[s->n++] = strdup(*e))) {
            s->n--;
            return -1;
        }
    return 0;
}

static void env_free(envset *s)
{
    for (int i = 0; s->vars && i < s->n; i++) free(s->vars[i]);
    free(s->vars);
    s->vars = NULL;
    s->n = 0;
}

static void env_restore(envset *s)
{
    unset_all_clsa();
    set_all(s->vars, s->n);
    env_free(s);
}

/* ---- standard streams and folder ------------------------------------------ */
static void flush_stdio(void)
{
    fflush(stdout);
    fflush(stderr);
#ifdef __GLIBC__
    __fpurge(stdin); /* input a command buffered must not reach the next one */
#endif
    clearerr(stdin);
    clearerr(stdout);
    clearerr(stderr);
}

/* fds: cwd, stdin, stdout, stderr.  -1 with the server's own in place. */
static int enter_client(const int *fds, const cli_serve_home *home)
{
    flush_stdio();
    if (fchdir(fds[0]) != 0) {
        cli_error("serve: cannot enter the client's folder: %s", strerror(errno));
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        if (dup2(fds[i + 1], i) >= 0) continue;
        int e = errno;
        for (int j = 0; j < i; j++) dup2(home->fd[j], j);
        if (fchdir(home->cwd) != 0) cli_error("serve: cannot go back: %s", strerror(errno));
        cli_error("serve: cannot take the client's stream %d: %s", i, strerror(e));
        return -1;
    }
    return 0;
}

static void leave_client(const cli_serve_home *home)
{
    flush_stdio();
    for (int i = 0; i < 3; i++)
        if (dup2(home->fd[i], i) < 0) cli_error("serve: cannot restore stream %d", i);
    if (fchdir(home->cwd) != 0) cli_error("serve: cannot go back to its folder: %s", strerror(errno));
}

/* ---- the watcher: Ctrl-C from the client ---------------------------------- */
typedef struct watcher {
    int client;
    int wake[2];  /* written when the command has ended */
    atomic_int done;
    pthread_t thread;
    int started;
} watcher;

/* One message from the client: 1 to keep watching, 0 when it is gone or
 * spoke out of turn (either way the command should stop). */
static int read_one(int client)
{
    cli_serve_hdr h;
    int fds[CLI_SERVE_NFDS], nfds;
    if (cli_serve_recv_hdr(client, &h, fds, &nfds)) return 0;
    for (int i = 0; i < nfds; i++) close(fds[i]);
    return h.type == CLI_MSG_INTERRUPT && h.len == 0 && nfds == 0;
}

static void *watch(void *p)
{
    watcher *w = p;
    for (;;) {
        struct pollfd f[2] = {{w->client, POLLIN, 0}, {w->wake[0], POLLIN, 0}};
        int k = poll(f, 2, -1);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0 || f[1].revents || atomic_load(&w->done)) break;
        int alive = read_one(w->client);
        if (!atomic_load(&w->done)) cli_interrupt();
        if (!alive) break;
    }
    return NULL;
}

/* An interrupt already sent is honoured before the command starts. */
static void drain_pending(int client)
{
    struct pollfd f = {client, POLLIN, 0};
    while (poll(&f, 1, 0) > 0) {
        int alive = read_one(client);
        cli_interrupt();
        if (!alive) break;
    }
}

static int watch_start(watcher *w, int client)
{
    memset(w, 0, sizeof *w);
    w->client = client;
    if (pipe(w->wake) != 0) return -1;
    w->started = pthread_create(&w->thread, NULL, watch, w) == 0;
    return 0;
}

static void watch_stop(watcher *w)
{
    atomic_store(&w->done, 1);
    if (w->started) {
        /* the pipe ends poll; SHUT_RD ends a read stuck on half a header */
        if (write(w->wake[1], "x", 1) != 1) cli_error("serve: cannot wake the watcher");
        shutdown(w->client, SHUT_RD);
        pthread_join(w->thread, NULL);
    }
    close(w->wake[0]);
    close(w->wake[1]);
}

/* ---- one request ------------------------------------------------------------ */
static int answer(int client, int type, int code)
{
    uint32_t c = (uint32_t)code;
    return cli_serve_send(client, type, &c, type == CLI_MSG_EXIT ? 4 : 0, NULL, 0);
}

static int reject(int client, envset *saved)
{
    env_free(saved);
    answer(client, CLI_MSG_REJECT, 0);
    return 0;
}

static int execute(int client, request *r, const int *fds, const cli_serve_home *home)
{
    envset saved;
    watcher w;
    if (env_save(&saved) != 0 || enter_client(fds, home) != 0) return reject(client, &saved);
    cli_interrupt_reset();
    drain_pending(client); /* before the watcher: one reader at a time */
    if (watch_start(&w, client) != 0) {
        leave_client(home);
        return reject(client, &saved);
    }
    unset_all_clsa();
    set_all(r->env, r->envc);
    int rc = cli_dispatch(r->argc, r->argv);
    watch_stop(&w);
    leave_client(home);
    env_restore(&saved);
    cli_cache_after_request();
    answer(client, CLI_MSG_EXIT, rc);
    return 1;
}

int cli_serve_run(int client, const cli_serve_hdr *h, int *fds, int nfds,
                  const cli_serve_home *home)
{
    request r = {0};
    int ran = -1;
    if (nfds == CLI_SERVE_NFDS && h->len >= 8 && h->len <= CLI_SERVE_MAX_PAYLOAD &&
        (r.buf = malloc(h->len)) && !cli_serve_recv_all(client, r.buf, h->len) &&
        !parse(&r, h->len)) {
        /* `serve` itself, or a command without a context: the client's */
        if (cli_serve_forwards(r.argv[1])) {
            ran = execute(client, &r, fds, home);
        } else {
            answer(client, CLI_MSG_REJECT, 0);
            ran = 0;
        }
    }
    request_free(&r);
    for (int i = 0; i < nfds; i++) close(fds[i]);
    return ran;
}
