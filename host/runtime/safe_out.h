/* Output files written so that a reader sees the old file or the whole new
 * one, never a part (docs/RELIABILITY.md, "Outputs"): a temporary beside the
 * file, renamed over it when complete, keeping the old file's mode and
 * owner.  A symbolic link is followed (its target is written); a device or
 * FIFO is written in place (nothing to rename).  Temporaries are named
 * NAME.tmp.PID.XXXXXX and locked (flock) while written, so that a later run
 * can prove one stale (its writer died: SIGKILL, a driver abort) and remove
 * it.  Used by the CLI and by clsa_fm_save. */
#ifndef CLSA_SAFE_OUT_H
#define CLSA_SAFE_OUT_H

#include <stddef.h>
#include <sys/stat.h>

#define CLSA_PATH_MAX 4096

typedef struct clsa__sout {
    char target[CLSA_PATH_MAX]; /* the file written: the path, links followed */
    char tmp[CLSA_PATH_MAX];    /* its temporary; "" when written in place */
    int fd;                     /* the temporary (or the device), -1 when closed */
    int in_place;               /* a device or FIFO */
    int had_old;                /* target was a regular file: keep its mode, owner */
    struct stat old;
    int slot;                   /* in the signal-cleanup table; -1: none */
} clsa__sout;

enum { CLSA_SOUT_OK = 0, CLSA_SOUT_REFUSED = 1, CLSA_SOUT_IO = 2 };

/* Opens path for writing; CLSA_SOUT_OK, or REFUSED (a folder, a socket,
 * links too deep) / IO (errno) with why filled (cap bytes). */
int clsa__sout_open(clsa__sout *o, const char *path, char *why, size_t cap);
/* Makes the written data the file: fsync, mode and owner, rename.  Closes
 * o->fd.  CLSA_SOUT_OK or IO with why; on failure the temporary is gone. */
int clsa__sout_commit(clsa__sout *o, char *why, size_t cap);
/* Removes the temporary (a device keeps what was written), closes o->fd. */
void clsa__sout_abort(clsa__sout *o);
/* Async-signal-safe: removes every temporary still open in this process
 * (the CLI's handlers of fatal signals call it before dying). */
void clsa__sout_signal_cleanup(void);
/* Removes the stale temporaries in path's folder: names NAME.tmp.PID.XXXXXX
 * of files of ours whose writer is gone (pid not alive, lock free). */
void clsa__sout_sweep(const char *path);

#endif
