// Where a new thread starts: the CPUs a thread may run on, read and set with the Linux
// calls the C library declares only under _GNU_SOURCE (which Swift's Glibc module does not
// define). On other systems they do nothing and say so. Functions in the header, not a C
// target: the tool's code stays in Swift's objects (a C file's DWARF 5 debug information
// stopped valgrind 3.19 reading the release binary). Only RewindJournal imports this
// module (`DetachedThread`).
#ifndef REWIND_CTHREADPLACEMENT_SHIM_H
#define REWIND_CTHREADPLACEMENT_SHIM_H

#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif

#include <pthread.h>

#if defined(__linux__)
#include <sched.h>
#include <string.h>
#endif

/// A set of CPUs, by number: the size and bits of Linux's `cpu_set_t` (1,024 CPUs).
typedef struct rewind_cpus {
  unsigned long bits[1024 / (8 * sizeof(unsigned long))];
} rewind_cpus;

#if defined(__linux__)

_Static_assert(sizeof(rewind_cpus) == sizeof(cpu_set_t), "rewind_cpus is a cpu_set_t");

/// Reads the CPUs the calling thread may run on into `cpus`: 0, or -1 when they cannot be
/// read (on a system other than Linux, always).
static inline int rewind_thread_cpus(rewind_cpus *cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  memcpy(cpus, &set, sizeof set);
  return 0;
}

/// The CPU the calling thread runs on now; -1 when not known.
static inline int rewind_thread_current_cpu(void) { return sched_getcpu(); }

/// Sets `attributes` so that a thread made with them runs on CPU `cpu` alone: 0, or -1
/// when refused (a CPU out of range, say).
static inline int rewind_thread_attributes_cpu(pthread_attr_t *attributes, int cpu) {
  if (cpu < 0 || cpu >= CPU_SETSIZE) return -1;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return pthread_attr_setaffinity_np(attributes, sizeof one, &one) == 0 ? 0 : -1;
}

/// Lets the calling thread run on `cpus`: 0, or -1 when refused.
static inline int rewind_thread_set_cpus(const rewind_cpus *cpus) {
  cpu_set_t set;
  memcpy(&set, cpus, sizeof set);
  return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : -1;
}

#else

static inline int rewind_thread_cpus(rewind_cpus *cpus) {
  (void)cpus;
  return -1;
}

static inline int rewind_thread_current_cpu(void) { return -1; }

static inline int rewind_thread_attributes_cpu(pthread_attr_t *attributes, int cpu) {
  (void)attributes;
  (void)cpu;
  return -1;
}

static inline int rewind_thread_set_cpus(const rewind_cpus *cpus) {
  (void)cpus;
  return -1;
}

#endif

#endif
