#ifndef CRACELAB_TRACE_H
#define CRACELAB_TRACE_H

#include <stdint.h>

// The interleaving timeline. Events go into a buffer the child maps from a file its parent
// created, so they survive a crash or a SIGKILL. Written from uninstrumented code with relaxed
// atomics only: recording adds no synchronisation between the lab's threads.

enum {
    RL_TRACE_CHECKPOINT = 0,  // a thread reached a checkpoint
    RL_TRACE_ACTION = 1,      // the scenario (the user) did something, on the main thread
    RL_TRACE_PAUSE = 2,       // scripted mode held a thread / let it go
    RL_TRACE_REPORT = 3,      // TSan printed a report on this thread (the later of the two accesses)
    RL_TRACE_FAILURE = 4,     // an invariant failed
    RL_TRACE_JOB = 5,         // the async pass chose a job (hit: its number in the story)
};

enum { RL_TRACE_TEXT = 64 };

typedef struct {
    int64_t at_ns;
    int64_t thread_id;
    int64_t hit;
    int32_t kind;
    int32_t is_main_thread;
    char text[RL_TRACE_TEXT];
} rl_trace_event;

typedef struct {
    uint64_t magic;      // RL_TRACE_MAGIC once attached
    int64_t capacity;    // events that fit after the header
    int64_t count;       // events written (may exceed capacity: the rest were dropped)
    int64_t iteration;   // the iteration the events belong to
    int64_t started_ns;  // when that iteration began
} rl_trace_header;

#define RL_TRACE_MAGIC 0x5241434554524331ULL  // "RACETRC1"

/// Start recording into `memory` (a header followed by room for events), `bytes` long.
void rl_trace_attach(void *memory, int64_t bytes);
/// Forget earlier events: a new iteration begins.
void rl_trace_begin_iteration(int64_t iteration);
/// Record an event for the calling thread (text is copied, cut to fit).
void rl_trace_note(int32_t kind, const char *text, int64_t hit);

#endif
