// File calls the C library declares only under _GNU_SOURCE (which Swift's Glibc module
// does not define), or not at all: an atomic exchange of two names; and the extended
// attributes' calls, which the Glibc module leaves out (through `syscall`: including
// `<sys/xattr.h>` under _GNU_SOURCE defines `fd_set` otherwise than the Glibc module).
// Functions in the header, not a C target, as in CThreadPlacement. RewindJournal imports this module
// (`FileSystemCalls`, `AtomicFileWriter`), and its tests (the extended attributes).
#ifndef REWIND_CFILECALLS_SHIM_H
#define REWIND_CFILECALLS_SHIM_H

#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

/// Swaps the files the paths `a` and `b` name, at once (both must exist): 0, or -1 with
/// `errno` set; `ENOSYS`, `EINVAL` or `EOPNOTSUPP` where the system or the file system
/// cannot (a caller then does without). Linux's `renameat2` with `RENAME_EXCHANGE`, called
/// through `syscall` (any C library), or `renamex_np` with `RENAME_SWAP` on Apple systems.
static inline int rewind_exchange(const char *a, const char *b) {
#if defined(__linux__) && defined(SYS_renameat2)
  return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 1 << 1 /* RENAME_EXCHANGE */);
#elif defined(__APPLE__)
  return renamex_np(a, b, RENAME_SWAP);
#else
  (void)a;
  (void)b;
  errno = ENOSYS;
  return -1;
#endif
}

#if defined(__linux__)
/// `listxattr(2)`: the names of the extended attributes of the file at `path` (following
/// links), each ended by a NUL, into `list` of `size` bytes; their size with `size` 0.
static inline long rewind_listxattr(const char *path, char *list, unsigned long size) {
  return syscall(SYS_listxattr, path, list, size);
}

/// `getxattr(2)`: the value of the extended attribute `name` of the file at `path`
/// (following links), into `value` of `size` bytes; its size with `size` 0.
static inline long rewind_getxattr(const char *path, const char *name, void *value,
                                   unsigned long size) {
  return syscall(SYS_getxattr, path, name, value, size);
}

/// `setxattr(2)`: sets the extended attribute `name` of the file at `path`.
static inline int rewind_setxattr(const char *path, const char *name, const void *value,
                                  unsigned long size, int flags) {
  return (int)syscall(SYS_setxattr, path, name, value, size, flags);
}

/// `fsetxattr(2)`: sets the extended attribute `name` of the open file `descriptor`.
static inline int rewind_fsetxattr(int descriptor, const char *name, const void *value,
                                   unsigned long size, int flags) {
  return (int)syscall(SYS_fsetxattr, descriptor, name, value, size, flags);
}
#endif

#endif
