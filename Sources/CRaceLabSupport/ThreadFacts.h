#ifndef CRACELAB_THREAD_FACTS_INTERNAL_H
#define CRACELAB_THREAD_FACTS_INTERNAL_H

#include <stdint.h>

#include "CRaceLabSupport.h"

// Layer 0 (ThreadFacts.c), for the layers above inside this module; what Swift sees is in
// CRaceLabSupport.h.

/// 1 when thread `tid` has something to do (runs, can run, sleeps with a time limit, works in
/// the kernel); 0 when it has ended or waits with no time limit for another thread of the lab.
/// `pool`: a dispatch pool thread not running a block, for which any wait counts. The call it
/// waits in (number and arguments; zeros: none) is left in `call`.
int rl_thread_is_busy(int64_t tid, int pool, unsigned long long call[7]);
/// The CPU time thread `tid` of this process has used, in nanoseconds; -1 if it is gone.
int64_t rl_thread_cpu_ns(int64_t tid);

/// A small /proc/self/task/TID/NAME file of one of this process's threads into `text`
/// (NUL-terminated), with raw system calls (no interceptor); its length, or -1.
long rl_read_task_file(int64_t tid, const char *name, char *text, long size);

/// 1 when thread `tid` of this process waits with no time limit on a futex (a lock, a join, a
/// semaphore, a condition: something only another thread can give it); 0 when it runs, sleeps,
/// waits with a time limit or in a run loop, or is gone.
int rl_thread_waits_untimed(int64_t tid);

/// 1 on the process's main thread.
int rl_on_main_thread(void);

#endif
