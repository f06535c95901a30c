#include "CRaceLabSupport.h"

#include <errno.h>
#include <time.h>
#if RL_LINUX_FACILITIES
#include <dlfcn.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "Invisible.h"
#include "SpentTime.h"
#include "StoryHolds.h"
#include "ThreadFacts.h"
#include "ThreadTable.h"

// Layer 2 (holds, preemption and queue kinds): calls only lower layers (CLayersTests).

// Holds that wait for the story (explore and stress passes): a lab thread is stopped where the
// main thread's next move decides whether a bug shows, so it shows every time it can, not only
// when the machine happens to be busy at that moment.
//
// The end hold: every thread the lab starts waits at its very end (its body has returned; what
// its closure captured is still held) until the story is over and the main thread has let go of
// the story's objects. What the thread still holds is then let go of last, on that thread: a
// thread that keeps a screen or a controller alive makes it die off the main thread every time.
// (Foundation's Thread keeps its closure until the thread's thread-specific data is destroyed,
// after its start routine returns: after this hold.) Never on a dispatch pool thread: the
// queue's next block would wait behind it.
//
// The strong-reference hold: a lab thread that turns a weak reference to a controller into a
// strong one (`guard let self`, or a `[weak self]` captured again off the main thread) waits
// there, holding it, until the main thread's next user action has ended. If that action lets go
// of the controller, the thread's release is the last one: its deinit runs off the main thread,
// as it would whenever the user acts in that moment.
//
// A block that ran on a queue other than main is held back the same way, without its thread:
// its release is deferred until the story is over (LabCallInterposers.c).
//
// The late start (any pass, when a story asks for it): work sent to a queue other than main
// waits, on its pool thread, before its first step until the story says so: it begins after the
// main thread's next moves, as it would whenever the pool had no free thread. A block that must
// ask "is the view still there?" before it starts is asked it after the view went away.
//
// Either hold ends early when the main thread waits for something with no time limit (it may be
// joining this thread), and neither ever makes a story wait: a held thread counts as waiting for
// the story, and a look that finds the lab quiet but for strong-reference holds ends them
// (Quiescence.c), so a story that waits for the thread's work gets it, only later.

static int end_armed;      // 1 while a story of the explore or stress pass runs
static int strong_armed;   // and the lab keeps the rule that views die on the main thread
static int64_t story;      // bumped as each story begins and ends
static int64_t main_steps;  // user actions the main thread has ended
static int64_t strong_ended_at = -1;  // main_steps when a quiet look last ended strong holds
static int64_t strong_held;  // threads in a strong-reference hold right now
static int64_t held;         // threads in any hold right now
static int late_start;       // 1 while work sent to a queue begins only later (rl_story_late_start)

#define RL_WATCHED 64
static intptr_t watched[RL_WATCHED];  // controllers alive now (their addresses)

// Held threads sleep on one word that every change able to end a hold bumps (a futex, raw: TSan
// sees no synchronisation in it), instead of napping and looking each on its own: with a hundred
// threads at their end hold, their looks at /proc took most of the machine.
static uint32_t hold_changes;

RL_INVISIBLE static void holds_changed(void) {
    ADD(&hold_changes, 1);
#if RL_LINUX_FACILITIES
    // Always: a wake only when some thread looked held would race with one about to sleep.
    syscall(SYS_futex, &hold_changes, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
#endif
}

RL_INVISIBLE void rl_story_holds_begin(int end_hold, int strong_hold) {
    ADD(&story, 1);
    STORE(&strong_ended_at, -1);
    STORE(&end_armed, end_hold);
    STORE(&strong_armed, strong_hold);
    holds_changed();
}

RL_INVISIBLE void rl_story_holds_end(void) {
    STORE(&end_armed, 0);
    STORE(&strong_armed, 0);
    STORE(&late_start, 0);
    ADD(&story, 1);
    holds_changed();
}

RL_INVISIBLE int rl_story_end_hold_armed(void) { return LOAD(&end_armed); }

RL_INVISIBLE void rl_story_late_start(int armed) {
    STORE(&late_start, armed);
    holds_changed();
}

RL_INVISIBLE void rl_story_user_action_ended(void) {
    ADD(&main_steps, 1);
    holds_changed();
}

RL_INVISIBLE void rl_story_watch(intptr_t object, int alive) {
    for (int i = 0; i < RL_WATCHED; i++) {
        intptr_t expected = alive ? 0 : object;
        if (__atomic_compare_exchange_n(&watched[i], &expected, alive ? object : 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
    }
}

RL_INVISIBLE int64_t rl_story_held_now(void) { return LOAD(&held); }

RL_INVISIBLE int rl_story_end_strong_holds(void) {
    if (LOAD(&strong_held) == 0) return 0;
    STORE(&strong_ended_at, LOAD(&main_steps));
    holds_changed();
    return 1;
}

#if RL_LINUX_FACILITIES
// One held thread at a time, the watcher, looks at the main thread for all (three looks 100 us
// apart in an untimed wait: it may be joining a held thread) and wakes the others when it does.
// Its looks, a /proc read each, come closer after every change and spread out while nothing
// happens: ten thousand a second per child, while threads were held, were a tenth of the machine.
static int64_t main_watcher;  // the held thread that looks at the main thread (0: none)
// Times the watcher saw the main thread wait with no time limit (3 looks in a row): a hold ends
// when it changes after the hold began, so a hold that begins later needs looks of its own.
static int64_t main_waits_seen;

RL_INVISIBLE static void sleep_on_changes(uint32_t seen, long ns) {
    struct timespec limit = {0, ns};
    syscall(SYS_futex, &hold_changes, FUTEX_WAIT_PRIVATE, seen, &limit, NULL, 0);
}

/// Waits while `go_on` says so, the story is the same, and the main thread does not wait with no
/// time limit.
RL_INVISIBLE static void hold(int (*go_on)(int64_t), int64_t since) {
    int saved_errno = errno;  // it runs in the middle of lab code (a weak load), and futex sets it
    int64_t main_thread = (int64_t)getpid();  // the main thread's id is the process's
    int64_t self = rl_current_thread_id();
    int64_t in_story = LOAD(&story);
    int64_t waits_seen = LOAD(&main_waits_seen);
    int looks_in_wait = 0;
    long gap_ns = 50000;  // between the watcher's looks (doubled before the first)
    int64_t began = rl_spent_clock_ns();
    rl_quiet_story_held(1);  // waits for the story: the lab is quiet without it
    ADD(&held, 1);
    for (;;) {
        uint32_t seen = LOAD(&hold_changes);
        rl_memory_barrier();  // the load of `hold_changes` before those of what a hold waits for
        if (LOAD(&story) != in_story || !go_on(since) || LOAD(&main_waits_seen) != waits_seen) break;
        int64_t none = 0;
        if (LOAD(&main_watcher) != self && !__atomic_compare_exchange_n(&main_watcher, &none, self, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            sleep_on_changes(seen, 2000000);  // a change wakes it; the limit only guards a lost wake
            continue;
        }
        looks_in_wait = rl_thread_waits_untimed(main_thread) ? looks_in_wait + 1 : 0;
        if (looks_in_wait >= 3) {
            ADD(&main_waits_seen, 1);
            holds_changed();
            break;
        }
        // 100 us apart after a change (a user action, a story's step) and while the main thread
        // is seen waiting; farther apart, up to 400 us, while it goes on with its own work.
        gap_ns = looks_in_wait > 0 || LOAD(&hold_changes) != seen ? 100000 : gap_ns * 2 > 400000 ? 400000 : gap_ns * 2;
        sleep_on_changes(seen, gap_ns);
        if (LOAD(&hold_changes) != seen) gap_ns = 100000;
    }
    if (LOAD(&main_watcher) == self) {
        STORE(&main_watcher, 0);
        holds_changed();  // another held thread takes over the looks at once
    }
    ADD(&held, -1);
    rl_quiet_story_held(0);
    rl_spent_add(RL_SPENT_STORY_HOLDS, rl_spent_clock_ns() - began);
    errno = saved_errno;
}

RL_INVISIBLE static int story_goes_on(int64_t since) { (void)since; return LOAD(&end_armed); }

RL_INVISIBLE static int starts_late(int64_t since) { (void)since; return LOAD(&late_start); }

RL_INVISIBLE static int no_user_action_since(int64_t since) {
    return LOAD(&strong_armed) && LOAD(&main_steps) == since && LOAD(&strong_ended_at) != since;
}
#endif

RL_INVISIBLE void rl_story_end_hold_here(void) {
#if RL_LINUX_FACILITIES
    if (LOAD(&end_armed) && rl_quiet_is_lab_thread(0)) hold(story_goes_on, 0);
#endif
}

RL_INVISIBLE void rl_story_late_start_here(void) {
#if RL_LINUX_FACILITIES
    if (LOAD(&late_start) && rl_current_thread_id() != (int64_t)getpid() && rl_quiet_is_lab_thread(1)) {
        hold(starts_late, 0);
    }
#endif
}

// The Swift runtime's weak load, interposed (calls from the program's own code bind here; the
// runtime's is found next). Everything else is as the runtime does it.
#if RL_LINUX_FACILITIES
static void *(*runtime_weak_load_strong)(void *);

RL_INVISIBLE static int is_watched(intptr_t object) {
    for (int i = 0; i < RL_WATCHED; i++) {
        if (LOAD(&watched[i]) == object) return 1;
    }
    return 0;
}

RL_INVISIBLE static void after_strong_load(void *object) {
    if (object == NULL || !LOAD(&strong_armed) || !is_watched((intptr_t)object)) return;
    if (rl_current_thread_id() == (int64_t)getpid() || !rl_quiet_is_lab_thread(1)) return;
    int64_t steps = LOAD(&main_steps);
    if (LOAD(&strong_ended_at) == steps) return;  // a quiet look ended this step's holds
    ADD(&strong_held, 1);
    hold(no_user_action_since, steps);
    ADD(&strong_held, -1);
}

__attribute__((constructor)) RL_INVISIBLE static void find_runtime_weak_load(void) {
    runtime_weak_load_strong = (void *(*)(void *))dlsym(RTLD_NEXT, "swift_weakLoadStrong");
}

RL_INVISIBLE void *swift_weakLoadStrong(void *reference) {
    void *object = runtime_weak_load_strong(reference);
    after_strong_load(object);
    return object;
}
#endif
