// Tells ThreadSanitizer when a contended `Synchronization.Mutex` changes hands on Linux.
//
// The Mutex's fast paths (an atomic compare-and-exchange with acquire or release
// ordering) are inlined into our code and instrumented, so ThreadSanitizer sees them. Its
// slow paths, taken when the lock is contended, live in the toolchain's
// libswiftSynchronization.so, which is not instrumented: they hand the lock over through a
// priority-inheritance futex (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI), in the kernel. The
// sanitizer then misses the happens-before edge from the unlocking thread to the one that
// waited, and reports races on data the Mutex protects (seen on the Store's writer
// requests). Tools/test preloads this library (LD_PRELOAD) when it runs the tests under
// ThreadSanitizer: it interposes the three slow-path functions, calls the real ones, and
// annotates the handover on the lock word's address, as the fast path's atomics do.
//
// The functions use Swift's calling convention: `self` (the address of the lock word) is
// passed in the context register (`swift_context`). The ThreadSanitizer entry points are
// weak: in a process without the sanitizer (a child process the tests start) the
// annotations are skipped.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

#define SWIFTCALL __attribute__((swiftcall))
#define SELF __attribute__((swift_context))

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

typedef SWIFTCALL void (*LockSlow)(uint32_t, void *SELF);
typedef SWIFTCALL bool (*TryLockSlow)(void *SELF);
typedef SWIFTCALL void (*UnlockSlow)(void *SELF);

static void *original(const char *name) {
  void *function = dlsym(RTLD_NEXT, name);
  if (function == NULL) {
    fprintf(stderr, "mutex-annotations: %s not found\n", name);
    abort();
  }
  return function;
}

SWIFTCALL void lockSlow(uint32_t selfId, void *SELF handle) __asm__(LOCK_SLOW);
SWIFTCALL void lockSlow(uint32_t selfId, void *SELF handle) {
  static LockSlow real;
  if (real == NULL) real = (LockSlow)original(LOCK_SLOW);
  real(selfId, handle);
  if (__tsan_acquire) __tsan_acquire(handle);
}

SWIFTCALL bool tryLockSlow(void *SELF handle) __asm__(TRY_LOCK_SLOW);
SWIFTCALL bool tryLockSlow(void *SELF handle) {
  static TryLockSlow real;
  if (real == NULL) real = (TryLockSlow)original(TRY_LOCK_SLOW);
  bool locked = real(handle);
  if (locked && __tsan_acquire) __tsan_acquire(handle);
  return locked;
}

SWIFTCALL void unlockSlow(void *SELF handle) __asm__(UNLOCK_SLOW);
SWIFTCALL void unlockSlow(void *SELF handle) {
  static UnlockSlow real;
  if (real == NULL) real = (UnlockSlow)original(UNLOCK_SLOW);
  if (__tsan_release) __tsan_release(handle);
  real(handle);
}
