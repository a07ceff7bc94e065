// libnats, the NATS C client, loaded when a command first talks to a NATS server: its
// types and constants from its header, its functions through a table. A command that
// never connects (all but the stream commands and nats:// sessions) does not load the
// library and the three it pulls in (libssl, libcrypto, libprotobuf-c), whose relocations
// were half the work of starting `rewind` (BENCHMARKS.md, "Issue 17: a faster start").
// Only RewindStream imports this module.
#ifndef REWIND_CNATS_LIBRARY_H
#define REWIND_CNATS_LIBRARY_H

#include <stddef.h>
#include <stdint.h>
#include <nats/nats.h>

/// Every libnats function RewindStream calls.
#define REWIND_NATS_FUNCTIONS(X) \
  X(natsOptions_Create) \
  X(natsOptions_Destroy) \
  X(natsOptions_SetServers) \
  X(natsOptions_SetURL) \
  X(natsOptions_SetName) \
  X(natsOptions_SetTimeout) \
  X(natsOptions_SetMaxReconnect) \
  X(natsOptions_SetReconnectWait) \
  X(natsOptions_SetUserInfo) \
  X(natsOptions_SetUserCredentialsFromFiles) \
  X(natsOptions_LoadCATrustedCertificates) \
  X(natsOptions_SetSecure) \
  X(natsConnection_Connect) \
  X(natsConnection_JetStream) \
  X(natsConnection_GetMaxPayload) \
  X(natsConnection_GetLastError) \
  X(natsConnection_Close) \
  X(natsConnection_Destroy) \
  X(natsConnection_Status) \
  X(natsConnection_FlushTimeout) \
  X(jsOptions_Init) \
  X(jsCtx_Destroy) \
  X(js_GetAccountInfo) \
  X(jsAccountInfo_Destroy) \
  X(js_GetStreamInfo) \
  X(jsStreamInfo_Destroy) \
  X(jsStreamConfig_Init) \
  X(js_AddStream) \
  X(js_StreamNames) \
  X(jsStreamNamesList_Destroy) \
  X(natsMsg_Create) \
  X(natsMsg_Destroy) \
  X(natsMsgHeader_Set) \
  X(natsMsgHeader_Keys) \
  X(natsMsgHeader_Get) \
  X(natsMsg_GetDataLength) \
  X(natsMsg_GetData) \
  X(natsMsg_GetSubject) \
  X(natsMsg_GetSequence) \
  X(jsPubOptions_Init) \
  X(js_PublishMsg) \
  X(jsPubAck_Destroy) \
  X(js_GetMsg) \
  X(js_GetLastMsg) \
  X(jsDirectGetMsgOptions_Init) \
  X(js_DirectGetMsg) \
  X(js_KeyValue) \
  X(kvConfig_Init) \
  X(js_CreateKeyValue) \
  X(kvStore_Destroy) \
  X(kvStore_Put) \
  X(nats_GetLastError) \
  X(nats_CloseAndWait) \
  X(natsStatus_GetText)

#define REWIND_NATS_MEMBER(name) __typeof__(name) *_Nonnull name;
/// The functions of the loaded library, each under its own name, with its own type.
typedef struct RewindNatsLibrary {
  REWIND_NATS_FUNCTIONS(REWIND_NATS_MEMBER)
} RewindNatsLibrary;
#undef REWIND_NATS_MEMBER

/// The name the library is loaded by: on Linux its soname, as `ldd` shows it, of the
/// release whose headers the tool was built with (`libnats.so.MAJOR.MINOR`).
const char *_Nonnull rewind_nats_soname(void);

/// The package that installs that release: on Debian and Ubuntu `libnatsMAJOR.MINOR`.
const char *_Nonnull rewind_nats_package(void);

/// Whether this process can load the library: 1 when it is dynamically linked (the C
/// library's own loader is there to load libnats and the libraries it needs), 0 in a
/// statically linked executable (the release `rewind` on Linux), whose `dlopen` would
/// bring a second C library into the process, which crashes as libnats starts.
int rewind_nats_loadable(void);

/// The library, loaded (and its functions resolved) on the first call, by
/// `rewind_nats_soname()` (on Linux, failing that, by `libnats.so`, the development
/// package's link, if it is the same release); NULL if that failed, with `*problem` saying
/// why the first name failed (the loader's message, a function missing, or another
/// release). Every call returns the same. Thread-safe.
const RewindNatsLibrary *_Nullable rewind_nats_library(const char *_Nullable *_Nonnull problem);

/// Tears libnats down before the process exits (`nats_CloseAndWait`), if a connection
/// loaded it: waits, at most `timeout` milliseconds, for the threads it still runs after
/// every connection was destroyed (its timers', its callbacks', a subscription's delivery
/// thread, which may free the connection's TLS context last) to end. Without it they run
/// on while `exit` runs OpenSSL's cleanup, and one that frees into it crashes the process
/// (signal 11 in libcrypto) after a command succeeded. Every connection must be destroyed
/// first. Returns libnats' status (0 when closed, or when never loaded). Call once.
int rewind_nats_close(int64_t timeout);

/// Loads the library named `soname` into `library`: 0 when every function is found, else
/// -1 with the reason in `problem` (cut to `capacity` bytes). For the tests of a library
/// that is missing or is not libnats; `rewind_nats_library` is the way to use it.
int rewind_nats_load(
  const char *_Nonnull soname, RewindNatsLibrary *_Nonnull library, char *_Nonnull problem,
  size_t capacity);

#endif
