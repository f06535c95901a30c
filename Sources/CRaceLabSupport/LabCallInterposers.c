#define _GNU_SOURCE
#include "CRaceLabSupport.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#include "DeferredReleases.h"
#include "Invisible.h"
#include "Preemption.h"
#include "QueueKinds.h"
#include "StoryHolds.h"
#include "ThreadTable.h"

// Layer 5 (the interposers and the story): calls only lower layers (CLayersTests).

// The calls lab code makes that the harness needs to see first, in front of TSan's interceptors
// (whose weak definitions these replace; each passes the call on to TSan's). Two uses:
// - holds (Preemption.c): a self-hold counts synchronisation points, and a hold at the hand-over
//   follows the work into the blocks and threads it starts;
// - quiet (Quiescence.c): every block sent to a queue is counted until it has run to its end,
//   and every thread started is known until it ends, so a scenario can ask whether the lab
//   still has work in hand instead of guessing from a clock.
// Only where TSan's interceptors exist: without TSan there are no holds, and labs do not run.
#if RL_LINUX_FACILITIES && defined(__has_feature)
#if __has_feature(thread_sanitizer)
extern int __interceptor_pthread_mutex_lock(pthread_mutex_t *mutex);
extern int __interceptor_pthread_create(pthread_t *thread, const pthread_attr_t *attributes,
                                        void *(*start)(void *), void *argument);
// Blocks, queues, groups and times as opaque values: this file needs no blocks support to pass
// them on.
extern void __interceptor_dispatch_async_f(void *queue, void *context, void (*work)(void *));
extern void __interceptor_dispatch_barrier_async_f(void *queue, void *context, void (*work)(void *));
extern void __interceptor_dispatch_after_f(uint64_t when, void *queue, void *context, void (*work)(void *));
extern void __interceptor_dispatch_group_async_f(void *group, void *queue, void *context, void (*work)(void *));
extern void __interceptor_dispatch_group_notify_f(void *group, void *queue, void *context, void (*work)(void *));
extern void __interceptor_dispatch_async(void *queue, void *block);
extern void __interceptor_dispatch_barrier_async(void *queue, void *block);
extern void __interceptor_dispatch_after(uint64_t when, void *queue, void *block);
extern void __interceptor_dispatch_group_async(void *group, void *queue, void *block);
extern void __interceptor_dispatch_group_notify(void *group, void *queue, void *block);
extern void dispatch_group_enter(void *group);
extern void dispatch_group_leave(void *group);
extern void dispatch_retain(void *object);
extern void dispatch_release(void *object);

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
// still links (then blocks are passed on untracked, and a hold at the hand-over does not follow
// them).
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

/// One piece of work sent to a queue, as the harness passes it on: the block (copied) or the
/// function and its context, and whether it takes a hold at the hand-over along.
struct rl_tracked_work {
    void *block;
    void *context;
    void (*work)(void *);
    int takes_hold;
    /// Sent to the main queue, to a queue whose blocks wait for the pool, or after a delay:
    /// counted as waiting until it begins.
    int counted;
    int64_t story;
    /// Group work: the group is left only after the block is let go of, so that is never deferred.
    int releases_at_once;
    /// A barrier on a queue whose blocks wait for the pool: its end is told (QueueKinds.c).
    void *barrier_of;
    /// A group the work entered and leaves when it ends (a group's barrier block).
    void *group_to_leave;
};

RL_INVISIBLE static void run_tracked(void *raw) {
    struct rl_tracked_work tracked = *(struct rl_tracked_work *)raw;
    free(raw);
    rl_quiet_work_began(tracked.counted, tracked.story);
    rl_story_late_start_here();  // when a story asks: begin after its next moves (a busy pool)
    if (tracked.takes_hold) rl_hold_take_over();
    if (tracked.block) {
        ((struct rl_block_layout *)tracked.block)->invoke(tracked.block);
        if (tracked.releases_at_once || !rl_defer_release(tracked.block)) _Block_release(tracked.block);
    } else {
        tracked.work(tracked.context);
    }
    if (tracked.barrier_of != NULL) rl_queue_barrier_ended(tracked.barrier_of);
    if (tracked.group_to_leave != NULL) {  // a group's barrier block (below), let go of already
        dispatch_group_leave(tracked.group_to_leave);
        dispatch_release(tracked.group_to_leave);
    }
    rl_quiet_work_ended();
}

/// The work, counted as queued (`counted`: as waiting too); NULL when it cannot be tracked (then
/// it goes on as it came).
RL_INVISIBLE static struct rl_tracked_work *track(void *block, void *context, void (*work)(void *), int takes_hold, int counted) {
    if (block != NULL && (_Block_copy == NULL || _Block_release == NULL)) return NULL;
    struct rl_tracked_work *tracked = malloc(sizeof *tracked);
    if (tracked == NULL) return NULL;
    tracked->block = block ? _Block_copy(block) : NULL;
    tracked->context = context;
    tracked->work = work;
    tracked->takes_hold = takes_hold;
    tracked->counted = counted;
    tracked->story = rl_quiet_work_queued(counted);
    tracked->releases_at_once = 0;
    tracked->barrier_of = NULL;
    tracked->group_to_leave = NULL;
    return tracked;
}


// A hold at the hand-over: the thread is held as it hands its result to the main queue, after
// whatever it checked, before the result is on its way. Work it sends to another queue first (a
// courier block) takes the hold along. 1 when the work sent now takes the hold along.
RL_INVISIBLE static int is_main(void *queue) { return &_dispatch_main_q != NULL && queue == (void *)&_dispatch_main_q; }

/// Work the lab is not quiet without: sent to the main queue, or to one whose blocks wait for
/// Dispatch's pool (QueueKinds.c), until it begins. (A barrier waits for its queue's blocks, and
/// a group's notification for its group: neither waits for the pool, and neither is counted.)
RL_INVISIBLE static int awaited(void *queue) { return is_main(queue) || rl_queue_waits_for_pool(queue); }

RL_INVISIBLE static int hand_over(void *queue) {
    if (!rl_hold_waits_for_hand_over()) return 0;
    if (queue == (void *)&_dispatch_main_q || &_dispatch_main_q == NULL || _Block_copy == NULL) {
        rl_hold_at_hand_over();
        return 0;
    }
    return 1;
}

// A block made by dispatch_block_create (Swift's `DispatchWorkItem(flags:)`, and
// `async(group:flags:)`) keeps its flags in libdispatch's own data right after the block's
// header, marked by a magic number. Passed on as a plain function (as TSan's interceptors pass
// every block) it would lose them: a barrier work item would run beside the queue's other
// blocks, and a correct reader-writer fix would race. So a barrier block is sent as a barrier.
// Anything that does not look exactly like libdispatch's block (its invoke function inside
// libdispatch, the magic number) is taken as a plain block.
#define RL_DISPATCH_BLOCK_MAGIC 0xD159B10CUL
RL_INVISIBLE void dispatch_barrier_async(void *queue, void *block);
#define RL_DISPATCH_BLOCK_BARRIER 0x1UL

RL_INVISIBLE static int is_barrier_block(void *block) {
    if (block == NULL) return 0;
    Dl_info info;
    void *invoke = (void *)((struct rl_block_layout *)block)->invoke;
    if (dladdr(invoke, &info) == 0 || info.dli_fname == NULL || strstr(info.dli_fname, "libdispatch") == NULL) return 0;
    // isa, flags, reserved, invoke, descriptor: then the private data (magic, flags...).
    const unsigned long *data = (const unsigned long *)((const char *)block + 2 * sizeof(void *) + 2 * sizeof(int) + sizeof(void *));
    return data[0] == RL_DISPATCH_BLOCK_MAGIC && (data[1] & RL_DISPATCH_BLOCK_BARRIER) != 0;
}

RL_INVISIBLE void dispatch_async(void *queue, void *block) {
    if (is_barrier_block(block)) {
        dispatch_barrier_async(queue, block);
        return;
    }
    struct rl_tracked_work *tracked = track(block, NULL, NULL, hand_over(queue), awaited(queue));
    if (tracked == NULL) {
        __interceptor_dispatch_async(queue, block);
        return;
    }
    __interceptor_dispatch_async_f(queue, tracked, run_tracked);
}

RL_INVISIBLE void dispatch_async_f(void *queue, void *context, void (*work)(void *)) {
    struct rl_tracked_work *tracked = track(NULL, context, work, hand_over(queue), awaited(queue));
    if (tracked == NULL) {
        __interceptor_dispatch_async_f(queue, context, work);
        return;
    }
    __interceptor_dispatch_async_f(queue, tracked, run_tracked);
}

RL_INVISIBLE void dispatch_barrier_async(void *queue, void *block) {
    struct rl_tracked_work *tracked = track(block, NULL, NULL, 0, is_main(queue));
    if (tracked == NULL) {
        __interceptor_dispatch_barrier_async(queue, block);
        return;
    }
    if (rl_queue_barrier_sent(queue)) tracked->barrier_of = queue;
    __interceptor_dispatch_barrier_async_f(queue, tracked, run_tracked);
}

RL_INVISIBLE void dispatch_barrier_async_f(void *queue, void *context, void (*work)(void *)) {
    struct rl_tracked_work *tracked = track(NULL, context, work, 0, is_main(queue));
    if (tracked == NULL) {
        __interceptor_dispatch_barrier_async_f(queue, context, work);
        return;
    }
    if (rl_queue_barrier_sent(queue)) tracked->barrier_of = queue;
    __interceptor_dispatch_barrier_async_f(queue, tracked, run_tracked);
}

RL_INVISIBLE void dispatch_after(uint64_t when, void *queue, void *block) {
    struct rl_tracked_work *tracked = track(block, NULL, NULL, 0, 1);
    if (tracked == NULL) {
        __interceptor_dispatch_after(when, queue, block);
        return;
    }
    __interceptor_dispatch_after_f(when, queue, tracked, run_tracked);
}

RL_INVISIBLE void dispatch_after_f(uint64_t when, void *queue, void *context, void (*work)(void *)) {
    struct rl_tracked_work *tracked = track(NULL, context, work, 0, 1);
    if (tracked == NULL) {
        __interceptor_dispatch_after_f(when, queue, context, work);
        return;
    }
    __interceptor_dispatch_after_f(when, queue, tracked, run_tracked);
}

RL_INVISIBLE void dispatch_group_async(void *group, void *queue, void *block) {
    int barrier = is_barrier_block(block);
    struct rl_tracked_work *tracked = track(block, NULL, NULL, 0, barrier ? is_main(queue) : awaited(queue));
    if (tracked == NULL) {
        __interceptor_dispatch_group_async(group, queue, block);
        return;
    }
    tracked->releases_at_once = 1;
    if (barrier) {  // no group barrier call: the group is entered here and left at the end
        dispatch_retain(group);
        dispatch_group_enter(group);
        tracked->group_to_leave = group;
        if (rl_queue_barrier_sent(queue)) tracked->barrier_of = queue;
        __interceptor_dispatch_barrier_async_f(queue, tracked, run_tracked);
        return;
    }
    __interceptor_dispatch_group_async_f(group, queue, tracked, run_tracked);
}

RL_INVISIBLE void dispatch_group_async_f(void *group, void *queue, void *context, void (*work)(void *)) {
    struct rl_tracked_work *tracked = track(NULL, context, work, 0, awaited(queue));
    if (tracked == NULL) {
        __interceptor_dispatch_group_async_f(group, queue, context, work);
        return;
    }
    __interceptor_dispatch_group_async_f(group, queue, tracked, run_tracked);
}

RL_INVISIBLE void dispatch_group_notify(void *group, void *queue, void *block) {
    struct rl_tracked_work *tracked = track(block, NULL, NULL, 0, 0);  // queued only once the group is done
    if (tracked == NULL) {
        __interceptor_dispatch_group_notify(group, queue, block);
        return;
    }
    __interceptor_dispatch_group_notify_f(group, queue, tracked, run_tracked);
}

RL_INVISIBLE void dispatch_group_notify_f(void *group, void *queue, void *context, void (*work)(void *)) {
    struct rl_tracked_work *tracked = track(NULL, context, work, 0, 0);
    if (tracked == NULL) {
        __interceptor_dispatch_group_notify_f(group, queue, context, work);
        return;
    }
    __interceptor_dispatch_group_notify_f(group, queue, tracked, run_tracked);
}

// Every thread is started through here: known to Quiescence.c from its first instruction to its
// end, and taking over a hold at the hand-over its creator had coming.
struct rl_started_thread {
    void *(*start)(void *);
    void *argument;
    int takes_hold;
    int is_pool;
};

RL_INVISIBLE static void *start_tracked(void *raw) {
    struct rl_started_thread started = *(struct rl_started_thread *)raw;
    free(raw);
    rl_quiet_thread_began(started.is_pool);
    if (started.takes_hold) rl_hold_take_over();
    void *result = started.start(started.argument);
    rl_story_end_hold_here();  // before what the thread's closure captured is let go of
    return result;
}

/// Whether `start` is libdispatch's own (a pool or manager thread: busy only while it runs a
/// block, which the block count already says). A program starts its threads from a handful of
/// routines: each is looked up once (dladdr, at every thread start, cost a stress child 4% of
/// its CPU).
enum { RL_KNOWN_STARTS = 16 };
static void *pool_starts[RL_KNOWN_STARTS], *other_starts[RL_KNOWN_STARTS];  // one list each: a start is in one

RL_INVISIBLE static int is_known(void **starts, void *start) {
    for (int i = 0; i < RL_KNOWN_STARTS; i++) {
        void *known = LOAD(&starts[i]);
        if (known == NULL) return 0;
        if (known == start) return 1;
    }
    return 0;
}

RL_INVISIBLE static void remember(void **starts, void *start) {
    for (int i = 0; i < RL_KNOWN_STARTS; i++) {
        void *expected = NULL;
        if (__atomic_compare_exchange_n(&starts[i], &expected, start, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
        if (expected == start) return;
    }
}

RL_INVISIBLE static int is_dispatch_thread(void *(*start)(void *)) {
    if (is_known(pool_starts, (void *)start)) return 1;
    if (is_known(other_starts, (void *)start)) return 0;
    Dl_info info;
    int pool = dladdr((void *)start, &info) != 0 && info.dli_fname != NULL && strstr(info.dli_fname, "libdispatch") != NULL;
    remember(pool ? pool_starts : other_starts, (void *)start);
    return pool;
}

RL_INVISIBLE int pthread_create(pthread_t *thread, const pthread_attr_t *attributes,
                                void *(*start)(void *), void *argument) {
    struct rl_started_thread *started = malloc(sizeof *started);
    if (started == NULL) return __interceptor_pthread_create(thread, attributes, start, argument);
    started->start = start;
    started->argument = argument;
    started->takes_hold = rl_hold_waits_for_hand_over();
    started->is_pool = is_dispatch_thread(start);
    if (!rl_quiet_thread_starting()) {
        free(started);
        if (!rl_thread_limit_ends_process()) return EAGAIN;
        // A lab child ends now, saying why, rather than letting a refused start turn into a hang
        // the watchdog ends much later. Not abort(): TSan would take the signal for a report.
        char why[200];
        int length = snprintf(why, sizeof why,
                              "Fatal error: more than %d threads alive at once in one run, the limit RaceLab "
                              "sets (no fix needs that many): threads are started and never end\n",
                              rl_thread_limit());
        if (length > 0) (void)!write(2, why, (size_t)length < sizeof why ? (size_t)length : sizeof why - 1);
        _exit(70);
    }
    int result = __interceptor_pthread_create(thread, attributes, start_tracked, started);
    if (result != 0) {
        rl_quiet_thread_not_started();
        free(started);
    }
    return result;
}
#define RL_INTERPOSING 1
#endif
#endif

