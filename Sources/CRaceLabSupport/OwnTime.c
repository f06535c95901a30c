#define _GNU_SOURCE
#include "CRaceLabSupport.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "Invisible.h"
#include "OwnTime.h"
#include "ThreadFacts.h"

#include <time.h>

// Layer 1 (the harness's clocks, accounts and the thread table): calls only lower layers (CLayersTests).

// Time limits on one thread's own time, for the holds and pauses (what they mean: OwnTime.h).

RL_INVISIBLE static int64_t now_ns(void) {
#if RL_LINUX_FACILITIES
    struct timespec now;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &now);  // raw: this may run in a signal handler
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
#else
    return rl_monotonic_ns();
#endif
}

RL_INVISIBLE void rl_own_deadline_start(rl_own_deadline *deadline, int64_t thread, int64_t limit_ns) {
    int64_t ran, waited;
    deadline->thread = thread;
    deadline->until_ns = now_ns() + limit_ns;
    deadline->waited_at_start = rl_thread_times(thread, &ran, &waited) == 0 ? waited : -1;
    deadline->moved_on_by = 0;
}

/// Moves the end on by the waits the kernel has counted since the last look (it counts one as it
/// ends); 0 if it cannot tell.
RL_INVISIBLE static int count_waits(rl_own_deadline *deadline) {
    int64_t ran, waited;
    if (rl_thread_times(deadline->thread, &ran, &waited) != 0) return 0;
    int64_t since_start = waited - deadline->waited_at_start;
    if (since_start > deadline->moved_on_by) {
        deadline->until_ns += since_start - deadline->moved_on_by;
        deadline->moved_on_by = since_start;
    }
    return 1;
}

RL_INVISIBLE int rl_own_deadline_passed(rl_own_deadline *deadline) {
    // Judged at `at`: the kernel counts a wait on a run queue only as it ends, so a wait under
    // way at `at` is counted once the thread has been seen asleep or running after `at`; then
    // `at` itself is compared with the end, never the later time of the answer (the thread
    // may wait for a CPU again meanwhile, and that time is not its own).
    int64_t at = now_ns();
    if (at < deadline->until_ns) return 0;
    if (deadline->waited_at_start < 0 || !count_waits(deadline)) return 1;
    if (at < deadline->until_ns) return 0;
    char state = rl_task_state_letter(deadline->thread);
    if (state == 0) return 1;  // gone
    if (state != 'R') {  // asleep: not on a run queue, so every wait under way at `at` has ended
        count_waits(deadline);
        return at >= deadline->until_ns;
    }
    // Runnable: running, or waiting for a CPU now. Its CPU clock moves only if it runs.
    int64_t before = rl_thread_cpu_ns(deadline->thread);
#if RL_LINUX_FACILITIES
    struct timespec look = {0, 100000};
    syscall(SYS_nanosleep, &look, NULL);  // raw: TSan's interceptor would model the sleep
#endif
    int64_t after = rl_thread_cpu_ns(deadline->thread);
    if (before < 0) return 1;
    if (after == before) return 0;
    count_waits(deadline);  // it ran after `at`: a wait under way then has ended, counted now
    return at >= deadline->until_ns;
}
