#ifndef CRACELAB_THREAD_TABLE_INTERNAL_H
#define CRACELAB_THREAD_TABLE_INTERNAL_H

#include <stdint.h>

#include "CRaceLabSupport.h"

// Layer 1 (ThreadTable.c), read by quiet (Quiescence.c): one slot per lab thread. The calls
// that write it follow.

#define RL_TABLE_SLOTS 1024

/// Threads created and not yet running.
int64_t rl_table_threads_starting(void);
/// Slot `index`: its thread's kernel id (0: free), and the rest of what it says of that thread.
int64_t rl_table_thread(int index);
int rl_table_pool(int index);
int rl_table_paused(int index);
int rl_table_story_held(int index);
int rl_table_running(int index);
int rl_table_held(int index);

// Quiet (Quiescence.c): whether the lab still has work in hand, asked of its threads and queues.

/// For LabCallInterposers.c: work sent to a queue (`counted`: to the main queue, or after a
/// delay), begun and run to its end (on the thread that runs it); a thread being created,
/// its creation failed, and the new thread running (1: a dispatch pool or manager thread).
/// (rl_quiet_work_queued returns the story it was sent in, for rl_quiet_work_began.)
int64_t rl_quiet_work_queued(int counted);
void rl_quiet_work_began(int counted, int64_t sent_in_story);
void rl_quiet_work_ended(void);

/// (rl_quiet_thread_starting: 0 when more threads than the limit would be alive; the creation is
/// then refused, or the run ends saying so: rl_thread_limit_set.)
int rl_quiet_thread_starting(void);
void rl_quiet_thread_not_started(void);
void rl_quiet_thread_began(int is_pool);

/// 1: this thread is paused at a scripted checkpoint, waiting for the story (left out meanwhile,
/// so the story can wait for the rest of the lab to go quiet); 0: it goes on.
void rl_quiet_paused(int paused);

/// This thread is in a hold that waits for the story (StoryHolds.c): left out like a pause, but
/// not let go of when a checkpoint's pause is.
void rl_quiet_story_held(int held);

/// The story let every paused thread go (rl_checkpoint_release): busy again from this moment,
/// before they notice.
void rl_quiet_unpause_all(void);

/// 1: this thread is held by the harness (a preemption, a hold): busy, whatever it waits on.
void rl_quiet_held(int held);

/// 1 on a thread the lab started (not the harness's own; a dispatch pool thread only if `pool`).
int rl_quiet_is_lab_thread(int pool);

#endif
