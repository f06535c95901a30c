#ifndef CRACELAB_THREAD_TABLE_H
#define CRACELAB_THREAD_TABLE_H

#include <stdint.h>

// Layer 1 (ThreadTable.c), read by quiet (Quiescence.c): one slot per lab thread. The calls
// that write it are in CRaceLabSupport.h (rl_quiet_thread_began, rl_quiet_paused, ...).

#define RL_TABLE_SLOTS 1024

/// Threads created and not yet running.
int64_t rl_table_threads_starting(void);
/// Slot `index`: its thread's kernel id (0: free), and the rest of what it says of that thread.
int64_t rl_table_thread(int index);
int rl_table_pool(int index);
int rl_table_paused(int index);
int rl_table_story_held(int index);
int rl_table_running(int index);
int rl_table_held(int index);

#endif
