#ifndef CRACELAB_PRIORITY_ORDER_INTERNAL_H
#define CRACELAB_PRIORITY_ORDER_INTERNAL_H

#include <stdint.h>

#include "CRaceLabSupport.h"

// Layer 0 (PriorityOrder.c), for Preemption.c: the priority order's bookkeeping. What Swift
// sees (begin, choose, first, rounds, changes) is in CRaceLabHolds.h.

/// The slots of Preemption.c's ring of lab threads, which the order keeps a priority for.
enum { RL_PRIORITY_ORDER_SLOTS = 32 };

/// The signal handler: one more (+1) or one fewer (-1) thread waiting for its turn.
void rl_priority_order_waiting(int delta);

#endif
