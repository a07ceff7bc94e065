// The JSON Lines baseline's door to libzstd: streaming compression of a .jsonl.zst file,
// as an app writing JSON Lines would use it. (Rewind's own door, CZstd, is internal to
// RewindJournal.)
#ifndef REWIND_BENCH_CZSTDSTREAM_SHIM_H
#define REWIND_BENCH_CZSTDSTREAM_SHIM_H

#include <zstd.h>

#endif
