#include "CRaceLabSupport.h"

#include "Invisible.h"
#include "Quiescence.h"
#include "ThreadFacts.h"
#include "ThreadTable.h"

// Layer 4 (quiet): calls only lower layers (CLayersTests).

// Whether a lab has gone quiet: no work waits to be delivered to the main
// thread, after a delay, or for Dispatch's pool (a block sent to a global or concurrent queue,
// QueueKinds.c), and every thread started (a pool thread only while it runs a block) has ended
// or waits, with no time limit, for something only the lab can give it (a job, a lock, a
// signal). The threads are asked through the kernel (ThreadFacts.c), never a clock: a thread
// that has work but no CPU on a busy machine is runnable, so quiet can come late on a loaded
// machine, never early. A question over the thread table (ThreadTable.c): it changes nothing.
//
// Other work waiting in a queue is not counted: a serial queue's block gets a thread at once
// (runnable, so busy; or starting, counted as such); if it stays waiting with every thread idle,
// it waits behind work that is itself stuck (a serial queue whose block waits for a lock), or on
// a suspended queue, which only the story can change.
//
// The table is written by LabCallInterposers.c as work is sent and threads start. Threads of the
// harness itself (heartbeats, the preemption sender) say so and are left out, and so is a thread
// paused at a scripted checkpoint while it waits for the story.

/// No main-queue or delayed work waits to begin, and no thread is being started.
RL_INVISIBLE static int nothing_pending(int64_t *busy, int flags) {
    if (rl_table_threads_starting() > 0) {
        *busy = -2;
        return 0;
    }
    if (!(flags & RL_QUIET_THREADS_ONLY) && rl_quiet_queued_work() > 0) {
        *busy = -1;
        return 0;
    }
    return 1;
}

/// One pass over the lab's threads: 1 if each has ended or waits for the lab. The first pass
/// notes each thread and the call it waits in (number and arguments; zero: ended); the second
/// requires the same thread in the same call. (A signal that wakes a waiting thread for a
/// moment, a preemption's, leaves it in the same call: still waiting.)
RL_INVISIBLE static int threads_wait(
    int64_t *busy, int flags, int64_t *seen, unsigned long long (*calls)[7], int second) {
    for (int index = 0; index < RL_TABLE_SLOTS; index++) {
        int64_t tid = rl_table_thread(index);
        if (tid == 0 || rl_table_paused(index) || rl_table_story_held(index)) tid = 0;
        int held = tid != 0 && rl_table_held(index);
        if (held && (flags & RL_QUIET_BUT_HELD)) tid = 0;
        if (!second) seen[index] = tid;
        if (tid == 0) {
            if (second && seen[index] != 0) {  // ended, or held or paused since: it ran
                *busy = seen[index];
                return 0;
            }
            continue;
        }
        int pool = rl_table_pool(index) && rl_table_running(index) == 0;
        unsigned long long call[7];
        int moved = 0;
        if (held || rl_thread_is_busy(tid, pool, call)) moved = 1;
        else if (!second) for (int i = 0; i < 7; i++) calls[index][i] = call[i];
        else if (seen[index] != tid) moved = 1;
        else for (int i = 0; i < 7; i++) moved |= calls[index][i] != call[i];
        if (moved) {
            *busy = tid;
            return 0;
        }
    }
    return 1;
}

RL_INVISIBLE int rl_lab_quiet(int64_t *busy, int flags) {
    if (!nothing_pending(busy, flags)) return 0;
#if !RL_LINUX_FACILITIES
    // Without /proc, quiet is a clock's guess: no checkpoint hit for 300 ms (a thread that works
    // between checkpoints for longer looks quiet). Said to the user (PlatformChecks).
    if (rl_monotonic_ns() - rl_checkpoint_last_activity_ns() < 300000000) {
        *busy = -4;
        return 0;
    }
#endif
    // Threads are read one after another, so one pass is no snapshot: a thread seen waiting may
    // be woken by one read later, which then ends or waits. A second pass must find every
    // thread still waiting in the very call the first saw: one that was woken meanwhile has
    // ended, runs, or waits somewhere else by then.
    int64_t seen[RL_TABLE_SLOTS];
    unsigned long long calls[RL_TABLE_SLOTS][7];
    if (!threads_wait(busy, flags, seen, calls, 0) || !threads_wait(busy, flags, seen, calls, 1)) return 0;
    if (!nothing_pending(busy, flags)) return 0;
    *busy = 0;
    return 1;
}
