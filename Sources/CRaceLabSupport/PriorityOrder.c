#include "CRaceLabSupport.h"

#include <stdint.h>

#include "Invisible.h"
#include "PriorityOrder.h"

// Which lab thread goes first in a stress story ordered by priority (PCT-style: Burckhardt et al.,
// "A randomized scheduler with probabilistic guarantees of finding bugs"): each thread a seeded
// priority, the highest one running goes on while the others wait, and at a few change points,
// drawn by the seed among the story's looks with threads competing, the first one drops below
// all. Bookkeeping only: Preemption.c's sender asks it whom to let run and signals the others,
// whose handler waits while the first one runs.
//
// The sender chooses; the main thread begins and ends a story's order (between stories, while
// the sender may still be looking: a look across the boundary may mix the two, which changes
// only which thread goes first once); the handler reads `first_tid` and counts itself waiting.
// Relaxed atomics throughout (Invisible.h): nothing here orders the lab's threads for TSan.

// Layer 0 (thread facts and stand-alone facilities): calls only lower layers (CLayersTests).

enum { RL_ORDER_SLOTS = RL_PRIORITY_ORDER_SLOTS, RL_ORDER_MAX_CHANGES = 3 };
// The first thread keeps its place this long while others wait, at most: one that spins for
// another's turn (a spin lock) would otherwise hold the others off for good.
static const int64_t hog_ns = 20 * 1000000;

static uint64_t order_seed;
static int order_on;
static int64_t slot_tid[RL_ORDER_SLOTS];
static int64_t slot_priority[RL_ORDER_SLOTS];
static int64_t arrivals;
static int64_t rounds;
static int64_t lowest;
static int64_t change_at[RL_ORDER_MAX_CHANGES];
static int change_count;
static int64_t changes_made;
static int64_t first_tid;
static int64_t first_since_ns;
static int64_t waiting;

RL_INVISIBLE void rl_priority_order_begin(uint64_t seed, int64_t horizon) {
    STORE(&order_on, 0);
    for (int i = 0; i < RL_ORDER_SLOTS; i++) {
        STORE(&slot_tid[i], 0);
        STORE(&slot_priority[i], 0);
    }
    if (horizon < 1) horizon = 1;
    STORE(&order_seed, seed);
    STORE(&arrivals, 0);
    STORE(&rounds, 0);
    STORE(&lowest, 0);
    STORE(&changes_made, 0);
    STORE(&first_tid, 0);
    STORE(&first_since_ns, 0);
    int count = 1 + (int)(rl_mix64(seed ^ 0xC4A2E) % RL_ORDER_MAX_CHANGES);
    if (count > horizon) count = (int)horizon;
    // Distinct looks: two change points on one look would drop two threads at once.
    for (int i = 0; i < count; i++) {
        int64_t at = 1 + (int64_t)(rl_mix64(seed + (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ULL) % (uint64_t)horizon);
        for (int j = 0; j < i; j++) {
            if (LOAD(&change_at[j]) != at) continue;
            at = at % horizon + 1;
            j = -1;  // look at all the earlier ones again
        }
        STORE(&change_at[i], at);
    }
    STORE(&change_count, count);
    STORE(&order_on, seed != 0);
}

RL_INVISIBLE int rl_priority_order_on(void) { return LOAD(&order_on); }
RL_INVISIBLE int64_t rl_priority_order_rounds(void) { return LOAD(&rounds); }
RL_INVISIBLE int64_t rl_priority_order_changes(void) { return LOAD(&changes_made); }
RL_INVISIBLE int64_t rl_priority_order_first(void) { return LOAD(&order_on) ? LOAD(&first_tid) : 0; }
RL_INVISIBLE void rl_priority_order_waiting(int delta) { ADD(&waiting, delta); }

// The priority of the thread in ring slot `slot`: drawn when a new thread is first seen there.
RL_INVISIBLE static int64_t priority_of(int slot, int64_t tid) {
    if (LOAD(&slot_tid[slot]) != tid) {
        int64_t arrival = ADD(&arrivals, 1);
        // Positive and below 2^62: demoted threads (negative) stay below every drawn one.
        int64_t drawn = (int64_t)(rl_mix64(LOAD(&order_seed) ^ ((uint64_t)arrival * 0xD1B54A32D192ED03ULL)) >> 2) + 1;
        STORE(&slot_priority[slot], drawn);
        STORE(&slot_tid[slot], tid);
    }
    return LOAD(&slot_priority[slot]);
}

RL_INVISIBLE static void demote(int slot) {
    STORE(&slot_priority[slot], ADD(&lowest, -1));
    ADD(&changes_made, 1);
}

RL_INVISIBLE static int highest(const int *slots, const int64_t *tids, int count) {
    int best = -1;
    int64_t best_priority = 0;
    for (int i = 0; i < count; i++) {
        int64_t priority = priority_of(slots[i], tids[i]);
        if (best < 0 || priority > best_priority) {
            best = i;
            best_priority = priority;
        }
    }
    return best;
}

RL_INVISIBLE int64_t rl_priority_order_choose(const int *slots, const int64_t *tids, int count, int64_t now_ns) {
    if (!LOAD(&order_on) || count <= 0) return 0;
    int best = highest(slots, tids, count);
    // A look with threads competing (two running, or one waiting for its turn) is a step of the
    // schedule: change points are counted in them.
    if (count >= 2 || LOAD(&waiting) > 0) {
        int64_t round = ADD(&rounds, 1);
        for (int i = 0; i < LOAD(&change_count); i++) {
            if (LOAD(&change_at[i]) != round) continue;
            demote(slots[best]);
            best = highest(slots, tids, count);
        }
    }
    int64_t chosen = tids[best];
    if (chosen != LOAD(&first_tid)) {
        STORE(&first_since_ns, now_ns);
    } else if (LOAD(&waiting) > 0 && now_ns - LOAD(&first_since_ns) > hog_ns) {
        demote(slots[best]);
        best = highest(slots, tids, count);
        chosen = tids[best];
        STORE(&first_since_ns, now_ns);
    }
    STORE(&first_tid, chosen);
    return chosen;
}
