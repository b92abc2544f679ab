/* The protocol between `clsa` and `clsa serve` (docs/DESIGN.md, "CLI
 * through a resident server").  A Unix-domain stream socket; every message
 * is a 12-byte header (host byte order: both ends are one build on one
 * machine) and len bytes of payload.
 *
 *   server -> client  HELLO  "BUILD_ID\0PID" once accepted (clients queue
 *                            until then: one request at a time)
 *   client -> server  REQUEST with SCM_RIGHTS {cwd, stdin, stdout, stderr}
 *                            on the header: u32 argc, u32 envc, then argc
 *                            argv strings and envc CLSA_* "NAME=VALUE"
 *                            strings, each NUL-terminated
 *                     INTERRUPT (Ctrl-C), any time after REQUEST
 *                     STATUS, STOP instead of REQUEST
 *   server -> client  EXIT u32 code; REJECT (run it yourself, nothing was
 *                     done); TEXT (STATUS' answer, STOP's acknowledgement)
 *
 * Kept free of cli.h so tests can speak it (tests/test_cli_serve.c). */
#ifndef CLSA_CLI_SERVE_H
#define CLSA_CLI_SERVE_H

#include <stddef.h>
#include <stdint.h>

#define CLI_SERVE_MAGIC 0x41534c43u /* "CLSA" */
#define CLI_SERVE_PROTO 1u

enum {
    CLI_MSG_HELLO = 1,
    CLI_MSG_REQUEST,
    CLI_MSG_INTERRUPT,
    CLI_MSG_EXIT,
    CLI_MSG_REJECT,
    CLI_MSG_STATUS,
    CLI_MSG_STOP,
    CLI_MSG_TEXT
};

typedef struct cli_serve_hdr {
    uint32_t magic;
    uint16_t proto;
    uint16_t type;
    uint32_t len;
} cli_serve_hdr;

/* Bounds a request must keep (else the client is dropped). */
#define CLI_SERVE_MAX_ARGS 4096
#define CLI_SERVE_MAX_ARGV_BYTES (1u << 20)
#define CLI_SERVE_MAX_ENV 4096
#define CLI_SERVE_MAX_ENV_BYTES (1u << 20)
#define CLI_SERVE_MAX_PAYLOAD (CLI_SERVE_MAX_ARGV_BYTES + CLI_SERVE_MAX_ENV_BYTES + 8u)
#define CLI_SERVE_NFDS 4 /* the client's cwd, stdin, stdout, stderr */
#define CLI_SERVE_PATH_MAX 108 /* sockaddr_un.sun_path on Linux */

/* The socket path: given (--socket), else $CLSA_SERVE_SOCKET, else
 * $XDG_RUNTIME_DIR/clsa/serve.sock, else /tmp/clsa-$UID/serve.sock.
 * *own_dir: the folder is a default one the server creates and checks
 * (dir gets it).  0, or -1 when the path does not fit sun_path. */
int cli_serve_path(const char *given, char *path, char *dir, int *own_dir);
/* The default folder: created 0700, then checked to be ours and closed to
 * group and others.  0, or -1 with why (a sentence) filled. */
int cli_serve_dir_ready(const char *dir, char *why, size_t cap);
/* Version, compile time and the executable's identity: a client uses a
 * server only when both are the same build. */
const char *cli_serve_build_id(void);
/* Whether the peer runs as our user (SO_PEERCRED / getpeereid); *pid gets
 * its pid where the system tells (else 0). */
int cli_serve_peer_ok(int fd, long *pid);
/* A connected socket to path, or -1 (errno set). */
int cli_serve_connect(const char *path);
/* One message; fds (nfds of them) ride on the header.  0 or -1. */
int cli_serve_send(int fd, int type, const void *payload, uint32_t len, const int *fds,
                   int nfds);
/* One header, checked (magic, protocol); fds received with it go into
 * fds[0..*nfds) (at most CLI_SERVE_NFDS; more is an error, all closed).
 * 0, or -1 (EOF, error, garbage). */
int cli_serve_recv_hdr(int fd, cli_serve_hdr *h, int *fds, int *nfds);
/* Exactly n bytes; 0 or -1. */
int cli_serve_recv_all(int fd, void *p, size_t n);
/* Commands that open a context, and so run inside the server. */
int cli_serve_forwards(const char *command);
#endif

/* ---- server internals (serve.c, serve_run.c) ------------------------------ */
/* The server's own stdin/stdout/stderr and folder, put back after each
 * request. */
typedef struct cli_serve_home {
    int fd[3];
    int cwd;
} cli_serve_home;
/* Runs one REQUEST whose header (and its fds, which this closes) was read
 * from client: the command's exit code goes back as EXIT; a request it
 * will not run is answered REJECT (the client runs it itself).  Returns 1
 * when a command ran, 0 when not, -1 when the client was dropped (bad). */
int cli_serve_run(int client, const cli_serve_hdr *h, int *fds, int nfds,
                  const cli_serve_home *home);
