#define _GNU_SOURCE
#include "CRaceLabSupport.h"

#include <dlfcn.h>
#include <stdint.h>

#include "Invisible.h"
#include "QueueKinds.h"

// Layer 2 (holds, preemption and queue kinds): calls only lower layers (CLayersTests).

// Which queues wait for Dispatch's pool: the global queues (as `DispatchQueue.global()` gives
// them) and every concurrent queue the lab makes. A block sent to one begins when the pool has
// a thread for it; with as many blocks blocked as the pool is wide (2 in a lab child,
// LabCPUs.c), that is when Dispatch grows the pool, on Linux up to a second later. Such a block
// is work in hand, as much as one sent to the main queue: the lab is not quiet until it has
// begun (LabCallInterposers.c counts it). A serial queue's block never waits for the pool
// (Dispatch gives those a thread at once); if it waits, it waits behind its queue's own block,
// which the lab must finish.
//
// Known from the calls that make them, interposed here: a queue is concurrent when made with
// the concurrent attribute or one derived from it (with a QoS, inactive...), and not when made
// with overcommit (a thread at once), nor once given a width of its own or a serial queue as its
// target. While a queue holds its blocks back itself (suspended, not activated yet, a barrier
// under way), a block sent to it is not counted either: it waits for the lab. A queue made
// again at the same address is what its new attributes say. Tables full (far beyond any lab):
// not counted, as before.
#if RL_LINUX_FACILITIES && defined(__has_feature)
#if __has_feature(thread_sanitizer)

#define RL_QUEUE_SLOTS 512
#define RL_ATTR_SLOTS 64

extern char _dispatch_queue_attr_concurrent __attribute__((weak));

static void *side_by_side[RL_QUEUE_SLOTS];  // queues whose blocks wait for the pool
static int64_t held_back[RL_QUEUE_SLOTS];    // its suspensions, activation to come, barriers under way
static void *concurrent_attrs[RL_ATTR_SLOTS];
static void *inactive_attrs[RL_ATTR_SLOTS];  // made inactive: the queue waits for dispatch_activate

extern void __interceptor_dispatch_resume(void *object);

// libdispatch's own functions, found on first use (a library's constructor may make a queue
// before this program's constructors run).
#define RL_REAL(type, name) \
    static __typeof__((type)0) real = NULL; \
    if (real == NULL) real = (type)dlsym(RTLD_NEXT, name)

/// The slot of `value` in `table`; -1 when it is not there.
RL_INVISIBLE static int slot_of(void **table, int size, void *value) {
    if (value == NULL) return -1;
    for (int i = 0; i < size; i++) {
        if (LOAD(&table[i]) == value) return i;
    }
    return -1;
}

RL_INVISIBLE static int listed(void **table, int size, void *value) { return slot_of(table, size, value) >= 0; }

/// Puts `value` in `table` once (a free slot taken with a compare-and-swap); its slot, or -1
/// when the table is full.
RL_INVISIBLE static int list(void **table, int size, void *value) {
    if (value == NULL) return -1;
    int found = slot_of(table, size, value);
    if (found >= 0) return found;
    for (int i = 0; i < size; i++) {
        void *expected = NULL;
        if (__atomic_compare_exchange_n(&table[i], &expected, value, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return i;
    }
    return -1;
}

RL_INVISIBLE static void unlist(void **table, int size, void *value) {
    for (int i = 0; i < size; i++) {
        void *expected = value;
        __atomic_compare_exchange_n(&table[i], &expected, NULL, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
}

RL_INVISIBLE static int is_concurrent_attr(void *attr) {
    return attr != NULL && ((&_dispatch_queue_attr_concurrent != NULL && attr == (void *)&_dispatch_queue_attr_concurrent)
                            || listed(concurrent_attrs, RL_ATTR_SLOTS, attr));
}

/// A derived attribute is concurrent (or inactive) when the one it came from was.
RL_INVISIBLE static void *derived(void *from, void *attr) {
    if (is_concurrent_attr(from)) list(concurrent_attrs, RL_ATTR_SLOTS, attr);
    if (listed(inactive_attrs, RL_ATTR_SLOTS, from)) list(inactive_attrs, RL_ATTR_SLOTS, attr);
    return attr;
}

/// A queue just made: its blocks wait for the pool if it is concurrent and runs on the pool
/// itself (no target, or a global queue), not through a serial queue it targets.
RL_INVISIBLE static void *made(void *queue, void *attr, void *target) {
    unlist(side_by_side, RL_QUEUE_SLOTS, queue);
    if (!is_concurrent_attr(attr) || (target != NULL && !listed(side_by_side, RL_QUEUE_SLOTS, target))) return queue;
    int slot = list(side_by_side, RL_QUEUE_SLOTS, queue);
    if (slot >= 0) STORE(&held_back[slot], listed(inactive_attrs, RL_ATTR_SLOTS, attr) ? 1 : 0);
    return queue;
}

/// `queue`'s blocks are held back one more time (`change` 1) or one less (-1).
RL_INVISIBLE static void hold_back(void *queue, int64_t change) {
    int slot = slot_of(side_by_side, RL_QUEUE_SLOTS, queue);
    if (slot >= 0) ADD(&held_back[slot], change);
}

RL_INVISIBLE void *dispatch_get_global_queue(long identifier, unsigned long flags) {
    RL_REAL(void *(*)(long, unsigned long), "dispatch_get_global_queue");
    void *queue = real(identifier, flags);
    // Flags are the runtime's own: overcommit (a thread at once) or the cooperative pool of
    // Swift's tasks, which never grows (a task waits for one of its threads to finish).
    if (flags == 0) list(side_by_side, RL_QUEUE_SLOTS, queue);
    return queue;
}

RL_INVISIBLE void *dispatch_queue_create(const char *label, void *attr) {
    RL_REAL(void *(*)(const char *, void *), "dispatch_queue_create");
    return made(real(label, attr), attr, NULL);
}

RL_INVISIBLE void *dispatch_queue_create_with_target(const char *label, void *attr, void *target) {
    RL_REAL(void *(*)(const char *, void *, void *), "dispatch_queue_create_with_target");
    return made(real(label, attr, target), attr, target);
}

RL_INVISIBLE void *dispatch_queue_attr_make_with_qos_class(void *attr, unsigned int qos, int priority) {
    RL_REAL(void *(*)(void *, unsigned int, int), "dispatch_queue_attr_make_with_qos_class");
    return derived(attr, real(attr, qos, priority));
}

RL_INVISIBLE void *dispatch_queue_attr_make_with_autorelease_frequency(void *attr, unsigned long frequency) {
    RL_REAL(void *(*)(void *, unsigned long), "dispatch_queue_attr_make_with_autorelease_frequency");
    return derived(attr, real(attr, frequency));
}

RL_INVISIBLE void *dispatch_queue_attr_make_initially_inactive(void *attr) {
    RL_REAL(void *(*)(void *), "dispatch_queue_attr_make_initially_inactive");
    void *inactive = derived(attr, real(attr));
    list(inactive_attrs, RL_ATTR_SLOTS, inactive);
    return inactive;
}

RL_INVISIBLE void *dispatch_queue_attr_make_with_overcommit(void *attr, _Bool overcommit) {
    RL_REAL(void *(*)(void *, _Bool), "dispatch_queue_attr_make_with_overcommit");
    void *result = real(attr, overcommit);
    return overcommit ? result : derived(attr, result);
}

// A concurrent queue given a width of its own (Swift's tasks run on one as wide as the CPUs,
// which never grows): its blocks wait for its own running blocks, as a serial queue's do.
RL_INVISIBLE void dispatch_queue_set_width(void *queue, long width) {
    RL_REAL(void (*)(void *, long), "dispatch_queue_set_width");
    unlist(side_by_side, RL_QUEUE_SLOTS, queue);
    real(queue, width);
}

// A suspended queue, one not activated yet, and one behind a barrier hold their blocks back
// themselves: those blocks wait for the lab, not for the pool.
RL_INVISIBLE void dispatch_suspend(void *object) {
    RL_REAL(void (*)(void *), "dispatch_suspend");
    hold_back(object, 1);
    real(object);
}

RL_INVISIBLE void dispatch_resume(void *object) {
    hold_back(object, -1);
    __interceptor_dispatch_resume(object);
}

RL_INVISIBLE void dispatch_activate(void *object) {
    RL_REAL(void (*)(void *), "dispatch_activate");
    int slot = slot_of(side_by_side, RL_QUEUE_SLOTS, object);
    if (slot >= 0) {  // activating an active queue does nothing: only the first counts
        int64_t inactive = 1;
        __atomic_compare_exchange_n(&held_back[slot], &inactive, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
    real(object);
}

// Sent through a serial queue from now on: its blocks wait for that queue, not for the pool.
RL_INVISIBLE void dispatch_set_target_queue(void *object, void *target) {
    RL_REAL(void (*)(void *, void *), "dispatch_set_target_queue");
    if (target != NULL && !listed(side_by_side, RL_QUEUE_SLOTS, target)) unlist(side_by_side, RL_QUEUE_SLOTS, object);
    real(object, target);
}

RL_INVISIBLE int rl_queue_barrier_sent(void *queue) {
    int slot = slot_of(side_by_side, RL_QUEUE_SLOTS, queue);
    if (slot < 0) return 0;
    ADD(&held_back[slot], 1);
    return 1;
}

RL_INVISIBLE void rl_queue_barrier_ended(void *queue) { hold_back(queue, -1); }

RL_INVISIBLE int rl_queue_waits_for_pool(void *queue) {
    int slot = slot_of(side_by_side, RL_QUEUE_SLOTS, queue);
    return slot >= 0 && LOAD(&held_back[slot]) <= 0;
}
#define RL_QUEUE_KINDS_INTERPOSED 1
#endif
#endif

#ifndef RL_QUEUE_KINDS_INTERPOSED
RL_INVISIBLE int rl_queue_waits_for_pool(void *queue) {
    (void)queue;
    return 0;  // no interposers: work on other queues is not counted
}
RL_INVISIBLE int rl_queue_barrier_sent(void *queue) {
    (void)queue;
    return 0;
}
RL_INVISIBLE void rl_queue_barrier_ended(void *queue) { (void)queue; }
#endif
