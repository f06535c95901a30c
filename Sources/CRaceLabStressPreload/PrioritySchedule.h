// The priority schedule of `racelab stress` (PCT-style): one thread at a time between
// synchronisation points, the one of highest priority; priorities and the points where the
// running thread's priority drops are chosen by the seed. See PrioritySchedule.c.
#ifndef RL_PRIORITY_SCHEDULE_H
#define RL_PRIORITY_SCHEDULE_H
#include <stdint.h>

// Not instrumented at all (see StressPreload.c): it runs inside TSan's interceptors.
#define RL_QUIET __attribute__((disable_sanitizer_instrumentation, visibility("hidden")))
#define RL_EXPORTED __attribute__((disable_sanitizer_instrumentation, visibility("default")))

// splitmix64's finaliser: every seeded choice of the library.
RL_QUIET uint64_t rl_stress_mix(uint64_t x);

// Starts the schedule: `steps` is about how many points a run has (the change points are drawn
// from 1...steps), `changes` how many change points (0 to RL_SCHEDULE_MAX_CHANGES), `limit_ms`
// how long into the run it orders threads at most (then every thread runs freely).
enum { RL_SCHEDULE_MAX_CHANGES = 4, RL_SCHEDULE_MAX_THREADS = 256 };
RL_QUIET void rl_schedule_start(uint64_t seed, uint64_t steps, int changes, int64_t limit_ms);
// 1 while the schedule orders threads.
RL_QUIET int rl_schedule_active(void);
// A synchronisation point of thread `number` (0 the main thread, then in start order): it
// returns when this thread may run on.
RL_QUIET void rl_schedule_point(uint64_t number);
// The thread is about to block in a call (a lock held by another, a join) or to end: another
// may run meanwhile. Its next point waits for its turn again.
RL_QUIET void rl_schedule_leave(uint64_t number);
// Hand-overs so far (a thread other than the one that arrived was let run).
RL_QUIET uint64_t rl_schedule_switches(void);
// In a forked child (one thread left): the schedule stops there.
RL_QUIET void rl_schedule_forked(void);

#endif
