#ifndef CRACELAB_MAIN_THREAD_H
#define CRACELAB_MAIN_THREAD_H

#include <stddef.h>
#include <stdint.h>

// The main thread's waits and loans (MainQueueWait.c, MainThreadLoan.c). Part of
// CRaceLabSupport.h.

/// On the main thread: wait up to `nanoseconds`, less if work is sent to the main queue meanwhile
/// (MainQueueWait.c); 1 if it was, 0 otherwise. Where that cannot be seen, a plain sleep.
int rl_main_queue_wait(int64_t nanoseconds);

/// A race test's child under Swift Testing (RACELAB_LEND_MAIN_THREAD=1, Linux): runs `work` on the
/// program's main thread, which dispatch_main lends (MainThreadLoan.c), and returns once it has
/// run; -1 at once if no main thread is lent (another process), or after `wait_seconds` if it
/// never parks.
int rl_main_loan_run(void (*work)(void *), void *context, double wait_seconds);

#endif
