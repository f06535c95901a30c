#ifndef CRACELAB_QUIET_H
#define CRACELAB_QUIET_H

#include <stddef.h>
#include <stdint.h>

// Quiet: whether the lab still has work in hand, asked of its threads and queues (Quiescence.c,
// ThreadTable.c). Part of CRaceLabSupport.h.

/// A scenario run begins: work sent before it (a test runner's own, say) is not its work.
void rl_quiet_begin_story(void);

/// Threads alive at once in one lab child, at most: far above any fix's, far below what would
/// take the process ids other students' runs and the grader need.
#define RL_LAB_THREAD_LIMIT 256

/// The limit on threads alive at once in this process (512 unless set), and whether going past
/// it ends the process (a lab child: a clear reason now, not a hang later) or only refuses the
/// creation (EAGAIN: a user's test program). Set once, before any lab code runs.
void rl_thread_limit_set(int limit, int ends_process);
int rl_thread_limit(void);
int rl_thread_limit_ends_process(void);

/// A thread of the harness (heartbeats, preemption, hold watchers) says so: it is left out.
void rl_quiet_ignore_this_thread(void);

/// 1 while some thread of the lab is paused at a scripted checkpoint (it may hold a lab's lock).
int rl_quiet_any_paused(void);

/// 1 when no work waits for the main queue or a delay and every thread started (harness threads aside, a
/// dispatch pool thread only while it runs a block, a thread paused at a scripted checkpoint
/// aside) has ended or waits with no time limit; else 0, and `busy` says why: a busy thread's
/// kernel id, -1 for waiting work, -2 for a thread being created. `flags`: RL_QUIET_THREADS_ONLY,
/// the threads alone (work waiting for the main queue, which a busy main thread does not run, is
/// left out); RL_QUIET_BUT_HELD, a thread held by the harness left out too (what the others do
/// meanwhile has ended).
#define RL_QUIET_THREADS_ONLY 1
#define RL_QUIET_BUT_HELD 2
int rl_quiet_look(int64_t *busy, int flags);

/// Work sent to the main queue, or after a delay, not yet begun.
int64_t rl_quiet_queued_work(void);

#endif
