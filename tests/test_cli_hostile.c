/* Hostile and careless use of the CLI (issue 46, docs/RELIABILITY.md):
 * outputs that are links, devices and FIFOs; standard input or output that
 * is the output; lost standard output; signals and stale temporaries; the
 * old file's mode and owner; inputs whose size reads 0; unbwt of bytes that
 * are no BWT; numbers; a poisoned kernel cache; too little address space.
 * Where privileges matter, the cases run as root and as an unprivileged
 * user (a child that drops to nobody's uid when the test runs as root). */
#define _GNU_SOURCE
#include <dirent.h>
#include <divsufsort.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli_util.h"
#include "gen.h"

static void make_input(const char *name, size_t n, uint32_t seed)
{
    uint8_t *t = tu_malloc(n);
    gen_fill(t, n, GEN_RANDOM, 4, seed);
    write_file(in_dir(name), t, n);
    free(t);
}

/* The suffix array of file `in` (libdivsufsort) equals file `sa`. */
static void assert_sa_of(const char *in, const char *sa)
{
    size_t n, bytes;
    uint8_t *t = read_file(in, &n), *s = read_file(sa, &bytes);
    assert_int_equal(bytes, n * 4);
    int32_t *ref = tu_malloc(n * 4 + 4);
    assert_int_equal(divsufsort(t, ref, (int32_t)n), 0);
    if (memcmp(ref, s, bytes)) fail_msg("%s is not the suffix array of %s", sa, in);
    free(t);
    free(s);
    free(ref);
}

static int has_text(const char *file, const char *text)
{
    size_t n;
    char *s = (char *)read_file(in_dir(file), &n);
    int has = strstr(s, text) != NULL;
    free(s);
    return has;
}

static void assert_stderr_has(const char *text)
{
    if (!has_text("stderr", text)) {
        size_t n;
        char *s = (char *)read_file(in_dir("stderr"), &n);
        fail_msg("stderr lacks '%s': %s", text, s);
    }
}

static int is_link(const char *path)
{
    struct stat s;
    return lstat(path, &s) == 0 && S_ISLNK(s.st_mode);
}

/* No temporary (NAME.tmp.*) left in the scratch folder. */
static void assert_no_temps(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, ".tmp.")) fail_msg("temporary left behind: %s", e->d_name);
    closedir(d);
}

/* ---- item 1: links, devices, FIFOs ----------------------------------------- */

static void outputs_through_links(void **state)
{
    (void)state;
    make_input("in", 3000, 1);
    unlink(in_dir("full"));
    unlink(in_dir("null"));
    unlink(in_dir("lnk"));
    assert_int_equal(symlink("/dev/full", in_dir("full")), 0);
    assert_int_equal(symlink("/dev/null", in_dir("null")), 0);
    static const char *cmds[] = {"sa", "bwt", "lcp", "index", "sa --fasta"};
    write_file(in_dir("fa"), ">a\nACGT\n", 8);
    for (int i = 0; i < 5; i++) {
        const char *in = i == 4 ? in_dir("fa") : in_dir("in");
        /* a full device: the write fails (exit 3), the link stays a link */
        assert_int_equal(run("%s %s %s", cmds[i], in, in_dir("full")), 3);
        assert_true(is_link(in_dir("full")));
        assert_int_equal(run("%s %s %s", cmds[i], in, in_dir("null")), 0);
        assert_true(is_link(in_dir("null")));
    }
    /* a link to a regular file: the target is written, the link kept */
    write_file(in_dir("target"), "old", 3);
    assert_int_equal(symlink("target", in_dir("lnk")), 0);
    assert_int_equal(run("sa %s %s", in_dir("in"), in_dir("lnk")), 0);
    assert_true(is_link(in_dir("lnk")));
    assert_sa_of(in_dir("in"), in_dir("target"));
    /* a dangling link: its target is made */
    unlink(in_dir("target"));
    assert_int_equal(run("sa %s %s", in_dir("in"), in_dir("lnk")), 0);
    assert_true(is_link(in_dir("lnk")));
    assert_sa_of(in_dir("in"), in_dir("target"));
    assert_no_temps();
}

/* A FIFO output is written in place: the test reads it through its own
 * end, opened first (the suffix array, 20 KB, fits in the pipe), so that
 * a CLI that replaces the FIFO instead fails the test, never hangs it. */
static void output_fifo(void **state)
{
    (void)state;
    make_input("in", 5000, 3);
    unlink(in_dir("fifo"));
    assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
    int fd = open(in_dir("fifo"), O_RDONLY | O_NONBLOCK);
    assert_true(fd >= 0);
    int rc = run("sa %s %s", in_dir("in"), in_dir("fifo"));
    uint8_t *buf = tu_malloc(1 << 16);
    size_t n = 0;
    for (ssize_t k; (k = read(fd, buf + n, (1 << 16) - n)) > 0;) n += (size_t)k;
    close(fd);
    assert_int_equal(rc, 0);
    struct stat s;
    assert_int_equal(lstat(in_dir("fifo"), &s), 0);
    assert_true(S_ISFIFO(s.st_mode));
    write_file(in_dir("fifo.sa"), buf, n);
    free(buf);
    assert_sa_of(in_dir("in"), in_dir("fifo.sa"));
    assert_no_temps();
}

/* ---- unprivileged cases ------------------------------------------------------ */

/* Runs `clsa ARGS` as an unprivileged user: as root, a child that drops
 * to nobody's uid and gid (the scratch folder is given to that user
 * first); otherwise as ourselves.  Its exit code. */
static int run_user(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run_user(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    cli_command_line(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (geteuid() != 0) {
        int rc = system(cmd);
        return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    }
    struct passwd *pw = getpwnam("nobody");
    uid_t uid = pw ? pw->pw_uid : 65534;
    gid_t gid = pw ? pw->pw_gid : 65534;
    pid_t pid = fork();
    if (pid == 0) {
        char cache[600];
        snprintf(cache, sizeof cache, "%s/user-cache", dir);
        setenv("HOME", dir, 1);
        setenv("CLSA_CACHE_DIR", cache, 1);
        if (setgroups(0, NULL) || setgid(gid) || setuid(uid) || setuid(0) == 0) _exit(126);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static uid_t user_uid(void)
{
    struct passwd *pw = getpwnam("nobody");
    return geteuid() != 0 ? geteuid() : pw ? pw->pw_uid : 65534;
}

static void unprivileged(void **state)
{
    (void)state;
    uid_t uid = user_uid();
    gid_t gid = geteuid() != 0 ? getegid() : getpwnam("nobody") ? getpwnam("nobody")->pw_gid : 65534;
    make_input("in", 2000, 4);
    if (geteuid() == 0) {
        assert_int_equal(chown(dir, uid, gid), 0);
        unlink(in_dir("stdout"));
        unlink(in_dir("stderr"));
    }
    /* /dev/null works for everyone, and stays a device */
    assert_int_equal(run_user("sa %s /dev/null", in_dir("in")), 0);
    struct stat s;
    assert_int_equal(stat("/dev/null", &s), 0);
    assert_true(S_ISCHR(s.st_mode));
    /* an existing 0600 output of the user keeps its mode */
    assert_int_equal(run_user("sa %s %s", in_dir("in"), in_dir("own.sa")), 0);
    assert_int_equal(chmod(in_dir("own.sa"), 0600), 0);
    assert_int_equal(run_user("bwt %s %s", in_dir("in"), in_dir("own.sa")), 0);
    assert_int_equal(stat(in_dir("own.sa"), &s), 0);
    assert_int_equal(s.st_mode & 07777, 0600);
    assert_int_equal(s.st_uid, uid);
    /* a folder the user cannot write: exit 3, nothing left */
    mkdir(in_dir("ro"), 0755);
    if (geteuid() == 0) assert_int_equal(chown(in_dir("ro"), uid, gid), 0);
    assert_int_equal(chmod(in_dir("ro"), 0555), 0);
    assert_int_equal(run_user("sa %s %s/ro/x.sa", in_dir("in"), dir), 3);
    assert_false(exists(in_dir("ro/x.sa")));
    chmod(in_dir("ro"), 0755);
    if (geteuid() == 0) assert_int_equal(chown(dir, 0, 0), 0);
}

/* ---- item 5: the old file's mode and owner --------------------------------- */

static void mode_owner_kept(void **state)
{
    (void)state;
    make_input("in", 2000, 5);
    struct stat s;
    write_file(in_dir("m.sa"), "old", 3);
    assert_int_equal(chmod(in_dir("m.sa"), 0600), 0);
    assert_int_equal(run("sa %s %s", in_dir("in"), in_dir("m.sa")), 0);
    assert_int_equal(stat(in_dir("m.sa"), &s), 0);
    assert_int_equal(s.st_mode & 07777, 0600);
    assert_sa_of(in_dir("in"), in_dir("m.sa"));
    assert_int_equal(chmod(in_dir("m.sa"), 0640), 0);
    if (geteuid() == 0) assert_int_equal(chown(in_dir("m.sa"), 4242, 4243), 0);
    assert_int_equal(run("index %s %s", in_dir("in"), in_dir("m.sa")), 0);
    assert_int_equal(stat(in_dir("m.sa"), &s), 0);
    assert_int_equal(s.st_mode & 07777, 0640);
    if (geteuid() == 0) {
        assert_int_equal(s.st_uid, 4242);
        assert_int_equal(s.st_gid, 4243);
    }
}

/* ---- item 2: standard input or output that is the output ------------------- */

static void stdin_is_output(void **state)
{
    (void)state;
    static const char *cmds[] = {"sa", "bwt", "lcp"};
    make_input("in", 3000, 6);
    size_t n0, n1;
    uint8_t *before = read_file(in_dir("in"), &n0);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(run("%s - %s < %s", cmds[i], in_dir("in"), in_dir("in")), 2);
        assert_stderr_has("same file");
        uint8_t *after = read_file(in_dir("in"), &n1);
        assert_int_equal(n0, n1);
        assert_memory_equal(before, after, n0);
        free(after);
    }
    /* standard output that is the input */
    char cmd[1600];
    snprintf(cmd, sizeof cmd, "%s sa %s - >>%s 2>%s", CLSA_CLI, in_dir("in"), in_dir("in"),
             in_dir("stderr"));
    int rc = system(cmd);
    assert_int_equal(WEXITSTATUS(rc), 2);
    assert_stderr_has("same file");
    uint8_t *after = read_file(in_dir("in"), &n1);
    assert_int_equal(n0, n1);
    free(after);
    free(before);
}

/* ---- item 3: lost standard output ------------------------------------------ */

static void lost_stdout(void **state)
{
    (void)state;
    make_input("in", 3000, 7);
    unlink(in_dir("w"));
    char cmd[1200];
    /* run() sends stdout to a file: these commands name their own */
    snprintf(cmd, sizeof cmd, "%s bwt %s %s >/dev/full 2>%s", CLSA_CLI, in_dir("in"), in_dir("w"),
             in_dir("stderr"));
    int rc = system(cmd);
    assert_int_equal(WEXITSTATUS(rc), 3);
    assert_false(exists(in_dir("w"))); /* no BWT without its primary index */
    assert_stderr_has("primary");
    const char *others[] = {"--version", "devices", "--help", "lcs %s %s", "check %s %s"};
    assert_int_equal(run("sa %s %s", in_dir("in"), in_dir("in.sa")), 0);
    for (int i = 0; i < 5; i++) {
        char args[1024];
        snprintf(args, sizeof args, others[i], in_dir("in"), i == 4 ? in_dir("in.sa") : in_dir("in"));
        snprintf(cmd, sizeof cmd, "%s %s >/dev/full 2>%s", CLSA_CLI, args, in_dir("stderr"));
        rc = system(cmd);
        if (WEXITSTATUS(rc) != 3) fail_msg("clsa %s >/dev/full: exit %d", args, WEXITSTATUS(rc));
    }
    assert_no_temps();
}

/* ---- item 4: signals and stale temporaries --------------------------------- */

static int temp_exists(void)
{
    DIR *d = opendir(dir);
    int found = 0;
    for (struct dirent *e; d && (e = readdir(d));) found |= strstr(e->d_name, ".tmp.") != NULL;
    if (d) closedir(d);
    return found;
}

/* `clsa sa` of a big input on the host, signalled once its temporary is
 * there: returns how it ended (-sig when killed). */
static int signalled_run(int sig)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        dup2(fd, 2);
        execl(CLSA_CLI, "clsa", "sa", "-q", "--backend", "host", in_dir("big"),
              in_dir("big.sa"), (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 4000 && !temp_exists(); i++) usleep(2000);
    kill(pid, sig);
    int st;
    waitpid(pid, &st, 0);
    return WIFSIGNALED(st) ? -WTERMSIG(st) : WEXITSTATUS(st);
}

static void signals_and_stale_temps(void **state)
{
    (void)state;
    make_input("big", tu_size(24u << 20, 12u << 20), 8);
    int sigs[] = {SIGTERM, SIGHUP, SIGPIPE};
    for (int i = 0; i < 3; i++) {
        unlink(in_dir("big.sa"));
        int how = signalled_run(sigs[i]);
        print_message("signal %d: ended %d\n", sigs[i], how);
        assert_int_equal(how, -sigs[i]);
        assert_false(exists(in_dir("big.sa")));
        assert_no_temps();
    }
    /* SIGKILL leaves the temporary; the next output in the folder removes
     * it, but never a temporary of a live process or a file not ours */
    assert_int_equal(signalled_run(SIGKILL), -SIGKILL);
    assert_true(temp_exists());
    char live[64], other[64];
    snprintf(live, sizeof live, "x.tmp.%ld.AbC123", (long)getpid());
    snprintf(other, sizeof other, "notes.tmp.txt");
    write_file(in_dir(live), "live", 4);
    write_file(in_dir(other), "mine", 4);
    make_input("in", 1000, 9);
    assert_int_equal(run("sa %s %s", in_dir("in"), in_dir("in.sa")), 0);
    assert_true(exists(in_dir(live)));
    assert_true(exists(in_dir(other)));
    unlink(in_dir(live));
    unlink(in_dir(other));
    assert_no_temps();
    unlink(in_dir("big"));
}

/* ---- item 6: unbwt of bytes that are no BWT -------------------------------- */

static void unbwt_not_a_bwt(void **state)
{
    (void)state;
    make_input("text", tu_size(2000, 300), 10);
    assert_int_equal(run("bwt %s %s", in_dir("text"), in_dir("text.bwt")), 0);
    long long primary;
    size_t n;
    char *out = (char *)read_file(in_dir("stdout"), &n);
    assert_int_equal(sscanf(out, "primary=%lld", &primary), 1);
    free(out);
    long long wrong = primary > 1 ? primary - 1 : primary + 1;
    char msg[2][512];
    static const char *backends[] = {"host", "device"};
    for (int b = 0; b < 2; b++) {
        unlink(in_dir("back"));
        assert_int_equal(run("unbwt --backend %s --primary %lld %s %s", backends[b], primary,
                             in_dir("text.bwt"), in_dir("back")), 0);
        size_t n0, n1;
        uint8_t *t0 = read_file(in_dir("text"), &n0), *t1 = read_file(in_dir("back"), &n1);
        assert_int_equal(n0, n1);
        assert_memory_equal(t0, t1, n0);
        free(t0);
        free(t1);
        unlink(in_dir("back"));
        /* the text itself is no BWT for this primary (a random text's
         * psi has many cycles); nor the BWT for a wrong primary */
        assert_int_equal(run("unbwt --backend %s --primary %lld %s %s", backends[b], wrong,
                             in_dir("text.bwt"), in_dir("back")), 1);
        assert_false(exists(in_dir("back")));
        assert_int_equal(run("unbwt --backend %s --primary 7 %s %s", backends[b], in_dir("text"),
                             in_dir("back")), 1);
        assert_false(exists(in_dir("back")));
        out = (char *)read_file(in_dir("stderr"), &n);
        assert_non_null(strstr(out, "not a valid BWT"));
        snprintf(msg[b], sizeof msg[b], "%s", out);
        free(out);
    }
    assert_string_equal(msg[0], msg[1]); /* every backend says the same */
}

/* ---- item 7: inputs whose size reads 0 ------------------------------------- */

static void size_zero_inputs(void **state)
{
    (void)state;
    struct stat s;
    if (stat("/proc/version", &s) != 0 || s.st_size != 0) skip();
    assert_int_equal(run("sa /proc/version %s", in_dir("pv.sa")), 0);
    /* the test's own read of it, for the reference */
    FILE *f = fopen("/proc/version", "rb");
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_true(n > 0);
    write_file(in_dir("pv"), buf, n);
    assert_sa_of(in_dir("pv"), in_dir("pv.sa"));
}

/* ---- item 10: numbers ------------------------------------------------------- */

static void numbers(void **state)
{
    (void)state;
    make_input("in", tu_size(3000, 300), 11);
    static const char *bad_env[] = {"abc", "-1", "1e99", "12Q", "99999999P"};
    for (int i = 0; i < 5; i++) {
        setenv("CLSA_DEVICE_MEM_LIMIT", bad_env[i], 1);
        int rc = run("sa %s %s", in_dir("in"), in_dir("n.sa"));
        unsetenv("CLSA_DEVICE_MEM_LIMIT");
        if (rc != 2) fail_msg("CLSA_DEVICE_MEM_LIMIT=%s: exit %d, not 2", bad_env[i], rc);
        assert_stderr_has("CLSA_DEVICE_MEM_LIMIT");
        assert_stderr_has(bad_env[i]);
    }
    /* 1T is a terabyte, not 1 byte: the plan's budget is no smaller than 1 MB */
    static const char *good_env[] = {"1T", "2T", "1P", "1TiB", "1.5G"};
    for (int i = 0; i < 5; i++) {
        setenv("CLSA_DEVICE_MEM_LIMIT", good_env[i], 1);
        int rc = run("sa --stats %s %s", in_dir("in"), in_dir("n.sa"));
        unsetenv("CLSA_DEVICE_MEM_LIMIT");
        assert_int_equal(rc, 0);
        size_t n;
        char *err = (char *)read_file(in_dir("stderr"), &n);
        char *b = strstr(err, "plan: budget ");
        assert_non_null(b);
        if (strtoull(b + 13, NULL, 10) < (1u << 20))
            fail_msg("CLSA_DEVICE_MEM_LIMIT=%s: %s", good_env[i], b);
        free(err);
    }
    static const char *bad_primary[] = {"abc", "1.5", "1e24", "-3", "99999999999999999999"};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(run("unbwt --primary %s %s %s", bad_primary[i], in_dir("in"),
                             in_dir("u")), 2);
        assert_stderr_has("--primary");
        assert_stderr_has(bad_primary[i]);
    }
    assert_int_equal(run("sa --mem 1T %s %s", in_dir("in"), in_dir("n.sa")), 0);
    assert_int_equal(run("sa --mem 64KiB %s %s", in_dir("in"), in_dir("n.sa")), 0);
    assert_int_equal(run("sa --mem 1X %s %s", in_dir("in"), in_dir("n.sa")), 2);
    assert_stderr_has("--mem");
    assert_int_equal(run("index --sample-rate 0x10 %s %s", in_dir("in"), in_dir("n.fm")), 2);
    assert_stderr_has("--sample-rate");
}

/* ---- item 9: a poisoned kernel cache ---------------------------------------- */

/* FNV-1a 64, the checksum of the format-1 entries (what a forger computes). */
static uint64_t fnv(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* Each entry's binary damaged in its middle, its checksum made right
 * again; returns the number of entries. */
static int damage_entries(const char *cache)
{
    DIR *d = opendir(cache);
    int k = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strstr(e->d_name, ".bin")) continue;
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", cache, e->d_name);
        size_t n;
        uint8_t *b = read_file(path, &n);
        uint32_t keylen;
        memcpy(&keylen, b + 12, 4);
        size_t at = 16 + keylen, bin = at + 16;
        uint64_t size;
        memcpy(&size, b + at, 8);
        if (bin + size != n) fail_msg("unexpected cache entry layout in %s", path);
        for (size_t i = size / 3; i < size / 3 + 64 && i < size; i++) b[bin + i] ^= 0x5a;
        uint64_t sum = fnv(b + bin, size);
        memcpy(b + at + 8, &sum, 8);
        write_file(path, b, n);
        chmod(path, 0600);
        free(b);
        k++;
    }
    if (d) closedir(d);
    return k;
}

static void kernel_cache(void **state)
{
    (void)state;
    char cache[600];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    mkdir(cache, 0700);
    setenv("CLSA_CACHE_DIR", cache, 1);
    make_input("in", tu_size(3000, 300), 12);
    assert_int_equal(run("sa --backend device %s %s", in_dir("in"), in_dir("c.sa")), 0);
    int k = damage_entries(cache);
    if (k == 0) { /* a driver without program binaries caches nothing */
        unsetenv("CLSA_CACHE_DIR");
        skip();
    }
    assert_int_equal(run("sa --backend device --stats %s %s", in_dir("in"), in_dir("c.sa")), 0);
    assert_sa_of(in_dir("in"), in_dir("c.sa"));
    assert_stderr_has("cache entries rejected");
    assert_false(has_text("stderr", "cache entries rejected 0"));
    /* an entry that is a FIFO or a link: refused at once, never waited on */
    DIR *d = opendir(cache);
    int made = 0;
    for (struct dirent *e; d && (e = readdir(d)) && made < 2;) {
        if (!strstr(e->d_name, ".bin")) continue;
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", cache, e->d_name);
        unlink(path);
        if (made++ == 0) assert_int_equal(mkfifo(path, 0600), 0);
        else assert_int_equal(symlink("/etc/hostname", path), 0);
    }
    if (d) closedir(d);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "timeout 120 %s sa --backend device --stats %s %s 2>%s", CLSA_CLI,
             in_dir("in"), in_dir("c.sa"), in_dir("stderr"));
    int rc = system(cmd);
    assert_int_equal(WEXITSTATUS(rc), 0);
    assert_sa_of(in_dir("in"), in_dir("c.sa"));
    assert_false(has_text("stderr", "cache entries rejected 0"));
    unsetenv("CLSA_CACHE_DIR");
}

/* ---- item 11: too little address space for the driver ----------------------- */

static void address_space(void **state)
{
    (void)state;
    make_input("in", 1000, 13);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "ulimit -v 200000; %s sa --backend device %s %s 2>%s", CLSA_CLI,
             in_dir("in"), in_dir("as.sa"), in_dir("stderr"));
    int rc = system(cmd);
    /* a driver that fits in 200 MB; or under Oclgrind, whose preloaded
     * simulator does not let the process start at all (exit 127) */
    if (WEXITSTATUS(rc) == 0 || WEXITSTATUS(rc) >= 126) skip();
    assert_int_equal(WEXITSTATUS(rc), 3);
    assert_stderr_has("out of memory while opening the OpenCL driver");
    assert_no_temps();
}

int main(void)
{
    if (cli_dir_create("clsa-cli-hostile")) return 1;
    chmod(dir, 0755);
    clsa_destroy(tu_context()); /* skips cleanly when the device is missing */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(outputs_through_links), cmocka_unit_test(output_fifo),
        cmocka_unit_test(unprivileged),          cmocka_unit_test(mode_owner_kept),
        cmocka_unit_test(stdin_is_output),       cmocka_unit_test(lost_stdout),
        cmocka_unit_test(signals_and_stale_temps), cmocka_unit_test(unbwt_not_a_bwt),
        cmocka_unit_test(size_zero_inputs),      cmocka_unit_test(numbers),
        cmocka_unit_test(kernel_cache),          cmocka_unit_test(address_space),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (cli_dir_remove()) rc = 1;
    return rc;
}
