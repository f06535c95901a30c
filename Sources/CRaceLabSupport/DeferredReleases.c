#define _GNU_SOURCE
#include "CRaceLabSupport.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#include "DeferredReleases.h"
#include "Invisible.h"
#include "StoryHolds.h"
#include "ThreadTable.h"

// Layer 3 (checkpoints and the deferred releases): calls only lower layers (CLayersTests).

// The blocks whose release the interposers hold back until the story is over (below).
// Calls the story holds (is the end hold armed?), the thread table and layer 0; called by the
// interposers as a block ends and by the story's end (StoryScope.c).

#if RL_LINUX_FACILITIES && defined(__has_feature)
#if __has_feature(thread_sanitizer)
extern int __interceptor_pthread_create(pthread_t *thread, const pthread_attr_t *attributes,
                                        void *(*start)(void *), void *argument);
extern void _Block_release(const void *block) __attribute__((weak));

// A block's end, held back (as StoryHolds.c holds a thread's end): a block that ran off the main
// thread during a story of the explore or stress pass is not let go of when it returns. What it
// captured is let go of once the story is over and the main thread has let go of the story's
// objects, off the main thread: a completion block that keeps a screen alive makes it die off
// the main thread every time, not only when its thread was slow to let go. The pool thread
// itself goes on at once, so a serial queue's next block or a sync call behind it waits for
// nothing.
//
// The releases are made by a thread of the harness's own, which runs nothing else: TSan is told
// that each block's thread, and the main thread at the story's end, happen before them (the
// order a real last release has), and no lab thread is ordered after another by it. The list
// itself is shared invisibly (relaxed atomics, a tiny spin lock), like the rest of this layer.
extern void __tsan_acquire(void *address);
extern void __tsan_release(void *address);

#define RL_DEFERRED_BLOCKS 1024
static void *deferred_blocks[RL_DEFERRED_BLOCKS];
static int deferred_count;
static int deferred_lock;
static int releaser_generation;  // bumped for each batch handed over (a futex word)
static int releaser_started;

RL_INVISIBLE static void lock_deferred(void) {
    int expected = 0;
    while (!__atomic_compare_exchange_n(&deferred_lock, &expected, 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        expected = 0;
    }
}

RL_INVISIBLE static void unlock_deferred(void) { STORE(&deferred_lock, 0); }

RL_INVISIBLE int rl_defer_release(void *block) {
    if (!rl_story_end_hold_armed() || rl_current_thread_id() == (int64_t)getpid() || !rl_quiet_is_lab_thread(1)) return 0;
    __tsan_release(block);  // what this thread did with it happens before its release
    lock_deferred();
    int deferred = deferred_count < RL_DEFERRED_BLOCKS;
    if (deferred) deferred_blocks[deferred_count++] = block;
    unlock_deferred();
    return deferred;
}

/// A batch handed over: its blocks, and the story it was counted in as waiting work.
struct rl_deferred_batch {
    struct rl_deferred_batch *next;
    int64_t story;
    int count;
    void *blocks[];
};
static struct rl_deferred_batch *handed_over;  // under deferred_lock

RL_INVISIBLE static void *releaser_main(void *unused) {
    (void)unused;
    int seen = 0;
    for (;;) {
        int generation = LOAD(&releaser_generation);
        if (generation == seen) {
            syscall(SYS_futex, &releaser_generation, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
            continue;
        }
        seen = generation;
        __tsan_acquire(&releaser_generation);  // the main thread's story happens before
        lock_deferred();
        struct rl_deferred_batch *batch = handed_over;
        handed_over = NULL;
        unlock_deferred();
        while (batch != NULL) {
            struct rl_deferred_batch *next = batch->next;
            for (int i = 0; i < batch->count; i++) {
                __tsan_acquire(batch->blocks[i]);
                _Block_release(batch->blocks[i]);
            }
            rl_quiet_work_began(1, batch->story);  // no longer waiting: the lab may be quiet
            free(batch);
            batch = next;
        }
    }
    return NULL;
}

RL_INVISIBLE void rl_release_deferred_blocks(void) {
    lock_deferred();
    int count = deferred_count;
    struct rl_deferred_batch *batch = count > 0 ? malloc(sizeof *batch + (size_t)count * sizeof(void *)) : NULL;
    if (batch != NULL) {
        batch->count = count;
        memcpy(batch->blocks, deferred_blocks, (size_t)count * sizeof(void *));
        deferred_count = 0;
        // Counted as waiting, as work for the main queue is, until the releaser is done with it:
        // the lab is not quiet before these releases have run.
        batch->story = rl_quiet_work_queued(1);
        batch->next = handed_over;
        handed_over = batch;
    }
    unlock_deferred();
    if (batch == NULL) return;
    if (!LOAD(&releaser_started)) {
        STORE(&releaser_started, 1);
        pthread_t thread;
        pthread_attr_t attributes;
        pthread_attr_init(&attributes);
        pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        // TSan's own: not through pthread_create above, so no lab thread as far as quiet goes.
        __interceptor_pthread_create(&thread, &attributes, releaser_main, NULL);
        pthread_attr_destroy(&attributes);
    }
    __tsan_release(&releaser_generation);
    ADD(&releaser_generation, 1);
    syscall(SYS_futex, &releaser_generation, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#define RL_DEFERRING 1
#endif
#endif

#ifndef RL_DEFERRING
// No interposers: no block is deferred.
RL_INVISIBLE int rl_defer_release(void *block) {
    (void)block;
    return 0;
}
RL_INVISIBLE void rl_release_deferred_blocks(void) {}
#endif
