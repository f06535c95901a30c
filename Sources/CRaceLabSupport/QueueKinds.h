#ifndef CRACELAB_QUEUE_KINDS_INTERNAL_H
#define CRACELAB_QUEUE_KINDS_INTERNAL_H

#include <stdint.h>

#include "CRaceLabSupport.h"

// Layer 2 (QueueKinds.c), for the interposers: which queues wait for Dispatch's pool. Inside this
// module only: not part of what Swift sees.

/// 1 when blocks sent to `queue` wait for Dispatch's pool (a global or concurrent queue the lab
/// made; QueueKinds.c), 0 otherwise or where the calls that make queues are not interposed.
int rl_queue_waits_for_pool(void *queue);

/// A barrier sent to `queue` (1: the queue is one that waits for the pool, and the barrier's end
/// must be told with rl_queue_barrier_ended), and its end.
int rl_queue_barrier_sent(void *queue);
void rl_queue_barrier_ended(void *queue);

#endif
