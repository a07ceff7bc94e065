#include "CNatsLibrary.h"

#include <pthread.h>
#include <stdio.h>

#if defined(__APPLE__)
// Apple platforms link libnats as before (through the CNats module): the table holds the
// linked functions.
const char *rewind_nats_soname(void) { return "libnats"; }

int rewind_nats_load(
  const char *soname, RewindNatsLibrary *library, char *problem, size_t capacity) {
  (void)soname;
  (void)problem;
  (void)capacity;
#define REWIND_NATS_LINKED(name) library->name = name;
  REWIND_NATS_FUNCTIONS(REWIND_NATS_LINKED)
#undef REWIND_NATS_LINKED
  return 0;
}
#else
#include <dlfcn.h>

const char *rewind_nats_soname(void) { return "libnats.so.3.4"; }

int rewind_nats_load(
  const char *soname, RewindNatsLibrary *library, char *problem, size_t capacity) {
  void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *reason = dlerror();
    snprintf(problem, capacity, "%s", reason != NULL ? reason : soname);
    return -1;
  }
  // The object's address is read as the function's, as POSIX allows for dlsym.
#define REWIND_NATS_RESOLVE(name) \
  { \
    void *address = dlsym(handle, #name); \
    if (address == NULL) { \
      snprintf(problem, capacity, "%s: no function %s", soname, #name); \
      dlclose(handle); \
      return -1; \
    } \
    *(void **)&library->name = address; \
  }
  REWIND_NATS_FUNCTIONS(REWIND_NATS_RESOLVE)
#undef REWIND_NATS_RESOLVE
  return 0;
}
#endif

static pthread_once_t loading = PTHREAD_ONCE_INIT;
static RewindNatsLibrary loaded;
static int loadedStatus = -1;
static char loadProblem[512];

static void load_once(void) {
  loadedStatus = rewind_nats_load(rewind_nats_soname(), &loaded, loadProblem, sizeof loadProblem);
#if !defined(__APPLE__)
  // Another release of the client, installed with its headers (libnats-dev's symlink): the
  // one the tool was built against when its soname is not the one above.
  if (loadedStatus != 0) {
    char otherProblem[sizeof loadProblem];
    if (rewind_nats_load("libnats.so", &loaded, otherProblem, sizeof otherProblem) == 0) {
      loadedStatus = 0;
    }
  }
#endif
}

const RewindNatsLibrary *rewind_nats_library(const char **problem) {
  pthread_once(&loading, load_once);
  if (loadedStatus != 0) {
    *problem = loadProblem;
    return NULL;
  }
  return &loaded;
}
