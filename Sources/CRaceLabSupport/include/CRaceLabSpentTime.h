#ifndef CRACELAB_SPENT_TIME_H
#define CRACELAB_SPENT_TIME_H

#include <stddef.h>
#include <stdint.h>

// Where a story's time goes (SpentTime.c). Part of CRaceLabSupport.h.

// Where a story's time goes (SpentTime.c, for `racelab run --profile`): each of the harness's
// looks, waits, holds and sleeps adds its length here as it ends (a relaxed add), always.

typedef enum {
    RL_SPENT_QUIET_LOOKS,        // the main thread, in rl_quiet_look
    RL_SPENT_STORY_WAITS,        // the main thread, in a story's outermost wait, its quiet looks left out
    RL_SPENT_STORY_HOLDS,        // lab threads, in StoryHolds.c's holds (end, strong reference, late start)
    RL_SPENT_THREAD_HOLDS,       // lab threads, held by a ThreadHold (Preemption.c)
    RL_SPENT_CHECKPOINT_PAUSES,  // lab threads, paused at an armed checkpoint
    RL_SPENT_CHECKPOINT_SLEEPS,  // lab threads, asleep at a checkpoint (the stress pass's delays)
    RL_SPENT_PREEMPTION_SLEEPS,  // lab threads, asleep in the preemption's signal handler
    RL_SPENT_KINDS
} rl_spent_kind;

/// Nanoseconds spent on `kind` since the process began, and how many times.
int64_t rl_spent_ns(rl_spent_kind kind);
int64_t rl_spent_times(rl_spent_kind kind);

/// A story's wait on the main thread: the mark its start returns is handed to its end, which adds
/// its length less the quiet looks inside it (counted as such). Off the main thread: nothing.
int64_t rl_spent_wait_began(void);
void rl_spent_wait_ended(int64_t mark);

#endif
