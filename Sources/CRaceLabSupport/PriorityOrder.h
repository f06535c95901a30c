#ifndef CRACELAB_PRIORITY_ORDER_INTERNAL_H
#define CRACELAB_PRIORITY_ORDER_INTERNAL_H

#include <stdint.h>

#include "CRaceLabSupport.h"

// Layer 0 (PriorityOrder.c), for Preemption.c: the priority order's bookkeeping. What Swift
// sees (begin, rounds, changes) is in CRaceLabHolds.h.

/// The slots of Preemption.c's ring of lab threads, which the order keeps a priority for.
enum { RL_PRIORITY_ORDER_SLOTS = 32 };

/// The thread that goes first now (0: none, or the order is off).
int64_t rl_priority_order_first(void);
/// The signal handler: one more (+1) or one fewer (-1) thread waiting for its turn.
void rl_priority_order_waiting(int delta);
/// The sender, at each look: of the threads that ran since the last look (`tids`, in ring slots
/// `slots`), the one to go first, after any change point or hog demotion this look brings.
/// 0 when the order is off or none ran.
int64_t rl_priority_order_choose(const int *slots, const int64_t *tids, int count, int64_t now_ns);

#endif
