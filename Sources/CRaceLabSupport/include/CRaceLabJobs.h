#ifndef CRACELAB_JOBS_H
#define CRACELAB_JOBS_H

#include <stdint.h>

// The async pass's job scheduler (JobScheduler.c): Swift concurrency's global executor taken
// over through the runtime's enqueue hooks, so that RaceLab, not the thread pool, chooses which
// job runs next. Part of CRaceLabSupport.h.

/// How the next job is chosen among the ready ones.
enum {
    RL_JOBS_FIFO = 0,     // the oldest first (the survey)
    RL_JOBS_ONE_MOVE = 1, // the oldest first, except at one choice: another of the ready jobs
    RL_JOBS_PCT = 2,      // each task a seeded priority, lowered at seeded change points
};

/// Takes over the global executor (once per process): 0 when it is, -1 where the runtime has
/// no hooks or this system lacks the facilities. Jobs run one at a time from then on, each on
/// the next of a few worker threads, handed over where ThreadSanitizer sees no synchronisation.
int rl_jobs_install(void);

/// A story begins: its jobs are chosen by `policy` (`choice` and `alternative`: which choice of
/// two or more ready jobs, counted from 0, takes which other job; `depth` and `horizon`: PCT's
/// change points, depth - 1 of them among the first `horizon` choices), seeded by `seed`.
/// Choices wait until the story waits and the lab's threads are quiet: the ready jobs are then
/// the same in every run of the same seed. Jobs left from before (a task that outlived its
/// story) run first, in the order they came, up to 100 ms: they are none of its choices.
void rl_jobs_begin_story(uint64_t seed, int policy, int64_t choice, int64_t alternative, int depth, int64_t horizon);

/// The story ended: jobs left run in the order they came, without waiting for quiet. After it
/// returns, no choice is counted: the story's figures below can be read.
void rl_jobs_end_story(void);

/// 1 while a story's jobs are chosen here (between rl_jobs_begin_story and rl_jobs_end_story).
int rl_jobs_in_story(void);

/// The story enters (+1) or leaves (-1) one of its waits: only then may jobs be chosen.
void rl_jobs_story_waits(int delta);

/// What the story's choices were: how many chose among two or more ready jobs, how many were
/// ready at the `index`-th of those (the first 256), how many jobs ran, and a digest of the order
/// (the same order, the same digest). `unsettled`: choices made without quiet, after waiting
/// 200 ms for it; `parked`: jobs that blocked, so the next began beside them.
int64_t rl_jobs_choices(void);
int64_t rl_jobs_choice_size(int64_t index);
int64_t rl_jobs_ran(void);
uint64_t rl_jobs_digest(void);
int64_t rl_jobs_unsettled(void);
int64_t rl_jobs_parked(void);
/// Jobs that ran between the story before and this one's start (left from before).
int64_t rl_jobs_drained(void);

#endif
