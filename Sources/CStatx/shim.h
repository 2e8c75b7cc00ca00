#ifndef LANES_CSTATX_SHIM_H
#define LANES_CSTATX_SHIM_H

/* A file's birth time, from statx(2) (#41). Glibc's Swift module declares no statx (it is behind
   _GNU_SOURCE), so the call is made here, as the system call itself: the kernel's struct, no
   dependence on the C library's version. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/stat.h>

/* The inode number, size and modification time of the file at `path` (links followed, as stat
   does) and, where the file system keeps one, its birth time. Returns 1 with a birth time, 0
   without one (the kernel or file system gives none, or gives zero), -1 on failure (errno). */
static inline int lanes_statx_birth(const char *path, uint64_t *inode, int64_t *size, int64_t *mtime_sec,
                                    uint32_t *mtime_nsec, int64_t *birth_sec, uint32_t *birth_nsec) {
#ifdef SYS_statx
    struct statx sx;
    if (syscall(SYS_statx, AT_FDCWD, path, 0, STATX_BASIC_STATS | STATX_BTIME, &sx) != 0) return -1;
    *inode = sx.stx_ino;
    *size = (int64_t)sx.stx_size;
    *mtime_sec = sx.stx_mtime.tv_sec;
    *mtime_nsec = sx.stx_mtime.tv_nsec;
    if (!(sx.stx_mask & STATX_BTIME) || (sx.stx_btime.tv_sec == 0 && sx.stx_btime.tv_nsec == 0)) return 0;
    *birth_sec = sx.stx_btime.tv_sec;
    *birth_nsec = sx.stx_btime.tv_nsec;
    return 1;
#else
    errno = ENOSYS;
    return -1;
#endif
}

#endif
