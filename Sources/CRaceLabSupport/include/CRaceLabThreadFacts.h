#ifndef CRACELAB_THREAD_FACTS_H
#define CRACELAB_THREAD_FACTS_H

#include <stddef.h>
#include <stdint.h>

// What the clock and the kernel say about this process's threads (ThreadFacts.c). Part of
// CRaceLabSupport.h.

/// The kernel thread id of the caller.
int64_t rl_current_thread_id(void);

/// Monotonic clock in nanoseconds.
int64_t rl_monotonic_ns(void);

/// Thread `tid` of this process: nanoseconds it ran on a CPU and waited on a run queue for one,
/// since it began (/proc/self/task/TID/schedstat, raw system calls). 0, or -1 where not known.
int rl_thread_times(int64_t tid, int64_t *ran_ns, int64_t *waited_ns);

/// `rl_thread_times` and `rl_thread_turns` from one read of the kernel's statistics.
int rl_thread_schedstat(int64_t tid, int64_t *ran_ns, int64_t *waited_ns, int64_t *turns);

/// How many times thread `tid` of this process has been given a CPU since it began (schedstat's
/// third field): a thread waiting for the lab gets none; one that wakes itself gets one a wake.
/// -1 once it ended, or where not known.
int64_t rl_thread_turns(int64_t tid);

/// Thread `tid`'s state letter from the kernel ('S' asleep, waiting; 'R' running or runnable;
/// 'D'...); 0 if it is gone (or where there is no /proc).
char rl_task_state_letter(int64_t tid);

/// Every thread of this process: its id and the nanoseconds it has waited on a run queue for a
/// CPU, at most `capacity` of them (ThreadFacts.c, raw system calls); how many, or -1 where not known.
int rl_process_cpu_waits(int64_t *tids, int64_t *waits, int capacity);

#endif
