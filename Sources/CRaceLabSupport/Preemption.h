#ifndef CRACELAB_PREEMPTION_INTERNAL_H
#define CRACELAB_PREEMPTION_INTERNAL_H

#include <stdint.h>

#include "CRaceLabSupport.h"

// Layer 2 (Preemption.c), for the interposers and checkpoints: the holds' plumbing. Inside this
// module only: not part of what Swift sees.

/// Called at every checkpoint hit: a sender dozing while no lab thread ran wakes up.
void rl_preemption_wake(void);
void rl_hold_at_hand_over(void);
void rl_hold_cancel(void);

/// For LabCallInterposers.c: 1 if this thread has a hold at the hand-over coming; a thread it
/// starts, or a block it sends to a queue other than main, takes it over (rl_hold_take_over,
/// first thing), and rl_hold_at_hand_over holds it as it sends work to the main queue.
int rl_hold_waits_for_hand_over(void);
void rl_hold_take_over(void);

/// After a blocking call returned (BlockingCallHook.c): a self-hold's next signal, left for later
/// because TSan handles pending signals in a loop on entering the call, is sent now.
void rl_hold_after_blocking_call(void);

#endif
