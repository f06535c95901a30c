#include "CRaceLabSupport.h"

#include <pthread.h>

#include "Invisible.h"
#include "ThreadTable.h"

// Layer 1 (the harness's clocks, accounts and the thread table): calls only lower layers (CLayersTests).

// The thread table: the lab's threads as the interposers see them start and end (a
// slot each: its kernel id, whether it is a dispatch pool thread, how many blocks it runs, and
// whether the harness pauses or holds it), the threads being created, and the work sent to a
// queue that has not begun. Written by the layers above (the interposers, checkpoints, holds);
// read by quiet (Quiescence.c).


// The story counted now (high 32 bits: work sent before it is not its) and the work sent in it
// to the main queue, a pool's queue or after a delay that has not begun (low 32 bits): one
// word, so a story beginning between a block's count and its story's read cannot split them.
static int64_t waiting;
static int64_t threads_starting;  // created, not yet running
static int64_t threads_alive;     // created through pthread_create and not yet ended
static int64_t slot_thread[RL_TABLE_SLOTS];  // kernel thread id, 0: free
static int slot_is_pool[RL_TABLE_SLOTS];
static int slot_is_paused[RL_TABLE_SLOTS];  // paused at a scripted checkpoint: waits for the story
static int slot_story_held[RL_TABLE_SLOTS];  // in a hold that waits for the story (StoryHolds.c)
static int slot_running[RL_TABLE_SLOTS];    // blocks this thread is running (nested: a sync inside)
static int slot_is_held[RL_TABLE_SLOTS];    // held by the harness (a preemption): busy, whatever it waits on
static pthread_key_t slot_key;

RL_INVISIBLE static void forget_slot(void *slot) {
    intptr_t index = (intptr_t)slot - 1;
    if (index >= 0 && index < RL_TABLE_SLOTS) STORE(&slot_thread[index], 0);
}

RL_INVISIBLE static void thread_ended(void *slot) {
    forget_slot(slot);
    ADD(&threads_alive, -1);
}

// Made at load time, while the process has one thread: no pthread_once, which ThreadSanitizer
// would see as an ordering between every thread that asks for its slot.
__attribute__((constructor)) RL_INVISIBLE static void make_key(void) { pthread_key_create(&slot_key, thread_ended); }

RL_INVISIBLE static intptr_t own_slot(void) { return (intptr_t)pthread_getspecific(slot_key) - 1; }

#define RL_STORY_OF(word) ((word) >> 32)
#define RL_COUNT_OF(word) ((word) & 0xFFFFFFFF)

RL_INVISIBLE void rl_quiet_begin_story(void) {
    int64_t word = LOAD(&waiting);
    while (!__atomic_compare_exchange_n(&waiting, &word, (RL_STORY_OF(word) + 1) << 32, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

RL_INVISIBLE int64_t rl_quiet_work_queued(int counted) {
    if (!counted) return RL_STORY_OF(LOAD(&waiting));
    return RL_STORY_OF(ADD(&waiting, 1));
}

RL_INVISIBLE void rl_quiet_work_began(int counted, int64_t sent_in_story) {
    intptr_t index = own_slot();
    if (index >= 0 && index < RL_TABLE_SLOTS) ADD(&slot_running[index], 1);
    if (!counted) return;
    int64_t word = LOAD(&waiting);
    while (RL_STORY_OF(word) == sent_in_story && RL_COUNT_OF(word) > 0
           && !__atomic_compare_exchange_n(&waiting, &word, word - 1, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

RL_INVISIBLE void rl_quiet_work_ended(void) {
    intptr_t index = own_slot();
    if (index >= 0 && index < RL_TABLE_SLOTS) ADD(&slot_running[index], -1);
}
static int thread_limit = 512;
static int thread_limit_ends_process;

void rl_thread_limit_set(int limit, int ends_process) {
    STORE(&thread_limit, limit);
    STORE(&thread_limit_ends_process, ends_process);
}
int rl_thread_limit(void) { return LOAD(&thread_limit); }
int rl_thread_limit_ends_process(void) { return LOAD(&thread_limit_ends_process); }

RL_INVISIBLE int rl_quiet_thread_starting(void) {
    // A cap on threads: thousands of them would use up the machine's process ids, which every
    // other student's run and the grader itself need. Far above any lab's.
    if (ADD(&threads_alive, 1) > rl_thread_limit()) {
        ADD(&threads_alive, -1);
        return 0;
    }
    ADD(&threads_starting, 1);
    return 1;
}

RL_INVISIBLE void rl_quiet_thread_not_started(void) {
    ADD(&threads_starting, -1);
    ADD(&threads_alive, -1);
}

RL_INVISIBLE void rl_quiet_thread_began(int is_pool) {
    int64_t tid = rl_current_thread_id();
    pthread_setspecific(slot_key, (void *)(intptr_t)(RL_TABLE_SLOTS + 1));  // no slot: still counted alive
    for (intptr_t index = 0; index < RL_TABLE_SLOTS; index++) {
        int64_t expected = 0;
        if (__atomic_compare_exchange_n(&slot_thread[index], &expected, tid, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            STORE(&slot_is_pool[index], is_pool);
            STORE(&slot_is_paused[index], 0);
            STORE(&slot_story_held[index], 0);
            STORE(&slot_running[index], 0);
            STORE(&slot_is_held[index], 0);
            pthread_setspecific(slot_key, (void *)(index + 1));
            break;
        }
    }
    // Counted as starting until now, so that no look sees neither the creation nor the thread.
    ADD(&threads_starting, -1);
}

RL_INVISIBLE void rl_quiet_ignore_this_thread(void) {
    void *slot = pthread_getspecific(slot_key);
    if (slot == NULL) return;
    forget_slot(slot);  // still alive: counted until it ends (its key is kept for that)
    pthread_setspecific(slot_key, (void *)(intptr_t)(RL_TABLE_SLOTS + 1));
}

RL_INVISIBLE void rl_quiet_unpause_all(void) {
    for (int index = 0; index < RL_TABLE_SLOTS; index++) {
        if (LOAD(&slot_is_paused[index])) STORE(&slot_is_paused[index], 0);
    }
}

RL_INVISIBLE int rl_quiet_any_paused(void) {
    for (int index = 0; index < RL_TABLE_SLOTS; index++) {
        if (LOAD(&slot_thread[index]) != 0 && LOAD(&slot_is_paused[index])) return 1;
    }
    return 0;
}

RL_INVISIBLE void rl_quiet_held(int held) {
    intptr_t index = own_slot();
    if (index >= 0 && index < RL_TABLE_SLOTS) STORE(&slot_is_held[index], held);
}

RL_INVISIBLE void rl_quiet_story_held(int held) {
    intptr_t index = own_slot();
    if (index >= 0 && index < RL_TABLE_SLOTS) STORE(&slot_story_held[index], held);
}

RL_INVISIBLE void rl_quiet_paused(int paused) {
    intptr_t index = own_slot();
    if (index >= 0 && index < RL_TABLE_SLOTS) STORE(&slot_is_paused[index], paused);
}

RL_INVISIBLE int rl_quiet_is_lab_thread(int pool) {
    intptr_t index = own_slot();
    return index >= 0 && index < RL_TABLE_SLOTS && (pool || !LOAD(&slot_is_pool[index]));
}

RL_INVISIBLE int64_t rl_quiet_queued_work(void) { return RL_COUNT_OF(LOAD(&waiting)); }

// Read by quiet, one field of one slot at a time, in the order it looks (ThreadTable.h).
RL_INVISIBLE int64_t rl_table_threads_starting(void) { return LOAD(&threads_starting); }
RL_INVISIBLE int64_t rl_table_thread(int index) { return LOAD(&slot_thread[index]); }
RL_INVISIBLE int rl_table_pool(int index) { return LOAD(&slot_is_pool[index]); }
RL_INVISIBLE int rl_table_paused(int index) { return LOAD(&slot_is_paused[index]); }
RL_INVISIBLE int rl_table_story_held(int index) { return LOAD(&slot_story_held[index]); }
RL_INVISIBLE int rl_table_running(int index) { return LOAD(&slot_running[index]); }
RL_INVISIBLE int rl_table_held(int index) { return LOAD(&slot_is_held[index]); }
