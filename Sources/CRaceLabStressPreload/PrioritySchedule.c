// The priority schedule (PCT-style, after Burckhardt et al., "A randomized scheduler with
// probabilistic guarantees of finding bugs", ASPLOS 2010), on real threads.
//
// Why. Random pauses give each thread a pace, but a bug that needs two or three preemptions in
// a given order (thread A stopped exactly between two of its critical sections while B runs
// through, then A stopped again) is rare under them. A priority schedule runs one thread at a
// time, always the waiting one of highest priority, and at a few change points (chosen by the
// seed among the run's steps) drops the running thread's priority below all others: each
// ordering of d preemptions then has a chance of about 1/(threads * steps^(d-1)) a run.
//
// How, on real threads. Only the thread holding the turn runs between two synchronisation
// points. A thread that is about to block in a call (a lock another holds, a join) or ends
// gives the turn up first (rl_schedule_leave) and waits for it again at its next point. A call
// this library does not see can block the running thread too (a condition variable, a sleep):
// a waiter checks it every CHECK_NS, and a thread that used under a quarter of that time on a
// processor is taken to be blocked; the turn passes on. A thread that keeps the turn longer
// than HOLD_MAX_NS (spinning on a flag) drops to the lowest priority. The schedule ends at its
// time limit (racelab stress gives a quarter of the run's time-out, at most 3 s) or after
// SCHEDULE_MAX_STEPS points, so it never makes a run a hang by itself. The seed fixes the priorities and change points, not the OS's own timing:
// which thread is waiting at a given moment still depends on it.
//
// Nothing here is seen by ThreadSanitizer (the file is not instrumented, the system calls are
// raw): the hand-over makes no happens-before edge, so a race is still a race.
#define _GNU_SOURCE
#include "PrioritySchedule.h"
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NONE (-1)
#define CHECK_NS 200000LL
#define HOLD_MAX_NS 20000000LL
#define SCHEDULE_MAX_STEPS 200000ULL

struct thread_record {
    int64_t priority;
    int32_t tid;
    int32_t registered;
    int32_t waiting;  // waiting for the turn at a point
    int32_t granted;  // futex word: 1 once given the turn
};

static struct thread_record threads[RL_SCHEDULE_MAX_THREADS];
static int64_t highest_number = -1;  // the highest thread number registered
static int active;
static int lock_word;
static int64_t owner = NONE;  // the thread holding the turn, or NONE
static int64_t owner_since_ns, check_at_ns, check_cpu_ns;
static int blocked_looks;  // the owner was seen off the processor this many looks in a row
static int64_t schedule_max_ns;
static uint64_t steps_taken, switches;
static uint64_t change_at[RL_SCHEDULE_MAX_CHANGES];
static int change_count;
static uint64_t schedule_seed;
static int64_t started_ns;
static int64_t lowest;  // the priority the next drop gives: below every drawn one, and falling

RL_QUIET uint64_t rl_stress_mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

RL_QUIET static int64_t now_ns(void) {
    struct timespec time;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &time);
    return (int64_t)time.tv_sec * 1000000000LL + time.tv_nsec;
}

// Another thread's CPU time (the kernel's per-thread clock: CPUCLOCK_SCHED of that tid); -1 if
// the thread is gone.
RL_QUIET static int64_t thread_cpu_ns(int32_t tid) {
    clockid_t clock = (clockid_t)((~(unsigned)tid << 3) | 6);
    struct timespec time;
    if (syscall(SYS_clock_gettime, clock, &time) != 0) return -1;
    return (int64_t)time.tv_sec * 1000000000LL + time.tv_nsec;
}

RL_QUIET static void lock(void) {
    while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE)) syscall(SYS_sched_yield);
}

RL_QUIET static void unlock(void) { __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE); }

// Under the lock, from here on.

RL_QUIET static void register_thread(int64_t number) {
    struct thread_record *thread = &threads[number];
    if (thread->registered) return;
    // Drawn priorities are positive; drops give 0, -1, ...: below all of them.
    thread->priority = (int64_t)(rl_stress_mix(schedule_seed ^ rl_stress_mix((uint64_t)number + 1)) >> 2) + 1;
    thread->tid = (int32_t)syscall(SYS_gettid);
    thread->registered = 1;
    if (number > highest_number) highest_number = number;
}

RL_QUIET static int64_t best_waiting(void) {
    int64_t best = NONE;
    for (int64_t number = 0; number <= highest_number; number++) {
        struct thread_record *thread = &threads[number];
        if (thread->waiting && (best == NONE || thread->priority > threads[best].priority)) best = number;
    }
    return best;
}

RL_QUIET static void give(int64_t number, int64_t arriving) {
    int64_t now = now_ns();
    owner = number;
    owner_since_ns = now;
    check_at_ns = now;
    check_cpu_ns = thread_cpu_ns(threads[number].tid);
    blocked_looks = 0;
    if (number != arriving) switches++;
    threads[number].waiting = 0;
    __atomic_store_n(&threads[number].granted, 1, __ATOMIC_RELEASE);
    syscall(SYS_futex, &threads[number].granted, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

// The schedule's end: every waiter runs on, and nothing is ordered any more.
RL_QUIET static void end_schedule(void) {
    __atomic_store_n(&active, 0, __ATOMIC_RELAXED);
    owner = NONE;
    for (int64_t number = 0; number <= highest_number; number++) {
        if (threads[number].waiting) give(number, number);
    }
}

RL_QUIET static void wait_for_turn(int64_t number) {
    struct thread_record *thread = &threads[number];
    for (;;) {
        struct timespec check = {.tv_sec = 0, .tv_nsec = CHECK_NS};
        syscall(SYS_futex, &thread->granted, FUTEX_WAIT_PRIVATE, 0, &check, NULL, 0);
        if (__atomic_load_n(&thread->granted, __ATOMIC_ACQUIRE)) return;
        lock();
        if (thread->granted) break;
        int64_t now = now_ns();
        if (now - started_ns > schedule_max_ns) {
            end_schedule();
            break;
        }
        if (owner == NONE) {
            give(best_waiting(), number);
        } else if (now - check_at_ns >= CHECK_NS) {
            // Blocked: gone, or under a quarter of the time on a processor, twice in a row (once
            // is often a thread just woken on a busy machine, not yet run).
            int64_t cpu = thread_cpu_ns(threads[owner].tid);
            blocked_looks = cpu < 0 || (cpu - check_cpu_ns) * 4 < now - check_at_ns ? blocked_looks + 1 : 0;
            int hogging = now - owner_since_ns > HOLD_MAX_NS;
            if (hogging) threads[owner].priority = lowest--;
            if (blocked_looks >= 2 || cpu < 0 || hogging) {
                give(best_waiting(), number);
            } else {
                check_at_ns = now;
                check_cpu_ns = cpu;
            }
        }
        unlock();
    }
    unlock();
}

RL_QUIET void rl_schedule_start(uint64_t seed, uint64_t steps, int changes, int64_t limit_ms) {
    schedule_max_ns = (limit_ms > 0 ? limit_ms : 1) * 1000000LL;
    schedule_seed = seed;
    change_count = changes < 0 ? 0 : changes > RL_SCHEDULE_MAX_CHANGES ? RL_SCHEDULE_MAX_CHANGES : changes;
    for (int index = 0; index < change_count; index++) {
        change_at[index] = 1 + rl_stress_mix(seed ^ (0xC4A26E00ULL + (uint64_t)index)) % (steps ? steps : 1);
    }
    started_ns = now_ns();
    lowest = 0;
    __atomic_store_n(&active, 1, __ATOMIC_RELEASE);
}

RL_QUIET int rl_schedule_active(void) { return __atomic_load_n(&active, __ATOMIC_RELAXED); }

RL_QUIET void rl_schedule_point(uint64_t number) {
    if (!rl_schedule_active() || number >= RL_SCHEDULE_MAX_THREADS) return;
    int64_t self = (int64_t)number;
    lock();
    if (!active) {
        unlock();
        return;
    }
    register_thread(self);
    steps_taken++;
    if (steps_taken > SCHEDULE_MAX_STEPS || now_ns() - started_ns > schedule_max_ns) {
        end_schedule();
        unlock();
        return;
    }
    for (int index = 0; index < change_count; index++) {
        if (steps_taken == change_at[index]) threads[self].priority = lowest--;
    }
    __atomic_store_n(&threads[self].granted, 0, __ATOMIC_RELAXED);
    threads[self].waiting = 1;
    if (owner == self || owner == NONE) {
        // The turn is this thread's to pass: to the waiting thread of highest priority, itself
        // included.
        int64_t best = best_waiting();
        if (best == self) {
            threads[self].waiting = 0;
            if (owner != self) give(self, self);
            unlock();
            return;
        }
        give(best, self);
    }
    unlock();
    wait_for_turn(self);
}

RL_QUIET void rl_schedule_leave(uint64_t number) {
    if (!rl_schedule_active() || number >= RL_SCHEDULE_MAX_THREADS) return;
    int64_t self = (int64_t)number;
    lock();
    if (active && owner == self) {
        owner = NONE;
        int64_t best = best_waiting();
        if (best != NONE) give(best, self);
    }
    unlock();
}

RL_QUIET uint64_t rl_schedule_switches(void) { return __atomic_load_n(&switches, __ATOMIC_RELAXED); }

RL_QUIET void rl_schedule_forked(void) {
    // One thread left, maybe with the lock of a thread that is gone: nothing to order.
    active = 0;
    lock_word = 0;
}
#endif
