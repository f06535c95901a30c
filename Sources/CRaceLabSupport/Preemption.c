#include "CRaceLabSupport.h"

#include <errno.h>
#include <execinfo.h>
#include <stdint.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#if RL_LINUX_FACILITIES
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

// Random preemption for the stress pass, and holds (below). One file on purpose: both ride on
// the same signal and its one handler, which decides for each delivery whether it is a
// preemption or a hold, so they share that handler's state.
//
// Random preemption.
//
// A checkpoint can only hold a thread where the harness's own code runs. A fix that is wrong
// between two of the student's own instructions (an atomic load, then a separate store) has a
// window with no checkpoint in it. The OS preempts there only rarely: two cores, a window of a
// few nanoseconds. So a background thread sends a signal, at random moments, to a random lab
// thread, and the handler sleeps a random moment: the thread stops wherever it was.
//
// Under ThreadSanitizer the signal is delivered at the thread's next synchronisation point
// (an atomic operation, a lock, any intercepted call; at once if it is blocked): exactly the
// places where another thread's step can change the outcome. No happens-before edge is made
// between lab threads (the handler and the sender touch nothing TSan watches), so a race is
// still a race.

#include "Invisible.h"
#include "OwnTime.h"
#include "Preemption.h"
#include "PriorityOrder.h"
#include "SpentTime.h"
#include "ThreadFacts.h"
#include "ThreadTable.h"

// Layer 2 (holds, preemption and queue kinds): calls only lower layers (CLayersTests).

enum { RL_RECENT_THREADS = 32, RL_IDLE_POLL_MAX_US = 250, RL_DOZE_AFTER_US = 5000, RL_DOZE_MAX_US = 5000 };
_Static_assert(RL_RECENT_THREADS == RL_PRIORITY_ORDER_SLOTS, "the priority order keeps one priority per ring slot");
// CPU a thread may use after the handler returns to get back into the call it was blocked in.
static int64_t handler_return_ns = 50000;

// Threads off the main thread seen at a checkpoint lately (a ring: old entries are overwritten).
static int64_t recent_threads[RL_RECENT_THREADS];
// Per ring slot, the thread's CPU time as the handler last returned on it: what it spends
// handling our own signal is not running. (Counted as running, a thread blocked on a lock or a
// condition was signalled again and again: each signal woke it, the wake-up used CPU, which made
// it look as if it ran, and it slept in the handler most of the time, never quiet.)
static int64_t handled_cpu_ns[RL_RECENT_THREADS];
// Per ring slot, when the handler last returned there (monotonic; 0: never).
static int64_t handled_at_ns[RL_RECENT_THREADS];
static int64_t recent_next;
// Per ring slot, 1 while its thread waits for its turn in the handler (priority order).
static int turn_waiting[RL_RECENT_THREADS];

static int64_t signals_sent, signals_handled;
#if RL_LINUX_FACILITIES
static uint64_t draws;
static uint64_t preempt_seed;
static int preempting;
static int64_t interval_max_us, sleep_max_us;
// 1 while the sender dozes (RL_DOZE_AFTER_US with no lab thread running): a checkpoint hit wakes it.
static int sender_dozing;
static pthread_t sender;
static int sender_running;

RL_INVISIBLE static uint64_t draw(void) {
    return rl_mix64(LOAD(&preempt_seed) + __atomic_add_fetch(&draws, 1, __ATOMIC_RELAXED) * 0x9E3779B97F4A7C15ULL);
}
#endif

RL_INVISIBLE void rl_preemption_wake(void) {
#if RL_LINUX_FACILITIES
    // The raw system call, like every other here: TSan sees no synchronisation in it.
    if (LOAD(&sender_dozing) && __atomic_exchange_n(&sender_dozing, 0, __ATOMIC_RELAXED)) {
        syscall(SYS_futex, &sender_dozing, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
#endif
}

RL_INVISIBLE void rl_preemption_set_return_allowance_ns(int64_t ns) { STORE(&handler_return_ns, ns); }

RL_INVISIBLE void rl_preemption_note_thread(int64_t tid) {
    for (int i = 0; i < RL_RECENT_THREADS; i++) {
        if (LOAD(&recent_threads[i]) == tid) return;
    }
    int64_t slot = __atomic_fetch_add(&recent_next, 1, __ATOMIC_RELAXED) % RL_RECENT_THREADS;
    STORE(&handled_cpu_ns[slot], 0);
    STORE(&handled_at_ns[slot], 0);
    STORE(&turn_waiting[slot], 0);
    STORE(&recent_threads[slot], tid);
}

RL_INVISIBLE static int rl_thread_state(int64_t tid);

RL_INVISIBLE int rl_blocked_watch_look(rl_blocked_watch *watch, int64_t tid, int64_t for_ns) {
    int state = rl_thread_state(tid);
    if (state < 0) return -1;
    int64_t now = rl_monotonic_ns();
    watch->since = state == 1 ? (watch->since ? watch->since : now) : 0;
    return watch->since != 0 && now - watch->since >= for_ns;
}

// 1 if thread `tid` of this process waits in the kernel for something other than time (a lock,
// a condition, a read): asleep (its state), in a system call (/proc/self/task/TID/syscall). A
// sleep does not count: the stress pass's own preemptions and jitter sleep. Nor does a thread
// that is runnable inside a call: on a busy machine one is often preempted in the middle of one
// (reading /proc, say), and was taken for blocked. 0 if it does not; -1 if there is no such thread.
RL_INVISIBLE static int rl_thread_state(int64_t tid) {
#if RL_LINUX_FACILITIES
    if (tid <= 0) return 0;
    char letter = rl_task_state_letter(tid);
    if (letter == 0) return -1;
    if (letter != 'S') return 0;
    char text[64];
    long got = rl_read_task_file(tid, "syscall", text, sizeof text);
    if (got < 0) return -1;
    if (got == 0 || text[0] < '0' || text[0] > '9') return 0;  // "running", or "-1" (in none)
    long number = 0;
    for (int i = 0; i < got && text[i] >= '0' && text[i] <= '9'; i++) number = number * 10 + (text[i] - '0');
    return number != SYS_nanosleep && number != SYS_clock_nanosleep && number != SYS_sched_yield;
#else
    (void)tid;
    return 0;
#endif
}

#if RL_LINUX_FACILITIES
RL_INVISIBLE static void raw_sleep_us(int64_t us) {
    struct timespec nap = {us / 1000000, (us % 1000000) * 1000};
    // The raw system call: TSan's nanosleep interceptor would model the sleep (and is not for
    // signal handlers).
    syscall(SYS_nanosleep, &nap, NULL);
}

// A hold (rl_hold_*): one chosen thread stopped at a synchronisation point until the thread
// that asked releases it, or the asker's limit passed (the held thread may hold a lock the
// asker then waits for: the hold must end on its own).
//
// Two kinds. A self-hold (rl_hold_arm_self, on the thread to be held) stops it at its
// (skip+1)-th synchronisation point from there, counted exactly: each time the handler runs it
// signals its own thread again, and TSan delivers that at the next point. (Asked from another
// thread instead, a hold lands wherever the signal finds the thread, which depends on when each
// gets the CPU: a first version did so, and missed a window in 120 iterations.) One
// catch: TSan, entering a blocking call (a lock), handles pending signals in a loop until none
// is left, so a signal sent from the handler is handled again at the same point, forever. The
// handler knows such a repeat by where it was called from and leaves the next signal for later
// (hold_nudge): pthread_mutex_lock sends it once the lock is taken (LabCallInterposers.c), and
// for any other blocking call the asker sends it, 50 us on (the call blocked, or is unknown).
// A hold at the hand-over (rl_hold_arm_at_hand_over) counts nothing: the target is held as it
// sends work to the main queue, and a thread it starts, or a block it sends to another queue,
// first takes the hold over (LabCallInterposers.c).
enum { RL_HOLD_IDLE = 0, RL_HOLD_ASKED = 1, RL_HOLD_HOLDING = 2 };
static int64_t hold_target;
static int hold_state;
static int64_t hold_max_ns;
static int64_t hold_skip_left;  // self-hold: synchronisation points still to pass
static int64_t hold_asker;  // self-hold: the asker's thread; a hold ends once it blocks
static int64_t hold_last_point;  // self-hold: where the handler was called from, at the last point
static int64_t hold_nudge;  // self-hold: when the next signal was left for later (0: it was not)
static int hold_at_hand_over;  // 1: held as it sends work to the main queue, not at a counted point
static int hold_counting;  // 1 while a self-hold counts points (0 for a hold at the hand-over)
// Bumped when the asker is done with a hold (rl_hold_end_round): a self-hold armed for an
// earlier round, by a thread that got there late (a busy machine), is refused or taken back, so
// it never stops a thread after the race it was meant for is over.
static int64_t hold_round;

RL_INVISIBLE static int64_t now_ns(void) {
    struct timespec now;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

// Where the handler was called from, as one number: the return addresses on the stack and the
// stack's depth. Two points in a row can sit at the same depth (a lock's entry, then its unlock's
// exit, from one frame); only TSan's loop at a blocking call calls twice from the same place.
RL_INVISIBLE static int64_t this_point(void) {
    void *frames[12];
    int count = backtrace(frames, 12);
    char marker;
    uint64_t point = (uint64_t)(uintptr_t)&marker;
    for (int i = 0; i < count; i++) point = rl_mix64(point ^ (uint64_t)(uintptr_t)frames[i]);
    return (int64_t)(point | 1);
}

// In the handler: if this thread is the one asked for, hold it here (or, for a self-hold with
// points left to pass, count this one and ask again for the next). 1 if it was handled so.
RL_INVISIBLE static int hold_now(void);

RL_INVISIBLE static int hold_here(void) {
    int64_t me = (int64_t)syscall(SYS_gettid);
    if (LOAD(&hold_target) != me || LOAD(&hold_state) != RL_HOLD_ASKED || LOAD(&hold_at_hand_over)) return 0;
    if (LOAD(&hold_counting)) {
        int64_t point = this_point();
        if (point == LOAD(&hold_last_point)) {  // TSan's loop at a blocking call: the same point
            STORE(&hold_last_point, 0);
            STORE(&hold_nudge, now_ns());
            return 1;
        }
        STORE(&hold_last_point, point);
    }
    if (LOAD(&hold_skip_left) > 0) {
        __atomic_sub_fetch(&hold_skip_left, 1, __ATOMIC_RELAXED);
        syscall(SYS_tgkill, getpid(), (pid_t)me, SIGURG);
        return 1;
    }
    return hold_now();
}

// Holds this thread (the target, asked for) until released or the limit passed. 1 if held.
RL_INVISIBLE static int hold_now(void) {
    int asked = RL_HOLD_ASKED;
    if (!__atomic_compare_exchange_n(&hold_state, &asked, RL_HOLD_HOLDING, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return 0;
    int64_t asker = LOAD(&hold_asker);
    int64_t began = now_ns();
    int64_t until = began + LOAD(&hold_max_ns);
    rl_quiet_held(1);  // held: busy, though it waits on a futex
    rl_blocked_watch asker_waits = {0};
    // The limit is on the own time of the thread that acts meanwhile (the asker; else the main
    // thread, which armed the hold): what it waits for a CPU on a busy machine moves the end on.
    rl_own_deadline actor_time;
    rl_own_deadline_start(&actor_time, asker != 0 ? asker : (int64_t)getpid(), LOAD(&hold_max_ns));
    for (int64_t left = until - now_ns(); LOAD(&hold_state) == RL_HOLD_HOLDING; left = until - now_ns()) {
        if (left <= 0) {
            if (rl_own_deadline_passed(&actor_time)) break;
            until = now_ns() + 100000;  // look again in 100 us
            continue;
        }
        // A self-hold looks at its asker every 200 us: blocked twice running, it most likely
        // waits for a lock this thread holds, so the hold ends rather than stall it.
        if (asker != 0 && left > 200000) left = 200000;
        struct timespec wait = {left / 1000000000, left % 1000000000};
        syscall(SYS_futex, &hold_state, FUTEX_WAIT_PRIVATE, RL_HOLD_HOLDING, &wait, NULL, 0);
        if (asker != 0 && rl_blocked_watch_look(&asker_waits, asker, 200000) == 1) break;
    }
    // Timed out: end the hold. Released: leave the state alone, the asker may already have asked
    // for the next one (its signal waits until this handler returns).
    int holding = RL_HOLD_HOLDING;
    __atomic_compare_exchange_n(&hold_state, &holding, RL_HOLD_IDLE, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    rl_quiet_held(0);
    rl_spent_add(RL_SPENT_THREAD_HOLDS, now_ns() - began);
    return 1;
}

// Priority order (PriorityOrder.c): the handler of a thread that is not first waits while the
// first one runs. It looks every 100 us; it goes on once it is first, or the first one used
// under a quarter of a look's CPU two looks running (it waits: a lock this thread holds, a
// condition, the main thread), or is gone, or 3 ms passed (the sender signals it again if it is
// still not first).
enum { RL_TURN_LOOK_US = 100, RL_TURN_WAIT_MAX_US = 3000 };

RL_INVISIBLE static void wait_for_turn(int64_t self) {
    int64_t first = rl_priority_order_first();
    if (first == 0 || first == self || (LOAD(&hold_state) == RL_HOLD_HOLDING && LOAD(&hold_target) == first)) return;
    int slot = -1;
    for (int i = 0; i < RL_RECENT_THREADS && slot < 0; i++) {
        if (LOAD(&recent_threads[i]) == self) slot = i;
    }
    if (slot >= 0) STORE(&turn_waiting[slot], 1);
    rl_priority_order_waiting(1);
    int64_t began = now_ns();
    int64_t first_cpu = rl_thread_cpu_ns(first);
    int idle_looks = 0;
    while (first_cpu >= 0 && LOAD(&preempting) && rl_priority_order_on()
           && now_ns() - began < RL_TURN_WAIT_MAX_US * 1000) {
        raw_sleep_us(RL_TURN_LOOK_US);
        int64_t now_first = rl_priority_order_first();
        if (now_first == self || now_first == 0) break;
        if (LOAD(&hold_state) == RL_HOLD_HOLDING && LOAD(&hold_target) == now_first) break;  // held: not running
        if (now_first != first) {
            first = now_first;
            first_cpu = rl_thread_cpu_ns(first);
            idle_looks = 0;
            continue;
        }
        int64_t cpu = rl_thread_cpu_ns(first);
        if (cpu < 0) break;
        idle_looks = cpu - first_cpu < RL_TURN_LOOK_US * 250 ? idle_looks + 1 : 0;
        if (idle_looks >= 2) break;
        first_cpu = cpu;
    }
    rl_priority_order_waiting(-1);
    if (slot >= 0) STORE(&turn_waiting[slot], 0);
    rl_spent_add(RL_SPENT_PREEMPTION_SLEEPS, now_ns() - began);
}

// The handler: the thread sleeps where the signal found it, or waits for its turn (priority
// order), or is held there (when asked).
RL_INVISIBLE static void on_preempt(int number) {
    (void)number;
    int saved = errno;
    __atomic_add_fetch(&signals_handled, 1, __ATOMIC_RELAXED);
    if (hold_here()) {
        errno = saved;
        return;
    }
    int64_t self = rl_current_thread_id();
    int64_t max_us = LOAD(&sleep_max_us);
    if (rl_priority_order_on()) {
        wait_for_turn(self);
    } else if (max_us > 0) {
        int64_t began = now_ns();
        raw_sleep_us(1 + (int64_t)(draw() % (uint64_t)max_us));
        rl_spent_add(RL_SPENT_PREEMPTION_SLEEPS, now_ns() - began);
    }
    for (int i = 0; i < RL_RECENT_THREADS; i++) {
        if (LOAD(&recent_threads[i]) != self) continue;
        STORE(&handled_cpu_ns[i], rl_thread_cpu_ns(self));
        STORE(&handled_at_ns[i], now_ns());
    }
    errno = saved;
}

/// The threads of the ring that ran since the sender's last look (`seen_*`: what it saw in each
/// slot then), into `running` (their slots into `slots`), each with whether it may have gone
/// back to wait; how many.
RL_INVISIBLE static int threads_that_ran(int64_t *seen_tid, int64_t *seen_ns, int64_t *running, int *slots,
                                         int *maybe_asleep) {
    // Only a thread that ran since the last look is worth stopping: a blocked one is at no
    // point in its code, and waking it costs two cores dearly. Per entry of `maybe_asleep`: 1 if
    // it ran less than half the time since our handler returned on it. It may have gone back to
    // wait (on a loaded machine, getting back into the wait can cost more CPU than the floor
    // allows); its state is then read before it is signalled.
    int count = 0;
    int64_t now = now_ns();
    for (int i = 0; i < RL_RECENT_THREADS; i++) {
        int64_t tid = LOAD(&recent_threads[i]);
        if (tid == 0) continue;
        int64_t ns = rl_thread_cpu_ns(tid);
        if (ns < 0) {  // gone: forget it
            __atomic_compare_exchange_n(&recent_threads[i], &tid, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
            seen_tid[i] = 0;
            continue;
        }
        // Ran since the last look, beyond going back to where our signal found it.
        int64_t floor = LOAD(&handled_cpu_ns[i]) + LOAD(&handler_return_ns);
        if (seen_tid[i] == tid && ns > seen_ns[i] && ns > floor) {
            int64_t handled_at = LOAD(&handled_at_ns[i]);
            maybe_asleep[count] = handled_at != 0 && (ns - LOAD(&handled_cpu_ns[i])) * 2 < now - handled_at;
            slots[count] = i;
            running[count++] = tid;
        }
        seen_tid[i] = tid;
        seen_ns[i] = ns;
    }
    return count;
}

/// Signals one of the `*count` threads that ran, drawn at random; 1 when one was. One found
/// asleep is dropped from the list (and from `*count`) and another drawn.
RL_INVISIBLE static int signal_one(pid_t pid, int64_t *running, int *maybe_asleep, int *count) {
    // The one drawn must not be asleep in the kernel now, if it may be. (The floor alone
    // was not enough: a waiting thread was signalled again and again on a loaded machine,
    // never seen waiting, and a correct idle worker was taken for one that polls.) Only then
    // is its state read from /proc: reading every thread's state each round cost a third of
    // a stress child's CPU, and reading it before every signal added system time too.
    while (*count > 0) {
        int64_t drawn = (int64_t)(draw() % (uint64_t)*count);
        int64_t tid = running[drawn];
        if (maybe_asleep[drawn] && rl_task_state_letter(tid) == 'S') {
            (*count)--;
            running[drawn] = running[*count];
            maybe_asleep[drawn] = maybe_asleep[*count];
            continue;
        }
        if (syscall(SYS_tgkill, pid, (pid_t)tid, SIGURG) != 0) return 0;
        __atomic_add_fetch(&signals_sent, 1, __ATOMIC_RELAXED);
        return 1;
    }
    return 0;
}

/// Priority order: of the threads that ran and those waiting for their turn, the first one
/// (PriorityOrder.c) goes on, and every other one that ran is signalled, to wait for its turn;
/// how many were. A thread a hold is asked for, or holds, is out of the order: a signal to it
/// is the hold's (each counts one of its points), and a held one waits for the story. One
/// waiting already is not signalled again, nor one that may have gone back to wait and sleeps.
RL_INVISIBLE static int signal_by_priority(pid_t pid, const int64_t *running, const int *slots,
                                           const int *maybe_asleep, int count) {
    int64_t hold_tid = LOAD(&hold_state) != RL_HOLD_IDLE ? LOAD(&hold_target) : 0;
    int64_t candidates[RL_RECENT_THREADS];
    int candidate_slots[RL_RECENT_THREADS];
    int ran[RL_RECENT_THREADS];  // per candidate: index into `running`, or -1 (waiting)
    int listed[RL_RECENT_THREADS] = {0};
    int n = 0;
    for (int i = 0; i < count; i++) {
        if (running[i] == hold_tid) continue;
        int waits = LOAD(&turn_waiting[slots[i]]);
        candidates[n] = running[i];
        candidate_slots[n] = slots[i];
        ran[n++] = waits ? -1 : i;
        listed[slots[i]] = 1;
    }
    for (int slot = 0; slot < RL_RECENT_THREADS; slot++) {
        int64_t tid = LOAD(&recent_threads[slot]);
        if (listed[slot] || tid == 0 || tid == hold_tid || !LOAD(&turn_waiting[slot])) continue;
        candidates[n] = tid;
        candidate_slots[n] = slot;
        ran[n++] = -1;
    }
    int64_t first = rl_priority_order_choose(candidate_slots, candidates, n, now_ns());
    int sent = 0;
    for (int c = 0; c < n; c++) {
        int i = ran[c];
        if (i < 0 || candidates[c] == first) continue;
        if (maybe_asleep[i] && rl_task_state_letter(candidates[c]) == 'S') continue;
        if (syscall(SYS_tgkill, pid, (pid_t)candidates[c], SIGURG) != 0) continue;
        __atomic_add_fetch(&signals_sent, 1, __ATOMIC_RELAXED);
        sent++;
    }
    return sent;
}

/// Nothing has run for longer than the longest hold at a checkpoint (between iterations,
/// mostly): waking 4000 times a second would cost a stress child a fifth of its CPU. Dozes until
/// a checkpoint is hit (rl_preemption_wake) or a while passed; `*quiet_us` back to 0 if woken.
RL_INVISIBLE static void doze(int64_t *quiet_us) {
    STORE(&sender_dozing, 1);
    struct timespec doze = {0, RL_DOZE_MAX_US * 1000};
    syscall(SYS_futex, &sender_dozing, FUTEX_WAIT_PRIVATE, 1, &doze, NULL, 0);
    // Woken: poll closely again. Timed out: one look, then doze again unless one ran.
    if (!__atomic_exchange_n(&sender_dozing, 0, __ATOMIC_RELAXED)) *quiet_us = 0;
}

RL_INVISIBLE static void *send_signals(void *unused) {
    (void)unused;
    rl_quiet_ignore_this_thread();  // the harness's own: never the lab's work
    pid_t pid = getpid();
    // Sleep as briefly as asked (the default slack adds some 50 us to every sleep).
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    int64_t idle_us = 0;  // grows while no lab thread is running: polling costs the machine
    int64_t quiet_us = 0;  // how long no lab thread has run (roughly: the sleeps since)
    // Per ring slot, the thread last read there and its CPU time then (the sender's alone).
    int64_t seen_tid[RL_RECENT_THREADS] = {0}, seen_ns[RL_RECENT_THREADS] = {0};
    while (LOAD(&preempting)) {
        int64_t running[RL_RECENT_THREADS];
        int slots[RL_RECENT_THREADS];
        int maybe_asleep[RL_RECENT_THREADS];
        int count = threads_that_ran(seen_tid, seen_ns, running, slots, maybe_asleep);
        int sent = rl_priority_order_on() ? signal_by_priority(pid, running, slots, maybe_asleep, count)
                                          : signal_one(pid, running, maybe_asleep, &count);
        int64_t max_us = LOAD(&interval_max_us);
        if (max_us < 1) max_us = 1;
        quiet_us = count > 0 ? 0 : quiet_us + idle_us;
        if (quiet_us >= RL_DOZE_AFTER_US) {
            doze(&quiet_us);
            idle_us = 0;
            continue;
        }
        idle_us = sent ? 0 : (idle_us == 0 ? max_us : (idle_us * 2 > RL_IDLE_POLL_MAX_US ? RL_IDLE_POLL_MAX_US : idle_us * 2));
        raw_sleep_us(sent ? 1 + (int64_t)(draw() % (uint64_t)max_us) : idle_us);
    }
    return NULL;
}
#endif

RL_INVISIBLE int rl_preemption_start(uint64_t seed, int64_t interval_us, int64_t sleep_us) {
#if RL_LINUX_FACILITIES
    if (LOAD(&sender_running)) return 0;
    static int installed;
    if (!installed) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_preempt;
        // Restart what can be restarted: the lab's waits should not see the signal at all.
        action.sa_flags = SA_RESTART;
        sigemptyset(&action.sa_mask);
        if (sigaction(SIGURG, &action, NULL) != 0) return -1;
        installed = 1;
    }
    for (int i = 0; i < RL_RECENT_THREADS; i++) STORE(&recent_threads[i], 0);
    STORE(&preempt_seed, seed);
    STORE(&interval_max_us, interval_us);
    STORE(&sleep_max_us, sleep_us);
    STORE(&preempting, 1);
    if (pthread_create(&sender, NULL, send_signals, NULL) != 0) {
        STORE(&preempting, 0);
        return -1;
    }
    STORE(&sender_running, 1);
    return 0;
#else
    (void)seed; (void)interval_us; (void)sleep_us;
    return -1;
#endif
}

RL_INVISIBLE void rl_preemption_stop(void) {
#if RL_LINUX_FACILITIES
    if (!LOAD(&sender_running)) return;
    rl_priority_order_begin(0, 1);
    STORE(&preempting, 0);
    rl_preemption_wake();
    pthread_join(sender, NULL);
    STORE(&sender_running, 0);
#endif
}

RL_INVISIBLE int rl_hold_arm_at_hand_over(int64_t at_most_ns) {
#if RL_LINUX_FACILITIES
    if (!LOAD(&sender_running)) return 0;
    STORE(&hold_at_hand_over, 1);
    STORE(&hold_counting, 0);
    STORE(&hold_asker, 0);
    STORE(&hold_max_ns, at_most_ns);
    STORE(&hold_target, rl_current_thread_id());
    STORE(&hold_state, RL_HOLD_ASKED);
    return 1;
#else
    (void)at_most_ns;
    return 0;
#endif
}

RL_INVISIBLE void rl_hold_at_hand_over(void) {
#if RL_LINUX_FACILITIES
    // Plain reads first: every dispatch_async passes here.
    if (*(volatile int *)&hold_at_hand_over == 0 || *(volatile int *)&hold_state != RL_HOLD_ASKED) return;
    if (LOAD(&hold_target) == rl_current_thread_id()) hold_now();
#endif
}

RL_INVISIBLE int64_t rl_hold_round(void) {
#if RL_LINUX_FACILITIES
    return __atomic_load_n(&hold_round, __ATOMIC_SEQ_CST);
#else
    return 0;
#endif
}

RL_INVISIBLE int rl_hold_arm_self(int64_t skip, int64_t at_most_ns, int64_t asker, int64_t round) {
#if RL_LINUX_FACILITIES
    if (!LOAD(&sender_running) || rl_hold_round() != round) return 0;
    int64_t me = rl_current_thread_id();
    STORE(&hold_at_hand_over, 0);
    STORE(&hold_counting, 1);
    STORE(&hold_target, me);
    STORE(&hold_max_ns, at_most_ns);
    STORE(&hold_skip_left, skip);
    STORE(&hold_asker, asker);
    STORE(&hold_last_point, 0);
    STORE(&hold_nudge, 0);
    __atomic_store_n(&hold_state, RL_HOLD_ASKED, __ATOMIC_SEQ_CST);
    // The round may have ended while this thread armed: then its end saw nothing to take back,
    // and this sees the new round (both sequentially consistent).
    if (rl_hold_round() != round) {
        rl_hold_cancel();
        return 0;
    }
    // A dispatch pool thread blocks every signal: let this one in (raw, no interceptor).
    uint64_t urgent = 1ULL << (SIGURG - 1);
    syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &urgent, NULL, sizeof urgent);
    // Delivered by TSan at this thread's next synchronisation point.
    return syscall(SYS_tgkill, getpid(), (pid_t)me, SIGURG) == 0;
#else
    (void)skip; (void)at_most_ns; (void)asker; (void)round;
    return 0;
#endif
}

RL_INVISIBLE int rl_hold_waits_for_hand_over(void) {
#if RL_LINUX_FACILITIES
    // Plain reads first: every thread start and dispatch_async passes here.
    if (*(volatile int *)&hold_at_hand_over == 0 || *(volatile int *)&hold_state != RL_HOLD_ASKED) return 0;
    return LOAD(&hold_target) == rl_current_thread_id();
#else
    return 0;
#endif
}

RL_INVISIBLE void rl_hold_take_over(void) {
#if RL_LINUX_FACILITIES
    STORE(&hold_target, rl_current_thread_id());
#endif
}

RL_INVISIBLE void rl_hold_cancel(void) {
#if RL_LINUX_FACILITIES
    int asked = RL_HOLD_ASKED;
    if (__atomic_compare_exchange_n(&hold_state, &asked, RL_HOLD_IDLE, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        STORE(&hold_target, 0);
    }
#endif
}

RL_INVISIBLE void rl_hold_end_round(void) {
#if RL_LINUX_FACILITIES
    // Sequentially consistent, as the arming is: a hold armed late sees this round's end, or is
    // seen here and taken back.
    __atomic_add_fetch(&hold_round, 1, __ATOMIC_SEQ_CST);
    int asked = RL_HOLD_ASKED;
    if (__atomic_compare_exchange_n(&hold_state, &asked, RL_HOLD_IDLE, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
        STORE(&hold_target, 0);
    }
#endif
}

RL_INVISIBLE void rl_hold_disarm_self(void) {
#if RL_LINUX_FACILITIES
    // Only this thread's own request: the asker may already have armed the next racing thread
    // (this one finishes its work after it was released). A request left ASKED with no target
    // holds no one; the next one replaces it.
    int64_t me = rl_current_thread_id();
    __atomic_compare_exchange_n(&hold_target, &me, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
#endif
}

RL_INVISIBLE void rl_hold_after_blocking_call(void) {
#if RL_LINUX_FACILITIES
    // A plain read first (no TSan atomic, so no synchronisation point of its own): every lock
    // of every lab thread passes here.
    if (*(volatile int64_t *)&hold_nudge == 0) return;
    int64_t me = rl_current_thread_id();
    if (LOAD(&hold_target) == me && __atomic_exchange_n(&hold_nudge, 0, __ATOMIC_RELAXED) != 0) {
        syscall(SYS_tgkill, getpid(), (pid_t)me, SIGURG);
    }
#endif
}

RL_INVISIBLE int rl_hold_wait_held(int64_t within_ns) {
#if RL_LINUX_FACILITIES
    int64_t until = now_ns() + within_ns;
    int64_t next_look = 0;
    rl_blocked_watch target_waits = {0};
    // Not armed yet (IDLE), or armed and not reached yet (ASKED): wait.
    while (LOAD(&hold_state) != RL_HOLD_HOLDING && now_ns() < until) {
        int64_t nudge = LOAD(&hold_nudge);
        if (nudge != 0 && now_ns() - nudge > 50000 && __atomic_exchange_n(&hold_nudge, 0, __ATOMIC_RELAXED) != 0) {
            syscall(SYS_tgkill, getpid(), (pid_t)LOAD(&hold_target), SIGURG);
        }
        // Armed, and its thread waits (a pool thread gone idle, a lock) for 1 ms running, or
        // is gone: it has no point left to be held at soon.
        int64_t now = now_ns(), target = LOAD(&hold_target);
        if (LOAD(&hold_state) != RL_HOLD_ASKED || target == 0 || now < next_look) continue;
        next_look = now + 100000;
        if (rl_blocked_watch_look(&target_waits, target, 1000000) != 0) return 0;
    }
    return LOAD(&hold_state) == RL_HOLD_HOLDING;
#else
    (void)within_ns;
    return 0;
#endif
}

RL_INVISIBLE int rl_hold_is_holding(void) {
#if RL_LINUX_FACILITIES
    return LOAD(&hold_state) == RL_HOLD_HOLDING;
#else
    return 0;
#endif
}

RL_INVISIBLE void rl_hold_release(void) {
#if RL_LINUX_FACILITIES
    int holding = RL_HOLD_HOLDING;
    if (__atomic_compare_exchange_n(&hold_state, &holding, RL_HOLD_IDLE, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        syscall(SYS_futex, &hold_state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
#endif
}

RL_INVISIBLE int64_t rl_preemption_signals_sent(void) { return LOAD(&signals_sent); }
RL_INVISIBLE int64_t rl_preemption_signals_handled(void) { return LOAD(&signals_handled); }
