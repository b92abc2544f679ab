/* Helpers for tests that drive the clsa command line (CLSA_CLI, the built
 * binary): a scratch folder, running a command with its output captured
 * there, whole-file reads and writes. */
#ifndef CLSA_CLI_UTIL_H
#define CLSA_CLI_UTIL_H

#include "testutil.h"

#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The scratch folder; stdout and stderr of the last run land in it. */
static char dir[256];

/* Creates the scratch folder "$TMPDIR/<prefix>-XXXXXX"; 0 on success. */
static inline int cli_dir_create(const char *prefix)
{
    snprintf(dir, sizeof dir, "%s/%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             prefix);
    return mkdtemp(dir) ? 0 : -1;
}

/* Removes the scratch folder; 0 on success. */
static inline int cli_dir_remove(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* dir/name, in one of four rotating buffers (several may be live at once). */
static inline char *in_dir(const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* Runs `clsa <args>` (printf-style); returns its exit code, -1 if it did not exit.
 * Under Oclgrind (run_impl.sh) the child inherits the simulator and all its
 * checks through the environment, and logs into the same FIFO. */
static inline void cli_command_line(char *cmd, size_t cap, const char *fmt, va_list ap)
{
    char args[1536];
    vsnprintf(args, sizeof args, fmt, ap);
    snprintf(cmd, cap, "%s %s >%s/stdout 2>%s/stderr", CLSA_CLI, args, dir, dir);
}

static inline int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int run(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    cli_command_line(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static inline void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) fail_msg("cannot create %s", path);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* The whole file, with a NUL after its last byte; *n gets its size. */
static inline uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = tu_malloc(*n + 1);
    assert_int_equal(fread(buf, 1, *n, f), *n);
    buf[*n] = 0;
    fclose(f);
    return buf;
}

/* A FASTA (or any input) in memory for clsa_bwa_index's read function. */
typedef struct mem_input {
    const char *p;
    size_t left;
} mem_input;

static inline long long mem_read(void *user, void *buf, size_t cap)
{
    mem_input *m = user;
    size_t k = m->left < cap ? m->left : cap;
    memcpy(buf, m->p, k);
    m->p += k, m->left -= k;
    return (long long)k;
}

static inline int exists(const char *path)
{
    struct stat s;
    return stat(path, &s) == 0;
}
#endif
