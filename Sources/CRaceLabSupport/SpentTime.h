#ifndef CRACELAB_SPENT_TIME_INTERNAL_H
#define CRACELAB_SPENT_TIME_INTERNAL_H

#include <stdint.h>

#include "CRaceLabSupport.h"

// Layer 1 (SpentTime.c), for the layers above: adding to where a story's time goes. Inside this
// module only: not part of what Swift sees.

/// `ns` more spent on `kind` (once more). Safe in a signal handler.
void rl_spent_add(rl_spent_kind kind, int64_t ns);

/// The clock for what lab threads spend: a raw system call, no call TSan intercepts.
int64_t rl_spent_clock_ns(void);

#endif
