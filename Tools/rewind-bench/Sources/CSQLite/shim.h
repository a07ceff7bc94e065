// The SQLite baseline's door to the system SQLite (libsqlite3-dev).
#ifndef REWIND_BENCH_CSQLITE_SHIM_H
#define REWIND_BENCH_CSQLITE_SHIM_H

#include <sqlite3.h>

#endif
