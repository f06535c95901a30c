#include "CRaceLabTrace.h"
#include "CRaceLabSupport.h"

#include <pthread.h>

#include "Invisible.h"

// Layer 1 (the harness's clocks, accounts and the thread table): calls only lower layers (CLayersTests).

static rl_trace_header *header;
static rl_trace_event *events;
static pthread_t main_thread;

RL_INVISIBLE void rl_trace_attach(void *memory, int64_t bytes) {
    if (bytes < (int64_t)sizeof(rl_trace_header)) return;
    rl_trace_header *h = (rl_trace_header *)memory;
    h->capacity = (bytes - (int64_t)sizeof(rl_trace_header)) / (int64_t)sizeof(rl_trace_event);
    h->count = 0;
    h->iteration = 0;
    h->started_ns = rl_monotonic_ns();
    h->magic = RL_TRACE_MAGIC;
    main_thread = pthread_self();
    events = (rl_trace_event *)(h + 1);
    __atomic_store_n(&header, h, __ATOMIC_RELAXED);
}

RL_INVISIBLE void rl_trace_begin_iteration(int64_t iteration) {
    rl_trace_header *h = __atomic_load_n(&header, __ATOMIC_RELAXED);
    if (!h) return;
    __atomic_store_n(&h->count, 0, __ATOMIC_RELAXED);
    h->iteration = iteration;
    h->started_ns = rl_monotonic_ns();
}

RL_INVISIBLE void rl_trace_note(int32_t kind, const char *text, int64_t hit) {
    rl_trace_header *h = __atomic_load_n(&header, __ATOMIC_RELAXED);
    if (!h) return;
    int64_t slot = __atomic_fetch_add(&h->count, 1, __ATOMIC_RELAXED);
    if (slot >= h->capacity) return;
    rl_trace_event *event = &events[slot];
    event->at_ns = rl_monotonic_ns();
    event->thread_id = rl_current_thread_id();
    event->hit = hit;
    event->kind = kind;
    event->is_main_thread = pthread_equal(pthread_self(), main_thread) ? 1 : 0;
    // A plain loop, not strlen/memcpy: this also runs inside TSan's report hook, where calling
    // into intercepted libc functions is not safe.
    int length = 0;
    while (text && text[length] && length < RL_TRACE_TEXT - 1) {
        event->text[length] = text[length];
        length++;
    }
    event->text[length] = 0;
}
