#ifndef CRACELAB_HOLDS_H
#define CRACELAB_HOLDS_H

#include <stddef.h>
#include <stdint.h>

// Preemption and holds (Preemption.c). Part of CRaceLabSupport.h.

// Random preemption (stress pass, Preemption.c): while on, a background thread signals a
// random running lab thread (one seen at a checkpoint off the main thread lately) every 1 to
// `interval_us` microseconds (polling less often while none runs), and the signalled thread
// sleeps 1 to `sleep_us` microseconds at its next synchronisation point.
// Returns 0 when started (Linux only), -1 otherwise.
int rl_preemption_start(uint64_t seed, int64_t interval_us, int64_t sleep_us);
void rl_preemption_stop(void);

/// Priority order (PCT-style) for one stress story (PriorityOrder.c), instead of random
/// preemption: each lab thread a seeded priority; the sender lets the highest running one go on
/// and signals the others, which wait in the handler while it runs (it blocks, or 3 ms pass);
/// 1 to 3 change points, drawn by `seed` among the first `horizon` looks with threads competing,
/// drop the first one below all, as does keeping the others waiting 20 ms. The n-th thread seen
/// gets the n-th priority drawn from the seed. Seed 0: off (random preemption again). Rounds:
/// the looks with threads competing since it began (the next story's horizon); changes: the
/// demotions made (change points and threads that kept the others waiting).
void rl_priority_order_begin(uint64_t seed, int64_t horizon);
int rl_priority_order_on(void);
int64_t rl_priority_order_rounds(void);
int64_t rl_priority_order_changes(void);
/// For Preemption.c's sender, at each look (and its tests): of the candidates `tids` (threads
/// that ran since the last look, and those waiting for their turn), in ring slots `slots`
/// (below 32), the one to go first, after the change point or demotion this look brings; 0 when
/// the order is off or there is none. A new thread in a slot gets the next priority drawn.
int64_t rl_priority_order_choose(const int *slots, const int64_t *tids, int count, int64_t now_ns);
/// The thread chosen at the last look (0: none, or the order is off).
int64_t rl_priority_order_first(void);

/// CPU a signalled thread may use getting back into the call it was blocked in before it counts
/// as running again (default 50 us). Tests set 0: what a loaded machine can cost.
void rl_preemption_set_return_allowance_ns(int64_t ns);

/// Called at each checkpoint hit off the main thread: the thread is one to preempt.
void rl_preemption_note_thread(int64_t tid);

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
void rl_hold_disarm_self(void);
int rl_hold_wait_held(int64_t within_ns);

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

#endif
