#include "CRaceLabSupport.h"

#include <pthread.h>

#include "Invisible.h"

// A self-hold (Preemption.c) counts a thread's synchronisation points exactly by signalling its
// own thread each time one passes. On entering a blocking call TSan handles pending signals in a
// loop until none is left, so the next signal must be sent after the call, not from inside the
// handler. pthread_mutex_lock (NSLock, NSCondition, most of Foundation) is the blocking call lab
// code makes most: this definition stands in front of TSan's (a weak one) and sends it there.
// Only where TSan's interceptor exists: without TSan there are no holds.
#if defined(__linux__) && defined(__has_feature)
#if __has_feature(thread_sanitizer)
extern int __interceptor_pthread_mutex_lock(pthread_mutex_t *mutex);

RL_INVISIBLE int pthread_mutex_lock(pthread_mutex_t *mutex) {
    int result = __interceptor_pthread_mutex_lock(mutex);
    rl_hold_after_blocking_call();
    return result;
}
#endif
#endif
