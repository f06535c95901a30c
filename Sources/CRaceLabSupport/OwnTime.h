#ifndef CRACELAB_OWN_TIME_INTERNAL_H
#define CRACELAB_OWN_TIME_INTERNAL_H

#include <stdint.h>

// A time limit on one thread's own time, for the C layer's holds (OwnTime.c): the limit is
// reached once the thread has had `limit` of time in which it ran or waited for something
// other than a CPU. Time it spends on a run queue (a busy machine) moves the end on: the waits
// the kernel has counted, and one under way (counted once the thread is seen asleep or running
// after the moment judged). Never early, however the two threads are scheduled.
// Where the kernel does not say, plain time. Raw system calls only: usable in a signal handler.
typedef struct {
    int64_t thread;
    int64_t until_ns;
    int64_t waited_at_start;  // -1: the kernel does not say
    int64_t moved_on_by;
} rl_own_deadline;

void rl_own_deadline_start(rl_own_deadline *deadline, int64_t thread, int64_t limit_ns);
/// 1 once the thread has had its time. May look at the thread for 100 us first.
int rl_own_deadline_passed(rl_own_deadline *deadline);

#endif
