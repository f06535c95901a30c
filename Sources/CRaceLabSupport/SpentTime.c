#include "CRaceLabSupport.h"

#include <pthread.h>
#include <time.h>
#if RL_LINUX_FACILITIES
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "Invisible.h"
#include "SpentTime.h"
#include "ThreadFacts.h"

// Layer 1 (the harness's clocks, accounts and the thread table): calls only lower layers (CLayersTests).

// Where a story's time goes, for `racelab run --profile`: the harness's own looks, waits, holds
// and sleeps each add their length here as they end. Always on: one relaxed add (and two clock
// reads) beside work that takes microseconds at the least (a /proc read, a sleep, a hold), and
// invisible to TSan like the rest of the C layer. The child sends the figures in its result.

static int64_t spent_ns[RL_SPENT_KINDS];

/// The clock for what lab threads spend (sleeps, pauses, holds): the raw system call, so that
/// timing one adds no call TSan intercepts (each such call is a point where a preemption signal
/// is delivered: a new one would move where ThreadHold's counted points and preemptions land).
RL_INVISIBLE int64_t rl_spent_clock_ns(void) {
    struct timespec now;
#if RL_LINUX_FACILITIES
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &now);
#else
    clock_gettime(CLOCK_MONOTONIC, &now);
#endif
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}
static int64_t spent_times[RL_SPENT_KINDS];

RL_INVISIBLE void rl_spent_add(rl_spent_kind kind, int64_t ns) {
    if ((unsigned)kind >= RL_SPENT_KINDS || ns < 0) return;
    ADD(&spent_ns[kind], ns);
    ADD(&spent_times[kind], 1);
}

RL_INVISIBLE int64_t rl_spent_ns(rl_spent_kind kind) {
    return (unsigned)kind < RL_SPENT_KINDS ? LOAD(&spent_ns[kind]) : 0;
}

RL_INVISIBLE int64_t rl_spent_times(rl_spent_kind kind) {
    return (unsigned)kind < RL_SPENT_KINDS ? LOAD(&spent_times[kind]) : 0;
}


// The mark is the start less the quiet looks so far, so that the end, doing the same sum, adds
// the wait's length less the looks made inside it: a quiet look is counted once, as a look.
#define RL_NOT_COUNTED INT64_MIN

RL_INVISIBLE int64_t rl_spent_wait_began(void) {
    if (!rl_on_main_thread()) return RL_NOT_COUNTED;
    return rl_monotonic_ns() - LOAD(&spent_ns[RL_SPENT_QUIET_LOOKS]);
}

RL_INVISIBLE void rl_spent_wait_ended(int64_t mark) {
    if (mark == RL_NOT_COUNTED) return;
    rl_spent_add(RL_SPENT_STORY_WAITS, rl_monotonic_ns() - LOAD(&spent_ns[RL_SPENT_QUIET_LOOKS]) - mark);
}
