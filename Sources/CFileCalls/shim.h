// File calls the C library declares only under _GNU_SOURCE (which Swift's Glibc module
// does not define), or not at all: an atomic exchange of two names; and the extended
// attributes' calls (`<sys/xattr.h>`, which the Glibc module leaves out). Functions in the
// header, not a C target, as in CThreadPlacement. RewindJournal imports this module
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
#include <sys/xattr.h>
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

#endif
