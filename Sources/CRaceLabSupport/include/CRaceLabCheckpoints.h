#ifndef CRACELAB_CHECKPOINTS_H
#define CRACELAB_CHECKPOINTS_H

#include <stddef.h>
#include <stdint.h>

// Checkpoints (Checkpoints.c). Part of CRaceLabSupport.h.

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

#endif
