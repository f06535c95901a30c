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

// The main queue, and the blocks runtime (libdispatch's): weak, so that a toolchain without them
// still links (then a hold at the hand-over does not follow blocks).
extern char _dispatch_main_q __attribute__((weak));
extern void *_Block_copy(const void *block) __attribute__((weak));
extern void _Block_release(const void *block) __attribute__((weak));

// A block as the blocks ABI lays it out: what calling it needs.
struct rl_block_layout {
    void *isa;
    int flags;
    int reserved;
    void (*invoke)(void *block);
};

struct rl_followed_work {
    void *block;  // copied; or NULL, and then:
    void *context;
    void (*work)(void *);
};

RL_INVISIBLE static void run_with_the_hold(void *raw) {
    struct rl_followed_work followed = *(struct rl_followed_work *)raw;
    free(raw);
    rl_hold_take_over();
    if (followed.block) {
        ((struct rl_block_layout *)followed.block)->invoke(followed.block);
        _Block_release(followed.block);
    } else {
        followed.work(followed.context);
    }
}

// A hold at the hand-over: the thread is held as it hands its result to the main queue, after
// whatever it checked, before the result is on its way. Work it sends to another queue first (a
// courier block) takes the hold along.
RL_INVISIBLE static struct rl_followed_work *hand_over(void *queue) {
    if (!rl_hold_waits_for_hand_over()) return NULL;
    if (queue == (void *)&_dispatch_main_q || &_dispatch_main_q == NULL || _Block_copy == NULL) {
        rl_hold_at_hand_over();
        return NULL;
    }
    return malloc(sizeof(struct rl_followed_work));
}

RL_INVISIBLE void dispatch_async(void *queue, void *block) {
    struct rl_followed_work *followed = hand_over(queue);
    if (followed == NULL) {
        __interceptor_dispatch_async(queue, block);
        return;
    }
    followed->block = _Block_copy(block);
    __interceptor_dispatch_async_f(queue, followed, run_with_the_hold);
}

RL_INVISIBLE void dispatch_async_f(void *queue, void *context, void (*work)(void *)) {
    struct rl_followed_work *followed = hand_over(queue);
    if (followed == NULL) {
        __interceptor_dispatch_async_f(queue, context, work);
        return;
    }
    followed->block = NULL;
    followed->context = context;
    followed->work = work;
    __interceptor_dispatch_async_f(queue, followed, run_with_the_hold);
}

// The work may also go on in a thread it starts (a courier that checks, then hands the result
// to main): a hold at the hand-over not reached yet passes to that thread.
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
    struct rl_inherited_start *inherited = rl_hold_waits_for_hand_over() ? malloc(sizeof *inherited) : NULL;
    if (inherited == NULL) return __interceptor_pthread_create(thread, attributes, start, argument);
    inherited->start = start;
    inherited->argument = argument;
    int result = __interceptor_pthread_create(thread, attributes, start_with_the_hold, inherited);
    if (result != 0) free(inherited);
    return result;
}
#endif
#endif
