#define _GNU_SOURCE
#include "CRaceLabSupport.h"

#include <stdlib.h>

#if defined(__linux__)
#include <dlfcn.h>
#include <linux/futex.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#endif

// Layer 0 (thread facts and stand-alone facilities): calls only lower layers (CLayersTests).

// A race test's child under Swift Testing: its tests run on pool threads, and the program's
// main thread parks in dispatch_main (Swift's async main), where it serves the main queue no
// more: blocks sent there run on pool threads, and Thread.isMainThread is never true. The
// harness drives its passes from the main thread, as it does a lab's UI. So in such a child
// (RACELAB_LEND_MAIN_THREAD=1) dispatch_main, defined here in front of libdispatch's, keeps the
// main thread as it was: it runs the main queue's work as a run loop would, and runs the one
// piece of work a test hands it (rl_main_loan_run). Anywhere else it is libdispatch's own. The
// variable is taken out of the environment as the program loads, so a program the test starts
// does not lend its own main thread.
#if defined(__linux__)
enum { LOAN_NONE = 0, LOAN_SERVING = 1, LOAN_CLAIMED = 2, LOAN_POSTED = 3, LOAN_DONE = 4 };
static int loan_state;
static void (*loan_work)(void *);
static void *loan_context;

extern void _dispatch_main_queue_callback_4CF(void *message) __attribute__((weak));
extern int _dispatch_get_main_queue_handle_4CF(void) __attribute__((weak));

static void wake(int *word) { syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0); }

static int64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

// Read (and taken out of the environment) as the program loads, while it has one thread.
static int lend_asked;

__attribute__((constructor)) static void read_the_request(void) {
    const char *lend = getenv("RACELAB_LEND_MAIN_THREAD");
    lend_asked = lend != NULL && lend[0] == '1' && lend[1] == 0;
    if (lend != NULL) unsetenv("RACELAB_LEND_MAIN_THREAD");
}

static int lends(void) { return __atomic_load_n(&lend_asked, __ATOMIC_ACQUIRE); }

static void wait_while(int *word, int value, int64_t at_most_ns) {
    struct timespec limit = {at_most_ns / 1000000000, at_most_ns % 1000000000};
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, &limit, NULL, 0);
}

__attribute__((noreturn)) static void serve(void) {
    __atomic_store_n(&loan_state, LOAN_SERVING, __ATOMIC_SEQ_CST);
    wake(&loan_state);
    int queue = _dispatch_get_main_queue_handle_4CF ? _dispatch_get_main_queue_handle_4CF() : -1;
    for (;;) {
        if (__atomic_load_n(&loan_state, __ATOMIC_ACQUIRE) == LOAN_POSTED) {
            loan_work(loan_context);
            __atomic_store_n(&loan_state, LOAN_DONE, __ATOMIC_RELEASE);
            wake(&loan_state);
        }
        // The main queue's work (Swift's async main, a @MainActor test), as a run loop runs it:
        // the handle is an eventfd libdispatch only writes; reading it resets it.
        struct pollfd look = {queue, POLLIN, 0};
        if (queue >= 0 && poll(&look, 1, 1) > 0 && _dispatch_main_queue_callback_4CF) {
            eventfd_t count;
            (void)eventfd_read(queue, &count);
            _dispatch_main_queue_callback_4CF(NULL);
        } else if (queue < 0) {
            wait_while(&loan_state, LOAN_SERVING, 1000000);
        }
    }
}

__attribute__((noreturn)) void dispatch_main(void) {
    if (lends() && syscall(SYS_gettid) == getpid() && _dispatch_main_queue_callback_4CF &&
        _dispatch_get_main_queue_handle_4CF) {
        serve();
    }
    __atomic_store_n(&lend_asked, 0, __ATOMIC_RELEASE);  // not lent: a waiting test hears so
    wake(&loan_state);
    void (*real)(void) = (void (*)(void))dlsym(RTLD_NEXT, "dispatch_main");
    if (real == NULL) abort();
    real();
    __builtin_unreachable();
}

int rl_main_loan_run(void (*work)(void *), void *context, double wait_seconds) {
    // Not lent yet (the main thread may not have parked yet): wait while this is such a child.
    int64_t until = now_ns() + (int64_t)(wait_seconds * 1e9);
    for (int state; (state = __atomic_load_n(&loan_state, __ATOMIC_ACQUIRE)) == LOAN_NONE;) {
        if (!lends() || now_ns() >= until) return -1;
        wait_while(&loan_state, LOAN_NONE, 10000000);
    }
    // One caller at a time has it (the cases of a parameterized test run at once).
    int serving = LOAN_SERVING;
    while (!__atomic_compare_exchange_n(&loan_state, &serving, LOAN_CLAIMED, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        wait_while(&loan_state, serving, 100000000);
        serving = LOAN_SERVING;
    }
    loan_work = work;
    loan_context = context;
    __atomic_store_n(&loan_state, LOAN_POSTED, __ATOMIC_RELEASE);
    wake(&loan_state);
    while (__atomic_load_n(&loan_state, __ATOMIC_ACQUIRE) != LOAN_DONE) wait_while(&loan_state, LOAN_POSTED, 100000000);
    __atomic_store_n(&loan_state, LOAN_SERVING, __ATOMIC_RELEASE);
    wake(&loan_state);
    return 0;
}
#else
int rl_main_loan_run(void (*work)(void *), void *context, double wait_seconds) {
    (void)work, (void)context, (void)wait_seconds;
    return -1;
}
#endif
