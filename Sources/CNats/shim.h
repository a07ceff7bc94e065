// The one door to libnats, the NATS C client. Only RewindStream imports this module.
#ifndef REWIND_CNATS_SHIM_H
#define REWIND_CNATS_SHIM_H

#include <nats/nats.h>

#endif
