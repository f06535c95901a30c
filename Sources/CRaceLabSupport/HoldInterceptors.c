#include "CRaceLabSupport.h"

#include <pthread.h>
#include <stdlib.h>

#include "Invisible.h"

// What a self-hold (Preemption.c) needs from two calls lab code makes, in front of TSan's
// interceptors (weak definitions: these stand in front of them). Only where TSan's interceptors
// exist: without TSan there are no holds.
#if defined(__linux__) && defined(__has_feature)
#if __has_feature(thread_sanitizer)
extern int __interceptor_pthread_mutex_lock(pthread_mutex_t *mutex);
extern int __interceptor_pthread_create(pthread_t *thread, const pthread_attr_t *attributes,
                                        void *(*start)(void *), void *argument);
// Blocks and queues as opaque pointers: this file needs no blocks support to pass them on.
extern void __interceptor_dispatch_async(void *queue, void *block);
extern void __interceptor_dispatch_async_f(void *queue, void *context, void (*work)(void *));

// A self-hold counts a thread's synchronisation points by signalling its own thread each time
// one passes. On entering a blocking call TSan handles pending signals in a loop until none is
// left, so the next signal must be sent after the call, not from inside the handler.
// pthread_mutex_lock (NSLock, NSCondition, most of Foundation) is the blocking call lab code
// makes most: the signal is sent here, once the lock is taken.
RL_INVISIBLE int pthread_mutex_lock(pthread_mutex_t *mutex) {
    int result = __interceptor_pthread_mutex_lock(mutex);
    rl_hold_after_blocking_call();
    return result;
}

// A hold at the hand-over: the thread is held as it hands work to a queue (the result to main),
// after whatever it checked, before the hand-over happens.
RL_INVISIBLE void dispatch_async(void *queue, void *block) {
    rl_hold_at_hand_over();
    __interceptor_dispatch_async(queue, block);
}

RL_INVISIBLE void dispatch_async_f(void *queue, void *context, void (*work)(void *)) {
    rl_hold_at_hand_over();
    __interceptor_dispatch_async_f(queue, context, work);
}

// The work may go on in a thread it starts (a courier that checks, then hands the result to
// main): a hold at the hand-over not reached yet passes to that thread.
struct rl_inherited_start {
    void *(*start)(void *);
    void *argument;
};

RL_INVISIBLE static void *start_with_the_hold(void *raw) {
    struct rl_inherited_start inherited = *(struct rl_inherited_start *)raw;
    free(raw);
    rl_hold_take_over();
    return inherited.start(inherited.argument);
}

RL_INVISIBLE int pthread_create(pthread_t *thread, const pthread_attr_t *attributes,
                                void *(*start)(void *), void *argument) {
    struct rl_inherited_start *inherited = rl_hold_passes_to_new_thread() ? malloc(sizeof *inherited) : NULL;
    if (inherited == NULL) return __interceptor_pthread_create(thread, attributes, start, argument);
    inherited->start = start;
    inherited->argument = argument;
    int result = __interceptor_pthread_create(thread, attributes, start_with_the_hold, inherited);
    if (result != 0) free(inherited);
    return result;
}
#endif
#endif
