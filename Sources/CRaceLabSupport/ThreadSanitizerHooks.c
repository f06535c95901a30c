#include "CRaceLabSupport.h"
#include "CRaceLabTrace.h"

#include <stddef.h>
#if defined(__linux__)
#include <signal.h>
#include <sys/prctl.h>
#endif

#if defined(__APPLE__)
#include <dlfcn.h>

// Layer 2 (holds, preemption and queue kinds): calls only lower layers (CLayersTests).
// Apple's linker refuses a weak reference no linked library defines (a build without TSan), and
// dyld binds a hook the TSan dylib looks for only if the program's own definition is weak.
#define RL_TSAN_HOOK __attribute__((weak))
#else
// Present only when the TSan runtime is linked in (weak: NULL otherwise).
extern void __tsan_init(void) __attribute__((weak));
extern void __tsan_ignore_thread_begin(void) __attribute__((weak));
extern void __tsan_ignore_thread_end(void) __attribute__((weak));
extern void AnnotateIgnoreSyncBegin(const char *file, int line) __attribute__((weak));
extern void AnnotateIgnoreSyncEnd(const char *file, int line) __attribute__((weak));
#define RL_TSAN_HOOK
#endif

static int64_t tsan_reports;

// TSan calls this (a weak hook in its runtime) after printing each report, with its internal
// locks held: touch only an atomic here.
RL_TSAN_HOOK __attribute__((no_sanitize("thread"), visibility("default")))
void __tsan_on_report(const void *report) {
    (void)report;
    __atomic_add_fetch(&tsan_reports, 1, __ATOMIC_RELAXED);
    rl_trace_note(RL_TRACE_REPORT, "TSan report", 0);
}

__attribute__((no_sanitize("thread")))
int rl_tsan_enabled(void) {
#if defined(__APPLE__)
    return dlsym(RTLD_DEFAULT, "__tsan_init") != NULL;
#else
    return __tsan_init != NULL;
#endif
}

__attribute__((no_sanitize("thread")))
int64_t rl_tsan_report_count(void) { return __atomic_load_n(&tsan_reports, __ATOMIC_RELAXED); }

__attribute__((no_sanitize("thread"))) void rl_tsan_unseen_begin(void) {
#if defined(__linux__)
    if (__tsan_ignore_thread_begin != NULL && AnnotateIgnoreSyncBegin != NULL) {
        __tsan_ignore_thread_begin();
        AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
    }
#endif
}

__attribute__((no_sanitize("thread"))) void rl_tsan_unseen_end(void) {
#if defined(__linux__)
    if (__tsan_ignore_thread_end != NULL && AnnotateIgnoreSyncEnd != NULL) {
        AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
        __tsan_ignore_thread_end();
    }
#endif
}

int rl_die_with_parent(void) {
#if defined(__linux__)
    return prctl(PR_SET_PDEATHSIG, SIGKILL);
#else
    return 0;
#endif
}

// TSan's defaults for every RaceLab program (racelab, racelab-child, the test bundle); a
// TSAN_OPTIONS in the environment still overrides them (the children get their own, see
// TSanEnvironment). TSan sleeps 1 s at exit by default to catch late races: a second added to
// every `racelab` command and to each of the test processes of `make test`. 100 ms, as the
// children have.
RL_TSAN_HOOK __attribute__((no_sanitize("thread"), visibility("default")))
const char *__tsan_default_options(void) { return "atexit_sleep_ms=100"; }
