#ifndef CRACELAB_THREAD_FACTS_H
#define CRACELAB_THREAD_FACTS_H

#include <stdint.h>

// Layer 0 (ThreadFacts.c), for the layers above inside this module; what Swift sees is in
// CRaceLabSupport.h.

/// 1 when thread `tid` has something to do (runs, can run, sleeps with a time limit, works in
/// the kernel); 0 when it has ended or waits with no time limit for another thread of the lab.
/// `pool`: a dispatch pool thread not running a block, for which any wait counts. The call it
/// waits in (number and arguments; zeros: none) is left in `call`.
int rl_thread_is_busy(int64_t tid, int pool, unsigned long long call[7]);
/// The CPU time thread `tid` of this process has used, in nanoseconds; -1 if it is gone.
int64_t rl_thread_cpu_ns(int64_t tid);

#endif
