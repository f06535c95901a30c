#include "CRaceLabSupport.h"
#include "CRaceLabTrace.h"

#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#else
#include <pthread.h>
#endif

// No TSan instrumentation for plain accesses here, and only relaxed atomics (Invisible.h).
#include "Invisible.h"
#include "OwnTime.h"
#include "Preemption.h"
#include "SpentTime.h"
#include "ThreadTable.h"

// Layer 3 (checkpoints and the deferred releases): calls only lower layers (CLayersTests).

enum { RL_MAX_NAMES = 128, RL_MAX_THREADS = 256 };

typedef struct {
    const char *name;
    int64_t hits;
} rl_name_slot;

static rl_name_slot names[RL_MAX_NAMES];
static rl_thread_position threads[RL_MAX_THREADS];
static int64_t activity;
static int64_t last_activity_ns;

// Arming: 0 idle, 1 armed, 2 reached (thread waiting), 3 released.
static const char *armed_name;
static int64_t armed_hit;
static int arm_state;
static int64_t arm_generation;
// Armed for "any": the thread making the armed_hit-th hit off the main thread since arming.
static int armed_any;
static int64_t any_hits;
static int64_t any_limit_ns;
static int any_released_by_story;  // 0: a timed hold the story goes on beside (it ends by itself)
// Hits off the main thread since the iteration began (exploration counts with it).
static int64_t worker_hits;

static uint64_t jitter_seed;
static int64_t jitter_max_us;
// Stress mode: this many hits in 1000 off the main thread are held for up to hold_max_us.
static int64_t hold_permille;
static int64_t hold_max_us;



RL_INVISIBLE static int same_name(const char *a, const char *b) {
    return a == b || (a && b && strcmp(a, b) == 0);
}

RL_INVISIBLE static rl_name_slot *slot_for(const char *name, int create) {
    for (int i = 0; i < RL_MAX_NAMES; i++) {
        const char *existing = LOAD(&names[i].name);
        if (existing == NULL) {
            if (!create) return NULL;
            const char *expected = NULL;
            if (__atomic_compare_exchange_n(&names[i].name, &expected, name, 0, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED)) {
                return &names[i];
            }
            existing = expected;
        }
        if (same_name(existing, name)) return &names[i];
    }
    return NULL;
}

RL_INVISIBLE static void note_position(const char *name, int is_main, int64_t hits, int64_t now) {
    int64_t tid = rl_current_thread_id();
    for (int i = 0; i < RL_MAX_THREADS; i++) {
        int64_t owner = LOAD(&threads[i].thread_id);
        if (owner == 0) {
            int64_t expected = 0;
            if (!__atomic_compare_exchange_n(&threads[i].thread_id, &expected, tid, 0,
                                             __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
                owner = expected;
            } else {
                owner = tid;
            }
        }
        if (owner == tid) {
            STORE(&threads[i].is_main_thread, is_main);
            STORE(&threads[i].checkpoint, name);
            STORE(&threads[i].hits, hits);
            STORE(&threads[i].at_ns, now);
            return;
        }
    }
}

RL_INVISIBLE static uint64_t name_hash(const char *name) {
    uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
    for (const char *p = name; p && *p; p++) h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
    return h;
}

RL_INVISIBLE void rl_checkpoint_set_jitter(uint64_t seed, int64_t max_us) {
    STORE(&jitter_seed, seed);
    STORE(&jitter_max_us, max_us);
}

RL_INVISIBLE void rl_checkpoint_set_holds(int64_t permille, int64_t max_us) {
    STORE(&hold_permille, permille);
    STORE(&hold_max_us, max_us);
}

RL_INVISIBLE static void jitter(const char *name, int64_t hit, int is_main_thread) {
    int64_t max_us = LOAD(&jitter_max_us);
    if (max_us <= 0) return;
    uint64_t draw = rl_mix64(LOAD(&jitter_seed) ^ rl_mix64(name_hash(name) + (uint64_t)hit * 0x9E3779B97F4A7C15ULL));
    // Now and then a worker is held much longer: a preemption at a random point, so a window
    // that a near-fix only narrows still opens now and then.
    int64_t permille = LOAD(&hold_permille), hold_us = LOAD(&hold_max_us);
    if (!is_main_thread && permille > 0 && hold_us > 0 && (int64_t)(rl_mix64(draw) % 1000) < permille) {
        int64_t us = 1 + (int64_t)(rl_mix64(draw ^ 0x5DEECE66DULL) % (uint64_t)hold_us);
        struct timespec hold = {us / 1000000, (us % 1000000) * 1000};
        int64_t began = rl_spent_clock_ns();
        nanosleep(&hold, NULL);
        rl_spent_add(RL_SPENT_CHECKPOINT_SLEEPS, rl_spent_clock_ns() - began);
        return;
    }
    if (draw & 1) return;  // bursts of fast steps interleave differently from slow ones
    int64_t us = (int64_t)((draw >> 1) % (uint64_t)max_us);
    struct timespec nap = {us / 1000000, (us % 1000000) * 1000};
    int64_t began = rl_spent_clock_ns();
    nanosleep(&nap, NULL);
    rl_spent_add(RL_SPENT_CHECKPOINT_SLEEPS, rl_spent_clock_ns() - began);
}

RL_INVISIBLE void rl_checkpoint_reset(void) {
    STORE(&arm_state, 3);  // free anyone still paused from the last iteration
    ADD(&arm_generation, 1);
    rl_quiet_unpause_all();
    for (int i = 0; i < RL_MAX_NAMES; i++) STORE(&names[i].hits, 0);
    STORE(&last_activity_ns, 0);
    STORE(&armed_name, (const char *)NULL);
    STORE(&armed_hit, 0);
    STORE(&armed_any, 0);
    STORE(&any_hits, 0);
    STORE(&worker_hits, 0);
    STORE(&arm_state, 0);
}

/// The main thread's id (0 where unknown: plain time then).
RL_INVISIBLE static int64_t main_thread_id(void) {
#if defined(__linux__)
    return (int64_t)getpid();  // its id is the process's
#else
    return 0;
#endif
}

RL_INVISIBLE int64_t rl_checkpoint_hit(const char *name, int is_main_thread, int64_t pause_limit_ns) {
    rl_name_slot *slot = slot_for(name, 1);
    int64_t hit = slot ? ADD(&slot->hits, 1) : 0;
    int64_t now = rl_monotonic_ns();
    ADD(&activity, 1);
    STORE(&last_activity_ns, now);
    note_position(name, is_main_thread, hit, now);
    rl_trace_note(RL_TRACE_CHECKPOINT, name, hit);
    rl_preemption_wake();
    int reached = 0;
    if (!is_main_thread) {
        ADD(&worker_hits, 1);
        rl_preemption_note_thread(rl_current_thread_id());
        if (LOAD(&arm_state) == 1 && LOAD(&armed_any)) reached = ADD(&any_hits, 1) == LOAD(&armed_hit);
    }
    if (!LOAD(&armed_any)) {
        reached = LOAD(&arm_state) == 1 && LOAD(&armed_hit) == hit && same_name(LOAD(&armed_name), name);
    }

    if (reached) {
        int64_t generation = LOAD(&arm_generation);
        int expected = 1;
        if (__atomic_compare_exchange_n(&arm_state, &expected, 2, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            rl_trace_note(RL_TRACE_PAUSE, "held here", hit);
            struct timespec nap = {0, 100000};  // 100 us
            // An exploration pause may land where a correct variant keeps the driver waiting for
            // this very thread: it ends by itself after a second.
            int64_t any_limit = LOAD(&any_limit_ns);
            int64_t limit = LOAD(&armed_any) && pause_limit_ns > any_limit ? any_limit : pause_limit_ns;
            // A pause the story releases waits for the story: the rest of the lab may be quiet
            // meanwhile. A timed hold ends by itself, and its thread then goes on: busy.
            int waits_for_story = !LOAD(&armed_any) || LOAD(&any_released_by_story);
            if (waits_for_story) rl_quiet_paused(1);
            // The limit is on the main thread's own time: a busy machine that keeps it waiting
            // for a CPU moves the end on by as long, so the main thread gets its moment to act
            // however loaded the machine is.
            rl_own_deadline main_thread_time;
            rl_own_deadline_start(&main_thread_time, main_thread_id(), limit);
            int64_t began = rl_spent_clock_ns();
            while (LOAD(&arm_state) == 2 && LOAD(&arm_generation) == generation &&
                   !rl_own_deadline_passed(&main_thread_time)) {
                nanosleep(&nap, NULL);
            }
            rl_spent_add(RL_SPENT_CHECKPOINT_PAUSES, rl_spent_clock_ns() - began);
            if (waits_for_story) rl_quiet_paused(0);
            rl_trace_note(RL_TRACE_PAUSE, "goes on", hit);
        }
    }
    jitter(name, hit, is_main_thread);
    return hit;
}

RL_INVISIBLE void rl_checkpoint_arm(const char *name, int64_t hit) {
    STORE(&armed_any, 0);
    STORE(&armed_name, name);
    STORE(&armed_hit, hit);
    STORE(&arm_state, 1);
}

RL_INVISIBLE void rl_checkpoint_arm_any(int64_t hit, int64_t limit_ns, int story_releases) {
    STORE(&any_released_by_story, story_releases);
    STORE(&any_hits, 0);
    STORE(&any_limit_ns, limit_ns);
    STORE(&armed_name, (const char *)NULL);
    STORE(&armed_hit, hit);
    STORE(&armed_any, 1);
    STORE(&arm_state, 1);
}

RL_INVISIBLE int64_t rl_checkpoint_worker_hits(void) { return LOAD(&worker_hits); }

RL_INVISIBLE int rl_checkpoint_armed_reached(void) { return LOAD(&arm_state) == 2; }

RL_INVISIBLE void rl_checkpoint_release(void) {
    STORE(&arm_state, 3);
    ADD(&arm_generation, 1);
    rl_quiet_unpause_all();
}

RL_INVISIBLE int64_t rl_checkpoint_activity(void) { return LOAD(&activity); }
RL_INVISIBLE int64_t rl_checkpoint_last_activity_ns(void) { return LOAD(&last_activity_ns); }

RL_INVISIBLE int64_t rl_checkpoint_hits(const char *name) {
    rl_name_slot *slot = slot_for(name, 0);
    return slot ? LOAD(&slot->hits) : 0;
}

RL_INVISIBLE int rl_thread_positions(rl_thread_position *out, int capacity) {
    int count = 0;
    for (int i = 0; i < RL_MAX_THREADS && count < capacity; i++) {
        int64_t tid = LOAD(&threads[i].thread_id);
        if (tid == 0) break;
        out[count].thread_id = tid;
        out[count].is_main_thread = LOAD(&threads[i].is_main_thread);
        out[count].checkpoint = LOAD(&threads[i].checkpoint);
        out[count].hits = LOAD(&threads[i].hits);
        out[count].at_ns = LOAD(&threads[i].at_ns);
        count++;
    }
    return count;
}
