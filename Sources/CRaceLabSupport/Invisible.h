#ifndef CRACELAB_INVISIBLE_H
#define CRACELAB_INVISIBLE_H

#include <stdint.h>

// What the C layer shares with lab threads without TSan seeing synchronisation: no TSan
// instrumentation for plain accesses, and only relaxed atomics (TSan instruments atomics even
// in no_sanitize functions, but a relaxed access is no synchronisation for it).
#define RL_INVISIBLE __attribute__((no_sanitize("thread")))
#define LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define ADD(p, v) __atomic_add_fetch((p), (v), __ATOMIC_RELAXED)

// Orders the plain and relaxed accesses before it before those after it, where the processor
// would not (arm64; x86 keeps them in order): TSan does not see an asm barrier, so it orders
// nothing for TSan's happens-before.
RL_INVISIBLE static inline void rl_memory_barrier(void) {
#if defined(__aarch64__)
    __asm__ volatile("dmb ish" ::: "memory");
#else
    __asm__ volatile("" ::: "memory");
#endif
}

// A 64-bit mixer (splitmix64's finaliser): seeded, repeatable draws for jitter and preemption.
RL_INVISIBLE static inline uint64_t rl_mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#endif
