#ifndef CRACELAB_THREAD_SANITIZER_H
#define CRACELAB_THREAD_SANITIZER_H

#include <stddef.h>
#include <stdint.h>

// ThreadSanitizer, as the harness sees and steers it (ThreadSanitizerHooks.c, MutexVisibility.c).
// Part of CRaceLabSupport.h.

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

#endif
