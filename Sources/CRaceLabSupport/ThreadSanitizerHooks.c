#include "CRaceLabSupport.h"
#include "CRaceLabTrace.h"

#include <stddef.h>
#if defined(__linux__)
#include <signal.h>
#include <sys/prctl.h>
#endif

// Present only when the TSan runtime is linked in (weak: NULL otherwise).
extern void __tsan_init(void) __attribute__((weak));

static int64_t tsan_reports;

// TSan calls this (a weak hook in its runtime) after printing each report, with its internal
// locks held: touch only an atomic here.
__attribute__((no_sanitize("thread"), visibility("default")))
void __tsan_on_report(const void *report) {
    (void)report;
    __atomic_add_fetch(&tsan_reports, 1, __ATOMIC_RELAXED);
    rl_trace_note(RL_TRACE_REPORT, "TSan report", 0);
}

__attribute__((no_sanitize("thread")))
int rl_tsan_enabled(void) { return __tsan_init != NULL; }

__attribute__((no_sanitize("thread")))
int64_t rl_tsan_report_count(void) { return __atomic_load_n(&tsan_reports, __ATOMIC_RELAXED); }

int rl_die_with_parent(void) {
#if defined(__linux__)
    return prctl(PR_SET_PDEATHSIG, SIGKILL);
#else
    return 0;
#endif
}
