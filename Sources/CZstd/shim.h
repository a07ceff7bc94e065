// The one door to libzstd. Only RewindJournal imports this module.
#ifndef REWIND_CZSTD_SHIM_H
#define REWIND_CZSTD_SHIM_H

#include <zstd.h>
#include <zstd_errors.h>

#endif
