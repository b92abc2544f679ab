/* Output files replaced whole (safe_out.h). */
#include "safe_out.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#define SLOTS 64
#define MAX_LINKS 40

/* The temporaries open now, for clsa__sout_signal_cleanup. */
static struct {
    atomic_int used;
    char path[CLSA_PATH_MAX];
} open_tmps[SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

static int take_slot(const char *tmp)
{
    int got = -1;
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < SLOTS && got < 0; i++)
        if (!atomic_load(&open_tmps[i].used)) {
            snprintf(open_tmps[i].path, sizeof open_tmps[i].path, "%s", tmp);
            atomic_store(&open_tmps[i].used, 1);
            got = i;
        }
    pthread_mutex_unlock(&slots_lock);
    return got;
}

static void drop_slot(clsa__sout *o)
{
    if (o->slot >= 0) atomic_store(&open_tmps[o->slot].used, 0);
    o->slot = -1;
}

void clsa__sout_signal_cleanup(void)
{
    for (int i = 0; i < SLOTS; i++)
        if (atomic_load(&open_tmps[i].used)) unlink(open_tmps[i].path);
}

/* The folder of path into out ("." for a bare name). */
static void folder_of(const char *path, char *out, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(out, cap, ".");
    else if (slash == path) snprintf(out, cap, "/");
    else snprintf(out, cap, "%.*s", (int)(slash - path), path);
}

/* path with its symbolic links followed (the last component; a link to a
 * file not there yet gives that file).  0, or an errno. */
static int follow_links(const char *path, char *out, size_t cap)
{
    char cur[CLSA_PATH_MAX], link[CLSA_PATH_MAX], dir[CLSA_PATH_MAX];
    snprintf(cur, sizeof cur, "%s", path);
    for (int hop = 0; hop <= MAX_LINKS; hop++) {
        struct stat s;
        if (lstat(cur, &s) != 0 || !S_ISLNK(s.st_mode)) {
            if (snprintf(out, cap, "%s", cur) >= (int)cap) return ENAMETOOLONG;
            return 0;
        }
        ssize_t len = readlink(cur, link, sizeof link - 1);
        if (len < 0) return errno;
        link[len] = 0;
        folder_of(cur, dir, sizeof dir);
        int w = link[0] == '/' ? snprintf(cur, sizeof cur, "%s", link)
                               : snprintf(cur, sizeof cur, "%s/%s", dir, link);
        if (w < 0 || (size_t)w >= sizeof cur) return ENAMETOOLONG;
    }
    return ELOOP;
}

/* A device or FIFO: opened as it is, written in place. */
static int open_in_place(clsa__sout *o, char *why, size_t cap)
{
    o->in_place = 1;
    o->fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (o->fd >= 0) return CLSA_SOUT_OK;
    snprintf(why, cap, "%s", strerror(errno));
    return CLSA_SOUT_IO;
}

/* Six name characters for a temporary, different on every call. */
static void fill_suffix(char *x)
{
    static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static atomic_ulong calls;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t v = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts.tv_sec ^
                 (uint64_t)atomic_fetch_add(&calls, 1) * 0xBF58476D1CE4E5B9ull;
    for (int i = 0; i < 6; i++, v /= 62) x[i] = abc[v % 62];
}

/* The temporary is in the cleanup table before it exists: a signal, on
 * whichever thread, never finds it there unlisted. */
static int open_tmp(clsa__sout *o, char *why, size_t cap)
{
    int w = snprintf(o->tmp, sizeof o->tmp, "%s.tmp.%ld.XXXXXX", o->target, (long)getpid());
    if (w < 0 || (size_t)w >= sizeof o->tmp) {
        snprintf(why, cap, "%s", strerror(ENAMETOOLONG));
        return CLSA_SOUT_IO;
    }
    clsa__sout_sweep(o->target);
    int e = EEXIST;
    for (int tries = 0; tries < 100 && o->fd < 0 && e == EEXIST; tries++) {
        fill_suffix(o->tmp + w - 6);
        o->slot = take_slot(o->tmp);
        o->fd = open(o->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        e = errno;
        if (o->fd < 0) drop_slot(o);
    }
    if (o->fd < 0) {
        snprintf(why, cap, "%s", strerror(e));
        o->tmp[0] = 0;
        return CLSA_SOUT_IO;
    }
    flock(o->fd, LOCK_EX); /* held until closed: a sweep sees the writer alive */
    return CLSA_SOUT_OK;
}

int clsa__sout_open(clsa__sout *o, const char *path, char *why, size_t cap)
{
    memset(o, 0, sizeof *o);
    o->fd = o->slot = -1;
    int e = follow_links(path, o->target, sizeof o->target);
    if (e) {
        snprintf(why, cap, "%s", strerror(e));
        return e == ELOOP ? CLSA_SOUT_REFUSED : CLSA_SOUT_IO;
    }
    struct stat s;
    if (stat(o->target, &s) != 0) return open_tmp(o, why, cap);
    if (S_ISDIR(s.st_mode) || S_ISSOCK(s.st_mode)) {
        snprintf(why, cap, "it is a %s", S_ISDIR(s.st_mode) ? "folder" : "socket");
        return CLSA_SOUT_REFUSED;
    }
    if (!S_ISREG(s.st_mode)) return open_in_place(o, why, cap);
    o->had_old = 1;
    o->old = s;
    return open_tmp(o, why, cap);
}

/* The old file's owner and mode on the temporary (as far as allowed; a
 * set-id bit goes when the owner cannot be kept); a new file's: 0666 less
 * the umask (mkstemp made it 0600). */
static void keep_mode(clsa__sout *o)
{
    mode_t mode;
    if (o->had_old) {
        mode = o->old.st_mode & 07777;
        struct stat now;
        if (fchown(o->fd, o->old.st_uid, o->old.st_gid) != 0)
            (void)!fchown(o->fd, (uid_t)-1, o->old.st_gid);
        if (fstat(o->fd, &now) != 0 || now.st_uid != o->old.st_uid ||
            now.st_gid != o->old.st_gid)
            mode &= ~(mode_t)(S_ISUID | S_ISGID);
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    fchmod(o->fd, mode);
}

int clsa__sout_commit(clsa__sout *o, char *why, size_t cap)
{
    int bad = fsync(o->fd) != 0 && errno != EINVAL && errno != EROFS && errno != ENOTSUP;
    int saved = errno;
    if (!o->in_place && !bad) keep_mode(o);
    bad = close(o->fd) != 0 || bad;
    if (!bad) saved = errno;
    o->fd = -1;
    if (!bad && !o->in_place && rename(o->tmp, o->target) != 0) {
        bad = 1;
        saved = errno;
    }
    if (bad) {
        snprintf(why, cap, "%s", strerror(saved ? saved : EIO));
        clsa__sout_abort(o);
        return CLSA_SOUT_IO;
    }
    drop_slot(o);
    return CLSA_SOUT_OK;
}

void clsa__sout_abort(clsa__sout *o)
{
    if (o->fd >= 0) close(o->fd);
    o->fd = -1;
    if (o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = 0;
    drop_slot(o);
}

/* PID of a temporary's name "*.tmp.PID.XXXXXX", or 0 when it is not one. */
static long tmp_pid(const char *name)
{
    size_t len = strlen(name);
    if (len < 14 || name[len - 7] != '.') return 0;
    for (size_t i = len - 6; i < len; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'z') ||
              (name[i] >= 'A' && name[i] <= 'Z')))
            return 0;
    size_t d = len - 7;
    while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9') d--;
    if (d == len - 7 || d < 5 || strncmp(name + d - 5, ".tmp.", 5)) return 0;
    return strtol(name + d, NULL, 10);
}

/* Whether the temporary `name` in folder fd is ours and its writer gone. */
static int stale(int dfd, const char *name, long pid)
{
    if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno == EPERM) return 0;
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat s;
    int gone = fstat(fd, &s) == 0 && S_ISREG(s.st_mode) && s.st_uid == geteuid() &&
               flock(fd, LOCK_EX | LOCK_NB) == 0;
    close(fd);
    return gone;
}

void clsa__sout_sweep(const char *path)
{
    char dir[CLSA_PATH_MAX];
    folder_of(path, dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));) {
        long pid = tmp_pid(e->d_name);
        if (pid > 0 && stale(dirfd(d), e->d_name, pid)) unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}
