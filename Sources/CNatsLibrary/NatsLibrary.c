#include "CNatsLibrary.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__APPLE__)
// Apple platforms link libnats as before (through the CNats module): the table holds the
// linked functions.
const char *rewind_nats_soname(void) { return "libnats"; }

const char *rewind_nats_package(void) { return "cnats"; }

int rewind_nats_loadable(void) { return 1; }

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

// A dynamically linked executable has a dynamic section, which the linker names _DYNAMIC;
// a statically linked one (`-static-executable`, not position-independent) has none, and
// the weak reference is then null.
extern const char _DYNAMIC[] __attribute__((weak));

int rewind_nats_loadable(void) { return _DYNAMIC != NULL; }

#define REWIND_STRING(value) #value
#define REWIND_VERSION_TEXT(major, minor) REWIND_STRING(major) "." REWIND_STRING(minor)

// The release the tool is built against (nats/version.h), whose structures it lays out.
const char *rewind_nats_soname(void) {
  return "libnats.so." REWIND_VERSION_TEXT(NATS_VERSION_MAJOR, NATS_VERSION_MINOR);
}

const char *rewind_nats_package(void) {
  return "libnats" REWIND_VERSION_TEXT(NATS_VERSION_MAJOR, NATS_VERSION_MINOR);
}

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
  // The functions fill structures the tool lays out as the headers it was built with say:
  // another release (its major and minor) could lay them out otherwise.
  uint32_t (*versionNumber)(void);
  *(void **)&versionNumber = dlsym(handle, "nats_GetVersionNumber");
  uint32_t version = versionNumber != NULL ? versionNumber() : 0;
  if ((version >> 8) != ((uint32_t)NATS_VERSION_NUMBER >> 8)) {
    snprintf(
      problem, capacity, "%s is release %u.%u.%u, the tool was built against %s", soname,
      (unsigned)(version >> 16), (unsigned)((version >> 8) & 0xFF), (unsigned)(version & 0xFF),
      NATS_VERSION_STRING);
    dlclose(handle);
    return -1;
  }
  return 0;
}
#endif

static pthread_once_t loading = PTHREAD_ONCE_INIT;
static RewindNatsLibrary loaded;
static int loadedStatus = -1;
static char loadProblem[512];
// Set once the library is loaded, for rewind_nats_close, which must not load it.
static int loadedOnce = 0;

static void load_once(void) {
  loadedStatus = rewind_nats_load(rewind_nats_soname(), &loaded, loadProblem, sizeof loadProblem);
#if !defined(__APPLE__)
  // The client installed with its headers (libnats-dev's symlink), when its soname is not
  // the one above; taken only if it is the release the tool was built against.
  if (loadedStatus != 0) {
    char otherProblem[sizeof loadProblem];
    if (rewind_nats_load("libnats.so", &loaded, otherProblem, sizeof otherProblem) == 0) {
      loadedStatus = 0;
    }
  }
#endif
  __atomic_store_n(&loadedOnce, loadedStatus == 0, __ATOMIC_RELEASE);
}

const RewindNatsLibrary *rewind_nats_library(const char **problem) {
  pthread_once(&loading, load_once);
  if (loadedStatus != 0) {
    *problem = loadProblem;
    return NULL;
  }
  return &loaded;
}

int rewind_nats_close(int64_t timeout) {
  if (!__atomic_load_n(&loadedOnce, __ATOMIC_ACQUIRE)) return 0;
  return (int)loaded.nats_CloseAndWait(timeout);
}
