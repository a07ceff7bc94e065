// What a process does with its temporary files' names when SIGINT, SIGTERM or SIGHUP ends
// it: a registry of the names, fixed in size and made before any signal comes, and a
// handler that removes them, puts the signal's default action back and raises it again,
// so that the process dies by it (a shell sees 128 + its number). A handler may call only
// async-signal-safe functions: this one reads the registry with atomic loads and
// exchanges, calls unlink, sigaction, raise, pthread_sigmask and _exit, allocates nothing
// and takes no lock.
//
// A replacement's last steps (the new file moved over the old one, the directory synced,
// the old file's second name removed) hold a signal back (rewind_cleanup_hold): the
// handler notes it and returns, and the end of those steps ends the process by it; a second
// signal meanwhile ends it at once.
//
// Functions in the header, not a C target, as in CThreadPlacement. The handler finds the
// registry through a static pointer, of which each object file that uses the header has
// its own copy: only one Swift file (RewindJournal's `EndingSignals.swift`) calls these
// functions, so the pointer set and the handler installed are one object's (every other
// call is given the registry).
#ifndef REWIND_CSIGNALCLEANUP_SHIM_H
#define REWIND_CSIGNALCLEANUP_SHIM_H

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// The names a registry holds at most, and the bytes of each (with its NUL): a path
/// longer than that, or a name beyond that count, is not removed by a signal (it stays, as
/// after a `kill -9`, for the next writer's cleanup).
#define REWIND_CLEANUP_SLOTS 64
#define REWIND_CLEANUP_PATH_BYTES 4096

/// A slot's states: free, being filled (the handler passes it by), holding a name to
/// remove, taken by the handler (the process is ending).
#define REWIND_CLEANUP_FREE 0
#define REWIND_CLEANUP_FILLING 1
#define REWIND_CLEANUP_ARMED 2
#define REWIND_CLEANUP_CLAIMED 3

struct rewind_cleanup_slot {
  int state;
  char path[REWIND_CLEANUP_PATH_BYTES];
};

struct rewind_cleanup_registry {
  /// The replacements taking their last steps now.
  int holding;
  /// The signal that came meanwhile; 0 for none.
  int pending;
  struct rewind_cleanup_slot slots[REWIND_CLEANUP_SLOTS];
};

/// Where the registry the handler reads is kept (rewind_cleanup_attach); NULL until there
/// is one. A static of a function, not of the header: Swift's importer emits a header's
/// functions into the object that uses them, but not its variables.
static inline struct rewind_cleanup_registry **rewind_cleanup_attached(void) {
  static struct rewind_cleanup_registry *attached;
  return &attached;
}

/// A new registry, every slot free (zeroed: calloc), or NULL when memory is short. Made
/// once, never freed; its pages are touched only as slots are used.
static inline void *rewind_cleanup_make(void) {
  return calloc(1, sizeof(struct rewind_cleanup_registry));
}

/// Makes `registry` the one the handler reads.
static inline void rewind_cleanup_attach(void *registry) {
  __atomic_store_n(rewind_cleanup_attached(), (struct rewind_cleanup_registry *)registry,
                   __ATOMIC_RELEASE);
}

/// Adds `path` to `registry`, for a signal to remove: the slot's number, or -1 when every
/// slot is taken or the path is too long.
static inline int rewind_cleanup_add(void *registry, const char *path) {
  struct rewind_cleanup_registry *r = registry;
  size_t length = strlen(path);
  if (length >= REWIND_CLEANUP_PATH_BYTES) return -1;
  for (int slot = 0; slot < REWIND_CLEANUP_SLOTS; slot++) {
    int expected = REWIND_CLEANUP_FREE;
    if (__atomic_compare_exchange_n(&r->slots[slot].state, &expected, REWIND_CLEANUP_FILLING, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      memcpy(r->slots[slot].path, path, length + 1);
      __atomic_store_n(&r->slots[slot].state, REWIND_CLEANUP_ARMED, __ATOMIC_RELEASE);
      return slot;
    }
  }
  return -1;
}

/// Takes slot `slot` (of rewind_cleanup_add; -1 is ignored) out of `registry`: from now
/// on no signal removes its name. If a handler is removing it already, the process is
/// ending by a signal: this waits for the end, so that the caller's next step (a rename
/// that makes the name the destination's) never happens.
static inline void rewind_cleanup_remove(void *registry, int slot) {
  struct rewind_cleanup_registry *r = registry;
  if (slot < 0 || slot >= REWIND_CLEANUP_SLOTS) return;
  int expected = REWIND_CLEANUP_ARMED;
  if (__atomic_compare_exchange_n(&r->slots[slot].state, &expected, REWIND_CLEANUP_FREE, 0,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return;
  if (expected == REWIND_CLEANUP_CLAIMED)
    for (;;) pause();
}

/// Removes every name `registry` (which may be NULL) holds, puts `signal`'s default action
/// back, raises it and unblocks it (in a handler, where it is blocked): the process ends
/// by it. Where its default action ends nothing (the first process of a PID namespace, a
/// container without an init, to which the kernel delivers no signal its default action
/// would take), the process ends with the status a shell gives such an end, 128 + its
/// number (it carried on, and waited for ever for a name this had claimed). Does not
/// return. Async-signal-safe.
__attribute__((noreturn))
static inline void rewind_cleanup_end(struct rewind_cleanup_registry *r, int signal) {
  if (r != NULL) {
    for (int slot = 0; slot < REWIND_CLEANUP_SLOTS; slot++) {
      int expected = REWIND_CLEANUP_ARMED;
      if (__atomic_compare_exchange_n(&r->slots[slot].state, &expected, REWIND_CLEANUP_CLAIMED,
                                      0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        (void)unlink(r->slots[slot].path);
    }
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  (void)sigaction(signal, &action, NULL);
  (void)raise(signal);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, signal);
  (void)pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  _exit(128 + signal);
}

/// Ends the process by `signal` as its handler would (a closed pipe's SIGPIPE, which a
/// library ignored since the process started): the names registered removed, then the
/// signal's default action. Does not return.
__attribute__((noreturn))
static inline void rewind_cleanup_end_now(int signal) {
  rewind_cleanup_end(__atomic_load_n(rewind_cleanup_attached(), __ATOMIC_ACQUIRE), signal);
}

/// The handler of SIGINT, SIGTERM and SIGHUP.
static inline void rewind_cleanup_handler(int signal) {
  int saved = errno;
  struct rewind_cleanup_registry *r = __atomic_load_n(rewind_cleanup_attached(), __ATOMIC_ACQUIRE);
  if (r != NULL && __atomic_load_n(&r->holding, __ATOMIC_SEQ_CST) > 0) {
    // The first signal waits for the replacement's end; a second one ends it now.
    int none = 0;
    if (__atomic_compare_exchange_n(&r->pending, &none, signal, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_RELAXED)) {
      // The replacement may have ended between the test above and the note (its release
      // found no signal): then the signal is taken back and ends the process now, unless
      // a release took it first, which ends the process itself.
      int noted = signal;
      if (__atomic_load_n(&r->holding, __ATOMIC_SEQ_CST) > 0 ||
          !__atomic_compare_exchange_n(&r->pending, &noted, 0, 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_RELAXED)) {
        errno = saved;
        return;
      }
    }
  }
  rewind_cleanup_end(r, signal);
}

/// Installs the handler for `signal` where it has its default action: 1 when installed;
/// 0 when the signal is ignored (as under `nohup`) or handled already, which stays so; -1
/// when the system refuses. The handler blocks the other two signals while it runs, and
/// restarts the calls a held-back signal interrupts.
static inline int rewind_cleanup_install(int signal) {
  struct sigaction current;
  if (sigaction(signal, NULL, &current) != 0) return -1;
  if ((current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler != SIG_DFL) return 0;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = rewind_cleanup_handler;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  sigaddset(&action.sa_mask, SIGHUP);
  action.sa_flags = SA_RESTART;
  return sigaction(signal, &action, NULL) == 0 ? 1 : -1;
}

/// Whether `signal` has its default action: 1 if so, 0 when it is ignored or handled.
static inline int rewind_signal_is_default(int signal) {
  struct sigaction current;
  if (sigaction(signal, NULL, &current) != 0) return 0;
  return (current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_DFL;
}


/// Holds back the signals that would end the process, while a replacement takes its last
/// steps; the same number of rewind_cleanup_release calls lets them through again.
static inline void rewind_cleanup_hold(void *registry) {
  struct rewind_cleanup_registry *r = registry;
  __atomic_add_fetch(&r->holding, 1, __ATOMIC_SEQ_CST);
}

/// The signal that came while a replacement held signals back, which its end will end
/// the process by; 0 for none.
static inline int rewind_cleanup_pending(void *registry) {
  struct rewind_cleanup_registry *r = registry;
  return __atomic_load_n(&r->pending, __ATOMIC_SEQ_CST);
}

/// The replacements holding signals back now.
static inline int rewind_cleanup_holding(void *registry) {
  struct rewind_cleanup_registry *r = registry;
  return __atomic_load_n(&r->holding, __ATOMIC_SEQ_CST);
}

/// Ends one rewind_cleanup_hold. When no replacement holds signals back any more and one
/// came meanwhile, ends the process by it, after removing the names still registered:
/// this does not return then.
static inline void rewind_cleanup_release(void *registry) {
  struct rewind_cleanup_registry *r = registry;
  if (__atomic_sub_fetch(&r->holding, 1, __ATOMIC_SEQ_CST) > 0) return;
  int signal = __atomic_exchange_n(&r->pending, 0, __ATOMIC_SEQ_CST);
  if (signal == 0) return;
  rewind_cleanup_end(r, signal);
}

#endif
