#define _GNU_SOURCE
#include "CRaceLabSupport.h"

#include <dlfcn.h>
#include <time.h>
#if defined(__linux__)
#include <poll.h>
#endif

// Layer 0 (thread facts and stand-alone facilities): calls only lower layers (CLayersTests).

// The main thread's nap between two turns of its run loop while a story waits, cut short the
// moment work is sent to the main queue: libdispatch signals a descriptor for that, the one
// Core Foundation's run loop waits on (`_dispatch_get_main_queue_handle_4CF`, exported for it).
// Waiting on it directly arms no timer, so no pool thread is woken for the wait, and the main
// thread answers main-queue work as soon as a run loop that waits would.

#if defined(__linux__)
typedef int (*rl_main_queue_handle_fn)(void);

// Usually asked on the main thread, but a story run from a test may wait on another: atomic, and
// any thread that finds it unknown looks it up (the same answer each time).
static int main_queue_descriptor(void) {
    static int descriptor = -2;
    int known = __atomic_load_n(&descriptor, __ATOMIC_RELAXED);
    if (known == -2) {
        rl_main_queue_handle_fn handle = (rl_main_queue_handle_fn)dlsym(RTLD_DEFAULT, "_dispatch_get_main_queue_handle_4CF");
        known = handle != NULL ? handle() : -1;
        __atomic_store_n(&descriptor, known, __ATOMIC_RELAXED);
    }
    return known;
}
#endif

int rl_main_queue_wait(int64_t nanoseconds) {
    if (nanoseconds <= 0) return 0;
    struct timespec limit = {(time_t)(nanoseconds / 1000000000), (long)(nanoseconds % 1000000000)};
#if defined(__linux__)
    int descriptor = main_queue_descriptor();
    if (descriptor >= 0) {
        struct pollfd wanted = {descriptor, POLLIN, 0};
        return ppoll(&wanted, 1, &limit, NULL) > 0 ? 1 : 0;
    }
#endif
    nanosleep(&limit, NULL);
    return 0;
}
