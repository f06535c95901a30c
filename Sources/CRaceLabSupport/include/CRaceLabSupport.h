#ifndef CRACELAB_SUPPORT_H
#define CRACELAB_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

// The Linux facilities: stress preemption and holds, "quiet" asked of the kernel, the holds that
// wait for the story, the calls interposed in front of ThreadSanitizer's, the children's
// confinement. RL_NO_LINUX_FACILITIES builds without them on Linux too: the path a system
// without them takes (macOS), built and run by CI (scripts/check-reduced-build.sh).
#if defined(__linux__) && !defined(RL_NO_LINUX_FACILITIES)
#define RL_LINUX_FACILITIES 1
#else
#define RL_LINUX_FACILITIES 0
#endif

// Checkpoints: lab threads report where they are; the scenario driver can pause a thread at a
// named checkpoint (scripted mode). Everything here uses relaxed atomics in functions that TSan
// does not instrument, so the harness never creates a happens-before edge between lab threads:
// a race in the lab stays a race in TSan's eyes.

/// Forget all hits, release any paused thread, disarm. Called by the driver between iterations.
void rl_checkpoint_reset(void);

/// Record that the calling thread reached `name` (a NUL-terminated string that lives for the
/// whole process, e.g. a StaticString). Returns the 1-based hit count of that name.
/// If the driver armed this name and this hit, blocks until the driver releases it (or until
/// `pause_limit_ns` passes, so a forgotten pause cannot become a harness-made hang).
int64_t rl_checkpoint_hit(const char *name, int is_main_thread, int64_t pause_limit_ns);

/// Stress mode: from now on every hit sleeps a delay in [0, max_us) drawn from a hash of
/// (seed, checkpoint name, hit number); half of the hits do not sleep. max_us 0 turns it off.
void rl_checkpoint_set_jitter(uint64_t seed, int64_t max_us);

/// Driver side: make the `hit`-th arrival at `name` pause.
void rl_checkpoint_arm(const char *name, int64_t hit);
/// Driver side (exploration): make the `hit`-th arrival at any checkpoint, off the main thread,
/// counted from now, pause; for at most `limit_ns` unless released sooner.
/// `story_releases`: 1 when the story lets it go (`rl_checkpoint_release`), 0 for a timed hold the
/// story goes on beside.
void rl_checkpoint_arm_any(int64_t hit, int64_t limit_ns, int story_releases);
/// Arrivals at any checkpoint off the main thread since the last reset.
int64_t rl_checkpoint_worker_hits(void);
/// Stress mode: `permille` of the hits off the main thread are held for 1 to `max_us` (0: off).
void rl_checkpoint_set_holds(int64_t permille, int64_t max_us);
/// 1 once the armed checkpoint was reached (and the thread is waiting), else 0.
int rl_checkpoint_armed_reached(void);
/// Let the paused thread go on; disarm.
void rl_checkpoint_release(void);

/// How many checkpoint hits so far in this process (a progress counter for the watchdog).
int64_t rl_checkpoint_activity(void);
/// Monotonic time (ns) of the most recent checkpoint hit, 0 if none since reset.
int64_t rl_checkpoint_last_activity_ns(void);
/// Hits of one name since the last reset.
int64_t rl_checkpoint_hits(const char *name);

/// Where each thread was last seen. Fills up to `capacity` entries; returns how many.
typedef struct {
    int64_t thread_id;
    int is_main_thread;
    const char *checkpoint;
    int64_t hits;
    int64_t at_ns;
} rl_thread_position;
int rl_thread_positions(rl_thread_position *out, int capacity);

/// The kernel thread id of the caller.
int64_t rl_current_thread_id(void);

/// Monotonic clock in nanoseconds.
int64_t rl_monotonic_ns(void);
/// On the main thread: wait up to `nanoseconds`, less if work is sent to the main queue meanwhile
/// (MainQueueWait.c); 1 if it was, 0 otherwise. Where that cannot be seen, a plain sleep.
int rl_main_queue_wait(int64_t nanoseconds);

// Random preemption (stress pass, Preemption.c): while on, a background thread signals a
// random running lab thread (one seen at a checkpoint off the main thread lately) every 1 to
// `interval_us` microseconds (polling less often while none runs), and the signalled thread
// sleeps 1 to `sleep_us` microseconds at its next synchronisation point.
// Returns 0 when started (Linux only), -1 otherwise.
int rl_preemption_start(uint64_t seed, int64_t interval_us, int64_t sleep_us);
void rl_preemption_stop(void);
/// CPU a signalled thread may use getting back into the call it was blocked in before it counts
/// as running again (default 50 us). Tests set 0: what a loaded machine can cost.
void rl_preemption_set_return_allowance_ns(int64_t ns);
/// Called at each checkpoint hit off the main thread: the thread is one to preempt.
void rl_preemption_note_thread(int64_t tid);
/// Called at every checkpoint hit: a sender dozing while no lab thread ran wakes up.
void rl_preemption_wake(void);
/// A hold (stress pass only): one thread stopped at a synchronisation point until
/// rl_hold_release, or its limit passed.
void rl_hold_release(void);
/// A self-hold: this thread stops at its (skip+1)-th synchronisation point from here (counted
/// exactly), for at most `at_most_ns`, or until thread `asker` (0: none) is seen blocked.
/// 0 if no hold can be made (outside the stress pass). rl_hold_disarm_self takes back a hold
/// not reached yet; the asker waits with rl_hold_wait_held (1: held now; 0: not within
/// `within_ns`, or the armed thread waits for 1 ms, or is gone), and rl_hold_cancel takes back
/// one that was never reached, from any thread. `round`: rl_hold_round() when the asker asked;
/// once it ended the round (rl_hold_end_round: takes back a hold not reached, and refuses any
/// armed for it later), the hold is not made.
int rl_hold_arm_self(int64_t skip, int64_t at_most_ns, int64_t asker, int64_t round);
int64_t rl_hold_round(void);
void rl_hold_end_round(void);
/// A hold at the hand-over: this thread is held (for at most `at_most_ns`) as it next sends work
/// to the main queue, or a thread it starts, or a block it sends to another queue, first is, as
/// that one does (LabCallInterposers.c calls rl_hold_at_hand_over there).
int rl_hold_arm_at_hand_over(int64_t at_most_ns);
void rl_hold_at_hand_over(void);
void rl_hold_cancel(void);
/// For LabCallInterposers.c: 1 if this thread has a hold at the hand-over coming; a thread it
/// starts, or a block it sends to a queue other than main, takes it over (rl_hold_take_over,
/// first thing), and rl_hold_at_hand_over holds it as it sends work to the main queue.
int rl_hold_waits_for_hand_over(void);
void rl_hold_take_over(void);
void rl_hold_disarm_self(void);
int rl_hold_wait_held(int64_t within_ns);
/// After a blocking call returned (BlockingCallHook.c): a self-hold's next signal, left for later
/// because TSan handles pending signals in a loop on entering the call, is sent now.
void rl_hold_after_blocking_call(void);
/// 1 while a thread is held.
int rl_hold_is_holding(void);
/// Whether a thread waits for real (a lock, a turn), not just passing through the kernel: start
/// with {0} and look now and then. 1 once thread `tid` waited in the kernel for something other
/// than time (not a sleep: the stress pass's own sleeps do not count) at every look for
/// `for_ns`; -1 if it is gone; else 0.
typedef struct { int64_t since; } rl_blocked_watch;
int rl_blocked_watch_look(rl_blocked_watch *watch, int64_t tid, int64_t for_ns);
/// Signals sent, and handled (the thread slept), since the process began.
int64_t rl_preemption_signals_sent(void);
int64_t rl_preemption_signals_handled(void);

// Quiet (Quiescence.c): whether the lab still has work in hand, asked of its threads and queues.

/// For LabCallInterposers.c: work sent to a queue (`counted`: to the main queue, or after a
/// delay), begun and run to its end (on the thread that runs it); a thread being created,
/// its creation failed, and the new thread running (1: a dispatch pool or manager thread).
/// (rl_quiet_work_queued returns the story it was sent in, for rl_quiet_work_began.)
int64_t rl_quiet_work_queued(int counted);
void rl_quiet_work_began(int counted, int64_t sent_in_story);
/// A scenario run begins: work sent before it (a test runner's own, say) is not its work.
void rl_quiet_begin_story(void);
void rl_quiet_work_ended(void);
/// (rl_quiet_thread_starting: 0 when more threads than the limit would be alive; the creation is
/// then refused, or the run ends saying so: rl_thread_limit_set.)
int rl_quiet_thread_starting(void);
/// Threads alive at once in one lab child, at most: far above any fix's, far below what would
/// take the process ids other students' runs and the grader need.
#define RL_LAB_THREAD_LIMIT 256
/// The limit on threads alive at once in this process (512 unless set), and whether going past
/// it ends the process (a lab child: a clear reason now, not a hang later) or only refuses the
/// creation (EAGAIN: a user's test program). Set once, before any lab code runs.
void rl_thread_limit_set(int limit, int ends_process);
int rl_thread_limit(void);
int rl_thread_limit_ends_process(void);
void rl_quiet_thread_not_started(void);
void rl_quiet_thread_began(int is_pool);
/// A thread of the harness (heartbeats, preemption, hold watchers) says so: it is left out.
void rl_quiet_ignore_this_thread(void);
/// The CPUs this process tells Dispatch and Foundation it has (RACELAB_LAB_CPUS, LabCPUs.c); 0:
/// the machine's own count.
int rl_lab_cpus(void);
/// The CPUs this process may run on (its affinity: `taskset`, a cpuset), at least 1.
int rl_usable_cpus(void);
/// 1 when blocks sent to `queue` wait for Dispatch's pool (a global or concurrent queue the lab
/// made; QueueKinds.c), 0 otherwise or where the calls that make queues are not interposed.
int rl_queue_waits_for_pool(void *queue);
/// A barrier sent to `queue` (1: the queue is one that waits for the pool, and the barrier's end
/// must be told with rl_queue_barrier_ended), and its end.
int rl_queue_barrier_sent(void *queue);
void rl_queue_barrier_ended(void *queue);
/// 1: this thread is paused at a scripted checkpoint, waiting for the story (left out meanwhile,
/// so the story can wait for the rest of the lab to go quiet); 0: it goes on.
void rl_quiet_paused(int paused);
/// This thread is in a hold that waits for the story (StoryHolds.c): left out like a pause, but
/// not let go of when a checkpoint's pause is.
void rl_quiet_story_held(int held);
/// The story let every paused thread go (rl_checkpoint_release): busy again from this moment,
/// before they notice.
void rl_quiet_unpause_all(void);
/// 1: this thread is held by the harness (a preemption, a hold): busy, whatever it waits on.
void rl_quiet_held(int held);
/// 1 while some thread of the lab is paused at a scripted checkpoint (it may hold a lab's lock).
int rl_quiet_any_paused(void);
/// 1 when no work waits for the main queue or a delay and every thread started (harness threads aside, a
/// dispatch pool thread only while it runs a block, a thread paused at a scripted checkpoint
/// aside) has ended or waits with no time limit; else 0, and `busy` says why: a busy thread's
/// kernel id, -1 for waiting work, -2 for a thread being created. `flags`: RL_QUIET_THREADS_ONLY,
/// the threads alone (work waiting for the main queue, which a busy main thread does not run, is
/// left out); RL_QUIET_BUT_HELD, a thread held by the harness left out too (what the others do
/// meanwhile has ended).
#define RL_QUIET_THREADS_ONLY 1
#define RL_QUIET_BUT_HELD 2
int rl_quiet_look(int64_t *busy, int flags);
/// A small /proc/self/task/TID/NAME file of one of this process's threads into `text`
/// (NUL-terminated), with raw system calls (no interceptor); its length, or -1.
long rl_read_task_file(int64_t tid, const char *name, char *text, long size);
/// Thread `tid` of this process: nanoseconds it ran on a CPU and waited on a run queue for one,
/// since it began (/proc/self/task/TID/schedstat, raw system calls). 0, or -1 where not known.
int rl_thread_times(int64_t tid, int64_t *ran_ns, int64_t *waited_ns);
/// `rl_thread_times` and `rl_thread_turns` from one read of the kernel's statistics.
int rl_thread_schedstat(int64_t tid, int64_t *ran_ns, int64_t *waited_ns, int64_t *turns);
/// How many times thread `tid` of this process has been given a CPU since it began (schedstat's
/// third field): a thread waiting for the lab gets none; one that wakes itself gets one a wake.
/// -1 once it ended, or where not known.
int64_t rl_thread_turns(int64_t tid);
/// Thread `tid`'s state letter from the kernel ('S' asleep, waiting; 'R' running or runnable;
/// 'D'...); 0 if it is gone (or where there is no /proc).
char rl_task_state_letter(int64_t tid);
/// Every thread of this process: its id and the nanoseconds it has waited on a run queue for a
/// CPU, at most `capacity` of them (ThreadFacts.c, raw system calls); how many, or -1 where not known.
int rl_process_cpu_waits(int64_t *tids, int64_t *waits, int capacity);
/// Work sent to the main queue, or after a delay, not yet begun.
int64_t rl_quiet_queued_work(void);
/// 1 on a thread the lab started (not the harness's own; a dispatch pool thread only if `pool`).
int rl_quiet_is_lab_thread(int pool);
/// 1 when thread `tid` of this process waits with no time limit on a futex (a lock, a join, a
/// semaphore, a condition: something only another thread can give it); 0 when it runs, sleeps,
/// waits with a time limit or in a run loop, or is gone.
int rl_thread_waits_untimed(int64_t tid);

/// Holds that wait for the story (StoryHolds.c), in the explore and stress passes: as a story
/// begins, rl_story_holds_begin(end hold, strong-reference hold); once it is over and the main
/// thread let go of its objects, rl_story_holds_over. The end hold: each thread the lab started
/// waits as its start routine returns (rl_story_end_hold_here) until the story is over. The
/// strong-reference hold: a lab thread that loads a strong reference to a watched controller
/// (rl_story_watch, from its init and deinit) from a weak one waits until the main thread's next
/// user action ended (rl_story_user_action_ended). Both end when the main thread waits with no
/// time limit; rl_story_end_strong_holds (a quiet look) ends the strong ones, 1 if there were any.
void rl_story_holds_begin(int end_hold, int strong_hold);
void rl_story_holds_over(void);
void rl_story_user_action_ended(void);
void rl_story_watch(intptr_t object, int alive);
void rl_story_end_hold_here(void);
/// 1 while the end hold is armed (a story of the explore or stress pass runs).
int rl_story_end_hold_armed(void);
/// The releases of blocks that ran off the main thread during the story, deferred until it is
/// over (LabCallInterposers.c): handed to the harness's releaser thread now (rl_story_holds_over
/// calls it).
void rl_release_deferred_blocks(void);
int rl_story_end_strong_holds(void);
/// Threads in any hold right now.
int64_t rl_story_held_now(void);
/// The late start (any pass): while armed, work sent to a queue other than main waits before it
/// begins (rl_story_late_start_here, on its pool thread) until disarmed, the story is over, or
/// the main thread waits with no time limit (it may wait for that work).
void rl_story_late_start(int armed);
void rl_story_late_start_here(void);

// Where a story's time goes (SpentTime.c, for `racelab run --profile`): each of the harness's
// looks, waits, holds and sleeps adds its length here as it ends (a relaxed add), always.

typedef enum {
    RL_SPENT_QUIET_LOOKS,        // the main thread, in rl_quiet_look
    RL_SPENT_STORY_WAITS,        // the main thread, in a story's outermost wait, its quiet looks left out
    RL_SPENT_STORY_HOLDS,        // lab threads, in StoryHolds.c's holds (end, strong reference, late start)
    RL_SPENT_THREAD_HOLDS,       // lab threads, held by a ThreadHold (Preemption.c)
    RL_SPENT_CHECKPOINT_PAUSES,  // lab threads, paused at an armed checkpoint
    RL_SPENT_CHECKPOINT_SLEEPS,  // lab threads, asleep at a checkpoint (the stress pass's delays)
    RL_SPENT_PREEMPTION_SLEEPS,  // lab threads, asleep in the preemption's signal handler
    RL_SPENT_KINDS
} rl_spent_kind;

/// `ns` more spent on `kind` (once more). Safe in a signal handler.
void rl_spent_add(rl_spent_kind kind, int64_t ns);
/// The clock for what lab threads spend: a raw system call, no call TSan intercepts.
int64_t rl_spent_clock_ns(void);
/// Nanoseconds spent on `kind` since the process began, and how many times.
int64_t rl_spent_ns(rl_spent_kind kind);
int64_t rl_spent_times(rl_spent_kind kind);
/// 1 on the process's main thread.
int rl_on_main_thread(void);
/// A story's wait on the main thread: the mark its start returns is handed to its end, which adds
/// its length less the quiet looks inside it (counted as such). Off the main thread: nothing.
int64_t rl_spent_wait_began(void);
void rl_spent_wait_ended(int64_t mark);

// ThreadSanitizer.

/// 1 when this process runs with the TSan runtime linked in.
int rl_tsan_enabled(void);
/// How many reports TSan has printed in this process (counted by __tsan_on_report).
int64_t rl_tsan_report_count(void);
/// Between these, this thread's memory accesses and synchronisation are not seen by TSan: the
/// harness acts on the lab's objects without ordering itself after the lab's threads or them
/// after it (no-ops without TSan, and off Linux).
void rl_tsan_unseen_begin(void);
void rl_tsan_unseen_end(void);

// Synchronization.Mutex made visible to TSan (MutexVisibility.c / .S): 1 when the library's
// three slow paths were found behind the trampolines, 0 on a toolchain without them.
int rl_mutex_visibility_installed(void);

// Hashing.

/// SHA-256's block function over `blocks` 64-byte blocks at `data` (SHA256.swift does the rest).
void rl_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

// Process hygiene.

/// Ask the kernel to SIGKILL this process when its parent dies (Linux); no-op elsewhere.
/// Returns 0 on success.
int rl_die_with_parent(void);

/// A race test's child under Swift Testing (RACELAB_LEND_MAIN_THREAD=1, Linux): runs `work` on the
/// program's main thread, which dispatch_main lends (MainThreadLoan.c), and returns once it has
/// run; -1 at once if no main thread is lent (another process), or after `wait_seconds` if it
/// never parks.
int rl_main_loan_run(void (*work)(void *), void *context, double wait_seconds);

#include "CRaceLabTrace.h"
#include "CRaceLabSpawn.h"
#include "CRaceLabConfinement.h"

#endif
